//! The rewrite stage of `sqsctl redrive`: what each message becomes between the DLQ and its
//! destination (a replaced body through the library, `--transform`, `--unwrap`, `--exec`), and the
//! guarantees a plain redrive gives kept with it: a failing rewrite leaves its message in the DLQ,
//! the journal records each rewritten message's digest, and `--resume` sends only what the first
//! run would have.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use sqsctl::client::{EntryOutcome, QueueRef};
use sqsctl::message::MessageRecord;
use sqsctl::redrive::{self, Journal, NewPlan, Plan, Rewrite, RouteRequest, RunOptions};
use support::TestEnv;

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
