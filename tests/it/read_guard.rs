//! The read guard weighs the risk: `diagnose`, `fifo groups`, `peek`, `delete --message-id` and
//! the redrive dry run read a queue whose `maxReceiveCount` is 3 or more without `--force` and say
//! what the read cost, refuse one of 1 or 2 without `--force`, and report the messages a read left
//! one receive away from the dead-letter queue. A diagnose that could not run every check is never
//! a clean bill of health. Through the binary against the local server with its inspection
//! endpoints off, so that reads receive as they do on SQS.
use crate::diagnose::{PROBLEMS_FOUND, assert_finding, fifo_record, finding, json};
use crate::support::TestEnv;
use crate::support::snapshot::{assert_snapshot, transcript};
use serde_json::Value;
use sqsctl::client::{QueueRef, ReceiveOptions};
use sqsctl::message::MessageRecord;

fn severities(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["severity"].as_str().unwrap().to_string())
        .collect()
}

fn visible_and_in_flight(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.block_on(env.sqs().attributes(queue)).unwrap();
    (attrs.visible(), attrs.in_flight())
}

/// A queue whose redrive policy moves messages to a new DLQ after `max` receives; `fifo` names
/// end in `.fifo`. Returns the queue and its DLQ.
fn guarded(env: &TestEnv, name: &str, max: u32, extra: &[(&str, &str)]) -> (QueueRef, QueueRef) {
    let fifo = name.ends_with(".fifo");
    let dlq_name = match name.strip_suffix(".fifo") {
        Some(stem) => format!("{stem}-dlq.fifo"),
        None => format!("{name}-dlq"),
    };
    let mut dlq_attrs = vec![("MessageRetentionPeriod", "1209600")];
    if fifo {
        dlq_attrs.push(("FifoQueue", "true"));
    }
    let dlq = env.create_queue(&dlq_name, &dlq_attrs);
    let dlq_arn = env.arn(&dlq);
    let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":{max}}}"#);
    let mut attrs = vec![("RedrivePolicy", policy.as_str())];
    if fifo {
        attrs.push(("FifoQueue", "true"));
    }
    attrs.extend_from_slice(extra);
    (env.create_queue(name, &attrs), dlq)
}

/// `count` messages whose bodies are `prefix` and their number: `order 0`, `order 1`...
fn numbered(prefix: &str, count: usize) -> Vec<MessageRecord> {
    (0..count)
        .map(|i| MessageRecord::with_body(format!("{prefix} {i}")))
        .collect()
}

/// Receives every message of a standard queue `times` times (releasing them each time), as
/// consumers that fail would.
fn receive_all(env: &TestEnv, queue: &QueueRef, count: usize, times: usize) {
    env.block_on(async {
        for _ in 0..times {
            let mut held = Vec::new();
            while held.len() < count {
                let options = ReceiveOptions {
                    max_messages: 10,
                    wait_seconds: Some(0),
                    visibility_timeout: Some(60),
                };
                let batch = env.sqs().receive(queue, options).await.unwrap();
                held.extend(batch.into_iter().filter_map(|m| m.receipt_handle));
            }
            let handles: Vec<&str> = held.iter().map(String::as_str).collect();
            assert_eq!(env.sqs().release(queue, &handles).await.unwrap(), 0);
        }
    });
}

#[test]
fn the_incident_is_diagnosed_with_no_flags_and_nothing_is_dead_lettered() {
    let env = TestEnv::start();
    let (queue, dlq) = guarded(&env, "mail.fifo", 5, &[]);
    let records = (1..=2_000)
        .map(|i| fifo_record("mailer", &format!("mail-{i}"), &format!("mail {i}")))
        .collect();
    env.send(&queue, records);

    let run = env.run(&["diagnose", "mail.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    assert_finding(&report, "serialized-groups", "error");
    assert_finding(&report, "dedup-id-counter", "warning");
    assert_eq!(report["read_from"], "queue");
    assert!(report["scan"]["seen"].as_u64().unwrap() > 0, "{report:#}");
    // Only the group's head is deliverable: what SQS hides does not make the run incomplete.
    assert_eq!(report["complete"], true, "{report:#}");
    assert_eq!(report["skipped"], serde_json::json!([]));
    assert_eq!(report["scan"]["cost"]["max_receive_count"], 5);
    assert!(
        run.stderr
            .contains("each message read used 1 of its 5 receives"),
        "{}",
        run.stderr
    );

    assert_eq!(
        visible_and_in_flight(&env, &dlq),
        (0, 0),
        "none dead-lettered"
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (2_000, 0));
}

#[test]
fn a_max_receive_count_of_one_is_not_read_without_force() {
    let env = TestEnv::start();
    let (queue, dlq) = guarded(&env, "alerts.fifo", 1, &[]);
    let records = (0..30)
        .map(|i| {
            fifo_record(
                &format!("host-{}", i % 3),
                &uuid::Uuid::new_v4().to_string(),
                "cpu high",
            )
        })
        .collect();
    env.send(&queue, records);

    let run = env.run(&["diagnose", "alerts.fifo", "-o", "json"]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let skipped = assert_finding(&report, "scan-skipped", "warning");
    assert!(
        skipped["evidence"][0]
            .as_str()
            .unwrap()
            .contains("alerts-dlq.fifo after 1 receive"),
        "{skipped:#}"
    );
    assert_eq!(report["complete"], false);
    let checks: Vec<&str> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["check"].as_str().unwrap())
        .collect();
    assert!(checks.contains(&"message-groups"), "{report:#}");
    assert!(report["scan"].is_null() && report["groups"].is_null());
    assert_snapshot!(name: "not_read", run.stderr);

    // fifo groups cannot do without messages: it refuses.
    let run = env.run(&["fifo", "groups", "alerts.fifo"]);
    run.assert_code(1);
    assert_snapshot!(run.stderr);

    // --force reads, and what it reads had never been received: the refused runs read nothing.
    let run = env.run(&["diagnose", "alerts.fifo", "--force", "-o", "json"]);
    let report = json(&run);
    assert!(report["scan"]["seen"].as_u64().unwrap() > 0, "{report:#}");
    assert_eq!(report["complete"], true, "{report:#}");
    assert_eq!(report["scan"]["near_dead_letter"], report["scan"]["seen"]);
    let near = assert_finding(&report, "near-dead-letter", "info");
    assert!(
        near["evidence"][1].as_str().unwrap().contains("own reads"),
        "{near:#}"
    );
    assert_eq!(visible_and_in_flight(&env, &dlq), (0, 0));
    assert_eq!(visible_and_in_flight(&env, &queue), (30, 0));
}

#[test]
fn a_healthy_fifo_queue_with_a_redrive_policy_exits_0() {
    let env = TestEnv::start();
    let (queue, _dlq) = guarded(
        &env,
        "shipping.fifo",
        5,
        &[("ReceiveMessageWaitTimeSeconds", "20")],
    );
    let records = (0..291)
        .map(|i| {
            fifo_record(
                &format!("parcel-{}", i % 97),
                &uuid::Uuid::new_v4().to_string(),
                &format!("{{\"parcel\":{},\"step\":{}}}", i % 97, i / 97),
            )
        })
        .collect();
    env.send(&queue, records);

    let run = env.run(&["diagnose", "shipping.fifo", "-o", "json"]);
    run.assert_code(0);
    let report = json(&run);
    assert!(
        severities(&report).iter().all(|s| s == "info"),
        "{report:#}"
    );
    assert_eq!(report["problems"], false);
    assert_eq!(report["complete"], true);
    assert_eq!(report["groups"]["totals"]["distinct_groups"], 97);
    assert_eq!(visible_and_in_flight(&env, &queue), (291, 0));
}

#[test]
fn a_sample_smaller_than_the_visible_depth_is_an_incomplete_run() {
    let env = TestEnv::start();
    let queue = env.create_queue("thumbs", &[("ReceiveMessageWaitTimeSeconds", "20")]);
    env.send(&queue, numbered("image", 60));

    let run = env.run(&["diagnose", "thumbs", "--sample", "10", "-o", "json"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let incomplete = assert_finding(&report, "scan-incomplete", "warning");
    assert!(
        incomplete["title"]
            .as_str()
            .unwrap()
            .starts_with("Only 10 of 60 visible messages"),
        "{incomplete:#}"
    );
    assert_eq!(report["complete"], false);
    assert_eq!(report["skipped"][0]["check"], "receive-counts");
    assert!(
        report["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("--sample"),
        "{report:#}"
    );

    // JSON Lines says it in its summary record.
    let run = env.run(&["diagnose", "thumbs", "--sample", "10", "-o", "jsonl"]);
    run.assert_code(PROBLEMS_FOUND);
    let summary = &run.records_of("summary")[0];
    assert_eq!(summary["complete"], false, "{summary:#}");

    // A sample that covers the visible depth is a complete run.
    let run = env.run(&["diagnose", "thumbs", "--sample", "60", "-o", "json"]);
    let report = json(&run);
    assert_eq!(report["complete"], true, "{report:#}");
    assert!(finding(&report, "scan-incomplete").is_none());
    assert_eq!(visible_and_in_flight(&env, &queue), (60, 0));
}

#[test]
fn peek_and_fifo_groups_read_a_max_receive_count_of_5_and_refuse_2() {
    let env = TestEnv::start();
    let (queue, dlq) = guarded(&env, "orders", 5, &[]);
    env.send(&queue, numbered("order", 12));
    // Consumers failed on every message three times: a peek leaves them at 4 of 5.
    receive_all(&env, &queue, 12, 3);

    let run = env.run(&["peek", "orders", "--max", "20", "-o", "jsonl"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 12);
    assert_snapshot!(name: "peek", run.stderr);
    assert_eq!(visible_and_in_flight(&env, &queue), (12, 0));
    assert_eq!(visible_and_in_flight(&env, &dlq), (0, 0));

    let (fifo, _) = guarded(&env, "events.fifo", 5, &[]);
    env.send(
        &fifo,
        (0..20)
            .map(|i| fifo_record(&format!("device-{}", i % 4), &format!("e-{i}"), "x"))
            .collect(),
    );
    let run = env.run(&["fifo", "groups", "events.fifo", "-o", "json"]);
    run.assert_code(0);
    assert_eq!(json(&run)["totals"]["distinct_groups"], 4);
    assert_snapshot!(name: "fifo_groups", run.stderr);

    // maxReceiveCount 2: both refuse, naming the DLQ and the limit.
    guarded(&env, "payments", 2, &[]);
    guarded(&env, "ledger.fifo", 2, &[]);
    let mut refusals = String::new();
    for args in [
        &["peek", "payments"][..],
        &["fifo", "groups", "ledger.fifo"][..],
    ] {
        let run = env.run(args);
        run.assert_code(1);
        refusals.push_str(&transcript(args, &run));
    }
    assert_snapshot!(name: "refusals", refusals);
    env.run(&["peek", "payments", "--force"]).assert_code(0);
}

#[test]
fn delete_by_id_follows_the_same_rule() {
    let env = TestEnv::start();
    let (queue, _dlq) = guarded(&env, "jobs", 4, &[]);
    env.send(&queue, numbered("job", 5));
    let run = env.run(&[
        "delete",
        "jobs",
        "--message-id",
        "00000000-0000-0000-0000-000000000000",
        "--dry-run",
    ]);
    assert_ne!(run.code, 1, "not refused: {}", run.stderr);
    assert_snapshot!(name: "read", run.stderr);
    assert_eq!(visible_and_in_flight(&env, &queue), (5, 0));

    let (tight, _) = guarded(&env, "tight", 2, &[]);
    env.send(&tight, vec![MessageRecord::with_body("x")]);
    let run = env.run(&[
        "delete",
        "tight",
        "--message-id",
        "00000000-0000-0000-0000-000000000000",
        "--dry-run",
    ]);
    run.assert_code(1);
    assert_snapshot!(name: "refused", run.stderr);
}

#[test]
fn a_scan_stops_before_its_hold_runs_out_rather_than_read_a_message_twice() {
    use std::ops::ControlFlow;
    use std::time::Duration;

    use sqsctl::client::peek::{self, PeekOptions};
    use sqsctl::interrupt::Interrupt;
    use sqsctl::local::ServerConfig;

    // Slow receives: the whole queue takes longer to read than the 2 s hold.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(100),
        ..ServerConfig::default()
    });
    let (queue, _dlq) = guarded(&env, "slow", 3, &[]);
    env.send(
        &queue,
        (0..200)
            .map(|i| MessageRecord::with_body(format!("m{i}")))
            .collect(),
    );
    let attrs = env.block_on(env.sqs().attributes(&queue)).unwrap();
    let options = PeekOptions {
        max: None,
        hold_seconds: 2,
        ..PeekOptions::default()
    };
    let mut counts = Vec::new();
    let scanned = env
        .block_on(peek::scan(
            &peek::ReadRequest {
                sqs: env.sqs(),
                queue: &queue,
                attrs: &attrs,
                options,
                interrupt: &Interrupt::default(),
            },
            |batch| {
                counts.extend(
                    batch
                        .iter()
                        .map(|m| m.attribute_u64("ApproximateReceiveCount")),
                );
                ControlFlow::Continue(())
            },
        ))
        .unwrap();
    assert!(scanned.hold_ran_short, "{scanned:?}");
    assert!(!scanned.exhausted && scanned.seen < 200, "{scanned:?}");
    assert!(counts.iter().all(|c| *c == Some(1)), "{counts:?}");

    // One more receive of everything: no message was received more than once by the scan.
    let mut highest = 0;
    env.block_on(async {
        let mut got = 0;
        while got < 200 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(120),
            };
            for m in env.sqs().receive(&queue, options).await.unwrap() {
                got += 1;
                highest = highest.max(m.attribute_u64("ApproximateReceiveCount").unwrap());
            }
        }
    });
    assert!(highest <= 2, "a message was received {highest} times");
}

#[test]
fn the_redrive_dry_run_reads_a_dlq_by_the_same_rule() {
    let env = TestEnv::start();
    // DLQs that have a redrive policy of their own (a chain), each fed by one source queue.
    for (name, max) in [("tasks", 5), ("urgent", 2)] {
        let (dlq, _last) = guarded(&env, &format!("{name}-dlq"), max, &[]);
        let dlq_arn = env.arn(&dlq);
        let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":3}}"#);
        env.create_queue(name, &[("RedrivePolicy", &policy)]);
        env.send(&dlq, numbered(name, 4));
    }
    // The summary sets what was read against the count of visible messages: counted once the
    // counts caught up with the sends, as on SQS a little after them.
    env.settle_counts();

    let run = env.run(&["redrive", "tasks-dlq", "--dry-run"]);
    run.assert_code(0);
    assert_snapshot!(name: "read", run.stderr);

    let run = env.run(&["redrive", "urgent-dlq", "--dry-run"]);
    run.assert_code(1);
    assert_snapshot!(name: "refused", run.stderr);
    let urgent_dlq = env.block_on(env.sqs().resolve("urgent-dlq")).unwrap();
    assert_eq!(visible_and_in_flight(&env, &urgent_dlq), (4, 0));
}

#[test]
fn the_redrive_dry_run_of_a_fifo_dlq_whose_counts_lag_is_incomplete() {
    use sqsctl::local::ServerConfig;
    use std::time::Duration;

    // Counts a minute behind, as SQS's can be: read before the DLQ filled, they still say empty.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        realism: sqsctl::local::Realism {
            count_lag: Duration::from_secs(60),
            ..sqsctl::local::Realism::LIKE_SQS
        },
        seed: Some(5),
        ..ServerConfig::default()
    });
    let (_jobs, dlq) = guarded(&env, "jobs.fifo", 5, &[]);
    env.block_on(env.sqs().attributes(&dlq)).unwrap();
    env.send(
        &dlq,
        (0..30)
            .map(|i| fifo_record("batch-7", &format!("j{i}"), &format!("job {i}")))
            .collect(),
    );

    let args = ["redrive", "jobs-dlq.fifo", "--dry-run", "-o", "json"];
    let run = env.run(&args);
    run.assert_code(PROBLEMS_FOUND);
    let summary = &json(&run)["summary"];
    assert_eq!(summary["complete"], false, "{summary:#}");
    assert_eq!(summary["seen"], 10, "the head of the group: {summary:#}");
    assert_snapshot!(transcript(&args, &run));
    // Nothing moved.
    assert_eq!(env.drain(&dlq).len(), 30);
}

#[test]
fn the_read_ledger_refuses_the_read_that_would_dead_letter_what_the_last_one_left() {
    let env = TestEnv::start();
    let (queue, dlq) = guarded(&env, "t3", 3, &[]);
    env.run(&["send", "t3", "only"]).assert_code(0);
    for read in 1..=3 {
        let run = env.run(&["peek", "t3", "-o", "text"]);
        run.assert_code(0);
        assert_eq!(run.stdout, "only\n", "read {read}");
    }
    // The third read left the message at its maxReceiveCount: the fourth would move it.
    let fourth = env.run(&["peek", "t3", "-o", "text"]);
    assert_eq!(fourth.code, 1, "{}", fourth.stderr);
    assert_snapshot!(name: "refused", fourth.stderr);
    assert_eq!(env.depth(&queue), 1, "the message is still in the source");
    assert_eq!(env.depth(&dlq), 0);
    // diagnose and delete --message-id follow the same ledger.
    let diagnose = env.run(&["diagnose", "t3", "-o", "json"]);
    assert_finding(&json(&diagnose), "scan-skipped", "warning");
    let delete = env.run(&["delete", "t3", "--message-id", "x", "--yes"]);
    assert_eq!(delete.code, 1, "{}", delete.stderr);
    assert_eq!(env.depth(&dlq), 0);

    // With --force the read goes ahead, moves the message, and says so with exit 5.
    let forced = env.run(&["peek", "t3", "--force"]);
    assert_eq!(forced.code, 5, "{}", forced.stderr);
    assert_snapshot!(name: "forced", forced.stderr);
    assert_eq!(env.depth(&dlq), 1);
    // What the forced read saw replaces the ledger's entry: nothing is at the limit now.
    env.run(&["peek", "t3"]).assert_code(0);
}

#[test]
fn a_read_that_moves_messages_its_consumers_brought_to_the_limit_says_so() {
    let env = TestEnv::start();
    let (queue, dlq) = guarded(&env, "worn", 3, &[]);
    env.run_stdin(&["send", "worn", "--lines"], "a\nb\n")
        .assert_code(0);
    // Consumers received both three times: the next receive, the peek's, moves them.
    receive_all(&env, &queue, 2, 3);
    let run = env.run(&["peek", "worn"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_snapshot!(name: "peek", run.stderr);
    assert_eq!(env.depth(&dlq), 2);

    // delete --message-id reports the same instead of a bare `not_found`.
    env.run_stdin(&["send", "worn", "--lines"], "c\n")
        .assert_code(0);
    receive_all(&env, &queue, 1, 3);
    let run = env.run(&["delete", "worn", "--message-id", "nope", "--yes"]);
    assert_eq!(run.code, 5, "{}", run.stderr);
    assert_snapshot!(name: "delete", run.stderr);
}

#[test]
fn on_sqsctl_local_reads_list_messages_without_receiving_them() {
    let env = TestEnv::with_inspection();
    let (queue, dlq) = guarded(&env, "listed", 3, &[]);
    env.run(&["send", "listed", "only"]).assert_code(0);
    for _ in 0..5 {
        let run = env.run(&["peek", "listed", "-o", "text"]);
        run.assert_code(0);
        assert_eq!(run.stdout, "only\n");
        assert!(
            run.stderr
                .contains("inspection endpoint, so nothing was received"),
            "{}",
            run.stderr
        );
    }
    env.run(&["diagnose", "listed", "-o", "json"]);
    env.run(&["fifo", "groups", "listed"]);
    let counts = env.block_on(async {
        let options = ReceiveOptions {
            max_messages: 10,
            wait_seconds: Some(0),
            visibility_timeout: Some(60),
        };
        let batch = env.sqs().receive(&queue, options).await.unwrap();
        batch
            .iter()
            .map(|m| m.attribute_u64("ApproximateReceiveCount").unwrap())
            .collect::<Vec<_>>()
    });
    assert_eq!(counts, vec![1], "the first receive is the consumer's own");
    assert_eq!(env.depth(&dlq), 0);
}
