//! `sqsctl redrive` through the binary against the local server: what moves, what stays, FIFO
//! groups and order, dry runs, native move tasks, resume, and the refusals.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use serde_json::Value;
use sqsctl::client::{QueueRef, ReceiveOptions};
use sqsctl::local::{Clock, ServerConfig};
use sqsctl::message::{AttributeValue, MessageRecord};
use support::snapshot::assert_snapshot;
use support::{Run, TestEnv};

/// A source queue and its DLQ (standard or FIFO).
fn pair(env: &TestEnv, name: &str, fifo: bool) -> (QueueRef, QueueRef) {
    let suffix = if fifo { ".fifo" } else { "" };
    let fifo_attrs: Vec<(&str, &str)> = if fifo {
        vec![("FifoQueue", "true")]
    } else {
        vec![]
    };
    let dlq = env.create_queue(&format!("{name}-dlq{suffix}"), &fifo_attrs);
    let arn = env.server().queue_arn(&dlq.name);
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#);
    let mut attrs = fifo_attrs.clone();
    attrs.push(("RedrivePolicy", &policy));
    let source = env.create_queue(&format!("{name}{suffix}"), &attrs);
    (source, dlq)
}

fn send(env: &TestEnv, queue: &QueueRef, records: Vec<MessageRecord>) {
    env.block_on(async {
        for chunk in records.chunks(10) {
            let outcomes = env.sqs().send_batch(queue, chunk).await.unwrap();
            assert!(outcomes.iter().all(|o| o.is_ok()), "{outcomes:?}");
        }
    });
}

fn bodies(env: &TestEnv, queue: &QueueRef, prefix: &str, n: usize) {
    send(
        env,
        queue,
        (0..n)
            .map(|i| MessageRecord::with_body(format!("{prefix}{i}")))
            .collect(),
    );
}

/// Every message in a queue, in delivery order, received and deleted (once per message id).
fn drain(env: &TestEnv, queue: &QueueRef) -> Vec<MessageRecord> {
    env.drain(queue)
}

/// The wait of a test's own receive that must see every visible message: a short poll on the exact
/// server, a long one on a `--like-sqs` server, whose short polls sample.
fn poll(env: &TestEnv) -> Option<i32> {
    Some(if env.is_like_sqs() { 1 } else { 0 })
}

fn visible(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.settled_attributes(queue);
    (attrs.visible(), attrs.in_flight())
}

fn summary(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("summary is not JSON: {e}\n{}\n{}", run.stdout, run.stderr))
}

fn journal_arg(env: &TestEnv, name: &str) -> String {
    env.home().join(name).display().to_string()
}

#[test]
fn moves_everything_back_to_its_source_with_attributes() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "orders", false);
    let records = (0..25)
        .map(|i| {
            let mut m = MessageRecord::with_body(format!("order-{i}"));
            m.message_attributes
                .insert("tenant".into(), AttributeValue::string("acme"));
            m.message_attributes.insert(
                "attempt".into(),
                AttributeValue {
                    data_type: "Number".into(),
                    value: i.to_string(),
                },
            );
            m.message_attributes.insert(
                "blob".into(),
                AttributeValue {
                    data_type: "Binary".into(),
                    value: "AAEC/w==".into(),
                },
            );
            m
        })
        .collect();
    send(&env, &dlq, records);
    let journal = journal_arg(&env, "orders.jsonl");
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--yes",
        "-o",
        "json",
        "--journal",
        &journal,
    ]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["moved"], 25, "{s}");
    assert_eq!(s["failed"], 0);
    assert_eq!(s["destination"], "orders");
    assert!(
        run.stderr.contains(&format!("journal: {journal}")),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &dlq), (0, 0));
    let moved = drain(&env, &source);
    assert_eq!(moved.len(), 25);
    for m in &moved {
        let i: usize = m.body.trim_start_matches("order-").parse().unwrap();
        assert_eq!(m.message_attributes["tenant"].value, "acme");
        assert_eq!(m.message_attributes["attempt"].value, i.to_string());
        assert_eq!(m.message_attributes["attempt"].data_type, "Number");
        assert_eq!(m.message_attributes["blob"].value, "AAEC/w==");
    }
    // The journal has the plan, then each message received, sent (with its new id) and deleted:
    // a second delivery by SQS of a message already deleted is deleted again, and may be
    // journaled again.
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "plan");
    let count = |kind: &str| {
        lines
            .iter()
            .filter(|l| l["type"] == kind)
            .map(|l| l["data"]["id"].as_str().unwrap())
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    };
    assert_eq!(
        (count("received"), count("sent"), count("deleted")),
        (25, 25, 25)
    );
    assert_eq!(
        lines.iter().filter(|l| l["type"] == "sent").count(),
        25,
        "each message sent once"
    );
    let new_ids: Vec<&str> = lines
        .iter()
        .filter(|l| l["type"] == "sent")
        .map(|l| l["data"]["new_id"].as_str().unwrap())
        .collect();
    for m in &moved {
        assert!(new_ids.contains(&m.message_id.as_deref().unwrap()));
    }
}

#[test]
fn the_default_journal_goes_under_the_state_directory() {
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "state", false);
    bodies(&env, &dlq, "m", 3);
    let run = env.run(&["redrive", "state-dlq", "--yes"]);
    run.assert_code(0);
    let dir = env.home().join("state").join("sqsctl").join("redrive");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1, "one journal in {}", dir.display());
    assert!(
        run.stderr.contains(&dir.display().to_string()),
        "{}",
        run.stderr
    );
    let records = run.records_of("summary");
    assert_eq!(records[0]["moved"], 3);
}

#[test]
fn without_a_terminal_it_needs_yes_and_on_a_terminal_it_asks() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "ask", false);
    bodies(&env, &dlq, "m", 5);
    let run = env.run(&["redrive", "ask-dlq"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
    assert_eq!(visible(&env, &dlq).0, 5);
    let answer = |text: &str| {
        let mut cmd = env.cmd();
        cmd.env("SQSCTL_ASSUME_TTY", "1")
            .args(["redrive", "ask-dlq", "-o", "json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let no = answer("n\n");
    assert_eq!(no.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&no.stderr).contains("Move every message"));
    assert_eq!(visible(&env, &dlq).0, 5);
    let yes = answer("y\n");
    assert_eq!(
        yes.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&yes.stderr)
    );
    assert_eq!(visible(&env, &source).0, 5);
}

#[test]
fn selection_moves_only_matching_messages_and_leaves_the_rest_visible() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "sel", false);
    let records = (0..40)
        .map(|i| {
            let body = serde_json::json!({ "kind": if i % 2 == 0 { "timeout" } else { "crash" }, "amount": i }).to_string();
            let mut m = MessageRecord::with_body(body);
            let tenant = if i % 4 == 0 { "acme" } else { "globex" };
            m.message_attributes
                .insert("tenant".into(), AttributeValue::string(tenant));
            m
        })
        .collect();
    send(&env, &dlq, records);
    // --grep and --attr together: even i and i % 4 == 0 -> 10 messages.
    let run = env.run(&[
        "redrive",
        "sel-dlq",
        "--yes",
        "-o",
        "json",
        "--grep",
        "timeout",
        "--attr",
        "tenant=acme",
    ]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(
        (s["moved"].as_u64(), s["skipped"].as_u64()),
        (Some(10), Some(30)),
        "{s}"
    );
    assert_eq!(
        visible(&env, &dlq),
        (30, 0),
        "the rest is visible again at once"
    );
    // --where over the parsed JSON body.
    let run = env.run(&[
        "redrive",
        "sel-dlq",
        "--yes",
        "-o",
        "json",
        "--where",
        "body.amount >= `30` && body.kind == 'crash'",
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 5, "31, 33, 35, 37, 39");
    let moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    assert_eq!(moved.len(), 15);
    assert!(moved.iter().filter(|b| b.contains("crash")).count() == 5);
    // --message-id picks exactly those.
    let left = env.block_on(async {
        env.sqs()
            .receive(
                &dlq,
                ReceiveOptions {
                    max_messages: 3,
                    wait_seconds: poll(&env),
                    visibility_timeout: Some(0),
                },
            )
            .await
            .unwrap()
    });
    let ids: Vec<String> = left.iter().filter_map(|m| m.message_id.clone()).collect();
    let mut args = vec!["redrive", "sel-dlq", "--yes", "-o", "json", "--message-id"];
    args.extend(ids.iter().map(String::as_str));
    let run = env.run(&args);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], ids.len());
    let moved_ids: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    let left_bodies: Vec<String> = left.into_iter().map(|m| m.body).collect();
    assert_eq!(moved_ids.len(), left_bodies.len());
    assert!(left_bodies.iter().all(|b| moved_ids.contains(b)));
    assert_eq!(visible(&env, &dlq).0, 25 - ids.len() as u64);
}

#[test]
fn a_where_that_does_not_parse_is_a_usage_error_and_one_that_fails_is_reported() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "wh", false);
    let records = [r#"{"items":[1,2]}"#, r#"{"other":1}"#, r#"{"other":2}"#]
        .into_iter()
        .map(MessageRecord::with_body)
        .collect();
    send(&env, &dlq, records);

    let run = env.run(&["redrive", "wh-dlq", "--yes", "--where", "body.["]);
    run.assert_code(2);
    assert_snapshot!(name: "unparsable", run.stderr);
    assert_eq!(visible(&env, &dlq).0, 3, "nothing was read");

    // Two bodies have no `items`: length() fails on them. That is said, not a silent non-match.
    let expr = "length(body.items) > `1`";
    let run = env.run(&[
        "redrive",
        "wh-dlq",
        "--dry-run",
        "-o",
        "json",
        "--where",
        expr,
    ]);
    run.assert_code(0);
    let dry = &summary(&run)["summary"];
    assert_eq!(dry["would_move"], 1);
    assert_eq!(dry["where_failed"]["messages"], 2, "{dry}");
    assert_snapshot!(name: "failing_dry_run", run.stderr);

    let run = env.run(&["redrive", "wh-dlq", "--yes", "-o", "json", "--where", expr]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 1);
    assert_eq!(summary(&run)["where_failed"]["messages"], 2);
    assert!(
        run.stderr.contains("--where failed on 2 messages"),
        "{}",
        run.stderr
    );
    assert_eq!(drain(&env, &source).len(), 1);
    assert_eq!(visible(&env, &dlq).0, 2);
}

#[test]
fn older_than_and_newer_than_use_the_sent_timestamp() {
    let start = SystemTime::now() - Duration::from_secs(3 * 3600);
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        clock: Clock::manual(start),
        ..ServerConfig::default()
    });
    let (source, dlq) = pair(&env, "age", false);
    bodies(&env, &dlq, "old", 4);
    env.server().clock().advance(Duration::from_secs(3 * 3600));
    bodies(&env, &dlq, "new", 6);
    let run = env.run(&[
        "redrive",
        "age-dlq",
        "--yes",
        "-o",
        "json",
        "--older-than",
        "1h",
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 4);
    let moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    assert!(moved.iter().all(|b| b.starts_with("old")), "{moved:?}");
    let run = env.run(&[
        "redrive",
        "age-dlq",
        "--yes",
        "-o",
        "json",
        "--newer-than",
        "30m",
        "--limit",
        "4",
    ]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["moved"], 4);
    assert_eq!(s["limit_reached"], true);
    assert_eq!(visible(&env, &dlq).0, 2);
    let run = env.run(&["redrive", "age-dlq", "--yes", "--older-than", "soon"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--older-than"), "{}", run.stderr);
}

#[test]
fn dry_run_changes_nothing_and_counts_per_destination_and_group() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "dry", true);
    let records = (0..12)
        .map(|i| MessageRecord {
            group_id: Some(format!("g{}", i % 3)),
            dedup_id: Some(format!("d{i}")),
            ..MessageRecord::with_body(format!("m{i}"))
        })
        .collect();
    send(&env, &dlq, records);
    let run = env.run(&["redrive", "dry-dlq.fifo", "--dry-run"]);
    run.assert_code(0);
    let messages = run.records_of("message");
    let s = &run.records_of("summary")[0];
    assert_eq!(s["dry_run"], true);
    assert_eq!(s["would_move"].as_u64().unwrap(), messages.len() as u64);
    assert_eq!(s["per_destination"]["dry.fifo"], s["would_move"]);
    let per_group: BTreeMap<String, u64> = serde_json::from_value(s["per_group"].clone()).unwrap();
    assert_eq!(per_group.values().sum::<u64>(), messages.len() as u64);
    assert!(per_group.len() == 3, "{per_group:?}");
    assert!(run.stderr.contains("nothing was changed"), "{}", run.stderr);
    assert_eq!(visible(&env, &dlq), (12, 0), "every message visible again");
    assert_eq!(visible(&env, &source), (0, 0));
    // A filtered dry run, standard queue: counts add up and no --yes is needed.
    let (_s2, dlq2) = pair(&env, "dry2", false);
    bodies(&env, &dlq2, "keep", 7);
    bodies(&env, &dlq2, "move", 5);
    let run = env.run(&[
        "redrive",
        "dry2-dlq",
        "--dry-run",
        "--yes",
        "--grep",
        "^move",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let doc = summary(&run);
    assert_eq!(doc["summary"]["would_move"], 5);
    assert_eq!(doc["summary"]["would_stay"], 7);
    assert_eq!(doc["messages"].as_array().unwrap().len(), 5);
    assert_eq!(visible(&env, &dlq2), (12, 0));
    // As a table (a terminal), the listing stops at 20 rows; the counts cover every message.
    let (_s3, dlq3) = pair(&env, "dry3", false);
    bodies(&env, &dlq3, "row", 30);
    let run = env.run(&["redrive", "dry3-dlq", "--dry-run", "-o", "table"]);
    run.assert_code(0);
    let listed = run.stdout.lines().filter(|l| l.contains("row")).count();
    assert_eq!(listed, 20, "{}", run.stdout);
    assert!(
        run.stderr.contains("and 10 more that would move"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.contains("-> dry3 ") && l.contains("30")),
        "{}",
        run.stdout
    );
}

#[test]
fn fifo_keeps_groups_order_and_every_message() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "fifo", true);
    let records: Vec<MessageRecord> = (0..60)
        .map(|i| {
            let mut m = MessageRecord {
                group_id: Some(format!("g{}", i % 4)),
                dedup_id: Some("same-for-all".to_string() + &(i % 2).to_string()),
                ..MessageRecord::with_body(format!("g{}-{:03}", i % 4, i / 4))
            };
            m.message_attributes
                .insert("seq".into(), AttributeValue::string(i.to_string()));
            m
        })
        .collect();
    // Distinct dedup ids in the DLQ (as after a real dead-lettering), sent one by one.
    let records: Vec<MessageRecord> = records
        .into_iter()
        .enumerate()
        .map(|(i, m)| MessageRecord {
            dedup_id: Some(format!("orig-{i}")),
            ..m
        })
        .collect();
    send(&env, &dlq, records);
    let run = env.run(&[
        "redrive",
        "fifo-dlq.fifo",
        "--yes",
        "-o",
        "json",
        "--concurrency",
        "4",
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 60);
    assert_eq!(
        summary(&run)["workers"],
        serde_json::json!({"adaptive": false, "most": 4, "at_end": 4}),
        "a fixed --concurrency keeps its count"
    );
    let moved = drain(&env, &source);
    assert_eq!(moved.len(), 60, "no message dropped by deduplication");
    let mut per_group: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in &moved {
        let group = m.effective_group_id().unwrap().to_string();
        assert!(
            m.body.starts_with(&group),
            "group id kept: {} in {group}",
            m.body
        );
        assert!(m.message_attributes.contains_key("seq"));
        per_group.entry(group).or_default().push(m.body.clone());
    }
    for (group, list) in per_group {
        let mut sorted = list.clone();
        sorted.sort();
        assert_eq!(list, sorted, "order of {group}");
        assert_eq!(list.len(), 15);
    }
}

#[test]
fn fifo_dedup_modes() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "dd", true);
    let record = |i: usize| MessageRecord {
        group_id: Some("g".into()),
        dedup_id: Some(format!("orig-{i}")),
        ..MessageRecord::with_body(format!("m{i}"))
    };
    send(&env, &dlq, (0..4).map(record).collect());
    let run = env.run(&[
        "redrive",
        "dd-dlq.fifo",
        "--yes",
        "-o",
        "json",
        "--dedup",
        "keep",
    ]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("5 minutes"),
        "keep warns: {}",
        run.stderr
    );
    let moved = drain(&env, &source);
    let dedup: Vec<&str> = moved
        .iter()
        .map(|m| m.effective_dedup_id().unwrap())
        .collect();
    assert_eq!(dedup, vec!["orig-0", "orig-1", "orig-2", "orig-3"]);
    // The default: the DLQ message id.
    send(&env, &dlq, (4..6).map(record).collect());
    let ids: Vec<String> = env.block_on(async {
        let batch = env
            .sqs()
            .receive(
                &dlq,
                ReceiveOptions {
                    max_messages: 10,
                    wait_seconds: poll(&env),
                    visibility_timeout: Some(0),
                },
            )
            .await
            .unwrap();
        batch.into_iter().filter_map(|m| m.message_id).collect()
    });
    env.run(&["redrive", "dd-dlq.fifo", "--yes"]).assert_code(0);
    let moved = drain(&env, &source);
    let dedup: Vec<String> = moved
        .iter()
        .map(|m| m.effective_dedup_id().unwrap().to_string())
        .collect();
    assert_eq!(dedup, ids);
}

#[test]
fn a_message_the_destination_refuses_stays_in_the_dlq_and_exits_3() {
    let env = TestEnv::start();
    let dlq = env.create_queue("big-dlq", &[]);
    let dest = env.create_queue("small", &[("MaximumMessageSize", "1024")]);
    bodies(&env, &dlq, "ok", 9);
    send(&env, &dlq, vec![MessageRecord::with_body("x".repeat(2000))]);
    let run = env.run(&["redrive", "big-dlq", "--to", "small", "--yes", "-o", "json"]);
    run.assert_code(3);
    let s = summary(&run);
    assert_eq!(
        (s["moved"].as_u64(), s["failed"].as_u64()),
        (Some(9), Some(1)),
        "{s}"
    );
    assert!(
        s["failures"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("InvalidParameterValue")
            || s["failures"][0]["reason"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("size")
            || s["failures"][0]["reason"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("long"),
        "{s}"
    );
    assert_eq!(visible(&env, &dlq), (1, 0), "visible again in the DLQ");
    assert_eq!(visible(&env, &dest).0, 9);
    assert!(run.stderr.contains("could not be sent"), "{}", run.stderr);
}

#[test]
fn refusals_several_sources_none_type_mismatch_and_native_with_filters() {
    let env = TestEnv::start();
    let dlq = env.create_queue("shared-dlq", &[]);
    let arn = env.server().queue_arn("shared-dlq");
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#);
    env.create_queue("alpha", &[("RedrivePolicy", &policy)]);
    env.create_queue("beta", &[("RedrivePolicy", &policy)]);
    bodies(&env, &dlq, "m", 3);
    let run = env.run(&["redrive", "shared-dlq", "--yes"]);
    run.assert_code(2);
    assert_snapshot!(name: "several_sources", run.stderr);
    env.create_queue("lonely-dlq", &[]);
    let run = env.run(&["redrive", "lonely-dlq", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_source", run.stderr);
    env.create_queue("other.fifo", &[("FifoQueue", "true")]);
    let run = env.run(&["redrive", "shared-dlq", "--to", "other.fifo", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "type_mismatch", run.stderr);
    let run = env.run(&[
        "redrive",
        "shared-dlq",
        "--to",
        "alpha",
        "--native",
        "--grep",
        "x",
        "--yes",
    ]);
    run.assert_code(2);
    assert_snapshot!(name: "native_with_grep", run.stderr);
    let run = env.run(&[
        "redrive",
        "shared-dlq",
        "--to",
        "alpha",
        "--native",
        "--rate",
        "900",
        "--yes",
    ]);
    run.assert_code(2);
    let run = env.run(&[
        "redrive",
        "shared-dlq",
        "--to",
        "alpha",
        "--delay",
        "5",
        "--resume",
        "x",
    ]);
    run.assert_code(2);
    let run = env.run(&["redrive"]);
    run.assert_code(2);
    assert_eq!(visible(&env, &dlq).0, 3, "nothing moved by any refusal");
}

#[test]
fn native_mode_status_and_cancel() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "nat", false);
    bodies(&env, &dlq, "m", 30);
    let run = env.run(&["redrive", "nat-dlq", "--native", "--yes", "-o", "json"]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["mode"], "native");
    assert_eq!(s["status"], "COMPLETED");
    assert_eq!(s["moved"], 30);
    assert_eq!(visible(&env, &source).0, 30);
    assert_eq!(visible(&env, &dlq).0, 0);

    // On a terminal the summary is a table, with `-o text` tab-separated pairs: never raw JSON.
    bodies(&env, &dlq, "t", 3);
    let run = env.run_tty(&["redrive", "nat-dlq", "--native", "--yes"], "");
    run.assert_code(0);
    assert!(!run.stdout.contains('{'), "{}", run.stdout);
    assert!(run.stderr.contains("3 messages moved"), "{}", run.stderr);
    assert_snapshot!(name: "native_table", support::snapshot::mask_row(&run.stdout, "time", "[s]"));
    bodies(&env, &dlq, "u", 1);
    let run = env.run_tty(
        &["redrive", "nat-dlq", "--native", "--yes", "-o", "text"],
        "",
    );
    run.assert_code(0);
    assert!(
        run.stdout.lines().any(|l| l == "moved\t1"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("1 message moved"), "{}", run.stderr);
    let run = env.run(&["redrive", "status", "nat-dlq", "-o", "json"]);
    run.assert_code(0);
    let tasks: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(tasks[0]["status"], "COMPLETED");
    let run = env.run(&["redrive", "cancel", "nat-dlq"]);
    run.assert_code(1);
    assert!(
        run.stderr.contains("no move task is running"),
        "{}",
        run.stderr
    );
    // A slow task, cancelled from another invocation.
    bodies(&env, &dlq, "slow", 200);
    let arn = env.server().queue_arn("nat-dlq");
    let to = env.server().queue_arn("nat");
    env.block_on(env.sqs().start_move_task(&arn, Some(&to), Some(1)))
        .unwrap();
    // On a terminal the cancellation is a table, not JSON.
    let run = env.run_tty(&["redrive", "cancel", "nat-dlq"], "");
    run.assert_code(0);
    assert!(!run.stdout.contains('{'), "{}", run.stdout);
    assert_snapshot!(name: "cancel_table", support::snapshot::mask_row(&run.stdout, "moved", "[n]"));
    let run = env.run(&["redrive", "status", "nat-dlq"]);
    run.assert_code(0);
    let tasks = run.records_of("task");
    assert!(
        tasks[0]["status"] == "CANCELLED" || tasks[0]["status"] == "CANCELLING",
        "{tasks:?}"
    );
    assert!(
        visible(&env, &dlq).0 > 150,
        "the cancelled task stopped early"
    );
}

#[test]
fn resume_deletes_what_the_journal_shows_as_sent_without_sending_it_again() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "res", false);
    bodies(&env, &dlq, "m", 20);
    let journal = journal_arg(&env, "res.jsonl");
    let run = env.run(&[
        "redrive",
        "res-dlq",
        "--yes",
        "-o",
        "json",
        "--limit",
        "5",
        "--journal",
        &journal,
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 5);
    // As if the run had been killed after sending two more messages, before deleting them (and
    // so before it could record that it completed).
    let two = env.block_on(async {
        env.sqs()
            .receive(
                &dlq,
                ReceiveOptions {
                    max_messages: 2,
                    wait_seconds: poll(&env),
                    visibility_timeout: Some(0),
                },
            )
            .await
            .unwrap()
    });
    assert_eq!(two.len(), 2);
    let text = std::fs::read_to_string(&journal).unwrap();
    let completed = text.lines().last().unwrap();
    assert!(completed.contains("\"completed\""), "{completed}");
    let mut text = text[..text.len() - completed.len() - 1].to_string();
    for m in &two {
        let id = m.message_id.as_deref().unwrap();
        text.push_str(&format!(
            "{{\"type\":\"received\",\"data\":{{\"id\":\"{id}\"}}}}\n{{\"type\":\"sent\",\"data\":{{\"id\":\"{id}\",\"new_id\":\"x\"}}}}\n"
        ));
    }
    text.push_str("{\"type\":\"sent\",\"da"); // a torn last line
    std::fs::write(&journal, text).unwrap();
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["completed_from_journal"], 2, "{s}");
    assert_eq!(
        s["moved"], 0,
        "the limit (5) is for the whole run, and 7 were sent; {s}"
    );
    assert!(run.stderr.contains("5 moved earlier"), "{}", run.stderr);
    let moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    assert_eq!(
        moved.len(),
        5,
        "the two journaled sends were not sent again"
    );
    for m in &two {
        assert!(!moved.contains(&m.body));
    }
    assert_eq!(
        visible(&env, &dlq),
        (13, 0),
        "the rest is visible in the DLQ"
    );
    let run = env.run(&["redrive", "other-dlq", "--resume", &journal, "--yes"]);
    assert_ne!(run.code, 0);
}

/// Runs the binary with `args`, sends it SIGINT after `after`, and returns its exit code, its JSON
/// summary and its stderr.
fn interrupted_run(env: &TestEnv, args: &[&str], after: Duration) -> (Option<i32>, Value, String) {
    let child = env
        .cmd()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let summary = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), summary, stderr)
}

#[test]
fn ctrl_c_finishes_the_batches_in_flight_and_exits_130() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(20),
        ..ServerConfig::default()
    });
    let (source, dlq) = pair(&env, "int", false);
    bodies(&env, &dlq, "m", 2000);
    let journal = journal_arg(&env, "int.jsonl");
    let args = [
        "redrive",
        "int-dlq",
        "--yes",
        "-o",
        "json",
        "--concurrency",
        "2",
        "--journal",
        &journal,
    ];
    let (code, s, stderr) = interrupted_run(&env, &args, Duration::from_millis(1500));
    assert_eq!(code, Some(130), "{stderr}");
    let moved = s["moved"].as_u64().unwrap();
    assert!(moved > 0 && moved < 2000, "{s}");
    assert_eq!(s["interrupted"], true);
    assert!(
        stderr.contains(&format!("--resume {journal}`")),
        "the hint names the journal: {stderr}"
    );
    assert_resume_hints_ask_first(&stderr);
    assert!(
        !stderr.contains(" selected from "),
        "an interrupted run does not claim it saw everything: {stderr}"
    );
    assert!(stderr.contains("still in int-dlq"), "{stderr}");
    let (left, in_flight) = visible(&env, &dlq);
    assert_eq!(in_flight, 0, "nothing left hidden");
    assert_eq!(left + moved, 2000, "none lost");
    assert_eq!(visible(&env, &source).0, moved, "no duplicates");
}

#[test]
fn ctrl_c_while_batches_wait_for_rate_tokens_sends_none_of_them() {
    // At --rate 20 with 8 workers, most workers hold a received batch while they wait for their
    // tokens: Ctrl-C must make those visible again, unsent.
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "rint", false);
    bodies(&env, &dlq, "m", 300);
    let journal = journal_arg(&env, "rint.jsonl");
    let args = [
        "redrive",
        "rint-dlq",
        "--yes",
        "-o",
        "json",
        "--rate",
        "20",
        "--concurrency",
        "8",
        "--journal",
        &journal,
    ];
    let (code, s, stderr) = interrupted_run(&env, &args, Duration::from_millis(1500));
    assert_eq!(code, Some(130), "{stderr}");
    let moved = s["moved"].as_u64().unwrap();
    // 1.5 s at 20 per second, plus one batch of headroom and the start-up time.
    assert!(moved > 0 && moved <= 50, "{s}");
    let (left, in_flight) = visible(&env, &dlq);
    assert_eq!(
        in_flight, 0,
        "the batches waiting for tokens are visible again"
    );
    assert_eq!(left + moved, 300, "none lost");
    assert_eq!(
        visible(&env, &source).0,
        moved,
        "none sent without being counted"
    );
}

#[test]
fn resume_after_kill_9_waits_for_the_batches_held_for_rate_tokens() {
    // Killed while most workers hold a batch waiting for --rate tokens: the journal shows those
    // batches as received, so --resume waits for them to come back and moves every message.
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "rkill", false);
    bodies(&env, &dlq, "m", 200);
    let journal = journal_arg(&env, "rkill.jsonl");
    env.kill_9_after(
        &[
            "redrive",
            "rkill-dlq",
            "--yes",
            "--rate",
            "100",
            "--concurrency",
            "8",
            "--visibility-timeout",
            "3",
            "--journal",
            &journal,
        ],
        Duration::from_millis(800),
    );
    let (_plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert!(state.unresolved > 0, "held batches are in the journal");
    assert!(
        visible(&env, &dlq).1 > 0,
        "the dead run left messages hidden"
    );
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    assert!(run.stderr.contains("waiting up to"), "{}", run.stderr);
    assert_eq!(visible(&env, &dlq), (0, 0), "the DLQ is empty");
    let moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    let unique: std::collections::HashSet<&String> = moved.iter().collect();
    assert_eq!(unique.len(), 200, "none lost");
    assert!(
        (moved.len() - unique.len()) as u64 <= state.unresolved,
        "duplicates only among messages without a recorded outcome"
    );
}

#[test]
fn archive_keeps_a_copy_and_delay_holds_the_moved_messages_back() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "arch", false);
    bodies(&env, &dlq, "a", 12);
    let archive = journal_arg(&env, "archive.jsonl");
    let run = env.run(&[
        "redrive",
        "arch-dlq",
        "--yes",
        "-o",
        "json",
        "--archive",
        &archive,
        "--delay",
        "600",
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["archive"], archive.as_str());
    let text = std::fs::read_to_string(&archive).unwrap();
    let mut archived: Vec<String> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["type"], "message");
            assert!(v["data"].get("receipt_handle").is_none());
            v["data"]["body"].as_str().unwrap().to_string()
        })
        .collect();
    archived.sort();
    let mut expected: Vec<String> = (0..12).map(|i| format!("a{i}")).collect();
    expected.sort();
    assert_eq!(archived, expected);
    let attrs = env.settled_attributes(&source);
    assert_eq!(
        (attrs.visible(), attrs.delayed()),
        (0, 12),
        "delayed by --delay"
    );
    let run = env.run(&["redrive", "arch-dlq", "--yes", "--delay", "901"]);
    run.assert_code(2);
}

#[test]
fn rate_is_met_from_the_start_and_nobody_sleeps_once_the_dlq_is_empty() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "rt", false);
    bodies(&env, &dlq, "r", 10);
    // One batch of 10 at --rate 10 is due after one second. With sixteen workers each running
    // the bucket a batch into debt, the run used to take sixteen seconds.
    let run = env.run(&[
        "redrive",
        "rt-dlq",
        "--yes",
        "-o",
        "json",
        "--rate",
        "10",
        "--concurrency",
        "16",
    ]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["moved"], 10);
    let seconds = s["seconds"].as_f64().unwrap();
    assert!(seconds < 5.0, "took {seconds} s for one second's worth");
    assert_eq!(visible(&env, &source).0, 10);
    assert_eq!(visible(&env, &dlq), (0, 0));
}

#[test]
fn an_archive_that_cannot_be_written_stops_before_anything_is_deleted() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "af", false);
    bodies(&env, &dlq, "a", 30);
    let journal = journal_arg(&env, "af.jsonl");
    let run = env.run(&[
        "redrive",
        "af-dlq",
        "--yes",
        "--journal",
        &journal,
        "--archive",
        "/dev/full",
    ]);
    run.assert_code(1);
    assert!(run.stderr.contains("archive"), "{}", run.stderr);
    assert_eq!(
        visible(&env, &dlq),
        (30, 0),
        "nothing deleted, nothing hidden"
    );
    assert_resume_hints_ask_first(&run.stderr);
    let sent = visible(&env, &source).0;
    assert!(sent > 0 && sent <= 30, "{sent}");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(
        text.lines().last().unwrap().contains("\"stopped\"")
            && text.contains("could not be written"),
        "the journal says why the run stopped: {text}"
    );
    // The resumed run writes to the same archive, which still cannot be written: it deletes
    // nothing either, and sends again nothing the journal shows as sent.
    let run = env.run(&["redrive", "--resume", &journal, "--yes"]);
    run.assert_code(1);
    assert!(run.stderr.contains("/dev/full"), "{}", run.stderr);
    assert_eq!(visible(&env, &dlq), (30, 0), "nothing deleted on resume");
    let mut moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    let count = moved.len();
    moved.sort();
    moved.dedup();
    assert_eq!(moved.len(), count, "nothing sent twice");
}

/// Every printed `--resume` line leaves out `--yes`: run later from the shell's history, it asks.
#[track_caller]
fn assert_resume_hints_ask_first(stderr: &str) {
    for line in stderr.lines().filter(|l| l.contains("--resume")) {
        assert!(!line.contains("--yes"), "{line}");
    }
}

#[test]
fn message_ids_not_in_the_dlq_are_reported_and_exit_3() {
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "nf", false);
    bodies(&env, &dlq, "n", 3);
    let run = env.run(&[
        "redrive",
        "nf-dlq",
        "--yes",
        "-o",
        "json",
        "--message-id",
        "nonexistent-1",
    ]);
    run.assert_code(3);
    assert_eq!(summary(&run)["not_found"][0], "nonexistent-1");
    assert!(
        run.stderr.contains("not found") && run.stderr.contains("nonexistent-1"),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &dlq), (3, 0));
}

#[test]
fn the_summary_table_has_a_header() {
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "tb", false);
    bodies(&env, &dlq, "t", 2);
    let run = env.run(&["redrive", "tb-dlq", "--yes", "-o", "table"]);
    run.assert_code(0);
    assert_snapshot!(
        support::snapshot::mask_row(&run.stdout, "time", "[duration and rate]"),
        r"\d{8}T\d{6}Z" => "YYYYMMDDTHHMMSSZ"
    );
}

#[test]
fn a_journal_under_a_file_is_explained() {
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "jf", false);
    let file = env.home().join("payload.json");
    std::fs::write(&file, "{}").unwrap();
    let journal = file.join("j.jsonl").display().to_string();
    bodies(&env, &dlq, "t", 1);
    let run = env.run(&["redrive", "jf-dlq", "--yes", "--journal", &journal]);
    assert_ne!(run.code, 0);
    assert_snapshot!(run.stderr);
}

#[test]
fn native_without_to_returns_each_message_to_its_own_source() {
    let env = TestEnv::start();
    let dlq = env.create_queue("two-dlq", &[]);
    let arn = env.server().queue_arn("two-dlq");
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"1"}}"#);
    let alpha = env.create_queue("two-a", &[("RedrivePolicy", &policy)]);
    let beta = env.create_queue("two-b", &[("RedrivePolicy", &policy)]);
    bodies(&env, &alpha, "a", 2);
    bodies(&env, &beta, "b", 3);
    // Received past maxReceiveCount, the messages land in the DLQ with their source ARN.
    // Until a receive finds the queue empty: every message went on to the DLQ.
    for queue in [&alpha, &beta] {
        for _ in 0..5 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: poll(&env),
                visibility_timeout: Some(0),
            };
            if env
                .block_on(env.sqs().receive(queue, options))
                .unwrap()
                .is_empty()
            {
                break;
            }
        }
    }
    assert_eq!(visible(&env, &dlq).0, 5);
    // A dry run without --to counts each message toward the queue it came from.
    let run = env.run(&["redrive", "two-dlq", "--dry-run", "-o", "json"]);
    run.assert_code(0);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["summary"]["per_destination"]["two-a"], 2, "{doc}");
    assert_eq!(doc["summary"]["per_destination"]["two-b"], 3, "{doc}");
    assert!(
        run.stderr.contains("redrive two-dlq --native"),
        "the dry run says what the move needs: {}",
        run.stderr
    );
    assert_eq!(visible(&env, &dlq), (5, 0));
    let run = env.run(&["redrive", "two-dlq", "--native", "--yes", "-o", "json"]);
    run.assert_code(0);
    let mut a: Vec<String> = drain(&env, &alpha).into_iter().map(|m| m.body).collect();
    let mut b: Vec<String> = drain(&env, &beta).into_iter().map(|m| m.body).collect();
    a.sort();
    b.sort();
    assert_eq!(a, ["a0", "a1"]);
    assert_eq!(b, ["b0", "b1", "b2"]);
    assert_eq!(visible(&env, &dlq), (0, 0));
}

#[test]
fn a_fifo_dry_run_says_what_it_saw_against_the_dlq_depth() {
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "fd", true);
    let records = (0..15)
        .map(|i| MessageRecord {
            group_id: Some("one".into()),
            dedup_id: Some(format!("d{i}")),
            ..MessageRecord::with_body(format!("m{i}"))
        })
        .collect();
    send(&env, &dlq, records);
    let run = env.run(&["redrive", "fd-dlq.fifo", "--dry-run"]);
    run.assert_code(0);
    let s = &run.records_of("summary")[0];
    assert_eq!(s["visible_at_start"], 15);
    let seen = s["seen"].as_u64().unwrap();
    assert!(seen < 15, "one group shows only its head: {s}");
    assert!(
        run.stderr
            .contains(&format!("read {seen} messages of about 15 visible"))
            && run.stderr.contains("were not seen (a redrive moves them"),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &dlq), (15, 0));
}

#[test]
fn resume_of_a_completed_run_moves_nothing_even_after_new_arrivals() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "done", false);
    bodies(&env, &dlq, "old", 15);
    let journal = journal_arg(&env, "done.jsonl");
    let run = env.run(&[
        "redrive",
        "done-dlq",
        "--yes",
        "-o",
        "json",
        "--journal",
        &journal,
    ]);
    run.assert_code(0);
    assert_eq!(summary(&run)["moved"], 15);
    bodies(&env, &dlq, "new", 5);
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains(&format!("the run in {journal} completed at"))
            && run.stderr.contains("nothing to resume"),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &dlq), (5, 0), "the new arrivals stay");
    assert_eq!(visible(&env, &source).0, 15, "nothing moved again");
}

#[test]
fn a_resumed_run_leaves_the_messages_sent_after_the_run_started() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "late", false);
    bodies(&env, &dlq, "old", 200);
    let journal = journal_arg(&env, "late.jsonl");
    env.kill_9_after(
        &[
            "redrive",
            "late-dlq",
            "--yes",
            "--rate",
            "100",
            "--visibility-timeout",
            "3",
            "--journal",
            &journal,
        ],
        Duration::from_millis(800),
    );
    let (plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert_eq!(plan.dlq_depth_at_start, Some(200));
    assert!(state.moved_before < 200 && state.completed.is_none());
    bodies(&env, &dlq, "new", 20);
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let s = summary(&run);
    assert_eq!(s["arrived_later"], 20, "{s}");
    let moved: Vec<String> = drain(&env, &source).into_iter().map(|m| m.body).collect();
    let unique: std::collections::HashSet<&String> = moved.iter().collect();
    assert_eq!(unique.len(), 200, "every old message moved");
    assert!(unique.iter().all(|b| b.starts_with("old")), "no new one");
    let mut left: Vec<String> = drain(&env, &dlq).into_iter().map(|m| m.body).collect();
    left.sort();
    let mut new: Vec<String> = (0..20).map(|i| format!("new{i}")).collect();
    new.sort();
    assert_eq!(left, new, "the new arrivals are visible in the DLQ");
    let run = env.run(&["redrive", "--resume", &journal, "--yes"]);
    run.assert_code(0);
    assert!(run.stderr.contains("nothing to resume"), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn journals_and_archives_are_private_files_in_private_directories() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::start();
    let (_source, dlq) = pair(&env, "priv", false);
    bodies(&env, &dlq, "p", 3);
    let archive = env.home().join("archives").join("priv").join("a.jsonl");
    let run = env.run(&[
        "redrive",
        "priv-dlq",
        "--yes",
        "-o",
        "json",
        "--archive",
        archive.to_str().unwrap(),
    ]);
    run.assert_code(0);
    let journal = summary(&run)["journal"].as_str().unwrap().to_string();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let state = env.home().join("state");
    let journal = std::path::Path::new(&journal);
    assert!(journal.starts_with(&state), "{}", journal.display());
    assert_eq!(mode(journal), 0o600, "{}", journal.display());
    assert_eq!(mode(&archive), 0o600);
    for dir in journal.parent().unwrap().ancestors() {
        if dir == env.home() {
            break;
        }
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
    }
    assert_eq!(mode(&env.home().join("archives")), 0o700);
    assert_eq!(mode(archive.parent().unwrap()), 0o700);
}

#[test]
fn a_queue_url_whose_name_could_leave_the_state_directory_is_refused_before_any_file() {
    let env = TestEnv::start();
    let (source, dlq) = pair(&env, "odd", false);
    bodies(&env, &dlq, "o", 3);
    let archive = env.home().join("odd-archive.jsonl");
    // An endpoint that answers for a URL whose last segment is `..` (here the local server, which
    // ignores what follows `#` or `?`).
    for url in [format!("{}#/..", dlq.url), format!("{}?x=/..", dlq.url)] {
        let run = env.run(&[
            "redrive",
            &url,
            "--to",
            "odd",
            "--yes",
            "--archive",
            archive.to_str().unwrap(),
        ]);
        assert_ne!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains("is not a valid queue name"),
            "{}",
            run.stderr
        );
        assert!(!env.home().join("state").exists(), "no journal directory");
        assert!(!archive.exists(), "no archive");
    }
    assert_eq!(visible(&env, &dlq), (3, 0));
    assert_eq!(visible(&env, &source), (0, 0));
}
