//! The wire details SQS was recorded answering with, on our server alone, over raw HTTP since the
//! SDK smooths them over: the keys a JSON answer leaves out when their list or map is empty, the
//! HTTP status and `__type` of each error, and the Query protocol's GETs (answers in JSON on
//! `Accept: application/json`, `ListQueues` at a queue's URL, a GET that names no action).
//! `tests/it/conformance/wire.rs` runs the same checks against LocalStack too.

use serde_json::{Value, json};
use sqsctl_local::{Server, ServerConfig};

use super::query_protocol::{Answer, encode};
use super::{TestResult, client, create, manual_server, post, raw, raw_get, status_head_body};

/// One AWS JSON 1.0 call: its status, head and body (`Value::Null` when not JSON).
async fn call(server: &Server, action: &str, input: Value) -> (u16, String, Value) {
    let request = post(
        Some(&format!("AmazonSQS.{action}")),
        "application/x-amz-json-1.0",
        &input.to_string(),
    );
    let answer = raw(server, request).await;
    let (status, head, body) = status_head_body(&answer);
    let body = serde_json::from_str(body).unwrap_or(Value::Null);
    (status, head.to_string(), body)
}

/// The body of a call that must succeed.
async fn ok(server: &Server, action: &str, input: Value) -> Value {
    let (status, _, body) = call(server, action, input).await;
    assert_eq!(status, 200, "{action}: {body}");
    body
}

#[tokio::test]
async fn json_answers_leave_out_empty_lists_and_maps() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let url = create(&sqs, "empties", &[]).await;
    let dlq = create(&sqs, "empties-dlq", &[]).await;

    // Recorded on SQS: a SendMessageBatch without failures has no `Failed` key.
    let sent = ok(
        &server,
        "SendMessageBatch",
        json!({"QueueUrl": url, "Entries": [{"Id": "a", "MessageBody": "one"}, {"Id": "b", "MessageBody": "two"}]}),
    )
    .await;
    assert_eq!(sent["Successful"].as_array().map(Vec::len), Some(2));
    assert!(sent.get("Failed").is_none(), "{sent}");

    let received = ok(
        &server,
        "ReceiveMessage",
        json!({"QueueUrl": url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 30}),
    )
    .await;
    let handles: Vec<&str> = received["Messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["ReceiptHandle"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(handles.len(), 2, "{received}");
    let changes: Vec<Value> = handles
        .iter()
        .enumerate()
        .map(|(i, h)| json!({"Id": format!("c{i}"), "ReceiptHandle": h, "VisibilityTimeout": 5}))
        .collect();
    let changed = ok(
        &server,
        "ChangeMessageVisibilityBatch",
        json!({"QueueUrl": url, "Entries": changes}),
    )
    .await;
    assert!(
        changed.get("Successful").is_some() && changed.get("Failed").is_none(),
        "{changed}"
    );
    let deletes: Vec<Value> = handles
        .iter()
        .enumerate()
        .map(|(i, h)| json!({"Id": format!("d{i}"), "ReceiptHandle": h}))
        .collect();
    let deleted = ok(
        &server,
        "DeleteMessageBatch",
        json!({"QueueUrl": url, "Entries": deletes}),
    )
    .await;
    assert!(
        deleted.get("Successful").is_some() && deleted.get("Failed").is_none(),
        "{deleted}"
    );
    // Every entry failed: no `Successful`.
    let failed = ok(
        &server,
        "DeleteMessageBatch",
        json!({"QueueUrl": url, "Entries": [{"Id": "x", "ReceiptHandle": "garbage"}]}),
    )
    .await;
    assert!(
        failed.get("Successful").is_none() && failed.get("Failed").is_some(),
        "{failed}"
    );
    assert_eq!(failed["Failed"][0]["Code"], "ReceiptHandleIsInvalid");

    // Recorded on SQS: an empty receive, a queue without tags, a Policy that is not set and a
    // prefix no queue has answer without the key.
    let empty = json!({});
    for (action, input) in [
        ("ReceiveMessage", json!({"QueueUrl": url})),
        ("ListQueueTags", json!({"QueueUrl": url})),
        (
            "GetQueueAttributes",
            json!({"QueueUrl": url, "AttributeNames": ["Policy"]}),
        ),
        ("ListQueues", json!({"QueueNamePrefix": "nothing-here"})),
        // Not recorded, decided as SQS answers every other empty list: without the key.
        ("ListDeadLetterSourceQueues", json!({"QueueUrl": dlq})),
        (
            "ListMessageMoveTasks",
            json!({"SourceArn": server.queue_arn("empties-dlq")}),
        ),
    ] {
        assert_eq!(ok(&server, action, input).await, empty, "{action}");
    }
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn errors_have_the_status_and_type_sqs_answers_with() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "statuses", &[]).await;

    ok(&server, "PurgeQueue", json!({"QueueUrl": url})).await;
    let (status, head, body) = call(&server, "PurgeQueue", json!({"QueueUrl": url})).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        head.contains("x-amzn-query-error: AWS.SimpleQueueService.PurgeQueueInProgress;Sender")
    );
    assert_eq!(
        body["message"],
        "Only one PurgeQueue operation on statuses is allowed every 60 seconds."
    );

    let missing_arn = server.queue_arn("statuses").replace("statuses", "gone");
    let (status, head, body) = call(
        &server,
        "StartMessageMoveTask",
        json!({"SourceArn": missing_arn}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert!(head.contains("x-amzn-query-error: ResourceNotFoundException;Sender"));
    assert_eq!(
        body["message"],
        "The resource that you specified for the SourceArn parameter doesn't exist."
    );

    let (status, _, body) = call(
        &server,
        "DeleteMessage",
        json!({"QueueUrl": url, "ReceiptHandle": "garbage"}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["__type"], "com.amazonaws.sqs#ReceiptHandleIsInvalid");

    // The errors common to AWS services have their `...Exception` names in `__type`, beside the
    // Query code in the header.
    let (status, head, body) = call(
        &server,
        "ReceiveMessage",
        json!({"QueueUrl": url, "MaxNumberOfMessages": 11}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(head.contains("x-amzn-query-error: InvalidParameterValue;Sender"));
    assert_eq!(
        body,
        json!({
            "__type": "com.amazon.coral.service#InvalidParameterValueException",
            "message": "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.",
        })
    );
    let (status, head, body) = call(&server, "SendMessage", json!({"QueueUrl": url})).await;
    assert_eq!(status, 400);
    assert!(head.contains("x-amzn-query-error: MissingParameter;Sender"));
    assert_eq!(
        body["__type"],
        "com.amazon.coral.service#MissingRequiredParameterException"
    );
    assert_eq!(
        body["message"],
        "The request must contain the parameter MessageBody."
    );

    let stored = Server::start(ServerConfig {
        max_bytes: Some(1024),
        ..ServerConfig::default()
    })?;
    let full = create(&client(&stored), "full", &[]).await;
    let (status, head, _) = call(
        &stored,
        "SendMessage",
        json!({"QueueUrl": full, "MessageBody": "x".repeat(2000)}),
    )
    .await;
    assert_eq!(status, 403);
    assert!(head.contains("x-amzn-query-error: OverLimit;Sender"));
    stored.shutdown().await;
    server.shutdown().await;
    Ok(())
}

/// A GET with `headers` (each line ending in `\r\n`).
async fn get(server: &Server, path_and_query: &str, headers: &str) -> Answer {
    Answer::parse(&raw_get(server, path_and_query, headers).await)
}

const ACCEPT_JSON: &str = "Accept: application/json\r\n";

#[tokio::test]
async fn query_gets_that_accept_json_are_answered_in_json() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let url = create(&sqs, "negotiated", &[]).await;
    let path = url
        .split_once("//")
        .and_then(|(_, rest)| rest.split_once('/'))
        .map(|(_, path)| format!("/{path}"))
        .unwrap_or_default();

    let listed = get(
        &server,
        "/?Action=ListQueues&Version=2012-11-05",
        ACCEPT_JSON,
    )
    .await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.content_type, "application/json");
    let listed: Value = serde_json::from_str(&listed.body)?;
    assert!(listed.get("ListQueuesResponse").is_some(), "{listed}");
    assert_eq!(
        listed["ListQueuesResponse"]["ListQueuesResult"]["QueueUrls"][0],
        url.as_str()
    );
    // Without the header, XML as ever.
    let xml = get(&server, "/?Action=ListQueues&Version=2012-11-05", "").await;
    assert!(xml.body.contains("<ListQueuesResponse"), "{}", xml.body);

    let send = encode(&[
        ("Action", "SendMessage"),
        ("MessageBody", "negotiated body"),
    ]);
    assert_eq!(
        get(&server, &format!("{path}?{send}"), "").await.status,
        200
    );
    let receive = encode(&[
        ("Action", "ReceiveMessage"),
        ("QueueUrl", &url),
        ("VisibilityTimeout", "0"),
    ]);
    let received = get(&server, &format!("/?{receive}"), ACCEPT_JSON).await;
    let received: Value = serde_json::from_str(&received.body)?;
    assert_eq!(
        received["ReceiveMessageResponse"]["ReceiveMessageResult"]["messages"][0]["Body"],
        "negotiated body",
        "{received}"
    );
    let attributes = encode(&[("Action", "GetQueueAttributes"), ("AttributeName.1", "All")]);
    let attributes = get(&server, &format!("{path}?{attributes}"), ACCEPT_JSON).await;
    let attributes: Value = serde_json::from_str(&attributes.body)?;
    let pairs = &attributes["GetQueueAttributesResponse"]["GetQueueAttributesResult"]["Attributes"];
    let arn = pairs
        .as_array()
        .and_then(|pairs| pairs.iter().find(|p| p["Name"] == "QueueArn"))
        .map(|p| p["Value"].clone());
    assert_eq!(
        arn,
        Some(json!(server.queue_arn("negotiated"))),
        "{attributes}"
    );

    // Recorded on SQS: ListQueues sent to a queue's URL is InvalidAction, here in JSON.
    let at_queue = get(&server, &format!("{path}?Action=ListQueues"), ACCEPT_JSON).await;
    assert_eq!(at_queue.status, 400);
    let at_queue: Value = serde_json::from_str(&at_queue.body)?;
    assert_eq!(at_queue["Error"]["Code"], "InvalidAction");
    assert_eq!(
        at_queue["Error"]["Message"],
        "The action ListQueues is not valid for this endpoint."
    );

    // Recorded on SQS: the Query protocol words a missing queue its own way.
    let gone = encode(&[
        ("Action", "GetQueueAttributes"),
        ("QueueUrl", &url.replace("negotiated", "gone")),
    ]);
    let gone = get(&server, &format!("/?{gone}"), "").await;
    assert_eq!(gone.status, 400);
    assert_eq!(
        gone.text("Message"),
        "The specified queue does not exist for this wsdl version."
    );

    // A GET that names no action is a 404 in XML, whatever it accepts; the server's own paths
    // still answer.
    for (target, headers) in [
        (path.as_str(), ACCEPT_JSON),
        ("/", ""),
        ("/?Version=2012-11-05", ""),
    ] {
        let nothing = get(&server, target, headers).await;
        assert_eq!(nothing.status, 404, "{target}");
        assert_eq!(nothing.body, "<UnknownOperationException/>");
        assert_eq!(nothing.content_type, "text/xml");
    }
    assert_eq!(get(&server, "/_sqsctl/health", "").await.status, 200);
    server.shutdown().await;
    Ok(())
}
