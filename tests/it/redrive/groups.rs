//! Group ids on standard queues (a fair queue's tenants) survive every move: `redrive`, its
//! archive copy, and `receive -o jsonl | send --jsonl`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use sqsctl::client::QueueRef;
use sqsctl::message::MessageRecord;

use crate::support::TestEnv;

/// Six messages, two per tenant `a`, `b`, `c`, and one without a group id.
fn tenants(env: &TestEnv, queue: &QueueRef) {
    let mut records: Vec<MessageRecord> = (0..6)
        .map(|i| MessageRecord {
            group_id: Some(["a", "b", "c"][i % 3].to_string()),
            ..MessageRecord::with_body(format!("t{i}"))
        })
        .collect();
    records.push(MessageRecord::with_body("solo"));
    env.send(queue, records);
}

/// Body -> group id of every message in `queue`, as `peek -o json` shows them.
fn groups_of(env: &TestEnv, queue: &str) -> BTreeMap<String, Option<String>> {
    let run = env.run(&["peek", queue, "-o", "json"]);
    run.assert_code(0);
    let records: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    records
        .iter()
        .map(|r| {
            (
                r["body"].as_str().unwrap().to_string(),
                r["group_id"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn expected() -> BTreeMap<String, Option<String>> {
    let mut map: BTreeMap<String, Option<String>> = (0..6)
        .map(|i| (format!("t{i}"), Some(["a", "b", "c"][i % 3].to_string())))
        .collect();
    map.insert("solo".into(), None);
    map
}

#[test]
fn redrive_between_standard_queues_keeps_each_tenant() {
    let env = TestEnv::start();
    let dlq = env.create_queue("fair-dlq", &[]);
    env.create_queue("fair", &[]);
    tenants(&env, &dlq);
    let archive = env.home().join("fair-archive.jsonl");
    let run = env.run(&[
        "redrive",
        "fair-dlq",
        "--to",
        "fair",
        "--yes",
        "--archive",
        archive.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert_eq!(groups_of(&env, "fair"), expected());
    let archived: BTreeMap<String, Option<String>> = std::fs::read_to_string(&archive)
        .unwrap()
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let record = if value["data"].is_object() {
                value["data"].clone()
            } else {
                value
            };
            let record: MessageRecord = serde_json::from_value(record).unwrap();
            (
                record.body.clone(),
                record.effective_group_id().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(archived, expected(), "the archive keeps them too");
}

#[test]
fn receive_piped_to_send_keeps_each_tenant() {
    let env = TestEnv::start();
    let source = env.create_queue("pipe-from", &[]);
    env.create_queue("pipe-to", &[]);
    tenants(&env, &source);
    let received = env.run(&[
        "receive",
        "pipe-from",
        "--until-empty",
        "--delete",
        "--yes",
        "-o",
        "jsonl",
    ]);
    received.assert_code(0);
    env.run_stdin(&["send", "pipe-to", "--jsonl"], &received.stdout)
        .assert_code(0);
    assert_eq!(groups_of(&env, "pipe-to"), expected());
}
