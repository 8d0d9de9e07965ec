//! Fair delivery on standard queues whose messages carry a `MessageGroupId`, as SQS's fair queues
//! do: each group id is a tenant, and while a tenant is a noisy neighbour (see [`is_noisy`]) a
//! receive delivers the quiet tenants' messages first, the noisy ones' only when no quiet message
//! is visible, and among noisy tenants the one with the fewest in flight first. Nothing is dropped
//! or held back beyond that order.
//!
//! A standard queue switches to this order when its first message with a group id arrives (a
//! queue without group ids never pays for it). Each tenant keeps a line of its visible keys, and
//! messages without a group id share one line (each is a tenant of its own, and one message in
//! flight is never noisy). Lines are in send order, a message back from its visibility timeout
//! in its send place and one whose delay ended at the back, as on a standard queue without group
//! ids ([`crate::engine::standard`]). The front of every line sits in one ordered map by that
//! place, so a receive takes the oldest front of a quiet tenant, skipping at most the nine
//! noisy tenants there can be (each holds more than a tenth of the in-flight messages). Like the
//! plain line of a standard queue, lines keep keys of messages that are gone or taken and skip
//! them lazily; per-tenant counts follow the messages' states exactly.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use crate::engine::message::State;
use crate::engine::realism::Draw;
use crate::engine::slab::MessageMap;

/// A tenant with fewer messages than this in flight is never noisy.
pub const NOISY_MIN_IN_FLIGHT: usize = 30;
/// A tenant is noisy only with more than this percentage of the queue's in-flight messages.
pub const NOISY_SHARE_PERCENT: usize = 10;
/// A tenant that has sent nothing for this long is quiet again (milliseconds).
pub const QUIET_AFTER_MS: u64 = 5 * 60 * 1000;

/// What the noisy-neighbour rule looks at for one tenant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Load {
    pub visible: usize,
    pub in_flight: usize,
    /// The latest enqueue time of its messages (clock milliseconds).
    pub last_sent: u64,
}

/// Whether a tenant is a noisy neighbour now: it holds at least [`NOISY_MIN_IN_FLIGHT`] messages
/// in flight and more than [`NOISY_SHARE_PERCENT`] of the queue's, it still has a backlog, and it
/// sent within [`QUIET_AFTER_MS`].
pub fn is_noisy(load: Load, queue_in_flight: usize, now: u64) -> bool {
    load.visible > 0
        && load.in_flight >= NOISY_MIN_IN_FLIGHT
        && load.in_flight * 100 > queue_in_flight * NOISY_SHARE_PERCENT
        && now < load.last_sent.saturating_add(QUIET_AFTER_MS)
}

/// Where a key stands in the order shared by every line: its arrival (see
/// [`MessageMap::arrival`]) when it was sent visible or came back from flight, so that a message
/// back from its visibility timeout takes its place by when it was sent, as on any standard queue;
/// the next arrival when its delay ended. The second number, a counter, breaks ties.
type Place = (u64, u64);

/// A line entry: its place and the key. Lines are sorted by place.
type Entry = (Place, u64);

#[derive(Debug, Default)]
struct Tenant {
    line: VecDeque<Entry>,
    visible: usize,
    in_flight: usize,
    /// Messages stored, whatever their state: the tenant is forgotten when none is left.
    stored: usize,
    last_sent: u64,
}

impl Tenant {
    fn load(&self) -> Load {
        Load {
            visible: self.visible,
            in_flight: self.in_flight,
            last_sent: self.last_sent,
        }
    }
}

/// The delivery order of a fair queue.
#[derive(Debug, Default)]
pub struct FairOrder {
    tenants: HashMap<Arc<str>, Tenant>,
    /// Messages without a group id.
    ungrouped: VecDeque<Entry>,
    /// The front entry of every line that has one, by its place in the shared order; `None` is
    /// the line of messages without a group id.
    fronts: BTreeMap<Place, Option<Arc<str>>>,
    next_place: u64,
    /// Entries in all lines, stale ones included.
    entries: usize,
}

impl FairOrder {
    /// Takes over the line of a standard queue that had no group ids until now.
    pub fn from_line(line: VecDeque<u64>, map: &MessageMap) -> Self {
        let mut order = FairOrder::default();
        // The line is in delivery order; places must not go back.
        let mut last = 0;
        for key in line {
            last = map.arrival(key).max(last);
            order.push(None, key, last);
        }
        order
    }

    /// The line of `tenant`, `None` being the messages without a group id.
    fn line_mut(&mut self, tenant: Option<&Arc<str>>) -> Option<&mut VecDeque<Entry>> {
        match tenant {
            None => Some(&mut self.ungrouped),
            Some(name) => self.tenants.get_mut(name).map(|t| &mut t.line),
        }
    }

    /// Puts a key in its tenant's line at its place, `arrival` being the first part of it.
    fn push(&mut self, tenant: Option<&Arc<str>>, key: u64, arrival: u64) {
        let place = (arrival, self.next_place);
        let Some(line) = self.line_mut(tenant) else {
            return;
        };
        let old_front = line.front().map(|&(place, _)| place);
        let at = line.partition_point(|&(p, _)| p < place);
        line.insert(at, (place, key));
        self.next_place += 1;
        self.entries += 1;
        if at == 0 {
            if let Some(old) = old_front {
                self.fronts.remove(&old);
            }
            self.fronts.insert(place, tenant.cloned());
        }
    }

    /// A message stored in `state`, sent at `sent_at`.
    pub fn inserted(
        &mut self,
        map: &MessageMap,
        tenant: Option<&Arc<str>>,
        key: u64,
        state: State,
        sent_at: u64,
    ) {
        if let Some(name) = tenant {
            let entry = self.tenants.entry(name.clone()).or_default();
            entry.stored += 1;
            entry.last_sent = entry.last_sent.max(sent_at);
            match state {
                State::Visible => entry.visible += 1,
                State::InFlight { .. } => entry.in_flight += 1,
                State::Delayed { .. } => {}
            }
        }
        if state == State::Visible {
            self.push(tenant, key, map.arrival(key));
        }
    }

    /// A delayed or in-flight message whose deadline passed: one back from flight takes its place
    /// by arrival, one whose delay ended goes after every message stored.
    pub fn became_visible(
        &mut self,
        map: &MessageMap,
        tenant: Option<&Arc<str>>,
        key: u64,
        was_in_flight: bool,
    ) {
        if let Some(entry) = tenant.and_then(|name| self.tenants.get_mut(name)) {
            if was_in_flight {
                entry.in_flight = entry.in_flight.saturating_sub(1);
            }
            entry.visible += 1;
        }
        let arrival = if was_in_flight {
            map.arrival(key)
        } else {
            map.next_arrival()
        };
        self.push(tenant, key, arrival);
    }

    /// A visible message received (its key already taken by [`FairOrder::next`]).
    pub fn started_flight(&mut self, tenant: Option<&Arc<str>>) {
        if let Some(entry) = tenant.and_then(|name| self.tenants.get_mut(name)) {
            entry.visible = entry.visible.saturating_sub(1);
            entry.in_flight += 1;
        }
    }

    /// A message removed in `state` (deleted, expired, moved or taken by a move task).
    pub fn removed(&mut self, tenant: Option<&Arc<str>>, state: State) {
        let Some(name) = tenant else {
            return;
        };
        let Some(entry) = self.tenants.get_mut(name) else {
            return;
        };
        match state {
            State::Visible => entry.visible = entry.visible.saturating_sub(1),
            State::InFlight { .. } => entry.in_flight = entry.in_flight.saturating_sub(1),
            State::Delayed { .. } => {}
        }
        entry.stored = entry.stored.saturating_sub(1);
        if entry.stored == 0
            && let Some(gone) = self.tenants.remove(name)
        {
            if let Some((place, _)) = gone.line.front() {
                self.fronts.remove(place);
            }
            self.entries -= gone.line.len();
        }
    }

    /// The line to deliver from next: the oldest front of a quiet tenant, else the noisy tenant
    /// with the fewest in flight (the oldest front among equals).
    fn choose(&self, queue_in_flight: usize, now: u64) -> Option<(Place, Option<Arc<str>>)> {
        let mut noisy: Option<(usize, Place, &Arc<str>)> = None;
        for (&place, tenant) in &self.fronts {
            let Some(name) = tenant else {
                return Some((place, None));
            };
            let Some(entry) = self.tenants.get(name) else {
                // Not expected: the front of a forgotten tenant is removed with it.
                return Some((place, tenant.clone()));
            };
            if !is_noisy(entry.load(), queue_in_flight, now) {
                return Some((place, tenant.clone()));
            }
            if noisy.is_none_or(|(fewest, _, _)| entry.in_flight < fewest) {
                noisy = Some((entry.in_flight, place, name));
            }
        }
        noisy.map(|(_, place, name)| (place, Some(name.clone())))
    }

    /// Takes one key off the front of a line (with a `draw`, one of the next few), keeping
    /// `fronts` in step.
    fn take(
        &mut self,
        place: Place,
        tenant: Option<Arc<str>>,
        draw: Option<&mut Draw>,
    ) -> Option<u64> {
        self.fronts.remove(&place);
        let line = self.line_mut(tenant.as_ref())?;
        let index = draw.map_or(0, |draw| draw.pick(line.len()));
        // Removed in place, not swapped: the line stays sorted.
        let (_, key) = line.remove(index)?;
        let next = line.front().map(|&(place, _)| place);
        self.entries -= 1;
        if let Some(next) = next {
            self.fronts.insert(next, tenant);
        }
        Some(key)
    }

    /// The key of the next message to deliver, which is visible; `None` when none is. The caller
    /// receives or removes it, so that the counts the next choice reads are current.
    pub fn next(
        &mut self,
        map: &MessageMap,
        queue_in_flight: usize,
        now: u64,
        mut draw: Option<&mut Draw>,
    ) -> Option<u64> {
        loop {
            let (place, tenant) = self.choose(queue_in_flight, now)?;
            let Some(key) = self.take(place, tenant, draw.as_deref_mut()) else {
                continue;
            };
            if map.get(&key).is_some_and(|m| m.state == State::Visible) {
                return Some(key);
            }
        }
    }

    /// Drops the entries of messages no longer visible once they outnumber `limit`.
    pub fn compact(&mut self, map: &MessageMap, limit: usize) {
        if self.entries <= limit {
            return;
        }
        let live = |&(_, key): &Entry| map.get(&key).is_some_and(|m| m.state == State::Visible);
        self.ungrouped.retain(live);
        for tenant in self.tenants.values_mut() {
            tenant.line.retain(live);
        }
        self.fronts.clear();
        self.entries = self.ungrouped.len();
        if let Some(&(place, _)) = self.ungrouped.front() {
            self.fronts.insert(place, None);
        }
        for (name, tenant) in &self.tenants {
            self.entries += tenant.line.len();
            if let Some(&(place, _)) = tenant.line.front() {
                self.fronts.insert(place, Some(name.clone()));
            }
        }
    }

    /// The latest enqueue time of a tenant's messages, while it has any.
    pub fn last_sent(&self, tenant: &str) -> Option<u64> {
        self.tenants.get(tenant).map(|t| t.last_sent)
    }

    #[cfg(test)]
    pub fn load(&self, tenant: &str) -> Option<Load> {
        self.tenants.get(tenant).map(Tenant::load)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::message::StoredMessage;
    use crate::engine::store::{Ask, Messages, Received};

    const T0: u64 = 1_700_000_000_000;
    const HOUR: u64 = 3_600_000;

    fn message(group: Option<&str>, body: &str, sent_at: u64) -> StoredMessage {
        StoredMessage::visible(body, sent_at, group)
    }

    fn send(messages: &mut Messages, group: Option<&str>, count: usize, sent_at: u64) {
        for i in 0..count {
            let body = format!("{}{i}", group.unwrap_or("-"));
            messages.insert(message(group, &body, sent_at));
        }
    }

    fn bodies(received: &Received) -> Vec<String> {
        received
            .messages
            .iter()
            .map(|(_, m)| m.body.to_string())
            .collect()
    }

    fn receive(messages: &mut Messages, now: u64, max: usize) -> Vec<String> {
        bodies(&messages.receive(now, Ask::new(max, HOUR), None))
    }

    #[test]
    fn the_rule_at_its_edges() {
        let load = |visible, in_flight| Load {
            visible,
            in_flight,
            last_sent: T0,
        };
        assert!(!is_noisy(load(1, 29), 29, T0));
        assert!(is_noisy(load(1, 30), 30, T0));
        assert!(!is_noisy(load(1, 30), 300, T0), "exactly 10% is not more");
        assert!(is_noisy(load(1, 30), 299, T0));
        assert!(!is_noisy(load(0, 30), 30, T0), "no backlog");
        assert!(is_noisy(load(1, 30), 30, T0 + QUIET_AFTER_MS - 1));
        assert!(!is_noisy(load(1, 30), 30, T0 + QUIET_AFTER_MS));
    }

    #[test]
    fn quiet_tenants_first_then_the_noisy_one_with_the_fewest_in_flight() {
        let mut messages = Messages::new(false);
        send(&mut messages, Some("a"), 45, T0);
        send(&mut messages, Some("b"), 40, T0);
        assert_eq!(receive(&mut messages, T0, 10).len(), 10);
        // a: 30 in flight and noisy; b's 10 come next even though a's are older.
        for _ in 0..2 {
            receive(&mut messages, T0, 10);
        }
        let next = receive(&mut messages, T0, 10);
        assert!(next.iter().all(|b| b.starts_with('b')), "{next:?}");
        // b reaches 30 of 60: both noisy, neither quiet; a message without a group id is quiet.
        for _ in 0..2 {
            receive(&mut messages, T0, 10);
        }
        send(&mut messages, None, 1, T0);
        assert_eq!(receive(&mut messages, T0, 1), ["-0"]);
        assert_eq!(
            receive(&mut messages, T0, 1),
            ["a30"],
            "as many: the oldest"
        );
        assert_eq!(
            receive(&mut messages, T0, 1),
            ["b30"],
            "b has fewer in flight"
        );
        assert_eq!(receive(&mut messages, T0, 1), ["a31"]);
    }

    #[test]
    fn a_queue_without_group_ids_keeps_its_plain_line_and_a_purge_returns_to_it() {
        let mut messages = Messages::new(false);
        send(&mut messages, None, 3, T0);
        assert!(!messages.is_fair());
        send(&mut messages, Some("a"), 1, T0);
        assert!(messages.is_fair());
        assert_eq!(receive(&mut messages, T0, 10), ["-0", "-1", "-2", "a0"]);
        messages.purge();
        assert!(!messages.is_fair());
    }

    #[test]
    fn counts_follow_every_change_of_state_and_a_tenant_is_forgotten_when_empty() {
        let mut messages = Messages::new(false);
        send(&mut messages, Some("a"), 3, T0);
        let got = messages.receive(T0, Ask::new(2, 1_000), None);
        let load = |m: &Messages| m.fair_load("a");
        assert_eq!(
            load(&messages),
            Some(Load {
                visible: 1,
                in_flight: 2,
                last_sent: T0
            })
        );
        // One times out, one is deleted.
        let (key, generation) = (got.messages[0].0, got.messages[0].1.receive_count);
        messages.delete(key, generation);
        messages.tick(T0 + 1_000, u64::MAX / 2);
        assert_eq!(
            load(&messages).map(|l| (l.visible, l.in_flight)),
            Some((2, 0))
        );
        let rest = messages.take_visible(10, T0 + 1_000);
        assert_eq!(rest.len(), 2);
        assert_eq!(load(&messages), None);
    }

    #[test]
    fn a_message_back_from_its_timeout_comes_before_those_sent_after_it() {
        // As on a standard queue without group ids (SQS's recorded answer): a0 received and back
        // comes before a1 of its tenant and b0 of another, both sent while it was in flight.
        let mut messages = Messages::new(false);
        send(&mut messages, Some("a"), 1, T0);
        assert_eq!(receive(&mut messages, T0, 1), ["a0"]);
        messages.insert(message(Some("a"), "a1", T0 + 1));
        messages.insert(message(Some("b"), "b0", T0 + 2));
        messages.tick(T0 + HOUR, u64::MAX / 2);
        assert_eq!(receive(&mut messages, T0 + HOUR, 10), ["a0", "a1", "b0"]);
    }
}
