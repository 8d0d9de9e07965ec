//! Fair queues: a standard queue whose messages carry a MessageGroupId delivers quiet tenants'
//! messages before a noisy neighbour's, by SQS's documented rule (more than 10% of the queue's
//! in-flight messages and at least 30 of its own, until its backlog is drained or it has sent
//! nothing for 5 minutes), on the manual clock so that every outcome is exact.

use std::collections::VecDeque;
use std::time::Duration;

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::{MessageSystemAttributeName, SendMessageBatchRequestEntry};
use serde_json::Value;
use sqsctl_local::Server;

use super::{TestResult, client, create, manual_server};

/// Long enough that nothing comes back by itself while a test runs.
const HOUR: &str = "3600";

/// Sends `count` messages of `tenant` in batches, bodies `"{tenant} {i}"`; with `grouped` the
/// tenant is their MessageGroupId, otherwise they carry none.
async fn send(sqs: &Client, url: &str, tenant: &str, count: usize, grouped: bool) -> TestResult {
    for start in (0..count).step_by(10) {
        let mut batch = sqs.send_message_batch().queue_url(url);
        for i in start..count.min(start + 10) {
            batch = batch.entries(
                SendMessageBatchRequestEntry::builder()
                    .id(format!("e{i}"))
                    .message_body(format!("{tenant} {i}"))
                    .set_message_group_id(grouped.then(|| tenant.to_string()))
                    .build()?,
            );
        }
        let out = batch.send().await?;
        assert!(out.failed().is_empty(), "{:?}", out.failed());
    }
    Ok(())
}

/// A received message: its body, its receipt handle and its SentTimestamp.
struct Got {
    body: String,
    handle: String,
    sent_at: u64,
}

impl Got {
    fn tenant(&self) -> &str {
        self.body.split(' ').next().unwrap_or_default()
    }
}

async fn receive(
    sqs: &Client,
    url: &str,
    max: usize,
) -> Result<Vec<Got>, Box<dyn std::error::Error>> {
    let out = sqs
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max as i32)
        .message_system_attribute_names(MessageSystemAttributeName::SentTimestamp)
        .send()
        .await?;
    Ok(out
        .messages()
        .iter()
        .map(|m| Got {
            body: m.body().unwrap_or_default().to_string(),
            handle: m.receipt_handle().unwrap_or_default().to_string(),
            sent_at: m
                .attributes()
                .and_then(|a| a.get(&MessageSystemAttributeName::SentTimestamp))
                .and_then(|t| t.parse().ok())
                .unwrap_or(0),
        })
        .collect())
}

/// What one receive of a single message brings (its body), kept in flight.
async fn probe(sqs: &Client, url: &str) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    Ok(receive(sqs, url, 1)
        .await?
        .into_iter()
        .map(|g| g.body)
        .collect())
}

/// Receives `count` messages, 10 at a time, and keeps them in flight.
async fn hold(
    sqs: &Client,
    url: &str,
    count: usize,
) -> Result<Vec<Got>, Box<dyn std::error::Error>> {
    let mut held = Vec::new();
    while held.len() < count {
        let got = receive(sqs, url, (count - held.len()).min(10)).await?;
        assert!(!got.is_empty(), "only {} of {count} to hold", held.len());
        held.extend(got);
    }
    Ok(held)
}

async fn delete(sqs: &Client, url: &str, done: &[Got]) -> TestResult {
    for chunk in done.chunks(10) {
        let handles = chunk.iter().map(|got| got.handle.as_str());
        let out = super::support::delete_batch(sqs, url, handles).await?;
        assert!(out.failed().is_empty(), "{:?}", out.failed());
    }
    Ok(())
}

/// A delivery the consumer saw: whose, how long it waited, and in which receive.
struct Delivery {
    tenant: String,
    dwell_ms: u64,
    receive: usize,
}

/// The scenario: tenant A sends 5,000 messages; a consumer holding up to 60 in flight
/// (each second it finishes the 10 it has held longest, then receives up to 10) works for 10
/// seconds; then B and C send 20 each; the consumer goes on until the queue is empty. Returns
/// every delivery and the receive at which B's and C's messages arrived.
async fn flood_then_two_small_tenants(
    server: &Server,
    grouped: bool,
) -> Result<(Vec<Delivery>, usize), Box<dyn std::error::Error>> {
    const HOLD: usize = 60;
    let sqs = client(server);
    let name = if grouped { "fair" } else { "plain" };
    let url = create(&sqs, name, &[("VisibilityTimeout", HOUR)]).await;
    send(&sqs, &url, "A", 5_000, grouped).await?;
    let mut held: VecDeque<Got> = VecDeque::new();
    let mut deliveries = Vec::new();
    let mut arrived = None;
    for step in 0.. {
        assert!(step < 2_000, "the consumer never finished");
        if step == 10 {
            send(&sqs, &url, "B", 20, grouped).await?;
            send(&sqs, &url, "C", 20, grouped).await?;
            arrived = Some(step);
        }
        let finished = held.len().saturating_sub(HOLD - 10);
        let done: Vec<Got> = held.drain(..finished).collect();
        delete(&sqs, &url, &done).await?;
        let now = server.clock().now_millis();
        let got = receive(&sqs, &url, 10).await?;
        if got.is_empty() {
            if held.is_empty() && arrived.is_some() {
                break;
            }
            // The queue ran dry: finish what is held.
            let rest: Vec<Got> = held.drain(..).collect();
            delete(&sqs, &url, &rest).await?;
        }
        for message in got {
            deliveries.push(Delivery {
                tenant: message.tenant().to_string(),
                dwell_ms: now - message.sent_at,
                receive: step,
            });
            held.push_back(message);
        }
        server.clock().advance(Duration::from_secs(1));
    }
    Ok((deliveries, arrived.unwrap_or_default()))
}

fn of<'a>(deliveries: &'a [Delivery], tenants: &[&str]) -> Vec<&'a Delivery> {
    deliveries
        .iter()
        .filter(|d| tenants.contains(&d.tenant.as_str()))
        .collect()
}

#[tokio::test]
async fn a_flooding_tenant_does_not_delay_the_quiet_ones() -> TestResult {
    let server = manual_server();
    let (deliveries, arrived) = flood_then_two_small_tenants(&server, true).await?;
    let small = of(&deliveries, &["B", "C"]);
    let flood = of(&deliveries, &["A"]);
    assert_eq!((small.len(), flood.len()), (40, 5_000), "each message once");
    let last = small.iter().map(|d| d.receive).max().unwrap_or_default();
    assert!(
        last - arrived < 8,
        "B's and C's messages took {} receives after they arrived",
        last - arrived + 1
    );
    let small_dwell = small.iter().map(|d| d.dwell_ms).max().unwrap_or_default();
    let flood_dwell = flood.iter().map(|d| d.dwell_ms).sum::<u64>() / flood.len() as u64;
    assert!(
        small_dwell * 20 < flood_dwell,
        "B and C waited up to {small_dwell} ms, A {flood_dwell} ms on average"
    );
    Ok(())
}

#[tokio::test]
async fn without_group_ids_the_same_tenants_wait_behind_the_flood() -> TestResult {
    let server = manual_server();
    let (deliveries, _) = flood_then_two_small_tenants(&server, false).await?;
    let small = of(&deliveries, &["B", "C"]);
    let flood = of(&deliveries, &["A"]);
    assert_eq!((small.len(), flood.len()), (40, 5_000));
    let first_small = small.iter().map(|d| d.receive).min().unwrap_or_default();
    let last_flood = flood.iter().map(|d| d.receive).max().unwrap_or_default();
    assert!(
        first_small >= last_flood,
        "a message of B or C came in receive {first_small}, before A's backlog ended in {last_flood}"
    );
    Ok(())
}

/// `/_sqsctl/v1/groups` for a queue: what the noisy flags say, by group id.
async fn noisy(server: &Server, url: &str) -> Vec<(String, bool)> {
    let groups = super::inspect::groups(server, url, "").await;
    groups["Groups"]
        .as_array()
        .map(|groups| {
            groups
                .iter()
                .map(|g| {
                    let id = g["GroupId"].as_str().unwrap_or_default().to_string();
                    (id, g["Noisy"] == Value::Bool(true))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn thirty_in_flight_makes_a_tenant_noisy_and_twenty_nine_does_not() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "count-edge", &[("VisibilityTimeout", HOUR)]).await;
    send(&sqs, &url, "A", 40, true).await?;
    hold(&sqs, &url, 29).await?;
    send(&sqs, &url, "B", 1, true).await?;
    assert_eq!(
        noisy(&server, &url).await,
        [("A".into(), false), ("B".into(), false)]
    );
    // 29 in flight: A is quiet, and its older message comes first.
    assert_eq!(probe(&sqs, &url).await?, ["A 29"]);
    // 30 in flight: A is noisy, B's newer message comes first.
    assert_eq!(
        noisy(&server, &url).await,
        [("A".into(), true), ("B".into(), false)]
    );
    assert_eq!(probe(&sqs, &url).await?, ["B 0"]);
    // With no quiet message left, the noisy tenant's come: nothing is held back.
    assert_eq!(probe(&sqs, &url).await?, ["A 30"]);
    Ok(())
}

#[tokio::test]
async fn exactly_ten_percent_of_the_in_flight_messages_is_not_noisy_and_more_is() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "share-edge", &[("VisibilityTimeout", HOUR)]).await;
    // 270 messages without a group id in flight, each a tenant of its own; then A holds 30.
    send(&sqs, &url, "u", 270, false).await?;
    let others = hold(&sqs, &url, 270).await?;
    send(&sqs, &url, "A", 40, true).await?;
    hold(&sqs, &url, 30).await?;
    send(&sqs, &url, "B", 1, true).await?;
    // 30 of 300: exactly 10%, not more; A's older message comes first.
    assert_eq!(
        noisy(&server, &url).await,
        [("A".into(), false), ("B".into(), false)]
    );
    let taken = receive(&sqs, &url, 1).await?;
    assert_eq!(
        taken.iter().map(|g| g.body.as_str()).collect::<Vec<_>>(),
        ["A 30"]
    );
    delete(&sqs, &url, &taken).await?;
    // 30 of 299: just above 10%; B's message comes first.
    delete(&sqs, &url, &others[..1]).await?;
    assert_eq!(
        noisy(&server, &url).await,
        [("A".into(), true), ("B".into(), false)]
    );
    assert_eq!(probe(&sqs, &url).await?, ["B 0"]);
    Ok(())
}

#[tokio::test]
async fn a_tenant_that_sent_nothing_for_five_minutes_is_quiet_again() -> TestResult {
    let server = manual_server();
    let clock = server.clock().clone();
    let sqs = client(&server);
    let url = create(&sqs, "quiet-again", &[("VisibilityTimeout", HOUR)]).await;
    send(&sqs, &url, "A", 40, true).await?;
    hold(&sqs, &url, 30).await?;
    send(&sqs, &url, "B", 1, true).await?;
    clock.advance(Duration::from_secs(299));
    assert_eq!(
        probe(&sqs, &url).await?,
        ["B 0"],
        "A is noisy for 5 minutes"
    );
    sqs.send_message()
        .queue_url(&url)
        .message_body("B 1")
        .message_group_id("B")
        .send()
        .await?;
    clock.advance(Duration::from_secs(1));
    // Five minutes without a send from A: its backlog is served in order again.
    assert_eq!(
        noisy(&server, &url).await,
        [("A".into(), false), ("B".into(), false)]
    );
    assert_eq!(probe(&sqs, &url).await?, ["A 30"]);
    // A new send from A makes it noisy again.
    sqs.send_message()
        .queue_url(&url)
        .message_body("A 40")
        .message_group_id("A")
        .send()
        .await?;
    assert_eq!(probe(&sqs, &url).await?, ["B 1"]);
    Ok(())
}

#[tokio::test]
async fn fifo_queues_keep_their_group_order_and_have_no_noisy_tenants() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(
        &sqs,
        "flood.fifo",
        &[
            ("FifoQueue", "true"),
            ("ContentBasedDeduplication", "true"),
            ("VisibilityTimeout", HOUR),
        ],
    )
    .await;
    send(&sqs, &url, "A", 100, true).await?;
    send(&sqs, &url, "B", 1, true).await?;
    let bodies = |got: &[Got]| got.iter().map(|g| g.body.clone()).collect::<Vec<_>>();
    let first = receive(&sqs, &url, 10).await?;
    let a: Vec<String> = (0..10).map(|i| format!("A {i}")).collect();
    assert_eq!(bodies(&first), a, "a run of A");
    let second = receive(&sqs, &url, 10).await?;
    assert_eq!(
        bodies(&second),
        ["B 0"],
        "A is blocked while its run is in flight"
    );
    let groups = super::inspect::groups(&server, &url, "").await;
    assert_eq!(groups["Fifo"], true);
    assert_eq!(groups["InFlight"], 11);
    let flags: Vec<Option<&Value>> = groups["Groups"]
        .as_array()
        .map(|g| g.iter().map(|g| g.get("Noisy")).collect())
        .unwrap_or_default();
    assert_eq!(flags, [None, None], "{groups}");
    delete(&sqs, &url, &first).await?;
    delete(&sqs, &url, &second).await?;
    let mut rest = Vec::new();
    loop {
        let got = receive(&sqs, &url, 10).await?;
        if got.is_empty() {
            break;
        }
        rest.extend(bodies(&got));
        delete(&sqs, &url, &got).await?;
    }
    let expected: Vec<String> = (10..100).map(|i| format!("A {i}")).collect();
    assert_eq!(rest, expected);
    Ok(())
}
