//! Tags, `visibility`, `--query` and the choice of what `receive`/`peek` return, through the real
//! binary against the local server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use sqsctl::message::MessageRecord;
use support::TestEnv;

fn bodies(count: usize) -> Vec<MessageRecord> {
    (0..count)
        .map(|i| MessageRecord::with_body(format!("m{i}")))
        .collect()
}

#[test]
fn query_filters_queues_and_text_writes_rows_as_the_aws_cli_does() {
    let env = TestEnv::start();
    let busy = env.create_queue("busy", &[]);
    let other = env.create_queue("other-busy", &[]);
    env.create_queue("idle", &[]);
    env.send(&busy, bodies(2));
    env.send(&other, bodies(1));

    // A list of names is one tab-separated row, as the AWS CLI writes it; a list of lists is a
    // row each.
    let run = env.run(&["queues", "--query", "[?visible > `0`].name", "-o", "text"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "busy\tother-busy\n", "{}", run.stderr);
    let run = env.run(&[
        "queues",
        "--query",
        "[?visible > `0`].[name, visible]",
        "-o",
        "text",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "busy\t2\nother-busy\t1\n", "{}", run.stderr);

    let run = env.run(&["queues", "--query", "[?visible > `1`].name", "-o", "json"]);
    run.assert_code(0);
    let names: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(names, serde_json::json!(["busy"]));
}

/// The AWS CLI's documentation writes string literals in backticks (`` [?name==`orders-dlq`] ``);
/// jmespath.py reads a literal that is not JSON as a string, and so does sqsctl.
#[test]
fn query_takes_the_aws_cli_string_literals() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    env.create_queue("orders-dlq", &[]);
    let run = env.run(&[
        "queues",
        "--query",
        "[?name==`orders-dlq`].name",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let names: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(names, serde_json::json!(["orders-dlq"]), "{}", run.stderr);
    let run = env.run(&[
        "queues",
        "--query",
        "length([?starts_with(name, `orders`)])",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), "2", "{}", run.stderr);
}

#[test]
fn query_with_jsonl_applies_to_each_record() {
    let env = TestEnv::start();
    env.create_queue("a", &[]);
    env.create_queue("b", &[]);
    let run = env.run(&["queues", "--query", "name", "-o", "jsonl"]);
    run.assert_code(0);
    let mut names: Vec<String> = run
        .records_of("queue")
        .iter()
        .map(|data| data.as_str().unwrap().to_string())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn query_applies_to_each_message_of_peek() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(3));
    let run = env.run(&["peek", "work", "--query", "body", "-o", "text"]);
    run.assert_code(0);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["m0", "m1", "m2"], "{}", run.stderr);
    // Several fields of a message are one tab-separated row, as the AWS CLI writes a list.
    let run = env.run(&[
        "peek",
        "work",
        "--query",
        "[message_id, body]",
        "-o",
        "text",
    ]);
    run.assert_code(0);
    let rows: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 3, "{}", run.stdout);
    for row in rows {
        assert_eq!(row.len(), 2, "{row:?}");
        assert!(row[1].starts_with('m'), "{row:?}");
    }
}

#[test]
fn a_query_that_does_not_parse_is_a_usage_error() {
    let env = TestEnv::start();
    let run = env.run(&["queues", "--query", "[?visible >"]);
    run.assert_code(2);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("--query `[?visible >` is not a valid JMESPath expression"),
        "{}",
        run.stderr
    );
}

/// Receives `count` messages through the client, hidden for 10 minutes; their receipt handles.
fn receive_hidden(env: &TestEnv, queue: &sqsctl::client::QueueRef, count: i32) -> Vec<String> {
    let options = sqsctl::client::ReceiveOptions {
        max_messages: count,
        wait_seconds: Some(0),
        visibility_timeout: Some(600),
    };
    let received = env.block_on(env.sqs().receive(queue, options)).unwrap();
    assert_eq!(received.len(), count as usize);
    received
        .into_iter()
        .map(|m| m.receipt_handle.unwrap())
        .collect()
}

fn visible(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> u64 {
    env.block_on(env.sqs().attributes(queue)).unwrap().visible()
}

#[test]
fn visibility_zero_releases_the_messages_given_by_handle() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(3));
    let handles = receive_hidden(&env, &queue, 3);
    assert_eq!(visible(&env, &queue), 0);

    let mut args = vec!["visibility", "work", "--timeout", "0"];
    args.extend(handles.iter().take(2).map(String::as_str));
    let run = env.run(&args);
    run.assert_code(0);
    let results = run.records_of("visibility");
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| r["status"] == "changed"),
        "{results:?}"
    );
    assert_eq!(visible(&env, &queue), 2);
}

#[test]
fn visibility_reads_handles_from_stdin_and_reports_each() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(12));
    let mut handles = receive_hidden(&env, &queue, 10);
    handles.extend(receive_hidden(&env, &queue, 2));
    let stdin = format!("{}\n\n", handles.join("\n"));
    let run = env.run_stdin(&["visibility", "work", "--timeout", "0s"], &stdin);
    run.assert_code(0);
    assert_eq!(run.records_of("visibility").len(), 12);
    assert_eq!(visible(&env, &queue), 12);
}

#[test]
fn visibility_reports_a_handle_it_could_not_change_and_exits_3() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(1));
    let handles = receive_hidden(&env, &queue, 1);
    let run = env.run(&[
        "visibility",
        "work",
        "--timeout",
        "2m",
        &handles[0],
        "not-a-receipt-handle",
    ]);
    run.assert_code(3);
    let results = run.records_of("visibility");
    assert_eq!(results[0]["status"], "changed");
    assert_eq!(results[0]["visibility_timeout"], 120);
    assert_eq!(results[1]["status"], "failed");
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .contains("ReceiptHandle")
    );
}

#[test]
fn visibility_over_twelve_hours_is_refused_naming_the_limit() {
    let env = TestEnv::start();
    env.create_queue("work", &[]);
    let run = env.run(&["visibility", "work", "--timeout", "13h", "AQEB"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("invalid value '13h' for '--timeout <DURATION>': must be 0s-12h"),
        "{}",
        run.stderr
    );
}

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
    for (args, says) in [
        (
            vec![long_key.as_str()],
            "is 129 characters; the limit is 128",
        ),
        (
            vec![long_value.as_str()],
            "is 257 characters; the limit is 256",
        ),
        (vec!["aws:owner=me"], "reserves"),
        (vec!["team"], "expects KEY=VALUE"),
        (vec!["team=b", "x=semi;colon"], "the character ';'"),
    ] {
        let mut full = vec!["queue", "tag", "tagged"];
        full.extend(args);
        let run = env.run(&full);
        run.assert_code(2);
        assert!(run.stderr.contains(says), "{full:?}: {}", run.stderr);
        assert_eq!(tags_of(&env, &queue), pairs(&[("team", "a")]), "{full:?}");
    }
    // 49 new keys beside the one it has make 50: allowed; one more is over SQS's limit.
    let many: Vec<String> = (0..49).map(|i| format!("k{i}=v")).collect();
    let mut args = vec!["queue", "tag", "tagged"];
    args.extend(many.iter().map(String::as_str));
    env.run(&args).assert_code(0);
    let run = env.run(&["queue", "tag", "tagged", "one-more=v"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("has 50 tags and this adds 1: a queue has at most 50"),
        "{}",
        run.stderr
    );
    assert_eq!(tags_of(&env, &queue).len(), 50);
    // queue create checks before creating anything.
    let run = env.run(&["queue", "create", "never", "--tag", &long_key]);
    run.assert_code(2);
    assert!(env.block_on(env.sqs().resolve("never")).is_err());
}

#[test]
fn receive_and_peek_show_only_the_chosen_attributes() {
    let env = TestEnv::start();
    let queue = env.create_queue("chosen", &[]);
    let run = env.run(&[
        "send",
        "chosen",
        "--attr",
        "trace.id=1",
        "--attr",
        "trace.span=2",
        "--attr",
        "tenant=a",
        "--trace-header",
        "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1",
        "hello",
    ]);
    run.assert_code(0);
    let run = env.run(&[
        "peek",
        "chosen",
        "--attributes",
        "SentTimestamp",
        "--message-attributes",
        "trace.*",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let data = &run.records_of("message")[0];
    let names =
        |field: &str| -> Vec<String> { data[field].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(names("attributes"), ["SentTimestamp"], "{data}");
    assert_eq!(
        names("message_attributes"),
        ["trace.id", "trace.span"],
        "{data}"
    );
    assert!(data.get("trace_header").is_none(), "{data}");

    // The default is every attribute, the trace header included.
    let run = env.run(&["receive", "chosen", "--visibility", "0", "-o", "jsonl"]);
    run.assert_code(0);
    let data = &run.records_of("message")[0];
    assert_eq!(data["message_attributes"].as_object().unwrap().len(), 3);
    assert_eq!(
        data["attributes"]["AWSTraceHeader"],
        "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"
    );

    let run = env.run(&["receive", "chosen", "--attributes", "SentTime"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("`SentTime` is not a system attribute"),
        "{}",
        run.stderr
    );
    assert_eq!(env.depth(&queue), 1);
}
