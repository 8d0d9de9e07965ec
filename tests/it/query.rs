//! `--query`, as the AWS CLI reads it, on every command: JMESPath with the AWS CLI's string
//! literals, applied to the JSON document on a terminal and in a pipe alike (to each record of
//! JSON Lines when asked for), and `-o text` rows as the AWS CLI writes them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use sqsctl::message::MessageRecord;
use support::TestEnv;
use support::snapshot::assert_snapshot;

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

/// The same query sees the same document on a terminal and in a pipe: the one `-o json` writes.
#[test]
fn a_query_sees_one_document_on_a_terminal_and_in_a_pipe() {
    let env = TestEnv::start();
    let busy = env.create_queue("busy", &[]);
    env.create_queue("idle", &[]);
    env.create_queue("quiet", &[]);
    env.send(&busy, bodies(2));
    let args = ["queues", "--query", "[?visible > `0`].name"];
    let piped = env.run(&args);
    let terminal = env.run_tty(&args, "");
    for run in [&piped, &terminal] {
        run.assert_code(0);
        let names: serde_json::Value =
            serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
        assert_eq!(names, serde_json::json!(["busy"]));
    }
    assert_eq!(piped.stdout, terminal.stdout);
    // A query that selects nothing is one null, not a null per queue.
    let run = env.run(&["queues", "--query", "[?visible > `5`].name | [0]"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "null\n");
}

/// Asked for by name, JSON Lines applies the query to each record's data; a record it finds
/// nothing in is left out, and stderr says so, rather than a line of `"data": null` per record.
#[test]
fn with_jsonl_records_a_query_finds_nothing_in_are_left_out_and_counted() {
    let env = TestEnv::start();
    let busy = env.create_queue("busy", &[]);
    env.create_queue("idle", &[]);
    env.send(&busy, bodies(2));
    let run = env.run(&["queues", "--query", "[?visible > `0`].name", "-o", "jsonl"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "", "{}", run.stderr);
    assert_snapshot!(run.stderr);
    let run = env.run(&[
        "queues",
        "--query",
        "visible > `0` && name || null",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "{\"type\":\"queue\",\"data\":\"busy\"}\n");
    assert!(
        run.stderr.contains("found nothing in 1 of 2 records"),
        "{}",
        run.stderr
    );
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
