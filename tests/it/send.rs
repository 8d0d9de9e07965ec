//! `sqsctl send` through the real binary against the local server: one body, lines and JSON Lines
//! (also from a slow producer), FIFO groups and deduplication, and every bad input refused with its
//! exit code and a message that speaks of input lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::io::Write;
use std::process::Stdio;

use crate::receive::{bodies, counts, numbered, sorted};
use sqsctl::local::ServerConfig;
use support::TestEnv;
use support::snapshot::assert_snapshot;

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
    let summary = &run.records_of("summary")[0];
    assert_eq!(summary["sent"], 57);
    // Nothing was sent twice, and nothing says so.
    assert_eq!(summary["possible_duplicates"], 0, "{summary}");
    assert_eq!(
        run.stderr.trim(),
        "sent 57 messages to lines",
        "a clean run, clean words"
    );
    let run = env.run(&["receive", "lines", "--until-empty", "--delete", "--yes"]);
    run.assert_code(0);
    assert_eq!(bodies(&run), sorted(numbered("line ", 57)));
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
    // JSON records may carry their own ids, so they reach SQS, which refuses the whole batch (an
    // entry without a dedup id fails the request): the run stops, each line is reported failed
    // (definitely not sent, not unknown), with the hint once.
    let run = env.run_stdin(
        &["send", "nodedup.fifo", "--jsonl", "--group-id", "g"],
        "{\"body\":\"a\"}\n{\"body\":\"b\"}\n",
    );
    run.assert_code(1);
    assert_eq!(
        run.stderr.matches("--dedup-id auto").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains(r#""sent":0,"failed":2,"unknown":0"#),
        "{}",
        run.stdout
    );
    assert_eq!(env.depth(&queue), 0);
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
    assert_snapshot!(name: "not_sent", run.stderr, r"in \d+\.\d s\)" => "in N.N s)");
}

fn sorted_u64(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v
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

/// A server like `sqsctl local --like-sqs --fault-rate 0.1 --entry-fault-rate 0.05 --seed SEED`:
/// some requests are applied and then answered with a 500, as a lost answer looks.
fn ambiguous_server(seed: u64) -> TestEnv {
    TestEnv::start_with(ServerConfig {
        inspection: false,
        realism: sqsctl::local::Realism::LIKE_SQS,
        fault_rate: 0.1,
        entry_fault_rate: 0.05,
        seed: Some(seed),
        ..ServerConfig::default()
    })
}

/// The test's own calls retry long: they only set up and check.
fn patient() -> sqsctl::client::RetryPolicy {
    sqsctl::client::RetryPolicy {
        max_attempts: 100,
        ..sqsctl::client::RetryPolicy::default()
    }
}

/// Creates a queue through the faults, retrying until it exists.
fn create_through_faults(
    env: &TestEnv,
    name: &str,
    attributes: &[(&str, &str)],
) -> sqsctl::client::QueueRef {
    let attributes: std::collections::BTreeMap<String, String> = attributes
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    env.block_on(patient().request(|| env.sqs().create_queue(name, attributes.clone())))
        .result
        .expect("queue created")
}

/// The queue's depth, read through the server's faults (a tenth of its calls fail).
fn depth_through_faults(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> u64 {
    env.settle_counts();
    env.block_on(patient().request(|| env.sqs().attributes(queue)))
        .result
        .expect("attributes")
        .total()
}

fn jsonl_records(prefix: &str, count: usize) -> String {
    (1..=count)
        .map(|i| format!("{{\"body\":\"{prefix}-{i}\"}}\n"))
        .collect()
}

#[test]
fn send_counts_the_possible_duplicates_that_ambiguous_answers_leave_on_a_standard_queue() {
    let env = ambiguous_server(11);
    let queue = create_through_faults(&env, "twice", &[]);
    let before = env.server().stats();
    let run = env.run_stdin(&["send", "twice", "--jsonl"], &jsonl_records("r", 3000));
    let after = env.server().stats();
    // Messages the server stored in requests it then answered with a 500: the client was told
    // they failed, so each one it sent again is a second copy in the queue.
    let stored_then_failed = after.ambiguous_sends - before.ambiguous_sends;
    assert!(stored_then_failed > 0, "ambiguous answers were injected");
    // Sending twice loses nothing: every message went out, and the run says how many may be
    // there twice rather than failing.
    run.assert_code(0);
    let summary = &run.records_of("summary")[0];
    assert_eq!(
        (&summary["sent"], &summary["unknown"], &summary["failed"]),
        (&3000.into(), &0.into(), &0.into()),
        "{summary}"
    );
    let possible = summary["possible_duplicates"].as_u64().unwrap();
    assert_eq!(summary["ambiguous_resends"].as_u64(), Some(possible));
    assert!(
        possible >= stored_then_failed,
        "{possible} possible duplicates < {stored_then_failed} messages stored by requests answered with a 500"
    );
    let depth = depth_through_faults(&env, &queue);
    assert!(
        (3000..=3000 + possible).contains(&depth),
        "the queue holds {depth}: not within sent 3000 + {possible} possible duplicates"
    );
    assert_snapshot!(
        name: "possible_duplicates",
        run.stderr,
        r"up to \d+ possible" => "up to N possible",
    );
}

#[test]
fn on_a_fifo_queue_a_send_repeated_after_an_ambiguous_answer_is_no_duplicate() {
    let env = ambiguous_server(11);
    let queue = create_through_faults(&env, "once.fifo", &[("FifoQueue", "true")]);
    let before = env.server().stats();
    let run = env.run_stdin(
        &[
            "send",
            "once.fifo",
            "--jsonl",
            "--group-id",
            "g",
            "--dedup-id",
            "auto",
        ],
        &jsonl_records("f", 1000),
    );
    let after = env.server().stats();
    assert!(
        after.ambiguous_failures > before.ambiguous_failures,
        "ambiguous answers were injected"
    );
    run.assert_code(0);
    let summary = &run.records_of("summary")[0];
    assert_eq!(
        (&summary["sent"], &summary["unknown"]),
        (&1000.into(), &0.into()),
        "{summary}"
    );
    assert_eq!(summary["possible_duplicates"], 0, "{summary}");
    let resent = summary["ambiguous_resends"].as_u64().unwrap();
    assert!(
        resent >= after.ambiguous_sends - before.ambiguous_sends && resent > 0,
        "{summary}"
    );
    // The deduplication id made SQS keep one copy of each.
    assert_eq!(depth_through_faults(&env, &queue), 1000);
    assert_snapshot!(
        name: "deduplicated",
        run.stderr,
        r"\d+ messages? sent again" => "N messages sent again",
    );
}

#[test]
fn one_body_sent_again_after_an_ambiguous_answer_is_counted_as_a_possible_duplicate() {
    // Over fixed seeds, some first attempts are applied and answered with a 500: in each run the
    // queue holds the message once, or as many more times as the record says it may.
    let mut counted = 0;
    for seed in 1..=30 {
        let env = TestEnv::start_with(ServerConfig {
            inspection: false,
            fault_rate: 0.3,
            seed: Some(seed),
            ..ServerConfig::default()
        });
        let queue = create_through_faults(&env, "single", &[]);
        let run = env.run(&["send", "single", "hello"]);
        if run.code != 0 {
            // Not confirmed within the retries: reported as such, not counted here.
            continue;
        }
        let sent = &run.records_of("sent")[0];
        let possible = sent["possible_duplicates"].as_u64().unwrap_or(0);
        let depth = env
            .block_on(patient().request(|| env.sqs().attributes(&queue)))
            .result
            .expect("attributes")
            .total();
        assert!(
            (1..=1 + possible).contains(&depth),
            "seed {seed}: the queue holds {depth}, the record says {sent}"
        );
        if possible > 0 {
            counted += 1;
            assert!(
                run.stderr.contains("possible duplicate"),
                "seed {seed}: {}",
                run.stderr
            );
        } else {
            assert!(sent.get("possible_duplicates").is_none(), "{sent}");
            assert_eq!(run.stderr.trim(), "sent 1 message to single", "seed {seed}");
        }
    }
    assert!(counted > 0, "no seed made an ambiguous first attempt");
}
