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
fn query_filters_queues_and_text_writes_one_name_per_line() {
    let env = TestEnv::start();
    let busy = env.create_queue("busy", &[]);
    let other = env.create_queue("other-busy", &[]);
    env.create_queue("idle", &[]);
    env.send(&busy, bodies(2));
    env.send(&other, bodies(1));

    let run = env.run(&["queues", "--query", "[?visible > `0`].name", "-o", "text"]);
    run.assert_code(0);
    let mut names: Vec<&str> = run.stdout.lines().collect();
    names.sort_unstable();
    assert_eq!(names, ["busy", "other-busy"], "{}", run.stderr);

    let run = env.run(&["queues", "--query", "[?visible > `1`].name", "-o", "json"]);
    run.assert_code(0);
    let names: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(names, serde_json::json!(["busy"]));
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
