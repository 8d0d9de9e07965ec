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
    // Stopped once it moved some (on a loaded machine the start alone can take a second).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while std::time::Instant::now() < deadline
        && !std::fs::read_to_string(&journal).is_ok_and(|text| text.contains("\"deleted\""))
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
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

/// Three processes on one DLQ of a `--like-sqs` server, over ten seeds: SQS may hand one message
/// to two of them at once, and neither can see that the other sent it too. Each summary says only
/// what its process saw: no line claims more than "each sent once by it", and the bound the docs
/// give for several processes holds: duplicates <= the possible duplicates and undeleted sends
/// the summaries count, plus the second deliveries SQS made (which the server counts; no process
/// can).
#[test]
fn three_processes_on_one_dlq_report_what_each_saw_and_the_bound_holds_over_ten_seeds() {
    let total = 1_500;
    for seed in 1..=10u64 {
        let env = TestEnv::like_sqs(seed);
        let dlq = env.create_queue("m-dlq", &[]);
        let destination = env.create_queue("m", &[]);
        env.send(
            &dlq,
            (0..total)
                .map(|i| MessageRecord::with_body(format!("m-{i}")))
                .collect(),
        );
        let before = env.server().stats().duplicate_deliveries;
        let children: Vec<std::process::Child> = (0..3)
            .map(|i| {
                let journal = env.home().join(format!("m-{i}.jsonl"));
                env.spawn_piped(&[
                    "redrive",
                    "m-dlq",
                    "--to",
                    "m",
                    "--yes",
                    "-o",
                    "json",
                    "--concurrency",
                    "4",
                    "--journal",
                    journal.to_str().unwrap(),
                ])
            })
            .collect();
        let mut counted = 0;
        let mut moved = 0;
        for child in children {
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(0), "seed {seed}: {stderr}");
            assert!(
                !stderr.contains("(each sent once)"),
                "seed {seed}: a summary claims more than its process saw: {stderr}"
            );
            let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
            moved += summary["moved"].as_u64().unwrap();
            counted += summary["possible_duplicates"].as_u64().unwrap()
                + summary["delete_failed"].as_u64().unwrap();
        }
        let second_deliveries = env.server().stats().duplicate_deliveries - before;
        let bodies = env.drain_bodies(&destination);
        let distinct: BTreeSet<&str> = bodies.iter().map(String::as_str).collect();
        let duplicates = (bodies.len() - distinct.len()) as u64;
        eprintln!(
            "seed {seed}: moved {moved}, {duplicates} duplicates; counted {counted}, {second_deliveries} second deliveries by SQS"
        );
        assert_eq!(distinct.len(), total, "seed {seed}: every message arrived");
        assert_eq!(env.depth(&dlq), 0, "seed {seed}: the DLQ is empty");
        assert!(
            duplicates <= counted + second_deliveries,
            "seed {seed}: {duplicates} duplicates > {counted} counted + {second_deliveries} second deliveries"
        );
    }
}
