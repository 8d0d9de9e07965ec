//! LocalStack's own surface, which code written against LocalStack calls besides SQS's API: its
//! health check, its developer endpoint (`/_aws/sqs/messages`, both forms, both flags, both
//! protocols) and its queue URL shape. `ours` runs `sqsctl local` in LocalStack mode with the
//! settings `scripts/localstack.sh` gives LocalStack (`SQS_ENDPOINT_STRATEGY=path`,
//! `LOCALSTACK_HOST=localhost:<port>`); `localstack` the same checks against LocalStack.
//!
//! The other URL strategies are compared in `url_strategies`, which switches LocalStack's strategy
//! at run time and so runs apart from these.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Kind, Target, header_of, http_exchange};
use crate::support;

/// A listed message as either protocol shows it.
#[derive(Debug, Clone, PartialEq)]
struct Listed {
    body: String,
    receipt_handle: String,
    attributes: BTreeMap<String, String>,
    message_attributes: Vec<String>,
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// The messages of a Query-protocol (XML) `ReceiveMessage` answer.
fn from_xml(body: &str) -> Vec<Listed> {
    body.split("<Message>")
        .skip(1)
        .map(|chunk| {
            let mut attributes = BTreeMap::new();
            for attribute in chunk.split("<Attribute>").skip(1) {
                if let (Some(name), Some(value)) = (
                    between(attribute, "<Name>", "</Name>"),
                    between(attribute, "<Value>", "</Value>"),
                ) {
                    attributes.insert(name.to_owned(), value.to_owned());
                }
            }
            let message_attributes = chunk
                .split("<MessageAttribute>")
                .skip(1)
                .filter_map(|a| between(a, "<Name>", "</Name>").map(str::to_owned))
                .collect();
            Listed {
                body: between(chunk, "<Body>", "</Body>")
                    .unwrap_or_default()
                    .to_owned(),
                receipt_handle: between(chunk, "<ReceiptHandle>", "</ReceiptHandle>")
                    .unwrap_or_default()
                    .to_owned(),
                attributes,
                message_attributes,
            }
        })
        .collect()
}

/// The messages of an AWS JSON 1.0 `ReceiveMessage` answer.
fn from_json(body: &str) -> Vec<Listed> {
    let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let messages = value
        .get("Messages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    messages
        .iter()
        .map(|m| Listed {
            body: m["Body"].as_str().unwrap_or_default().to_owned(),
            receipt_handle: m["ReceiptHandle"].as_str().unwrap_or_default().to_owned(),
            attributes: m
                .get("Attributes")
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                        .collect()
                })
                .unwrap_or_default(),
            message_attributes: m
                .get("MessageAttributes")
                .and_then(Value::as_object)
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default(),
        })
        .collect()
}

async fn get(endpoint: &str, path: &str, headers: &str) -> (u16, String, String) {
    http_exchange(endpoint, |authority| {
        format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\n{headers}Connection: close\r\n\r\n")
    })
    .await
}

async fn post(endpoint: &str, path: &str, headers: &str, body: &str) -> (u16, String, String) {
    http_exchange(endpoint, |authority| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: {authority}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    })
    .await
}

/// `text` percent-encoded for a query string.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn bodies(listed: &[Listed]) -> Vec<&str> {
    listed.iter().map(|l| l.body.as_str()).collect()
}

fn marks<'l>(listed: &'l [Listed], name: &str) -> Vec<(&'l str, Option<&'l str>)> {
    listed
        .iter()
        .map(|l| (l.body.as_str(), l.attributes.get(name).map(String::as_str)))
        .collect()
}

async fn health(target: &Target) {
    let (status, head, body) = get(&target.endpoint, "/_localstack/health", "").await;
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(
        header_of(&head, "content-type").starts_with("application/json"),
        "{head}"
    );
    let value: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(value["services"]["sqs"], "running", "{body}");
    assert!(value["version"].is_string(), "{body}");
    assert!(value["edition"].is_string(), "{body}");
}

/// Sends `first` (with a message attribute), `second` and `delayed` (30 s), and receives `first`
/// for 30 s, so the queue has one message in flight, one receivable and one delayed.
async fn three_states(target: &Target) -> super::Queue {
    let queue = target.standard_queue("ls-dev", &[]).await;
    target
        .client
        .send_message()
        .queue_url(&queue.url)
        .message_body("first")
        .message_attributes("colour", super::string_attribute("green"))
        .send()
        .await
        .unwrap();
    target.send(&queue.url, "second").await;
    target
        .client
        .send_message()
        .queue_url(&queue.url)
        .message_body("delayed")
        .delay_seconds(30)
        .send()
        .await
        .unwrap();
    let received = target
        .client
        .receive_message()
        .queue_url(&queue.url)
        .visibility_timeout(30)
        .send()
        .await
        .unwrap();
    assert_eq!(super::bodies(received.messages()), ["first"]);
    queue
}

async fn developer_endpoint(target: &Target) {
    let queue = three_states(target).await;
    let url = encoded(&queue.url);
    let list = |query: String| {
        let endpoint = target.endpoint.clone();
        async move {
            let (status, head, body) =
                get(&endpoint, &format!("/_aws/sqs/messages?{query}"), "").await;
            assert_eq!(status, 200, "{query}: {head}\n{body}");
            assert!(
                header_of(&head, "content-type").contains("xml"),
                "{query}: {head}"
            );
            from_xml(&body)
        }
    };

    // Receivable messages only, by default, each with every attribute and the stand-in handle.
    let visible = list(format!("QueueUrl={url}")).await;
    assert_eq!(bodies(&visible), ["second"]);
    let second = &visible[0];
    assert_eq!(second.receipt_handle, "SQS/BACKDOOR/ACCESS");
    for name in ["SenderId", "SentTimestamp", "ApproximateReceiveCount"] {
        assert!(second.attributes.contains_key(name), "{name}: {second:?}");
    }
    assert_eq!(second.attributes["ApproximateReceiveCount"], "0");
    assert!(!second.attributes.contains_key("IsVisible"), "{second:?}");

    let invisible = list(format!("QueueUrl={url}&ShowInvisible=true")).await;
    let mut shown = marks(&invisible, "IsVisible");
    shown.sort();
    assert_eq!(shown, [("first", Some("false")), ("second", Some("true"))]);
    let first = invisible.iter().find(|l| l.body == "first").unwrap();
    assert_eq!(first.message_attributes, ["colour"]);
    assert_eq!(first.attributes["ApproximateReceiveCount"], "1");

    let delayed = list(format!("QueueUrl={url}&ShowDelayed=true")).await;
    let mut shown = marks(&delayed, "IsDelayed");
    shown.sort();
    assert_eq!(
        shown,
        [("delayed", Some("true")), ("second", Some("false"))]
    );

    let all = list(format!(
        "QueueUrl={url}&ShowInvisible=true&ShowDelayed=True"
    ))
    .await;
    let mut all_bodies = bodies(&all);
    all_bodies.sort();
    assert_eq!(all_bodies, ["delayed", "first", "second"]);

    // The path form names the queue by region, account and name.
    let (status, _, body) = get(
        &target.endpoint,
        &format!(
            "/_aws/sqs/messages/us-east-1/000000000000/{}?ShowInvisible=true",
            queue.name
        ),
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let by_path = from_xml(&body);
    let mut by_path = bodies(&by_path);
    by_path.sort();
    assert_eq!(by_path, ["first", "second"]);

    // A form body, as a POST of the Query protocol's ReceiveMessage (LocalStack needs the
    // Action there).
    let (status, _, body) = post(
        &target.endpoint,
        "/_aws/sqs/messages",
        "Content-Type: application/x-www-form-urlencoded\r\n",
        &format!("Action=ReceiveMessage&QueueUrl={url}&ShowDelayed=true"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let by_form = from_xml(&body);
    let mut by_form = bodies(&by_form);
    by_form.sort();
    assert_eq!(by_form, ["delayed", "second"]);

    // AWS JSON 1.0, as an SDK's ReceiveMessage sends it.
    let (status, head, body) = post(
        &target.endpoint,
        "/_aws/sqs/messages?ShowInvisible=true",
        "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n",
        &format!(r#"{{"QueueUrl": "{}"}}"#, queue.url),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        header_of(&head, "content-type").starts_with("application/x-amz-json-1.0"),
        "{head}"
    );
    let json = from_json(&body);
    let mut shown = marks(&json, "IsVisible");
    shown.sort();
    assert_eq!(shown, [("first", Some("false")), ("second", Some("true"))]);
    assert!(
        json.iter()
            .all(|l| l.receipt_handle == "SQS/BACKDOOR/ACCESS")
    );

    // The Query protocol's answer in JSON, as scripts written for LocalStack read it: one
    // message is one object, attributes are Name and Value entries.
    let (status, head, body) = get(
        &target.endpoint,
        &format!("/_aws/sqs/messages?QueueUrl={url}"),
        "Accept: application/json\r\n",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        header_of(&head, "content-type").starts_with("application/json"),
        "{head}"
    );
    let value: Value = serde_json::from_str(&body).unwrap();
    let message = &value["ReceiveMessageResponse"]["ReceiveMessageResult"]["Message"];
    assert_eq!(message["Body"], "second", "{body}");
    assert_eq!(message["ReceiptHandle"], "SQS/BACKDOOR/ACCESS", "{body}");
    let names: Vec<&str> = message["Attribute"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .filter_map(|a| a["Name"].as_str())
        .collect();
    assert!(names.contains(&"SenderId"), "{body}");

    // Listing changed nothing: the receivable message is received for the first time, and the
    // one in flight stays in flight.
    let received = target
        .client
        .receive_message()
        .queue_url(&queue.url)
        .message_system_attribute_names(aws_sdk_sqs::types::MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap();
    assert_eq!(super::bodies(received.messages()), ["second"]);
    assert_eq!(super::receive_count(&received.messages()[0]), 1);
    assert_eq!(
        target
            .queue_attribute(
                &queue.url,
                aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessagesNotVisible
            )
            .await,
        "2"
    );
}

async fn developer_endpoint_errors(target: &Target) {
    let (status, _, body) = get(&target.endpoint, "/_aws/sqs/messages", "").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("<Code>AWS.SimpleQueueService.NonExistentQueue</Code>"),
        "{body}"
    );
    let missing = encoded(&format!(
        "{}/000000000000/no-such-queue-here",
        target.endpoint
    ));
    let (status, _, body) = get(
        &target.endpoint,
        &format!("/_aws/sqs/messages?QueueUrl={missing}"),
        "",
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("<Code>AWS.SimpleQueueService.NonExistentQueue</Code>"),
        "{body}"
    );
    // Only ReceiveMessage is taken, whichever protocol names another action.
    let (status, head, body) = post(
        &target.endpoint,
        "/_aws/sqs/messages",
        "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.SendMessage\r\n",
        &format!(r#"{{"QueueUrl": "{missing}", "MessageBody": "x"}}"#),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        header_of(&head, "x-amzn-query-error").starts_with("InvalidRequest;"),
        "{head}\n{body}"
    );
    let (status, _, body) = get(
        &target.endpoint,
        "/_aws/sqs/messages",
        "Accept: application/json\r\n",
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let value: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(
        value["ErrorResponse"]["Error"]["Code"], "AWS.SimpleQueueService.NonExistentQueue",
        "{body}"
    );
    let unreadable = encoded("http://localhost/a/b/c/d/e");
    let (status, _, body) = get(
        &target.endpoint,
        &format!("/_aws/sqs/messages?QueueUrl={unreadable}"),
        "",
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("<Code>InvalidAddress</Code>"), "{body}");
}

/// With `SQS_ENDPOINT_STRATEGY=path`, queue URLs are `http://<LOCALSTACK_HOST>/queue/<region>/
/// <account>/<name>`, and requests that name them work.
async fn path_strategy_urls(target: &Target) {
    let queue = target.standard_queue("ls-url", &[]).await;
    let port = target
        .endpoint
        .rsplit_once(':')
        .map(|(_, port)| port.trim_end_matches('/'))
        .unwrap();
    assert_eq!(
        queue.url,
        format!(
            "http://localhost:{port}/queue/us-east-1/000000000000/{}",
            queue.name
        )
    );
    let got = target
        .client
        .get_queue_url()
        .queue_name(&queue.name)
        .send()
        .await
        .unwrap();
    assert_eq!(got.queue_url(), Some(queue.url.as_str()));
    target.send(&queue.url, "by path").await;
    let received = target.receive(&queue.url, 1, None, 0).await;
    assert_eq!(super::bodies(&received), ["by path"]);
}

async fn run(kind: Kind, scenario: impl AsyncFnOnce(&Target)) {
    let (endpoint, server) = match kind {
        Kind::Ours => {
            let server = sqsctl::local::Server::start(sqsctl::local::ServerConfig {
                localstack: true,
                url_strategy: Some(sqsctl::local::UrlStrategy::Path),
                url_host: Some("localhost".into()),
                ..sqsctl::local::ServerConfig::default()
            })
            .expect("the local server starts");
            (server.endpoint().to_owned(), Some(server))
        }
        Kind::LocalStack => (support::localstack(), None),
    };
    let target = Target::new(kind, &endpoint);
    scenario(&target).await;
    target.delete_created_queues().await;
    drop(server);
}

macro_rules! surface {
    ($($scenario:ident),* $(,)?) => {
        /// Against `sqsctl::local::Server` in LocalStack mode.
        mod ours {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $scenario() {
                    super::run(super::Kind::Ours, super::$scenario).await;
                }
            )*
        }

        /// Against LocalStack at `SQSCTL_LOCALSTACK_ENDPOINT`.
        mod localstack {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
                async fn $scenario() {
                    super::run(super::Kind::LocalStack, super::$scenario).await;
                }
            )*
        }
    };
}

surface!(
    health,
    developer_endpoint,
    developer_endpoint_errors,
    path_strategy_urls,
);
