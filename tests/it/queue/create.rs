//! `queue create` and `queue info`: a queue and its DLQ are created together or not at all, FIFO
//! names and types must agree, and `info` decodes what was set.

use sqsctl::message::MessageRecord;

use super::queue_exists;
use crate::support::TestEnv;
use crate::support::snapshot::assert_snapshot;

#[test]
fn create_with_a_dlq_creates_the_dlq_and_info_decodes_the_policy() {
    let env = TestEnv::start();
    let run = env.run(&[
        "queue",
        "create",
        "orders",
        "--dlq",
        "orders-dlq",
        "--max-receive",
        "4",
        "--attr",
        "VisibilityTimeout=45",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let created = &run.records_of("queue_created")[0];
    assert_eq!(created["name"], "orders");
    assert_eq!(created["dead_letter_queue"]["name"], "orders-dlq");
    assert_eq!(created["dead_letter_queue"]["created"], true);
    assert!(queue_exists(&env, "orders-dlq"));

    let dlq = env.block_on(env.sqs().resolve("orders-dlq")).unwrap();
    env.block_on(
        env.sqs()
            .send_batch(&dlq, &[MessageRecord::with_body("dead")]),
    )
    .unwrap();

    // The counts lag on a --like-sqs server, as on SQS, and say so.
    env.settle_counts();
    let run = env.run(&["queue", "info", "orders"]);
    run.assert_code(0);
    let info = &run.records_of("queue_info")[0];
    assert_eq!(info["approximate_counts"], true);
    assert_eq!(info["attributes"]["VisibilityTimeout"], "45");
    assert_eq!(info["redrive_policy"]["max_receive_count"], 4);
    assert_eq!(
        info["redrive_policy"]["dead_letter_queue"]["name"],
        "orders-dlq"
    );
    assert_eq!(info["redrive_policy"]["dead_letter_queue"]["visible"], 1);
    assert_eq!(info["fifo"], false);

    let run = env.run(&["queue", "info", "orders-dlq"]);
    run.assert_code(0);
    let info = &run.records_of("queue_info")[0];
    assert_eq!(info["dead_letter_sources"], serde_json::json!(["orders"]));
    assert!(info.get("redrive_policy").is_none());

    let table = env.run_tty(&["queue", "info", "orders"], "");
    table.assert_code(0);
    assert_snapshot!(name: "queue_info_table", table.stdout, r"\b1\d{9}\b" => "xxxxxxxxxx");

    // An existing DLQ is reused.
    let run = env.run(&[
        "queue",
        "create",
        "billing",
        "--dlq",
        "orders-dlq",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    assert_eq!(
        run.records_of("queue_created")[0]["dead_letter_queue"]["created"],
        false
    );
}

#[test]
fn fifo_queues_need_fifo_names_and_fifo_dlqs() {
    let env = TestEnv::start();
    let run = env.run(&["queue", "create", "jobs", "--fifo"]);
    run.assert_code(2);
    assert!(run.stderr.contains("jobs.fifo"), "{}", run.stderr);
    assert!(!queue_exists(&env, "jobs"));

    let run = env.run(&["queue", "create", "jobs.fifo", "--dlq", "jobs-dlq"]);
    run.assert_code(2);
    assert!(run.stderr.contains("jobs-dlq.fifo"), "{}", run.stderr);
    assert!(!queue_exists(&env, "jobs.fifo"));

    let run = env.run(&["queue", "create", "jobs.fifo", "--dlq", "jobs-dlq.fifo"]);
    run.assert_code(0);
    let attrs = env
        .block_on(async {
            let dlq = env.sqs().resolve("jobs-dlq.fifo").await?;
            env.sqs().attributes(&dlq).await
        })
        .unwrap();
    assert!(attrs.is_fifo(), "the DLQ has the source's type");

    env.create_queue("plain-dlq", &[]);
    let run = env.run(&["queue", "create", "other.fifo", "--dlq", "plain-dlq"]);
    run.assert_code(2);
    assert!(run.stderr.contains("must be FIFO"), "{}", run.stderr);

    for bad in [
        vec!["queue", "create", "has space"],
        vec!["queue", "create", "ok", "--attr", "NoEquals"],
        vec!["queue", "create", "ok", "--max-receive", "3"],
        vec!["queue", "create", "ok", "--dlq", "d", "--max-receive", "0"],
    ] {
        let run = env.run(&bad);
        run.assert_code(2);
        assert!(run.stderr.contains("error"), "{bad:?}: {}", run.stderr);
    }
    assert!(!queue_exists(&env, "ok"));
}

#[test]
fn queue_create_of_an_existing_queue_changes_nothing_and_leaves_nothing_half_done() {
    let env = TestEnv::start();
    let run = env.run(&["queue", "create", "xq", "-o", "jsonl"]);
    run.assert_code(0);
    assert_eq!(run.records_of("queue_created")[0]["created"], true);

    let run = env.run(&["queue", "create", "xq", "-o", "jsonl"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("queue xq exists, unchanged"),
        "{}",
        run.stderr
    );
    assert_eq!(run.records_of("queue_created")[0]["created"], false);

    // The existing queue has no redrive policy: refused before any DLQ is created.
    let run = env.run(&["queue", "create", "xq", "--dlq", "xq-dlq"]);
    run.assert_code(1);
    assert!(run.stderr.contains("already exists"), "{}", run.stderr);
    assert!(!queue_exists(&env, "xq-dlq"), "no orphaned DLQ");

    // A queue that cannot be created takes back the DLQ created for it.
    let run = env.run(&[
        "queue",
        "create",
        "zq",
        "--dlq",
        "zq-dlq",
        "--attr",
        "VisibilityTimeout=99999",
    ]);
    run.assert_code(1);
    assert!(!queue_exists(&env, "zq"));
    assert!(!queue_exists(&env, "zq-dlq"), "{}", run.stderr);

    let run = env.run(&["queue", "create", "yq", "--dlq", "yq-dlq"]);
    run.assert_code(0);
    let run = env.run(&["queue", "create", "yq", "--dlq", "yq-dlq"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains("queue yq exists, unchanged"),
        "{}",
        run.stderr
    );
}

#[test]
fn create_on_an_existing_queue_points_at_queue_set() {
    let env = TestEnv::start();
    env.create_queue("slow", &[]);
    let run = env.run(&["queue", "create", "slow", "--attr", "VisibilityTimeout=60"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr
            .contains("`sqsctl queue set slow --attr NAME=VALUE`"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_aws_names_of_the_dlq_flags_are_accepted() {
    // People who know SQS type its own names: RedrivePolicy's deadLetterTargetArn and
    // maxReceiveCount.
    let env = TestEnv::start();
    let run = env.run(&[
        "queue",
        "create",
        "jobs",
        "--dead-letter-queue",
        "jobs-dlq",
        "--max-receive-count",
        "3",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    assert_eq!(
        run.records_of("queue_created")[0]["dead_letter_queue"]["name"],
        "jobs-dlq"
    );
    let run = env.run(&[
        "queue",
        "set",
        "jobs",
        "--dead-letter-queue",
        "jobs-dlq",
        "--max-receive-count",
        "7",
        "--yes",
    ]);
    run.assert_code(0);
    let info = env.run(&["queue", "info", "jobs", "-o", "json"]);
    assert!(
        info.stdout.contains("\"max_receive_count\": 7")
            || info.stdout.contains("\"max_receive_count\":7"),
        "{}",
        info.stdout
    );
}
