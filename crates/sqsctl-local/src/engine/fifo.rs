//! FIFO bookkeeping: which message groups may deliver, and the deduplication window.
//!
//! A group is deliverable when none of its messages is in flight and its oldest message is visible.
//! Groups that may be deliverable wait in a `ready` queue (each at most once), so a receive finds
//! work in time proportional to what it returns, not to the number of groups or messages. Deleted
//! messages leave their keys behind and are skipped lazily when they reach the front of their group.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use uuid::Uuid;

use crate::engine::message::State;
use crate::engine::store::MessageMap;

#[derive(Debug, Default)]
struct Group {
    /// Keys in send order, including in-flight and delayed messages.
    keys: VecDeque<u64>,
    in_flight: u32,
    queued: bool,
}

#[derive(Debug, Default)]
pub struct FifoOrder {
    groups: HashMap<Arc<str>, Group>,
    ready: VecDeque<Arc<str>>,
}

impl FifoOrder {
    pub fn push(&mut self, group: &Arc<str>, key: u64, visible: bool) {
        let entry = self.groups.entry(group.clone()).or_default();
        entry.keys.push_back(key);
        if visible {
            self.mark_ready(group);
        }
    }

    /// Puts a group in line for delivery unless it is blocked or already in line.
    pub fn mark_ready(&mut self, group: &Arc<str>) {
        if let Some(entry) = self.groups.get_mut(group)
            && entry.in_flight == 0
            && !entry.queued
        {
            entry.queued = true;
            self.ready.push_back(group.clone());
        }
    }

    pub fn started_flight(&mut self, group: &Arc<str>) {
        if let Some(entry) = self.groups.get_mut(group) {
            entry.in_flight += 1;
        }
    }

    pub fn ended_flight(&mut self, group: &Arc<str>) {
        if let Some(entry) = self.groups.get_mut(group) {
            entry.in_flight = entry.in_flight.saturating_sub(1);
        }
        self.mark_ready(group);
    }

    /// Keys of up to `max` deliverable messages, whole runs of a group in order before the next
    /// group. Does not change message state; the caller receives or removes each key it gets.
    pub fn candidates(&mut self, map: &MessageMap, max: usize) -> Vec<u64> {
        let mut out = Vec::new();
        while out.len() < max {
            let Some(name) = self.ready.pop_front() else {
                break;
            };
            let Some(group) = self.groups.get_mut(&name) else {
                continue;
            };
            group.queued = false;
            if group.in_flight > 0 {
                continue;
            }
            while let Some(front) = group.keys.front() {
                if map.contains_key(front) {
                    break;
                }
                group.keys.pop_front();
            }
            if group.keys.is_empty() {
                self.groups.remove(&name);
                continue;
            }
            for key in &group.keys {
                if out.len() >= max {
                    break;
                }
                match map.get(key).map(|m| m.state) {
                    Some(State::Visible) => out.push(*key),
                    // A later message deleted out of order: skip it, it is gone.
                    None => continue,
                    // Delayed or already taken: the rest of the group waits behind it.
                    Some(_) => break,
                }
            }
        }
        out
    }
}

/// The original answer to a deduplicated send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Original {
    pub message_id: Uuid,
    pub sequence: Option<u128>,
}

/// Deduplication ids seen in the last five minutes. Entries expire in insertion order, which is also
/// expiry order because the window is fixed.
#[derive(Debug, Default)]
pub struct Dedup {
    seen: HashMap<Box<str>, (Original, u64)>,
    expiry: VecDeque<(u64, Box<str>)>,
}

pub const DEDUP_WINDOW_MS: u64 = 5 * 60 * 1000;

impl Dedup {
    /// The key of a dedup id under the queue's scope: per queue, or per message group.
    pub fn scoped_key(per_group: bool, group: &str, dedup_id: &str) -> String {
        if per_group {
            format!("{group}\u{0}{dedup_id}")
        } else {
            dedup_id.to_string()
        }
    }

    fn expire(&mut self, now: u64) {
        while let Some((expires, _)) = self.expiry.front() {
            if *expires > now {
                break;
            }
            if let Some((expires, key)) = self.expiry.pop_front()
                && self.seen.get(&key).is_some_and(|(_, e)| *e == expires)
            {
                self.seen.remove(&key);
            }
        }
    }

    pub fn lookup(&mut self, key: &str, now: u64) -> Option<Original> {
        self.expire(now);
        self.seen.get(key).map(|(original, _)| *original)
    }

    pub fn remember(&mut self, key: String, original: Original, now: u64) {
        self.remember_until(key, original, now + DEDUP_WINDOW_MS);
    }

    /// Remembers an id until `expires`; entries must come in expiry order.
    pub fn remember_until(&mut self, key: String, original: Original, expires: u64) {
        let key: Box<str> = key.into();
        self.seen.insert(key.clone(), (original, expires));
        self.expiry.push_back((expires, key));
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::store::Ask;

    #[test]
    fn dedup_window_is_five_minutes_from_the_first_send() {
        let mut dedup = Dedup::default();
        let original = Original {
            message_id: Uuid::new_v4(),
            sequence: Some(1),
        };
        dedup.remember("d".into(), original, 1_000);
        assert_eq!(
            dedup.lookup("d", 1_000 + DEDUP_WINDOW_MS - 1),
            Some(original)
        );
        assert_eq!(dedup.lookup("d", 1_000 + DEDUP_WINDOW_MS), None);
        assert_eq!(dedup.len(), 0);
    }

    #[test]
    fn scope_per_group_separates_ids() {
        assert_ne!(
            Dedup::scoped_key(true, "a", "x"),
            Dedup::scoped_key(true, "b", "x")
        );
        assert_eq!(
            Dedup::scoped_key(false, "a", "x"),
            Dedup::scoped_key(false, "b", "x")
        );
    }

    fn fifo_message(group: &str, body: &str) -> crate::engine::message::StoredMessage {
        crate::engine::message::StoredMessage::visible(body, 1, Some(group))
    }

    fn bodies(received: &crate::engine::store::Received) -> Vec<String> {
        received
            .messages
            .iter()
            .map(|(_, m)| m.body.to_string())
            .collect()
    }

    #[test]
    fn groups_deliver_in_order_and_block_while_in_flight() {
        let mut messages = crate::engine::store::Messages::new(true);
        for (group, body) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("a", "a3")] {
            messages.insert(fifo_message(group, body));
        }
        let first = messages.receive(10, Ask::new(2, 1000), None);
        assert_eq!(bodies(&first), ["a1", "a2"]);
        let second = messages.receive(10, Ask::new(10, 1000), None);
        assert_eq!(bodies(&second), ["b1"]);
        assert!(
            messages
                .receive(10, Ask::new(10, 1000), None)
                .messages
                .is_empty()
        );
        // a1 deleted, a2 still in flight: a stays blocked.
        let (a1, generation) = (first.messages[0].0, first.messages[0].1.receive_count);
        messages.delete(a1, generation);
        assert!(
            messages
                .receive(10, Ask::new(10, 1000), None)
                .messages
                .is_empty()
        );
        let (b1, generation) = (second.messages[0].0, second.messages[0].1.receive_count);
        messages.delete(b1, generation);
        // a2's visibility runs out: a2 comes back first, then a3, in one receive.
        messages.tick(1_010, u64::MAX / 2);
        assert_eq!(
            bodies(&messages.receive(1_010, Ask::new(10, 1000), None)),
            ["a2", "a3"]
        );
    }

    #[test]
    fn over_the_receive_limit_goes_to_the_dead_letter_list() {
        let mut messages = crate::engine::store::Messages::new(true);
        messages.insert(fifo_message("g", "poison"));
        messages.insert(fifo_message("g", "next"));
        assert_eq!(
            bodies(&messages.receive(0, Ask::new(1, 0).dead_lettering_after(Some(1)), None)),
            ["poison"]
        );
        messages.tick(0, u64::MAX / 2);
        let again = messages.receive(0, Ask::new(1, 0).dead_lettering_after(Some(1)), None);
        assert_eq!(again.to_dead_letter.len(), 1);
        assert_eq!(bodies(&again), ["next"]);
    }
}
