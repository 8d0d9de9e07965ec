//! Scenarios for the wire details SQS was recorded answering with (LocalStack's snapshot tests,
//! recorded against AWS): the keys a JSON answer leaves out when their list is empty, the HTTP
//! status of each error, the `__type` of the errors common to AWS services, and the exact text of
//! the error messages. What the SDK smooths over (a missing key, a `__type`) is read over raw HTTP.

use super::*;

/// One raw AWS JSON 1.0 call: status, `x-amzn-query-error` and the body as JSON.
async fn json_call(endpoint: &str, action: &str, input: serde_json::Value) -> RawAnswer {
    let body = input.to_string();
    // A signature's credential scope says the region; LocalStack reads it, ours too.
    let (status, head, body) = http_exchange(endpoint, |authority| {
        format!(
            "POST / HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/x-amz-json-1.0\r\n\
             X-Amz-Target: AmazonSQS.{action}\r\nx-amzn-query-mode: true\r\n\
             Authorization: AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    })
    .await;
    RawAnswer {
        status,
        query_error: header_of(&head, "x-amzn-query-error"),
        body: serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
    }
}

struct RawAnswer {
    status: u16,
    query_error: String,
    body: serde_json::Value,
}

impl RawAnswer {
    /// The `__type` without its namespace, as clients read it.
    fn error_type(&self) -> &str {
        let full = self.body["__type"].as_str().unwrap_or_default();
        full.rsplit_once('#').map_or(full, |(_, name)| name)
    }
}

/// The HTTP status of a failed SDK call (0 when it succeeded or has no response).
fn status<T, E>(result: &Result<T, SdkError<E, aws_sdk_sqs::config::http::HttpResponse>>) -> u16 {
    match result {
        Err(e) => e.raw_response().map_or(0, |r| r.status().as_u16()),
        Ok(_) => 0,
    }
}

/// The message of a failed SDK call.
fn message<T, E: ProvideErrorMetadata, R>(result: &Result<T, SdkError<E, R>>) -> String {
    match result {
        Err(e) => e.message().unwrap_or_default().to_owned(),
        Ok(_) => "ok".to_owned(),
    }
}

/// SQS leaves an empty list or map out of a JSON answer: a SendMessageBatch without failures has
/// no `Failed`, an empty receive no `Messages`, a queue without tags no `Tags`, a prefix that no
/// queue has no `QueueUrls` (all recorded). Unrecorded, decided the same way for the rest:
/// `ListDeadLetterSourceQueues` and `ListMessageMoveTasks` with nothing to list.
pub(super) async fn empty_lists_are_left_out(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let q = t.standard_queue("cf-empties", &[]).await;
    let sent = json_call(
        &t.endpoint,
        "SendMessageBatch",
        serde_json::json!({"QueueUrl": q.url, "Entries": [{"Id": "a", "MessageBody": "one"}]}),
    )
    .await;
    checks.check(
        "a SendMessageBatch without failures has no Failed",
        sent.status == 200 && sent.body.get("Failed").is_none(),
        || format!("{} {}", sent.status, sent.body),
    );
    let received = t.receive(&q.url, 10, Some(30), 0).await;
    checks.check("the message arrives", received.len() == 1, || {
        format!("{received:?}")
    });
    let empty = serde_json::json!({});
    for (case, action, input) in [
        (
            "an empty ReceiveMessage",
            "ReceiveMessage",
            serde_json::json!({"QueueUrl": q.url}),
        ),
        (
            "ListQueueTags of a queue without tags",
            "ListQueueTags",
            serde_json::json!({"QueueUrl": q.url}),
        ),
        (
            "ListQueues with a prefix no queue has",
            "ListQueues",
            serde_json::json!({"QueueNamePrefix": support::unique_name("cf-none")}),
        ),
    ] {
        let got = json_call(&t.endpoint, action, input).await;
        checks.check(case, got.status == 200 && got.body == empty, || {
            format!("{} {}", got.status, got.body)
        });
    }
    // LocalStack differs: it sends `"queueUrls": []` and `"Results": []`. SQS was not recorded
    // for these two; every list it was recorded with is left out when empty.
    for (case, action, input) in [
        (
            "ListDeadLetterSourceQueues of a queue that is nobody's DLQ",
            "ListDeadLetterSourceQueues",
            serde_json::json!({"QueueUrl": q.url}),
        ),
        (
            "ListMessageMoveTasks of a queue without tasks",
            "ListMessageMoveTasks",
            serde_json::json!({"SourceArn": q.arn}),
        ),
    ] {
        let got = json_call(&t.endpoint, action, input).await;
        match t.kind {
            Kind::Ours => checks.check(case, got.status == 200 && got.body == empty, || {
                format!("{} {}", got.status, got.body)
            }),
            Kind::LocalStack => eprintln!("note: LocalStack differs: {case}: {}", got.body),
        }
    }
    checks.finish();
}

/// The HTTP status and `__type` of errors, as SQS answers them: PurgeQueueInProgress 403, a move
/// task's missing resource 404, an invalid receipt handle 404; the common errors'
/// `InvalidParameterValueException` and `MissingRequiredParameterException` beside their Query
/// codes in `x-amzn-query-error`.
pub(super) async fn error_statuses_and_types(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let q = t.standard_queue("cf-status", &[]).await;
    t.client
        .purge_queue()
        .queue_url(&q.url)
        .send()
        .await
        .unwrap();
    // LocalStack answers this only with SQS_DELAY_PURGE_RETRY=1 (scripts/localstack.sh sets it).
    let again = t.client.purge_queue().queue_url(&q.url).send().await;
    checks.check("a second PurgeQueue is 403", status(&again) == 403, || {
        format!("got {}", status(&again))
    });
    let missing_arn = q.arn.replace(&q.name, &support::unique_name("cf-missing"));
    let no_source = t
        .client
        .start_message_move_task()
        .source_arn(&missing_arn)
        .send()
        .await;
    checks.check(
        "StartMessageMoveTask from a missing queue is 404",
        status(&no_source) == 404,
        || format!("got {}", status(&no_source)),
    );
    let stale = t
        .client
        .delete_message()
        .queue_url(&q.url)
        .receipt_handle("garbage")
        .send()
        .await;
    match t.kind {
        Kind::Ours => checks.check(
            "DeleteMessage with an invalid receipt handle is 404",
            status(&stale) == 404,
            || format!("got {}", status(&stale)),
        ),
        // LocalStack differs: 400. SQS's model gives ReceiptHandleIsInvalid HTTP 404.
        Kind::LocalStack => eprintln!(
            "note: LocalStack differs: an invalid receipt handle: HTTP {}",
            status(&stale)
        ),
    }

    let too_many = json_call(
        &t.endpoint,
        "ReceiveMessage",
        serde_json::json!({"QueueUrl": q.url, "MaxNumberOfMessages": 11}),
    )
    .await;
    checks.check(
        "MaxNumberOfMessages 11",
        (
            too_many.status,
            too_many.error_type(),
            too_many.query_error.as_str(),
        ) == (
            400,
            "InvalidParameterValueException",
            "InvalidParameterValue;Sender",
        ),
        || {
            format!(
                "{} {} {}",
                too_many.status, too_many.query_error, too_many.body
            )
        },
    );
    let no_body = json_call(
        &t.endpoint,
        "SendMessage",
        serde_json::json!({"QueueUrl": q.url, "MessageBody": ""}),
    )
    .await;
    checks.check(
        "an empty MessageBody",
        (
            no_body.status,
            no_body.error_type(),
            no_body.query_error.as_str(),
        ) == (
            400,
            "MissingRequiredParameterException",
            "MissingParameter;Sender",
        ),
        || {
            format!(
                "{} {} {}",
                no_body.status, no_body.query_error, no_body.body
            )
        },
    );
    checks.finish();
}

/// Error messages in SQS's words, where a recorded answer shows them: one attribute named, values
/// quoted whole, a batch entry's own wording.
pub(super) async fn recorded_error_messages(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let mut expect = |case: &str, got: String, want: &str| {
        checks.check(case, got == want, || {
            format!("expected {want:?}, got {got:?}")
        });
    };
    let q = t
        .standard_queue("cf-words", &[(QueueAttributeName::DelaySeconds, "1")])
        .await;
    let again = t
        .client
        .create_queue()
        .queue_name(&q.name)
        .attributes(QueueAttributeName::DelaySeconds, "2")
        .attributes(QueueAttributeName::VisibilityTimeout, "30")
        .send()
        .await;
    expect(
        "CreateQueue again with another DelaySeconds",
        message(&again),
        "A queue already exists with the same name and a different value for attribute DelaySeconds",
    );
    let fifo = t
        .fifo_queue(
            "cf-words",
            &[(QueueAttributeName::ContentBasedDeduplication, "true")],
        )
        .await;
    let again = t
        .client
        .create_queue()
        .queue_name(&fifo.name)
        .attributes(QueueAttributeName::FifoQueue, "true")
        .attributes(QueueAttributeName::ContentBasedDeduplication, "false")
        .send()
        .await;
    expect(
        "CreateQueue again with another ContentBasedDeduplication",
        message(&again),
        "A queue already exists with the same name and a different value for attribute ContentBasedDeduplication",
    );
    for (attribute, value) in [
        (QueueAttributeName::DeduplicationScope, "queue"),
        (QueueAttributeName::FifoThroughputLimit, "perQueue"),
    ] {
        let name = support::unique_name("cf-words");
        let created = t
            .client
            .create_queue()
            .queue_name(&name)
            .attributes(attribute.clone(), value)
            .send()
            .await;
        if let Ok(out) = &created
            && let Some(url) = out.queue_url()
        {
            t.created.lock().unwrap().push(url.to_owned());
        }
        expect(
            &format!("CreateQueue of a standard queue with {attribute}"),
            message(&created),
            &format!("You can specify the {attribute} only when FifoQueue is set to true."),
        );
    }
    let empty_attribute = t
        .client
        .send_message()
        .queue_url(&q.url)
        .message_body("x")
        .message_attributes(
            "ErrorDetails",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("")
                .build()
                .unwrap(),
        )
        .send()
        .await;
    expect(
        "a String message attribute with an empty value",
        message(&empty_attribute),
        "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.",
    );
    let long_group = "a".repeat(129);
    let grouped = t
        .client
        .send_message()
        .queue_url(&q.url)
        .message_body("x")
        .message_group_id(&long_group)
        .send()
        .await;
    expect(
        "a 129-character MessageGroupId, quoted whole",
        message(&grouped),
        &format!(
            "Value {long_group} for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length."
        ),
    );
    let small = t
        .standard_queue(
            "cf-words-small",
            &[(QueueAttributeName::MaximumMessageSize, "1024")],
        )
        .await;
    let batch = t
        .client
        .send_message_batch()
        .queue_url(&small.url)
        .entries(batch_entry("big", &"a".repeat(1025)))
        .entries(batch_entry("small", "a"))
        .send()
        .await
        .unwrap();
    let entry_message = batch
        .failed()
        .first()
        .and_then(|f| f.message())
        .unwrap_or_default()
        .to_owned();
    let want = "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.";
    match t.kind {
        Kind::Ours => expect("a batch entry over MaximumMessageSize", entry_message, want),
        // LocalStack differs: it words the entry as SendMessage words the request ("are invalid").
        Kind::LocalStack => eprintln!(
            "note: LocalStack differs: a batch entry over MaximumMessageSize: {entry_message:?}"
        ),
    }
    checks.finish();
}

/// One raw GET: status, content type and body.
async fn raw_get(endpoint: &str, path_and_query: &str, accept_json: bool) -> (u16, String, String) {
    let accept = if accept_json {
        "Accept: application/json\r\n"
    } else {
        ""
    };
    let (status, head, body) = http_exchange(endpoint, |authority| {
        format!(
            "GET {path_and_query} HTTP/1.1\r\nHost: {authority}\r\n{accept}Connection: close\r\n\r\n"
        )
    })
    .await;
    (status, header_of(&head, "content-type"), body)
}

/// The Query protocol's GETs as SQS was recorded answering them: JSON when asked for with
/// `Accept: application/json`, `InvalidAction` for ListQueues at a queue's URL, 404
/// `<UnknownOperationException/>` for a GET that names no action, and a state change through a
/// plain GET served.
pub(super) async fn query_gets(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let q = t.standard_queue("cf-get", &[]).await;
    let path = q
        .url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map(|(_, path)| format!("/{path}"))
        .unwrap_or_default();

    let (status, content_type, body) =
        raw_get(&t.endpoint, "/?Action=ListQueues&Version=2012-11-05", true).await;
    let listed: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    checks.check(
        "a GET ListQueues that accepts JSON",
        status == 200
            && content_type.starts_with("application/json")
            && listed.get("ListQueuesResponse").is_some(),
        || format!("{status} {content_type} {body}"),
    );

    let (status, _, body) = raw_get(&t.endpoint, &format!("{path}?Action=ListQueues"), true).await;
    let error: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    match t.kind {
        Kind::Ours => checks.check(
            "ListQueues at a queue's URL",
            status == 400
                && error["Error"]["Code"] == "InvalidAction"
                && error["Error"]["Message"]
                    == "The action ListQueues is not valid for this endpoint.",
            || format!("{status} {body}"),
        ),
        // LocalStack differs: the same error, wrapped in an "ErrorResponse" key that SQS's has not.
        Kind::LocalStack => checks.check(
            "ListQueues at a queue's URL",
            status == 400 && error["ErrorResponse"]["Error"]["Code"] == "InvalidAction",
            || format!("{status} {body}"),
        ),
    }

    let (status, _, body) = raw_get(&t.endpoint, &path, true).await;
    checks.check(
        "a GET that names no action",
        status == 404 && body == "<UnknownOperationException/>",
        || format!("{status} {body}"),
    );

    let send = format!(
        "Action=SendMessage&QueueUrl={}&MessageBody={}",
        crate::connection::percent_encoded(&q.url),
        crate::connection::percent_encoded("sent by GET")
    );
    let (status, _, body) = raw_get(&t.endpoint, &format!("/?{send}"), false).await;
    checks.check("SendMessage through a plain GET", status == 200, || {
        format!("{status} {body}")
    });
    checks.check(
        "the message sent through GET arrives",
        bodies(&t.receive(&q.url, 10, None, 1).await) == ["sent by GET"],
        || "nothing arrived".to_owned(),
    );

    // Recorded on SQS: CreateQueue at a queue's URL is InvalidAction too, and a receive that
    // finds nothing answers one empty-element tag.
    let create = format!(
        "{path}?Action=CreateQueue&QueueName={}",
        support::unique_name("cf-get-created")
    );
    let (status, _, body) = raw_get(&t.endpoint, &create, false).await;
    checks.check(
        "CreateQueue at a queue's URL",
        status == 400
            && body.contains("<Code>InvalidAction</Code>")
            && body.contains("<Message>The action CreateQueue is not valid for this endpoint"),
        || format!("{status} {body}"),
    );
    let receive = format!(
        "/?Action=ReceiveMessage&QueueUrl={}",
        crate::connection::percent_encoded(&q.url)
    );
    let (status, _, body) = raw_get(&t.endpoint, &receive, false).await;
    // LocalStack differs: it writes the same empty element with a space, `<ReceiveMessageResult />`.
    let body = match t.kind {
        Kind::Ours => body,
        Kind::LocalStack => body.replace(" />", "/>"),
    };
    checks.check(
        "a receive through GET that finds nothing",
        status == 200 && body.contains("<ReceiveMessageResult/>"),
        || format!("{status} {body}"),
    );
    checks.finish();
}
