//! Where `sqsctl redrive` sends: `--copy`, which leaves the DLQ as it was, and `--to` a queue in
//! another region or reached with another profile, through the binary against the local server
//! (which keeps regions apart as SQS does).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;
use sqsctl::client::{QueueRef, Sqs};
use sqsctl::message::MessageRecord;

use crate::diagnose::fifo_record;
use crate::support::snapshot::assert_snapshot;
use crate::support::{Run, TestEnv};

const USAGE: i32 = 2;
const PARTIAL: i32 = 3;

fn summary(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", run.stdout, run.stderr))
}

fn numbered(prefix: &str, n: usize) -> Vec<MessageRecord> {
    (0..n)
        .map(|i| MessageRecord::with_body(format!("{prefix}-{i:04}")))
        .collect()
}

/// Each body with how many times it is in `messages`.
fn counts(messages: &[MessageRecord]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for message in messages {
        *counts.entry(message.body.clone()).or_insert(0) += 1;
    }
    counts
}

fn expected(prefix: &str, n: usize) -> BTreeMap<String, usize> {
    numbered(prefix, n)
        .into_iter()
        .map(|m| (m.body, 1))
        .collect()
}

/// A client of the same server signing for `region`.
fn client_in(env: &TestEnv, region: &str) -> Sqs {
    Sqs::for_endpoint(env.endpoint(), region)
}

fn create_in(env: &TestEnv, sqs: &Sqs, name: &str) -> QueueRef {
    env.block_on(sqs.create_queue(name, BTreeMap::new()))
        .expect("queue created")
}

fn drain_with(env: &TestEnv, sqs: &Sqs, queue: &QueueRef) -> Vec<MessageRecord> {
    env.block_on(async {
        let mut all = Vec::new();
        loop {
            let options = sqsctl::client::ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(60),
            };
            let batch = sqs.receive(queue, options).await.expect("receive");
            if batch.is_empty() {
                return all;
            }
            let handles: Vec<&str> = batch
                .iter()
                .filter_map(|m| m.receipt_handle.as_deref())
                .collect();
            sqs.batch(sqsctl::client::Delete, queue, &handles)
                .await
                .expect("delete");
            all.extend(batch);
        }
    })
}

#[test]
fn copy_leaves_the_dlq_as_it_was_and_copies_each_message_once() {
    let env = TestEnv::delivered_once(
        "each message is copied once, which a second delivery by SQS may break only within the duplicate bound",
    );
    let dlq = env.create_queue("orders-dlq", &[]);
    let replay = env.create_queue("orders-replay", &[]);
    env.send(&dlq, numbered("m", 60));
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders-replay",
        "--copy",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let summary = summary(&run);
    assert_eq!(summary["copy"], true, "{summary}");
    assert_eq!(summary["moved"], 60, "{summary}");
    assert!(
        run.stderr
            .contains("copied 60 of 60 selected from orders-dlq to orders-replay"),
        "{}",
        run.stderr
    );
    assert_eq!(counts(&env.drain(&replay)), expected("m", 60));
    // The DLQ holds what it held, every message visible again.
    let attrs = env.settled_attributes(&dlq);
    assert_eq!((attrs.visible(), attrs.in_flight()), (60, 0));
    assert_eq!(counts(&env.drain(&dlq)), expected("m", 60));
}

#[test]
fn a_dry_run_of_a_copy_says_what_would_be_copied_and_changes_nothing() {
    let env = TestEnv::start();
    let dlq = env.create_queue("orders-dlq", &[]);
    let replay = env.create_queue("orders-replay", &[]);
    env.send(&dlq, numbered("d", 5));
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders-replay",
        "--copy",
        "--dry-run",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(document["summary"]["copy"], true, "{document}");
    assert_eq!(document["summary"]["would_move"], 5, "{document}");
    assert!(
        run.stderr
            .contains("5 would be copied to orders-replay, 0 would stay; nothing was changed"),
        "{}",
        run.stderr
    );
    assert_eq!(env.settled_attributes(&dlq).visible(), 5);
    assert_eq!(env.depth(&replay), 0);
}

#[test]
fn copy_with_native_is_a_usage_error() {
    let env = TestEnv::start();
    env.create_queue("orders-dlq", &[]);
    env.create_queue("orders", &[]);
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--copy",
        "--native",
        "--yes",
    ]);
    run.assert_code(USAGE);
    assert!(run.stderr.contains("--copy"), "{}", run.stderr);
    // SQS's move task runs with the DLQ's account and region.
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--to-region",
        "eu-west-1",
        "--native",
        "--yes",
    ]);
    run.assert_code(USAGE);
    assert!(
        run.stderr.contains(
            "--native cannot be combined with --to-profile, --to-region or --to-endpoint-url"
        ),
        "{}",
        run.stderr
    );
}

const GROUPS: usize = 20;
const GROUP_SIZE: usize = 7;

#[test]
fn a_fifo_copy_gets_through_every_group_it_can_reach_and_keeps_the_dlq() {
    let env = TestEnv::start();
    let dlq = env.create_queue("jobs-dlq.fifo", &[("FifoQueue", "true")]);
    let replay = env.create_queue("jobs-replay.fifo", &[("FifoQueue", "true")]);
    // Twenty groups of seven: a receive of ten takes a whole group and part of another, whose
    // rest waits behind the messages the copy keeps hidden, until a later pass that makes only
    // such groups visible again.
    let mut records = Vec::new();
    for i in 0..GROUP_SIZE {
        for group in 0..GROUPS {
            records.push(fifo_record(
                &format!("g{group}"),
                &format!("d{group}-{i}"),
                &format!("g{group}-{i}"),
            ));
        }
    }
    env.send(&dlq, records);
    let run = env.run(&[
        "redrive",
        "jobs-dlq.fifo",
        "--to",
        "jobs-replay.fifo",
        "--copy",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    assert_eq!(
        summary(&run)["moved"],
        GROUPS * GROUP_SIZE,
        "{}",
        run.stderr
    );
    let copied = env.drain(&replay);
    assert_eq!(copied.len(), GROUPS * GROUP_SIZE);
    // Each group in its order.
    for group in 0..GROUPS {
        let order: Vec<&str> = copied
            .iter()
            .filter(|m| m.group_id.as_deref() == Some(&format!("g{group}")))
            .map(|m| m.body.as_str())
            .collect();
        let want: Vec<String> = (0..GROUP_SIZE).map(|i| format!("g{group}-{i}")).collect();
        assert_eq!(order, want, "group g{group}");
    }
    assert_eq!(env.drain(&dlq).len(), GROUPS * GROUP_SIZE);
}

#[test]
fn a_fifo_copy_that_cannot_reach_a_group_s_later_messages_says_so_and_exits_3() {
    let env = TestEnv::start();
    let dlq = env.create_queue("long-dlq.fifo", &[("FifoQueue", "true")]);
    let replay = env.create_queue("long-replay.fifo", &[("FifoQueue", "true")]);
    // One group of 25: a receive reaches its first ten; the rest comes only once they are deleted.
    let records = (0..25)
        .map(|i| fifo_record("g", &format!("d{i}"), &format!("g-{i:02}")))
        .collect();
    env.send(&dlq, records);
    let run = env.run(&[
        "redrive",
        "long-dlq.fifo",
        "--to",
        "long-replay.fifo",
        "--copy",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(PARTIAL);
    let summary = summary(&run);
    let copied = summary["moved"].as_u64().unwrap();
    assert!((1..25).contains(&copied), "{summary}");
    assert_eq!(
        summary["maybe_left"].as_u64().unwrap(),
        25 - copied,
        "{summary}"
    );
    assert!(
        run.stderr.contains("not reached by this copy")
            && run
                .stderr
                .contains("a FIFO queue hands over a group's later messages"),
        "{}",
        run.stderr
    );
    let bodies: Vec<String> = env.drain(&replay).into_iter().map(|m| m.body).collect();
    let want: Vec<String> = (0..copied).map(|i| format!("g-{i:02}")).collect();
    assert_eq!(bodies, want, "the first messages of the group, in order");
    assert_eq!(env.drain(&dlq).len(), 25);
}

#[test]
fn copy_killed_and_resumed_copies_each_message_once_within_the_bound() {
    let env =
        TestEnv::delivered_once("each message is copied once, checked against the duplicate bound");
    let dlq = env.create_queue("big-dlq", &[]);
    let replay = env.create_queue("big-replay", &[]);
    env.send(&dlq, numbered("k", 400));
    let journal = env.home().join("copy.jsonl");
    let journal = journal.to_str().unwrap();
    // Slow enough to be killed midway: 4 workers at 200 messages per second.
    env.kill_9_after(
        &[
            "redrive",
            "big-dlq",
            "--to",
            "big-replay",
            "--copy",
            "--yes",
            "--concurrency",
            "4",
            "--rate",
            "200",
            "--visibility",
            "3s",
            "--journal",
            journal,
        ],
        Duration::from_millis(700),
    );
    let lines = std::fs::read_to_string(journal).unwrap();
    let sent_before = lines
        .lines()
        .filter(|l| l.contains(r#""type":"sent""#))
        .count();
    assert!(
        (1..400).contains(&sent_before),
        "killed midway: {sent_before} sent"
    );
    let run = env.run(&["redrive", "--resume", journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let summary = summary(&run);
    assert!(run.stderr.contains("copied earlier"), "{}", run.stderr);
    let copies = env.drain(&replay);
    let counts = counts(&copies);
    assert_eq!(
        counts.keys().cloned().collect::<Vec<_>>(),
        expected("k", 400).into_keys().collect::<Vec<_>>(),
        "every message copied"
    );
    let extra = copies.len() - 400;
    let bound = summary["possible_duplicates"].as_u64().unwrap() as usize;
    assert!(
        extra <= bound,
        "{extra} duplicates, more than the bound {bound}"
    );
    assert_eq!(
        summary["moved_before"].as_u64().unwrap() as usize,
        sent_before
    );
    let attrs = env.settled_attributes(&dlq);
    assert_eq!((attrs.visible(), attrs.in_flight()), (400, 0));
    // A completed copy is not run again.
    let again = env.run(&["redrive", "--resume", journal, "--yes"]);
    again.assert_code(0);
    assert!(
        again.stderr.contains("nothing to resume"),
        "{}",
        again.stderr
    );
}

/// A DLQ in us-east-1 with three messages, and `orders` in eu-west-1.
fn across_regions(env: &TestEnv) -> (QueueRef, Sqs, QueueRef) {
    let dlq = env.create_queue("orders-dlq", &[]);
    env.send(&dlq, numbered("r", 3));
    let west = client_in(env, "eu-west-1");
    let orders = create_in(env, &west, "orders");
    (dlq, west, orders)
}

#[test]
fn a_move_to_another_region_asks_naming_both_sides_and_moves_there() {
    let env = TestEnv::start();
    let (dlq, west, orders) = across_regions(&env);
    let mut pty = env.pty(
        &[
            "redrive",
            "orders-dlq",
            "--to",
            "orders",
            "--to-region",
            "eu-west-1",
        ],
        &[],
    );
    pty.expect("[y/N]", 20);
    pty.send("y\r");
    assert_eq!(pty.wait(30), 0, "{}", pty.screen());
    let screen = pty.screen();
    let question = screen
        .lines()
        .find(|line| line.contains("[y/N]"))
        .unwrap_or_default()
        .trim()
        .to_string();
    assert_snapshot!(question);
    assert_eq!(counts(&drain_with(&env, &west, &orders)), expected("r", 3));
    assert_eq!(env.depth(&dlq), 0);
}

#[test]
fn a_destination_url_or_arn_carries_its_region() {
    let env = TestEnv::start();
    let (dlq, west, orders) = across_regions(&env);
    assert!(orders.url.contains("/eu-west-1/"), "{}", orders.url);
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        &orders.url,
        "--max",
        "1",
        "--yes",
    ]);
    run.assert_code(0);
    let arn = "arn:aws:sqs:eu-west-1:000000000000:orders";
    let run = env.run(&["redrive", "orders-dlq", "--to", arn, "--yes", "-v"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("destination: region eu-west-1"),
        "{}",
        run.stderr
    );
    assert_eq!(drain_with(&env, &west, &orders).len(), 3);
    assert_eq!(env.depth(&dlq), 0);
    // A --to-region that contradicts the ARN is a usage error, before anything is read.
    env.send(&dlq, numbered("s", 2));
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        arn,
        "--to-region",
        "us-west-2",
        "--yes",
    ]);
    run.assert_code(USAGE);
    assert!(
        run.stderr
            .contains("--to-region us-west-2 contradicts --to, which names a queue in eu-west-1"),
        "{}",
        run.stderr
    );
    assert_eq!(env.depth(&dlq), 2);
}

#[test]
fn a_destination_that_does_not_exist_or_cannot_be_reached_fails_before_anything_is_received() {
    let env = TestEnv::exact("asserts each message's receive count: no receive happened");
    let (dlq, _west, _orders) = across_regions(&env);
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "missing",
        "--to-region",
        "eu-west-1",
        "--yes",
    ]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("`missing` does not exist") && run.stderr.contains("eu-west-1"),
        "{}",
        run.stderr
    );
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--to-region",
        "eu-west-1",
        "--to-endpoint-url",
        "http://127.0.0.1:9",
        "--connect-timeout",
        "1s",
        "--yes",
    ]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("127.0.0.1:9"), "{}", run.stderr);
    let left = env.drain(&dlq);
    assert_eq!(left.len(), 3);
    for message in left {
        assert_eq!(
            message
                .attributes
                .get("ApproximateReceiveCount")
                .map(String::as_str),
            Some("1"),
            "never received by the failed runs"
        );
    }
}

/// Config and credentials files with a second profile, `replay`, that has its own keys, region
/// and endpoint.
fn second_profile(env: &TestEnv) {
    std::fs::write(
        env.home().join("aws-config"),
        format!(
            "[profile replay]\nregion = eu-west-1\nendpoint_url = {}\n",
            env.endpoint()
        ),
    )
    .unwrap();
    std::fs::write(
        env.home().join("aws-credentials"),
        "[replay]\naws_access_key_id = AKIAREPLAYEXAMPLE777\naws_secret_access_key = replay-secret-never-shown-0123456789\n",
    )
    .unwrap();
}

#[test]
fn a_move_with_a_second_profile_names_it_and_never_shows_its_credentials() {
    let env = TestEnv::start();
    let (dlq, west, orders) = across_regions(&env);
    second_profile(&env);
    let mut pty = env.pty(
        &[
            "redrive",
            "orders-dlq",
            "--to",
            "orders",
            "--to-profile",
            "replay",
            "--max",
            "1",
        ],
        &[],
    );
    pty.expect("[y/N]", 20);
    pty.send("y\r");
    assert_eq!(pty.wait(30), 0, "{}", pty.screen());
    let screen = pty.screen();
    let question = screen
        .lines()
        .find(|line| line.contains("[y/N]"))
        .unwrap_or_default()
        .trim()
        .to_string();
    assert_snapshot!(question);
    // The profile's own endpoint: the DLQ's comes from --endpoint-url, not the environment.
    let run = crate::support::run_with_stdin(
        {
            let mut cmd = env.cmd();
            cmd.env_remove("AWS_ENDPOINT_URL_SQS").args([
                "--endpoint-url",
                env.endpoint(),
                "redrive",
                "orders-dlq",
                "--to",
                "orders",
                "--to-profile",
                "replay",
                "--yes",
                "-vv",
            ]);
            cmd
        },
        "",
    );
    run.assert_code(0);
    for secret in [
        "AKIAREPLAYEXAMPLE777",
        "replay-secret-never-shown-0123456789",
    ] {
        assert!(!run.stderr.contains(secret), "{}", run.stderr);
        assert!(!run.stdout.contains(secret), "{}", run.stdout);
    }
    assert!(
        run.stderr.contains("destination: region eu-west-1")
            && run.stderr.contains("profile replay"),
        "{}",
        run.stderr
    );
    assert_eq!(drain_with(&env, &west, &orders).len(), 3);
    assert_eq!(env.depth(&dlq), 0);
    // A profile that does not exist: named, with those that do, before anything is read.
    env.send(&dlq, numbered("p", 1));
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--to-profile",
        "relay",
        "--yes",
    ]);
    run.assert_code(1);
    assert!(
        run.stderr
            .contains("the AWS profile `relay` does not exist")
            && run
                .stderr
                .contains("hint: check --to-profile; the profiles that exist: replay"),
        "{}",
        run.stderr
    );
    assert_eq!(env.depth(&dlq), 1);
}

#[test]
fn a_journal_records_how_the_destination_is_reached_and_resume_reaches_it() {
    let env = TestEnv::start();
    let (dlq, west, orders) = across_regions(&env);
    second_profile(&env);
    let journal = env.home().join("west.jsonl");
    let journal = journal.to_str().unwrap();
    let run = env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--to-profile",
        "replay",
        "--max",
        "1",
        "--journal",
        journal,
        "--yes",
    ]);
    run.assert_code(0);
    let plan: Value = serde_json::from_str(
        std::fs::read_to_string(journal)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        plan["data"]["destination_access"],
        serde_json::json!({"region": "eu-west-1", "profile": "replay"}),
        "{plan}"
    );
    // A run cut short, of the whole DLQ: its plan without the limit, and no closing line.
    let mut unlimited = plan.clone();
    unlimited["data"]["limit"] = Value::Null;
    let mut lines: Vec<String> = vec![unlimited.to_string()];
    lines.extend(
        std::fs::read_to_string(journal)
            .unwrap()
            .lines()
            .skip(1)
            .filter(|l| !l.contains(r#""type":"completed""#))
            .map(str::to_string),
    );
    std::fs::write(journal, lines.join("\n") + "\n").unwrap();
    let run = env.run(&["redrive", "--resume", journal, "--yes"]);
    run.assert_code(0);
    assert_eq!(drain_with(&env, &west, &orders).len(), 3, "{}", run.stderr);
    assert_eq!(env.depth(&dlq), 0);
    env.send(&dlq, numbered("t", 2));
    // A profile that is gone: the resume says it cannot reach the destination, moving nothing.
    std::fs::write(env.home().join("aws-config"), "").unwrap();
    std::fs::write(env.home().join("aws-credentials"), "").unwrap();
    std::fs::write(journal, lines.join("\n") + "\n").unwrap();
    let run = env.run(&["redrive", "--resume", journal, "--yes"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr
            .contains("cannot reach the journal's destination orders")
            && run.stderr.contains("replay"),
        "{}",
        run.stderr
    );
    assert_eq!(env.depth(&dlq), 2);
}

#[test]
fn the_question_before_a_copy_says_the_dlq_keeps_its_messages() {
    let env = TestEnv::start();
    let dlq = env.create_queue("orders-dlq", &[]);
    env.create_queue("orders-replay", &[]);
    env.send(&dlq, numbered("q", 2));
    let mut pty = env.pty(
        &["redrive", "orders-dlq", "--to", "orders-replay", "--copy"],
        &[],
    );
    pty.expect("[y/N]", 20);
    pty.send("n\r");
    assert_eq!(pty.wait(10), 6, "{}", pty.screen());
    let screen = pty.screen();
    let question = screen
        .lines()
        .find(|line| line.contains("[y/N]"))
        .unwrap_or_default()
        .trim()
        .to_string();
    assert_snapshot!(question);
    assert_eq!(env.depth(&dlq), 2);
}

/// A server whose queues hold at most `limit` messages in flight (`--max-in-flight`), like SQS
/// apart from second deliveries when the like-SQS pass asks for it: the tests below count each
/// message once.
fn env_with_in_flight_limit(limit: usize) -> TestEnv {
    let seed = crate::support::like_sqs_seed();
    let realism = match seed {
        Some(_) => sqsctl::local::Realism {
            duplicate_rate: 0.0,
            ..sqsctl::local::Realism::LIKE_SQS
        },
        None => sqsctl::local::Realism::EXACT,
    };
    TestEnv::start_with(sqsctl::local::ServerConfig {
        inspection: false,
        realism,
        seed,
        max_in_flight: limit,
        ..sqsctl::local::ServerConfig::default()
    })
}

#[test]
fn a_copy_stops_at_the_in_flight_limit_releases_what_it_holds_and_exits_3() {
    let env = env_with_in_flight_limit(50);
    let dlq = env.create_queue("big-dlq", &[]);
    let replay = env.create_queue("big-replay", &[]);
    env.send(&dlq, numbered("m", 200));
    let run = env.run(&[
        "redrive",
        "big-dlq",
        "--to",
        "big-replay",
        "--copy",
        "--concurrency",
        "8",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(PARTIAL);
    let summary = summary(&run);
    assert_eq!(summary["in_flight_limit"], true, "{summary}");
    let copied = summary["moved"].as_u64().unwrap();
    assert!((1..=50).contains(&copied), "{summary}");
    assert_eq!(
        summary["maybe_left"].as_u64().unwrap(),
        200 - copied,
        "{summary}"
    );
    assert!(
        run.stderr.contains("limit of messages in flight")
            && run.stderr.contains(&format!("about {}", 200 - copied)),
        "{}",
        run.stderr
    );
    // Each copied message once in the destination; the DLQ as it was, every message visible.
    let sent = counts(&env.drain(&replay));
    assert_eq!(sent.len() as u64, copied);
    assert!(sent.values().all(|&n| n == 1), "{sent:?}");
    let attrs = env.settled_attributes(&dlq);
    assert_eq!((attrs.visible(), attrs.in_flight()), (200, 0));
    assert_eq!(counts(&env.drain(&dlq)), expected("m", 200));
}

#[test]
fn a_move_at_the_in_flight_limit_waits_for_its_deletes_and_moves_everything() {
    let env = env_with_in_flight_limit(20);
    let dlq = env.create_queue("busy-dlq", &[]);
    let replay = env.create_queue("busy-replay", &[]);
    env.send(&dlq, numbered("m", 200));
    let run = env.run(&[
        "redrive",
        "busy-dlq",
        "--to",
        "busy-replay",
        "--concurrency",
        "8",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let summary = summary(&run);
    assert_eq!(summary["moved"], 200, "{summary}");
    assert!(summary.get("in_flight_limit").is_none(), "{summary}");
    assert_eq!(counts(&env.drain(&replay)), expected("m", 200));
    assert!(env.drain(&dlq).is_empty());
}
