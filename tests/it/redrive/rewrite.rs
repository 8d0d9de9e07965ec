//! The rewrite stage of `sqsctl redrive`: what each message becomes between the DLQ and its
//! destination (a replaced body through the library, `--transform`, `--unwrap`, `--exec`), and the
//! guarantees a plain redrive gives kept with it: a failing rewrite leaves its message in the DLQ,
//! the journal records each rewritten message's digest, and `--resume` sends only what the first
//! run would have.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::redrive::reliability::{spawn_through, stalling_proxy};
use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use sqsctl::client::{EntryOutcome, QueueRef};
use sqsctl::local::ServerConfig;
use sqsctl::message::MessageRecord;
use sqsctl::redrive::{self, Journal, NewPlan, Plan, Rewrite, RouteRequest, RunOptions};
use support::TestEnv;
use support::snapshot::assert_snapshot;

/// A DLQ and the empty queue it serves.
fn pair(env: &TestEnv, name: &str) -> (QueueRef, QueueRef) {
    let dlq = env.create_queue(&format!("{name}-dlq"), &[]);
    let arn = env.arn(&dlq);
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#);
    let source = env.create_queue(name, &[("RedrivePolicy", &policy)]);
    (source, dlq)
}

/// Sends `records` to `queue`; returns the message ids SQS gave them, in order.
fn send(env: &TestEnv, queue: &QueueRef, records: &[MessageRecord]) -> Vec<String> {
    env.block_on(async {
        let mut ids = Vec::new();
        for chunk in records.chunks(10) {
            for outcome in env.sqs().send_batch(queue, chunk).await.unwrap() {
                match outcome {
                    EntryOutcome::Ok { message_id, .. } => ids.push(message_id.unwrap()),
                    other => panic!("not sent: {other:?}"),
                }
            }
        }
        ids
    })
}

/// A DLQ of `n` messages whose bodies `body(i)` gives, and the empty queue it serves; with the
/// DLQ's message ids.
fn dlq_of(
    env: &TestEnv,
    name: &str,
    n: usize,
    body: impl Fn(usize) -> String,
) -> (QueueRef, QueueRef, Vec<String>) {
    let (source, dlq) = pair(env, name);
    let records: Vec<MessageRecord> = (0..n).map(|i| MessageRecord::with_body(body(i))).collect();
    let ids = send(env, &dlq, &records);
    (source, dlq, ids)
}

/// The journal's lines as JSON values.
fn journal_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_replaced_body_goes_out_in_place_of_the_one_in_the_dlq_and_is_journaled() {
    let env = TestEnv::start();
    let (source, dlq, ids) = dlq_of(&env, "replace", 3, |i| format!("broken-{i}"));
    let edited = ids[1].clone();
    let rewrite = Rewrite::replace(HashMap::from([(edited.clone(), "fixed-1".to_string())]));
    let journal_path = env.home().join("replace.jsonl");
    let summary = env.block_on(async {
        let route = redrive::route(
            env.sqs(),
            RouteRequest {
                dlq: &dlq.name,
                to: None,
                several_sources: false,
                destination_sqs: None,
            },
        )
        .await
        .unwrap();
        let plan = Plan::new_run(
            &route,
            NewPlan {
                dedup: redrive::DedupMode::MessageId,
                delay_seconds: None,
                selection: Default::default(),
                limit: None,
                rate: None,
                concurrency: Some(2),
                visibility_timeout: 30,
                archive: None,
                copy: false,
                destination_access: None,
                rewrite,
            },
            0,
        )
        .unwrap();
        let journal = Journal::create(&journal_path, &plan).unwrap();
        let options = RunOptions {
            journal: Some(journal),
            archive: None,
            resume: Default::default(),
            sent_before_ms: None,
            counters: Arc::new(Default::default()),
            interrupt: Default::default(),
            destination: None,
        };
        redrive::run(env.sqs(), &plan, options).await.unwrap()
    });
    assert_eq!(summary.moved, 3, "{summary:?}");
    let mut bodies = env.drain_bodies(&source);
    bodies.sort();
    assert_eq!(bodies, ["broken-0", "broken-2", "fixed-1"]);
    let lines = journal_lines(&journal_path);
    assert_eq!(lines[0]["data"]["rewrite"]["replace"][&edited], "fixed-1");
    let received: Vec<&Value> = lines.iter().filter(|l| l["type"] == "received").collect();
    assert_eq!(received.len(), 3);
    for line in received {
        let digest = line["data"]["digest"].as_str().unwrap();
        assert_eq!(digest.len(), 64, "{line}");
    }
}

/// The bodies of every message in `queue` (each message once), drained.
fn bodies_in(env: &TestEnv, queue: &QueueRef) -> Vec<String> {
    env.drain_bodies(queue)
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON: {body}: {e}"))
}

#[test]
fn transform_changes_a_field_of_every_one_of_2000_messages_and_empties_the_dlq() {
    let env = TestEnv::start();
    let count = 2_000;
    let (source, dlq, _) = dlq_of(&env, "fix", count, |i| {
        format!(r#"{{"order":{i},"status":"broken","note":"keep"}}"#)
    });
    let run = env.run(&[
        "redrive",
        &dlq.name,
        "--transform",
        r#".body.status = "fixed""#,
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let summary = json(&run.stdout);
    assert_eq!(summary["moved"], count, "{summary}");
    assert_eq!(summary["rewrite"]["failed"], 0, "{summary}");
    let bodies = bodies_in(&env, &source);
    assert_eq!(bodies.len(), count);
    let mut orders: Vec<u64> = bodies
        .iter()
        .map(|body| {
            // The rest of the body as it was, its keys in their order.
            let order = json(body)["order"].as_u64().unwrap();
            assert_eq!(
                body,
                &format!(r#"{{"order":{order},"status":"fixed","note":"keep"}}"#)
            );
            order
        })
        .collect();
    orders.sort_unstable();
    assert_eq!(orders, (0..count as u64).collect::<Vec<_>>());
    assert!(bodies_in(&env, &dlq).is_empty());
}

#[test]
fn a_filter_that_fails_on_10_messages_leaves_exactly_those_in_the_dlq_and_exits_3() {
    let env = TestEnv::start();
    let count = 100;
    let (source, dlq, _) = dlq_of(&env, "partly", count, |i| {
        if i % 10 == 3 {
            format!(r#"{{"order":{i},"bad":true}}"#)
        } else {
            format!(r#"{{"order":{i}}}"#)
        }
    });
    let filter = r#"if .body.bad then error("order \(.body.order) cannot be fixed") else .body.fixed = true end"#;
    let run = env.run(&[
        "redrive",
        &dlq.name,
        "--transform",
        filter,
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(3);
    let summary = json(&run.stdout);
    assert_eq!(summary["moved"], 90, "{summary}");
    assert_eq!(summary["failed"], 10, "{summary}");
    assert_eq!(summary["rewrite"]["failed"], 10, "{summary}");
    let reasons: Vec<&str> = summary["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap())
        .collect();
    assert!(!reasons.is_empty());
    for reason in reasons {
        assert!(reason.contains("cannot be fixed"), "{reason}");
    }
    assert!(
        run.stderr.contains("10 messages could not be sent"),
        "{}",
        run.stderr
    );
    let mut left: Vec<u64> = bodies_in(&env, &dlq)
        .iter()
        .map(|b| json(b)["order"].as_u64().unwrap())
        .collect();
    left.sort_unstable();
    assert_eq!(left, (0..10).map(|i| i * 10 + 3).collect::<Vec<u64>>());
    let moved = bodies_in(&env, &source);
    assert_eq!(moved.len(), 90);
    assert!(moved.iter().all(|b| json(b)["fixed"] == true));
}

#[test]
fn a_filter_that_does_not_compile_is_a_usage_error_before_anything_moves() {
    let env = TestEnv::start();
    let (_, dlq, _) = dlq_of(&env, "nocompile", 3, |i| format!("m{i}"));
    let run = env.run(&["redrive", &dlq.name, "--transform", ".body |", "--yes"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("the --transform filter does not compile"),
        "{}",
        run.stderr
    );
    let run = env.run(&["redrive", &dlq.name, "--native", "--unwrap", "--yes"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("--native cannot be combined with --unwrap"),
        "{}",
        run.stderr
    );
    assert_eq!(bodies_in(&env, &dlq).len(), 3, "nothing moved");
}

/// An SNS notification as a subscription without raw message delivery writes it.
fn sns_envelope(message: &str) -> String {
    serde_json::json!({
        "Type": "Notification",
        "MessageId": "5b2d5b8e-0e57-5e0f-9c4c-2b7f3bb0b0f1",
        "TopicArn": "arn:aws:sns:us-east-1:000000000000:orders",
        "Subject": "order",
        "Message": message,
        "Timestamp": "2026-01-01T03:00:00.000Z",
        "SignatureVersion": "1",
        "Signature": "c2lnbmF0dXJl",
        "SigningCertURL": "https://sns.us-east-1.amazonaws.com/cert.pem",
        "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe",
        "MessageAttributes": {
            "tenant": {"Type": "String", "Value": "acme"},
            "attempt": {"Type": "Number", "Value": "3"},
            "blob": {"Type": "Binary", "Value": "AAEC/w=="},
            "tags": {"Type": "String.Array", "Value": "[\"a\",\"b\"]"}
        }
    })
    .to_string()
}

#[test]
fn unwrap_delivers_the_message_an_sns_or_eventbridge_envelope_carries() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "unwrap");
    let event = serde_json::json!({
        "version": "0", "id": "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
        "detail-type": "OrderPlaced", "source": "shop.orders", "account": "000000000000",
        "time": "2026-01-01T03:00:00Z", "region": "us-east-1", "resources": [],
        "detail": {"order": 8}
    })
    .to_string();
    send(
        &env,
        &dlq,
        &[
            MessageRecord::with_body(sns_envelope(r#"{"order":7}"#)),
            MessageRecord::with_body(event),
            MessageRecord::with_body("plain"),
        ],
    );
    let run = env.run(&["redrive", &dlq.name, "--unwrap", "--yes", "-o", "json"]);
    run.assert_code(0);
    let summary = json(&run.stdout);
    assert_eq!(summary["moved"], 3, "{summary}");
    assert_eq!(summary["rewrite"]["not_envelope"], 1, "{summary}");
    assert!(
        run.stderr
            .contains("; 1 not an SNS or EventBridge envelope, sent unchanged"),
        "{}",
        run.stderr
    );
    let mut moved = env.drain(&source);
    moved.sort_by(|a, b| a.body.cmp(&b.body));
    let bodies: Vec<&str> = moved.iter().map(|m| m.body.as_str()).collect();
    assert_eq!(bodies, ["plain", r#"{"order":7}"#, r#"{"order":8}"#]);
    let attributes: Vec<(&str, &str, &str)> = moved[1]
        .message_attributes
        .iter()
        .map(|(name, a)| (name.as_str(), a.data_type.as_str(), a.value.as_str()))
        .collect();
    assert_eq!(
        attributes,
        [
            ("attempt", "Number", "3"),
            // Base64 in records; SQS holds the bytes 00 01 02 ff.
            ("blob", "Binary", "AAEC/w=="),
            ("tags", "String", "[\"a\",\"b\"]"),
            ("tenant", "String", "acme"),
        ]
    );
    assert!(moved[0].message_attributes.is_empty());
    assert!(moved[2].message_attributes.is_empty());
}

#[test]
fn exec_rewrites_each_body_and_leaves_the_messages_its_command_fails_on() {
    let env = TestEnv::start();
    let (source, dlq, _) = dlq_of(&env, "exec", 20, |i| {
        if i % 5 == 0 {
            format!("bad {i}")
        } else {
            format!("order {i}")
        }
    });
    let command = r#"body=$(cat); case "$body" in bad*) echo "refused: $body" >&2; exit 4;; esac; printf '%s\n' "$body" | tr a-z A-Z"#;
    let run = env.run(&[
        "redrive", &dlq.name, "--exec", command, "--yes", "-o", "json",
    ]);
    run.assert_code(3);
    let summary = json(&run.stdout);
    assert_eq!(summary["moved"], 16, "{summary}");
    assert_eq!(summary["rewrite"]["failed"], 4, "{summary}");
    let reason = summary["failures"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("rewrite: the command exited with 4: refused: bad "),
        "{reason}"
    );
    let mut moved = bodies_in(&env, &source);
    moved.sort();
    let mut expected: Vec<String> = (0..20)
        .filter(|i| i % 5 != 0)
        .map(|i| format!("ORDER {i}"))
        .collect();
    expected.sort();
    assert_eq!(moved, expected);
    let mut left = bodies_in(&env, &dlq);
    left.sort();
    assert_eq!(left, ["bad 0", "bad 10", "bad 15", "bad 5"]);
}

#[test]
fn killed_twice_and_resumed_a_transform_moves_each_message_once_rewritten() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(3),
        ..ServerConfig::default()
    });
    let count = 2_000;
    let (source, dlq, _) = dlq_of(&env, "killed", count, |i| format!(r#"{{"order":{i}}}"#));
    let journal = env.home().join("killed.jsonl").display().to_string();
    let filter = ".body.fixed = true";
    let first = [
        "redrive",
        &dlq.name,
        "--transform",
        filter,
        "--yes",
        "-o",
        "json",
        "--journal",
        &journal,
        "--concurrency",
        "4",
        "--rate",
        "1000",
        "--visibility",
        "5",
    ];
    // Each kill leaves up to one batch per worker received without a journaled outcome: the
    // documented bound on copies.
    let mut unresolved = 0;
    env.kill_9_after(&first, support::random_delay(200, 400));
    for kill in 1..=2 {
        let (plan, state) = redrive::journal::load(std::path::Path::new(&journal)).unwrap();
        assert_eq!(plan.rewrite.transform.as_deref(), Some(filter));
        assert!(
            state.moved_before < count as u64,
            "kill {kill} came after the end"
        );
        unresolved += state.unresolved;
        // The dead run's messages come back once their visibility timeout ends.
        env.server().clock().advance(Duration::from_secs(6));
        if kill == 2 {
            break;
        }
        env.kill_9_after(
            &["redrive", "--resume", &journal, "--yes", "-o", "json"],
            support::random_delay(300, 300),
        );
    }
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let mut per_order: HashMap<u64, usize> = HashMap::new();
    for body in bodies_in(&env, &source) {
        let value = json(&body);
        assert_eq!(value["fixed"], true, "{body}");
        *per_order
            .entry(value["order"].as_u64().unwrap())
            .or_default() += 1;
    }
    assert_eq!(per_order.len(), count, "every message arrived");
    let copies: usize = per_order.values().map(|n| n - 1).sum();
    eprintln!("{copies} copies, {unresolved} received without an outcome over two kills");
    assert!(copies as u64 <= unresolved, "{copies} > {unresolved}");
    assert!(unresolved <= 2 * 10 * 4, "{unresolved}");
    assert_eq!(env.depth(&dlq), 0);
}

#[test]
fn a_resumed_run_does_not_send_a_message_rewritten_differently_from_its_journaled_digest() {
    let env = TestEnv::start();
    let (source, dlq, _) = dlq_of(&env, "digest", 30, |i| format!("m{i}"));
    let journal = env.home().join("digest.jsonl").display().to_string();
    let marker = env.home().join("second-run");
    // Gives another body once the marker exists: as a command that is not deterministic does.
    let command = format!(
        "cat; if [ -e '{}' ]; then printf ' again'; fi",
        marker.display()
    );
    // Sends never answer: the run is killed with one batch received, rewritten and journaled,
    // its send of unknown outcome.
    let proxy = stalling_proxy(env.endpoint(), "SendMessageBatch");
    let mut child = spawn_through(
        &env,
        &proxy,
        &[
            "redrive",
            &dlq.name,
            "--exec",
            &command,
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--concurrency",
            "1",
            "--visibility",
            "2",
        ],
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let received = loop {
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        let received = text
            .lines()
            .filter(|l| l.contains(r#""type":"received""#))
            .count();
        if received > 0 || std::time::Instant::now() > deadline {
            break received;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(received > 0, "the run received a batch");
    let (_, state) = redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert_eq!(state.digests.len(), received);
    std::fs::write(&marker, "").unwrap();
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(3);
    let summary = json(&run.stdout);
    assert_eq!(
        summary["rewrite"]["changed_since_journal"], received,
        "{summary}"
    );
    assert_eq!(summary["moved"], 30 - received, "{summary}");
    assert!(
        run.stderr
            .contains("rewritten differently from what the interrupted run may have sent"),
        "{}",
        run.stderr
    );
    // The messages the dead run may have sent stay; the others moved, rewritten.
    let left = bodies_in(&env, &dlq);
    assert_eq!(left.len(), received);
    assert!(left.iter().all(|b| !b.ends_with(" again")));
    let moved = bodies_in(&env, &source);
    assert_eq!(moved.len(), 30 - received);
    assert!(moved.iter().all(|b| b.ends_with(" again")), "{moved:?}");
}

#[test]
fn a_dry_run_shows_each_message_before_and_after_and_the_failures_and_moves_nothing() {
    let env = TestEnv::start();
    let (source, dlq, _) = dlq_of(&env, "preview", 3, |i| {
        if i == 2 {
            r#"{"order":2,"bad":true}"#.to_string()
        } else {
            format!(r#"{{"order":{i}}}"#)
        }
    });
    let filter =
        r#"if .body.bad then error("order \(.body.order) is bad") else .body.fixed = true end"#;
    let run = env.run(&[
        "redrive",
        &dlq.name,
        "--transform",
        filter,
        "--dry-run",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let mut records = run.records_of("rewrite");
    records.sort_by_key(|r| json(r["before"]["body"].as_str().unwrap())["order"].as_u64());
    assert_eq!(records.len(), 3, "{}", run.stdout);
    for (i, record) in records.iter().take(2).enumerate() {
        assert_eq!(record["before"]["body"], format!(r#"{{"order":{i}}}"#));
        assert_eq!(
            record["after"]["body"],
            format!(r#"{{"order":{i},"fixed":true}}"#)
        );
        assert_eq!(record["message_id"], record["before"]["message_id"]);
    }
    assert_eq!(records[2]["after"], Value::Null);
    assert!(
        records[2]["error"]
            .as_str()
            .unwrap()
            .contains("order 2 is bad"),
        "{}",
        records[2]
    );
    let summary = &run.records_of("summary")[0];
    assert_eq!(summary["would_move"], 2, "{summary}");
    assert_eq!(summary["would_stay"], 1, "{summary}");
    assert_eq!(summary["rewrite"]["failed"], 1, "{summary}");
    assert!(
        run.stderr.contains("the rewrite would fail on 1 message"),
        "{}",
        run.stderr
    );
    // On a terminal: a table of bodies before and after.
    let table = env.run_tty(
        &["redrive", &dlq.name, "--transform", filter, "--dry-run"],
        "",
    );
    table.assert_code(0);
    for text in [
        "before",
        "after",
        r#"{"order":0,"fixed":true}"#,
        "(stays: the filter failed",
    ] {
        assert!(table.stdout.contains(text), "{text}:\n{}", table.stdout);
    }
    assert_eq!(bodies_in(&env, &dlq).len(), 3, "nothing moved");
    assert!(bodies_in(&env, &source).is_empty());
}

#[test]
fn on_fifo_queues_a_group_stops_at_its_first_message_the_rewrite_refuses() {
    let env = TestEnv::start();
    let fifo = [("FifoQueue", "true")];
    let dlq = env.create_queue("fifo-fix-dlq.fifo", &fifo);
    let arn = env.arn(&dlq);
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#);
    let source = env.create_queue(
        "fifo-fix.fifo",
        &[("FifoQueue", "true"), ("RedrivePolicy", &policy)],
    );
    let records: Vec<MessageRecord> = [
        ("g1", "a0"),
        ("g1", "a1"),
        ("g1", "a2"),
        ("g2", "b0"),
        ("g2", "b1"),
    ]
    .iter()
    .map(|(group, body)| {
        let mut m = MessageRecord::with_body(*body);
        m.group_id = Some(group.to_string());
        m.dedup_id = Some(body.to_string());
        m
    })
    .collect();
    send(&env, &dlq, &records);
    let filter = r#"if .body == "a1" then error("a1 cannot be fixed") else .body += "!" end"#;
    let run = env.run(&[
        "redrive",
        &dlq.name,
        "--transform",
        filter,
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(3);
    let summary = json(&run.stdout);
    assert_eq!(summary["moved"], 3, "{summary}");
    assert_eq!(summary["rewrite"]["failed"], 1, "{summary}");
    let moved: Vec<(String, String)> = env
        .drain(&source)
        .into_iter()
        .map(|m| (m.group_id.unwrap(), m.body))
        .collect();
    for group in ["g1", "g2"] {
        let bodies: Vec<&str> = moved
            .iter()
            .filter(|(g, _)| g == group)
            .map(|(_, b)| b.as_str())
            .collect();
        let expected: &[&str] = if group == "g1" {
            &["a0!"]
        } else {
            &["b0!", "b1!"]
        };
        assert_eq!(bodies, expected, "{group}");
    }
    // The refused message and the one behind it stay, in their order.
    let left: Vec<String> = env.drain(&dlq).into_iter().map(|m| m.body).collect();
    assert_eq!(left, ["a1", "a2"]);
}

#[test]
fn the_question_before_a_move_says_how_the_messages_are_rewritten() {
    let env = TestEnv::start();
    let (_, dlq, _) = dlq_of(&env, "asked", 2, |i| format!(r#"{{"order":{i}}}"#));
    let run = env.run_tty(
        &[
            "redrive",
            &dlq.name,
            "--unwrap",
            "--transform",
            ".body.x = 1",
        ],
        "n\n",
    );
    run.assert_code(6);
    assert!(
        run.stderr
            .contains("to `asked` (account 000000000000, us-east-1), unwrapped (--unwrap), then rewritten by --transform '.body.x = 1'?"),
        "{}",
        run.stderr
    );
    assert_eq!(bodies_in(&env, &dlq).len(), 2, "nothing moved");
}

#[test]
fn killed_while_its_command_runs_a_resumed_run_waits_for_the_held_batch_and_moves_it() {
    let env = TestEnv::start();
    let (source, dlq, _) = dlq_of(&env, "slow", 10, |i| format!("m{i}"));
    let journal = env.home().join("slow.jsonl").display().to_string();
    env.kill_9_after(
        &[
            "redrive",
            &dlq.name,
            "--exec",
            "sleep 0.3; cat",
            "--yes",
            "--journal",
            &journal,
            "--concurrency",
            "1",
            "--visibility",
            "3",
        ],
        Duration::from_millis(800),
    );
    let (_, state) = redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert_eq!(state.moved_before, 0, "killed while the command ran");
    assert_eq!(
        state.held, 10,
        "the batch is journaled as held before its rewrite"
    );
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    assert_eq!(json(&run.stdout)["moved"], 10, "{}", run.stdout);
    let mut moved = bodies_in(&env, &source);
    moved.sort();
    let mut expected: Vec<String> = (0..10).map(|i| format!("m{i}")).collect();
    expected.sort();
    assert_eq!(moved, expected);
}

#[test]
fn the_dry_run_table_and_talk_people_read() {
    let env = TestEnv::exact("the table lists the messages in the order the DLQ holds them");
    let (_, dlq, _) = dlq_of(&env, "shown", 3, |i| {
        if i == 2 {
            r#"{"order":2,"bad":true}"#.to_string()
        } else {
            format!(r#"{{"order":{i}}}"#)
        }
    });
    let filter =
        r#"if .body.bad then error("order \(.body.order) is bad") else .body.fixed = true end"#;
    let args = ["redrive", &dlq.name, "--transform", filter, "--dry-run"];
    let run = env.run_tty(&args, "");
    run.assert_code(0);
    assert_snapshot!(format!(
        "{}{}",
        run.stdout,
        support::snapshot::transcript(&args, &run)
    ));
}
