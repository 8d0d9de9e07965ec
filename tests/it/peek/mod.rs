//! `sqsctl peek`: its table (attributes shown, bodies cut, never ids), the attributes it is asked
//! for, its filters' scan limit, and what it refuses.

mod scan;

use sqsctl::client::ReceiveOptions;
use sqsctl::message::MessageRecord;

use crate::output::fifo_orders;
use crate::receive::{counts, numbered, send_bodies};
use crate::selection::orders;
use crate::support::TestEnv;
use crate::support::snapshot::assert_snapshot;

#[test]
fn receive_and_peek_show_only_the_chosen_attributes() {
    let env = TestEnv::start();
    let queue = env.create_queue("chosen", &[]);
    let run = env.run(&[
        "send",
        "chosen",
        "--attr",
        "trace.id=1",
        "--attr",
        "trace.span=2",
        "--attr",
        "tenant=a",
        "--trace-header",
        "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1",
        "hello",
    ]);
    run.assert_code(0);
    let run = env.run(&[
        "peek",
        "chosen",
        "--attributes",
        "SentTimestamp",
        "--message-attributes",
        "trace.*",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let data = &run.records_of("message")[0];
    let names =
        |field: &str| -> Vec<String> { data[field].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(names("attributes"), ["SentTimestamp"], "{data}");
    assert_eq!(
        names("message_attributes"),
        ["trace.id", "trace.span"],
        "{data}"
    );
    assert!(data.get("trace_header").is_none(), "{data}");

    // The default is every attribute, the trace header included.
    let run = env.run(&["receive", "chosen", "--visibility", "0", "-o", "jsonl"]);
    run.assert_code(0);
    let data = &run.records_of("message")[0];
    assert_eq!(data["message_attributes"].as_object().unwrap().len(), 3);
    assert_eq!(
        data["attributes"]["AWSTraceHeader"],
        "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"
    );

    let run = env.run(&["receive", "chosen", "--attributes", "SentTime"]);
    run.assert_code(2);
    assert_snapshot!(name: "unknown_attribute", run.stderr);
    assert_eq!(env.depth(&queue), 1);
}

#[test]
fn peek_follow_is_refused_with_the_reason() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    let run = env.run(&["peek", &queue.name, "--follow"]);
    run.assert_code(2);
    assert_snapshot!(name: "peek_follow", run.stderr);
    let run = env.run(&["receive", &queue.name, "--follow", "--until-empty"]);
    run.assert_code(2);
}

#[test]
fn a_fifo_peek_table_shows_attributes_cuts_bodies_not_ids_and_says_it_saw_only_heads() {
    let env = TestEnv::exact(
        "snapshots the tables of the batches a scan reads, which SQS's short polls vary",
    );
    let queue = env.create_queue("orders.fifo", &[("FifoQueue", "true")]);
    env.send(&queue, fifo_orders(2, 15));

    let run = env
        .cmd()
        .args(["peek", "orders.fifo", "--max", "100"])
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", "150")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("failure=timeout"), "{stdout}");
    assert!(stdout.contains("failure=poison"), "{stdout}");
    assert!(stdout.contains('…'), "bodies are cut: {stdout}");
    let id =
        regex::Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").unwrap();
    let rows = stdout.lines().filter(|l| l.contains("customer-")).count();
    assert!(rows > 0 && rows < 30, "{stdout}");
    assert_eq!(
        id.find_iter(&stdout).count(),
        rows,
        "every id whole: {stdout}"
    );
    assert!(
        stdout.lines().all(|l| l.chars().count() <= 150),
        "fits the terminal: {stdout}"
    );
    assert_snapshot!(name: "heads_only", stderr);
    assert_snapshot!(name: "table", stdout);

    // Narrower still: the body gives way, the ids stay whole.
    let narrow = env
        .cmd()
        .args(["peek", "orders.fifo", "--max", "3"])
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    let narrow = String::from_utf8_lossy(&narrow.stdout).into_owned();
    assert_eq!(id.find_iter(&narrow).count(), 3, "{narrow}");
    assert_snapshot!(name: "narrow", narrow);

    // A standard queue without attributes: no group column, no attributes column.
    let plain = env.create_queue("plain", &[]);
    env.send(&plain, vec![MessageRecord::with_body("hello")]);
    let run = env.run_tty(&["peek", "plain"], "");
    run.assert_code(0);
    assert!(!run.stdout.contains("group"), "{}", run.stdout);
    assert!(!run.stdout.contains("attributes"), "{}", run.stdout);
    assert!(!run.stderr.contains("head of each group"), "{}", run.stderr);
}

#[test]
fn a_filtered_peek_that_matches_nothing_stops_at_its_scan_limit() {
    let env = TestEnv::exact(
        "counts each message's receives, which SQS's duplicate deliveries raise too",
    );
    let queue = env.create_queue("many", &[]);
    let lines: String = (0..40).map(|i| format!("message {i}\n")).collect();
    env.run_stdin(&["send", "many", "--lines"], &lines)
        .assert_code(0);
    let run = env.run(&[
        "peek",
        "many",
        "--grep",
        "no such text",
        "--scan-limit",
        "15",
    ]);
    run.assert_code(0);
    assert!(run.stdout.is_empty());
    assert_snapshot!(name: "scan_limit", run.stderr);
    // Exactly the 15 read were received: the others' receive counts are still 0.
    let received = env.block_on(async {
        let mut counts = Vec::new();
        loop {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(0),
                visibility_timeout: Some(60),
            };
            let batch = env.sqs().receive(&queue, options).await.unwrap();
            if batch.is_empty() {
                break;
            }
            counts.extend(
                batch
                    .iter()
                    .map(|m| m.attribute_u64("ApproximateReceiveCount").unwrap()),
            );
        }
        counts
    });
    assert_eq!(received.len(), 40);
    assert_eq!(received.iter().filter(|&&c| c == 2).count(), 15);

    // A limit above the default on a queue that holds more is announced before the read.
    let lines: String = (0..1001).map(|i| format!("more {i}\n")).collect();
    let big = env.create_queue("big", &[]);
    env.run_stdin(&["send", "big", "--lines"], &lines)
        .assert_code(0);
    let run = env.run(&[
        "peek",
        "big",
        "--max",
        "1",
        "--scan-limit",
        "2000",
        "--grep",
        "more 3",
    ]);
    run.assert_code(0);
    // How far the scan got before it found its one match depends on its concurrent reads.
    assert_snapshot!(name: "announced", run.stderr, r"peeked at \d+ messages" => "peeked at N messages");
    drop(big);
}

#[test]
fn peek_leaves_messages_in_place_and_bodies_are_sanitized_only_on_a_terminal() {
    let env = TestEnv::exact("snapshots a table whose rows come in send order");
    let queue = env.create_queue("look", &[]);
    let mut bodies = numbered("p", 4);
    // C1 CSI and a bidi override: accepted by SQS, harmful on a terminal.
    bodies.push("red \u{9b}31malert \u{202e}desrever".to_string());
    send_bodies(&env, &queue, &bodies);
    let run = env.run(&["peek", "look"]);
    run.assert_code(0);
    let seen = run.records_of("message");
    assert_eq!(seen.len(), 5);
    assert!(seen.iter().all(|m| m.get("receipt_handle").is_none()));
    assert_eq!(
        counts(&env, &queue),
        (5, 0),
        "all visible again after the peek"
    );

    let run = env.run(&["peek", "look", "--max", "2"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 2);

    let raw = env.run(&["peek", "look", "-o", "text"]);
    raw.assert_code(0);
    assert!(raw.stdout.contains("\u{9b}31m"), "raw in a pipe");
    let table = env.run_tty(&["peek", "look"], "");
    table.assert_code(0);
    assert!(!table.stdout.contains('\u{9b}'), "{}", table.stdout);
    assert!(!table.stdout.contains('\u{202e}'), "{}", table.stdout);
    assert_snapshot!(name: "table", table.stdout);
    assert_eq!(counts(&env, &queue), (5, 0));
}

#[test]
fn peek_refuses_a_queue_with_a_redrive_policy_unless_forced() {
    let env = TestEnv::start();
    env.create_queue("work-dlq", &[]);
    let dlq_arn = env.server().queue_arn("work-dlq");
    let policy = format!("{{\"deadLetterTargetArn\":\"{dlq_arn}\",\"maxReceiveCount\":\"2\"}}");
    let queue = env.create_queue("work", &[("RedrivePolicy", &policy)]);
    send_bodies(&env, &queue, &numbered("w", 3));
    let run = env.run(&["peek", "work"]);
    run.assert_code(1);
    assert_snapshot!(name: "refused", run.stderr);
    assert!(run.stdout.is_empty());
    let run = env.run(&["peek", "work", "--force"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 3);
    assert_snapshot!(name: "forced", run.stderr);
    assert_eq!(counts(&env, &queue), (3, 0));
    let dlq = env.block_on(env.sqs().resolve("work-dlq")).unwrap();
    assert_eq!(env.depth(&dlq), 0);
}

/// `peek`'s `--query` sees each message record, as `receive`'s does: the AWS CLI's
/// `Messages[*].Body` would find nothing and print nothing with exit 0, so it is a usage error
/// that names the record's spelling, and that spelling works.
#[test]
fn peek_refuses_a_query_written_for_the_aws_cli_answer_and_names_the_record_query() {
    let env = TestEnv::start();
    let queue = env.create_queue("peek-aws-shape", &[]);
    env.send(&queue, vec![MessageRecord::with_body("one")]);
    let run = env.run(&[
        "peek",
        "peek-aws-shape",
        "--query",
        "Messages[*].Body",
        "-o",
        "text",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("here `Messages[*].Body` is --query 'body'"),
        "{}",
        run.stderr
    );
    let run = env.run(&["peek", "peek-aws-shape", "--query", "body", "-o", "text"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "one\n");
}
