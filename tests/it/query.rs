//! `--query`, as the AWS CLI reads it, on every command: JMESPath with the AWS CLI's string
//! literals, applied to each record of JSON Lines, and `-o text` rows as the AWS CLI writes them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use sqsctl::message::MessageRecord;
use support::TestEnv;

pub(crate) fn bodies(count: usize) -> Vec<MessageRecord> {
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
