//! FIFO bookkeeping: which message groups may deliver, in what order, and the deduplication
//! window.
//!
//! The rule, from SQS's recorded answers (a group of messages m1, m2, m3 in send order):
//!
//! - **A group is held back behind its first message only.** A receive takes the group's visible
//!   messages from its oldest one on, in order, and stops at the first that is in flight or
//!   delayed. So while the oldest message is in flight nothing of the group is delivered; when it
//!   is visible again (its visibility timeout ran out or was changed to 0) it can be received
//!   although later messages are still in flight. All three received, then one kept in flight
//!   while the other two come back: m1 kept, nothing; m2 kept, m1 only; m3 kept, m1 and m2.
//!   Deleting the oldest message frees the group at once when the next one is visible; deleting
//!   it while the next is in flight frees nothing.
//! - **Groups take turns by when their oldest message became receivable**: its send if it was
//!   never received (a delayed message keeps the place of its send), else the moment it came back
//!   from flight. A group whose head came back from its visibility timeout queues behind groups
//!   whose heads were waiting already, and a group freed by a delete takes the place its new head
//!   has held since its send.
//!
//! Each group keeps its keys in send order with the *place* (a counter of moments a message became
//! receivable) of each; the groups that can deliver sit in one ordered map by the place of their
//! head, so a receive finds work in time proportional to what it returns, not to the number of
//! groups or messages. Deleted messages leave their keys behind and are skipped lazily when they
//! reach the front of their group.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use uuid::Uuid;

use crate::engine::message::State;
use crate::engine::store::MessageMap;

/// A key of a group with its place: the moment it last became receivable, in a counter shared
/// by the queue's groups.
type Entry = (u64, u64);

#[derive(Debug, Default)]
struct Group {
    /// Keys in send order, including in-flight and delayed messages.
    keys: VecDeque<Entry>,
    /// The place under which the group waits in `ready`, while its head is visible.
    ready_at: Option<u64>,
}

#[derive(Debug, Default)]
pub struct FifoOrder {
    groups: HashMap<Arc<str>, Group>,
    /// Groups whose oldest message is visible, by the place of that message.
    ready: BTreeMap<u64, Arc<str>>,
    next_place: u64,
}

impl FifoOrder {
    fn place(&mut self) -> u64 {
        self.next_place += 1;
        self.next_place
    }

    /// A message stored in `group`; its place is its arrival.
    pub fn push(&mut self, map: &MessageMap, group: &Arc<str>, key: u64) {
        let place = self.place();
        self.groups
            .entry(group.clone())
            .or_default()
            .keys
            .push_back((place, key));
        self.refresh(map, group);
    }

    /// A message of `group` that was in flight is receivable again: it takes a new place.
    pub fn returned(&mut self, map: &MessageMap, group: &Arc<str>, key: u64) {
        let place = self.place();
        if let Some(entry) = self
            .groups
            .get_mut(group)
            .and_then(|g| g.keys.iter_mut().find(|(_, k)| *k == key))
        {
            entry.0 = place;
        }
        self.refresh(map, group);
    }

    /// Puts `group` in `ready` under its head's place when its head is visible, takes it out
    /// otherwise, and forgets it once it has no message. Call it after any change of state of
    /// one of the group's messages.
    pub fn refresh(&mut self, map: &MessageMap, group: &Arc<str>) {
        let Some(entry) = self.groups.get_mut(group) else {
            return;
        };
        while let Some((_, front)) = entry.keys.front() {
            if map.contains_key(front) {
                break;
            }
            entry.keys.pop_front();
        }
        if entry.keys.is_empty() {
            if let Some(old) = entry.ready_at {
                self.ready.remove(&old);
            }
            self.groups.remove(group);
            return;
        }
        let wanted = entry.keys.front().and_then(|(place, key)| {
            (map.get(key).map(|m| m.state) == Some(State::Visible)).then_some(*place)
        });
        if entry.ready_at == wanted {
            return;
        }
        if let Some(old) = entry.ready_at.take() {
            self.ready.remove(&old);
        }
        if let Some(place) = wanted {
            entry.ready_at = Some(place);
            self.ready.insert(place, group.clone());
        }
    }

    /// Keys of up to `max` deliverable messages: each group's visible messages from its head up
    /// to the first that is not visible, a whole run before the next group, groups in the order
    /// their heads became receivable. Does not change message state; the caller receives or
    /// removes each key it gets, and the groups it takes are out of `ready` until refreshed.
    pub fn candidates(&mut self, map: &MessageMap, max: usize) -> Vec<u64> {
        let mut out = Vec::new();
        while out.len() < max {
            let Some((_, name)) = self.ready.pop_first() else {
                break;
            };
            let Some(group) = self.groups.get_mut(&name) else {
                continue;
            };
            group.ready_at = None;
            for (_, key) in &group.keys {
                if out.len() >= max {
                    break;
                }
                match map.get(key).map(|m| m.state) {
                    Some(State::Visible) => out.push(*key),
                    // A later message deleted out of order: skip it, it is gone.
                    None => continue,
                    // In flight or delayed: the rest of the group waits behind it.
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

    /// Sends `(group, body)` pairs in order, one millisecond apart.
    fn fifo_queue(sends: &[(&str, &str)]) -> crate::engine::store::Messages {
        let mut messages = crate::engine::store::Messages::new(true);
        for (group, body) in sends {
            messages.insert(fifo_message(group, body));
        }
        messages
    }

    fn change(
        messages: &mut crate::engine::store::Messages,
        received: &(u64, crate::engine::message::StoredMessage),
        timeout_secs: u32,
        now: u64,
    ) {
        messages
            .change_visibility(crate::engine::store::VisibilityChange {
                key: received.0,
                generation: received.1.receive_count,
                timeout_secs,
                now,
                handle: "h",
            })
            .expect("the message is in flight");
    }

    // The cases below are SQS's recorded answers (LocalStack's AWS-validated FIFO tests).

    #[test]
    fn one_message_kept_in_flight_holds_back_only_what_comes_after_it() {
        // foo, bar, baz received with a 1 s timeout, one of them extended to 4 s, the receive
        // 2.5 s later: foo kept gives nothing, bar kept gives foo, baz kept gives foo and bar.
        for (kept, expected) in [(0, vec![]), (1, vec!["foo"]), (2, vec!["foo", "bar"])] {
            let mut messages = fifo_queue(&[("1", "foo"), ("1", "bar"), ("1", "baz")]);
            let all = messages.receive(0, Ask::new(5, 1_000), None);
            assert_eq!(bodies(&all), ["foo", "bar", "baz"]);
            change(&mut messages, &all.messages[kept], 4, 0);
            messages.tick(2_500, u64::MAX / 2);
            assert_eq!(
                bodies(&messages.receive(2_500, Ask::new(5, 1_000), None)),
                expected,
                "message {kept} kept in flight"
            );
        }
    }

    #[test]
    fn a_head_made_visible_again_is_received_while_the_next_is_in_flight() {
        // g1-m1 and g1-m2 received, g1-m1's timeout changed to 0 (or to 1 s, then waited for):
        // a receive of 3 gets g2-m1, then g1-m1, and not g1-m2.
        for (timeout, at) in [(0, 0), (1, 2_000)] {
            let mut messages = fifo_queue(&[("1", "g1-m1"), ("1", "g1-m2"), ("2", "g2-m1")]);
            let first = messages.receive(0, Ask::new(2, 30_000), None);
            assert_eq!(bodies(&first), ["g1-m1", "g1-m2"]);
            change(&mut messages, &first.messages[0], timeout, 0);
            messages.tick(at, u64::MAX / 2);
            assert_eq!(
                bodies(&messages.receive(at, Ask::new(3, 30_000), None)),
                ["g2-m1", "g1-m1"],
                "timeout changed to {timeout}"
            );
        }
    }

    #[test]
    fn groups_back_from_flight_queue_behind_groups_never_received() {
        // Received with a visibility timeout of 0, then all received again: g3 first (never
        // received), then g1 and g2 in the order they came back.
        let mut messages = fifo_queue(&[
            ("1", "g1-m1"),
            ("2", "g2-m1"),
            ("2", "g2-m2"),
            ("3", "g3-m1"),
            ("1", "g1-m2"),
        ]);
        assert_eq!(
            bodies(&messages.receive(0, Ask::new(3, 0), None)),
            ["g1-m1", "g1-m2", "g2-m1"]
        );
        messages.tick(0, u64::MAX / 2);
        assert_eq!(
            bodies(&messages.receive(0, Ask::new(10, 0), None)),
            ["g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"]
        );
    }

    #[test]
    fn a_group_whose_timeout_ran_out_comes_after_the_waiting_groups() {
        // Two of group 1 received, then group 2's message; after both timeouts ran out a receive
        // of 10 gets g3, then group 1 whole, then g2.
        let mut messages = fifo_queue(&[
            ("1", "g1-m1"),
            ("1", "g1-m2"),
            ("1", "g1-m3"),
            ("1", "g1-m4"),
            ("2", "g2-m1"),
            ("3", "g3-m1"),
        ]);
        assert_eq!(
            bodies(&messages.receive(0, Ask::new(2, 1_000), None)),
            ["g1-m1", "g1-m2"]
        );
        assert_eq!(
            bodies(&messages.receive(10, Ask::new(1, 1_000), None)),
            ["g2-m1"]
        );
        messages.tick(2_000, u64::MAX / 2);
        assert_eq!(
            bodies(&messages.receive(2_000, Ask::new(10, 0), None)),
            ["g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1"]
        );
    }

    #[test]
    fn a_group_freed_by_deletes_takes_the_place_of_its_next_message() {
        // g1-m1 and g1-m2 received and deleted: g1-m3 was sent after g2's messages and before
        // g3's, and comes between them. With only g1-m1 deleted, group 1 stays held.
        let sends = [
            ("1", "g1-m1"),
            ("2", "g2-m1"),
            ("1", "g1-m2"),
            ("2", "g2-m2"),
            ("1", "g1-m3"),
            ("1", "g1-m4"),
            ("3", "g3-m1"),
        ];
        for delete_both in [true, false] {
            let mut messages = fifo_queue(&sends);
            let first = messages.receive(0, Ask::new(2, 30_000), None);
            assert_eq!(bodies(&first), ["g1-m1", "g1-m2"]);
            let deleted = if delete_both { 2 } else { 1 };
            for (key, message) in &first.messages[..deleted] {
                messages.delete(*key, message.receive_count);
            }
            let expected: &[&str] = if delete_both {
                &["g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1"]
            } else {
                &["g2-m1", "g2-m2", "g3-m1"]
            };
            assert_eq!(
                bodies(&messages.receive(0, Ask::new(10, 30_000), None)),
                expected,
                "deleted {deleted}"
            );
        }
    }
}
