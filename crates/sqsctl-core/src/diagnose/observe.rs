//! Observations: what the analyzers keep of the messages they are shown.
//!
//! Messages arrive in batches (from a scan of a live queue) or one by one (from a JSON Lines
//! export). Nothing is kept of a message beyond a few counters, hashes and timestamps, so memory
//! grows with the number of groups and distinct deduplication ids, not with message bodies.
//!
//! Messages are counted by distinct message id: a standard queue delivers at least once, so a scan
//! (or an export made by a consumer) may hold the same message twice, and a second copy is not a
//! second message. Records without a message id (a producer's log) are each counted.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};

use sha2::{Digest, Sha256};

use super::tenant_key::KeyTally;
use crate::message::MessageRecord;
use crate::message::count::Counter;

/// How many dedup ids are kept verbatim for the shape checks (time-derived, counters).
pub const DEDUP_SAMPLE: usize = 5_000;

/// How many messages one receive returns at most; a batch this full may have been cut short.
const FULL_BATCH: usize = 10;

/// What was seen of one message group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupObservation {
    /// Position of the group in the order groups were first seen.
    pub order: u64,
    pub seen: u64,
    /// `SentTimestamp` of the oldest message seen, in epoch milliseconds.
    pub oldest_sent_ms: Option<u64>,
    /// `ApproximateReceiveCount` of the first message seen of the group (its head), as read.
    pub head_receive_count: Option<u64>,
    /// `ApproximateFirstReceiveTimestamp` of the head, in epoch milliseconds.
    pub head_first_receive_ms: Option<u64>,
    /// The group's messages seen so far ended a full batch: more of the group may sit behind them.
    pub may_continue: bool,
}

/// A deduplication id (in its scope) seen on at least two different bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    pub id: String,
    pub group: Option<String>,
    /// Messages seen with this id, whatever their body.
    pub messages: u64,
    /// Excerpts of the first body (when still known) and of the first different one.
    pub examples: Vec<String>,
}

/// What is kept of every deduplication id: a hash of its first body and a count.
#[derive(Debug, Clone)]
struct DedupSeen {
    first_body: u64,
    messages: u64,
    /// An excerpt of the first body, kept for the first [`DEDUP_DETAIL`] ids only.
    first_excerpt: Option<Box<str>>,
    collision: Option<usize>,
}

/// Ids whose first body is kept verbatim (as an excerpt) to show beside a later collision.
const DEDUP_DETAIL: usize = 10_000;

/// Everything the analyzers know about the messages they were shown.
#[derive(Debug, Clone, Default)]
pub struct Observations {
    /// Distinct messages (by message id).
    pub messages: u64,
    /// Copies of a message already counted (the same message id again), left out of every count.
    pub duplicates: u64,
    /// Hashes of the message ids counted so far.
    message_ids: HashSet<u64>,
    pub groups: HashMap<String, GroupObservation>,
    /// Messages without a group id.
    pub ungrouped: u64,
    /// Deduplication ids by a hash of their scoped form (`group \0 id` when `per_group_dedup`).
    dedup: HashMap<u64, DedupSeen>,
    /// Ids seen on different bodies.
    pub collisions: Vec<Collision>,
    /// Up to [`DEDUP_SAMPLE`] dedup ids with the message's `SentTimestamp`, in arrival order.
    pub dedup_sample: Vec<(String, Option<u64>)>,
    /// Dedup ids that are the SHA-256 of the body (content-based deduplication).
    pub content_hash_ids: u64,
    /// Messages carrying a dedup id.
    pub with_dedup_id: u64,
    /// How often each body (by hash) was seen.
    bodies: HashMap<u64, u64>,
    /// Bodies seen more than once: count and an excerpt.
    pub repeated_bodies: HashMap<u64, (u64, String)>,
    /// `ApproximateReceiveCount` as read: how many messages had each count.
    pub receive_counts: BTreeMap<u64, u64>,
    /// Receive count and first receive time of every message read with a count of 2 or more.
    pub retried: Vec<(u64, Option<u64>)>,
    /// `SentTimestamp` of every message, in epoch milliseconds.
    pub sent_ms: Vec<u64>,
    /// `DeadLetterQueueSourceArn` of messages in a dead-letter queue, counted.
    pub dead_letter_sources: BTreeMap<String, u64>,
    /// Scope dedup ids per message group (the queue's `DeduplicationScope` is `messageGroup`).
    per_group_dedup: bool,
    /// The values of a tenant key the user named, when one was.
    pub tenant_key: Option<KeyTally>,
    /// Counts by key (see [`super::counts`]), when asked for.
    pub counter: Option<Counter>,
}

impl Observations {
    pub fn new(per_group_dedup: bool) -> Observations {
        Observations {
            per_group_dedup,
            ..Observations::default()
        }
    }

    /// Also tallies each message's value of `key`.
    pub fn with_tenant_key(mut self, key: Option<KeyTally>) -> Observations {
        self.tenant_key = key;
        self
    }

    /// Also counts each message by the keys of `counter`.
    pub fn with_counter(mut self, counter: Option<Counter>) -> Observations {
        self.counter = counter;
        self
    }

    /// Records a batch as one receive returned it. Runs of a group that end a full batch are
    /// marked as possibly continuing: SQS returns as many messages of a group as fit, so a group
    /// whose run ends before the batch does is one whose deliverable messages were all returned.
    pub fn add_batch(&mut self, batch: &[MessageRecord]) {
        for message in batch {
            self.add(message);
        }
        if batch.len() >= FULL_BATCH
            && let Some(group) = batch.last().and_then(|m| m.effective_group_id())
            && let Some(entry) = self.groups.get_mut(group)
        {
            entry.may_continue = true;
        }
    }

    /// Records one message, unless a message with its id was recorded before.
    pub fn add(&mut self, message: &MessageRecord) {
        if let Some(id) = &message.message_id
            && !self.message_ids.insert(hash_of(id))
        {
            self.duplicates += 1;
            return;
        }
        self.messages += 1;
        if let Some(tally) = &mut self.tenant_key {
            tally.add(message);
        }
        if let Some(counter) = &mut self.counter {
            counter.add(message);
        }
        let sent = message.attribute_u64("SentTimestamp");
        if let Some(sent) = sent {
            self.sent_ms.push(sent);
        }
        let receive_count = message.attribute_u64("ApproximateReceiveCount");
        let first_receive = message.attribute_u64("ApproximateFirstReceiveTimestamp");
        if let Some(count) = receive_count {
            *self.receive_counts.entry(count).or_default() += 1;
            if count >= 2 {
                self.retried.push((count, first_receive));
            }
        }
        if let Some(source) = message.attributes.get("DeadLetterQueueSourceArn") {
            *self.dead_letter_sources.entry(source.clone()).or_default() += 1;
        }
        let group = message.effective_group_id();
        match group {
            Some(group) => {
                let next_order = self.groups.len() as u64;
                let entry =
                    self.groups
                        .entry(group.to_string())
                        .or_insert_with(|| GroupObservation {
                            order: next_order,
                            head_receive_count: receive_count,
                            head_first_receive_ms: first_receive,
                            ..GroupObservation::default()
                        });
                entry.seen += 1;
                if let Some(sent) = sent {
                    entry.oldest_sent_ms = Some(entry.oldest_sent_ms.map_or(sent, |o| o.min(sent)));
                }
            }
            None => self.ungrouped += 1,
        }
        let body_hash = hash_of(&message.body);
        let seen = self.bodies.entry(body_hash).or_default();
        *seen += 1;
        if *seen > 1 {
            let count = *seen;
            self.repeated_bodies
                .entry(body_hash)
                .or_insert_with(|| (0, excerpt(&message.body)))
                .0 = count;
        }
        if let Some(id) = message.effective_dedup_id() {
            self.add_dedup(id, group, body_hash, &message.body, sent);
        }
    }

    fn add_dedup(
        &mut self,
        id: &str,
        group: Option<&str>,
        body_hash: u64,
        body: &str,
        sent: Option<u64>,
    ) {
        self.with_dedup_id += 1;
        if id.len() == 64 && is_sha256_of(id, body) {
            self.content_hash_ids += 1;
        } else if self.dedup_sample.len() < DEDUP_SAMPLE {
            self.dedup_sample.push((id.to_string(), sent));
        }
        let key = match (self.per_group_dedup, group) {
            (true, Some(group)) => hash_of(&format!("{group}\u{0}{id}")),
            _ => hash_of(id),
        };
        let detailed = self.dedup.len() < DEDUP_DETAIL;
        let entry = self.dedup.entry(key).or_insert_with(|| DedupSeen {
            first_body: body_hash,
            messages: 0,
            first_excerpt: detailed.then(|| excerpt(body).into_boxed_str()),
            collision: None,
        });
        entry.messages += 1;
        match entry.collision {
            Some(index) => self.collisions[index].messages = entry.messages,
            None if entry.first_body != body_hash => {
                entry.collision = Some(self.collisions.len());
                let first = entry
                    .first_excerpt
                    .as_deref()
                    .map_or_else(|| "(an earlier body)".to_string(), str::to_string);
                self.collisions.push(Collision {
                    id: id.to_string(),
                    group: group.map(str::to_string),
                    messages: entry.messages,
                    examples: vec![first, excerpt(body)],
                });
            }
            None => {}
        }
    }

    /// Messages read with an `ApproximateReceiveCount` of at least `count`.
    pub fn received_at_least(&self, count: u64) -> u64 {
        self.receive_counts.range(count..).map(|(_, n)| n).sum()
    }

    pub fn max_receive_count(&self) -> Option<u64> {
        self.receive_counts.keys().next_back().copied()
    }

    /// Groups in the order they were first seen.
    pub fn groups_in_order(&self) -> Vec<(&str, &GroupObservation)> {
        let mut groups: Vec<(&str, &GroupObservation)> = self
            .groups
            .iter()
            .map(|(name, g)| (name.as_str(), g))
            .collect();
        groups.sort_by_key(|(_, g)| g.order);
        groups
    }
}

/// How earlier receives of a message are counted as failures (or slow processing) rather than as
/// reads that only looked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiveClock<'a> {
    /// "Now", in epoch milliseconds.
    pub now_ms: u64,
    /// When earlier scans of the same queue by this tool ended, in epoch milliseconds: each read
    /// every message it could see once.
    pub own_scans: &'a [u64],
    /// The queue's visibility timeout in seconds, when known.
    pub visibility_timeout: Option<u64>,
}

impl ReceiveClock<'_> {
    /// Earlier scans that can have read a message first received at `first_receive_ms`.
    pub fn own_reads(&self, first_receive_ms: Option<u64>) -> u64 {
        self.own_scans
            .iter()
            .filter(|end| first_receive_ms.is_none_or(|first| **end >= first))
            .count() as u64
    }

    /// Earlier receives of a message read with `count`, not counting this read or our own
    /// earlier ones.
    pub fn prior_receives(&self, count: u64, first_receive_ms: Option<u64>) -> u64 {
        count.saturating_sub(1 + self.own_reads(first_receive_ms))
    }

    /// Earlier receives that can have ended with the visibility timeout running out: no more
    /// than the timeouts that fit since the first receive. A tool that only looks makes the
    /// message visible again at once, so its reads raise the count without taking that time.
    pub fn timed_out_receives(&self, count: u64, first_receive_ms: Option<u64>) -> u64 {
        let prior = self.prior_receives(count, first_receive_ms);
        match (self.visibility_timeout, first_receive_ms) {
            (Some(timeout), Some(first)) if timeout > 0 => {
                let fit = self.now_ms.saturating_sub(first) / 1000 / timeout;
                prior.min(fit)
            }
            _ => prior,
        }
    }
}

fn hash_of(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

fn is_sha256_of(id: &str, body: &str) -> bool {
    hex::encode(Sha256::digest(body.as_bytes())).eq_ignore_ascii_case(id)
}

/// The first characters of a body, on one line, for evidence.
pub fn excerpt(text: &str) -> String {
    const LIMIT: usize = 48;
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(LIMIT + 1)
        .collect();
    if flat.chars().count() > LIMIT {
        let cut: String = flat.chars().take(LIMIT).collect();
        format!("{cut}…")
    } else {
        flat
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A received-looking FIFO message.
    pub fn fifo(
        group: &str,
        dedup: &str,
        body: &str,
        sent_ms: u64,
        receives: u64,
    ) -> MessageRecord {
        let mut record = MessageRecord::with_body(body);
        record.group_id = Some(group.into());
        record.dedup_id = Some(dedup.into());
        record
            .attributes
            .insert("SentTimestamp".into(), sent_ms.to_string());
        record
            .attributes
            .insert("ApproximateReceiveCount".into(), receives.to_string());
        record
    }

    #[test]
    fn groups_count_and_the_last_run_of_a_full_batch_may_continue() {
        let mut obs = Observations::new(false);
        let batch: Vec<_> = (0..10)
            .map(|i| {
                let group = if i < 4 { "a" } else { "b" };
                fifo(group, &format!("d{i}"), &format!("m{i}"), 1_000 + i, 1)
            })
            .collect();
        obs.add_batch(&batch);
        obs.add_batch(&[fifo("c", "d10", "m10", 900, 3)]);
        assert_eq!(obs.messages, 11);
        let a = &obs.groups["a"];
        let b = &obs.groups["b"];
        let c = &obs.groups["c"];
        assert_eq!((a.seen, a.may_continue), (4, false));
        assert_eq!((b.seen, b.may_continue), (6, true));
        assert_eq!(
            (c.seen, c.may_continue, c.head_receive_count),
            (1, false, Some(3))
        );
        assert_eq!(a.oldest_sent_ms, Some(1_000));
        let order: Vec<_> = obs.groups_in_order().iter().map(|(n, _)| *n).collect();
        assert_eq!(order, ["a", "b", "c"]);
        assert_eq!(obs.received_at_least(2), 1);
        assert_eq!(obs.max_receive_count(), Some(3));
    }

    #[test]
    fn a_message_delivered_twice_is_counted_once() {
        let mut obs = Observations::new(false);
        let mut first = fifo("a", "d1", "one", 1, 1);
        first.message_id = Some("m-1".into());
        let mut again = first.clone();
        again
            .attributes
            .insert("ApproximateReceiveCount".into(), "2".into());
        let mut other = fifo("a", "d2", "two", 2, 1);
        other.message_id = Some("m-2".into());
        obs.add_batch(&[first, other, again]);
        // A producer's log has no message ids: each line is a message.
        obs.add(&fifo("b", "d3", "three", 3, 1));
        obs.add(&fifo("b", "d3", "three", 3, 1));
        assert_eq!((obs.messages, obs.duplicates), (4, 1));
        assert_eq!(obs.groups["a"].seen, 2);
        assert_eq!(obs.groups["b"].seen, 2);
        assert_eq!(obs.received_at_least(2), 0);
        assert!(obs.collisions.is_empty());
    }

    #[test]
    fn dedup_ids_on_different_bodies_are_noticed_per_scope() {
        let mut queue_scope = Observations::new(false);
        let mut group_scope = Observations::new(true);
        for obs in [&mut queue_scope, &mut group_scope] {
            obs.add(&fifo("a", "same", "one", 1, 1));
            obs.add(&fifo("b", "same", "two", 2, 1));
            obs.add(&fifo("a", "other", "x", 3, 1));
            obs.add(&fifo("a", "other", "x", 4, 1));
        }
        assert_eq!(queue_scope.collisions.len(), 1);
        let collision = &queue_scope.collisions[0];
        assert_eq!((collision.id.as_str(), collision.messages), ("same", 2));
        assert_eq!(collision.examples, ["one", "two"]);
        assert!(group_scope.collisions.is_empty());
    }

    #[test]
    fn content_hash_ids_are_recognised_and_bodies_counted() {
        let mut obs = Observations::new(false);
        let body = "refresh";
        let digest = hex::encode(Sha256::digest(body.as_bytes()));
        obs.add(&fifo("g", &digest, body, 1, 1));
        obs.add(&fifo("g", &digest, body, 2, 1));
        assert_eq!(obs.content_hash_ids, 2);
        assert!(obs.dedup_sample.is_empty());
        assert_eq!(obs.repeated_bodies.values().next().map(|b| b.0), Some(2));
    }

    #[test]
    fn receives_count_as_timeouts_only_when_the_timeouts_fit_in_the_time() {
        // One scan of ours ended before the message was first received, one after.
        let scans = [1_000, 50_000];
        let clock = ReceiveClock {
            now_ms: 100_000,
            own_scans: &scans,
            visibility_timeout: Some(10),
        };
        assert_eq!(clock.prior_receives(6, Some(5_000)), 4);
        assert_eq!(clock.prior_receives(6, None), 3);
        // First received 95 s ago: up to 9 timeouts of 10 s fit.
        assert_eq!(clock.timed_out_receives(6, Some(5_000)), 4);
        // First received 25 s ago: two fit, the other receives only looked.
        assert_eq!(clock.timed_out_receives(6, Some(75_000)), 2);
    }

    #[test]
    fn excerpts_are_short_and_single_line() {
        assert_eq!(excerpt("a\nb"), "a b");
        let long = "x".repeat(100);
        assert_eq!(excerpt(&long).chars().count(), 49);
    }
}
