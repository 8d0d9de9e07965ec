//! `sqsctl redrive` against a `--like-sqs` server with a fixed seed, whatever
//! `SQSCTL_TEST_LIKE_SQS` says: SQS delivers some messages twice, and the run moves each message
//! once, counts it once, and says how many deliveries were second ones; its counts lag, and a
//! resumed run still moves every message the run was about.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::Value;
use sqsctl::local::{Realism, ServerConfig};
use sqsctl::message::MessageRecord;

use crate::support::{self, TestEnv};

/// A seed under which SQS hands the run second deliveries of messages it is still moving as well
/// as of messages it has moved.
const SEED: u64 = 7;

#[test]
fn five_thousand_messages_each_move_once_and_moved_counts_distinct_messages() {
    let env = TestEnv::like_sqs(SEED);
    let dlq = env.create_queue("big-dlq", &[]);
    let destination = env.create_queue("big", &[]);
    let total = 5_000;
    let input: String = (0..total)
        .map(|i| format!("{{\"body\":\"m-{i}\"}}\n"))
        .collect();
    env.run_stdin(&["send", "big-dlq", "--jsonl"], &input)
        .assert_code(0);
    let run = env.run(&["redrive", "big-dlq", "--to", "big", "--yes", "-o", "json"]);
    run.assert_code(0);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["moved"], total, "{summary}");
    let twice = summary["delivered_twice"].as_u64().unwrap();
    assert!(twice > 0, "SQS delivered some messages twice: {summary}");
    assert!(
        run.stderr.contains(&format!(
            "{twice} delivered twice by SQS to this run (each sent once by it)"
        )),
        "{}",
        run.stderr
    );
    // Each message arrived, and none was sent twice (a second send would be a second message, with
    // an id of its own and the same body).
    let bodies: Vec<String> = env.drain_bodies(&destination);
    let distinct: BTreeSet<&str> = bodies.iter().map(String::as_str).collect();
    assert_eq!(distinct.len(), total, "every message arrived");
    assert_eq!(bodies.len(), total, "none was sent twice");
    assert_eq!(env.depth(&dlq), 0);
}

/// SQS's counts lag (about a minute), so the DLQ's depth a run reads at its start can be short of
/// what the DLQ holds. A resume of that run still moves every message that was in the DLQ before
/// the run started, and ends as a new run does, on a long poll that finds the DLQ empty.
#[test]
fn a_resume_moves_every_message_of_the_run_whatever_the_lagging_depth_read_at_its_start() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        realism: Realism {
            count_lag: Duration::from_secs(60),
            ..Realism::LIKE_SQS
        },
        seed: Some(SEED),
        ..ServerConfig::default()
    });
    let dlq = env.create_queue("lag-dlq", &[]);
    let destination = env.create_queue("lag", &[]);
    let batch = |from: usize, to: usize| {
        (from..to)
            .map(|i| MessageRecord::with_body(format!("m-{i}")))
            .collect()
    };
    env.send(&dlq, batch(0, 10));
    let counted = env.block_on(env.sqs().attributes(&dlq)).unwrap().total();
    assert_eq!(counted, 10);
    // Sent before the run starts, but the DLQ's count will not show them for a minute.
    env.send(&dlq, batch(10, 50));
    let journal = env.home().join("lag.jsonl").display().to_string();
    let child = env
        .cmd()
        .args([
            "redrive",
            "lag-dlq",
            "--to",
            "lag",
            "--yes",
            "-o",
            "json",
            "--rate",
            "10",
            "--concurrency",
            "1",
            "--journal",
            &journal,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert_eq!(
        plan.dlq_depth_at_start,
        Some(10),
        "the run read the lagging count"
    );
    assert!(
        state.moved_before > 0 && state.moved_before < 50,
        "the run was stopped halfway: {} moved",
        state.moved_before
    );
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["arrived_later"], 0, "{summary}");
    let moved: BTreeSet<String> = env.drain_bodies(&destination).into_iter().collect();
    assert_eq!(moved.len(), 50, "every message moved: {summary}");
    assert!(env.drain(&dlq).is_empty(), "none left in the DLQ");
}
