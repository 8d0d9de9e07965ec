//! Timing rules of the fidelity fixes, on the manual clock: a deleted queue's name is free again
//! after 60 s, and a FIFO receive attempt id is remembered for five minutes.

use std::time::Duration;

use super::{TestResult, client, code, create, manual_server, send};

#[tokio::test]
async fn a_deleted_name_is_refused_for_a_minute() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "reborn", &[]).await;
    sqs.delete_queue().queue_url(&url).send().await?;
    let again = sqs.create_queue().queue_name("reborn").send().await;
    assert_eq!(code(again), "AWS.SimpleQueueService.QueueDeletedRecently");
    server.clock().advance(Duration::from_secs(59));
    let still = sqs.create_queue().queue_name("reborn").send().await;
    assert_eq!(code(still), "AWS.SimpleQueueService.QueueDeletedRecently");
    server.clock().advance(Duration::from_secs(2));
    assert_eq!(create(&sqs, "reborn", &[]).await, url);
    Ok(())
}

#[tokio::test]
async fn a_receive_attempt_id_is_remembered_for_five_minutes_on_fifo_queues_only() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let fifo = create(
        &sqs,
        "attempts.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    sqs.send_message()
        .queue_url(&fifo)
        .message_body("a")
        .message_group_id("g")
        .send()
        .await?;
    let receive = |url: String, attempt: &'static str| {
        let sqs = sqs.clone();
        async move {
            let out = sqs
                .receive_message()
                .queue_url(url)
                .visibility_timeout(600)
                .receive_request_attempt_id(attempt)
                .send()
                .await?;
            let handles: Vec<String> = out
                .messages()
                .iter()
                .filter_map(|m| m.receipt_handle().map(String::from))
                .collect();
            Ok::<_, aws_sdk_sqs::Error>(handles)
        }
    };
    let first = receive(fifo.clone(), "r").await?;
    assert_eq!(first.len(), 1);
    server.clock().advance(Duration::from_secs(299));
    assert_eq!(receive(fifo.clone(), "r").await?, first);
    // Past five minutes the id is forgotten: a new receive, and the message is still in flight.
    server.clock().advance(Duration::from_secs(2));
    assert!(receive(fifo.clone(), "r").await?.is_empty());

    let standard = create(&sqs, "attempts-std", &[]).await;
    for body in ["x", "y"] {
        send(&sqs, &standard, body).await?;
    }
    let one = receive(standard.clone(), "s").await?;
    let two = receive(standard.clone(), "s").await?;
    assert_eq!((one.len(), two.len()), (1, 1));
    assert_ne!(one, two, "standard queues ignore the attempt id");
    Ok(())
}
