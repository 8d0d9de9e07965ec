//! The limit of messages a queue holds in flight (`max_in_flight`, SQS: about 120,000): a standard
//! queue refuses short polls with `OverLimit`, while long polls and FIFO queues get nothing, until
//! a delete or the end of a visibility timeout brings the count under the limit.

use std::time::{Duration, Instant};

use aws_sdk_sqs::error::ProvideErrorMetadata;
use sqsctl_local::{Server, ServerConfig};

use super::{TestResult, client, create, delete, receive_up_to, send};

fn server_with_limit(limit: usize) -> Server {
    Server::start(ServerConfig {
        max_in_flight: limit,
        ..ServerConfig::default()
    })
    .expect("server starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standard_queue_at_its_in_flight_limit_refuses_short_polls_with_over_limit() -> TestResult
{
    let server = server_with_limit(5);
    let sqs = client(&server);
    let url = create(&sqs, "held", &[]).await;
    for i in 0..8 {
        send(&sqs, &url, format!("m{i}")).await?;
    }
    let mut held = Vec::new();
    while held.len() < 5 {
        let got = receive_up_to(&sqs, &url, 10).await?;
        held.extend(
            got.messages()
                .iter()
                .filter_map(|m| m.receipt_handle.clone()),
        );
    }
    assert_eq!(held.len(), 5, "a receive stops at the limit");

    let refused = receive_up_to(&sqs, &url, 1).await;
    let err = refused
        .err()
        .ok_or("a short poll at the limit got an answer")?;
    assert_eq!(err.code(), Some("OverLimit"));
    assert!(
        err.message()
            .is_some_and(|m| m.contains("limit of 5 messages in flight")),
        "{err:?}"
    );

    // A long poll is not refused: it waits, and returns nothing while the limit holds.
    let started = Instant::now();
    let long = sqs
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(1)
        .send()
        .await?;
    assert!(long.messages().is_empty());
    assert!(started.elapsed() >= Duration::from_millis(900));

    // One delete makes room for one more.
    delete(&sqs, &url, &held[0]).await?;
    let got = receive_up_to(&sqs, &url, 10).await?;
    assert_eq!(got.messages().len(), 1);
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_queue_at_its_in_flight_limit_returns_nothing_without_an_error() -> TestResult {
    let server = server_with_limit(3);
    let sqs = client(&server);
    let url = create(
        &sqs,
        "held.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    for i in 0..6 {
        sqs.send_message()
            .queue_url(&url)
            .message_body(format!("m{i}"))
            .message_group_id(format!("g{i}"))
            .send()
            .await?;
    }
    let mut received = 0;
    for _ in 0..6 {
        received += receive_up_to(&sqs, &url, 10).await?.messages().len();
    }
    assert_eq!(received, 3);
    server.shutdown().await;
    Ok(())
}
