//! The queues' depths read again and again, and the rates derived from two successive rounds:
//! what `top` shows. A [`Sampler`] reads a round every interval on a task of its own (one
//! [`listing`](super::listing), every call retried) and hands over each queue's counts and rates.
//! On `sqsctl local` a round also counts each standard queue's tenants through the server's
//! inspection endpoint, which changes nothing; SQS has no such count that a read would not disturb
//! (a receive raises receive counts and hides what it reads), so elsewhere there is none.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::{JoinHandle, JoinSet};

use super::listing::{ListOptions, ListedQueue, list};
use crate::client::{ClientError, QueueRef, RetryPolicy, Sqs};
use crate::diagnose::tenants::TenantSummary;

/// The tenants counted per queue at most (the endpoint's answer holds one entry per tenant).
pub const MAX_TENANTS: u64 = 10_000;

/// GetQueueAttributes requests in flight at once.
pub const CONCURRENCY: usize = 32;

/// One round: every queue's counts, by name, and when they were read.
#[derive(Debug, Clone)]
pub struct Sample {
    pub at: SystemTime,
    /// When the round started, for rates.
    pub started: Instant,
    /// How long the round took.
    pub took: Duration,
    pub queues: BTreeMap<String, ListedQueue>,
    /// The fair queues' tenants, where they could be counted without reading a message.
    pub tenants: BTreeMap<String, TenantSummary>,
}

/// Reads one round. A queue deleted between the listing and its attributes is left out.
async fn take(sqs: &Sqs, prefix: Option<&str>, retry: &RetryPolicy) -> Result<Sample, ClientError> {
    let at = SystemTime::now();
    let started = Instant::now();
    let options = ListOptions {
        prefix,
        concurrency: CONCURRENCY,
        retry: Some(retry),
    };
    let listing = list(sqs, options, |_| {}).await?;
    let tenants = tenants(sqs, &listing.queues).await;
    Ok(Sample {
        at,
        started,
        took: started.elapsed(),
        tenants,
        queues: listing
            .queues
            .into_iter()
            .map(|queue| (queue.name.clone(), queue))
            .collect(),
    })
}

/// The tenants of each standard queue with group ids, counted by `sqsctl local`'s inspection
/// endpoint; nothing where the queues are not on a `sqsctl local` (a failed count is left out).
async fn tenants(sqs: &Sqs, queues: &[ListedQueue]) -> BTreeMap<String, TenantSummary> {
    let standard: Vec<QueueRef> = queues
        .iter()
        .filter(|q| !q.fifo)
        .map(|q| QueueRef {
            url: q.url.clone(),
            name: q.name.clone(),
        })
        .collect();
    let Some(first) = standard.first() else {
        return BTreeMap::new();
    };
    if !sqs.inspection().available(first).await {
        return BTreeMap::new();
    }
    let permits = Arc::new(Semaphore::new(CONCURRENCY));
    let mut tasks = JoinSet::new();
    for queue in standard {
        let (sqs, permits) = (sqs.clone(), permits.clone());
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await.ok()?;
            let counts = sqs
                .inspection()
                .group_counts(&queue, MAX_TENANTS)
                .await
                .ok()?;
            Some((queue.name, TenantSummary::from_counts(&counts)?))
        });
    }
    let mut found = BTreeMap::new();
    while let Some(done) = tasks.join_next().await {
        if let Ok(Some((name, summary))) = done {
            found.insert(name, summary);
        }
    }
    found
}

/// One queue as `top` shows it: its counts and what changed since the round before.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueRates {
    pub name: String,
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    /// Messages per second the queue's depth (visible + in flight + delayed) grew by since the
    /// round before: at least that many were sent. `None` in the first round.
    pub in_per_s: Option<f64>,
    /// Messages per second the depth shrank by: at least that many were deleted (or expired).
    pub out_per_s: Option<f64>,
    /// Whether some queue's redrive policy names this queue.
    pub dlq: bool,
    /// The depth grew since the round before.
    pub growing: bool,
    /// A fair queue's tenants and the noisy ones; `None` where they are not known (on SQS, which
    /// has no count of them that leaves the messages alone) or the queue carries no group ids.
    pub tenants: Option<TenantSummary>,
}

/// The queues of `current`, with rates against `previous` (a queue new since then has none).
pub fn rates(previous: Option<&Sample>, current: &Sample) -> Vec<QueueRates> {
    let dlqs: BTreeSet<&str> = current
        .queues
        .values()
        .filter_map(|c| c.dlq.as_deref())
        .collect();
    let elapsed = previous.map(|p| current.started.duration_since(p.started).as_secs_f64());
    current
        .queues
        .iter()
        .map(|(name, counts)| {
            let before = previous.and_then(|p| p.queues.get(name));
            let change = match (before, elapsed) {
                (Some(before), Some(secs)) if secs > 0.0 => {
                    Some((counts.total() as f64 - before.total() as f64) / secs)
                }
                _ => None,
            };
            QueueRates {
                name: name.clone(),
                visible: counts.visible,
                in_flight: counts.in_flight,
                delayed: counts.delayed,
                in_per_s: change.map(|c| if c > 0.0 { c } else { 0.0 }),
                out_per_s: change.map(|c| if c < 0.0 { -c } else { 0.0 }),
                dlq: dlqs.contains(name.as_str()),
                growing: change.is_some_and(|c| c > 0.0),
                tenants: current.tenants.get(name).cloned(),
            }
        })
        .collect()
}

/// One refresh: the round's queues with their rates.
#[derive(Debug, Clone)]
pub struct Refresh {
    /// When the round started.
    pub at: SystemTime,
    /// How long the round took.
    pub took: Duration,
    pub queues: Vec<QueueRates>,
}

/// Reads a round every interval on a task of its own, until it is dropped or a round fails.
pub struct Sampler {
    refreshes: mpsc::Receiver<Result<Refresh, ClientError>>,
    task: JoinHandle<()>,
}

impl Sampler {
    /// Starts reading the queues whose names start with `prefix` (all without one), a round
    /// every `interval`, the first at once.
    pub fn start(
        sqs: &Sqs,
        prefix: Option<String>,
        interval: Duration,
        retry: RetryPolicy,
    ) -> Self {
        let (tx, refreshes) = mpsc::channel(1);
        let sqs = sqs.clone();
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(interval);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut previous: Option<Sample> = None;
            loop {
                ticks.tick().await;
                let refresh = take(&sqs, prefix.as_deref(), &retry).await.map(|sample| {
                    let refresh = Refresh {
                        at: sample.at,
                        took: sample.took,
                        queues: rates(previous.as_ref(), &sample),
                    };
                    previous = Some(sample);
                    refresh
                });
                let failed = refresh.is_err();
                if tx.send(refresh).await.is_err() || failed {
                    return;
                }
            }
        });
        Sampler { refreshes, task }
    }

    /// The next refresh; after an error, `None`.
    pub async fn next(&mut self) -> Option<Result<Refresh, ClientError>> {
        self.refreshes.recv().await
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What `top` sorts its queues by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Visible,
    InFlight,
    Delayed,
    In,
    Out,
    Name,
}

impl SortKey {
    /// The key after this one, round the list.
    pub fn next(self) -> SortKey {
        match self {
            SortKey::Visible => SortKey::InFlight,
            SortKey::InFlight => SortKey::Delayed,
            SortKey::Delayed => SortKey::In,
            SortKey::In => SortKey::Out,
            SortKey::Out => SortKey::Name,
            SortKey::Name => SortKey::Visible,
        }
    }

    /// The header of the column it sorts by.
    pub fn label(self) -> &'static str {
        match self {
            SortKey::Visible => "visible",
            SortKey::InFlight => "in flight",
            SortKey::Delayed => "delayed",
            SortKey::In => "in/s",
            SortKey::Out => "out/s",
            SortKey::Name => "name",
        }
    }

    /// Sorts `rows`: counts and rates largest first, names A to Z; `reverse` turns it around.
    /// Ties go by name, so rows do not jump between refreshes.
    pub fn sort(self, rows: &mut [QueueRates], reverse: bool) {
        let rate = |r: Option<f64>| r.unwrap_or(-1.0);
        rows.sort_by(|a, b| {
            let order = match self {
                SortKey::Visible => b.visible.cmp(&a.visible),
                SortKey::InFlight => b.in_flight.cmp(&a.in_flight),
                SortKey::Delayed => b.delayed.cmp(&a.delayed),
                SortKey::In => rate(b.in_per_s).total_cmp(&rate(a.in_per_s)),
                SortKey::Out => rate(b.out_per_s).total_cmp(&rate(a.out_per_s)),
                SortKey::Name => std::cmp::Ordering::Equal,
            };
            let order = order.then_with(|| a.name.cmp(&b.name));
            if reverse { order.reverse() } else { order }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(started: Instant, queues: &[(&str, u64, u64, Option<&str>)]) -> Sample {
        Sample {
            at: SystemTime::UNIX_EPOCH,
            started,
            took: Duration::ZERO,
            tenants: BTreeMap::new(),
            queues: queues
                .iter()
                .map(|(name, visible, in_flight, dlq)| {
                    (
                        name.to_string(),
                        ListedQueue {
                            name: name.to_string(),
                            url: format!("http://127.0.0.1/000000000000/{name}"),
                            visible: *visible,
                            in_flight: *in_flight,
                            delayed: 0,
                            fifo: false,
                            dlq: dlq.map(str::to_string),
                            max_receive_count: dlq.map(|_| 3),
                        },
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn rates_come_from_the_change_of_depth_between_rounds() {
        let t0 = Instant::now();
        let first = sample(
            t0,
            &[
                ("orders", 100, 0, Some("orders-dlq")),
                ("orders-dlq", 4, 0, None),
            ],
        );
        let second = sample(
            t0 + Duration::from_secs(2),
            &[
                ("orders", 60, 10, Some("orders-dlq")),
                ("orders-dlq", 10, 0, None),
                ("new", 5, 0, None),
            ],
        );
        let first_rows = rates(None, &first);
        assert!(
            first_rows
                .iter()
                .all(|r| r.in_per_s.is_none() && !r.growing)
        );
        let rows = rates(Some(&first), &second);
        let by_name = |n: &str| rows.iter().find(|r| r.name == n).expect("a row").clone();
        let orders = by_name("orders");
        assert_eq!((orders.in_per_s, orders.out_per_s), (Some(0.0), Some(15.0)));
        assert!(!orders.dlq && !orders.growing);
        let dlq = by_name("orders-dlq");
        assert_eq!((dlq.in_per_s, dlq.out_per_s), (Some(3.0), Some(0.0)));
        assert!(dlq.dlq && dlq.growing);
        assert_eq!(
            by_name("new").in_per_s,
            None,
            "no rate before a queue's second round"
        );
    }

    #[test]
    fn sort_keys_cycle_and_order_largest_first_with_names_breaking_ties() {
        let mut key = SortKey::Visible;
        let mut seen = vec![key];
        for _ in 0..5 {
            key = key.next();
            seen.push(key);
        }
        assert_eq!(key.next(), SortKey::Visible);
        assert_eq!(seen.len(), 6);
        let t0 = Instant::now();
        let current = sample(
            t0,
            &[("a", 1, 9, None), ("b", 5, 0, None), ("c", 5, 1, None)],
        );
        let mut shown = rates(None, &current);
        SortKey::Visible.sort(&mut shown, false);
        let names: Vec<&str> = shown.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["b", "c", "a"]);
        SortKey::InFlight.sort(&mut shown, false);
        assert_eq!(shown[0].name, "a");
        SortKey::Name.sort(&mut shown, true);
        let names: Vec<&str> = shown.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["c", "b", "a"]);
    }
}
