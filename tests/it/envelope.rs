//! Bodies that wrap another message (SNS notifications, EventBridge events, extended-client
//! pointers to S3): shown with their inner message, selected by it, counted by key, and moved
//! byte for byte.

use crate::support::snapshot::assert_snapshot;
use crate::support::{Run, TestEnv};

/// A notification as SNS delivers it to a queue subscribed without raw delivery.
const SNS: &str = r#"{"Type":"Notification","MessageId":"1f7c3a52-8a7e-5b1e-9f0e-7b8a1c2d3e4f","TopicArn":"arn:aws:sns:eu-west-1:123456789012:orders-topic","Subject":"order","Message":"{\"order_id\":7,\"type\":\"order.created\"}","Timestamp":"2026-01-01T00:00:00.000Z","SignatureVersion":"1","Signature":"EXAMPLEpH+DcEwjAPg8O9mY8dReBSwksfg2S7WKQcikcNKWLQjwu6A4VbeS0QHVCkhRS7fUQvi2egU3N858fiTDN6bkkOxYDVrY0Ad8L10Hs3zH81mtnPk5uvvolIC1CXGu43obcgFxeL3khZl8IKvO61GWB6jI9b5+gLPoBc1Q=","SigningCertURL":"https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem","UnsubscribeURL":"https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe","MessageAttributes":{"tenant":{"Type":"String","Value":"acme"},"priority":{"Type":"Number","Value":"1"}}}"#;
const EVENT: &str = r#"{"version":"0","id":"6a7e8feb-b491-4cf7-a9f1-bf3703467718","detail-type":"Order Placed","source":"com.shop.orders","account":"123456789012","time":"2026-01-01T00:00:00Z","region":"eu-west-1","resources":[],"detail":{"order_id":9}}"#;
const POINTER: &str = r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"shop-payloads","s3Key":"2f1c/orders.json"}]"#;
const PLAIN: &str = "Notification: the order could not be charged";

/// A `send --jsonl` line.
fn line(body: &str, attributes: serde_json::Value) -> String {
    serde_json::json!({"body": body, "message_attributes": attributes}).to_string() + "\n"
}

fn pointer_size() -> serde_json::Value {
    serde_json::json!({"ExtendedPayloadSize": {"type": "Number", "value": "2100000"}})
}

/// A queue with one message of each shape, in this order: SNS, EventBridge, pointer, plain.
fn four_shapes(env: &TestEnv, name: &str) {
    env.create_queue(name, &[]);
    let input = [
        line(SNS, serde_json::json!({})),
        line(EVENT, serde_json::json!({})),
        line(POINTER, pointer_size()),
        line(PLAIN, serde_json::json!({})),
    ]
    .concat();
    env.run_stdin(&["send", name, "--jsonl"], &input)
        .assert_code(0);
}

fn peek_tty(env: &TestEnv, args: &[&str], columns: &str) -> Run {
    let output = env
        .cmd()
        .arg("peek")
        .args(args)
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", columns)
        .output()
        .unwrap();
    Run::from_output(output)
}

#[test]
fn envelopes_are_recognised_and_their_inner_messages_shown() {
    let env = TestEnv::with_inspection();
    four_shapes(&env, "shapes");

    let records = env.run(&["peek", "shapes", "-o", "jsonl"]);
    records.assert_code(0);
    let records = records.records_of("message");
    assert_eq!(records.len(), 4);
    let by_body = |body: &str| {
        records
            .iter()
            .find(|r| r["body"] == body)
            .unwrap_or_else(|| panic!("{body} kept byte for byte: {records:?}"))
            .clone()
    };
    let sns = by_body(SNS);
    assert_eq!(sns["envelope"]["kind"], "sns");
    assert_eq!(sns["envelope"]["topic"], "orders-topic");
    assert_eq!(sns["envelope"]["subject"], "order");
    assert_eq!(sns["envelope"]["attributes"]["tenant"]["value"], "acme");
    assert_eq!(sns["message"]["order_id"], 7);
    let event = by_body(EVENT);
    assert_eq!(event["envelope"]["kind"], "eventbridge");
    assert_eq!(event["envelope"]["source"], "com.shop.orders");
    assert_eq!(event["envelope"]["detail_type"], "Order Placed");
    assert_eq!(event["message"]["order_id"], 9);
    let pointer = by_body(POINTER);
    assert_eq!(pointer["envelope"]["kind"], "s3_pointer");
    assert_eq!(pointer["envelope"]["bucket"], "shop-payloads");
    assert_eq!(pointer["envelope"]["key"], "2f1c/orders.json");
    assert_eq!(pointer["envelope"]["size"], 2_100_000);
    let plain = by_body(PLAIN);
    assert!(plain.get("envelope").is_none(), "{plain}");
    assert!(plain.get("message").is_none(), "{plain}");

    for columns in [120, 60] {
        let table = peek_tty(&env, &["shapes"], &columns.to_string());
        table.assert_code(0);
        assert!(
            table.stdout.lines().all(|l| l.chars().count() <= columns),
            "{}",
            table.stdout
        );
        assert_snapshot!(name: format!("table_{columns}"), table.stdout);
    }
    // An SNS message's inner message is read beside its marker.
    env.create_queue("notifications", &[]);
    env.run_stdin(
        &["send", "notifications", "--jsonl"],
        &line(SNS, serde_json::json!({})),
    )
    .assert_code(0);
    let table = peek_tty(&env, &["notifications"], "150");
    table.assert_code(0);
    assert_snapshot!(name: "table_150", table.stdout);
    assert!(
        table.stdout.contains(r#"[sns orders-topic] {"order_id":7"#),
        "{}",
        table.stdout
    );
    let text = env.run(&["peek", "shapes", "-o", "text"]);
    text.assert_code(0);
    assert_snapshot!(name: "text", text.stdout);
}

#[test]
fn where_selects_by_the_inner_message_and_unwrap_prints_it() {
    let env = TestEnv::with_inspection();
    four_shapes(&env, "shapes");

    let run = env.run(&[
        "peek",
        "shapes",
        "--where",
        "message.order_id == `7`",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let bodies: Vec<_> = run
        .records_of("message")
        .into_iter()
        .map(|r| r["body"].clone())
        .collect();
    assert_eq!(bodies, [SNS]);
    let run = env.run(&[
        "peek",
        "shapes",
        "--where",
        "envelope.topic == 'orders-topic'",
        "--unwrap",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "{\"order_id\":7,\"type\":\"order.created\"}\n");

    // Every shape unwrapped: inner messages where there are some, other bodies as they are.
    let run = env.run(&["peek", "shapes", "--unwrap"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        format!(
            "{{\"order_id\":7,\"type\":\"order.created\"}}\n{{\"order_id\":9}}\n{POINTER}\n{PLAIN}\n"
        )
    );
    let table = peek_tty(&env, &["shapes", "--unwrap"], "80");
    table.assert_code(0);
    assert!(
        table.stdout.contains(r#"{"order_id":7,"#),
        "{}",
        table.stdout
    );
    assert!(!table.stdout.contains("[sns"), "{}", table.stdout);

    let run = env.run(&["peek", "shapes", "--format", "{envelope}|{message}"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "[sns orders-topic]|{\"order_id\":7,\"type\":\"order.created\"}\n\
         [eventbridge com.shop.orders]|{\"order_id\":9}\n\
         [s3 shop-payloads/2f1c/orders.json 2.1 MB]|\n|\n"
    );
    let run = env.run(&[
        "peek",
        "shapes",
        "--unwrap",
        "--max",
        "1",
        "--format",
        "{id} {body}",
    ]);
    assert!(
        run.stdout
            .ends_with(" {\"order_id\":7,\"type\":\"order.created\"}\n"),
        "{}",
        run.stdout
    );

    // JSON keeps the body as sent: --unwrap cannot apply, and says so.
    let refused = env.run(&["peek", "shapes", "--unwrap", "-o", "json"]);
    refused.assert_code(2);
    assert_snapshot!(name: "unwrap_json_refused", refused.stderr);
    env.run(&["receive", "shapes", "--unwrap", "-o", "jsonl"])
        .assert_code(2);

    // --grep sees the inner message unescaped; --grep-v leaves out what matches.
    let run = env.run(&["peek", "shapes", "--grep", r#""order_id":7"#, "-o", "jsonl"]);
    assert_eq!(run.records_of("message").len(), 1, "{}", run.stdout);
    let run = env.run(&["peek", "shapes", "--grep-v", "order_id", "-o", "jsonl"]);
    run.assert_code(0);
    let bodies: Vec<_> = run
        .records_of("message")
        .into_iter()
        .map(|r| r["body"].clone())
        .collect();
    assert_eq!(bodies, [POINTER, PLAIN]);
    let run = env.run(&[
        "receive",
        "shapes",
        "--grep-v",
        "Notification",
        "--max",
        "4",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let bodies: Vec<_> = run
        .records_of("message")
        .into_iter()
        .map(|r| r["body"].clone())
        .collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert!(bodies.contains(&EVENT.into()) && bodies.contains(&POINTER.into()));
}

/// The body of an SNS notification from the `orders-topic` topic (a real envelope's fields) that
/// carries `inner` as its message.
pub(crate) fn orders_notification(message_id: &str, inner: &serde_json::Value) -> String {
    serde_json::json!({
        "Type": "Notification",
        "MessageId": message_id,
        "TopicArn": "arn:aws:sns:eu-west-1:123456789012:orders-topic",
        "Message": inner.to_string(),
        "Timestamp": "2026-01-01T00:00:00.000Z",
        "SignatureVersion": "1",
        "Signature": "c2ln",
        "SigningCertURL": "https://sns.example/cert.pem",
        "UnsubscribeURL": "https://sns.example/unsubscribe",
    })
    .to_string()
}

/// 3,000 dead letters: SNS notifications with three error kinds and two inner types.
fn dead_letters(env: &TestEnv, name: &str) {
    env.create_queue(name, &[]);
    let mut input = String::new();
    for i in 0..3000 {
        let error = match i % 10 {
            0..=6 => "PaymentDeclined",
            7 | 8 => "Timeout",
            _ => "Malformed",
        };
        let kind = if i % 3 == 0 {
            "order.paid"
        } else {
            "order.created"
        };
        let inner = serde_json::json!({"order_id": i, "type": kind});
        let body = orders_notification(&format!("m-{i}"), &inner);
        input.push_str(&line(
            &body,
            serde_json::json!({"error": {"type": "String", "value": error}}),
        ));
    }
    env.run_stdin(&["send", name, "--jsonl"], &input)
        .assert_code(0);
}

#[test]
fn counts_by_key_are_exact_on_three_thousand_dead_letters() {
    let env = TestEnv::with_inspection();
    dead_letters(&env, "orders-dlq");
    let args = [
        "peek",
        "orders-dlq",
        "--count-by",
        "message_attributes.error.value",
        "--count-by",
        "message.type",
    ];

    let table = env.run_tty(&args, "");
    table.assert_code(0);
    assert_snapshot!(name: "counts_table", table.stdout);

    let json = env.run(&[&args[..], &["-o", "json"]].concat());
    json.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["read"], 3000);
    assert_eq!(doc["visible"], 3000);
    let counts = |i: usize| {
        doc["counts"][i]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["value"].as_str().unwrap().to_string(),
                    v["count"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let pairs = |p: &[(&str, u64)]| {
        p.iter()
            .map(|(v, c)| (v.to_string(), *c))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        counts(0),
        pairs(&[
            ("PaymentDeclined", 2100),
            ("Timeout", 600),
            ("Malformed", 300)
        ])
    );
    assert_eq!(
        counts(1),
        pairs(&[("order.created", 2000), ("order.paid", 1000)])
    );

    // Filters narrow what is counted; --query applies to the counts document.
    let run = env.run(&[
        "peek",
        "orders-dlq",
        "--count-by",
        "message.type",
        "--grep-v",
        "PaymentDeclined|Timeout",
        "--where",
        "message_attributes.error.value == 'Malformed'",
        "--query",
        "[matched, counts[0].values[0].count]",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let result: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(result, serde_json::json!([300, 200]));

    let jsonl = env.run(&[
        "peek",
        "orders-dlq",
        "--count-by",
        "age < `3600`",
        "-o",
        "jsonl",
    ]);
    jsonl.assert_code(0);
    assert_eq!(
        jsonl.records_of("count"),
        [serde_json::json!({"expr": "age < `3600`", "value": true, "count": 3000})]
    );
    assert_eq!(jsonl.records_of("summary")[0]["read"], 3000);
    let text = env.run(&[
        "peek",
        "orders-dlq",
        "--count-by",
        "message.type",
        "-o",
        "text",
    ]);
    assert_eq!(
        text.stdout,
        "message.type\torder.created\t2000\nmessage.type\torder.paid\t1000\n"
    );
}

#[test]
fn receive_and_a_receiving_peek_count_what_they_read() {
    let env = TestEnv::start();
    dead_letters(&env, "dlq");
    let run = env.run(&[
        "receive",
        "dlq",
        "--until-empty",
        "--count-by",
        "message_attributes.error.value",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["read"], 3000, "{doc}");
    assert_eq!(doc["counts"][0]["values"][0]["count"], 2100);
    env.run(&["receive", "dlq", "--count-by", "x", "--delete", "--yes"])
        .assert_code(2);

    // peek's own read (a receive on SQS): every visible message, its cost announced.
    let small = env.create_queue("small-dlq", &[]);
    let input: String = (0..30)
        .map(|i| line(&format!("failure {i}"), serde_json::json!({"error": {"type": "String", "value": if i < 20 { "a" } else { "b" }}})))
        .collect();
    env.run_stdin(&["send", "small-dlq", "--jsonl"], &input)
        .assert_code(0);
    let run = env.run(&[
        "peek",
        "small-dlq",
        "--count-by",
        "message_attributes.error.value",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let counts: Vec<_> = run
        .records_of("count")
        .iter()
        .map(|c| c["count"].clone())
        .collect();
    assert_eq!(counts, [20, 10]);
    assert_eq!(env.depth(&small), 30, "peek leaves every message");
}

#[test]
fn moves_never_unwrap() {
    let env = TestEnv::start();
    let source = env.create_queue("orders", &[]);
    let dlq = env.create_queue("orders-dlq", &[]);
    let input = [
        line(
            SNS,
            serde_json::json!({"error": {"type": "String", "value": "declined"}}),
        ),
        line(PLAIN, serde_json::json!({})),
    ]
    .concat();
    env.run_stdin(&["send", "orders-dlq", "--jsonl"], &input)
        .assert_code(0);

    // --grep-v keeps the excluded message in the dead-letter queue.
    env.run(&[
        "redrive",
        "orders-dlq",
        "--to",
        "orders",
        "--grep-v",
        "charged",
        "--yes",
    ])
    .assert_code(0);
    let moved = env.drain(&source);
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].body, SNS, "byte for byte");
    assert_eq!(moved[0].message_attributes["error"].value, "declined");
    assert_eq!(env.drain_bodies(&dlq), [PLAIN]);

    // receive | send keeps a pointer and its size attribute.
    env.run_stdin(
        &["send", "orders-dlq", "--jsonl"],
        &line(POINTER, pointer_size()),
    )
    .assert_code(0);
    let received = env.run(&["receive", "orders-dlq", "-o", "jsonl"]);
    received.assert_code(0);
    assert!(
        received.stdout.contains("\"envelope\""),
        "{}",
        received.stdout
    );
    env.run_stdin(&["send", "orders", "--jsonl"], &received.stdout)
        .assert_code(0);
    let sent = env.drain(&source);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].body, POINTER);
    let size = &sent[0].message_attributes["ExtendedPayloadSize"];
    assert_eq!(
        (size.data_type.as_str(), size.value.as_str()),
        ("Number", "2100000")
    );
}

#[test]
fn counting_a_message_attribute_as_a_system_attribute_names_the_expression_that_reads_it() {
    let env = TestEnv::with_inspection();
    env.run(&["queue", "create", "dlq"]).assert_code(0);
    for error in ["timeout", "declined"] {
        env.run(&["send", "dlq", "--attr", &format!("error={error}"), "{}"])
            .assert_code(0);
    }
    let meant = env.run(&[
        "peek",
        "dlq",
        "--count-by",
        "attributes.error",
        "-o",
        "table",
    ]);
    meant.assert_code(0);
    assert_snapshot!(name: "count_by_attributes_meant", meant.stderr);

    // A system attribute that is there gets no such line.
    let system = env.run(&[
        "peek",
        "dlq",
        "--count-by",
        "attributes.ApproximateReceiveCount",
        "-o",
        "table",
    ]);
    system.assert_code(0);
    assert!(
        !system.stderr.contains("found nothing"),
        "{}",
        system.stderr
    );
}
