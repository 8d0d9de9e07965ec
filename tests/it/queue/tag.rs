//! `queue create --tag`, `queue tag` and `queue untag`: tags change as asked, and tags past the
//! limits are refused before anything changes.

use crate::support::TestEnv;
use crate::support::snapshot::{assert_snapshot, transcript};

/// The queue's tags as SQS holds them, read with the SDK rather than the command under test.
fn tags_of(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = env
        .block_on(env.sqs().tags(queue))
        .unwrap()
        .into_iter()
        .collect();
    tags.sort();
    tags
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn queue_create_tags_then_tag_and_untag_change_them() {
    let env = TestEnv::start();
    let run = env.run(&[
        "queue",
        "create",
        "billing",
        "--tag",
        "team=payments",
        "--tag",
        "env=prod",
        "--attr",
        "VisibilityTimeout=120",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let created: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // What the queue is after the change, read back: its settings and tags.
    assert_eq!(
        created["settings"]["VisibilityTimeout"], "120",
        "{}",
        run.stdout
    );
    assert_eq!(created["tags"]["team"], "payments");
    let queue = env.block_on(env.sqs().resolve("billing")).unwrap();
    assert_eq!(
        tags_of(&env, &queue),
        pairs(&[("env", "prod"), ("team", "payments")])
    );

    let run = env.run(&[
        "queue",
        "tag",
        "billing",
        "env=staging",
        "owner=ana",
        "-o",
        "text",
    ]);
    run.assert_code(0);
    assert!(run.stderr.contains("1 added, 1 changed"), "{}", run.stderr);
    let expected = pairs(&[("env", "staging"), ("owner", "ana"), ("team", "payments")]);
    assert_eq!(tags_of(&env, &queue), expected);
    assert_eq!(run.stdout, "env\tstaging\nowner\tana\nteam\tpayments\n");

    let run = env.run(&["queue", "untag", "billing", "env", "nope", "-o", "json"]);
    run.assert_code(0);
    assert!(run.stderr.contains("has no tag `nope`"), "{}", run.stderr);
    assert_eq!(
        tags_of(&env, &queue),
        pairs(&[("owner", "ana"), ("team", "payments")])
    );

    let run = env.run(&["queue", "info", "billing", "-o", "json"]);
    run.assert_code(0);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        info["tags"],
        serde_json::json!({"owner": "ana", "team": "payments"})
    );
    let run = env.run(&["queue", "info", "billing", "-o", "text"]);
    assert!(
        run.stdout.contains("Tags\towner=ana, team=payments\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_tags_are_refused_naming_the_limit_and_change_nothing() {
    let env = TestEnv::start();
    let queue = env.create_queue("tagged", &[]);
    env.block_on(
        env.sqs()
            .tag(&queue, [("team".to_string(), "a".to_string())].into()),
    )
    .unwrap();
    let long_key = format!("{}=x", "k".repeat(129));
    let long_value = format!("note={}", "v".repeat(257));
    let mut refusals = String::new();
    for args in [
        vec![long_key.as_str()],
        vec![long_value.as_str()],
        vec!["aws:owner=me"],
        vec!["team"],
        vec!["team=b", "x=semi;colon"],
    ] {
        let mut full = vec!["queue", "tag", "tagged"];
        full.extend(args);
        let run = env.run(&full);
        run.assert_code(2);
        refusals.push_str(&transcript(&full, &run));
        assert_eq!(tags_of(&env, &queue), pairs(&[("team", "a")]), "{full:?}");
    }
    assert_snapshot!(name: "refusals", refusals);
    // 49 new keys beside the one it has make 50: allowed; one more is over SQS's limit.
    let many: Vec<String> = (0..49).map(|i| format!("k{i}=v")).collect();
    let mut args = vec!["queue", "tag", "tagged"];
    args.extend(many.iter().map(String::as_str));
    env.run(&args).assert_code(0);
    let run = env.run(&["queue", "tag", "tagged", "one-more=v"]);
    run.assert_code(2);
    assert_snapshot!(name: "one_over_50", run.stderr);
    assert_eq!(tags_of(&env, &queue).len(), 50);
    // queue create checks before creating anything.
    let run = env.run(&["queue", "create", "never", "--tag", &long_key]);
    run.assert_code(2);
    assert!(env.block_on(env.sqs().resolve("never")).is_err());
}
