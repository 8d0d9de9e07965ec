//! `receive --delete` into a pipe deletes what the reader took out of the pipe, in every format:
//! `| head -1` (which reads a whole block and keeps one line), a reader slow to start, a pipe
//! closed from the start and a full disk leave nothing deleted unread, and the summary's counts
//! say what happened.

use crate::receive::{counts, numbered, send_bodies, shell};
use crate::support::{Run, TestEnv, unique_name};

/// The counts of receive's summary line with --delete: (received, deleted, made visible again).
fn summary_counts(stderr: &str, queue: &str) -> (u64, u64, u64) {
    let pattern = regex::Regex::new(&format!(
        r"received (\d+) messages? from {queue}(?: \(and \d+ duplicate deliver(?:y|ies) of messages already received, not shown again\))?, deleted (\d+)(?:; (\d+) not (?:taken by the reader|written) were made visible again)?\n"
    ))
    .unwrap();
    let caps = pattern
        .captures(stderr)
        .unwrap_or_else(|| panic!("no summary: {stderr}"));
    let number = |i| caps.get(i).map_or(0, |m| m.as_str().parse().unwrap());
    (number(1), number(2), number(3))
}

/// Checks a run of `receive --delete` that the reader left early: the summary's counts add up,
/// the queue lost exactly what the summary says was deleted, and nothing is left hidden.
fn assert_deleted(env: &TestEnv, run: &Run, queue: &sqsctl::client::QueueRef, deleted: u64) {
    run.assert_code(0);
    let (received, said_deleted, released) = summary_counts(&run.stderr, &queue.name);
    assert_eq!(said_deleted, deleted, "{}", run.stderr);
    assert_eq!(received, deleted + released, "{}", run.stderr);
    assert_eq!(counts(env, queue), (10 - deleted, 0), "{}", run.stderr);
}

#[test]
fn head_1_deletes_only_the_message_it_read_in_every_format() {
    let env = TestEnv::start();
    // `-o json | head -1` reads `[`: no message.
    for (format, read, deleted) in [
        ("-o jsonl", "\"message\"", 1),
        ("-o text", "m", 1),
        ("-o json", "[", 0),
        ("--format '{id} {body}'", " m", 1),
    ] {
        let name = unique_name("head");
        let queue = env.create_queue(&name, &[]);
        send_bodies(&env, &queue, &numbered("m", 10));
        let run = shell(
            &env,
            &format!("\"$SQSCTL\" receive {name} --delete --yes --max 10 {format} | head -1"),
        );
        assert_eq!(run.stdout.lines().count(), 1, "{format}: {}", run.stdout);
        assert!(run.stdout.contains(read), "{format}: {}", run.stdout);
        assert_deleted(&env, &run, &queue, deleted);
    }
}

#[test]
fn a_slow_reader_a_closed_pipe_and_a_full_disk_get_nothing_deleted_unread() {
    let env = TestEnv::start();
    let name = unique_name("slow");
    let queue = env.create_queue(&name, &[]);
    send_bodies(&env, &queue, &numbered("m", 10));
    // The reader starts late and then reads a whole block, as `head` does.
    let run = shell(
        &env,
        &format!("\"$SQSCTL\" receive {name} --delete --yes --max 10 | (sleep 2; head -1)"),
    );
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert_deleted(&env, &run, &queue, 1);

    let name = unique_name("closed");
    let queue = env.create_queue(&name, &[]);
    send_bodies(&env, &queue, &numbered("m", 10));
    let run = shell(
        &env,
        &format!("\"$SQSCTL\" receive {name} --delete --yes --max 10 -o text | true"),
    );
    assert_deleted(&env, &run, &queue, 0);

    let name = unique_name("full");
    let queue = env.create_queue(&name, &[]);
    send_bodies(&env, &queue, &numbered("m", 10));
    let run = shell(
        &env,
        &format!("\"$SQSCTL\" receive {name} --delete --yes --max 10 -o jsonl > /dev/full"),
    );
    run.assert_code(1);
    assert!(
        run.stderr.contains("No space left on device"),
        "{}",
        run.stderr
    );
    let (received, deleted, released) = summary_counts(&run.stderr, &name);
    assert_eq!((deleted, released), (0, received), "{}", run.stderr);
    assert_eq!(counts(&env, &queue), (10, 0), "{}", run.stderr);
}

#[test]
fn a_table_into_a_pipe_with_delete_is_refused_before_anything_is_received() {
    let env = TestEnv::start();
    let name = unique_name("table");
    let queue = env.create_queue(&name, &[]);
    send_bodies(&env, &queue, &numbered("m", 3));
    let run = shell(
        &env,
        &format!("\"$SQSCTL\" receive {name} --delete --yes -o table | cat"),
    );
    run.assert_code(2);
    assert!(
        run.stderr.contains(
            "a table is written a batch at a time: use -o jsonl, -o json, -o text or --format"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(counts(&env, &queue), (3, 0));
}

/// A reader that keeps up gets every message, each deleted once taken, also with `-o json`,
/// whose document stays whole.
#[test]
fn a_reader_that_reads_everything_gets_every_message_deleted_once() {
    let env = TestEnv::start();
    let name = unique_name("whole");
    let queue = env.create_queue(&name, &[]);
    send_bodies(&env, &queue, &numbered("m", 25));
    let run = shell(
        &env,
        &format!("\"$SQSCTL\" receive {name} --until-empty --delete --yes -o json | cat"),
    );
    run.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut bodies: Vec<String> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    bodies.sort();
    let mut expected = numbered("m", 25);
    expected.sort();
    assert_eq!(bodies, expected);
    assert_eq!(summary_counts(&run.stderr, &name), (25, 25, 0));
    assert_eq!(counts(&env, &queue), (0, 0));
}
