//! `receive` without `--delete` is a read, and follows the read guard that `peek` follows: it says
//! what each read cost, warns when a message it returned is one receive (or none) away from the
//! dead-letter queue, refuses the read that would move what the last one left at the limit (and a
//! queue whose `maxReceiveCount` is 1 or 2) without `--force`, and says when a read moved
//! messages to the dead-letter queue (exit 5). A follow without `--delete` on a queue with a
//! redrive policy is refused without `--force`.

use crate::receive::{counts, send_bodies};
use crate::support::snapshot::{assert_snapshot, transcript};
use crate::support::{TestEnv, unique_name};
use sqsctl::client::{QueueRef, ReceiveOptions};

/// A queue whose redrive policy moves messages to `NAME-dlq` after `max` receives.
fn with_dlq(env: &TestEnv, name: &str, max: u32) -> (QueueRef, QueueRef) {
    let dlq = env.create_queue(&format!("{name}-dlq"), &[]);
    let policy = format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":{max}}}"#,
        env.arn(&dlq)
    );
    (env.create_queue(name, &[("RedrivePolicy", &policy)]), dlq)
}

#[test]
fn repeated_receives_without_delete_warn_then_refuse_before_the_dead_letter_queue() {
    // Each run's warnings follow the receive count each message came with, which a second
    // delivery by SQS would raise.
    let env = TestEnv::delivered_once("the warnings follow each message's receive count");
    let name = unique_name("ro");
    let (queue, dlq) = with_dlq(&env, &name, 3);
    send_bodies(&env, &queue, &["a".into(), "b".into(), "c".into()]);
    let args = [
        "receive",
        &name,
        "--max",
        "10",
        "--visibility",
        "2",
        "--wait",
        "1",
        "-o",
        "text",
    ];
    let mut transcripts = Vec::new();
    for round in 1..=4 {
        let run = env.run(&args);
        if round < 4 {
            run.assert_code(0);
            let mut lines: Vec<&str> = run.stdout.lines().collect();
            lines.sort_unstable();
            assert_eq!(lines, ["a", "b", "c"], "round {round}: {}", run.stderr);
        } else {
            run.assert_code(1);
            assert!(run.stdout.is_empty(), "{}", run.stdout);
        }
        transcripts.push(transcript(&args, &run));
        assert_eq!(counts(&env, &dlq), (0, 0), "round {round}: {}", run.stderr);
        // Back in the queue before the next read.
        std::thread::sleep(std::time::Duration::from_millis(2300));
    }
    assert_snapshot!(
        transcripts.join("\n"),
        r"ro-[0-9a-f]{12}" => "ro-xxxxxxxxxxxx",
        r"\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\)" => "(YYYY-MM-DDTHH:MM:SSZ)",
    );
    assert_eq!(counts(&env, &queue), (3, 0));

    // --delete consumes on purpose: the guard does not stand in its way, and its receive, as any
    // consumer's, moves what was left at the limit to the dead-letter queue.
    let run = env.run(&[
        "receive", &name, "--max", "10", "--delete", "--yes", "--wait", "1",
    ]);
    run.assert_code(0);
    assert!(run.stderr.contains("deleted 0"), "{}", run.stderr);
    assert_eq!(counts(&env, &dlq), (3, 0));
}

#[test]
fn a_max_receive_count_of_2_and_a_follow_without_delete_are_refused_without_force() {
    let env = TestEnv::start();
    let name = unique_name("two");
    let (queue, dlq) = with_dlq(&env, &name, 2);
    send_bodies(&env, &queue, &["x".into()]);
    let refused = ["receive", &name];
    let run = env.run(&refused);
    run.assert_code(1);
    let mut out = transcript(&refused, &run);
    let five = unique_name("five");
    with_dlq(&env, &five, 5);
    let follow_five = ["receive", &five, "--follow"];
    let run = env.run(&follow_five);
    run.assert_code(1);
    out.push_str(&transcript(&follow_five, &run));
    assert_snapshot!(
        out,
        r"two-[0-9a-f]{12}" => "two-xxxxxxxxxxxx",
        r"five-[0-9a-f]{12}" => "five-xxxxxxxxxxxx",
    );
    assert_eq!(counts(&env, &queue), (1, 0), "nothing was received");

    let run = env.run(&["receive", &name, "--force", "--wait", "1"]);
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 1, "{}", run.stderr);
    // A --like-sqs server may deliver the message twice in that run, as SQS may: it then used
    // both of its receives.
    let said = if env.server().stats().duplicate_deliveries == 0 {
        "1 message is now one receive away"
    } else {
        "1 message is now at maxReceiveCount 2"
    };
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert_eq!(counts(&env, &dlq), (0, 0));
}

/// A message its consumers brought to `maxReceiveCount` moves to the DLQ on the next receive: a
/// read that does that says so and exits 5.
#[test]
fn a_receive_that_moves_messages_to_the_dead_letter_queue_says_so() {
    let env = TestEnv::exact(
        "the dead-letter queue's depth is measured right after the read, and like-SQS counts lag",
    );
    let name = unique_name("tired");
    let (queue, dlq) = with_dlq(&env, &name, 3);
    send_bodies(&env, &queue, &["p".into()]);
    env.block_on(async {
        for _ in 0..3 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(0),
            };
            let batch = env.sqs().receive(&queue, options).await.unwrap();
            assert_eq!(batch.len(), 1);
        }
    });
    let run = env.run(&["receive", &name, "--wait", "1"]);
    run.assert_code(5);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("1 message arrived in the dead-letter queue"),
        "{}",
        run.stderr
    );
    assert_eq!(counts(&env, &dlq), (1, 0));
}
