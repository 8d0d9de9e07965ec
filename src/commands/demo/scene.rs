//! The demo's scene, built through the client layer as a real producer and consumer would: an
//! `orders` queue whose consumer has been failing, so its dead-letter queue holds transient
//! failures (a downstream timeout, worth retrying) and poison messages (bad data, never worth it);
//! and a FIFO `payments.fifo` queue whose producer pinned one message group and numbers its
//! deduplication ids, the two mistakes `diagnose` exists to find.

use std::collections::BTreeMap;

use anyhow::{Context as _, bail, ensure};

use crate::client::{QueueRef, ReceiveOptions, RetryPolicy, Sqs};
use crate::message::{AttributeValue, MessageRecord};
use crate::queues::dlq::{ensure_dlq, redrive_policy};

pub const ORDERS: &str = "orders";
pub const ORDERS_DLQ: &str = "orders-dlq";
pub const PAYMENTS: &str = "payments.fifo";
/// Orders that failed because a downstream call timed out (`failure=timeout`).
pub const TRANSIENT: u64 = 60;
/// Orders whose data can never be processed (`failure=poison`).
pub const POISON: u64 = 12;
pub const PAYMENTS_COUNT: u64 = 300;
pub const MAX_RECEIVE_COUNT: u32 = 3;
/// The group id the payments producer fixed when its process started (host name and pid).
pub const PRODUCER_GROUP: &str = "producer-48213";

/// The queues of the scene.
#[derive(Debug)]
pub struct Scene {
    pub orders: QueueRef,
    pub orders_dlq: QueueRef,
    pub payments: QueueRef,
}

/// Creates the queues and fills them. Fails if the server does not end up in the expected state.
pub async fn build(sqs: &Sqs) -> anyhow::Result<Scene> {
    let orders_dlq = ensure_dlq(sqs, ORDERS_DLQ, false)
        .await
        .context("could not create the DLQ")?;
    let policy = redrive_policy(&orders_dlq.arn, MAX_RECEIVE_COUNT);
    let orders_dlq = orders_dlq.queue;
    let orders = sqs
        .create_queue(
            ORDERS,
            attributes(&[
                ("RedrivePolicy", policy.as_str()),
                ("ReceiveMessageWaitTimeSeconds", "20"),
                ("VisibilityTimeout", "60"),
            ]),
        )
        .await
        .context("could not create the orders queue")?;
    let payments = sqs
        .create_queue(
            PAYMENTS,
            attributes(&[("FifoQueue", "true"), ("VisibilityTimeout", "60")]),
        )
        .await
        .context("could not create the FIFO queue")?;

    send_all(sqs, &orders, order_records()).await?;
    fail_every_order(sqs, &orders).await?;
    let left = sqs.attributes(&orders).await?.total();
    let dead = sqs.attributes(&orders_dlq).await?.total();
    ensure!(
        left == 0 && dead == TRANSIENT + POISON,
        "the failing consumer left {left} messages in {ORDERS} and {dead} in {ORDERS_DLQ}, expected 0 and {}",
        TRANSIENT + POISON
    );

    send_all(sqs, &payments, payment_records()).await?;
    Ok(Scene {
        orders,
        orders_dlq,
        payments,
    })
}

/// The scene's outcome once the demo's steps ran, checked through the client: the demo fails
/// rather than claim a result the server does not show.
pub async fn check_outcome(sqs: &Sqs, scene: &Scene) -> anyhow::Result<()> {
    let in_dlq = sqs.attributes(&scene.orders_dlq).await?.total();
    let in_orders = sqs.attributes(&scene.orders).await?.total();
    let in_payments = sqs.attributes(&scene.payments).await?.total();
    ensure!(
        in_dlq == POISON && in_orders == TRANSIENT && in_payments == PAYMENTS_COUNT,
        "at the end {ORDERS_DLQ} holds {in_dlq} messages, {ORDERS} {in_orders} and {PAYMENTS} {in_payments}; expected {POISON}, {TRANSIENT} and {PAYMENTS_COUNT}"
    );
    Ok(())
}

fn attributes(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Every sixth order is poison, the others failed on a timeout.
fn order_records() -> Vec<MessageRecord> {
    (0..TRANSIENT + POISON)
        .map(|i| {
            let order = 10_001 + i;
            let customer = 2_000 + (i * 37) % 500;
            let cents = 1_250 + (i * 733) % 9_000;
            let (body, failure) = if i % 6 == 5 {
                // A price formatted for people, not for the schema: no retry will fix it.
                (
                    format!(
                        r#"{{"order_id":"ord-{order}","customer":"c-{customer}","amount":"{},{:02}","currency":"EUR"}}"#,
                        cents / 100,
                        cents % 100
                    ),
                    "poison",
                )
            } else {
                (
                    format!(
                        r#"{{"order_id":"ord-{order}","customer":"c-{customer}","amount_cents":{cents},"currency":"EUR"}}"#
                    ),
                    "timeout",
                )
            };
            let mut record = MessageRecord::with_body(body);
            record
                .message_attributes
                .insert("failure".into(), AttributeValue::string(failure));
            record
                .message_attributes
                .insert("source".into(), AttributeValue::string("checkout"));
            record
        })
        .collect()
}

/// A producer that fixed its group id at start-up and counts its deduplication ids.
fn payment_records() -> Vec<MessageRecord> {
    (1..=PAYMENTS_COUNT)
        .map(|n| {
            let mut record = MessageRecord::with_body(format!(
                r#"{{"payment_id":"pay-{n:06}","order_id":"ord-{}","amount_cents":{},"status":"authorized"}}"#,
                20_000 + n,
                500 + (n * 911) % 20_000
            ));
            record.group_id = Some(PRODUCER_GROUP.to_string());
            record.dedup_id = Some(n.to_string());
            record
        })
        .collect()
}

async fn send_all(sqs: &Sqs, queue: &QueueRef, records: Vec<MessageRecord>) -> anyhow::Result<()> {
    for batch in records.chunks(10) {
        let outcome = sqs
            .send_batch_retrying(queue, batch, &RetryPolicy::default())
            .await;
        if let Some(err) = outcome.request_error {
            return Err(err.into());
        }
        if let Some(failed) = outcome.entries.iter().find(|o| !o.is_done()) {
            bail!(
                "a message of the scene could not be sent to {}: {failed:?}",
                queue.name
            );
        }
    }
    Ok(())
}

/// The failing consumer: it receives, fails and gives the message back at once (visibility 0),
/// until the redrive policy has moved every message into the DLQ.
async fn fail_every_order(sqs: &Sqs, orders: &QueueRef) -> anyhow::Result<()> {
    let options = ReceiveOptions {
        max_messages: 10,
        wait_seconds: Some(0),
        visibility_timeout: Some(0),
    };
    // Each message is received MAX_RECEIVE_COUNT times and moved on the next receive; the bound
    // only stops a runaway loop.
    let bound = (TRANSIENT + POISON) * (u64::from(MAX_RECEIVE_COUNT) + 1) + 100;
    for _ in 0..bound {
        if sqs.receive(orders, options).await?.is_empty() {
            return Ok(());
        }
    }
    bail!("the failing consumer still received messages after {bound} calls")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(record: &MessageRecord) -> &str {
        record
            .message_attributes
            .get("failure")
            .map_or("", |a| a.value.as_str())
    }

    #[test]
    fn orders_split_into_transient_and_poison_failures() {
        let orders = order_records();
        let poison: Vec<&MessageRecord> =
            orders.iter().filter(|r| failure(r) == "poison").collect();
        let timeouts = orders.iter().filter(|r| failure(r) == "timeout").count();
        assert_eq!((timeouts as u64, poison.len() as u64), (TRANSIENT, POISON));
        // Poison bodies carry the malformed amount, the others the schema's integer cents.
        assert!(poison.iter().all(|r| r.body.contains(r#""amount":""#)));
        for record in &orders {
            serde_json::from_str::<serde_json::Value>(&record.body)
                .unwrap_or_else(|e| panic!("{}: {e}", record.body));
        }
    }

    #[test]
    fn payments_share_one_group_and_count_their_dedup_ids() {
        let payments = payment_records();
        assert_eq!(payments.len() as u64, PAYMENTS_COUNT);
        assert!(
            payments
                .iter()
                .all(|r| r.group_id.as_deref() == Some(PRODUCER_GROUP))
        );
        let ids: Vec<u64> = payments
            .iter()
            .map(|r| {
                r.dedup_id
                    .as_deref()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(ids, (1..=PAYMENTS_COUNT).collect::<Vec<_>>());
    }
}
