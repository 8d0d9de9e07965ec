//! `queues` and `queue info|create|delete` through the real binary against the local server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::process::Stdio;

use sqsctl::message::MessageRecord;
use support::TestEnv;
use support::snapshot::assert_snapshot;

fn queue_exists(env: &TestEnv, name: &str) -> bool {
    env.block_on(env.sqs().resolve(name)).is_ok()
}

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

    let run = env.run(&["queue", "info", "orders"]);
    run.assert_code(0);
    let info = &run.records_of("queue_info")[0];
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
fn queues_lists_depths_type_and_dlq_with_a_prefix_filter() {
    let env = TestEnv::start();
    let dlq_arn = env.server().queue_arn("app-dlq");
    env.create_queue("app-dlq", &[]);
    let policy = format!("{{\"deadLetterTargetArn\":\"{dlq_arn}\",\"maxReceiveCount\":\"3\"}}");
    let app = env.create_queue("app-main", &[("RedrivePolicy", &policy)]);
    env.create_queue("app-jobs.fifo", &[("FifoQueue", "true")]);
    env.create_queue("other", &[]);
    let records: Vec<MessageRecord> = (0..3)
        .map(|i| MessageRecord::with_body(format!("{i}")))
        .collect();
    env.block_on(env.sqs().send_batch(&app, &records)).unwrap();

    let run = env.run(&["queues", "app"]);
    run.assert_code(0);
    let rows = run.records_of("queue");
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["app-dlq", "app-jobs.fifo", "app-main"]);
    let main = &rows[2];
    assert_eq!(main["visible"], 3);
    assert_eq!(main["in_flight"], 0);
    assert_eq!(main["delayed"], 0);
    assert_eq!(main["dlq"], "app-dlq");
    assert_eq!(main["max_receive_count"], 3);
    assert_eq!(rows[1]["fifo"], true);
    assert_eq!(rows[0]["fifo"], false);

    let run = env.run(&["queues"]);
    assert_eq!(run.records_of("queue").len(), 4);

    let table = env.run_tty(&["queues"], "");
    table.assert_code(0);
    assert_snapshot!(name: "queues_table", table.stdout);

    let json = env.run(&["queues", "app-m", "-o", "json"]);
    json.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc.as_array().unwrap().len(), 1);

    let run = env.run(&["queues", "bad prefix"]);
    run.assert_code(2);
}

#[test]
fn queue_delete_asks_first_and_dry_run_changes_nothing() {
    let env = TestEnv::start();
    env.create_queue("scratch", &[]);
    let run = env.run(&["queue", "delete", "scratch"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
    let run = env.run(&["queue", "delete", "scratch", "--dry-run"]);
    run.assert_code(0);
    assert!(queue_exists(&env, "scratch"));
    let run = env.run_tty(&["queue", "delete", "scratch"], "no\n");
    run.assert_code(1);
    assert!(queue_exists(&env, "scratch"));
    let run = env.run_tty(&["queue", "delete", "scratch"], "y\n");
    run.assert_code(0);
    assert!(
        run.stderr.contains("Delete queue `scratch`"),
        "{}",
        run.stderr
    );
    assert!(!queue_exists(&env, "scratch"));
}

#[test]
fn unknown_queues_get_a_did_you_mean_hint() {
    let env = TestEnv::start();
    env.create_queue("invoices.fifo", &[("FifoQueue", "true")]);
    let run = env.run(&["queue", "info", "invoices"]);
    run.assert_code(1);
    assert_snapshot!(name: "did_you_mean", run.stderr);
    let run = env.run(&["queue", "delete", "zzz-nothing", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_such_queue", run.stderr);
    let run = env.run(&["queue", "info", "arn:aws:sns:us-east-1:1:topic"]);
    run.assert_code(2);
    // A queue of the same name in the working region must not stand in for one in another region.
    env.create_queue("ledger", &[]);
    let run = env.run(&["queue", "info", "arn:aws:sqs:eu-west-1:000000000000:ledger"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "queue_in_another_region", run.stderr);
    let arn = env.server().queue_arn("ledger");
    env.run(&["queue", "info", &arn]).assert_code(0);
}

/// Every command that takes a queue name looks it up the same way: a typo gets the same
/// suggestion from redrive (its DLQ and --to), diagnose and queue set (--allow-sources).
#[test]
fn every_command_suggests_the_queue_a_typo_meant() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    env.create_queue("orders-dlq", &[]);
    for args in [
        &["redrive", "ordres-dlq", "--to", "orders", "--dry-run"][..],
        &["redrive", "orders-dlq", "--to", "ordrs", "--dry-run"],
        &["diagnose", "ordres"],
        &[
            "queue",
            "set",
            "orders-dlq",
            "--allow-sources",
            "ordrs",
            "--yes",
        ],
    ] {
        let run = env.run(args);
        assert_ne!(run.code, 0, "{args:?}");
        assert!(
            run.stderr.contains("hint: did you mean `orders"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn the_local_server_keeps_regions_apart() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let eu = ["--region", "eu-west-1"];
    env.run(&[&eu[..], &["queue", "create", "orders"]].concat())
        .assert_code(0);
    env.run(&[&eu[..], &["queue", "create", "refunds"]].concat())
        .assert_code(0);
    env.run(&[&eu[..], &["send", "refunds", "r1"]].concat())
        .assert_code(0);
    let names = |run: &support::Run| -> Vec<String> {
        run.assert_code(0);
        run.records_of("queue")
            .iter()
            .map(|r| format!("{} {}", r["name"].as_str().unwrap(), r["visible"]))
            .collect()
    };
    assert_eq!(names(&env.run(&["queues"])), ["orders 0"]);
    assert_eq!(
        names(&env.run(&[&eu[..], &["queues"]].concat())),
        ["orders 0", "refunds 1"]
    );
    let info = env.run(&[&eu[..], &["queue", "info", "refunds"]].concat());
    info.assert_code(0);
    assert_eq!(
        info.records_of("queue_info")[0]["attributes"]["QueueArn"],
        "arn:aws:sqs:eu-west-1:000000000000:refunds"
    );
    // The wrong-region mistake, rehearsed locally.
    let run = env.run(&["queue", "info", "refunds"]);
    run.assert_code(1);
    assert_snapshot!(name: "queue_of_another_region_on_the_local_server", run.stderr);
}

#[test]
fn suggestions_need_real_similarity_and_another_account_is_named() {
    let env = TestEnv::start();
    for name in ["q", "a", "orders-dlq"] {
        env.create_queue(name, &[]);
    }
    let run = env.run(&["queue", "info", "ordres-dlq"]);
    run.assert_code(1);
    assert_snapshot!(name: "only_close_names", run.stderr);
    let run = env.run(&["queue", "info", "zz"]);
    run.assert_code(1);
    assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    // The queue of the same name in the caller's account must not be offered for another's.
    let arn = env.server().queue_arn("orders-dlq");
    let (prefix, _) = arn.rsplit_once(':').expect("an ARN");
    let (prefix, _) = prefix.rsplit_once(':').expect("an ARN");
    let run = env.run(&[
        "queue",
        "info",
        &format!("{prefix}:999999999999:orders-dlq"),
    ]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "another_account", run.stderr);
    let url = format!("{}/999999999999/orders-dlq", env.endpoint());
    let run = env.run(&["queue", "info", &url]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "another_account_url", run.stderr);
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
fn missing_credentials_get_a_credentials_error_and_hint_not_a_network_one() {
    let env = TestEnv::start();
    // With instance metadata off; and with a metadata endpoint that answers nonsense, which is
    // where the provider chain ends on a machine without credentials.
    let imds = [
        ("AWS_EC2_METADATA_DISABLED", "true"),
        ("AWS_EC2_METADATA_SERVICE_ENDPOINT", env.endpoint()),
    ];
    for (name, value) in imds {
        let output = env
            .cmd()
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .env_remove("AWS_EC2_METADATA_DISABLED")
            .env(name, value)
            .args(["queues"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert_snapshot!(name: name.to_lowercase(), stderr);
    }
}

#[test]
fn an_invalid_endpoint_url_is_a_usage_error_without_a_request_dump() {
    let env = TestEnv::start();
    let run = env.run(&["--endpoint-url", "notaurl", "queues"]);
    run.assert_code(2);
    assert_snapshot!(name: "invalid_endpoint_flag", run.stderr);
    let output = env
        .cmd()
        .env("AWS_ENDPOINT_URL_SQS", "notaurl")
        .args(["queues"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_snapshot!(name: "invalid_endpoint_variable", stderr);
}
