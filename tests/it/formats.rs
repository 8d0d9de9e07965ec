//! The output options of every command: each honours `-o table|json|jsonl|text`, `--query` and
//! `--format`, or refuses a combination with a usage error that names it; no JSON it writes has a
//! duplicate key; and its tables fit a terminal of 80 and of 60 columns.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use sqsctl::message::{AttributeValue, MessageRecord};

use crate::receive::counts;
use crate::selection::orders;
use crate::support::snapshot::assert_snapshot;
use crate::support::{Run, TestEnv, unique_name};

/// A JSON value parsed with duplicate keys refused (serde_json keeps the last one silently).
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate key `{key}`")));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// Parses `text` as one JSON document, failing on a duplicate key anywhere in it.
#[track_caller]
fn strict_json(what: &str, text: &str) -> Value {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let Strict(value) = Strict::deserialize(&mut deserializer)
        .unwrap_or_else(|e| panic!("{what}: not JSON without duplicate keys: {e}\n{text}"));
    deserializer
        .end()
        .unwrap_or_else(|e| panic!("{what}: more after the document: {e}\n{text}"));
    value
}

/// A queue `orders` with a dead-letter queue `orders-dlq` holding two messages, a plain queue
/// `work` with messages carrying attributes, and a FIFO queue `groups.fifo`.
fn setup() -> TestEnv {
    let env = TestEnv::start();
    let dlq = env.create_queue("orders-dlq", &[]);
    let dlq_arn = format!("arn:aws:sqs:us-east-1:000000000000:{}", dlq.name);
    let policy = format!("{{\"deadLetterTargetArn\":\"{dlq_arn}\",\"maxReceiveCount\":5}}");
    env.create_queue("orders", &[("RedrivePolicy", policy.as_str())]);
    env.send(
        &dlq,
        vec![
            MessageRecord::with_body("dead one"),
            MessageRecord::with_body("dead two"),
        ],
    );
    let work = env.create_queue("work", &[]);
    env.send(&work, with_attributes(4));
    let fifo = env.create_queue("groups.fifo", &[("FifoQueue", "true")]);
    env.send(
        &fifo,
        (0..6)
            .map(|i| MessageRecord {
                group_id: Some(format!("customer-{}", i % 3)),
                dedup_id: Some(format!("d-{i}")),
                ..MessageRecord::with_body(format!("order {i}"))
            })
            .collect(),
    );
    env
}

fn with_attributes(count: usize) -> Vec<MessageRecord> {
    (0..count)
        .map(|i| {
            let mut record = MessageRecord::with_body(format!(
                "{{\"order\":{i},\"note\":\"a body long enough that no narrow terminal can show all of it\"}}"
            ));
            for (name, value) in [("tenant", "acme-corporation"), ("failure", "timeout")] {
                record
                    .message_attributes
                    .insert(name.into(), AttributeValue::string(value));
            }
            record
        })
        .collect()
}

/// Commands that only read (so each may run in every format), with the exit codes that mean
/// it ran (diagnose finds problems: 4).
const READERS: &[(&[&str], &[i32])] = &[
    (&["queues"], &[0]),
    (&["queue", "info", "orders"], &[0]),
    (&["queue", "url", "orders"], &[0]),
    (
        &["queue", "set", "orders", "--visibility", "40", "--dry-run"],
        &[0],
    ),
    (&["queue", "delete", "work", "--dry-run"], &[0]),
    (&["purge", "work", "--dry-run"], &[0]),
    (&["peek", "work"], &[0]),
    (&["redrive", "orders-dlq", "--dry-run"], &[0]),
    (&["redrive", "status", "orders-dlq"], &[0]),
    (&["fifo", "groups", "groups.fifo"], &[0]),
    (&["diagnose", "groups.fifo"], &[0, 4]),
    (&["top", "--count", "1", "--interval", "0.1"], &[0]),
];

#[track_caller]
fn assert_ran(args: &[&str], codes: &[i32], run: &Run) {
    assert!(
        codes.contains(&run.code),
        "{args:?}: exit {}\nstdout:\n{}\nstderr:\n{}",
        run.code,
        run.stdout,
        run.stderr
    );
}

#[test]
fn json_output_of_every_command_has_no_duplicate_keys() {
    let env = setup();
    for (args, codes) in READERS {
        let run = env.run(&[args, &["-o", "json"][..]].concat());
        assert_ran(args, codes, &run);
        strict_json(&format!("{args:?}"), &run.stdout);
        let run = env.run(&[args, &["-o", "jsonl"][..]].concat());
        assert_ran(args, codes, &run);
        for line in run.stdout.lines() {
            let record = strict_json(&format!("{args:?} -o jsonl"), line);
            assert!(record["type"].is_string(), "{args:?}: {line}");
        }
    }
    // Commands that change something, each run once per format on something of its own.
    let json = |args: &[&str], codes: &[i32]| {
        let run = env.run(&[args, &["-o", "json"][..]].concat());
        assert_ran(args, codes, &run);
        strict_json(&format!("{args:?}"), &run.stdout)
    };
    json(&["queue", "create", "made", "--tag", "team=pay"], &[0]);
    json(&["queue", "tag", "made", "env=prod"], &[0]);
    json(&["queue", "untag", "made", "env"], &[0]);
    json(&["send", "work", "hello"], &[0]);
    let run = env.run_stdin(&["send", "work", "--lines", "-o", "json"], "a\nb\n");
    run.assert_code(0);
    let sent = strict_json("send --lines", &run.stdout);
    assert_eq!(sent["sent"], 2, "{sent}");
    let received = json(&["receive", "work", "--max", "2"], &[0]);
    let handles: Vec<&str> = received
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["receipt_handle"].as_str().unwrap())
        .collect();
    json(
        &[&["visibility", "work", "--timeout", "0"][..], &handles].concat(),
        &[0],
    );
    let received = json(&["receive", "work", "--max", "1"], &[0]);
    let handle = received[0]["receipt_handle"].as_str().unwrap();
    json(&["delete", "work", handle, "--yes"], &[0]);
    json(&["redrive", "orders-dlq", "--yes"], &[0]);
    json(&["queue", "delete", "made", "--yes"], &[0]);
    json(&["purge", "work", "--yes"], &[0]);
}

/// Every reader in every format, with and without `--query`: it runs, or it refuses with a usage
/// error naming what it cannot do. Nothing is ignored without a word.
#[test]
fn every_command_honours_or_refuses_each_output_option() {
    let env = setup();
    for (args, codes) in READERS {
        for format in ["table", "json", "jsonl", "text"] {
            let run = env.run_tty(&[args, &["-o", format][..]].concat(), "");
            assert_ran(args, codes, &run);
            if format == "json" {
                strict_json(&format!("{args:?} on a terminal"), &run.stdout);
            }
        }
        // A query selects from the JSON: with -o json, its result; with -o text, as text.
        let run = env.run(&[args, &["-o", "json", "--query", "length(@)"][..]].concat());
        assert_ran(args, codes, &run);
        // (peek applies it to each message and top to each refresh, so theirs is an array of
        // results.)
        let document = strict_json(&format!("{args:?} --query"), &run.stdout);
        let results = match &document {
            Value::Array(items) if ["peek", "top"].contains(&args[0]) => items.clone(),
            other => vec![other.clone()],
        };
        for result in results {
            assert!(
                result.is_number() || result.is_null(),
                "{args:?}: {document}"
            );
        }
        let run = env.run(&[args, &["-o", "text", "--query", "length(@)"][..]].concat());
        assert_ran(args, codes, &run);
        // A table has no JSON to select from.
        let run = env.run(&[args, &["-o", "table", "--query", "length(@)"][..]].concat());
        run.assert_code(2);
        assert!(
            run.stderr.contains("--query") && run.stderr.contains("-o table"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn refusals_name_the_option_that_cannot_be_honoured() {
    let env = setup();
    let cases: &[(&[&str], &str)] = &[
        (
            &["peek", "work", "--format", "{id}", "-o", "json"],
            "refused_format_json",
        ),
        (
            &["receive", "work", "--format", "{id}", "--query", "body"],
            "refused_format_query",
        ),
        (
            &["consume", "work", "-o", "json", "--", "true"],
            "refused_consume_json",
        ),
        (
            &["consume", "work", "--query", "body", "--", "true"],
            "refused_consume_query",
        ),
        (&["demo", "--query", "x"], "refused_demo_query"),
    ];
    for (args, name) in cases {
        let run = env.run(args);
        run.assert_code(2);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
        assert_snapshot!(name: *name, run.stderr);
    }
    // Nothing was received by the refused receive.
    assert_eq!(
        env.depth(&env.block_on(env.sqs().resolve("work")).unwrap()),
        4
    );
    // --format with -o text (or no -o) is the template's text.
    let run = env.run(&["peek", "work", "--format", "{attr.tenant}", "-o", "text"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout.lines().collect::<Vec<_>>(),
        ["acme-corporation"; 4]
    );
}

#[test]
fn a_command_whose_result_is_one_value_prints_it_alone_in_a_pipe() {
    let env = setup();
    let url = env.run(&["queue", "url", "orders"]);
    url.assert_code(0);
    assert!(url.stdout.starts_with("http://"), "{}", url.stdout);
    assert_eq!(url.stdout.lines().count(), 1, "{}", url.stdout);
    let created = env.run(&["queue", "create", "fresh"]);
    created.assert_code(0);
    assert!(
        created.stdout.trim_end().ends_with("/fresh"),
        "{}",
        created.stdout
    );
    assert_eq!(created.stdout.lines().count(), 1, "{}", created.stdout);
    // Asked for JSON, it is the record.
    let json = env.run(&["queue", "url", "orders", "-o", "json"]);
    assert_eq!(
        strict_json("queue url -o json", &json.stdout)["name"],
        "orders"
    );
}

/// Runs `args` as on a terminal `columns` wide.
fn at_width(env: &TestEnv, args: &[&str], columns: usize) -> Run {
    let mut cmd = env.cmd();
    cmd.args(args)
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", columns.to_string());
    crate::support::run_with_stdin(cmd, "")
}

#[track_caller]
fn assert_fits(args: &[&str], columns: usize, run: &Run) {
    assert!(
        run.stdout.lines().any(|l| l.starts_with('┌')),
        "{args:?} at {columns}: no table\n{}{}",
        run.stdout,
        run.stderr
    );
    for line in run.stdout.lines() {
        assert!(
            line.chars().count() <= columns,
            "{args:?} at {columns}: a line of {} columns\n{}",
            line.chars().count(),
            run.stdout
        );
    }
}

#[test]
fn tables_fit_80_and_60_columns_keeping_ids_and_markers() {
    let env = setup();
    let id =
        regex::Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").unwrap();
    for columns in [80, 60] {
        for (args, codes) in [
            (&["queues"][..], &[0][..]),
            (&["peek", "work", "--max", "4"], &[0]),
            (&["fifo", "groups", "groups.fifo"], &[0]),
            (&["diagnose", "groups.fifo"], &[0, 4]),
            (&["redrive", "orders-dlq", "--dry-run"], &[0]),
            (
                &["top", "--count", "1", "--interval", "0.1", "-o", "table"],
                &[0],
            ),
        ] {
            let run = at_width(&env, args, columns);
            assert_ran(args, codes, &run);
            assert_fits(args, columns, &run);
        }
        // Queue names and the marker of a dead-letter queue stay whole.
        let queues = at_width(&env, &["queues"], columns);
        assert!(queues.stdout.contains("orders-dlq"), "{}", queues.stdout);
        let top = at_width(&env, &["top", "--count", "1", "-o", "table"], columns);
        assert!(top.stdout.contains("DLQ"), "{}", top.stdout);
        // Message ids are whole, one line a message, bodies cut with `…`.
        let peek = at_width(&env, &["peek", "work", "--max", "4"], columns);
        assert_eq!(id.find_iter(&peek.stdout).count(), 4, "{}", peek.stdout);
        assert_eq!(peek.stdout.lines().count(), 4 + 4, "{}", peek.stdout);
        assert!(peek.stdout.contains('…'), "{}", peek.stdout);
        let receive = at_width(
            &env,
            &["receive", "work", "--max", "4", "--visibility", "0"],
            columns,
        );
        assert_fits(&["receive"], columns, &receive);
        assert_eq!(
            id.find_iter(&receive.stdout).count(),
            4,
            "{}",
            receive.stdout
        );
        let dry_run = at_width(&env, &["redrive", "orders-dlq", "--dry-run"], columns);
        assert_eq!(
            id.find_iter(&dry_run.stdout).count(),
            2,
            "{}",
            dry_run.stdout
        );
    }
    let peek = at_width(&env, &["peek", "work", "--max", "2"], 80);
    assert_snapshot!(name: "peek_80", peek.stdout);
    let peek = at_width(&env, &["peek", "work", "--max", "2"], 60);
    assert_snapshot!(name: "peek_60", peek.stdout);
    let queues = at_width(&env, &["queues"], 60);
    assert_snapshot!(name: "queues_60", queues.stdout);
}

#[test]
fn format_writes_each_message_as_its_template_says() {
    let env = TestEnv::start();
    let queue = orders(&env, 3);
    let run = env.run(&[
        "receive",
        &queue.name,
        "--attr",
        "tenant=acme",
        "--format",
        r"{attr.tenant}\t{receives}\t{body}",
    ]);
    run.assert_code(0);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort();
    assert_eq!(lines, ["acme\t1\t{\"order\":1}", "acme\t1\t{\"order\":3}"]);

    // {sent} is the SentTimestamp in RFC 3339, {age} how long ago that was.
    let run = env.run(&[
        "peek",
        &queue.name,
        "--max",
        "1",
        "--format",
        "{id} {sent} {age}",
    ]);
    run.assert_code(0);
    let fields: Vec<&str> = run.stdout.trim_end().split(' ').collect();
    assert_eq!(fields.len(), 3, "{}", run.stdout);
    assert!(
        humantime::parse_rfc3339(fields[1]).is_ok(),
        "{}",
        run.stdout
    );
    assert!(
        fields[2].ends_with('s') || fields[2].ends_with('m'),
        "{}",
        run.stdout
    );
}

#[test]
fn format_escapes_message_text_on_a_terminal_but_not_in_a_pipe() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("hostile"), &[]);
    env.send(
        &queue,
        vec![MessageRecord::with_body("a\u{9b}31m\u{202e}b\tc\r")],
    );
    let format = r"<{body}>\t.";
    let run = env.run_tty(&["peek", &queue.name, "--format", format], "");
    run.assert_code(0);
    assert_eq!(run.stdout, "<a\\u{9b}31m\\u{202e}b\\tc\\r>\t.\n");
    let run = env.run(&["peek", &queue.name, "--format", format]);
    run.assert_code(0);
    assert_eq!(run.stdout, "<a\u{9b}31m\u{202e}b\tc\r>\t.\n");
}

#[test]
fn an_unknown_placeholder_is_a_usage_error() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    let run = env.run(&["receive", &queue.name, "--format", "{bodyy}"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("`{bodyy}` is not a placeholder"),
        "{}",
        run.stderr
    );
    assert_eq!(counts(&env, &queue), (1, 0));
}
