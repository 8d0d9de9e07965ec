//! The filters every read shares (`--grep`, `--attr`, `--where` of `peek` and `receive`): only what
//! matches is shown or taken, the rest is left as it was, and a bad filter is a usage error before
//! anything is read.

use sqsctl::client::QueueRef;
use sqsctl::message::{AttributeValue, MessageRecord};

use crate::receive::{bodies, counts};
use crate::support::snapshot::{assert_snapshot, transcript};
use crate::support::{TestEnv, unique_name};

/// Sends `order-1..=n` (tenant acme for odd numbers, globex for even ones) and returns the queue.
pub(crate) fn orders(env: &TestEnv, n: usize) -> QueueRef {
    let queue = env.create_queue(&unique_name("orders"), &[]);
    let records = (1..=n)
        .map(|i| {
            let mut record = MessageRecord::with_body(format!(r#"{{"order":{i}}}"#));
            let tenant = if i % 2 == 1 { "acme" } else { "globex" };
            record
                .message_attributes
                .insert("tenant".into(), AttributeValue::string(tenant));
            record
        })
        .collect();
    env.send(&queue, records);
    queue
}

#[test]
fn peek_shows_only_what_matches_and_leaves_everything() {
    let env = TestEnv::start();
    let queue = orders(&env, 6);
    let run = env.run(&["peek", &queue.name, "--attr", "tenant=acme", "--max", "2"]);
    run.assert_code(0);
    let shown = bodies(&run);
    assert_eq!(shown.len(), 2, "{}", run.stderr);
    assert!(
        shown
            .iter()
            .all(|b| ["{\"order\":1}", "{\"order\":3}", "{\"order\":5}"].contains(&b.as_str())),
        "{shown:?}"
    );
    assert!(
        run.stderr.contains("2 matched --attr tenant=acme"),
        "{}",
        run.stderr
    );
    assert_eq!(counts(&env, &queue), (6, 0));

    let run = env.run(&["peek", &queue.name, "--where", "body.order > `4`"]);
    run.assert_code(0);
    assert_eq!(bodies(&run), ["{\"order\":5}", "{\"order\":6}"]);
}

#[test]
fn receive_delete_takes_only_what_matches_and_releases_the_rest_at_once() {
    let env = TestEnv::start();
    let queue = orders(&env, 8);
    let run = env.run(&[
        "receive",
        &queue.name,
        "--grep",
        r#""order":[1-4]\b"#,
        "--until-empty",
        "--delete",
        "--yes",
    ]);
    run.assert_code(0);
    assert_eq!(
        bodies(&run),
        [
            "{\"order\":1}",
            "{\"order\":2}",
            "{\"order\":3}",
            "{\"order\":4}"
        ]
    );
    // The others were made visible again at once, not after the 30 s visibility timeout.
    assert_eq!(counts(&env, &queue), (4, 0), "{}", run.stderr);
    let mut left = env.drain_bodies(&queue);
    left.sort();
    assert_eq!(
        left,
        [
            "{\"order\":5}",
            "{\"order\":6}",
            "{\"order\":7}",
            "{\"order\":8}"
        ]
    );
}

#[test]
fn receive_without_a_match_stops_and_leaves_the_queue_as_it_was() {
    let env = TestEnv::start();
    let queue = orders(&env, 5);
    let run = env.run(&["receive", &queue.name, "--grep", "nothing-like-this"]);
    run.assert_code(0);
    assert!(run.records_of("message").is_empty());
    assert_eq!(counts(&env, &queue), (5, 0), "{}", run.stderr);
}

#[test]
fn a_where_that_fails_on_a_message_is_reported_not_silent() {
    let env = TestEnv::start();
    let queue = orders(&env, 2);
    let run = env.run(&["peek", &queue.name, "--where", "length(body.items) > `0`"]);
    run.assert_code(0);
    assert!(run.records_of("message").is_empty());
    assert!(
        run.stderr.contains("--where failed on 2 messages"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_filters_are_usage_errors_before_anything_is_read() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    let mut refusals = String::new();
    for args in [
        ["--grep", "("],
        ["--attr", "novalue"],
        ["--where", "body.["],
        ["--older-than", "soon"],
    ] {
        for command in ["peek", "receive"] {
            let argv = [command, &queue.name, args[0], args[1]];
            let run = env.run(&argv);
            run.assert_code(2);
            refusals.push_str(&transcript(&argv, &run));
        }
    }
    assert_snapshot!(refusals.replace(&queue.name, "orders-[id]"));
    assert_eq!(counts(&env, &queue), (1, 0));
}

/// `--where` and `--count-by` read JMESPath as `--query` does, the AWS CLI's string literals in
/// backticks included: `` `acme` `` is the string "acme" in all three.
#[test]
fn where_and_count_by_take_the_string_literals_query_takes() {
    let env = TestEnv::start();
    let queue = orders(&env, 6);
    let acme = "message_attributes.tenant.value == `acme`";
    let run = env.run(&["peek", &queue.name, "--where", acme]);
    run.assert_code(0);
    let mut shown = bodies(&run);
    shown.sort();
    assert_eq!(
        shown,
        ["{\"order\":1}", "{\"order\":3}", "{\"order\":5}"],
        "{}",
        run.stderr
    );
    // The same as the raw string literal.
    let raw = env.run(&[
        "peek",
        &queue.name,
        "--where",
        "message_attributes.tenant.value == 'acme'",
    ]);
    let mut raw_shown = bodies(&raw);
    raw_shown.sort();
    assert_eq!(raw_shown, shown);

    let run = env.run(&["peek", &queue.name, "--count-by", acme, "-o", "json"]);
    run.assert_code(0);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut values: Vec<(bool, u64)> = document["counts"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["value"].as_bool().unwrap(), v["count"].as_u64().unwrap()))
        .collect();
    values.sort();
    assert_eq!(values, [(false, 3), (true, 3)], "{}", run.stdout);
    assert_eq!(document["counts"][0]["expr"], acme);

    let run = env.run(&[
        "peek",
        &queue.name,
        "--query",
        &format!("[@][?{acme}].body | [0]"),
        "-o",
        "text",
    ]);
    run.assert_code(0);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, shown, "{}", run.stderr);
    assert_eq!(counts(&env, &queue), (6, 0));
}
