//! One refresh of `top`: the queues' counts read in one round (one ListQueues, then at most one
//! GetQueueAttributes per queue, a bounded number at a time), and the rates derived from two
//! successive rounds. Knows nothing of terminals; the screen and the JSON lines draw from here.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueRef, RetryPolicy, Sqs};

/// GetQueueAttributes requests in flight at once.
pub const CONCURRENCY: usize = 32;

/// One queue's counts in one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    /// The dead-letter queue its redrive policy names, by name.
    pub dlq: Option<String>,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.visible + self.in_flight + self.delayed
    }
}

/// One round: every queue's counts, by name, and when they were read.
#[derive(Debug, Clone)]
pub struct Sample {
    pub at: SystemTime,
    /// When the round started, for rates.
    pub started: Instant,
    /// How long the round took.
    pub took: Duration,
    pub queues: BTreeMap<String, Counts>,
}

/// Reads one round. A queue deleted between the listing and its attributes is left out.
pub async fn take(
    sqs: &Sqs,
    prefix: Option<&str>,
    retry: &RetryPolicy,
) -> Result<Sample, ClientError> {
    let at = SystemTime::now();
    let started = Instant::now();
    let queues = retry.request(|| sqs.list_queues(prefix)).await.result?;
    let permits = Arc::new(Semaphore::new(CONCURRENCY));
    let mut tasks: JoinSet<(String, Result<Counts, ClientError>)> = JoinSet::new();
    for queue in queues {
        let sqs = sqs.clone();
        let permits = permits.clone();
        let retry = retry.clone();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let counts = counts(&sqs, &queue, &retry).await;
            (queue.name, counts)
        });
    }
    let mut out = BTreeMap::new();
    while let Some(done) = tasks.join_next().await {
        let Ok((name, result)) = done else { continue };
        match result {
            Ok(counts) => {
                out.insert(name, counts);
            }
            Err(ClientError::QueueNotFound { .. }) => {}
            Err(err) => return Err(err),
        }
    }
    Ok(Sample {
        at,
        started,
        took: started.elapsed(),
        queues: out,
    })
}

async fn counts(sqs: &Sqs, queue: &QueueRef, retry: &RetryPolicy) -> Result<Counts, ClientError> {
    let attrs = retry.request(|| sqs.attributes(queue)).await.result?;
    Ok(Counts {
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        dlq: attrs.redrive_policy().map(|p| {
            name_from_arn(&p.dead_letter_target_arn)
                .unwrap_or(&p.dead_letter_target_arn)
                .to_string()
        }),
    })
}

/// One queue as `top` shows it: its counts and what changed since the round before.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
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
}

/// The rows of `current`, with rates against `previous` (a queue new since then has none).
pub fn rows(previous: Option<&Sample>, current: &Sample) -> Vec<Row> {
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
            Row {
                name: name.clone(),
                visible: counts.visible,
                in_flight: counts.in_flight,
                delayed: counts.delayed,
                in_per_s: change.map(|c| if c > 0.0 { c } else { 0.0 }),
                out_per_s: change.map(|c| if c < 0.0 { -c } else { 0.0 }),
                dlq: dlqs.contains(name.as_str()),
                growing: change.is_some_and(|c| c > 0.0),
            }
        })
        .collect()
}

pub use crate::cli::top::SortKey;

impl SortKey {
    /// The key the `s` key moves to.
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
    pub fn sort(self, rows: &mut [Row], reverse: bool) {
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
            queues: queues
                .iter()
                .map(|(name, visible, in_flight, dlq)| {
                    (
                        name.to_string(),
                        Counts {
                            visible: *visible,
                            in_flight: *in_flight,
                            delayed: 0,
                            dlq: dlq.map(str::to_string),
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
        let first_rows = rows(None, &first);
        assert!(
            first_rows
                .iter()
                .all(|r| r.in_per_s.is_none() && !r.growing)
        );
        let rows = rows(Some(&first), &second);
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
        let mut shown = rows(None, &current);
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
