//! `sqsctl receive` through the real binary against the local server: `--max` is exact, the
//! `receive | send` round trip keeps what a record carries, `--delete` asks first and deletes only
//! what was written (closed pipes, Ctrl-C), and a terminal keeps no progress line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod follow;
mod guard;
mod pipe;
mod truth;

use crate::support;

use std::io::{BufRead, BufReader};

use sqsctl::client::QueueRef;
use sqsctl::local::ServerConfig;
use sqsctl::message::MessageRecord;
use support::snapshot::assert_snapshot;
use support::{Run, TestEnv};

pub(crate) fn send_bodies(env: &TestEnv, queue: &QueueRef, bodies: &[String]) {
    env.send(queue, bodies.iter().map(MessageRecord::with_body).collect());
}

pub(crate) fn numbered(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

/// (visible, in flight) as the queue reports them.
pub(crate) fn counts(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.settled_attributes(queue);
    (attrs.visible(), attrs.in_flight())
}

/// The bodies of the message records a run wrote, sorted.
pub(crate) fn bodies(run: &Run) -> Vec<String> {
    sorted(
        run.records_of("message")
            .iter()
            .map(|m| m["body"].as_str().unwrap().to_string())
            .collect(),
    )
}

/// Runs `bash -o pipefail -c SCRIPT` in the test's environment, with `$SQSCTL` the binary: the
/// exit code is sqsctl's where the reader exits 0.
pub(crate) fn shell(env: &TestEnv, script: &str) -> Run {
    let template = env.cmd();
    let mut cmd = std::process::Command::new("bash");
    cmd.env_clear();
    for (key, value) in template.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    Run::from_output(
        cmd.env("SQSCTL", support::BIN)
            .args(["-o", "pipefail", "-c", script])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap(),
    )
}

pub(crate) fn sorted(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items
}

#[test]
fn receive_max_is_exact_even_with_concurrent_requests() {
    let env = TestEnv::start();
    let queue = env.create_queue("exact", &[]);
    send_bodies(&env, &queue, &numbered("m", 25));
    let run = env.run(&["receive", "exact", "--max", "15", "--concurrency", "4"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 15);
    assert_eq!(counts(&env, &queue), (10, 15));
}

#[test]
fn receive_and_send_round_trip_between_queues_through_a_pipe() {
    let env = TestEnv::start();
    let source = env.create_queue("source", &[]);
    let target = env.create_queue("target", &[]);
    let records: String = (0..30)
        .map(|i| {
            format!(
                "{{\"body\":\"payload {i}\",\"message_attributes\":{{\"n\":{{\"type\":\"Number\",\"value\":\"{i}\"}}}}}}\n"
            )
        })
        .collect();
    env.run_stdin(&["send", "source", "--jsonl"], &records)
        .assert_code(0);

    let mut receiver =
        env.spawn_piped(&["receive", "source", "--until-empty", "--delete", "--yes"]);
    let sender = env
        .cmd()
        .args(["send", "target", "--jsonl"])
        .stdin(receiver.stdout.take().unwrap())
        .output()
        .unwrap();
    let receiver = receiver.wait_with_output().unwrap();
    assert_eq!(receiver.status.code(), Some(0));
    assert_eq!(
        sender.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&sender.stderr)
    );
    assert_eq!(env.depth(&source), 0);

    let moved = env.drain(&target);
    assert_eq!(moved.len(), 30);
    for message in moved {
        let n: usize = message
            .body
            .strip_prefix("payload ")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(message.message_attributes["n"].value, n.to_string());
        assert_eq!(message.message_attributes["n"].data_type, "Number");
    }
}

#[test]
fn fifo_records_keep_their_group_ids_through_receive_and_send() {
    let env = TestEnv::start();
    env.create_queue(
        "in.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    );
    let out = env.create_queue("out.fifo", &[("FifoQueue", "true")]);
    let input = "{\"body\":\"a1\",\"group_id\":\"a\"}\n{\"body\":\"b1\",\"group_id\":\"b\"}\n{\"body\":\"a2\",\"group_id\":\"a\"}\n";
    env.run_stdin(&["send", "in.fifo", "--jsonl"], input)
        .assert_code(0);
    let received = env.run(&["receive", "in.fifo", "--until-empty", "--delete", "--yes"]);
    received.assert_code(0);
    assert_eq!(received.records_of("message").len(), 3);
    // The received records carry group and deduplication ids, so the FIFO destination needs no options.
    env.run_stdin(&["send", "out.fifo", "--jsonl"], &received.stdout)
        .assert_code(0);
    let run = env.run(&["receive", "out.fifo", "--until-empty", "--delete", "--yes"]);
    let moved: Vec<(String, String)> = run
        .records_of("message")
        .iter()
        .map(|m| {
            (
                m["group_id"].as_str().unwrap().to_string(),
                m["body"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let group_a: Vec<&str> = moved
        .iter()
        .filter(|(g, _)| g == "a")
        .map(|(_, b)| b.as_str())
        .collect();
    assert_eq!(group_a, vec!["a1", "a2"]);
    assert_eq!(moved.len(), 3);
    assert_eq!(env.depth(&out), 0);
    // A per-message delay is not allowed on FIFO queues: refused before sending.
    let run = env.run(&[
        "send",
        "out.fifo",
        "--group-id",
        "g",
        "--dedup-id",
        "d",
        "--delay",
        "5",
        "x",
    ]);
    run.assert_code(1);
    assert_snapshot!(name: "fifo_delay", run.stderr);
    // A fixed dedup id for many records is almost always a mistake: say so.
    let run = env.run_stdin(
        &[
            "send",
            "out.fifo",
            "--lines",
            "--group-id",
            "g",
            "--dedup-id",
            "same",
        ],
        "1\n2\n",
    );
    run.assert_code(0);
    assert_snapshot!(name: "fixed_dedup_id", run.stderr);
}

/// Without --delete a message comes back when its visibility timeout ends: a run reads each
/// message once, so with a timeout of 0 it stops at once, says so, and is not a clean "until
/// empty" (exit 3).
#[test]
fn receive_until_empty_without_delete_stops_before_messages_come_back() {
    let env = TestEnv::start();
    let queue = env.create_queue("reappear", &[]);
    send_bodies(&env, &queue, &numbered("r", 5));
    // A long poll: a short one may ask only some of SQS's servers and miss all five.
    let read_once = || {
        env.run(&[
            "receive",
            "reappear",
            "--until-empty",
            "--visibility",
            "0",
            "--wait",
            "1",
        ])
    };
    let run = read_once();
    run.assert_code(3);
    let mut bodies = bodies(&run);
    let written = bodies.len();
    bodies.dedup();
    assert_eq!(bodies.len(), written, "a message written twice");
    assert!(written >= 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "stopped receiving before the first message returned could come back (its visibility timeout is 0s)"
        ) && run.stderr.contains("the queue may hold messages not read"),
        "{}",
        run.stderr
    );
    assert_eq!(env.depth(&queue), 5);
    // One request went: a second run finds no message received more than twice (one receive per
    // run), where a request per parallel receiver raised the counts by as many.
    let again = read_once();
    again.assert_code(3);
    for message in again.records_of("message") {
        let count: u64 = message["attributes"]["ApproximateReceiveCount"]
            .as_str()
            .and_then(|c| c.parse().ok())
            .unwrap();
        assert!(count <= 2, "received {count} times in two runs: {message}");
    }
}

/// With a hold of 0 s on an empty queue, the one request is a long poll, which finds the queue
/// empty: a clean "until empty". With `--wait 0` it is a short poll, which proves nothing: the run
/// says so and is not clean.
#[test]
fn receive_until_empty_with_a_hold_of_0s_on_an_empty_queue() {
    let env = TestEnv::start();
    env.create_queue("nothing", &[]);
    let run = env.run(&["receive", "nothing", "--until-empty", "--visibility", "0"]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("received 0 messages from nothing; the queue is empty")
            && !run.stderr.contains("warning"),
        "{}",
        run.stderr
    );
    let run = env.run(&[
        "receive",
        "nothing",
        "--until-empty",
        "--visibility",
        "0",
        "--wait",
        "0",
    ]);
    run.assert_code(3);
    assert!(
        !run.stderr.contains("the queue is empty")
            && run
                .stderr
                .contains("stopped after a short poll that returned nothing")
            && run.stderr.contains("the queue may hold messages not read"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_output_is_one_document_and_text_output_is_bodies() {
    let env = TestEnv::start();
    let queue = env.create_queue("docs", &[]);
    let run = env.run(&["peek", "docs", "-o", "json"]);
    run.assert_code(0);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap(),
        serde_json::json!([])
    );
    send_bodies(&env, &queue, &numbered("d", 12));
    let run = env.run(&[
        "receive", "docs", "--max", "12", "-o", "json", "--delete", "--yes",
    ]);
    run.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let bodies: Vec<String> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sorted(bodies), sorted(numbered("d", 12)));
    assert_eq!(env.depth(&queue), 0);

    // A queue of its own: on SQS a copy of a message deleted above may still come back.
    env.create_queue("texts", &[]);
    let run = env.run(&["send", "texts", "-o", "json", "one"]);
    run.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc["message_id"].is_string());
    let run = env.run(&["receive", "texts", "-o", "text"]);
    assert_eq!(run.stdout, "one\n");
}

#[test]
fn receive_delete_needs_yes_or_a_confirmation_on_a_terminal() {
    let env = TestEnv::start();
    let queue = env.create_queue("guarded", &[]);
    // One message: on SQS a short poll samples, so several would come in batches that vary from
    // run to run, and a terminal gets a table per batch.
    send_bodies(&env, &queue, &numbered("g", 1));
    let run = env.run(&["receive", "guarded", "--delete"]);
    run.assert_code(2);
    assert_snapshot!(name: "without_yes", run.stderr);
    assert_eq!(
        counts(&env, &queue),
        (1, 0),
        "nothing received without consent"
    );

    let run = env.run_tty(&["receive", "guarded", "--delete"], "n\n");
    run.assert_code(6);
    assert_snapshot!(name: "answered_no", run.stderr);
    assert_eq!(env.depth(&queue), 1);

    let run = env.run_tty(&["receive", "guarded", "--delete", "--until-empty"], "y\n");
    run.assert_code(0);
    // On a terminal the output is a table, not JSON.
    assert_snapshot!(name: "table", run.stdout);
    assert_eq!(env.depth(&queue), 0);
}

#[test]
fn a_closed_pipe_exits_0_and_deletes_nothing_that_was_not_written() {
    let env = TestEnv::start();
    let queue = env.create_queue("pipe", &[]);
    // Large enough that the pipe buffer fills and the writer sees the pipe close.
    let body = "z".repeat(1000);
    let bodies: Vec<String> = (0..150).map(|i| format!("{i} {body}")).collect();
    send_bodies(&env, &queue, &bodies);
    let mut child = env.spawn_piped(&[
        "receive",
        "pipe",
        "--until-empty",
        "--delete",
        "--yes",
        "--concurrency",
        "1",
    ]);
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    // The whole first batch, so at least one batch was written in full before the pipe closes.
    for _ in 0..10 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("\"message\""), "{line}");
    }
    drop(reader);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // No error on a closed pipe: the summary alone, which says what was deleted.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (visible, in_flight) = counts(&env, &queue);
    assert_eq!(in_flight, 0, "unwritten messages are released at once");
    assert!(visible > 0, "the run stopped at the closed pipe");
    // One message in the pipe at a time: each read took one, and the 10 it read are what was
    // deleted.
    let deleted = 150 - visible;
    assert_eq!(deleted, 10, "what the reader took was deleted: {stderr}");
    assert!(
        stderr.contains(&format!("deleted {deleted};")),
        "the summary says what was deleted: {stderr}"
    );
}

#[test]
fn ctrl_c_stops_receive_and_deletes_exactly_what_was_written() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: std::time::Duration::from_millis(40),
        ..ServerConfig::default()
    });
    let queue = env.create_queue("interrupted", &[]);
    send_bodies(&env, &queue, &numbered("i", 300));
    let mut child = env.spawn_piped(&[
        "receive",
        "interrupted",
        "--until-empty",
        "--delete",
        "--yes",
        "--concurrency",
        "1",
    ]);
    // A reader that keeps up, as a pipeline's next program does: into a pipe, a message is
    // deleted once the reader has taken it. The interrupt comes once the first messages arrived,
    // however long a loaded machine takes to start the binary.
    let stdout = child.stdout.take().unwrap();
    let (first, arrived) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = 0u64;
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            line.unwrap();
            lines += 1;
            if lines == 1 {
                let _ = first.send(());
            }
        }
        lines
    });
    arrived
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the first message is written");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let written = reader.join().unwrap();
    let (visible, in_flight) = counts(&env, &queue);
    assert!(written > 0 && written < 300, "stopped part way: {written}");
    assert_eq!(in_flight, 0, "nothing left hidden");
    assert_eq!(
        visible,
        300 - written,
        "deleted exactly the written messages"
    );
}

/// Runs `receive` with `args`, reads one line of its stdout and closes the pipe, like `| head -1`.
fn receive_and_close_after_one_line(env: &TestEnv, args: &[&str]) -> (Option<i32>, String) {
    let mut child = env.spawn_piped(&[&["receive"], args].concat());
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("\"message\""), "{line}");
    drop(reader);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn receive_delete_into_a_pipe_read_for_one_line_deletes_only_that_line() {
    let env = TestEnv::start();
    let queue = env.create_queue("head-bound", &[]);
    // Small records: a default pipe buffer (64 KiB) would hold more than a hundred of them.
    send_bodies(&env, &queue, &numbered("m", 500));
    let mut child = env.spawn_piped(&[
        "receive",
        "head-bound",
        "--until-empty",
        "--delete",
        "--yes",
    ]);
    // A reader slower to start than the writer, as `| head -1` can be: whatever the writer can
    // put into the pipe meanwhile, it does.
    std::thread::sleep(std::time::Duration::from_millis(700));
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("\"message\""), "{line}");
    drop(reader);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let (visible, in_flight) = counts(&env, &queue);
    assert_eq!(in_flight, 0, "what was not deleted is released at once");
    let deleted = 500 - visible;
    assert_eq!(deleted, 1, "one message read, {deleted} deleted: {stderr}");
}

#[test]
fn a_closed_pipe_never_receives_a_released_message_again() {
    let env = TestEnv::start();
    env.create_queue("head-dlq", &[]);
    let dlq = env.block_on(env.sqs().resolve("head-dlq")).unwrap();
    let dlq_arn = env.server().queue_arn("head-dlq");
    // maxReceiveCount 1: a second receive of any message moves it to the DLQ.
    let policy = format!("{{\"deadLetterTargetArn\":\"{dlq_arn}\",\"maxReceiveCount\":\"1\"}}");
    // Bodies large enough that the pipe fills while receives are in flight; few enough that
    // most receivers find the queue empty while the first batches are being written.
    let body = "h".repeat(8000);
    let bodies: Vec<String> = (0..30).map(|i| format!("{i} {body}")).collect();
    for (name, args) in [
        ("head", &["--until-empty", "--delete", "--yes", "-v"][..]),
        (
            "head2",
            &["--max", "30", "--until-empty", "--force", "-v"][..],
        ),
    ] {
        let queue = env.create_queue(name, &[("RedrivePolicy", &policy)]);
        send_bodies(&env, &queue, &bodies);
        let mut all = vec![name];
        all.extend_from_slice(args);
        let (code, stderr) = receive_and_close_after_one_line(&env, &all);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(stderr.contains("released"), "{stderr}");
        assert_eq!(env.depth(&dlq), 0, "{name}: no message was received twice");
        let (visible, in_flight) = counts(&env, &queue);
        if args.contains(&"--delete") {
            assert_eq!(
                in_flight, 0,
                "{name}: what was not written is released at once: {stderr}"
            );
        } else {
            // Without --delete a message written stays in flight, as any received is: the
            // batches written whole before the reader went away (on SQS a long poll may bring
            // fewer than 10, small enough to fit), at most what the pipe's 64 KiB and the
            // reader's buffer took: fewer than 10 records this size. Everything else is released
            // at once.
            assert!(
                in_flight <= 10,
                "{name}: what was not written is released at once: {in_flight} in flight: {stderr}"
            );
        }
        assert!(visible > 0, "{name}: the run stopped at the closed pipe");
    }
}

/// On a terminal, the progress line steps aside for the table and is gone at the end: nothing
/// like `⠁ messages received: 0 (0/s)` is left above or inside what was printed.
#[test]
fn no_progress_line_is_left_on_the_terminal() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    send_bodies(&env, &queue, &["hello".to_string(), "world".to_string()]);
    // Progress lines are drawn only on a terminal that says what it is.
    let mut run = env.pty(&["receive", "work", "--wait", "0"], &[("TERM", "xterm")]);
    assert_eq!(run.wait(30), 0);
    let mut terminal = vt100::Parser::new(40, 200, 0);
    terminal.process(run.screen().as_bytes());
    let screen = terminal.screen().contents();
    assert!(screen.contains("hello"), "{screen}");
    assert!(screen.contains("received 2 messages"), "{screen}");
    assert!(!screen.contains("messages received:"), "{screen}");
}
