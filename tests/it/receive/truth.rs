//! `receive` tells the truth about what a queue holds: it lets the queue's own long-poll setting
//! apply, says what it could not receive, and deletes nothing it could not write.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::snapshot::assert_snapshot;
use crate::support::{Run, TestEnv, unique_name};

#[test]
fn receive_without_wait_long_polls_as_the_queue_says_and_wait_0_does_not() {
    let env = TestEnv::start();
    let name = unique_name("waits");
    env.create_queue(&name, &[("ReceiveMessageWaitTimeSeconds", "4")]);

    let started = Instant::now();
    let run = env.run(&["receive", &name]);
    let waited = started.elapsed();
    run.assert_code(0);
    assert!(
        waited >= Duration::from_millis(3900),
        "the queue's 4 s wait applies without --wait: took {waited:?}"
    );
    assert_snapshot!(name: "queue_wait", run.stderr, r"waits-[0-9a-f]{12}" => "waits-xxxxxxxxxxxx");

    // A short poll, then the one-second long poll that confirms "empty" (a short poll alone may
    // miss messages on SQS): well under the queue's 4 s, even on a loaded machine.
    let started = Instant::now();
    env.run(&["receive", &name, "--wait", "0"]).assert_code(0);
    assert!(
        started.elapsed() < Duration::from_millis(3000),
        "--wait 0 short-polls: took {:?}",
        started.elapsed()
    );
}

#[test]
fn receiving_nothing_says_what_is_in_flight() {
    let env = TestEnv::start();
    let name = unique_name("inflight");
    env.create_queue(&name, &[]);
    env.run_stdin(&["send", &name, "--lines"], "a\nb\nc\n")
        .assert_code(0);
    let first = env.run(&["receive", &name, "--visibility", "60"]);
    first.assert_code(0);
    assert_eq!(first.records().len(), 3);

    let second = env.run(&["receive", &name]);
    second.assert_code(0);
    assert!(second.stdout.is_empty(), "{}", second.stdout);
    assert!(
        second
            .stderr
            .contains(&format!("received 0 messages from {name}; 3 in flight")),
        "{}",
        second.stderr
    );
}

#[test]
fn receive_delete_with_stdout_closed_deletes_nothing() {
    let env = TestEnv::start();
    let name = unique_name("closed");
    let queue = env.create_queue(&name, &[]);
    env.run_stdin(&["send", &name, "--lines"], "a\nb\nc\n")
        .assert_code(0);

    // `sqsctl receive ... >&-`: the shell closes stdout before the binary starts.
    let run = crate::receive::shell(
        &env,
        &format!("exec \"$SQSCTL\" receive {name} --until-empty --delete --yes >&-"),
    );
    run.assert_code(1);
    assert_snapshot!(name: "stdout_closed", run.stderr, r"closed-[0-9a-f]{12}" => "closed-xxxxxxxxxxxx");
    assert_eq!(env.depth(&queue), 3, "nothing was received or deleted");

    // A stdout the user sends to /dev/null on purpose is theirs to choose.
    let run = Run::from_output(
        env.cmd()
            .args(["receive", &name, "--until-empty", "--delete", "--yes"])
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/null").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap(),
    );
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 0);
}

/// On a server that behaves as SQS (short polls that come back empty from a queue holding
/// messages, duplicate deliveries, shuffled order), `--until-empty --delete` still drains every
/// message: only a long poll that brings nothing ends it.
#[test]
fn until_empty_drains_a_queue_that_behaves_like_sqs() {
    let env = TestEnv::like_sqs(7);
    let name = unique_name("like-sqs");
    let queue = env.create_queue(&name, &[]);
    let sent: Vec<_> = (0..500)
        .map(|i| sqsctl::message::MessageRecord::with_body(format!("m{i:03}")))
        .collect();
    env.send(&queue, sent);
    let run = env.run(&[
        "receive",
        &name,
        "--until-empty",
        "--delete",
        "--yes",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let records = run.records_of("message");
    let bodies: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies.len(), 500, "{}", run.stderr);
    // Counted by message id: a message SQS delivered twice is written once, counted apart.
    assert_eq!(
        records.len(),
        500,
        "a message written twice: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains("received 500 messages")
            && run.stderr.contains("duplicate deliver")
            && run.stderr.contains("deleted 500"),
        "{}",
        run.stderr
    );
    let left = env.block_on(env.sqs().receive(
        &queue,
        sqsctl::client::ReceiveOptions {
            max_messages: 10,
            wait_seconds: Some(1),
            visibility_timeout: None,
        },
    ));
    assert_eq!(left.unwrap().len(), 0, "messages left behind");
}

/// Right after a burst SQS's counts lag and short polls sample: `--until-empty` without
/// `--delete` still returns every message, each once, and ends on an empty long poll (the
/// messages it returned are in flight, held by this run, not more to come).
#[test]
fn until_empty_without_delete_reads_a_whole_burst_on_a_queue_that_behaves_like_sqs() {
    for seed in [1, 7, 42] {
        let env = TestEnv::like_sqs(seed);
        let name = unique_name("burst");
        let queue = env.create_queue(&name, &[]);
        let sent: Vec<_> = (0..50)
            .map(|i| sqsctl::message::MessageRecord::with_body(format!("b{i:02}")))
            .collect();
        env.send(&queue, sent);
        let run = env.run(&["receive", &name, "--until-empty", "-o", "jsonl"]);
        run.assert_code(0);
        let records = run.records_of("message");
        let bodies: std::collections::BTreeSet<&str> = records
            .iter()
            .map(|r| r["body"].as_str().unwrap())
            .collect();
        assert_eq!(bodies.len(), 50, "seed {seed}: {}", run.stderr);
        assert_eq!(records.len(), 50, "seed {seed}: a message written twice");
        assert!(
            run.stderr
                .starts_with(&format!("received 50 messages from {name}")),
            "seed {seed}: {}",
            run.stderr
        );
        assert_eq!(
            crate::receive::counts(&env, &queue),
            (0, 50),
            "seed {seed}: nothing deleted, every message held"
        );
    }
}

/// `--query` sees each message record, not the AWS CLI's `{"Messages": [...]}` answer: a query
/// written for that is a usage error that shows the record's spelling, never empty output.
#[test]
fn a_query_written_for_the_aws_cli_answer_is_a_usage_error() {
    let env = TestEnv::start();
    let name = unique_name("aws-shape");
    env.create_queue(&name, &[]);
    env.run_stdin(&["send", &name, "--lines"], "one\n")
        .assert_code(0);
    let args = [
        "receive",
        &name,
        "--query",
        "Messages[*].Body",
        "-o",
        "text",
    ];
    let run = env.run(&args);
    run.assert_code(2);
    assert_snapshot!(name: "aws_cli_query", crate::support::snapshot::transcript(&args, &run), r"aws-shape-[0-9a-f]{12}" => "aws-shape-xxxxxxxxxxxx");
    let run = env.run(&[
        "receive", &name, "--query", "body", "-o", "text", "--wait", "1",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "one\n");
}

/// A receive that fails after the server applied it hides messages this run never sees: without
/// `--delete` the run cannot wait for them (they come back when its own messages do), so
/// `--until-empty` exits 0 only when it read every message, and says so otherwise (exit 3).
#[test]
fn until_empty_without_delete_under_faults_exits_0_only_when_it_read_everything() {
    let env = TestEnv::start_with(sqsctl::local::ServerConfig {
        inspection: false,
        fault_rate: 0.2,
        seed: Some(12),
        ..sqsctl::local::ServerConfig::default()
    });
    let name = unique_name("faulty");
    let queue = env.create_queue(&name, &[]);
    let lines: String = (0..300).map(|i| format!("f{i:03}\n")).collect();
    env.run_stdin(&["send", &name, "--lines"], &lines)
        .assert_code(0);
    // A send that failed after the server applied it was sent again: count what the queue holds.
    let held = env.depth(&queue);
    assert!(held >= 300, "{held}");
    let run = env.run(&["receive", &name, "--until-empty", "--visibility", "120"]);
    let records = run.records_of("message");
    let ids: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["message_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), records.len(), "a message written twice");
    if (ids.len() as u64) < held {
        run.assert_code(3);
        assert!(
            run.stderr.contains("failed after SQS may have applied")
                && run.stderr.contains("were not read"),
            "{}",
            run.stderr
        );
    } else {
        run.assert_code(0);
    }
}
