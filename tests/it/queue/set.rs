//! `queue set` and `queue url` through the real binary against the local server: each option
//! changes what it says, bad input is refused before any call with the value and the limit named,
//! and a refused or declined change leaves the queue as it was.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::collections::BTreeMap;

use sqsctl::client::QueueRef;
use support::TestEnv;
use support::snapshot::{assert_snapshot, transcript};

fn attributes(env: &TestEnv, queue: &QueueRef) -> BTreeMap<String, String> {
    env.block_on(env.sqs().attributes(queue)).unwrap().0
}

fn redrive_policy(env: &TestEnv, queue: &QueueRef) -> Option<serde_json::Value> {
    attributes(env, queue)
        .get("RedrivePolicy")
        .filter(|v| !v.is_empty())
        .map(|v| serde_json::from_str(v).unwrap())
}

#[test]
fn durations_with_units_set_their_attributes() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let run = env.run(&[
        "queue",
        "set",
        "orders",
        "--visibility",
        "2m",
        "--retention",
        "14d",
        "--wait",
        "20s",
        "--delay",
        "30s",
        "--attr",
        "MaximumMessageSize=262144",
        "--yes",
    ]);
    run.assert_code(0);
    let record = &run.records_of("queue_set")[0];
    assert_eq!(record["applied"], true);
    assert_eq!(record["changes"].as_array().unwrap().len(), 5);
    assert_eq!(record["settings"]["VisibilityTimeout"], "120");
    let attrs = attributes(&env, &queue);
    assert_eq!(attrs["VisibilityTimeout"], "120");
    assert_eq!(attrs["MessageRetentionPeriod"], "1209600");
    assert_eq!(attrs["ReceiveMessageWaitTimeSeconds"], "20");
    assert_eq!(attrs["DelaySeconds"], "30");
    assert_eq!(attrs["MaximumMessageSize"], "262144");

    // The same values again change nothing.
    let run = env.run(&["queue", "set", "orders", "--visibility", "120s"]);
    run.assert_code(0);
    assert_eq!(run.records_of("queue_set")[0]["applied"], false);
    assert!(run.stderr.contains("nothing to change"), "{}", run.stderr);
}

#[test]
fn dry_run_shows_the_diff_and_changes_nothing() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[("VisibilityTimeout", "30")]);
    env.create_queue("orders-dlq", &[]);
    let before = attributes(&env, &queue);
    let run = env.run(&[
        "queue",
        "set",
        "orders",
        "--visibility",
        "2m",
        "--retention",
        "14d",
        "--dlq",
        "orders-dlq",
        "--max-receive",
        "5",
        "--dry-run",
        "-o",
        "text",
    ]);
    run.assert_code(0);
    assert_snapshot!(name: "queue_set_dry_run_diff", run.stdout);
    assert!(run.stderr.contains("dry run"), "{}", run.stderr);
    assert_eq!(attributes(&env, &queue), before);
}

#[test]
fn dlq_by_name_url_or_arn_and_no_dlq() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let dlq = env.create_queue("orders-dlq", &[]);
    let dlq_arn = attributes(&env, &dlq)["QueueArn"].clone();

    for given in ["orders-dlq", dlq.url.as_str(), dlq_arn.as_str()] {
        env.run(&["queue", "set", "orders", "--no-dlq", "--yes"])
            .assert_code(0);
        assert_eq!(redrive_policy(&env, &queue), None);
        env.run(&[
            "queue",
            "set",
            "orders",
            "--dlq",
            given,
            "--max-receive",
            "3",
            "--yes",
        ])
        .assert_code(0);
        let policy = redrive_policy(&env, &queue).unwrap();
        assert_eq!(policy["deadLetterTargetArn"], dlq_arn.as_str(), "{given}");
        assert_eq!(policy["maxReceiveCount"].to_string().trim_matches('"'), "3");
    }
}

#[test]
fn a_missing_dlq_is_created_only_with_create_dlq() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let run = env.run(&[
        "queue",
        "set",
        "orders",
        "--dlq",
        "orders-dlq",
        "--max-receive",
        "5",
        "--yes",
    ]);
    run.assert_code(2);
    assert_snapshot!(run.stderr);
    assert!(env.block_on(env.sqs().resolve("orders-dlq")).is_err());
    assert_eq!(redrive_policy(&env, &queue), None);

    env.run(&[
        "queue",
        "set",
        "orders",
        "--dlq",
        "orders-dlq",
        "--max-receive",
        "5",
        "--create-dlq",
        "--yes",
    ])
    .assert_code(0);
    let dlq = env.block_on(env.sqs().resolve("orders-dlq")).unwrap();
    let policy = redrive_policy(&env, &queue).unwrap();
    assert_eq!(
        policy["deadLetterTargetArn"],
        attributes(&env, &dlq)["QueueArn"].as_str()
    );
}

#[test]
fn a_dlq_of_the_other_type_is_refused() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    env.create_queue("jobs-dlq.fifo", &[("FifoQueue", "true")]);
    let before = attributes(&env, &queue);
    let run = env.run(&[
        "queue",
        "set",
        "orders",
        "--dlq",
        "jobs-dlq.fifo",
        "--max-receive",
        "5",
        "--yes",
    ]);
    run.assert_code(2);
    assert_snapshot!(run.stderr);
    assert_eq!(attributes(&env, &queue), before);
}

#[test]
fn redrive_allow_policy_from_queue_names() {
    let env = TestEnv::start();
    let dlq = env.create_queue("orders-dlq", &[]);
    let source = env.create_queue("orders", &[]);
    let source_arn = attributes(&env, &source)["QueueArn"].clone();
    let allow = |env: &TestEnv| -> serde_json::Value {
        serde_json::from_str(&attributes(env, &dlq)["RedriveAllowPolicy"]).unwrap()
    };

    env.run(&[
        "queue",
        "set",
        "orders-dlq",
        "--allow-sources",
        "orders",
        "--yes",
    ])
    .assert_code(0);
    assert_eq!(
        allow(&env),
        serde_json::json!({"redrivePermission": "byQueue", "sourceQueueArns": [source_arn]})
    );
    env.run(&["queue", "set", "orders-dlq", "--deny-all", "--yes"])
        .assert_code(0);
    assert_eq!(allow(&env)["redrivePermission"], "denyAll");
    env.run(&["queue", "set", "orders-dlq", "--allow-all", "--yes"])
        .assert_code(0);
    assert_eq!(allow(&env)["redrivePermission"], "allowAll");

    let run = env.run(&[
        "queue",
        "set",
        "orders-dlq",
        "--allow-sources",
        "nope",
        "--yes",
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("`nope`"), "{}", run.stderr);
    assert_eq!(allow(&env)["redrivePermission"], "allowAll");
}

#[test]
fn bad_input_names_the_value_and_the_limit_and_changes_nothing() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let before = attributes(&env, &queue);
    let cases: &[&[&str]] = &[
        &["--attr", "Visibility=60"],
        &["--attr", "VisibilityTimeout=50000"],
        &["--retention", "15d"],
        &["--wait", "30s"],
        &["--delay", "soon"],
        &["--attr", "ContentBasedDeduplication=true"],
        &["--attr", "FifoQueue=true"],
    ];
    let mut refusals = String::new();
    for args in cases {
        let mut argv = vec!["queue", "set", "orders", "--yes"];
        argv.extend_from_slice(args);
        let run = env.run(&argv);
        run.assert_code(2);
        refusals.push_str(&transcript(&argv, &run));
    }
    assert_snapshot!(refusals);
    assert_eq!(attributes(&env, &queue), before);
}

#[test]
fn a_change_needs_a_yes_or_a_terminal_answer() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let before = attributes(&env, &queue);
    let run = env.run(&["queue", "set", "orders", "--visibility", "1m"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
    assert_eq!(attributes(&env, &queue), before);

    let run = env.run_tty(&["queue", "set", "orders", "--visibility", "1m"], "n\n");
    run.assert_code(6);
    assert!(run.stderr.contains("`orders` (account"), "{}", run.stderr);
    assert_eq!(attributes(&env, &queue), before);

    let run = env.run_tty(&["queue", "set", "orders", "--visibility", "1m"], "y\n");
    run.assert_code(0);
    assert!(
        run.stdout.contains("VisibilityTimeout: 30s -> 1m (60 s)"),
        "{}",
        run.stdout
    );
    assert_eq!(attributes(&env, &queue)["VisibilityTimeout"], "60");
}

#[test]
fn diagnose_advice_names_the_queue_set_command_that_fixes_it() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let report =
        |env: &TestEnv| crate::diagnose::json(&env.run(&["diagnose", "orders", "-o", "json"]));
    let before = report(&env);
    for id in ["no-redrive-policy", "no-long-polling"] {
        let finding =
            crate::diagnose::finding(&before, id).unwrap_or_else(|| panic!("{id}: {before:#}"));
        let advice = finding["advice"].as_str().unwrap();
        let command = advice
            .split('`')
            .find(|part| part.starts_with("sqsctl queue set "))
            .unwrap_or_else(|| panic!("{id}: {advice}"));
        let mut argv: Vec<&str> = command.split_whitespace().skip(1).collect();
        argv.push("--yes");
        env.run(&argv).assert_code(0);
    }
    let after = report(&env);
    for id in ["no-redrive-policy", "no-long-polling"] {
        assert!(
            crate::diagnose::finding(&after, id).is_none(),
            "{id}: {after:#}"
        );
    }
}
