//! AddPermission and RemovePermission on our server alone: the Query protocol's list parameters
//! (`AWSAccountId.N`, `ActionName.N`), and the queue's `LastModifiedTimestamp` on the manual clock.
//! What SQS answers is compared with LocalStack in `tests/it/conformance/permissions.rs`.

use std::time::Duration;

use sqsctl_local::{Server, ServerConfig};

use super::query_protocol::{Answer, assert_error, encode};
use super::{TestResult, attribute, client, create, manual_server, raw};

async fn query(server: &Server, params: &[(&str, &str)]) -> Answer {
    let body = encode(params);
    let request = format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    Answer::parse(&raw(server, request).await)
}

fn policy_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("Policy {text:?}: {e}"))
}

#[tokio::test]
async fn query_clients_add_and_remove_permissions_by_label() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let url = create(&sqs, "shared", &[]).await;
    let added = query(
        &server,
        &[
            ("Action", "AddPermission"),
            ("QueueUrl", &url),
            ("Label", "crossaccount"),
            ("AWSAccountId.1", "111122223333"),
            ("AWSAccountId.2", "444455556666"),
            ("ActionName.1", "SendMessage"),
            ("ActionName.2", "ReceiveMessage"),
        ],
    )
    .await;
    assert_eq!(added.status, 200, "{}", added.body);
    assert!(
        added.body.contains("<AddPermissionResponse"),
        "{}",
        added.body
    );
    let policy = policy_of(&attribute(&sqs, &url, "Policy").await);
    let arn = attribute(&sqs, &url, "QueueArn").await;
    assert_eq!(
        policy,
        serde_json::json!({
            "Version": "2008-10-17",
            "Id": format!("{arn}/SQSDefaultPolicy"),
            "Statement": [{
                "Sid": "crossaccount",
                "Effect": "Allow",
                "Principal": {"AWS": ["arn:aws:iam::111122223333:root", "arn:aws:iam::444455556666:root"]},
                "Action": ["SQS:SendMessage", "SQS:ReceiveMessage"],
                "Resource": arn,
            }]
        })
    );
    let again = query(
        &server,
        &[
            ("Action", "AddPermission"),
            ("QueueUrl", &url),
            ("Label", "crossaccount"),
            ("AWSAccountId.1", "111122223333"),
            ("ActionName.1", "SendMessage"),
        ],
    )
    .await;
    assert_error(&again, 400, "InvalidParameterValue");
    assert_eq!(
        again.text("Message"),
        "Value crossaccount for parameter Label is invalid. Reason: Already exists."
    );
    let no_actions = query(
        &server,
        &[
            ("Action", "AddPermission"),
            ("QueueUrl", &url),
            ("Label", "other"),
            ("AWSAccountId.1", "111122223333"),
        ],
    )
    .await;
    assert_error(&no_actions, 400, "MissingParameter");

    let removed = query(
        &server,
        &[
            ("Action", "RemovePermission"),
            ("QueueUrl", &url),
            ("Label", "crossaccount"),
        ],
    )
    .await;
    assert_eq!(removed.status, 200, "{}", removed.body);
    assert!(
        removed.body.contains("<RemovePermissionResponse"),
        "{}",
        removed.body
    );
    // The last statement gone, the queue has no policy at all.
    assert_eq!(attribute(&sqs, &url, "Policy").await, "");
    let unknown = query(
        &server,
        &[
            ("Action", "RemovePermission"),
            ("QueueUrl", &url),
            ("Label", "crossaccount"),
        ],
    )
    .await;
    assert_error(&unknown, 400, "InvalidParameterValue");
    assert_eq!(
        unknown.text("Message"),
        "Value crossaccount for parameter Label is invalid. Reason: can't find label."
    );
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_permission_added_or_removed_is_a_change_of_the_queue() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "shared", &[]).await;
    let created = attribute(&sqs, &url, "LastModifiedTimestamp").await;
    server.clock().advance(Duration::from_secs(10));
    sqs.add_permission()
        .queue_url(&url)
        .label("p")
        .aws_account_ids("111122223333")
        .actions("SendMessage")
        .send()
        .await?;
    let added = attribute(&sqs, &url, "LastModifiedTimestamp").await;
    assert_eq!(added.parse::<u64>()?, created.parse::<u64>()? + 10);
    // A refused change changes nothing.
    server.clock().advance(Duration::from_secs(10));
    let refused = sqs
        .add_permission()
        .queue_url(&url)
        .label("p")
        .aws_account_ids("111122223333")
        .actions("SendMessage")
        .send()
        .await;
    assert!(refused.is_err());
    assert_eq!(attribute(&sqs, &url, "LastModifiedTimestamp").await, added);
    sqs.remove_permission()
        .queue_url(&url)
        .label("p")
        .send()
        .await?;
    let removed = attribute(&sqs, &url, "LastModifiedTimestamp").await;
    assert_eq!(removed.parse::<u64>()?, added.parse::<u64>()? + 10);
    server.shutdown().await;
    Ok(())
}
