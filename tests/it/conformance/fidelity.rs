//! Scenarios for rules of SQS that are easy to miss: attributes standard queues refuse, retried FIFO
//! receives, high-throughput FIFO settings, and re-using a deleted queue's name.

use super::*;

/// `FifoQueue` is refused on a standard queue even as "false" (the API reference: FifoQueue
/// "applies only to FIFO queues"; SQS answers InvalidAttributeName).
pub(super) async fn fifo_queue_false_on_a_standard_queue(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let name = support::unique_name("not-fifo");
    let created = t
        .client
        .create_queue()
        .queue_name(&name)
        .attributes(QueueAttributeName::FifoQueue, "false")
        .send()
        .await;
    if let Ok(out) = &created
        && let Some(url) = out.queue_url()
    {
        t.created.lock().unwrap().push(url.to_owned());
    }
    checks.code(
        "CreateQueue of a standard queue with FifoQueue=false",
        created,
        "InvalidAttributeName",
    );
    checks.finish();
}

/// A FIFO receive retried with the same ReceiveRequestAttemptId within five minutes returns the
/// same messages with the same receipt handles; another attempt id sees the group still blocked.
pub(super) async fn receive_request_attempt_id(t: Arc<Target>) {
    let queue = t
        .fifo_queue(
            "attempt",
            &[(QueueAttributeName::ContentBasedDeduplication, "true")],
        )
        .await;
    for body in ["one", "two", "three"] {
        t.send_to_group(&queue.url, body, Some("g"), None).await;
    }
    let receive = |attempt: &'static str| {
        t.client
            .receive_message()
            .queue_url(&queue.url)
            .max_number_of_messages(2)
            .visibility_timeout(30)
            .receive_request_attempt_id(attempt)
            .send()
    };
    let first = receive("attempt-1").await.expect("first receive");
    let retried = receive("attempt-1").await.expect("retried receive");
    let other = receive("attempt-2")
        .await
        .expect("receive with another attempt id");
    let ids = |out: &aws_sdk_sqs::operation::receive_message::ReceiveMessageOutput| {
        out.messages()
            .iter()
            .map(|m| {
                (
                    m.message_id().unwrap_or_default().to_owned(),
                    m.receipt_handle().unwrap_or_default().to_owned(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(bodies(first.messages()), ["one", "two"]);
    assert!(
        other.messages().is_empty(),
        "group g is in flight: {:?}",
        bodies(other.messages())
    );
    // LocalStack differs: it ignores the attempt id, so the retry finds group g in flight and
    // returns nothing.
    if !t.is_ours() {
        if ids(&retried) != ids(&first) {
            eprintln!(
                "note: LocalStack differs from the documentation: a retried ReceiveRequestAttemptId returned {:?}",
                bodies(retried.messages())
            );
        }
        return;
    }
    assert_eq!(
        ids(&retried),
        ids(&first),
        "the retry returns the same messages and handles"
    );
    // The handles of the retry work.
    for message in retried.messages() {
        t.delete(&queue.url, message).await;
    }
    let rest = t
        .receive_within(&queue.url, 10, None, Duration::from_secs(3))
        .await;
    assert_eq!(bodies(&rest), ["three"]);
}

/// High-throughput FIFO: `FifoThroughputLimit=perMessageGroupId` only with
/// `DeduplicationScope=messageGroup`, on create and on set.
pub(super) async fn throughput_limit_needs_message_group_scope(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let create = |scope: Option<&'static str>| {
        let name = format!("{}.fifo", support::unique_name("hi-tp"));
        let mut request = t
            .client
            .create_queue()
            .queue_name(name)
            .attributes(QueueAttributeName::FifoQueue, "true")
            .attributes(QueueAttributeName::FifoThroughputLimit, "perMessageGroupId");
        if let Some(scope) = scope {
            request = request.attributes(QueueAttributeName::DeduplicationScope, scope);
        }
        let t = t.clone();
        async move {
            let out = request.send().await;
            if let Ok(out) = &out
                && let Some(url) = out.queue_url()
            {
                t.created.lock().unwrap().push(url.to_owned());
            }
            out
        }
    };
    // LocalStack differs: it accepts perMessageGroupId with either scope.
    checks.documented_code(
        "CreateQueue perMessageGroupId with DeduplicationScope=queue",
        create(Some("queue")).await,
        "InvalidAttributeValue",
    );
    checks.documented_code(
        "CreateQueue perMessageGroupId with the default DeduplicationScope",
        create(None).await,
        "InvalidAttributeValue",
    );
    let created = checks.ok(
        "CreateQueue perMessageGroupId with DeduplicationScope=messageGroup",
        create(Some("messageGroup")).await,
    );
    if let Some(url) = created.as_ref().and_then(|c| c.queue_url()) {
        let narrowed = t
            .client
            .set_queue_attributes()
            .queue_url(url)
            .attributes(QueueAttributeName::DeduplicationScope, "queue")
            .send()
            .await;
        checks.documented_code(
            "SetQueueAttributes DeduplicationScope=queue under perMessageGroupId",
            narrowed,
            "InvalidAttributeValue",
        );
    }
    checks.finish();
}

/// A deleted queue's name cannot be used for 60 seconds (the API reference of CreateQueue:
/// "you must wait at least 60 seconds before creating a queue with the same name").
pub(super) async fn deleted_name_reused_within_a_minute(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let name = support::unique_name("reborn");
    let url = t
        .client
        .create_queue()
        .queue_name(&name)
        .send()
        .await
        .expect("CreateQueue")
        .queue_url()
        .expect("a queue URL")
        .to_owned();
    t.client
        .delete_queue()
        .queue_url(&url)
        .send()
        .await
        .expect("DeleteQueue");
    let again = t.client.create_queue().queue_name(&name).send().await;
    if again.is_ok() {
        t.created.lock().unwrap().push(url);
    }
    // LocalStack differs: it creates the queue again at once.
    checks.documented_code(
        "CreateQueue of a name deleted a moment ago",
        again,
        "AWS.SimpleQueueService.QueueDeletedRecently",
    );
    checks.finish();
}
