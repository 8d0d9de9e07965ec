//! The inspection endpoints (`/_sqsctl/v1/info`, `/_sqsctl/v1/messages`, `/_sqsctl/v1/groups`)
//! over HTTP: messages listed in the shape of a JSON ReceiveMessage answer, in delivery order,
//! counts per message group with fair delivery's noisy flags, and a queue that is exactly as it
//! was after being looked at.

use std::time::Duration;

use aws_sdk_sqs::types::{MessageAttributeValue, MessageSystemAttributeName};
use serde_json::{Value, json};
use sqsctl_local::{Server, ServerConfig};

use super::{
    TestResult, attribute, client, create, delete, manual_server, raw, raw_get, receive_one,
    receive_up_to, send, send_fifo, status_head_body, system,
};

/// A GET of the server's own paths: the status, the whole head and the body.
async fn get(server: &Server, path_and_query: &str, headers: &str) -> (u16, String, String) {
    let answer = raw_get(server, path_and_query, headers).await;
    let (status, head, body) = status_head_body(&answer);
    (status, head.to_string(), body.to_string())
}

async fn listing(server: &Server, url: &str, extra: &str) -> Value {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("QueueUrl", url)
        .finish();
    let (status, head, body) =
        get(server, &format!("/_sqsctl/v1/messages?{query}{extra}"), "").await;
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(head.contains("content-type: application/json"), "{head}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// `/_sqsctl/v1/groups` for a queue.
pub(super) async fn groups(server: &Server, url: &str, extra: &str) -> Value {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("QueueUrl", url)
        .finish();
    let (status, head, body) = get(server, &format!("/_sqsctl/v1/groups?{query}{extra}"), "").await;
    assert_eq!(status, 200, "{head}\n{body}");
    assert!(head.contains("content-type: application/json"), "{head}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn bodies(listing: &Value) -> Vec<(String, String)> {
    listing["Messages"]
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .map(|m| {
                    let text = |key: &str| m[key].as_str().unwrap_or_default().to_string();
                    (text("Body"), text("State"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn info_names_the_server_and_the_contract() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let (status, head, body) = get(&server, "/_sqsctl/v1/info", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/json"), "{head}");
    let info: Value = serde_json::from_str(&body)?;
    assert_eq!(
        info,
        json!({"server": "sqsctl-local", "version": env!("CARGO_PKG_VERSION"), "inspect": 1})
    );
    let (status, _, body) = get(
        &server,
        "/_sqsctl/v1/info",
        "Sec-Fetch-Site: cross-site\r\n",
    )
    .await;
    assert_eq!(status, 403, "{body}");
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_listing_shows_what_a_receive_would_and_changes_nothing() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "looked-at", &[]).await;
    let sent = sqs
        .send_message()
        .queue_url(&url)
        .message_body("one")
        .message_attributes(
            "k",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("v")
                .build()?,
        )
        .send()
        .await?;
    send(&sqs, &url, "two").await?;
    sqs.send_message()
        .queue_url(&url)
        .message_body("three")
        .delay_seconds(10)
        .send()
        .await?;
    let received = receive_one(&sqs, &url, None).await.expect("a message");
    assert_eq!(received.body(), Some("one"));

    let visible = listing(&server, &url, "").await;
    assert_eq!(bodies(&visible), [("two".into(), "visible".into())]);
    assert_eq!(visible["Truncated"], false);
    let all = listing(&server, &url, "&State=all").await;
    assert_eq!(
        bodies(&all),
        [
            ("one".into(), "in_flight".into()),
            ("two".into(), "visible".into()),
            ("three".into(), "delayed".into())
        ]
    );
    let one = &all["Messages"][0];
    assert_eq!(one["MessageId"], json!(sent.message_id()));
    assert_eq!(one["MD5OfBody"], json!(sent.md5_of_message_body()));
    assert_eq!(
        one["MD5OfMessageAttributes"],
        json!(sent.md5_of_message_attributes())
    );
    assert_eq!(
        one["MessageAttributes"],
        json!({"k": {"DataType": "String", "StringValue": "v"}})
    );
    assert!(one.get("ReceiptHandle").is_none(), "{one}");
    let attributes = &one["Attributes"];
    assert_eq!(attributes["ApproximateReceiveCount"], "1");
    assert_eq!(
        attributes["ApproximateFirstReceiveTimestamp"],
        json!(system(
            &received,
            MessageSystemAttributeName::ApproximateFirstReceiveTimestamp
        ))
    );
    assert_eq!(attributes["SenderId"], "000000000000");
    assert!(attributes["SentTimestamp"].is_string(), "{attributes}");
    let two = &all["Messages"][1];
    assert_eq!(two["Attributes"]["ApproximateReceiveCount"], "0");
    assert!(
        two["Attributes"]
            .get("ApproximateFirstReceiveTimestamp")
            .is_none()
    );
    assert!(two.get("MD5OfMessageAttributes").is_none() && two.get("MessageAttributes").is_none());

    let first = listing(&server, &url, "&State=all&Max=1").await;
    assert_eq!(bodies(&first), [("one".into(), "in_flight".into())]);
    assert_eq!(first["Truncated"], true);
    assert_eq!(
        listing(&server, &url, "&State=all&Max=3").await["Truncated"],
        false
    );

    // The queue is as it was: counts, visibility, receive counts.
    for (name, value) in [
        ("ApproximateNumberOfMessages", "1"),
        ("ApproximateNumberOfMessagesNotVisible", "1"),
        ("ApproximateNumberOfMessagesDelayed", "1"),
    ] {
        assert_eq!(attribute(&sqs, &url, name).await, value, "{name}");
    }
    // Past the visibility timeout, the listing sees what a receive would; the receive then
    // counts the second receive of `one`, not a fourth.
    server.clock().advance(Duration::from_secs(31));
    let later = listing(&server, &url, "").await;
    assert_eq!(bodies(&later).len(), 3, "{later}");
    assert_eq!(
        later["Messages"][0]["Attributes"]["ApproximateReceiveCount"],
        "1"
    );
    let received = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await?;
    let mut counts: Vec<(String, String)> = received
        .messages()
        .iter()
        .map(|m| {
            let count = system(m, MessageSystemAttributeName::ApproximateReceiveCount);
            (
                m.body().unwrap_or_default().to_string(),
                count.unwrap_or_default(),
            )
        })
        .collect();
    counts.sort();
    assert_eq!(
        counts,
        [
            ("one".into(), "2".into()),
            ("three".into(), "1".into()),
            ("two".into(), "1".into())
        ]
    );
    Ok(())
}

#[tokio::test]
async fn a_fifo_listing_shows_the_messages_behind_one_in_flight() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "ordered.fifo", &[("FifoQueue", "true")]).await;
    let mut sequences = Vec::new();
    for (group, body) in [("g", "a"), ("h", "x"), ("g", "b"), ("g", "c")] {
        let sent = send_fifo(&sqs, &url, group, body, Some(body)).await;
        sequences.push(sent.sequence_number.unwrap_or_default());
    }
    let taken = receive_one(&sqs, &url, None).await.expect("a message");
    assert_eq!(taken.body(), Some("a"));

    let visible = listing(&server, &url, "").await;
    assert_eq!(
        bodies(&visible),
        [
            ("x".into(), "visible".into()),
            ("b".into(), "visible".into()),
            ("c".into(), "visible".into())
        ]
    );
    let all = listing(&server, &url, "&State=all").await;
    let listed: Vec<&str> = all["Messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["Attributes"]["SequenceNumber"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(listed, sequences);
    let b = &all["Messages"][2];
    assert_eq!(b["Attributes"]["MessageGroupId"], "g");
    assert_eq!(b["Attributes"]["MessageDeduplicationId"], "b");

    // The group is still blocked behind `a`, and `b` has never been received.
    let next = receive_one(&sqs, &url, None).await.expect("a message");
    assert_eq!(next.body(), Some("x"));
    assert!(receive_one(&sqs, &url, None).await.is_none());
    delete(&sqs, &url, taken.receipt_handle().unwrap_or_default()).await?;
    let b = receive_one(&sqs, &url, None).await.expect("a message");
    assert_eq!(b.body(), Some("b"));
    assert_eq!(
        system(&b, MessageSystemAttributeName::ApproximateReceiveCount).as_deref(),
        Some("1")
    );
    Ok(())
}

#[tokio::test]
async fn unknown_queues_and_bad_parameters_get_json_errors() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let url = create(&client(&server), "q", &[]).await;
    let missing = server.queue_url("nope");
    let query = |url: &str, extra: &str| {
        let url: String = form_urlencoded::byte_serialize(url.as_bytes()).collect();
        format!("/_sqsctl/v1/messages?QueueUrl={url}{extra}")
    };
    let (status, head, body) = get(&server, &query(&missing, ""), "").await;
    assert_eq!(status, 400);
    assert!(head.contains("x-amzn-query-error: AWS.SimpleQueueService.NonExistentQueue;Sender"));
    let error: Value = serde_json::from_str(&body)?;
    assert_eq!(error["__type"], "com.amazonaws.sqs#QueueDoesNotExist");
    assert!(error["message"].is_string());

    for extra in [
        "&Max=0",
        "&Max=100001",
        "&Max=ten",
        "&State=gone",
        "&Max=5&Max=6",
    ] {
        let (status, head, body) = get(&server, &query(&url, extra), "").await;
        assert_eq!(status, 400, "{extra}: {body}");
        assert!(
            head.contains("x-amzn-query-error: InvalidParameterValue;Sender"),
            "{extra}"
        );
        assert!(
            body.contains("com.amazon.coral.service#InvalidParameterValueException"),
            "{extra}: {body}"
        );
    }
    let (status, _, _) = get(&server, &query(&url, "&Max=100000&State=all"), "").await;
    assert_eq!(status, 200);
    let (status, _, _) = get(
        &server,
        &query(&url, ""),
        "Origin: https://evil.example\r\n",
    )
    .await;
    assert_eq!(status, 403);
    // A page that rebinds its own name to 127.0.0.1 reads nothing either.
    let rebound = raw(
        &server,
        format!(
            "GET {} HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
            query(&url, ""),
            server.local_addr().port()
        ),
    )
    .await;
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    server.shutdown().await;
    Ok(())
}

async fn receive_bodies(sqs: &aws_sdk_sqs::Client, url: &str) -> Vec<String> {
    let out = receive_up_to(sqs, url, 10).await.expect("receive");
    out.messages()
        .iter()
        .map(|m| m.body().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn group_counts_show_each_tenant_and_the_noisy_one_and_change_nothing() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "tenants", &[("VisibilityTimeout", "3600")]).await;
    let t0 = server.clock().now_millis();
    let send = |body: String, group: Option<&str>, delay: i32| {
        sqs.send_message()
            .queue_url(&url)
            .message_body(body)
            .set_message_group_id(group.map(String::from))
            .delay_seconds(delay)
            .send()
    };
    for i in 0..40 {
        send(format!("a{i}"), Some("a"), 0).await?;
    }
    for i in 0..2 {
        send(format!("b{i}"), Some("b"), 0).await?;
    }
    for i in 0..3 {
        send(format!("u{i}"), None, 0).await?;
    }
    for _ in 0..3 {
        assert_eq!(receive_bodies(&sqs, &url).await.len(), 10);
    }
    server.clock().advance(Duration::from_secs(1));
    send("b-later".into(), Some("b"), 10).await?;
    let expected = json!({
        "Fifo": false,
        "InFlight": 30,
        "Groups": [
            {"GroupId": "a", "Visible": 10, "InFlight": 30, "Delayed": 0,
             "OldestSentTimestamp": t0, "LastSentTimestamp": t0, "Noisy": true},
            {"GroupId": "b", "Visible": 2, "InFlight": 0, "Delayed": 1,
             "OldestSentTimestamp": t0, "LastSentTimestamp": t0 + 1000, "Noisy": false},
        ],
        "Ungrouped": {"Visible": 3, "InFlight": 0, "Delayed": 0},
        "Truncated": false,
    });
    assert_eq!(groups(&server, &url, "").await, expected);
    // Looking changed nothing.
    assert_eq!(groups(&server, &url, "").await, expected);
    for (name, value) in [
        ("ApproximateNumberOfMessages", "15"),
        ("ApproximateNumberOfMessagesNotVisible", "30"),
        ("ApproximateNumberOfMessagesDelayed", "1"),
    ] {
        assert_eq!(attribute(&sqs, &url, name).await, value, "{name}");
    }
    let first = groups(&server, &url, "&Max=1").await;
    assert_eq!(first["Groups"], json!([expected["Groups"][0]]));
    assert_eq!(first["Truncated"], true);

    // The quiet tenants first, then a's backlog; once drained, a is no longer noisy.
    assert_eq!(
        receive_bodies(&sqs, &url).await,
        [
            "b0", "b1", "u0", "u1", "u2", "a30", "a31", "a32", "a33", "a34"
        ]
    );
    assert_eq!(receive_bodies(&sqs, &url).await.len(), 5);
    let drained = groups(&server, &url, "").await;
    assert_eq!(drained["Groups"][0]["InFlight"], 40);
    assert_eq!(drained["Groups"][0]["Noisy"], false);

    let (status, head, _) = get(
        &server,
        &format!(
            "/_sqsctl/v1/groups?QueueUrl={}",
            form_urlencoded::byte_serialize(server.queue_url("nope").as_bytes())
                .collect::<String>()
        ),
        "",
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        head.contains("AWS.SimpleQueueService.NonExistentQueue"),
        "{head}"
    );
    let off = Server::start(ServerConfig {
        inspection: false,
        ..ServerConfig::default()
    })?;
    let (status, head, _) = get(&off, "/_sqsctl/v1/groups?QueueUrl=x", "").await;
    assert_eq!(status, 400);
    assert!(head.contains("x-amzn-query-error: InvalidAction"), "{head}");
    Ok(())
}
