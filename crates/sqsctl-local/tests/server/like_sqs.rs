//! `Realism`: the server departing from exact behaviour where SQS does, on a fixed seed and the
//! manual clock. Short polls sample and long polls do not; standard queues deliver some messages
//! twice and out of order; counts lag, then converge; FIFO queues keep their guarantees.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::{Message, MessageSystemAttributeName, SendMessageBatchRequestEntry};
use sqsctl_local::{Clock, Realism, Server, ServerConfig};

use super::{TestResult, attribute, change_visibility, client, create, delete, send_batch};

const SEED: u64 = 7;

fn server_with(realism: Realism) -> Server {
    let config = ServerConfig {
        clock: Clock::manual(UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
        realism,
        seed: Some(SEED),
        ..ServerConfig::default()
    };
    Server::start(config).expect("server starts")
}

async fn send_many(sqs: &Client, url: &str, count: usize) -> TestResult {
    for start in (0..count).step_by(10) {
        let entries = (start..count.min(start + 10))
            .map(|i| {
                SendMessageBatchRequestEntry::builder()
                    .id(format!("e{i}"))
                    .message_body(format!("{i}"))
                    .build()
            })
            .collect::<Result<Vec<_>, _>>()?;
        send_batch(sqs, url, entries).await?;
    }
    Ok(())
}

/// One receive: `wait` `None` leaves WaitTimeSeconds to the queue.
async fn receive(
    sqs: &Client,
    url: &str,
    max: i32,
    wait: Option<i32>,
    visibility: i32,
) -> Result<Vec<Message>, Box<dyn std::error::Error>> {
    let out = sqs
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .set_wait_time_seconds(wait)
        .visibility_timeout(visibility)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await?;
    Ok(out.messages.unwrap_or_default())
}

fn receive_count(message: &Message) -> u32 {
    message
        .attributes()
        .and_then(|a| a.get(&MessageSystemAttributeName::ApproximateReceiveCount))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn id(message: &Message) -> String {
    message.message_id().unwrap_or_default().to_string()
}

fn handle(message: &Message) -> String {
    message.receipt_handle().unwrap_or_default().to_string()
}

/// How many messages 20 short polls of up to 10 on a queue of `depth` returned, poll by poll (the
/// messages stay visible: a visibility timeout of 0).
async fn short_polls(
    server: &Server,
    depth: usize,
) -> Result<Vec<usize>, Box<dyn std::error::Error>> {
    let sqs = client(server);
    let url = create(&sqs, "sampled", &[]).await;
    send_many(&sqs, &url, depth).await?;
    let mut sizes = Vec::new();
    for _ in 0..20 {
        sizes.push(receive(&sqs, &url, 10, Some(0), 0).await?.len());
    }
    Ok(sizes)
}

#[tokio::test]
async fn a_short_poll_of_a_small_queue_is_sometimes_empty_and_a_long_poll_never() -> TestResult {
    let server = server_with(Realism::LIKE_SQS);
    let sizes = short_polls(&server, 50).await?;
    assert!(sizes.contains(&0), "no empty short poll: {sizes:?}");
    assert!(
        sizes.iter().any(|&n| n > 0 && n < 10),
        "no short poll returned fewer than were there: {sizes:?}"
    );
    // The same seed and the same requests: the same answers.
    assert_eq!(
        short_polls(&server_with(Realism::LIKE_SQS), 50).await?,
        sizes
    );

    let sqs = client(&server);
    for wait in [Some(1), None] {
        let name = format!("long-{}", wait.is_some());
        let url = create(&sqs, &name, &[("ReceiveMessageWaitTimeSeconds", "1")]).await;
        send_many(&sqs, &url, 50).await?;
        for _ in 0..20 {
            let got = receive(&sqs, &url, 10, wait, 0).await?;
            assert_eq!(
                got.len(),
                10,
                "a long poll (WaitTimeSeconds {wait:?}) sampled"
            );
        }
    }
    Ok(())
}

#[tokio::test]
async fn a_short_poll_of_a_large_queue_is_never_empty_and_exact_without_realism() -> TestResult {
    let large = short_polls(&server_with(Realism::LIKE_SQS), 1000).await?;
    assert!(large.iter().all(|&n| n > 0), "{large:?}");
    let exact = short_polls(&server_with(Realism::EXACT), 50).await?;
    assert_eq!(exact, vec![10; 20]);
    Ok(())
}

#[tokio::test]
async fn standard_queues_deliver_some_messages_twice_and_either_handle_deletes() -> TestResult {
    let server = server_with(Realism::LIKE_SQS);
    let sqs = client(&server);
    let url = create(&sqs, "twice", &[]).await;
    send_many(&sqs, &url, 2000).await?;
    // 2,000 receives that keep every message in flight.
    let mut deliveries: HashMap<String, Vec<Message>> = HashMap::new();
    for _ in 0..2000 {
        for message in receive(&sqs, &url, 1, Some(0), 300).await? {
            deliveries.entry(id(&message)).or_default().push(message);
        }
    }
    let twice: Vec<&Vec<Message>> = deliveries.values().filter(|d| d.len() > 1).collect();
    assert!(twice.len() >= 2, "{} messages delivered twice", twice.len());
    assert_eq!(server.stats().duplicate_deliveries, twice.len() as u64);
    for delivered in &twice {
        assert_eq!(delivered.len(), 2);
        assert_ne!(handle(&delivered[0]), handle(&delivered[1]));
        assert_eq!(
            receive_count(&delivered[1]),
            receive_count(&delivered[0]) + 1,
            "the receive count counts both deliveries"
        );
    }
    // The earlier handle deletes one, the later handle the other; the other handle is then dead.
    for (delivered, by, other) in [(twice[0], 0, 1), (twice[1], 1, 0)] {
        delete(&sqs, &url, handle(&delivered[by])).await?;
        let after = change_visibility(&sqs, &url, handle(&delivered[other]), 0).await;
        assert!(
            after.is_err(),
            "the message outlived a delete by its handle"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_consumer_that_deletes_at_once_still_meets_duplicates_and_drains_the_queue() -> TestResult
{
    let server = server_with(Realism::LIKE_SQS);
    let sqs = client(&server);
    let url = create(&sqs, "at-once", &[("ReceiveMessageWaitTimeSeconds", "1")]).await;
    send_many(&sqs, &url, 500).await?;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    loop {
        let got = receive(&sqs, &url, 10, None, 30).await?;
        if got.is_empty() {
            break;
        }
        for message in got {
            *seen
                .entry(message.body().unwrap_or_default().to_string())
                .or_default() += 1;
            // A copy whose message is already deleted: its handle is accepted and deletes nothing.
            delete(&sqs, &url, handle(&message)).await?;
        }
    }
    assert_eq!(seen.len(), 500, "every message arrives");
    let duplicates = seen.values().filter(|&&n| n > 1).count();
    let deliveries: usize = seen.values().sum();
    assert!(duplicates > 0, "no duplicate among {deliveries} deliveries");
    // The server counts each delivery beyond the first, and says so over HTTP too.
    let extra = (deliveries - 500) as u64;
    assert_eq!(server.stats().duplicate_deliveries, extra);
    let stats = super::raw(
        &server,
        "GET /_sqsctl/stats HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(
        stats.contains(&format!(r#""duplicate_deliveries":{extra}"#)),
        "{stats}"
    );
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "0"
    );
    Ok(())
}

#[tokio::test]
async fn standard_queues_deliver_out_of_order_yet_deliver_everything() -> TestResult {
    let server = server_with(Realism::LIKE_SQS);
    let sqs = client(&server);
    let url = create(&sqs, "shuffled", &[]).await;
    send_many(&sqs, &url, 100).await?;
    let mut order = Vec::new();
    while order.len() < 100 {
        for message in receive(&sqs, &url, 10, Some(1), 300).await? {
            let body: usize = message.body().unwrap_or_default().parse()?;
            if !order.contains(&body) {
                order.push(body);
            }
        }
    }
    let sent: Vec<usize> = (0..100).collect();
    assert_ne!(order, sent, "delivered in send order");
    order.sort_unstable();
    assert_eq!(order, sent);
    Ok(())
}

#[tokio::test]
async fn counts_lag_then_converge() -> TestResult {
    let server = server_with(Realism::LIKE_SQS);
    let clock = server.clock().clone();
    let sqs = client(&server);
    let url = create(&sqs, "counted", &[]).await;
    let counts = |sqs: Client, url: String| async move {
        let mut out = Vec::new();
        for name in [
            "ApproximateNumberOfMessages",
            "ApproximateNumberOfMessagesNotVisible",
        ] {
            out.push(attribute(&sqs, &url, name).await);
        }
        out
    };
    assert_eq!(counts(sqs.clone(), url.clone()).await, ["0", "0"]);
    send_many(&sqs, &url, 5).await?;
    assert_eq!(counts(sqs.clone(), url.clone()).await, ["0", "0"], "no lag");
    clock.advance(Realism::LIKE_SQS.count_lag - Duration::from_millis(1));
    assert_eq!(counts(sqs.clone(), url.clone()).await, ["0", "0"]);
    clock.advance(Duration::from_millis(1));
    assert_eq!(counts(sqs.clone(), url.clone()).await, ["5", "0"]);
    receive(&sqs, &url, 2, Some(1), 300).await?;
    assert_eq!(counts(sqs.clone(), url.clone()).await, ["5", "0"]);
    clock.advance(Realism::LIKE_SQS.count_lag);
    let converged = counts(sqs.clone(), url.clone()).await;
    assert_eq!(converged, ["3", "2"]);
    Ok(())
}

#[tokio::test]
async fn fifo_queues_stay_exactly_once_and_in_order_per_group() -> TestResult {
    // Every setting at its most unexact: FIFO queues are not affected.
    let server = server_with(Realism {
        duplicate_rate: 1.0,
        reorder_window: 100,
        ..Realism::LIKE_SQS
    });
    let sqs = client(&server);
    let url = create(
        &sqs,
        "ordered.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    for group in 0..3 {
        for i in 0..30 {
            sqs.send_message()
                .queue_url(&url)
                .message_group_id(format!("g{group}"))
                .message_body(format!("g{group} {i:02}"))
                .send()
                .await?;
        }
    }
    let mut by_group: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ids = HashSet::new();
    let mut delivered = 0;
    loop {
        let got = receive(&sqs, &url, 10, Some(1), 300).await?;
        if got.is_empty() {
            break;
        }
        for message in got {
            delivered += 1;
            ids.insert(id(&message));
            let body = message.body().unwrap_or_default().to_string();
            let group = body[..2].to_string();
            by_group.entry(group).or_default().push(body);
            delete(&sqs, &url, handle(&message)).await?;
        }
    }
    assert_eq!((delivered, ids.len()), (90, 90), "exactly once");
    assert_eq!(server.stats().duplicate_deliveries, 0);
    for (group, bodies) in by_group {
        let expected: Vec<String> = (0..30).map(|i| format!("{group} {i:02}")).collect();
        assert_eq!(bodies, expected, "group {group} out of order");
    }
    Ok(())
}
