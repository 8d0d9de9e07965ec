//! `client::peek::scan` against the local server: it sees each message once, leaves every message
//! visible afterwards, and never reads a queue whose redrive policy a read could trigger.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::ops::ControlFlow;

use sqsctl::client::peek::{self, PeekError, PeekOptions};
use sqsctl::client::{QueueAttributes, QueueRef};
use sqsctl::interrupt::Interrupt;
use sqsctl::message::MessageRecord;
use support::TestEnv;

fn send_bodies(env: &TestEnv, queue: &QueueRef, bodies: impl Iterator<Item = String>) {
    env.send(queue, bodies.map(MessageRecord::with_body).collect());
}

/// `peek::scan` of `queue` with `options`, not interrupted.
fn scan<F>(
    env: &TestEnv,
    queue: &QueueRef,
    attrs: &QueueAttributes,
    options: PeekOptions,
    on_batch: F,
) -> Result<peek::Scanned, PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let request = peek::ReadRequest {
        sqs: env.sqs(),
        queue,
        attrs,
        options,
        interrupt: &Interrupt::default(),
    };
    env.block_on(peek::scan(&request, on_batch))
}

#[test]
fn scan_sees_every_message_once_and_leaves_them_all_visible() {
    let env = TestEnv::start();
    let queue = env.create_queue("scan-all", &[]);
    send_bodies(&env, &queue, (0..95).map(|i| format!("m{i}")));
    let attrs = env.settled_attributes(&queue);
    let mut bodies = Vec::new();
    let options = PeekOptions {
        max: None,
        ..PeekOptions::default()
    };
    let scanned = scan(&env, &queue, &attrs, options, |batch| {
        bodies.extend(batch.into_iter().map(|m| m.body));
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(scanned.seen, 95);
    assert!(scanned.exhausted);
    assert_eq!(scanned.release_failed, 0);
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 95, "each message handed over exactly once");
    let after = env.settled_attributes(&queue);
    assert_eq!(
        (after.visible(), after.in_flight()),
        (95, 0),
        "everything visible again"
    );
}

#[test]
fn scan_stops_at_max_and_when_the_caller_breaks() {
    let env = TestEnv::start();
    let queue = env.create_queue("scan-max", &[]);
    send_bodies(&env, &queue, (0..40).map(|i| format!("m{i}")));
    let attrs = env.settled_attributes(&queue);
    let options = PeekOptions {
        max: Some(13),
        ..PeekOptions::default()
    };
    let scanned = scan(&env, &queue, &attrs, options, |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(scanned.seen, 13);
    assert!(!scanned.exhausted);
    let options = PeekOptions {
        max: None,
        ..PeekOptions::default()
    };
    let mut batches = 0;
    scan(&env, &queue, &attrs, options, |_| {
        batches += 1;
        ControlFlow::Break(())
    })
    .unwrap();
    assert_eq!(batches, 1);
    assert_eq!(env.settled_attributes(&queue).visible(), 40);
}

#[test]
fn scan_refuses_a_queue_with_a_redrive_policy_and_moves_nothing() {
    let env = TestEnv::start();
    let dlq = env.create_queue("guarded-dlq", &[]);
    let dlq_arn = env.arn(&dlq);
    let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}"#);
    let queue = env.create_queue("guarded", &[("RedrivePolicy", &policy)]);
    send_bodies(&env, &queue, (0..5).map(|i| format!("m{i}")));
    let attrs = env.settled_attributes(&queue);
    for _ in 0..3 {
        let options = PeekOptions::default();
        let result = scan(&env, &queue, &attrs, options, |_| ControlFlow::Continue(()));
        assert!(
            matches!(
                result,
                Err(PeekError::WouldDeadLetter {
                    max_receive_count: 1,
                    ..
                })
            ),
            "{result:?}"
        );
    }
    assert_eq!(env.depth(&queue), 5);
    assert_eq!(env.depth(&dlq), 0, "nothing reached the dead-letter queue");
}

/// A server whose counts lag a minute behind, as SQS's can: a read right after sends sees more
/// messages than the counts hold.
fn counts_a_minute_behind() -> TestEnv {
    TestEnv::start_with(sqsctl::local::ServerConfig {
        inspection: false,
        realism: sqsctl::local::Realism {
            count_lag: std::time::Duration::from_secs(60),
            ..sqsctl::local::Realism::LIKE_SQS
        },
        seed: Some(3),
        ..sqsctl::local::ServerConfig::default()
    })
}

#[test]
fn scan_of_a_peek_that_outruns_lagging_counts_says_so() {
    let env = counts_a_minute_behind();
    let queue = env.create_queue("fresh", &[("ReceiveMessageWaitTimeSeconds", "1")]);
    env.block_on(env.sqs().attributes(&queue)).unwrap();
    send_bodies(&env, &queue, (0..5).map(|i| format!("m{i}")));
    let run = env.run(&["peek", "fresh", "--max", "10", "-o", "text"]);
    run.assert_code(0);
    let mut shown: Vec<&str> = run.stdout.lines().collect();
    shown.sort_unstable();
    assert_eq!(shown, ["m0", "m1", "m2", "m3", "m4"], "{}", run.stderr);
    support::snapshot::assert_snapshot!(run.stderr);
    // Counts by key say what they cover in the same words.
    let mut cmd = env.cmd();
    cmd.args(["peek", "fresh", "--count-by", "body"])
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", "100");
    let run = support::run_with_stdin(cmd, "");
    run.assert_code(0);
    support::snapshot::assert_snapshot!(name: "counts", run.stdout);
}
