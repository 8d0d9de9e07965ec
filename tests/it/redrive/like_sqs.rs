//! `sqsctl redrive` against a `--like-sqs` server with a fixed seed, whatever
//! `SQSCTL_TEST_LIKE_SQS` says: SQS delivers some messages twice, and the run moves each message
//! once, counts it once, and says how many deliveries were second ones.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::TestEnv;

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
        run.stderr
            .contains(&format!("{twice} delivered twice by SQS (each sent once)")),
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
