//! Property tests: whatever the body and target, or the Query parameters, `dispatch` answers a
//! well-formed response in the request's protocol and never panics.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::api::Request;
use crate::clock::Clock;
use crate::faults::Faults;
use crate::router::dispatch;
use crate::service::Service;

const ACTIONS: &[&str] = &[
    "CreateQueue",
    "DeleteQueue",
    "GetQueueUrl",
    "ListQueues",
    "GetQueueAttributes",
    "SetQueueAttributes",
    "TagQueue",
    "UntagQueue",
    "ListQueueTags",
    "PurgeQueue",
    "ListDeadLetterSourceQueues",
    "SendMessage",
    "SendMessageBatch",
    "ReceiveMessage",
    "DeleteMessage",
    "DeleteMessageBatch",
    "ChangeMessageVisibility",
    "ChangeMessageVisibilityBatch",
    "StartMessageMoveTask",
    "ListMessageMoveTasks",
    "CancelMessageMoveTask",
    "AddPermission",
    "RemovePermission",
    "Nope",
];

const STRING_KEYS: &[&str] = &[
    "QueueUrl",
    "QueueName",
    "MessageBody",
    "ReceiptHandle",
    "MessageGroupId",
    "MessageDeduplicationId",
    "SourceArn",
    "DestinationArn",
    "TaskHandle",
    "NextToken",
    "QueueNamePrefix",
    "Label",
];
const NUMBER_KEYS: &[&str] = &[
    "VisibilityTimeout",
    "WaitTimeSeconds",
    "MaxNumberOfMessages",
    "DelaySeconds",
    "MaxResults",
    "MaxNumberOfMessagesPerSecond",
];
const LIST_KEYS: &[&str] = &[
    "AttributeNames",
    "TagKeys",
    "MessageAttributeNames",
    "MessageSystemAttributeNames",
    "AWSAccountIds",
    "Actions",
];
const MAP_KEYS: &[&str] = &["Attributes", "Tags", "tags"];
const ATTRIBUTE_NAMES: &[&str] = &[
    "All",
    "VisibilityTimeout",
    "DelaySeconds",
    "MessageRetentionPeriod",
    "RedrivePolicy",
    "RedriveAllowPolicy",
    "FifoQueue",
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "MaximumMessageSize",
    "Policy",
    "QueueArn",
    "SentTimestamp",
    "Bogus",
    "a",
    "b.c",
];

const STRINGS: &[&str] = &[
    "http://h/000000000000/q",
    "http://h/000000000000/f.fifo",
    "http://h/000000000000/dlq",
    "q",
    "f.fifo",
    "dlq",
    "arn:aws:sqs:us-east-1:000000000000:dlq",
    "arn:aws:sqs:us-east-1:000000000000:q",
    "All",
    ".*",
    "String",
    "Number",
    "Binary",
    "true",
    "1",
    "-1",
    "AQID",
    "U1FMMQAAAAAAAAABAAAAAAAAAAEAAAAB",
    "g",
    "",
    "messageGroup",
    "0",
    r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":1}"#,
    r#"{"redrivePermission":"byQueue","sourceQueueArns":["x"]}"#,
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(STRINGS).prop_map(String::from),
        1 => ".{0,12}",
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (0i64..12).prop_map(Value::from),
        1 => prop_oneof![Just(-1i64), Just(43_201), Just(901), Just(501), any::<i64>()].prop_map(Value::from),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        text().prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn message_attributes() -> impl Strategy<Value = Value> {
    let value = (text(), text(), any::<bool>()).prop_map(|(data_type, value, binary)| {
        let key = if binary { "BinaryValue" } else { "StringValue" };
        serde_json::json!({ "DataType": data_type, key: value })
    });
    prop::collection::vec((prop::sample::select(ATTRIBUTE_NAMES), value), 0..4).prop_map(|pairs| {
        Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    })
}

/// A field with a value of the type the action expects, mostly; sometimes of any type.
fn field() -> impl Strategy<Value = (String, Value)> {
    let typed = prop_oneof![
        (
            prop::sample::select(STRING_KEYS),
            text().prop_map(Value::from)
        ),
        (prop::sample::select(NUMBER_KEYS), number()),
        (
            prop::sample::select(LIST_KEYS),
            prop::collection::vec(prop::sample::select(ATTRIBUTE_NAMES), 0..4).prop_map(|names| {
                Value::from(names.into_iter().map(String::from).collect::<Vec<_>>())
            })
        ),
        (
            prop::sample::select(MAP_KEYS),
            prop::collection::vec((prop::sample::select(ATTRIBUTE_NAMES), text()), 0..4).prop_map(
                |pairs| Value::Object(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), Value::from(v)))
                        .collect()
                )
            )
        ),
        (
            prop::sample::select(&["MessageAttributes", "MessageSystemAttributes"][..]),
            message_attributes()
        ),
    ]
    .prop_map(|(k, v)| (k.to_string(), v));
    prop_oneof![
        9 => typed,
        1 => (prop::sample::select(STRING_KEYS), any_json()).prop_map(|(k, v)| (k.to_string(), v)),
    ]
}

fn object() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec(field(), 0..7).prop_map(|fields| fields.into_iter().collect())
}

const QUEUE_URLS: &[&str] = &[
    "http://h/000000000000/q",
    "http://h/000000000000/f.fifo",
    "http://h/000000000000/dlq",
];

/// Most requests name an existing queue, so the fuzzing gets past the lookup.
fn top_level() -> impl Strategy<Value = Map<String, Value>> {
    (
        object(),
        prop::option::weighted(0.85, prop::sample::select(QUEUE_URLS)),
    )
        .prop_map(|(mut top, url)| {
            if let Some(url) = url {
                top.insert("QueueUrl".into(), Value::from(url));
            }
            top
        })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    let with_entries = (top_level(), prop::collection::vec(object(), 0..12), 0u8..3).prop_map(
        |(mut top, entries, ids)| {
            let entries = entries
                .into_iter()
                .enumerate()
                .map(|(i, mut entry)| {
                    // Mostly distinct valid ids, sometimes duplicates.
                    entry.insert(
                        "Id".into(),
                        Value::from(format!("e{}", i % (usize::from(ids) * 5 + 1))),
                    );
                    Value::Object(entry)
                })
                .collect();
            top.insert("Entries".into(), Value::Array(entries));
            top
        },
    );
    prop_oneof![
        5 => top_level().prop_map(|o| Value::Object(o).to_string().into_bytes()),
        3 => with_entries.prop_map(|o| Value::Object(o).to_string().into_bytes()),
        1 => any_json().prop_map(|v| v.to_string().into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 0..64),
    ]
}

fn target() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        8 => prop::sample::select(ACTIONS).prop_map(|a| Some(format!("AmazonSQS.{a}"))),
        1 => ".{0,20}".prop_map(Some),
        1 => Just(None),
    ]
}

/// A service that is stopping: it answers long polls after one look instead of waiting up to
/// 20 s.
fn service() -> Arc<Service> {
    let clock = Clock::manual(UNIX_EPOCH + Duration::from_secs(1_000_000));
    let faults = Faults::new(Duration::ZERO, 0.0, 0.0, Some(0));
    let svc = Arc::new(Service::new(
        crate::DEFAULT_REGION.into(),
        "000000000000".into(),
        "http://127.0.0.1:1".into(),
        crate::http::hosts::HostPolicy::new(std::net::Ipv4Addr::LOCALHOST.into(), None),
        clock,
        60_000,
        faults,
    ));
    svc.begin_stop();
    svc
}

fn runtime() -> Result<tokio::runtime::Runtime, TestCaseError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| TestCaseError::fail(e.to_string()))
}

fn request(target: Option<String>, body: Vec<u8>) -> Request {
    Request {
        method: "POST".into(),
        path: "/".into(),
        content_type: Some("application/x-amz-json-1.0".into()),
        target,
        host: Some("127.0.0.1:1".into()),
        body: body.into(),
        ..Request::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn dispatch_always_answers_well_formed(calls in prop::collection::vec((target(), body()), 1..12)) {
        runtime()?.block_on(async {
            let svc = service();
            for setup in [
                r#"{"QueueName":"dlq"}"#,
                r#"{"QueueName":"q","Attributes":{"RedrivePolicy":"{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\",\"maxReceiveCount\":1}"}}"#,
                r#"{"QueueName":"f.fifo","Attributes":{"FifoQueue":"true","ContentBasedDeduplication":"true"}}"#,
            ] {
                let response = dispatch(&svc, request(Some("AmazonSQS.CreateQueue".into()), setup.into())).await;
                prop_assert_eq!(response.status, 200);
            }
            for (target, body) in calls {
                let response = dispatch(&svc, request(target, body)).await;
                prop_assert!(matches!(response.status, 200 | 400 | 403 | 404 | 500));
                let parsed: Value = serde_json::from_slice(&response.body)
                    .map_err(|e| TestCaseError::fail(format!("not JSON: {e}")))?;
                if response.status != 200 {
                    prop_assert!(parsed.get("__type").and_then(Value::as_str).is_some());
                    prop_assert!(response.headers.iter().any(|(name, _)| *name == "x-amzn-query-error"));
                }
                svc.clock.advance(Duration::from_secs(7));
            }
            Ok(())
        })?;
    }
}

const QUERY_KEYS: &[&str] = &[
    "QueueName",
    "MessageBody",
    "ReceiptHandle",
    "MaxNumberOfMessages",
    "WaitTimeSeconds",
    "VisibilityTimeout",
    "DelaySeconds",
    "MessageGroupId",
    "ReceiveRequestAttemptId",
    "Attribute.1.Name",
    "Attribute.1.Value",
    "Attribute.2.Name",
    "AttributeName.1",
    "AttributeName.member.2",
    "MessageAttributeName.1",
    "MessageAttribute.1.Name",
    "MessageAttribute.1.Value.DataType",
    "MessageAttribute.1.Value.StringValue",
    "MessageAttribute.1.Value.BinaryValue",
    "SendMessageBatchRequestEntry.1.Id",
    "SendMessageBatchRequestEntry.1.MessageBody",
    "SendMessageBatchRequestEntry.2.Id",
    "SendMessageBatchRequestEntry.2.MessageBody",
    "DeleteMessageBatchRequestEntry.1.Id",
    "DeleteMessageBatchRequestEntry.1.ReceiptHandle",
    "Tag.1.Key",
    "Tag.1.Value",
    "TagKey.1",
];

const QUERY_VALUES: &[&str] = &[
    "q",
    "f.fifo",
    "All",
    "10",
    "0",
    "-1",
    "String",
    "Binary",
    "AAE=",
    "VisibilityTimeout",
    "FifoQueue",
    "true",
];

fn query_param() -> impl Strategy<Value = (String, String)> {
    let key = prop_oneof![
        9 => prop::sample::select(QUERY_KEYS).prop_map(String::from),
        1 => "[A-Za-z.0-9]{0,16}",
    ];
    let value = prop_oneof![
        6 => prop::sample::select(QUERY_VALUES).prop_map(String::from),
        4 => any::<String>().prop_map(|s| s.chars().take(24).collect::<String>()),
    ];
    (key, value)
}

fn query_request(action: &str, params: &[(String, String)], url: Option<&str>) -> Request {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("Action", action);
    // A parameter given twice is refused before any action runs: drawn once each, the
    // parameters reach the actions.
    let mut seen = std::collections::HashSet::from(["Action"]);
    if let Some(url) = url {
        form.append_pair("QueueUrl", url);
        seen.insert("QueueUrl");
    }
    for (key, value) in params {
        if seen.insert(key.as_str()) {
            form.append_pair(key, value);
        }
    }
    Request {
        method: "POST".into(),
        path: "/".into(),
        content_type: Some("application/x-www-form-urlencoded".into()),
        host: Some("localhost:9324".into()),
        body: form.finish().into_bytes().into(),
        ..Request::default()
    }
}

/// Whether `body` is XML that a parser reads to the end, with no character XML cannot carry
/// and no raw carriage return (which a parser would turn into a line feed).
fn well_formed_xml(body: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(body).map_err(|e| e.to_string())?;
    if let Some(c) = text
        .chars()
        .find(|c| matches!(c, '\u{0}'..='\u{8}' | '\u{B}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}'))
    {
        return Err(format!("character {c:?} in {text}"));
    }
    let mut reader = quick_xml::Reader::from_str(text);
    let mut depth = 0i64;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("{e} in {text}")),
        }
    }
    if depth != 0 {
        return Err(format!("unbalanced elements in {text}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn query_requests_always_get_well_formed_xml(
        calls in prop::collection::vec(
            (
                prop::sample::select(ACTIONS),
                prop::collection::vec(query_param(), 0..8),
                prop::option::weighted(0.85, prop::sample::select(QUEUE_URLS)),
            ),
            1..10,
        )
    ) {
        runtime()?.block_on(async {
            let svc = service();
            for name in ["q", "dlq"] {
                let setup = query_request("CreateQueue", &[("QueueName".into(), name.into())], None);
                prop_assert_eq!(dispatch(&svc, setup).await.status, 200);
            }
            for (action, params, url) in calls {
                let response = dispatch(&svc, query_request(action, &params, url)).await;
                prop_assert!(matches!(response.status, 200 | 400 | 403 | 404 | 500), "{}", response.status);
                prop_assert_eq!(response.content_type, "text/xml");
                well_formed_xml(&response.body).map_err(TestCaseError::fail)?;
                let body = String::from_utf8_lossy(&response.body);
                if response.status == 200 {
                    let expected = format!("<{action}Response ");
                    prop_assert!(body.contains(&expected), "{}", body);
                } else {
                    prop_assert!(body.contains("<ErrorResponse "), "{}", body);
                }
                let expected_id = format!("<RequestId>{}</RequestId>", response.request_id);
                prop_assert!(body.contains(&expected_id), "{}", body);
                svc.clock.advance(Duration::from_secs(7));
            }
            Ok(())
        })?;
    }
}
