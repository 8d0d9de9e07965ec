//! `sqsctl diagnose` and `sqsctl fifo groups` through the binary against the local server: each
//! problem is built on a real queue and its finding asserted, as is its absence on a healthy queue.
//! Reading never consumes a message and never pushes one into a dead-letter queue.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use sqsctl::client::{QueueRef, ReceiveOptions, Sqs};
use sqsctl::local::{Clock, Realism, ServerConfig};
use sqsctl::message::MessageRecord;
use support::snapshot::assert_snapshot;
use support::{Run, TestEnv};

pub(crate) const PROBLEMS_FOUND: i32 = 4;

pub(crate) fn fifo_record(group: &str, dedup: &str, body: &str) -> MessageRecord {
    MessageRecord {
        group_id: Some(group.into()),
        dedup_id: Some(dedup.into()),
        ..MessageRecord::with_body(body)
    }
}

pub(crate) fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", run.stdout, run.stderr))
}

pub(crate) fn finding<'a>(report: &'a Value, id: &str) -> Option<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id)
}

#[track_caller]
pub(crate) fn assert_finding<'a>(report: &'a Value, id: &str, severity: &str) -> &'a Value {
    let found = finding(report, id).unwrap_or_else(|| panic!("no {id} finding in {report:#}"));
    assert_eq!(found["severity"], severity, "{found:#}");
    found
}

fn ids(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect()
}

fn policy(dlq_arn: &str, max: u32) -> String {
    format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":{max}}}"#)
}

fn visible_and_in_flight(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.settled_attributes(queue);
    (attrs.visible(), attrs.in_flight())
}

#[test]
fn one_constant_group_is_reported_as_serialized_and_nothing_is_consumed() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders.fifo", &[("FifoQueue", "true")]);
    let records = (0..5_000)
        .map(|i| fifo_record("worker-4821", &format!("order-{i}"), &format!("order {i}")))
        .collect();
    env.send(&queue, records);

    let run = env.run(&["diagnose", "orders.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let serialized = assert_finding(&report, "serialized-groups", "error");
    let evidence = serialized["evidence"].to_string();
    assert!(evidence.contains("effective parallelism: 1"), "{evidence}");
    assert!(evidence.contains("worker-4821"), "{evidence}");
    // One receive sees the group's head: ten messages, fewer where a short poll samples.
    let seen = report["scan"]["seen"].as_u64().unwrap();
    assert!((1..=10).contains(&seen), "{report:#}");
    assert_eq!(report["groups"]["totals"]["not_delivered"], 5_000 - seen);
    assert_eq!(report["scan"]["visible_at_start"], 5_000);

    let run = env.run(&["fifo", "groups", "orders.fifo", "-o", "json"]);
    run.assert_code(0);
    let groups = json(&run);
    let seen = groups["scan"]["seen"].as_u64().unwrap();
    assert_eq!(groups["totals"]["distinct_groups"], 1);
    assert_eq!(groups["totals"]["effective_parallelism"], 1.0);
    assert_eq!(groups["totals"]["largest_group_share_percent"], 100);
    assert_eq!(groups["groups"][0]["visible"], 5_000);
    assert_eq!(groups["groups"][0]["inferred"], true);
    assert!(
        groups["inferred"][0].as_str().unwrap().contains(&format!(
            "{} visible messages were not delivered",
            5_000 - seen
        )),
        "{groups:#}"
    );

    // A bounded scan says it saw only part of the queue, and claims nothing exact.
    let run = env.run(&[
        "fifo",
        "groups",
        "orders.fifo",
        "--sample",
        "1",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let sampled = json(&run);
    assert_eq!(sampled["scan"]["seen"], 1);
    assert_eq!(sampled["totals"]["exact"], false);
    assert!(
        sampled["inferred"][0]
            .as_str()
            .unwrap()
            .contains("1 of 5000 visible messages were read"),
        "{sampled:#}"
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (5_000, 0));
}

#[test]
fn fifty_groups_with_one_hot_group() {
    let env = TestEnv::start();
    let queue = env.create_queue("events.fifo", &[("FifoQueue", "true")]);
    let mut records = Vec::new();
    let mut n = 0;
    for round in 0..10 {
        for cold in 0..49 {
            if round < 2 {
                n += 1;
                records.push(fifo_record(
                    &format!("device-{cold}"),
                    &format!("e{n}"),
                    "x",
                ));
            }
        }
        for _ in 0..50 {
            n += 1;
            records.push(fifo_record("device-hot", &format!("e{n}"), "x"));
        }
    }
    env.send(&queue, records.clone());

    // Live: the scan sees the heads; the hot group is among those with more behind, and the
    // parallelism is far below the number of groups.
    let run = env.run(&["fifo", "groups", "events.fifo", "-o", "json"]);
    run.assert_code(0);
    let live = json(&run);
    assert_eq!(live["totals"]["distinct_groups"], 50);
    let hot = live["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["group_id"] == "device-hot")
        .expect("hot group listed");
    assert_eq!(hot["more_behind"], true, "{live:#}");
    let parallelism = live["totals"]["effective_parallelism"].as_f64().unwrap();
    assert!(parallelism < 25.0, "{live:#}");
    let run = env.run(&["diagnose", "events.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let concentrated = assert_finding(&report, "serialized-groups", "warning");
    assert!(
        concentrated["title"]
            .as_str()
            .unwrap()
            .starts_with("Most messages wait in"),
        "{concentrated:#}"
    );
    assert!(
        concentrated["evidence"].to_string().contains("device-hot")
            || live["totals"]["groups_with_more_behind"].as_u64().unwrap() > 5
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (598, 0));

    // An export of the whole queue measures the hot group exactly.
    let export: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    let path = env.home().join("events.jsonl");
    std::fs::write(&path, export).unwrap();
    let run = env.run(&["diagnose", "--input", path.to_str().unwrap(), "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let serialized = assert_finding(&report, "serialized-groups", "warning");
    assert!(
        serialized["title"].as_str().unwrap().contains("84%"),
        "{serialized:#}"
    );
    assert_eq!(report["groups"]["totals"]["largest_group"], "device-hot");
    assert_eq!(report["groups"]["totals"]["effective_parallelism"], 1.2);
}

#[test]
fn dedup_collisions_in_an_export_and_time_derived_ids_on_a_live_queue() {
    let env = TestEnv::start();
    // Collisions SQS would have dropped: only a producer's log shows them.
    let log = [
        fifo_record("a", "job-1", "charge 10"),
        fifo_record("b", "job-1", "charge 99"),
        fifo_record("c", "9f2c", "refund 5"),
    ]
    .iter()
    .map(|r| serde_json::to_string(&serde_json::json!({"type": "message", "data": r})).unwrap())
    .collect::<Vec<_>>()
    .join("\n");
    let run = env.run_stdin(&["diagnose", "--input", "-", "-o", "json"], &log);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let collision = assert_finding(&report, "dedup-collision", "error");
    let evidence = collision["evidence"].to_string();
    assert!(
        evidence.contains("job-1") && evidence.contains("charge 99"),
        "{evidence}"
    );

    // Producers that use the clock as the id.
    let queue = env.create_queue("payments.fifo", &[("FifoQueue", "true")]);
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let records = (0..40u128)
        .map(|i| {
            fifo_record(
                &format!("account-{}", i % 8),
                &format!("pay-{}", now_ms + i * 3),
                &format!("payment {i}"),
            )
        })
        .collect();
    env.send(&queue, records);
    let run = env.run(&["diagnose", "payments.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let time = assert_finding(&report, "dedup-id-time-derived", "warning");
    // Every id read is time-derived (a short poll may cut a group's run: fewer than 40 are read).
    let seen = report["scan"]["seen"].as_u64().unwrap();
    assert!(seen >= 8, "{report:#}");
    assert!(
        time["evidence"][0]
            .as_str()
            .unwrap()
            .starts_with(&format!("{seen} of {seen}")),
        "{time:#}"
    );
    assert!(finding(&report, "dedup-collision").is_none());
    assert!(
        finding(&report, "serialized-groups").is_none(),
        "{report:#}"
    );
}

#[test]
fn a_dlq_with_shorter_retention_is_reported_from_both_sides() {
    let env = TestEnv::start();
    let dlq = env.create_queue(
        "billing-dlq",
        &[
            ("MessageRetentionPeriod", "86400"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
        ],
    );
    let dlq_arn = env.arn(&dlq);
    let source = env.create_queue(
        "billing",
        &[
            ("MessageRetentionPeriod", "345600"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
            ("RedrivePolicy", &policy(&dlq_arn, 5)),
        ],
    );
    env.send(&source, vec![MessageRecord::with_body("invoice 1")]);
    env.send(&dlq, vec![MessageRecord::with_body("invoice 0")]);
    // The DLQ's depth is read from its counts, which lag on SQS.
    env.settle_counts();

    let run = env.run(&["diagnose", "billing", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let short = assert_finding(&report, "dlq-retention-short", "warning");
    assert!(
        short["evidence"][0]
            .as_str()
            .unwrap()
            .contains("billing-dlq keeps messages 24h, billing keeps them 4d"),
        "{short:#}"
    );
    assert_finding(&report, "dlq-not-empty", "warning");
    // maxReceiveCount 5: read without --force.
    assert!(finding(&report, "scan-skipped").is_none(), "{report:#}");
    assert_eq!(report["read_from"], "queue");

    // The DLQ itself: its source, its messages' ages, the same retention problem.
    let run = env.run(&["diagnose", "billing-dlq", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    assert_finding(&report, "dlq-retention-short", "warning");
    assert_finding(&report, "dlq-not-empty", "warning");
    assert_eq!(report["dlq"]["sources"][0], "billing");
    assert_eq!(report["dlq"]["messages_seen"], 1);
    assert!(
        finding(&report, "no-redrive-policy").is_none(),
        "a DLQ needs none"
    );
    assert_eq!(visible_and_in_flight(&env, &dlq), (1, 0));
}

#[test]
fn receive_counts_climbing_under_a_short_visibility_timeout() {
    // A manual clock that starts two minutes ago, so that the receives below happened in the
    // past as far as the binary's own clock is concerned.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        clock: Clock::manual(SystemTime::now() - Duration::from_secs(120)),
        ..ServerConfig::default()
    });
    let queue = env.create_queue("thumbnails", &[("VisibilityTimeout", "5")]);
    env.send(
        &queue,
        (0..20)
            .map(|i| MessageRecord::with_body(format!("image {i}")))
            .collect(),
    );
    // Consumers that take longer than 5 s: every message comes back, three times over.
    for _ in 0..3 {
        let mut got = 0;
        while got < 20 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(0),
                visibility_timeout: None,
            };
            got += env
                .block_on(env.sqs().receive(&queue, options))
                .unwrap()
                .len();
        }
        env.server().clock().advance(Duration::from_secs(6));
    }
    // A consumer is at work on five of them right now.
    let options = ReceiveOptions {
        max_messages: 5,
        wait_seconds: Some(0),
        visibility_timeout: Some(60),
    };
    assert_eq!(
        env.block_on(env.sqs().receive(&queue, options))
            .unwrap()
            .len(),
        5
    );
    let run = env.run(&["diagnose", "thumbnails", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let climbing = assert_finding(&report, "visibility-timeout-short", "warning");
    assert!(
        climbing["title"].as_str().unwrap().contains("(5s)"),
        "{climbing:#}"
    );
    assert!(
        climbing["evidence"][0]
            .as_str()
            .unwrap()
            .starts_with("15 of 15 messages read (100%)"),
        "{climbing:#}"
    );
    assert_finding(&report, "no-redrive-policy", "warning");
    assert_finding(&report, "no-long-polling", "info");
}

/// A FIFO queue set up as it should be: many groups, unique dedup ids, long polling, a FIFO DLQ
/// that keeps messages longer.
fn healthy(env: &TestEnv) -> QueueRef {
    let dlq = env.create_queue(
        "shipments-dlq.fifo",
        &[("FifoQueue", "true"), ("MessageRetentionPeriod", "1209600")],
    );
    let dlq_arn = env.arn(&dlq);
    let queue = env.create_queue(
        "shipments.fifo",
        &[
            ("FifoQueue", "true"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
            ("RedrivePolicy", &policy(&dlq_arn, 5)),
        ],
    );
    let records = (0..60)
        .map(|i| {
            fifo_record(
                &format!("shipment-{}", i % 20),
                &uuid::Uuid::new_v4().to_string(),
                &format!("{{\"shipment\":{},\"step\":{}}}", i % 20, i / 20),
            )
        })
        .collect();
    env.send(&queue, records);
    queue
}

#[test]
fn a_healthy_queue_has_no_warnings_and_exits_0() {
    let env = TestEnv::exact(
        "the table shows how many messages each of four reads saw, which short polls sample on SQS",
    );
    let queue = healthy(&env);
    let run = env.run(&["diagnose", "shipments.fifo", "--force", "-o", "json"]);
    run.assert_code(0);
    let report = json(&run);
    assert_eq!(ids(&report), Vec::<String>::new(), "{report:#}");
    assert_eq!(report["problems"], false);
    // A group whose run was cut at the end of a receive hides the rest behind its held head.
    let seen = report["scan"]["seen"].as_u64().unwrap();
    assert!(seen >= 40, "{report:#}");
    assert_eq!(report["groups"]["totals"]["not_delivered"], 60 - seen);
    assert_eq!(report["groups"]["totals"]["distinct_groups"], 20);
    assert!(
        report["groups"]["totals"]["effective_parallelism"]
            .as_f64()
            .unwrap()
            >= 10.0
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (60, 0));

    // Looking again and again raises receive counts, but is not mistaken for failing consumers.
    for _ in 0..3 {
        env.run(&["diagnose", "shipments.fifo", "--force", "-o", "json"])
            .assert_code(0);
    }

    // On a terminal: a table that says so.
    let run = env
        .cmd()
        .args(["diagnose", "shipments.fifo", "--force"])
        .env("SQSCTL_ASSUME_TTY", "1")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert_snapshot!(String::from_utf8_lossy(&run.stdout));
}

#[test]
fn the_peek_guard_keeps_messages_out_of_the_dlq() {
    let env = TestEnv::start();
    let dlq = env.create_queue("mail-dlq.fifo", &[("FifoQueue", "true")]);
    let dlq_arn = env.arn(&dlq);
    let queue = env.create_queue(
        "mail.fifo",
        &[
            ("FifoQueue", "true"),
            ("RedrivePolicy", &policy(&dlq_arn, 1)),
        ],
    );
    env.send(
        &queue,
        (0..5)
            .map(|i| fifo_record(&format!("user-{i}"), &format!("m{i}"), "hello"))
            .collect(),
    );
    // Each message has been received once already: one more receive would dead-letter it.
    env.block_on(async {
        // A long poll: a short one samples on SQS.
        let options = ReceiveOptions {
            max_messages: 10,
            wait_seconds: Some(1),
            visibility_timeout: Some(30),
        };
        let batch = env.sqs().receive(&queue, options).await.unwrap();
        assert_eq!(batch.len(), 5);
        let handles: Vec<&str> = batch
            .iter()
            .filter_map(|m| m.receipt_handle.as_deref())
            .collect();
        assert_eq!(env.sqs().release(&queue, &handles).await.unwrap(), 0);
    });

    let run = env.run(&["diagnose", "mail.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let skipped = assert_finding(&report, "scan-skipped", "warning");
    assert!(skipped["advice"].as_str().unwrap().contains("--force"));
    assert_finding(&report, "max-receive-count-one", "warning");
    assert!(report["groups"].is_null() && report["scan"].is_null());

    let run = env.run(&["fifo", "groups", "mail.fifo"]);
    run.assert_code(1);
    assert_snapshot!(run.stderr);

    assert_eq!(
        visible_and_in_flight(&env, &dlq),
        (0, 0),
        "nothing dead-lettered"
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (5, 0));
}

#[test]
fn bad_input_is_explained() {
    let env = TestEnv::start();
    let run = env.run(&["diagnose"]);
    run.assert_code(2);
    assert_snapshot!(name: "nothing_to_read", run.stderr);
    let run = env.run_stdin(
        &["diagnose", "--input", "-"],
        "{\"body\":\"ok\"}\nnot json\n",
    );
    run.assert_code(1);
    assert_snapshot!(name: "bad_record", run.stderr);
    let run = env.run(&["diagnose", "--input", "/nonexistent/file.jsonl"]);
    run.assert_code(1);
    env.create_queue("plain", &[]);
    let run = env.run(&["fifo", "groups", "plain"]);
    run.assert_code(1);
    assert_snapshot!(name: "not_fifo", run.stderr);
    let run = env.run(&["diagnose", "no-such-queue"]);
    run.assert_code(1);
}

#[test]
fn piped_output_is_json_lines_and_a_file_can_be_checked_against_the_live_queue() {
    let env = TestEnv::start();
    env.create_queue(
        "reports.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    );
    // A producer's log of what it sent: the same body four times, which content-based
    // deduplication turns into one message when the sends are close together.
    let log: String = (0..6)
        .map(|i| {
            let body = if i < 4 {
                "refresh-all".to_string()
            } else {
                format!("report {i}")
            };
            serde_json::to_string(&fifo_record(&format!("team-{i}"), "", &body)).unwrap() + "\n"
        })
        .collect::<String>()
        .replace(",\"dedup_id\":\"\"", "");
    let path = env.home().join("sent.jsonl");
    std::fs::write(&path, log).unwrap();
    let run = env.run(&[
        "diagnose",
        "reports.fifo",
        "--input",
        path.to_str().unwrap(),
    ]);
    run.assert_code(PROBLEMS_FOUND);
    let findings = run.records_of("finding");
    let repeats = findings
        .iter()
        .find(|f| f["id"] == "dedup-content-repeats")
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        repeats["evidence"]
            .to_string()
            .contains("`refresh-all` seen 4 times")
    );
    let summary = run.records_of("summary");
    assert_eq!(summary.len(), 1);
    assert_eq!(summary[0]["read_from"], "file");
    assert_eq!(summary[0]["problems"], true);
}

#[test]
fn watch_runs_again_and_says_what_changed_until_ctrl_c() {
    let env = TestEnv::start();
    let queue = env.create_queue("watched", &[("ReceiveMessageWaitTimeSeconds", "20")]);
    env.send(&queue, vec![MessageRecord::with_body("one")]);
    let mut child = env
        .cmd()
        .args(["diagnose", "watched", "--watch", "1", "-o", "text"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the second run to report, then press Ctrl-C.
    let mut stderr_pipe = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut stderr = String::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !stderr.contains("no change since the last run") {
        assert!(
            std::time::Instant::now() < deadline,
            "no second run: {stderr}"
        );
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stderr_pipe, &mut line).unwrap() == 0 {
            panic!("the watch ended early: {stderr}");
        }
        stderr.push_str(&line);
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    std::io::Read::read_to_string(&mut stderr_pipe, &mut stderr).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("no change since the last run"), "{stderr}");
    // Its own reads did not make the message look like it keeps failing.
    assert!(!stdout.contains("visibility-timeout-short"), "{stdout}");
    assert!(stdout.matches("no-redrive-policy").count() >= 2, "{stdout}");
    assert_eq!(visible_and_in_flight(&env, &queue), (1, 0));
}

#[test]
fn looking_again_and_again_is_not_blamed_on_consumers() {
    let env = TestEnv::delivered_once(
        "the consumer's message must stay in flight: a second delivery of it to a scan, which \
         releases what it read, would end the consumer's hold",
    );
    let queue = env.create_queue(
        "invoices",
        &[
            ("VisibilityTimeout", "1"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
        ],
    );
    env.send(
        &queue,
        (0..5)
            .map(|i| MessageRecord::with_body(format!("invoice {i}")))
            .collect(),
    );
    // A consumer is at work on one message (a long poll: a short one may find nothing on SQS).
    let options = ReceiveOptions {
        max_messages: 1,
        wait_seconds: Some(1),
        visibility_timeout: Some(600),
    };
    assert_eq!(
        env.block_on(env.sqs().receive(&queue, options))
            .unwrap()
            .len(),
        1
    );
    // Each run reads every other message once and takes over a second: by the fourth run the
    // counts and the time since the first receive would fit consumers timing out.
    for _ in 0..4 {
        let run = env.run(&["diagnose", "invoices", "-o", "json"]);
        let report = json(&run);
        assert!(
            finding(&report, "visibility-timeout-short").is_none(),
            "{report:#}"
        );
    }
    // Without the record of those scans, the same counts do look like failing consumers.
    std::fs::remove_dir_all(env.home().join("state").join("sqsctl").join("scans")).unwrap();
    let report = json(&env.run(&["diagnose", "invoices", "-o", "json"]));
    assert_finding(&report, "visibility-timeout-short", "warning");
}

/// The serialized queue again on LocalStack, an independent SQS implementation: the scan sees the
/// head of the group, infers the rest from the depth, and leaves every message visible.
#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn one_constant_group_on_localstack() {
    let endpoint = support::localstack();
    let env = TestEnv::start();
    let sqs = Sqs::from_sdk(support::sdk_client(&endpoint), "us-east-1");
    let name = format!("{}.fifo", support::unique_name("diag-serial"));
    let attributes = [("FifoQueue".to_string(), "true".to_string())]
        .into_iter()
        .collect();
    let queue = env.block_on(sqs.create_queue(&name, attributes)).unwrap();
    let records: Vec<MessageRecord> = (0..200)
        .map(|i| fifo_record("producer-7731", &format!("job-{i}"), &format!("job {i}")))
        .collect();
    env.block_on(async {
        for chunk in records.chunks(10) {
            let outcomes = sqs.send_batch(&queue, chunk).await.unwrap();
            assert!(outcomes.iter().all(|o| o.is_ok()), "{outcomes:?}");
        }
    });
    let output = env
        .cmd()
        .args(["diagnose", &queue.url, "-o", "json"])
        .env("AWS_ENDPOINT_URL_SQS", &endpoint)
        .output()
        .unwrap();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    let report = json(&run);
    let attrs = env.block_on(sqs.attributes(&queue)).unwrap();
    let _ = env.block_on(sqs.delete_queue(&queue));
    run.assert_code(PROBLEMS_FOUND);
    assert_finding(&report, "serialized-groups", "error");
    let totals = &report["groups"]["totals"];
    assert_eq!(totals["effective_parallelism"], 1.0, "{report:#}");
    assert_eq!(
        totals["not_delivered"].as_u64().unwrap() + totals["messages_seen"].as_u64().unwrap(),
        200
    );
    assert_eq!((attrs.visible(), attrs.in_flight()), (200, 0));
}

#[test]
fn a_dlq_shows_its_sources_and_the_messages_about_to_expire() {
    // Messages sent 30 hours ago (by the server's clock) into a DLQ that keeps them 2 days.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        clock: Clock::manual(SystemTime::now() - Duration::from_secs(30 * 3600)),
        ..ServerConfig::default()
    });
    let dlq = env.create_queue("exports-dlq", &[("MessageRetentionPeriod", "172800")]);
    let dlq_arn = env.arn(&dlq);
    env.create_queue(
        "exports",
        &[
            ("MessageRetentionPeriod", "86400"),
            ("RedrivePolicy", &policy(&dlq_arn, 4)),
        ],
    );
    env.send(
        &dlq,
        (0..3)
            .map(|i| MessageRecord::with_body(format!("export {i}")))
            .collect(),
    );
    let run = env.run(&["diagnose", "exports-dlq", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    assert_eq!(report["dlq"]["sources"][0], "exports");
    assert_eq!(report["dlq"]["expiring_within_24h"], 3);
    let oldest = report["dlq"]["oldest_age_seconds"].as_u64().unwrap();
    assert!((30 * 3600..31 * 3600).contains(&oldest), "{report:#}");
    assert_finding(&report, "dlq-messages-expiring", "warning");
    let waiting = assert_finding(&report, "dlq-not-empty", "warning");
    assert!(
        waiting["evidence"][0]
            .as_str()
            .unwrap()
            .contains("fed by exports")
    );
    assert!(
        finding(&report, "dlq-retention-short").is_none(),
        "{report:#}"
    );
}

#[test]
fn messages_delivered_twice_are_counted_once() {
    // Every message a receive returns comes once more to a later receive, as SQS sometimes does.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        realism: Realism {
            duplicate_rate: 1.0,
            ..Realism::LIKE_SQS
        },
        seed: Some(7),
        ..ServerConfig::default()
    });
    let queue = env.create_queue("tickets", &[]);
    env.send(
        &queue,
        (0..40)
            .map(|i| MessageRecord::with_body(format!("ticket {i}")))
            .collect(),
    );
    env.settle_counts();

    let run = env.run(&["diagnose", "tickets", "-o", "json"]);
    let report = json(&run);
    assert_eq!(report["scan"]["seen"], 40, "{report:#}");
    let stderr = &run.stderr;
    assert!(
        stderr.contains(
            "tickets: read 40 of 40 visible messages (0 in flight; SQS's counts, approximate)"
        ),
        "{stderr}"
    );

    // An export put together from two reads holds each message twice.
    let first = env.run(&["peek", "tickets", "--max", "100", "-o", "jsonl"]);
    let second = env.run(&["peek", "tickets", "--max", "100", "-o", "jsonl"]);
    let export = format!("{}{}", first.stdout, second.stdout);
    let run = env.run_stdin(&["diagnose", "--input", "-", "-o", "json"], &export);
    let stderr = &run.stderr;
    assert!(
        stderr.contains("40 messages read from -; 40 copies of a message already read left out"),
        "{stderr}"
    );
}

/// A dead-letter queue of 60 failures from `orders`: 54 SNS notifications (inner messages of type
/// `order.created` 36, `order.paid` 18) and 6 plain bodies; message attribute `error`
/// `PaymentDeclined` 42, `Timeout` 12, `Malformed` 6 (the plain ones).
fn orders_dead_letters(env: &TestEnv) {
    let dlq = env.create_queue("orders-dlq", &[]);
    env.create_queue("orders", &[("RedrivePolicy", &policy(&env.arn(&dlq), 5))]);
    let input: String = (0..60)
        .map(|i| {
            let (error, body) = match i % 10 {
                9 => ("Malformed", format!("not json {i}")),
                n => {
                    let kind = if i % 3 == 0 {
                        "order.paid"
                    } else {
                        "order.created"
                    };
                    let inner = serde_json::json!({"order_id": i, "type": kind});
                    (
                        if n <= 6 { "PaymentDeclined" } else { "Timeout" },
                        crate::envelope::orders_notification(&format!("n-{i}"), &inner),
                    )
                }
            };
            let attributes = serde_json::json!({"error": {"type": "String", "value": error}});
            serde_json::json!({"body": body, "message_attributes": attributes}).to_string() + "\n"
        })
        .collect();
    env.run_stdin(&["send", "orders-dlq", "--jsonl"], &input)
        .assert_code(0);
}

/// Each expression's values and counts in a `counts` array of the JSON.
fn values(counts: &Value, i: usize) -> Vec<(Value, u64)> {
    counts[i]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["value"].clone(), v["count"].as_u64().unwrap()))
        .collect()
}

#[test]
fn a_dead_letter_queue_is_counted_by_key_in_every_format() {
    let env = TestEnv::start();
    orders_dead_letters(&env);
    let args = [
        "diagnose",
        "orders-dlq",
        "--count-by",
        "message_attributes.error.value",
        "--count-by",
        "message.type",
    ];

    let run = env.run(&[&args[..], &["-o", "json"]].concat());
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    assert_finding(&report, "dlq-not-empty", "warning");
    assert_eq!(report["counted"]["read"], 60);
    assert_eq!(report["counted"]["default"], false);
    // `visible` is SQS's approximate count, which a --like-sqs server lets lag as SQS does.
    if !env.is_like_sqs() {
        assert_eq!(report["counted"]["visible"], 60);
    }
    assert_eq!(
        values(&report["counts"], 0),
        [
            ("PaymentDeclined".into(), 42),
            ("Timeout".into(), 12),
            ("Malformed".into(), 6)
        ]
    );
    assert_eq!(
        values(&report["counts"], 1),
        [
            ("order.created".into(), 36),
            ("order.paid".into(), 18),
            (Value::Null, 6)
        ]
    );

    // The tables under the findings fit the terminal; the counts read the same at any width.
    for columns in [80, 60] {
        let mut cmd = env.cmd();
        cmd.args(args)
            .env("SQSCTL_ASSUME_TTY", "1")
            .env("COLUMNS", columns.to_string());
        let table = support::run_with_stdin(cmd, "");
        table.assert_code(PROBLEMS_FOUND);
        let wide = table.stdout.lines().find(|l| l.chars().count() > columns);
        assert!(
            wide.is_none(),
            "wider than {columns}: {wide:?}\n{}",
            table.stdout
        );
        // The findings' evidence holds ages; the counts start at the second table.
        let counts = table.stdout.match_indices('┌').nth(1).unwrap().0;
        let name = format!("dlq_counts_table_at_{columns}");
        assert_snapshot!(name: &name, &table.stdout[counts..], r"held about \d+ visible" => "held about N visible");
    }

    let run = env.run(&[&args[..], &["-o", "jsonl"]].concat());
    let counts = run.records_of("count");
    assert_eq!(counts.len(), 6);
    assert_eq!(
        counts[0],
        serde_json::json!({"expr": "message_attributes.error.value", "value": "PaymentDeclined", "count": 42})
    );
    assert_eq!(run.records_of("summary")[0]["counted"]["read"], 60);
    let run = env.run(&[&args[..], &["-o", "text"]].concat());
    let lines: Vec<_> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("count\t"))
        .collect();
    assert_eq!(
        lines[0],
        "count\tmessage_attributes.error.value\tPaymentDeclined\t42"
    );
    assert_eq!(lines[5], "count\tmessage.type\t(none)\t6");
    let run = env.run(&[&args[..], &["--query", "counts[1].values[1]", "-o", "json"]].concat());
    assert_eq!(
        json(&run),
        serde_json::json!({"value": "order.paid", "count": 18})
    );

    // An export holding every message twice is counted by message id: each message once.
    let export = env.run(&["peek", "orders-dlq", "--max", "100", "-o", "jsonl"]);
    let export = format!("{}{}", export.stdout, export.stdout);
    let run = env.run_stdin(
        &[
            "diagnose",
            "--input",
            "-",
            "--count-by",
            "message_attributes.error.value",
            "-o",
            "json",
        ],
        &export,
    );
    let report = json(&run);
    assert_eq!(
        report["counted"],
        serde_json::json!({"read": 60, "visible": null, "default": false})
    );
    assert_eq!(
        values(&report["counts"], 0)[0],
        ("PaymentDeclined".into(), 42)
    );
}

#[test]
fn a_dead_letter_queue_with_envelopes_is_counted_by_them_without_being_asked() {
    let env = TestEnv::start();
    orders_dead_letters(&env);
    let report = json(&env.run(&["diagnose", "orders-dlq", "-o", "json"]));
    assert_eq!(report["counted"]["default"], true);
    assert_eq!(
        values(&report["counts"], 0),
        [("sns".into(), 54), (Value::Null, 6)]
    );
    assert_eq!(
        values(&report["counts"], 1),
        [("orders-topic".into(), 54), (Value::Null, 6)]
    );
    let mut cmd = env.cmd();
    cmd.args(["diagnose", "orders-dlq"])
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", "60");
    let table = support::run_with_stdin(cmd, "");
    let wide = table.stdout.lines().find(|l| l.chars().count() > 60);
    assert!(wide.is_none(), "wider than 60: {wide:?}\n{}", table.stdout);
    let counts = table.stdout.match_indices('┌').nth(1).unwrap().0;
    assert_snapshot!(name: "dlq_default_counts_table", &table.stdout[counts..], r"held about \d+ visible" => "held about N visible");

    // Neither a queue that is not a DLQ nor a DLQ of plain bodies gets counts it did not ask for.
    for queue in ["orders", "plain-dlq"] {
        if queue == "plain-dlq" {
            let dlq = env.create_queue(queue, &[]);
            env.create_queue("plain", &[("RedrivePolicy", &policy(&env.arn(&dlq), 5))]);
            env.send(&dlq, vec![MessageRecord::with_body("failed")]);
        }
        let report = json(&env.run(&["diagnose", queue, "-o", "json"]));
        assert!(report.get("counts").is_none(), "{report:#}");
    }

    let bad = env.run(&["diagnose", "orders-dlq", "--count-by", "message.["]);
    bad.assert_code(2);
    assert_snapshot!(name: "dlq_count_by_bad_expression", bad.stderr);
}

/// A FIFO queue `p2.fifo` with a dead-letter queue (so that no other warning decides the exit
/// code), whose counts were read before 1,000 messages were sent, 950 of them in group `hot` and
/// the others in 50 groups of one: the counts read next may still say the queue is empty.
fn sent_right_after_the_counts_were_read(env: &TestEnv) -> QueueRef {
    let dlq = env.create_queue(
        "p2-dlq.fifo",
        &[("FifoQueue", "true"), ("MessageRetentionPeriod", "1209600")],
    );
    let dlq_arn = env.arn(&dlq);
    let queue = env.create_queue(
        "p2.fifo",
        &[
            ("FifoQueue", "true"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
            ("RedrivePolicy", &policy(&dlq_arn, 5)),
        ],
    );
    env.block_on(env.sqs().attributes(&queue)).unwrap();
    let records = (0..1_000)
        .map(|i| {
            let group = if i % 20 == 0 {
                format!("cold-{}", i / 20)
            } else {
                "hot".to_string()
            };
            fifo_record(&group, &format!("m{i}"), &format!("message {i}"))
        })
        .collect();
    env.send(&queue, records);
    queue
}

/// Right after the sends, on a server whose counts lag as SQS's do: the counts are read again
/// until they cover what the scan read, and the hot group is reported; never a clean bill.
fn right_after_the_sends_the_hot_group_is_found(seed: u64) {
    let env = TestEnv::like_sqs(seed);
    sent_right_after_the_counts_were_read(&env);
    let run = env.run(&["diagnose", "p2.fifo", "-o", "json"]);
    let report = json(&run);
    run.assert_code(PROBLEMS_FOUND);
    assert!(
        finding(&report, "serialized-groups").is_some(),
        "seed {seed}: {}\n{report:#}",
        run.stderr
    );
    assert_eq!(report["groups"]["totals"]["visible_at_start"], 1_000);
    assert_ne!(report["scan"]["counts"]["state"], "lagging", "{report:#}");
}

#[test]
fn right_after_1000_fifo_sends_lagging_counts_hide_no_hot_group_seed_1() {
    right_after_the_sends_the_hot_group_is_found(1);
}

#[test]
fn right_after_1000_fifo_sends_lagging_counts_hide_no_hot_group_seed_7() {
    right_after_the_sends_the_hot_group_is_found(7);
}

#[test]
fn right_after_1000_fifo_sends_lagging_counts_hide_no_hot_group_seed_2026() {
    right_after_the_sends_the_hot_group_is_found(2026);
}

#[test]
fn counts_that_lag_longer_than_diagnose_waits_make_the_answer_incomplete() {
    // Counts a minute behind, as on SQS: they still say the queue is empty after the read.
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        realism: Realism {
            count_lag: Duration::from_secs(60),
            ..Realism::LIKE_SQS
        },
        seed: Some(11),
        ..ServerConfig::default()
    });
    let queue = sent_right_after_the_counts_were_read(&env);

    let run = env.run(&["diagnose", "p2.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    assert_eq!(report["complete"], false, "{report:#}");
    assert_finding(&report, "counts-lagging", "warning");
    assert_eq!(report["scan"]["counts"]["state"], "lagging", "{report:#}");
    let totals = &report["groups"]["totals"];
    assert_eq!(totals["not_delivered"], Value::Null, "{report:#}");
    assert_eq!(totals["exact"], false, "{report:#}");
    // A share of a queue whose size is unknown, and a parallelism bound built on it, say nothing.
    assert_eq!(totals["largest_group_share_percent"], Value::Null);
    assert_eq!(
        totals["effective_parallelism"].as_f64(),
        totals["distinct_groups"].as_f64()
    );
    let seen = report["scan"]["seen"].as_u64().unwrap();
    assert!(
        run.stderr.contains(&format!(
            "p2.fifo: read {seen} messages (SQS counted 0 visible and 0 in flight: its counts lag behind what was read)"
        )),
        "{}",
        run.stderr
    );

    // `groups` on the same numbers: no count of messages behind the heads, and exit 4.
    let run = env.run(&["groups", "p2.fifo", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let layout = json(&run);
    assert_eq!(layout["totals"]["not_delivered"], Value::Null, "{layout:#}");
    assert!(
        layout["inferred"][0]
            .as_str()
            .unwrap()
            .starts_with("SQS's counts lag behind the scan"),
        "{layout:#}"
    );
    // Nothing was consumed.
    assert_eq!(env.drain(&queue).len(), 1_000);
}

#[test]
fn a_group_whose_head_is_visible_again_is_seen_up_to_its_message_in_flight() {
    // SQS holds a FIFO group back behind its first message in flight only: a consumer received a1
    // and a2 and gave a1 back (visibility 0) while it keeps a2, so a scan sees a1 and b1; a3 waits
    // behind a2.
    let env = TestEnv::exact("a receive of two messages of one group must return both at once");
    let queue = env.create_queue("pay.fifo", &[("FifoQueue", "true")]);
    env.send(
        &queue,
        vec![
            fifo_record("a", "a1", "a1"),
            fifo_record("a", "a2", "a2"),
            fifo_record("a", "a3", "a3"),
            fifo_record("b", "b1", "b1"),
        ],
    );
    env.block_on(async {
        let options = ReceiveOptions {
            max_messages: 2,
            wait_seconds: Some(1),
            visibility_timeout: Some(600),
        };
        let held = env.sqs().receive(&queue, options).await.unwrap();
        let bodies: Vec<&str> = held.iter().map(|m| m.body.as_str()).collect();
        assert_eq!(bodies, ["a1", "a2"]);
        let a1 = held[0].receipt_handle.as_deref().unwrap();
        assert_eq!(env.sqs().release(&queue, &[a1]).await.unwrap(), 0);
    });

    let run = env.run(&["fifo", "groups", "pay.fifo", "-o", "json"]);
    run.assert_code(0);
    let groups = json(&run);
    let mut seen: Vec<(String, u64)> = groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["group_id"].as_str().unwrap().to_owned(),
                g["seen"].as_u64().unwrap(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [("a".to_owned(), 1), ("b".to_owned(), 1)],
        "{groups:#}"
    );
    let inferred = groups["inferred"].to_string();
    assert!(
        inferred.contains(
            "1 message were in flight when the scan started; what follows them in their groups is \
             held back until they are deleted or time out"
        ),
        "{groups:#}"
    );
    assert_eq!(visible_and_in_flight(&env, &queue), (3, 1));
}
