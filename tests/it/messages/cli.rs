//! `send`, `receive`, `peek`, `delete` and `purge` through the real binary against the local server:
//! the happy paths, the `receive | send` round trip, every bad input with its exit code and message,
//! and the safety rules (peek leaves messages in place, delete-after-write, broken pipes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use sqsctl::client::QueueRef;
use sqsctl::local::ServerConfig;
use sqsctl::message::MessageRecord;
use support::TestEnv;
use support::snapshot::assert_snapshot;

fn send_bodies(env: &TestEnv, queue: &QueueRef, bodies: &[String]) {
    env.send(queue, bodies.iter().map(MessageRecord::with_body).collect());
}

fn numbered(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

/// (visible, in flight) as the queue reports them.
fn counts(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.settled_attributes(queue);
    (attrs.visible(), attrs.in_flight())
}

fn sorted(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items
}

#[test]
fn send_one_body_with_attributes_and_receive_it_as_a_record() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let run = env.run(&[
        "send",
        "orders",
        "--attr",
        "kind=refund",
        "--attr",
        "amount:Number=12",
        "hello world",
    ]);
    run.assert_code(0);
    let sent = run.records_of("sent");
    assert_eq!(sent.len(), 1, "{}", run.stdout);
    let message_id = sent[0]["message_id"].as_str().unwrap().to_string();

    let run = env.run(&["receive", "orders"]);
    run.assert_code(0);
    let messages = run.records_of("message");
    assert_eq!(messages.len(), 1);
    let m = &messages[0];
    assert_eq!(m["body"], "hello world");
    assert_eq!(m["message_id"], message_id.as_str());
    assert_eq!(m["message_attributes"]["kind"]["type"], "String");
    assert_eq!(m["message_attributes"]["kind"]["value"], "refund");
    assert_eq!(m["message_attributes"]["amount"]["type"], "Number");
    assert!(m["receipt_handle"].is_string());
    assert_eq!(m["attributes"]["ApproximateReceiveCount"], "1");
    assert!(run.stderr.contains("not deleted"), "{}", run.stderr);
    // Received without --delete: still in the queue, in flight.
    assert_eq!(counts(&env, &queue), (0, 1));
}

#[test]
fn send_lines_and_receive_until_empty_with_delete_consumes_everything() {
    let env = TestEnv::start();
    let queue = env.create_queue("lines", &[]);
    let input: String = (0..57).map(|i| format!("line {i}\n")).collect();
    let run = env.run_stdin(&["send", "lines", "--lines"], &input);
    run.assert_code(0);
    assert_eq!(run.records_of("summary")[0]["sent"], 57);
    let run = env.run(&["receive", "lines", "--until-empty", "--delete", "--yes"]);
    run.assert_code(0);
    let bodies: Vec<String> = run
        .records_of("message")
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sorted(bodies), sorted(numbered("line ", 57)));
    assert_eq!(env.depth(&queue), 0);
    assert!(run.stderr.contains("deleted 57"), "{}", run.stderr);
}

#[test]
fn send_lines_from_a_slow_producer_sends_each_line_without_waiting_for_a_full_batch() {
    // `tail -f log | sqsctl send q --lines`: a line must not wait for nine more, or for the end.
    let env = TestEnv::start();
    let queue = env.create_queue("trickle", &[]);
    let mut child = env
        .cmd()
        .args(["send", "trickle", "--lines", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for (i, line) in ["first", "second"].iter().enumerate() {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while env.depth(&queue) < (i + 1) as u64 {
            assert!(
                std::time::Instant::now() < deadline,
                "`{line}` was not sent while stdin stayed open"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(sorted(env.drain_bodies(&queue)), ["first", "second"]);
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

    let mut receiver = env
        .cmd()
        .args(["receive", "source", "--until-empty", "--delete", "--yes"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
fn fifo_send_keeps_groups_and_auto_dedup_drops_a_resend() {
    let env = TestEnv::start();
    let queue = env.create_queue("jobs.fifo", &[("FifoQueue", "true")]);
    let input = "a\nb\nc\n";
    let args = [
        "send",
        "jobs.fifo",
        "--lines",
        "--group-id",
        "g1",
        "--dedup-id",
        "auto",
    ];
    env.run_stdin(&args, input).assert_code(0);
    // The same records again within five minutes: accepted, not delivered twice.
    env.run_stdin(&args, input).assert_code(0);
    let run = env.run(&["receive", "jobs.fifo", "--until-empty", "--delete", "--yes"]);
    run.assert_code(0);
    let messages = run.records_of("message");
    let bodies: Vec<&str> = messages
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies, vec!["a", "b", "c"], "order kept within the group");
    assert!(messages.iter().all(|m| m["group_id"] == "g1"));
    assert_eq!(env.depth(&queue), 0);
}

#[test]
fn fifo_send_without_group_id_is_refused_before_sending() {
    let env = TestEnv::start();
    let queue = env.create_queue("nogroup.fifo", &[("FifoQueue", "true")]);
    let run = env.run(&["send", "nogroup.fifo", "--dedup-id", "d1", "body"]);
    run.assert_code(1);
    assert_snapshot!(name: "argument", run.stderr);
    let run = env.run_stdin(&["send", "nogroup.fifo", "--jsonl"], "{\"body\":\"x\"}\n");
    run.assert_code(1);
    assert_snapshot!(name: "jsonl", run.stderr);
    assert_eq!(env.depth(&queue), 0);
}

#[test]
fn a_malformed_json_line_stops_the_run_and_names_the_line() {
    let env = TestEnv::start();
    let queue = env.create_queue("strict", &[]);
    let input = "{\"body\":\"one\"}\n{\"body\":\"two\"}\n{not json\n{\"body\":\"four\"}\n";
    let run = env.run_stdin(&["send", "strict", "--jsonl"], input);
    run.assert_code(1);
    assert_snapshot!(name: "stops", run.stderr);
    // The lines before the bad one were sent, nothing after it.
    assert_eq!(sorted(env.drain_bodies(&queue)), vec!["one", "two"]);

    let run = env.run_stdin(&["send", "strict", "--jsonl", "--skip-invalid"], input);
    run.assert_code(0);
    assert_snapshot!(name: "skips", run.stderr);
    assert_eq!(run.records_of("summary")[0]["skipped"], 1);
    assert_eq!(sorted(env.drain_bodies(&queue)), vec!["four", "one", "two"]);

    // Skipping every line sent nothing: partially done at best, never a success.
    let run = env.run_stdin(
        &["send", "strict", "--jsonl", "--skip-invalid"],
        "{not json\n[1]\n",
    );
    run.assert_code(3);
    assert_snapshot!(name: "skips_all", run.stderr);
    assert_eq!(run.records_of("summary")[0]["skipped"], 2);
}

#[test]
fn oversized_bodies_invalid_characters_and_too_many_attributes_are_refused() {
    let env = TestEnv::start();
    let queue = env.create_queue("limits", &[]);
    let big = "x".repeat(1024 * 1024 + 1);
    let run = env.run_stdin(&["send", "limits"], &big);
    run.assert_code(1);
    assert_snapshot!(name: "oversized", run.stderr);

    let run = env.run(&["send", "limits", "bad\u{1}char"]);
    run.assert_code(1);
    assert_snapshot!(name: "invalid_character", run.stderr);

    let mut args: Vec<String> = vec!["send".into(), "limits".into()];
    for i in 0..11 {
        args.push("--attr".into());
        args.push(format!("a{i}=v"));
    }
    args.push("body".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = env.run(&refs);
    run.assert_code(2);
    assert_snapshot!(name: "too_many_attributes_flags", run.stderr);

    let attrs: Vec<String> = (0..11)
        .map(|i| format!("\"a{i}\":{{\"type\":\"String\",\"value\":\"v\"}}"))
        .collect();
    let line = format!(
        "{{\"body\":\"x\",\"message_attributes\":{{{}}}}}\n",
        attrs.join(",")
    );
    let run = env.run_stdin(
        &["send", "limits", "--jsonl"],
        &format!("{{\"body\":\"ok\"}}\n{line}"),
    );
    run.assert_code(1);
    assert_snapshot!(name: "too_many_attributes_jsonl", run.stderr);
    assert_eq!(env.drain_bodies(&queue), vec!["ok"]);
}

#[test]
fn bad_numbers_and_unknown_queues_get_clear_errors() {
    let env = TestEnv::start();
    env.create_queue("payments", &[]);
    for args in [
        vec!["send", "payments", "--delay", "901", "x"],
        vec!["receive", "payments", "--wait", "21"],
        vec!["receive", "payments", "--max", "0"],
        vec!["receive", "payments", "--max", "ten"],
        vec!["peek", "payments", "--max", "-1"],
        vec!["send", "payments", "--attr", "novalue", "x"],
    ] {
        let run = env.run(&args);
        run.assert_code(2);
        assert_snapshot!(name: args.join("_"), run.stderr);
    }
    let run = env.run(&["send", "paymnets", "x"]);
    run.assert_code(1);
    assert_snapshot!(name: "did_you_mean", run.stderr);
    let run = env.run(&["receive", "no-such-queue-at-all"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_such_queue", run.stderr);
}

#[test]
fn failed_batch_entries_are_reported_by_line_and_exit_3() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        entry_fault_rate: 1.0,
        seed: Some(7),
        ..ServerConfig::default()
    });
    env.create_queue("flaky", &[]);
    let run = env.run_stdin(&["send", "flaky", "--lines"], "a\nb\nc\n");
    run.assert_code(3);
    let failed = run.records_of("failed");
    assert_eq!(failed.len(), 3);
    let lines: Vec<u64> = failed.iter().map(|f| f["line"].as_u64().unwrap()).collect();
    assert_eq!(sorted_u64(lines), vec![1, 2, 3]);
    assert_eq!(failed[0]["code"], "InternalError");
    assert!(failed[0]["record"]["body"].is_string());
    assert!(run.stderr.contains("not sent"), "{}", run.stderr);
}

fn sorted_u64(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v
}

#[test]
fn receive_delete_needs_yes_or_a_confirmation_on_a_terminal() {
    let env = TestEnv::start();
    let queue = env.create_queue("guarded", &[]);
    send_bodies(&env, &queue, &numbered("g", 3));
    let run = env.run(&["receive", "guarded", "--delete"]);
    run.assert_code(2);
    assert_snapshot!(name: "without_yes", run.stderr);
    assert_eq!(
        counts(&env, &queue),
        (3, 0),
        "nothing received without consent"
    );

    let run = env.run_tty(&["receive", "guarded", "--delete"], "n\n");
    run.assert_code(1);
    assert_snapshot!(name: "answered_no", run.stderr);
    assert_eq!(env.depth(&queue), 3);

    let run = env.run_tty(&["receive", "guarded", "--delete", "--until-empty"], "y\n");
    run.assert_code(0);
    // On a terminal the output is a table, not JSON.
    assert_snapshot!(name: "table", run.stdout);
    assert_eq!(env.depth(&queue), 0);
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

#[test]
fn delete_by_message_id_deletes_only_those_and_releases_the_rest() {
    let env = TestEnv::start();
    let queue = env.create_queue("pick", &[]);
    send_bodies(&env, &queue, &numbered("k", 20));
    let peeked = env.run(&["peek", "pick", "--max", "20"]);
    let messages = peeked.records_of("message");
    assert_eq!(messages.len(), 20);
    let victims: Vec<(String, String)> = messages[..3]
        .iter()
        .map(|m| {
            (
                m["message_id"].as_str().unwrap().to_string(),
                m["body"].as_str().unwrap().to_string(),
            )
        })
        .collect();

    let dry = env.run(&["delete", "pick", "--message-id", &victims[0].0, "--dry-run"]);
    dry.assert_code(0);
    assert_eq!(dry.records_of("delete")[0]["status"], "would_delete");
    assert_eq!(counts(&env, &queue), (20, 0));

    let run = env.run(&["delete", "pick", "--message-id", &victims[0].0, "--yes"]);
    run.assert_code(0);
    let run = env.run(&[
        "delete",
        "pick",
        "--yes",
        "--message-id",
        &victims[1].0,
        &victims[2].0,
        "00000000-0000-0000-0000-000000000000",
    ]);
    run.assert_code(3);
    let statuses: Vec<String> = run
        .records_of("delete")
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sorted(statuses), vec!["deleted", "deleted", "not_found"]);
    assert!(run.stderr.contains("not found"), "{}", run.stderr);
    // The rest is visible at once, not after the hold.
    assert_eq!(counts(&env, &queue), (17, 0));
    let left = env.drain_bodies(&queue);
    for (_, body) in &victims {
        assert!(!left.contains(body), "{body} should be gone");
    }
}

#[test]
fn delete_by_receipt_handle_needs_yes_and_reports_bad_handles() {
    let env = TestEnv::start();
    let queue = env.create_queue("handles", &[]);
    send_bodies(&env, &queue, &numbered("h", 2));
    let received = env.run(&["receive", "handles", "--max", "2", "--visibility", "60"]);
    let handles: Vec<String> = received
        .records_of("message")
        .iter()
        .map(|m| m["receipt_handle"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(handles.len(), 2);
    let run = env.run(&["delete", "handles", &handles[0]]);
    run.assert_code(2);
    assert_eq!(env.depth(&queue), 2);
    let run = env.run(&["delete", "handles", &handles[0], &handles[1], "--yes"]);
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 0);
    let run = env.run(&["delete", "handles", "not-a-receipt-handle", "--yes"]);
    run.assert_code(3);
    assert_eq!(run.records_of("delete")[0]["status"], "failed");
    let run = env.run(&["delete", "handles"]);
    run.assert_code(2);
}

#[test]
fn purge_reports_the_depth_and_refuses_a_second_purge_within_a_minute() {
    let env = TestEnv::start();
    let queue = env.create_queue("trash", &[]);
    send_bodies(&env, &queue, &numbered("t", 12));
    let run = env.run(&["purge", "trash"]);
    run.assert_code(2);
    assert_snapshot!(name: "without_yes", run.stderr);
    let run = env.run(&["purge", "trash", "--dry-run"]);
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 12);
    let run = env.run(&["purge", "trash", "--yes"]);
    run.assert_code(0);
    assert_eq!(run.records_of("purge")[0]["messages"], 12);
    assert_snapshot!(name: "purged", run.stderr);
    assert_eq!(env.depth(&queue), 0);
    let run = env.run(&["purge", "trash", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "second_purge", run.stderr);
    let run = env.run_tty(&["purge", "trash"], "n\n");
    run.assert_code(1);
}

#[test]
fn a_closed_pipe_exits_0_and_deletes_nothing_that_was_not_written() {
    let env = TestEnv::start();
    let queue = env.create_queue("pipe", &[]);
    // Large enough that the pipe buffer fills and the writer sees the pipe close.
    let body = "z".repeat(1000);
    let bodies: Vec<String> = (0..150).map(|i| format!("{i} {body}")).collect();
    send_bodies(&env, &queue, &bodies);
    let mut child = env
        .cmd()
        .args([
            "receive",
            "pipe",
            "--until-empty",
            "--delete",
            "--yes",
            "--concurrency",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    assert!(stderr.trim().is_empty(), "quiet on a closed pipe: {stderr}");
    let (visible, in_flight) = counts(&env, &queue);
    assert_eq!(in_flight, 0, "unwritten messages are released at once");
    assert!(visible > 0, "the run stopped at the closed pipe");
    assert!(
        visible <= 140,
        "what was written was deleted: {visible} left"
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
    let mut child = env
        .cmd()
        .args([
            "receive",
            "interrupted",
            "--until-empty",
            "--delete",
            "--yes",
            "--concurrency",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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

    let run = env.run(&["send", "docs", "-o", "json", "one"]);
    run.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc["message_id"].is_string());
    let run = env.run(&["receive", "docs", "-o", "text"]);
    assert_eq!(run.stdout, "one\n");
}

#[test]
fn receive_until_empty_without_delete_reads_what_was_visible_and_ends() {
    let env = TestEnv::start();
    let queue = env.create_queue("reappear", &[]);
    send_bodies(&env, &queue, &numbered("r", 5));
    // With a visibility timeout of 0 every message is back at once; the run must still end.
    let run = env.run(&["receive", "reappear", "--until-empty", "--visibility", "0"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 5);
    assert_eq!(env.depth(&queue), 5);
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
    assert!(run.stderr.contains("delay"), "{}", run.stderr);
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
    assert!(run.stderr.contains("--dedup-id auto"), "{}", run.stderr);
}

#[test]
fn verbose_names_the_resolved_queue_and_quiet_silences_summaries() {
    let env = TestEnv::start();
    env.create_queue("talk", &[]);
    let run = env.run(&["send", "talk", "hi", "-v"]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("debug: queue `talk` (account 000000000000, us-east-1) is http://"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("test"),
        "no credentials on stderr: {}",
        run.stderr
    );
    let run = env.run(&["receive", "talk", "-q"]);
    run.assert_code(0);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert_eq!(run.records_of("message").len(), 1);
}

/// Runs `receive` with `args`, reads one line of its stdout and closes the pipe, like `| head -1`.
fn receive_and_close_after_one_line(env: &TestEnv, args: &[&str]) -> (Option<i32>, String) {
    let mut child = env
        .cmd()
        .arg("receive")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
fn receive_delete_into_a_pipe_read_for_one_line_deletes_at_most_one_batch_unread() {
    let env = TestEnv::start();
    let queue = env.create_queue("head-bound", &[]);
    // Small records: a default pipe buffer (64 KiB) would hold more than a hundred of them.
    send_bodies(&env, &queue, &numbered("m", 500));
    let mut child = env
        .cmd()
        .args([
            "receive",
            "head-bound",
            "--until-empty",
            "--delete",
            "--yes",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    assert!(
        deleted <= 1 + 10,
        "{deleted} messages deleted and one read: at most one batch may go unread"
    );
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
        ("head2", &["--max", "30", "--until-empty", "-v"][..]),
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
        assert_eq!(
            in_flight, 0,
            "{name}: what was not written is released at once"
        );
        assert!(visible > 0, "{name}: the run stopped at the closed pipe");
    }
}

#[test]
fn fifo_send_without_dedup_ids_is_refused_up_front_with_the_auto_hint() {
    let env = TestEnv::start();
    let queue = env.create_queue("nodedup.fifo", &[("FifoQueue", "true")]);
    for (name, args) in [
        (
            "lines",
            &["send", "nodedup.fifo", "--lines", "--group-id", "g"][..],
        ),
        (
            "argument",
            &["send", "nodedup.fifo", "--group-id", "g", "one"][..],
        ),
    ] {
        let run = env.run_stdin(args, "a\nb\n");
        run.assert_code(1);
        assert_snapshot!(name: name, run.stderr);
    }
    // Without --group-id that is what is missing first.
    let run = env.run(&["send", "nodedup.fifo", "one"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_group_id", run.stderr);
    assert_eq!(env.depth(&queue), 0);
    // JSON records may carry their own ids: failures are reported per line, with the hint once.
    let run = env.run_stdin(
        &["send", "nodedup.fifo", "--jsonl", "--group-id", "g"],
        "{\"body\":\"a\"}\n{\"body\":\"b\"}\n",
    );
    run.assert_code(3);
    assert_eq!(
        run.stderr.matches("--dedup-id auto").count(),
        1,
        "{}",
        run.stderr
    );
    let run = env.run_stdin(
        &[
            "send",
            "nodedup.fifo",
            "--lines",
            "--group-id",
            "g",
            "--dedup-id",
            "auto",
        ],
        "a\nb\n",
    );
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 2);
}

#[test]
fn send_input_errors_speak_of_input_lines_not_serde_or_rust() {
    let env = TestEnv::start();
    let queue = env.create_queue("words", &[]);
    let run = env.run_stdin(&["send", "words", "--jsonl"], "{bad\n{\"body\":\"x\"}\n");
    run.assert_code(1);
    assert_snapshot!(name: "first_line", run.stderr);

    let run = env.run_stdin(
        &["send", "words", "--jsonl"],
        "{\"body\":\"a\"}\n{\"body\": x}\n",
    );
    run.assert_code(1);
    assert_snapshot!(name: "second_line", run.stderr);

    let run = env.run_stdin(&["send", "words", "--jsonl"], "\"just a string\"\n");
    run.assert_code(1);
    assert_snapshot!(name: "not_an_object", run.stderr);

    let run = env.run_stdin(
        &["send", "words", "--jsonl"],
        "{\"body\":\"x\",\"delay_seconds\":\"soon\"}\n",
    );
    run.assert_code(1);
    assert_snapshot!(name: "wrong_field_type", run.stderr);

    let run = env.run(&["send", "words", ""]);
    run.assert_code(1);
    assert_snapshot!(name: "empty_body", run.stderr);
    assert_eq!(env.drain_bodies(&queue), vec!["a"]);
}

#[test]
fn small_wording_and_input_details_of_everyday_commands() {
    let env = TestEnv::start();
    let queue = env.create_queue("small", &[]);
    let run = env.run(&["delete", "small", "--message-id", "a", "b", "--dry-run"]);
    assert_snapshot!(name: "delete_ids_not_found", run.stderr);
    let run = env.run(&["purge", "small", "--yes"]);
    run.assert_code(0);
    assert_snapshot!(name: "purge_empty", run.stderr);
    for command in ["receive", "peek"] {
        let run = env.run(&[command, "small", "--max", "0"]);
        run.assert_code(2);
        assert_snapshot!(name: format!("max_0_{command}"), run.stderr);
    }
    // A body piped from `echo` loses the newline `echo` added, and only that.
    env.run_stdin(&["send", "small"], "x\n").assert_code(0);
    env.run_stdin(&["send", "small"], "y\n\n").assert_code(0);
    assert_eq!(sorted(env.drain_bodies(&queue)), vec!["x", "y\n"]);
}

#[test]
fn verbose_shows_endpoint_region_and_batches_but_never_a_secret() {
    let env = TestEnv::start();
    env.create_queue("loud", &[]);
    const MARKER: &str = "SeCrEtMaRkEr0123456789";
    let run_with_secret = |args: &[&str], stdin: &str| {
        let mut child = env
            .cmd()
            .env("AWS_SECRET_ACCESS_KEY", MARKER)
            .env("AWS_SESSION_TOKEN", MARKER)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(!stderr.contains(MARKER), "{args:?}: {stderr}");
        assert!(!stdout.contains(MARKER), "{args:?}: {stdout}");
        stderr
    };
    let stderr = run_with_secret(&["queues", "-v"], "");
    assert!(stderr.contains("debug: region us-east-1"), "{stderr}");
    assert!(
        stderr.contains(&format!("endpoint {}", env.endpoint())),
        "{stderr}"
    );
    assert!(stderr.contains("ListQueues found 1 queue"), "{stderr}");
    let stderr = run_with_secret(&["send", "loud", "--lines", "-vv"], "a\nb\nc\n");
    assert!(
        stderr.contains("debug: queue `loud` (account 000000000000, us-east-1) is http://"),
        "{stderr}"
    );
    assert!(
        stderr.contains("batch of lines 1-3: 3 sent, 0 not sent"),
        "{stderr}"
    );
    let stderr = run_with_secret(&["receive", "loud", "-vv", "--max", "3"], "");
    assert!(stderr.contains("received a batch of"), "{stderr}");
    run_with_secret(&["receive", "no-such-queue", "-vv"], "");
    run_with_secret(
        &[
            "send",
            "loud",
            "-vv",
            "--endpoint-url",
            "http://127.0.0.1:1",
            "x",
        ],
        "",
    );
}

#[test]
fn verbose_send_counts_the_entries_it_retried() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        entry_fault_rate: 0.2,
        seed: Some(7),
        ..ServerConfig::default()
    });
    let queue = env.create_queue("flaky", &[]);
    let lines: String = (0..40).map(|i| format!("m{i}\n")).collect();
    let run = env.run_stdin(&["send", "flaky", "--lines", "-v"], &lines);
    // An entry that fails every attempt is reported (exit 3); the point here is the count.
    assert!(run.code == 0 || run.code == 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("batch entries sent again after a retryable failure: "),
        "{}",
        run.stderr
    );
    assert!(env.depth(&queue) > 0);
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
