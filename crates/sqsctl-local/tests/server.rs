//! The local server through the real aws-sdk-sqs client, on an ephemeral port, with credentials and
//! region set in code so the environment does not matter.

use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::error::ProvideErrorMetadata;
use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{
    MessageAttributeValue, MessageSystemAttributeName, QueueAttributeName,
    SendMessageBatchRequestEntry,
};
use sqsctl_local::{Clock, Server, ServerConfig};
use support::{
    change_visibility, client_at, delete, delete_batch, receive_up_to, send, send_batch,
};

#[path = "support/mod.rs"]
mod support;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn manual_server() -> Server {
    let config = ServerConfig {
        clock: Clock::manual(UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
        ..ServerConfig::default()
    };
    Server::start(config).expect("server starts")
}

fn client_with(server: &Server, attempts: u32) -> Client {
    client_at(server, "us-east-1", attempts)
}

fn client(server: &Server) -> Client {
    client_with(server, 1)
}

/// The error code of a failed call, as `ProvideErrorMetadata` reports it.
fn code<T, E: ProvideErrorMetadata>(result: Result<T, E>) -> String {
    match result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.code().unwrap_or("none").to_string(),
    }
}

async fn create(client: &Client, name: &str, attrs: &[(&str, &str)]) -> String {
    let mut request = client.create_queue().queue_name(name);
    for (k, v) in attrs {
        request = request.attributes(QueueAttributeName::from(*k), *v);
    }
    request
        .send()
        .await
        .expect("create queue")
        .queue_url
        .expect("queue url")
}

async fn attribute(client: &Client, url: &str, name: &str) -> String {
    let out = client
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await
        .expect("get attributes");
    out.attributes
        .and_then(|a| a.get(&QueueAttributeName::from(name)).cloned())
        .unwrap_or_default()
}

#[tokio::test]
async fn queue_lifecycle_attributes_tags_and_listing() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "orders", &[("VisibilityTimeout", "45")]).await;
    assert_eq!(url, server.queue_url("orders"));
    assert_eq!(
        create(&sqs, "orders", &[("VisibilityTimeout", "45")]).await,
        url
    );
    let clash = sqs
        .create_queue()
        .queue_name("orders")
        .attributes(QueueAttributeName::VisibilityTimeout, "10")
        .send()
        .await;
    assert_eq!(code(clash), "QueueAlreadyExists");
    for name in ["orders-b", "orders-c", "other"] {
        create(&sqs, name, &[]).await;
    }
    let found = sqs.get_queue_url().queue_name("orders").send().await?;
    assert_eq!(found.queue_url.as_deref(), Some(url.as_str()));
    let missing = sqs.get_queue_url().queue_name("nope").send().await;
    assert_eq!(code(missing), "AWS.SimpleQueueService.NonExistentQueue");

    let page = sqs
        .list_queues()
        .queue_name_prefix("orders")
        .max_results(2)
        .send()
        .await?;
    assert_eq!(page.queue_urls().len(), 2);
    let rest = sqs
        .list_queues()
        .queue_name_prefix("orders")
        .max_results(2)
        .set_next_token(page.next_token.clone())
        .send()
        .await?;
    assert_eq!(rest.queue_urls().len(), 1);
    assert!(rest.next_token.is_none());
    assert_eq!(sqs.list_queues().send().await?.queue_urls().len(), 4);

    assert_eq!(attribute(&sqs, &url, "VisibilityTimeout").await, "45");
    assert_eq!(
        attribute(&sqs, &url, "QueueArn").await,
        "arn:aws:sqs:us-east-1:000000000000:orders"
    );
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "0"
    );
    assert!(!attribute(&sqs, &url, "CreatedTimestamp").await.is_empty());
    sqs.set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::DelaySeconds, "5")
        .send()
        .await?;
    assert_eq!(attribute(&sqs, &url, "DelaySeconds").await, "5");
    let bad = sqs
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::MessageRetentionPeriod, "59")
        .send()
        .await;
    assert_eq!(code(bad), "InvalidAttributeValue");
    let unknown = sqs
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::ContentBasedDeduplication)
        .send()
        .await;
    assert_eq!(code(unknown), "InvalidAttributeName");

    sqs.tag_queue()
        .queue_url(&url)
        .tags("team", "a")
        .tags("env", "dev")
        .send()
        .await?;
    sqs.untag_queue()
        .queue_url(&url)
        .tag_keys("env")
        .send()
        .await?;
    let tags = sqs.list_queue_tags().queue_url(&url).send().await?;
    assert_eq!(tags.tags().map(|t| t.len()), Some(1));

    sqs.delete_queue().queue_url(&url).send().await?;
    let gone = send(&sqs, &url, "x").await;
    assert_eq!(code(gone), "AWS.SimpleQueueService.NonExistentQueue");
    // Host differences do not matter: the URL resolves by account and name.
    let other = server.queue_url("other").replace("127.0.0.1", "localhost");
    send(&sqs, other, "x").await?;
    Ok(())
}

#[tokio::test]
async fn send_receive_delete_with_checksums_and_attributes() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "plain", &[]).await;
    let sent = sqs
        .send_message()
        .queue_url(&url)
        .message_body("hello")
        .message_attributes(
            "SellerName",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("Example Store")
                .build()?,
        )
        .send()
        .await?;
    assert_eq!(
        sent.md5_of_message_body(),
        Some("5d41402abc4b2a76b9719d911017c592")
    );
    assert_eq!(
        sent.md5_of_message_attributes(),
        Some("cd28f3b68aeee4b2eac9c66f2f694b58")
    );
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .message_attribute_names("All")
        .send()
        .await?;
    let message = &got.messages()[0];
    assert_eq!(message.body(), Some("hello"));
    assert_eq!(message.message_id(), sent.message_id());
    assert_eq!(
        message.md5_of_message_attributes(),
        Some("cd28f3b68aeee4b2eac9c66f2f694b58")
    );
    let attrs = message.attributes().cloned().unwrap_or_default();
    assert_eq!(
        attrs
            .get(&MessageSystemAttributeName::ApproximateReceiveCount)
            .map(String::as_str),
        Some("1")
    );
    assert_eq!(
        attrs
            .get(&MessageSystemAttributeName::SentTimestamp)
            .map(String::as_str),
        Some("1700000000000")
    );
    let value = message
        .message_attributes()
        .and_then(|m| m.get("SellerName"))
        .and_then(|v| v.string_value());
    assert_eq!(value, Some("Example Store"));
    delete(&sqs, &url, message.receipt_handle().unwrap_or_default()).await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "0"
    );

    let entries: Vec<_> = (0..10)
        .map(|i| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("m{i}"))
                .message_body(format!("body {i}"))
                .message_attributes(
                    "bin",
                    MessageAttributeValue::builder()
                        .data_type("Binary")
                        .binary_value(Blob::new(vec![1, 2, 3]))
                        .build()?,
                )
                .build()
        })
        .collect::<Result<_, _>>()?;
    let batch = send_batch(&sqs, &url, entries).await?;
    assert_eq!(batch.successful().len(), 10);
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_attribute_names("bin")
        .send()
        .await?;
    assert_eq!(got.messages().len(), 10);
    let bin = got.messages()[0]
        .message_attributes()
        .and_then(|m| m.get("bin"))
        .and_then(|v| v.binary_value());
    assert_eq!(bin.map(|b| b.as_ref().to_vec()), Some(vec![1, 2, 3]));
    let handles = got
        .messages()
        .iter()
        .map(|m| m.receipt_handle().unwrap_or_default());
    let deleted = delete_batch(&sqs, &url, handles).await?;
    assert_eq!(deleted.successful().len(), 10);
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "0"
    );
    Ok(())
}

async fn receive_one(
    sqs: &Client,
    url: &str,
    visibility: Option<i32>,
) -> Option<aws_sdk_sqs::types::Message> {
    sqs.receive_message()
        .queue_url(url)
        .set_visibility_timeout(visibility)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .expect("receive")
        .messages
        .and_then(|mut m| m.pop())
}

fn system(
    message: &aws_sdk_sqs::types::Message,
    name: MessageSystemAttributeName,
) -> Option<String> {
    message.attributes().and_then(|a| a.get(&name)).cloned()
}

#[tokio::test]
async fn visibility_timeouts_and_receive_counts_follow_the_manual_clock() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let clock = server.clock().clone();
    let url = create(&sqs, "vis", &[("VisibilityTimeout", "30")]).await;
    send(&sqs, &url, "m").await?;
    let first = receive_one(&sqs, &url, None).await.expect("first receive");
    let first_seen = system(
        &first,
        MessageSystemAttributeName::ApproximateFirstReceiveTimestamp,
    );
    assert!(receive_one(&sqs, &url, None).await.is_none());
    clock.advance(Duration::from_secs(29));
    assert!(receive_one(&sqs, &url, None).await.is_none());
    clock.advance(Duration::from_secs(2));
    let second = receive_one(&sqs, &url, Some(10))
        .await
        .expect("visible again");
    assert_eq!(
        system(&second, MessageSystemAttributeName::ApproximateReceiveCount).as_deref(),
        Some("2")
    );
    assert_eq!(
        system(
            &second,
            MessageSystemAttributeName::ApproximateFirstReceiveTimestamp
        ),
        first_seen
    );

    // The first handle is stale: the delete succeeds without deleting.
    let stale = first.receipt_handle().unwrap_or_default();
    delete(&sqs, &url, stale).await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "1"
    );

    let handle = second.receipt_handle().unwrap_or_default().to_string();
    change_visibility(&sqs, &url, &handle, 0).await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "1"
    );
    // A handle whose receive is over is answered with success, as SQS does, and changes
    // nothing: the message stays visible.
    change_visibility(&sqs, &url, &handle, 5).await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "1"
    );
    let invalid = delete(&sqs, &url, "garbage").await;
    assert_eq!(code(invalid), "ReceiptHandleIsInvalid");
    Ok(())
}

#[tokio::test]
async fn delays_and_retention() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let clock = server.clock().clone();
    let url = create(
        &sqs,
        "delayed",
        &[("DelaySeconds", "10"), ("MessageRetentionPeriod", "60")],
    )
    .await;
    send(&sqs, &url, "queue delay").await?;
    sqs.send_message()
        .queue_url(&url)
        .message_body("own delay")
        .delay_seconds(0)
        .send()
        .await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesDelayed").await,
        "1"
    );
    assert_eq!(
        receive_one(&sqs, &url, None)
            .await
            .and_then(|m| m.body)
            .as_deref(),
        Some("own delay")
    );
    clock.advance(Duration::from_secs(10));
    assert_eq!(
        receive_one(&sqs, &url, None)
            .await
            .and_then(|m| m.body)
            .as_deref(),
        Some("queue delay")
    );
    clock.advance(Duration::from_secs(51));
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "0"
    );
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "0"
    );
    Ok(())
}

async fn send_fifo(
    sqs: &Client,
    url: &str,
    group: &str,
    body: &str,
    dedup: Option<&str>,
) -> aws_sdk_sqs::operation::send_message::SendMessageOutput {
    sqs.send_message()
        .queue_url(url)
        .message_body(body)
        .message_group_id(group)
        .set_message_deduplication_id(dedup.map(String::from))
        .send()
        .await
        .expect("fifo send")
}

#[tokio::test]
async fn fifo_groups_block_while_in_flight_and_keep_order() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(
        &sqs,
        "jobs.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    let mut sequences = Vec::new();
    for body in ["a1", "a2", "a3"] {
        sequences.push(
            send_fifo(&sqs, &url, "a", body, None)
                .await
                .sequence_number
                .unwrap_or_default(),
        );
    }
    send_fifo(&sqs, &url, "b", "b1", None).await;
    assert!(
        sequences
            .windows(2)
            .all(|w| w[0].len() >= 20 && w[0].parse::<u128>().ok() < w[1].parse::<u128>().ok())
    );

    let first = receive_up_to(&sqs, &url, 2).await?;
    let bodies: Vec<_> = first.messages().iter().filter_map(|m| m.body()).collect();
    assert_eq!(bodies, ["a1", "a2"]);
    // Group a is blocked while a1 and a2 are in flight; only b is deliverable.
    let second = receive_up_to(&sqs, &url, 10).await?;
    let bodies: Vec<_> = second.messages().iter().filter_map(|m| m.body()).collect();
    assert_eq!(bodies, ["b1"]);
    delete(
        &sqs,
        &url,
        first.messages()[0].receipt_handle().unwrap_or_default(),
    )
    .await?;
    assert!(receive_one(&sqs, &url, None).await.is_none());
    delete(
        &sqs,
        &url,
        first.messages()[1].receipt_handle().unwrap_or_default(),
    )
    .await?;
    let third = receive_one(&sqs, &url, None)
        .await
        .expect("a3 after a1, a2");
    assert_eq!(third.body(), Some("a3"));
    assert_eq!(
        system(&third, MessageSystemAttributeName::MessageGroupId).as_deref(),
        Some("a")
    );

    let missing_group = send(&sqs, &url, "x").await;
    assert_eq!(code(missing_group), "MissingParameter");
    let delayed = sqs
        .send_message()
        .queue_url(&url)
        .message_body("x")
        .message_group_id("a")
        .delay_seconds(5)
        .send()
        .await;
    assert_eq!(code(delayed), "InvalidParameterValue");
    let plain = create(&sqs, "plain.fifo", &[("FifoQueue", "true")]).await;
    let no_dedup = sqs
        .send_message()
        .queue_url(&plain)
        .message_body("x")
        .message_group_id("g")
        .send()
        .await;
    assert_eq!(code(no_dedup), "InvalidParameterValue");
    Ok(())
}

#[tokio::test]
async fn fifo_deduplication_window_is_five_minutes_even_after_delete() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let clock = server.clock().clone();
    let url = create(&sqs, "dedup.fifo", &[("FifoQueue", "true")]).await;
    let original = send_fifo(&sqs, &url, "g", "one", Some("d1")).await;
    let duplicate = send_fifo(&sqs, &url, "g", "other body", Some("d1")).await;
    assert_eq!(duplicate.message_id, original.message_id);
    assert_eq!(duplicate.sequence_number, original.sequence_number);
    let got = receive_one(&sqs, &url, None).await.expect("one message");
    delete(&sqs, &url, got.receipt_handle().unwrap_or_default()).await?;
    clock.advance(Duration::from_secs(299));
    let after_delete = send_fifo(&sqs, &url, "g", "one", Some("d1")).await;
    assert_eq!(after_delete.message_id, original.message_id);
    assert!(receive_one(&sqs, &url, None).await.is_none());
    clock.advance(Duration::from_secs(1));
    let fresh = send_fifo(&sqs, &url, "g", "one", Some("d1")).await;
    assert_ne!(fresh.message_id, original.message_id);

    let content = create(
        &sqs,
        "content.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    let a = send_fifo(&sqs, &content, "g", "same", None).await;
    let b = send_fifo(&sqs, &content, "g", "same", None).await;
    assert_eq!(a.message_id, b.message_id);
    let per_group = create(
        &sqs,
        "scoped.fifo",
        &[
            ("FifoQueue", "true"),
            ("DeduplicationScope", "messageGroup"),
            ("FifoThroughputLimit", "perMessageGroupId"),
        ],
    )
    .await;
    let x = send_fifo(&sqs, &per_group, "g1", "x", Some("same")).await;
    let y = send_fifo(&sqs, &per_group, "g2", "x", Some("same")).await;
    assert_ne!(x.message_id, y.message_id);
    assert_eq!(
        attribute(&sqs, &per_group, "ApproximateNumberOfMessages").await,
        "2"
    );
    Ok(())
}

/// SQS goes on deduplicating under the old `DeduplicationScope` for a deduplication window after
/// the attribute changes (as recorded); then the new scope applies.
#[tokio::test]
async fn a_deduplication_scope_change_applies_after_the_window() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let clock = server.clock().clone();
    let url = create(&sqs, "rescoped.fifo", &[("FifoQueue", "true")]).await;
    sqs.set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::DeduplicationScope, "messageGroup")
        .attributes(QueueAttributeName::FifoThroughputLimit, "perMessageGroupId")
        .send()
        .await?;
    clock.advance(Duration::from_secs(200));
    let a = send_fifo(&sqs, &url, "g1", "a", Some("late")).await;
    let b = send_fifo(&sqs, &url, "g2", "b", Some("late")).await;
    assert_eq!(
        b.message_id, a.message_id,
        "still the queue scope 200 s after the change"
    );
    clock.advance(Duration::from_secs(100));
    let c = send_fifo(&sqs, &url, "g1", "c", Some("fresh")).await;
    let d = send_fifo(&sqs, &url, "g2", "d", Some("fresh")).await;
    assert_ne!(
        d.message_id, c.message_id,
        "per group once 300 s have passed"
    );
    // An id seen under the queue scope is still seen, in any group, until its own window ends.
    let e = send_fifo(&sqs, &url, "g3", "e", Some("late")).await;
    assert_eq!(e.message_id, a.message_id);
    Ok(())
}

fn redrive(server: &Server, dlq: &str, max: &str) -> String {
    format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":{max}}}"#,
        server.queue_arn(dlq)
    )
}

#[tokio::test]
async fn messages_past_max_receive_count_move_to_the_dead_letter_queue() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let dlq = create(&sqs, "work-dlq", &[]).await;
    let policy = redrive(&server, "work-dlq", "\"2\"");
    let url = create(&sqs, "work", &[("RedrivePolicy", policy.as_str())]).await;
    let sent = send(&sqs, &url, "poison").await?;
    for _ in 0..2 {
        assert!(receive_one(&sqs, &url, Some(0)).await.is_some());
    }
    assert!(receive_one(&sqs, &url, Some(0)).await.is_none());
    let moved = receive_one(&sqs, &dlq, None).await.expect("in the DLQ");
    assert_eq!(moved.message_id, sent.message_id);
    assert_eq!(
        system(&moved, MessageSystemAttributeName::DeadLetterQueueSourceArn),
        Some(server.queue_arn("work"))
    );
    let sources = sqs
        .list_dead_letter_source_queues()
        .queue_url(&dlq)
        .send()
        .await?;
    assert_eq!(sources.queue_urls(), std::slice::from_ref(&url));

    let missing = sqs
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(
            QueueAttributeName::RedrivePolicy,
            redrive(&server, "nope", "3"),
        )
        .send()
        .await;
    assert_eq!(code(missing), "InvalidParameterValue");
    let fifo_dlq = create(&sqs, "work-dlq.fifo", &[("FifoQueue", "true")]).await;
    let mismatch = sqs
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(
            QueueAttributeName::RedrivePolicy,
            redrive(&server, "work-dlq.fifo", "3"),
        )
        .send()
        .await;
    assert_eq!(code(mismatch), "InvalidParameterValue");
    assert!(!fifo_dlq.is_empty());
    let closed = create(
        &sqs,
        "closed-dlq",
        &[("RedriveAllowPolicy", r#"{"redrivePermission":"denyAll"}"#)],
    )
    .await;
    let denied = sqs
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(
            QueueAttributeName::RedrivePolicy,
            redrive(&server, "closed-dlq", "3"),
        )
        .send()
        .await;
    assert_eq!(code(denied), "InvalidParameterValue");
    assert!(!closed.is_empty());
    Ok(())
}

async fn wait_for_task(
    sqs: &Client,
    source_arn: &str,
    done: &[&str],
) -> aws_sdk_sqs::types::ListMessageMoveTasksResultEntry {
    for _ in 0..500 {
        let out = sqs
            .list_message_move_tasks()
            .source_arn(source_arn)
            .send()
            .await
            .expect("list tasks");
        if let Some(task) = out.results().first()
            && done.contains(&task.status().unwrap_or_default())
        {
            return task.clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("move task did not reach {done:?}");
}

/// Receives the `count` messages of `url` at once (visibility 0), then receives again, which
/// moves them all to `dlq` (a `maxReceiveCount` of 1), in order; checks each step.
async fn receive_into_dead_letter(sqs: &Client, url: &str, dlq: &str, count: usize) {
    let first = sqs
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .visibility_timeout(0)
        .send()
        .await
        .expect("receive");
    assert_eq!(first.messages().len(), count);
    let second = receive_up_to(sqs, url, 10).await.expect("receive");
    assert!(second.messages().is_empty());
    assert_eq!(
        attribute(sqs, dlq, "ApproximateNumberOfMessages").await,
        count.to_string()
    );
}

/// Starts a move task of every message out of `dlq_arn` and waits for it to complete.
async fn move_all(
    sqs: &Client,
    dlq_arn: &str,
) -> aws_sdk_sqs::types::ListMessageMoveTasksResultEntry {
    sqs.start_message_move_task()
        .source_arn(dlq_arn)
        .send()
        .await
        .expect("start a move task");
    wait_for_task(sqs, dlq_arn, &["COMPLETED"]).await
}

#[tokio::test]
async fn move_tasks_redrive_to_the_source_and_can_be_cancelled() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let dlq = create(&sqs, "src-dlq", &[]).await;
    let policy = redrive(&server, "src-dlq", "1");
    let url = create(&sqs, "src", &[("RedrivePolicy", policy.as_str())]).await;
    let mut original_ids = Vec::new();
    for i in 0..5 {
        let sent = send(&sqs, &url, format!("m{i}")).await?;
        original_ids.push(sent.message_id.unwrap_or_default());
    }
    receive_into_dead_letter(&sqs, &url, &dlq, 5).await;

    let dlq_arn = server.queue_arn("src-dlq");
    let not_dlq = sqs
        .start_message_move_task()
        .source_arn(server.queue_arn("src"))
        .send()
        .await;
    assert_eq!(code(not_dlq), "InvalidParameterValue");
    let too_fast = sqs
        .start_message_move_task()
        .source_arn(&dlq_arn)
        .max_number_of_messages_per_second(501)
        .send()
        .await;
    assert_eq!(code(too_fast), "InvalidParameterValue");
    let task = move_all(&sqs, &dlq_arn).await;
    assert_eq!(task.approximate_number_of_messages_moved(), 5);
    assert_eq!(task.approximate_number_of_messages_to_move(), Some(5));
    let back = receive_up_to(&sqs, &url, 10).await?;
    assert_eq!(back.messages().len(), 5);
    assert!(
        back.messages()
            .iter()
            .all(|m| !original_ids.contains(&m.message_id().unwrap_or_default().to_string()))
    );

    // A slow task: one message a second, cancelled after it starts.
    let entries: Vec<_> = (0..10)
        .map(|i| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("e{i}"))
                .message_body("x")
                .build()
        })
        .collect::<Result<_, _>>()?;
    send_batch(&sqs, &dlq, entries).await?;
    let started = sqs
        .start_message_move_task()
        .source_arn(&dlq_arn)
        .destination_arn(server.queue_arn("src"))
        .max_number_of_messages_per_second(1)
        .send()
        .await?;
    let again = sqs
        .start_message_move_task()
        .source_arn(&dlq_arn)
        .send()
        .await;
    assert_eq!(code(again), "InvalidParameterValue");
    sqs.cancel_message_move_task()
        .task_handle(started.task_handle().unwrap_or_default())
        .send()
        .await?;
    let cancelled = wait_for_task(&sqs, &dlq_arn, &["CANCELLED"]).await;
    assert!(cancelled.approximate_number_of_messages_moved() < 10);
    let listed = sqs
        .list_message_move_tasks()
        .source_arn(&dlq_arn)
        .max_results(10)
        .send()
        .await?;
    assert_eq!(listed.results().len(), 2);
    Ok(())
}

#[tokio::test]
async fn purge_is_allowed_once_per_cooldown() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "purged", &[]).await;
    send(&sqs, &url, "x").await?;
    sqs.purge_queue().queue_url(&url).send().await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "0"
    );
    assert_eq!(
        code(sqs.purge_queue().queue_url(&url).send().await),
        "AWS.SimpleQueueService.PurgeQueueInProgress"
    );
    server.clock().advance(Duration::from_secs(60));
    sqs.purge_queue().queue_url(&url).send().await?;
    Ok(())
}

#[tokio::test]
async fn bad_input_gets_the_sqs_error_code() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "strict", &[]).await;
    let receive = |f: fn(aws_sdk_sqs::operation::receive_message::builders::ReceiveMessageFluentBuilder) -> aws_sdk_sqs::operation::receive_message::builders::ReceiveMessageFluentBuilder| f(sqs.receive_message().queue_url(&url)).send();
    assert_eq!(
        code(receive(|r| r.max_number_of_messages(11)).await),
        "InvalidParameterValue"
    );
    assert_eq!(
        code(receive(|r| r.max_number_of_messages(0)).await),
        "InvalidParameterValue"
    );
    assert_eq!(
        code(receive(|r| r.wait_time_seconds(21)).await),
        "InvalidParameterValue"
    );
    assert_eq!(
        code(receive(|r| r.visibility_timeout(43_201)).await),
        "InvalidParameterValue"
    );
    let send = || sqs.send_message().queue_url(&url);
    assert_eq!(
        code(send().message_body("x").delay_seconds(901).send().await),
        "InvalidParameterValue"
    );
    assert_eq!(
        code(send().message_body("x".repeat(1_048_577)).send().await),
        "InvalidParameterValue"
    );
    send().message_body("x".repeat(1_048_576)).send().await?;
    let with_attr = send()
        .message_body("x".repeat(1_048_570))
        .message_attributes(
            "abc",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("1")
                .build()?,
        );
    assert_eq!(code(with_attr.send().await), "InvalidParameterValue");
    assert_eq!(
        code(send().message_body("bell \u{7}").send().await),
        "InvalidMessageContents"
    );
    let mut many = send().message_body("x");
    for i in 0..11 {
        many = many.message_attributes(
            format!("a{i}"),
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("v")
                .build()?,
        );
    }
    assert_eq!(code(many.send().await), "InvalidParameterValue");
    let bad_type = send().message_body("x").message_attributes(
        "a",
        MessageAttributeValue::builder()
            .data_type("Float")
            .string_value("1")
            .build()?,
    );
    assert_eq!(code(bad_type.send().await), "InvalidParameterValue");
    let bad_number = send().message_body("x").message_attributes(
        "a",
        MessageAttributeValue::builder()
            .data_type("Number")
            .string_value("one")
            .build()?,
    );
    assert_eq!(code(bad_number.send().await), "InvalidParameterValue");
    assert_eq!(
        code(
            send()
                .message_body("x")
                .message_deduplication_id("d")
                .send()
                .await
        ),
        "InvalidParameterValue"
    );

    let entry = |id: &str, body: String| {
        SendMessageBatchRequestEntry::builder()
            .id(id)
            .message_body(body)
            .build()
    };
    let batch = |entries: Vec<SendMessageBatchRequestEntry>| {
        sqs.send_message_batch()
            .queue_url(&url)
            .set_entries(Some(entries))
            .send()
    };
    assert_eq!(
        code(batch(vec![]).await),
        "AWS.SimpleQueueService.EmptyBatchRequest"
    );
    let eleven = (0..11)
        .map(|i| entry(&format!("e{i}"), "x".into()))
        .collect::<Result<Vec<_>, _>>()?;
    assert_eq!(
        code(batch(eleven).await),
        "AWS.SimpleQueueService.TooManyEntriesInBatchRequest"
    );
    assert_eq!(
        code(batch(vec![entry("a", "x".into())?, entry("a", "y".into())?]).await),
        "AWS.SimpleQueueService.BatchEntryIdsNotDistinct"
    );
    assert_eq!(
        code(batch(vec![entry("bad id!", "x".into())?]).await),
        "AWS.SimpleQueueService.InvalidBatchEntryId"
    );
    let big = vec![
        entry("a", "x".repeat(600_000))?,
        entry("b", "y".repeat(600_000))?,
    ];
    assert_eq!(
        code(batch(big).await),
        "AWS.SimpleQueueService.BatchRequestTooLong"
    );
    let partial = batch(vec![
        entry("good", "x".into())?,
        entry("bad", "\u{1}".into())?,
    ])
    .await?;
    assert_eq!(partial.successful().len(), 1);
    assert_eq!(partial.failed()[0].code(), "InvalidMessageContents");
    assert!(partial.failed()[0].sender_fault());

    for (name, attrs) in [
        ("bad name", vec![]),
        ("x.fifo", vec![]),
        ("nofifo", vec![("FifoQueue", "true")]),
    ] {
        let mut request = sqs.create_queue().queue_name(name);
        for (k, v) in attrs {
            request = request.attributes(QueueAttributeName::from(k), v);
        }
        assert_eq!(
            code(request.send().await),
            "InvalidParameterValue",
            "{name}"
        );
    }
    let bad_attr = sqs
        .create_queue()
        .queue_name("q")
        .attributes(QueueAttributeName::VisibilityTimeout, "43201")
        .send()
        .await;
    assert_eq!(code(bad_attr), "InvalidAttributeValue");
    Ok(())
}

/// A 10-second long poll of `url` in the background, given 100 ms to reach the server.
async fn long_poll(
    sqs: &Client,
    url: &str,
) -> tokio::task::JoinHandle<aws_sdk_sqs::operation::receive_message::ReceiveMessageOutput> {
    let (sqs, url) = (sqs.clone(), url.to_string());
    let waiting = tokio::spawn(async move {
        sqs.receive_message()
            .queue_url(url)
            .wait_time_seconds(10)
            .send()
            .await
            .expect("long poll")
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    waiting
}

#[tokio::test]
async fn long_polls_wake_on_send_and_on_clock_advance() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "poll", &[]).await;
    let waiting = long_poll(&sqs, &url).await;
    let started = std::time::Instant::now();
    send(&sqs, &url, "wake").await?;
    let got = waiting.await?;
    assert_eq!(got.messages()[0].body(), Some("wake"));
    assert!(started.elapsed() < Duration::from_secs(2));
    let handle = got.messages()[0].receipt_handle().unwrap_or_default();
    delete(&sqs, &url, handle).await?;

    sqs.send_message()
        .queue_url(&url)
        .message_body("later")
        .delay_seconds(30)
        .send()
        .await?;
    let waiting = long_poll(&sqs, &url).await;
    server.clock().advance(Duration::from_secs(30));
    let got = waiting.await?;
    assert_eq!(got.messages()[0].body(), Some("later"));

    // An empty long poll returns empty after its wait time.
    let started = std::time::Instant::now();
    let empty = sqs
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(1)
        .send()
        .await?;
    assert!(empty.messages().is_empty());
    assert!(started.elapsed() >= Duration::from_millis(900));
    Ok(())
}

#[tokio::test]
async fn real_clock_visibility_expiry_wakes_a_long_poll() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let url = create(&sqs, "real", &[]).await;
    send(&sqs, &url, "m").await?;
    assert!(receive_one(&sqs, &url, Some(1)).await.is_some());
    let started = std::time::Instant::now();
    let again = sqs
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(5)
        .send()
        .await?;
    assert_eq!(again.messages().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(3));
    server.shutdown().await;
    Ok(())
}

async fn faulty_run(seed: u64) -> (Vec<String>, sqsctl_local::Stats, String) {
    let config = ServerConfig {
        fault_rate: 0.3,
        seed: Some(seed),
        ..ServerConfig::default()
    };
    let server = Server::start(config).expect("server starts");
    let sqs = client(&server);
    let mut outcomes = Vec::new();
    let url = loop {
        match sqs.create_queue().queue_name("faulty").send().await {
            Ok(out) => break out.queue_url.unwrap_or_default(),
            Err(e) => outcomes.push(e.code().unwrap_or("none").to_string()),
        }
    };
    for i in 0..60 {
        let result = send(&sqs, &url, format!("m{i}")).await;
        outcomes.push(code(result));
    }
    let depth = loop {
        let out = sqs
            .get_queue_attributes()
            .queue_url(&url)
            .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
            .send()
            .await;
        if let Ok(out) = out {
            break out
                .attributes
                .and_then(|a| {
                    a.get(&QueueAttributeName::ApproximateNumberOfMessages)
                        .cloned()
                })
                .unwrap_or_default();
        }
    };
    (outcomes, server.stats(), depth)
}

#[tokio::test]
async fn fault_injection_is_deterministic_and_counts_ambiguous_failures() -> TestResult {
    let (first, stats, depth) = faulty_run(42).await;
    let (second, stats_again, _) = faulty_run(42).await;
    assert_eq!(first, second);
    assert_eq!(stats, stats_again);
    assert!(first.iter().any(|c| c == "RequestThrottled"));
    assert!(first.iter().any(|c| c == "InternalError"));
    assert!(stats.ambiguous_failures > 0 && stats.throttled > 0);
    // Ambiguous failures were applied: the queue holds every confirmed send plus each message an
    // ambiguous failure sent, and the server counted exactly those.
    let confirmed = first.iter().filter(|c| *c == "ok").count() as u64;
    assert!(stats.ambiguous_sends > 0);
    assert!(stats.ambiguous_sends <= stats.ambiguous_failures);
    assert_eq!(depth.parse::<u64>()?, confirmed + stats.ambiguous_sends);

    let config = ServerConfig {
        entry_fault_rate: 0.5,
        seed: Some(1),
        ..ServerConfig::default()
    };
    let server = Server::start(config)?;
    let sqs = client(&server);
    let url = create(&sqs, "entries", &[]).await;
    let entries = (0..10)
        .map(|i| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("e{i}"))
                .message_body("x")
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let out = send_batch(&sqs, &url, entries).await?;
    assert!(!out.failed().is_empty());
    assert!(
        out.failed()
            .iter()
            .all(|f| f.code() == "InternalError" && !f.sender_fault())
    );
    assert_eq!(server.stats().entry_failures, out.failed().len() as u64);
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        out.successful().len().to_string()
    );
    Ok(())
}

#[path = "server/query_protocol.rs"]
mod query_protocol;

#[path = "server/limits.rs"]
mod limits;

#[path = "server/in_flight.rs"]
mod in_flight;

#[path = "server/slow_clients.rs"]
mod slow_clients;

#[path = "server/fidelity.rs"]
mod fidelity;

#[path = "server/browsers.rs"]
mod browsers;

#[path = "server/inspect.rs"]
mod inspect;

#[path = "server/regions.rs"]
mod regions;

#[path = "server/like_sqs.rs"]
mod like_sqs;

#[path = "server/fair.rs"]
mod fair;

#[path = "server/wire.rs"]
mod wire;

#[path = "server/permissions.rs"]
mod permissions;

#[path = "server/localstack.rs"]
mod localstack;

/// A raw HTTP/1.1 exchange, for what the SDK cannot send.
async fn raw(server: &Server, request: impl AsRef<[u8]>) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.local_addr())
        .await
        .expect("connect");
    stream.write_all(request.as_ref()).await.expect("write");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    String::from_utf8_lossy(&response).into_owned()
}

/// A raw answer's status, head and body.
fn status_head_body(answer: &str) -> (u16, &str, &str) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head, body)
}

/// A GET with `headers` (each line ending in `\r\n`), as a raw answer.
async fn raw_get(server: &Server, path_and_query: &str, headers: &str) -> String {
    raw(
        server,
        format!(
            "GET {path_and_query} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{headers}\r\n"
        ),
    )
    .await
}

fn post(target: Option<&str>, content_type: &str, body: &str) -> String {
    let target = target
        .map(|t| format!("X-Amz-Target: {t}\r\n"))
        .unwrap_or_default();
    format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: {content_type}\r\n{target}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn wire_details_stats_and_unknown_actions() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    create(&sqs, "wire", &[]).await;
    let stats = raw(
        &server,
        "GET /_sqsctl/stats HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(stats.starts_with("HTTP/1.1 200"));
    assert!(stats.contains(r#""requests":1"#) && stats.contains("ambiguous_failures"));

    let unknown = raw(
        &server,
        post(Some("AmazonSQS.Bogus"), "application/x-amz-json-1.0", "{}"),
    )
    .await;
    assert!(unknown.starts_with("HTTP/1.1 400"));
    assert!(unknown.contains("x-amzn-query-error: InvalidAction;Sender"));
    let neither = raw(&server, post(None, "application/json", "{}")).await;
    assert!(neither.starts_with("HTTP/1.1 400"));
    assert!(neither.contains("X-Amz-Target") && neither.contains("Action="));
    let missing = raw(
        &server,
        post(
            Some("AmazonSQS.GetQueueUrl"),
            "application/x-amz-json-1.0",
            r#"{"QueueName":"nope"}"#,
        ),
    )
    .await;
    assert!(missing.contains("x-amzn-query-error: AWS.SimpleQueueService.NonExistentQueue;Sender"));
    assert!(missing.contains(r#""__type":"com.amazonaws.sqs#QueueDoesNotExist""#));
    let broken = raw(
        &server,
        post(
            Some("AmazonSQS.SendMessage"),
            "application/x-amz-json-1.0",
            "{not json",
        ),
    )
    .await;
    assert!(broken.starts_with("HTTP/1.1 400"));
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn fifo_dead_letter_moves_and_redrive_keep_group_order() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let dlq = create(&sqs, "f-dlq.fifo", &[("FifoQueue", "true")]).await;
    let policy = redrive(&server, "f-dlq.fifo", "1");
    let url = create(
        &sqs,
        "f.fifo",
        &[("FifoQueue", "true"), ("RedrivePolicy", policy.as_str())],
    )
    .await;
    for i in 0..4 {
        send_fifo(&sqs, &url, "g", &format!("m{i}"), Some(&format!("d{i}"))).await;
    }
    receive_into_dead_letter(&sqs, &url, &dlq, 4).await;
    let dlq_arn = server.queue_arn("f-dlq.fifo");
    let task = move_all(&sqs, &dlq_arn).await;
    assert_eq!(task.approximate_number_of_messages_moved(), 4);
    let back = receive_up_to(&sqs, &url, 10).await?;
    let bodies: Vec<_> = back.messages().iter().filter_map(|m| m.body()).collect();
    assert_eq!(bodies, ["m0", "m1", "m2", "m3"]);
    Ok(())
}

#[tokio::test]
async fn visibility_batches_queue_wait_time_latency_and_dead_letter_retention() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "batchvis", &[("ReceiveMessageWaitTimeSeconds", "1")]).await;
    let started = std::time::Instant::now();
    assert!(receive_one(&sqs, &url, None).await.is_none());
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "the queue's wait time applies"
    );
    for body in ["a", "b"] {
        send(&sqs, &url, body).await?;
    }
    let got = receive_up_to(&sqs, &url, 10).await?;
    let mut entries: Vec<_> = got
        .messages()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            aws_sdk_sqs::types::ChangeMessageVisibilityBatchRequestEntry::builder()
                .id(format!("c{i}"))
                .receipt_handle(m.receipt_handle().unwrap_or_default())
                .visibility_timeout(0)
                .build()
        })
        .collect::<Result<_, _>>()?;
    entries.push(
        aws_sdk_sqs::types::ChangeMessageVisibilityBatchRequestEntry::builder()
            .id("bad")
            .receipt_handle("garbage")
            .visibility_timeout(0)
            .build()?,
    );
    let changed = sqs
        .change_message_visibility_batch()
        .queue_url(&url)
        .set_entries(Some(entries))
        .send()
        .await?;
    assert_eq!(changed.successful().len(), 2);
    assert_eq!(changed.failed()[0].code(), "ReceiptHandleIsInvalid");
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "2"
    );

    // A standard DLQ keeps the original enqueue time: with a 60 s retention, a message sent 100 s
    // before its move expires there at once.
    let dlq = create(&sqs, "short-dlq", &[("MessageRetentionPeriod", "60")]).await;
    let policy = redrive(&server, "short-dlq", "1");
    let src = create(&sqs, "long-src", &[("RedrivePolicy", policy.as_str())]).await;
    send(&sqs, &src, "old").await?;
    assert!(receive_one(&sqs, &src, Some(0)).await.is_some());
    server.clock().advance(Duration::from_secs(100));
    assert!(receive_one(&sqs, &src, Some(0)).await.is_none());
    assert_eq!(
        attribute(&sqs, &dlq, "ApproximateNumberOfMessages").await,
        "0"
    );

    let slow = Server::start(ServerConfig {
        latency: Duration::from_millis(50),
        ..ServerConfig::default()
    })?;
    let started = std::time::Instant::now();
    client(&slow).list_queues().send().await?;
    assert!(started.elapsed() >= Duration::from_millis(50));
    Ok(())
}
