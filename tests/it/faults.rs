//! `send` and `receive` through the binary against a local server that injects faults (throttling,
//! 5xx, and "ambiguous" 500s answered after the server applied the request): with the one retry
//! policy every line goes out and every message comes in, a message that may have been sent is
//! never reported as failed, and a run that stops says where to resume.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use sqsctl_core::client::{Delete, SystemAttributes};

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use sqsctl::client::{QueueRef, ReceiveOptions, RetryPolicy};
use sqsctl::local::ServerConfig;
use support::TestEnv;

fn faulty(fault_rate: f64, seed: u64) -> TestEnv {
    TestEnv::start_with(ServerConfig {
        inspection: false,
        fault_rate,
        seed: Some(seed),
        ..ServerConfig::default()
    })
}

/// The test's own calls retry fast and long: they only set up and check.
fn patient() -> RetryPolicy {
    RetryPolicy {
        first_backoff: Duration::from_millis(2),
        max_backoff: Duration::from_millis(20),
        max_attempts: 200,
        ..RetryPolicy::default()
    }
}

/// Creates a queue through the faults.
fn create_queue(env: &TestEnv, name: &str) -> QueueRef {
    let policy = patient();
    env.block_on(policy.request(|| env.sqs().create_queue(name, Default::default())))
        .result
        .expect("queue created")
}

fn lines(prefix: &str, count: usize) -> Vec<String> {
    (1..=count).map(|i| format!("{prefix}-{i}")).collect()
}

/// The body of every message in a queue, with how many copies it has, each message counted once
/// by its id however often a lost delete brings it back. Advances the server clock to bring back
/// messages that a lost receive hid. Leaves the queue empty.
fn drain_counts(env: &TestEnv, queue: &QueueRef) -> HashMap<String, usize> {
    let policy = patient();
    let mut seen: HashSet<String> = HashSet::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    env.block_on(async {
        for _ in 0..20 {
            let mut empty = 0;
            while empty < 3 {
                let options = ReceiveOptions {
                    max_messages: 10,
                    wait_seconds: Some(0),
                    visibility_timeout: Some(600),
                };
                let Ok(batch) = env
                    .sqs()
                    .receive_retrying(queue, options, SystemAttributes::All, &policy)
                    .await
                    .result
                else {
                    continue;
                };
                if batch.is_empty() {
                    empty += 1;
                    continue;
                }
                let handles: Vec<&str> = batch
                    .iter()
                    .filter_map(|m| m.receipt_handle.as_deref())
                    .collect();
                env.sqs()
                    .batch_retrying(Delete, queue, &handles, &policy)
                    .await;
                for message in &batch {
                    if seen.insert(message.message_id.clone().unwrap()) {
                        *counts.entry(message.body.clone()).or_default() += 1;
                    }
                }
            }
            let total = policy.request(|| env.sqs().attributes(queue)).await.result;
            if total.is_ok_and(|attrs| attrs.total() == 0) {
                return;
            }
            env.server().clock().advance(Duration::from_secs(700));
        }
        panic!("{queue:?} does not drain");
    });
    counts
}

fn depth(env: &TestEnv, queue: &QueueRef) -> u64 {
    let policy = patient();
    env.block_on(policy.request(|| env.sqs().attributes(queue)))
        .result
        .unwrap()
        .total()
}

fn bodies_of(records: &[serde_json::Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| r["record"]["body"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn send_lines_under_faults_puts_every_line_in_the_queue() {
    let env = faulty(0.2, 11);
    let queue = create_queue(&env, "faulty-send");
    let input = lines("line", 3000);
    let run = env.run_stdin(
        &["send", "faulty-send", "--lines"],
        &(input.join("\n") + "\n"),
    );
    run.assert_code(0);
    let summary = &run.records_of("summary")[0];
    assert_eq!(summary["sent"], 3000, "{}", run.stderr);
    assert!(summary.get("stopped_at_line").is_none(), "{summary}");
    assert!(
        env.server().stats().injected_errors > 0,
        "faults were injected"
    );
    let counts = drain_counts(&env, &queue);
    for line in &input {
        assert!(counts.contains_key(line), "{line} is not in the queue");
    }
}

#[test]
fn receive_until_empty_delete_under_faults_writes_every_message_it_deletes() {
    let env = faulty(0.2, 12);
    let queue = create_queue(&env, "faulty-receive");
    let input = lines("msg", 3000);
    env.run_stdin(
        &["send", "faulty-receive", "--lines"],
        &(input.join("\n") + "\n"),
    )
    .assert_code(0);
    let before = depth(&env, &queue);
    assert!(before >= 3000, "{before}");
    // A short visibility timeout: messages hidden by a receive that failed after the server
    // applied it come back within seconds, and the run waits for them.
    let run = env.run(&[
        "receive",
        "faulty-receive",
        "--until-empty",
        "--delete",
        "--yes",
        "--visibility",
        "3",
    ]);
    run.assert_code(0);
    let written = run.records_of("message");
    let ids: HashSet<&str> = written
        .iter()
        .map(|m| m["message_id"].as_str().unwrap())
        .collect();
    let bodies: HashSet<&str> = written
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    for line in &input {
        assert!(bodies.contains(line.as_str()), "{line} was not delivered");
    }
    assert_eq!(depth(&env, &queue), 0, "{}", run.stderr);
    // Every message that left the queue was written: as many distinct messages were written as
    // the queue held.
    assert_eq!(ids.len() as u64, before, "{}", run.stderr);
}

#[test]
fn send_under_heavy_faults_reports_no_queued_message_as_failed() {
    let env = faulty(0.6, 13);
    let queue = create_queue(&env, "heavy");
    let input = lines("heavy", 400);
    let run = env.run_stdin(&["send", "heavy", "--lines"], &(input.join("\n") + "\n"));
    assert!(matches!(run.code, 0 | 1 | 3), "{}", run.stderr);
    let summary = run.records_of("summary")[0].clone();
    let failed = bodies_of(&run.records_of("failed"));
    let unknown = bodies_of(&run.records_of("unknown"));
    assert_eq!(summary["failed"], failed.len(), "{summary}");
    assert_eq!(summary["unknown"], unknown.len(), "{summary}");
    let counts = drain_counts(&env, &queue);
    for body in &failed {
        assert!(
            !counts.contains_key(body),
            "{body} is reported failed but is in the queue"
        );
    }
    // Lines before the resume point were sent or are listed; from it on, nothing was sent.
    let resume = match run.code {
        1 => {
            let line = summary["stopped_at_line"].as_u64();
            let line = line.unwrap_or_else(|| panic!("an aborted run names its line: {summary}"));
            assert!(
                line as usize > input.len() || run.stderr.contains(&format!("tail -n +{line}")),
                "{}",
                run.stderr
            );
            line as usize
        }
        _ => input.len() + 1,
    };
    let listed: HashSet<&String> = failed.iter().chain(&unknown).collect();
    for (index, line) in input.iter().enumerate() {
        if index + 1 < resume {
            assert!(
                counts.contains_key(line) || listed.contains(line),
                "{line} is neither in the queue nor listed"
            );
        } else {
            assert!(
                !counts.contains_key(line),
                "{line} was sent after the resume point"
            );
        }
    }
    if !unknown.is_empty() {
        assert!(run.stderr.contains("standard queue"), "{}", run.stderr);
    }
}
