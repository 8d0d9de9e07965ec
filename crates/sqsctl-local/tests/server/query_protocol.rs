//! The Query protocol over real HTTP: form-encoded requests (and GET query strings) against the
//! same server and queues the JSON client uses, checking the XML shapes of API version 2012-11-05,
//! that both protocols agree (MD5s included), and the request id in header and body.

use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{MessageAttributeValue, QueueAttributeName};
use sqsctl_local::{Server, ServerConfig};

use super::support::queue_attribute;
use super::{TestResult, client, raw};

/// One HTTP answer, split into what the tests look at.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) request_id: String,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn parse(raw: &str) -> Answer {
        let (status, head, body) = super::status_head_body(raw);
        let header = |name: &str| {
            head.lines()
                .find_map(|line| {
                    let (key, value) = line.split_once(':')?;
                    key.eq_ignore_ascii_case(name)
                        .then(|| value.trim().to_string())
                })
                .unwrap_or_default()
        };
        Answer {
            status,
            content_type: header("content-type"),
            request_id: header("x-amzn-requestid"),
            body: body.to_string(),
        }
    }

    /// The raw (escaped) contents of every `<tag>` element, in order.
    fn raw_texts(&self, tag: &str) -> Vec<&str> {
        let open = format!("<{tag}>");
        let close = format!("</{tag}>");
        let mut out = Vec::new();
        let mut rest = self.body.as_str();
        while let Some(start) = rest.find(&open) {
            rest = &rest[start + open.len()..];
            let Some(end) = rest.find(&close) else { break };
            out.push(&rest[..end]);
            rest = &rest[end + close.len()..];
        }
        out
    }

    /// The text of every `<tag>` element, unescaped.
    fn texts(&self, tag: &str) -> Vec<String> {
        self.raw_texts(tag)
            .into_iter()
            .map(|t| {
                quick_xml::escape::unescape(t)
                    .map(|t| t.into_owned())
                    .unwrap_or_else(|e| panic!("bad XML text {t:?}: {e}"))
            })
            .collect()
    }

    pub(crate) fn text(&self, tag: &str) -> String {
        self.texts(tag).into_iter().next().unwrap_or_default()
    }

    /// The request id in the body is the one in the header, and it is there.
    fn assert_request_id(&self) {
        assert!(!self.request_id.is_empty(), "no x-amzn-requestid header");
        assert_eq!(self.text("RequestId"), self.request_id, "{}", self.body);
    }
}

pub(crate) fn encode(params: &[(&str, &str)]) -> String {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("Version", "2012-11-05");
    for (name, value) in params {
        form.append_pair(name, value);
    }
    form.finish()
}

/// A Query-protocol POST of `params` to `path`.
async fn query_at(server: &Server, path: &str, params: &[(&str, &str)]) -> Answer {
    let body = encode(params);
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    Answer::parse(&raw(server, request).await)
}

async fn query(server: &Server, params: &[(&str, &str)]) -> Answer {
    query_at(server, "/", params).await
}

pub(crate) fn assert_error(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{}", answer.body);
    assert!(answer.body.contains("<ErrorResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><Error><Type>Sender</Type>"), "{}", answer.body);
    assert_eq!(answer.text("Code"), code, "{}", answer.body);
    assert!(answer.body.contains("<Detail/></Error>"), "{}", answer.body);
    answer.assert_request_id();
}

#[tokio::test]
async fn query_clients_share_queues_and_md5s_with_json_clients() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let created = query(
        &server,
        &[
            ("Action", "CreateQueue"),
            ("QueueName", "mixed"),
            ("Attribute.1.Name", "VisibilityTimeout"),
            ("Attribute.1.Value", "45"),
            ("Tag.1.Key", "team"),
            ("Tag.1.Value", "payments"),
        ],
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert!(created.content_type.starts_with("text/xml"));
    assert!(created.body.contains("<CreateQueueResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><CreateQueueResult><QueueUrl>"), "{}", created.body);
    created.assert_request_id();
    let url = created.text("QueueUrl");
    assert_eq!(url, server.queue_url("mixed"));
    let attributes = queue_attribute(&sqs, &url, QueueAttributeName::VisibilityTimeout).await?;
    assert_eq!(attributes.as_deref(), Some("45"));
    let tags = query(&server, &[("Action", "ListQueueTags"), ("QueueUrl", &url)]).await;
    assert_eq!(
        tags.raw_texts("Tag"),
        ["<Key>team</Key><Value>payments</Value>"]
    );

    // A carriage return must come back as one: XML parsers turn a literal one into a line feed.
    let body = "line\r\n<b>&amp;</b> é";
    let sent = query(
        &server,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", &url),
            ("MessageBody", body),
            ("MessageAttribute.1.Name", "kind"),
            ("MessageAttribute.1.Value.DataType", "String"),
            ("MessageAttribute.1.Value.StringValue", "greeting"),
            ("MessageAttribute.2.Name", "raw"),
            ("MessageAttribute.2.Value.DataType", "Binary"),
            ("MessageAttribute.2.Value.BinaryValue", "AAH/"),
        ],
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    sent.assert_request_id();
    let by_json = sqs
        .send_message()
        .queue_url(&url)
        .message_body(body)
        .message_attributes(
            "kind",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("greeting")
                .build()?,
        )
        .message_attributes(
            "raw",
            MessageAttributeValue::builder()
                .data_type("Binary")
                .binary_value(Blob::new(vec![0, 1, 255]))
                .build()?,
        )
        .send()
        .await?;
    assert_eq!(
        Some(sent.text("MD5OfMessageBody").as_str()),
        by_json.md5_of_message_body()
    );
    assert_eq!(
        Some(sent.text("MD5OfMessageAttributes").as_str()),
        by_json.md5_of_message_attributes()
    );

    let received = query(
        &server,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", &url),
            ("MaxNumberOfMessages", "10"),
            ("AttributeName.1", "All"),
            ("MessageAttributeName.1", "All"),
        ],
    )
    .await;
    assert_eq!(received.status, 200, "{}", received.body);
    assert_eq!(received.raw_texts("Message").len(), 2, "{}", received.body);
    assert_eq!(received.texts("Body"), [body, body]);
    assert!(received.raw_texts("Body")[0].contains("&#xD;"));
    assert_eq!(
        received.texts("MD5OfBody"),
        vec![sent.text("MD5OfMessageBody"); 2]
    );
    assert_eq!(
        received.texts("MD5OfMessageAttributes"),
        vec![sent.text("MD5OfMessageAttributes"); 2]
    );
    assert!(received.body.contains("<MessageAttribute><Name>raw</Name><Value><DataType>Binary</DataType><BinaryValue>AAH/</BinaryValue></Value></MessageAttribute>"), "{}", received.body);
    assert!(
        received.body.contains(
            "<Attribute><Name>ApproximateReceiveCount</Name><Value>1</Value></Attribute>"
        ),
        "{}",
        received.body
    );

    let handles = received.texts("ReceiptHandle");
    let deleted = query(
        &server,
        &[
            ("Action", "DeleteMessageBatch"),
            ("QueueUrl", &url),
            ("DeleteMessageBatchRequestEntry.1.Id", "a"),
            (
                "DeleteMessageBatchRequestEntry.1.ReceiptHandle",
                &handles[0],
            ),
            ("DeleteMessageBatchRequestEntry.2.Id", "b"),
            (
                "DeleteMessageBatchRequestEntry.2.ReceiptHandle",
                &handles[1],
            ),
            ("DeleteMessageBatchRequestEntry.3.Id", "c"),
            ("DeleteMessageBatchRequestEntry.3.ReceiptHandle", "garbage"),
        ],
    )
    .await;
    assert_eq!(
        deleted.raw_texts("DeleteMessageBatchResultEntry"),
        ["<Id>a</Id>", "<Id>b</Id>"]
    );
    assert_eq!(
        deleted.raw_texts("BatchResultErrorEntry").len(),
        1,
        "{}",
        deleted.body
    );
    assert_eq!(deleted.text("Code"), "ReceiptHandleIsInvalid");
    assert_eq!(deleted.text("SenderFault"), "true");

    // Old clients may send everything in a GET query string.
    let get = format!(
        "GET /?{} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        encode(&[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", &url),
            ("AttributeName.1", "ApproximateNumberOfMessages"),
        ])
    );
    let depth = Answer::parse(&raw(&server, get).await);
    assert_eq!(depth.status, 200, "{}", depth.body);
    assert_eq!(
        depth.raw_texts("Attribute"),
        ["<Name>ApproximateNumberOfMessages</Name><Value>0</Value>"]
    );

    // Posting to the queue's own URL names the queue; `member` lists are read too.
    let batch = query_at(
        &server,
        "/000000000000/mixed",
        &[
            ("Action", "SendMessageBatch"),
            ("SendMessageBatchRequestEntry.1.Id", "one"),
            ("SendMessageBatchRequestEntry.1.MessageBody", "1"),
            ("SendMessageBatchRequestEntry.2.Id", "two"),
            ("SendMessageBatchRequestEntry.2.MessageBody", "2"),
            ("SendMessageBatchRequestEntry.2.DelaySeconds", "5"),
        ],
    )
    .await;
    assert_eq!(batch.texts("Id"), ["one", "two"], "{}", batch.body);
    let listed = query(
        &server,
        &[("Action", "ListQueues"), ("QueueNamePrefix", "mix")],
    )
    .await;
    assert_eq!(listed.texts("QueueUrl"), std::slice::from_ref(&url));
    let names = query(
        &server,
        &[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", &url),
            (
                "AttributeName.member.1",
                "ApproximateNumberOfMessagesDelayed",
            ),
        ],
    )
    .await;
    assert_eq!(names.texts("Value"), ["1"]);
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn query_errors_are_error_responses_with_query_codes() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let missing = query(&server, &[("Action", "GetQueueUrl"), ("QueueName", "nope")]).await;
    assert_error(&missing, 400, "AWS.SimpleQueueService.NonExistentQueue");
    let unknown = query(&server, &[("Action", "Bogus")]).await;
    assert_error(&unknown, 400, "InvalidAction");
    let no_action = query(&server, &[("QueueName", "x")]).await;
    assert_error(&no_action, 400, "MissingParameter");

    let created = query(&server, &[("Action", "CreateQueue"), ("QueueName", "errs")]).await;
    let url = created.text("QueueUrl");
    let not_a_number = query(
        &server,
        &[
            ("Action", "ReceiveMessage"),
            ("QueueUrl", &url),
            ("WaitTimeSeconds", "soon"),
        ],
    )
    .await;
    assert_error(&not_a_number, 400, "InvalidParameterValue");
    let repeated = query(
        &server,
        &[
            ("Action", "SendMessageBatch"),
            ("QueueUrl", &url),
            ("SendMessageBatchRequestEntry.1.Id", "same"),
            ("SendMessageBatchRequestEntry.1.MessageBody", "1"),
            ("SendMessageBatchRequestEntry.2.Id", "same"),
            ("SendMessageBatchRequestEntry.2.MessageBody", "2"),
        ],
    )
    .await;
    assert_error(
        &repeated,
        400,
        "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
    );
    // Input quoted back is cut short, whatever its size.
    let long_handle = "h".repeat(100_000);
    let stale = query(
        &server,
        &[
            ("Action", "DeleteMessage"),
            ("QueueUrl", &url),
            ("ReceiptHandle", &long_handle),
        ],
    )
    .await;
    // SQS answers an invalid receipt handle with 404.
    assert_error(&stale, 404, "ReceiptHandleIsInvalid");
    assert!(stale.body.len() < 2048, "{} bytes", stale.body.len());
    assert!(
        stale
            .text("Message")
            .contains(&format!("{}...", "h".repeat(1024)))
    );
    server.shutdown().await;
    Ok(())
}

/// Serializers that do not flatten maps send `Name.entry.N.key` / `.value` (under the member's
/// JSON name or its Query name); every map the server reads accepts that beside
/// `Attribute.N.Name` / `.Value`.
#[tokio::test]
async fn maps_that_are_not_flattened_are_read_too() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let created = query(
        &server,
        &[
            ("Action", "CreateQueue"),
            ("QueueName", "entries"),
            ("Attributes.entry.1.key", "VisibilityTimeout"),
            ("Attributes.entry.1.value", "45"),
            ("Attributes.entry.2.key", "DelaySeconds"),
            ("Attributes.entry.2.value", "2"),
            ("Tags.entry.1.key", "team"),
            ("Tags.entry.1.value", "payments"),
        ],
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let url = created.text("QueueUrl");
    let attributes = sqs
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await?;
    let attribute = |name: QueueAttributeName| {
        attributes
            .attributes()
            .and_then(|a| a.get(&name))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        (
            attribute(QueueAttributeName::VisibilityTimeout),
            attribute(QueueAttributeName::DelaySeconds)
        ),
        ("45".to_string(), "2".to_string())
    );

    let set = query(
        &server,
        &[
            ("Action", "SetQueueAttributes"),
            ("QueueUrl", &url),
            ("Attribute.entry.1.Name", "DelaySeconds"),
            ("Attribute.entry.1.Value", "0"),
        ],
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.body);
    let tagged = query(
        &server,
        &[
            ("Action", "TagQueue"),
            ("QueueUrl", &url),
            ("Tags.entry.1.key", "env"),
            ("Tags.entry.1.value", "dev"),
        ],
    )
    .await;
    assert_eq!(tagged.status, 200, "{}", tagged.body);
    let tags = sqs.list_queue_tags().queue_url(&url).send().await?;
    let mut tags: Vec<_> = tags.tags().into_iter().flatten().collect();
    tags.sort();
    assert_eq!(
        tags,
        [
            (&"env".to_string(), &"dev".to_string()),
            (&"team".to_string(), &"payments".to_string())
        ]
    );

    // Message attributes: the same MD5 as the flattened spelling, and the values received back.
    let sent = query(
        &server,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", &url),
            ("MessageBody", "hello"),
            ("MessageAttributes.entry.1.key", "kind"),
            ("MessageAttributes.entry.1.value.DataType", "String"),
            ("MessageAttributes.entry.1.value.StringValue", "greeting"),
        ],
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    let flattened = query(
        &server,
        &[
            ("Action", "SendMessage"),
            ("QueueUrl", &url),
            ("MessageBody", "hello"),
            ("MessageAttribute.1.Name", "kind"),
            ("MessageAttribute.1.Value.DataType", "String"),
            ("MessageAttribute.1.Value.StringValue", "greeting"),
        ],
    )
    .await;
    assert_eq!(
        sent.text("MD5OfMessageAttributes"),
        flattened.text("MD5OfMessageAttributes")
    );
    let batch = query(
        &server,
        &[
            ("Action", "SendMessageBatch"),
            ("QueueUrl", &url),
            ("SendMessageBatchRequestEntry.1.Id", "a"),
            ("SendMessageBatchRequestEntry.1.MessageBody", "in a batch"),
            (
                "SendMessageBatchRequestEntry.1.MessageAttributes.entry.1.key",
                "n",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttributes.entry.1.value.DataType",
                "Number",
            ),
            (
                "SendMessageBatchRequestEntry.1.MessageAttributes.entry.1.value.StringValue",
                "7",
            ),
        ],
    )
    .await;
    assert_eq!(batch.status, 200, "{}", batch.body);
    assert_eq!(
        batch.texts("MD5OfMessageAttributes").len(),
        1,
        "{}",
        batch.body
    );
    let received = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_attribute_names("All")
        .send()
        .await?;
    let mut values: Vec<_> = received
        .messages()
        .iter()
        .flat_map(|m| m.message_attributes().into_iter().flatten())
        .map(|(name, value)| {
            (
                name.clone(),
                value.string_value().unwrap_or_default().to_string(),
            )
        })
        .collect();
    values.sort();
    assert_eq!(
        values,
        [
            ("kind".to_string(), "greeting".to_string()),
            ("kind".to_string(), "greeting".to_string()),
            ("n".to_string(), "7".to_string())
        ]
    );

    // An entry without its key is refused as the flattened spelling is.
    let keyless = query(
        &server,
        &[
            ("Action", "TagQueue"),
            ("QueueUrl", &url),
            ("Tags.entry.1.value", "dev"),
        ],
    )
    .await;
    assert_error(&keyless, 400, "MissingParameter");
    server.shutdown().await;
    Ok(())
}
