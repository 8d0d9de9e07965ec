//! The messages of one queue and the indexes that keep every operation's cost independent of depth.
//!
//! Messages live in a map by key. Standard queues keep [`StandardOrder`] (send order), or
//! [`FairOrder`] once a message with a group id arrives; FIFO queues keep [`FifoOrder`]. Delays
//! and visibility deadlines sit in a min-heap and retention in another; both are invalidated lazily (an entry
//! counts only if it still matches the message) and compacted when stale entries outnumber live
//! ones, so memory stays proportional to what is stored.
//!
//! Under [`crate::Realism`] a receive of a standard queue may pick out of send order and schedule a
//! second delivery of a message (a *twin*); the exact path never touches that state.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;

use crate::engine::fair::FairOrder;
use crate::engine::fifo::FifoOrder;
use crate::engine::limits::{Budget, Usage};
use crate::engine::message::{State, StoredMessage};
use crate::engine::realism::Draw;
pub use crate::engine::slab::MessageMap;
use crate::engine::standard::StandardOrder;
use crate::error::{SqsError, SqsResult};

#[derive(Debug)]
enum Order {
    Standard(StandardOrder),
    /// A standard queue since its first message with a group id: fair delivery.
    Fair(Box<FairOrder>),
    Fifo(FifoOrder),
}

/// Counts behind the `ApproximateNumberOfMessages*` attributes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub visible: usize,
    pub in_flight: usize,
    pub delayed: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    Deleted,
    /// The handle is from an earlier receive: SQS answers success without deleting.
    Stale,
    Gone,
    /// A FIFO message whose visibility timeout ran out since the handle's receive: SQS refuses
    /// the handle ("The receipt handle has expired.") and keeps the message.
    Expired,
}

/// A new visibility timeout for the in-flight message `key`, asked with a handle from its
/// `generation`th receive.
#[derive(Debug, Clone, Copy)]
pub struct VisibilityChange<'a> {
    pub key: u64,
    pub generation: u32,
    pub timeout_secs: u32,
    pub now: u64,
    /// The receipt handle as the client sent it, named in the error when it is stale.
    pub handle: &'a str,
}

/// What one receive asks for: up to `max` messages, hidden for `visibility_ms`; with a redrive
/// policy, `max_receives` (a message already received that often goes to the DLQ instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub max: usize,
    pub visibility_ms: u64,
    pub max_receives: Option<u32>,
}

impl Ask {
    /// Up to `max` messages, hidden for `visibility_ms`, with no redrive policy.
    pub fn new(max: usize, visibility_ms: u64) -> Ask {
        Ask {
            max,
            visibility_ms,
            max_receives: None,
        }
    }

    /// The same, where a message already received `limit` times goes to the DLQ.
    pub fn dead_lettering_after(self, limit: Option<u32>) -> Ask {
        Ask {
            max_receives: limit,
            ..self
        }
    }
}

/// What one receive produced: messages to return and messages to move to the dead-letter queue.
#[derive(Debug, Default)]
pub struct Received {
    pub messages: Vec<(u64, StoredMessage)>,
    pub to_dead_letter: Vec<StoredMessage>,
    /// Second deliveries this receive scheduled, which a waiting receive may take at once.
    pub twins_owed: usize,
    /// Second deliveries this receive made (at the front of `messages`).
    pub twins_delivered: usize,
}

#[derive(Debug)]
pub struct Messages {
    map: MessageMap,
    order: Order,
    deadlines: BinaryHeap<Reverse<(u64, u64)>>,
    retention: BinaryHeap<Reverse<(u64, u64)>>,
    counts: Counts,
    /// What these messages hold of the server's memory bound.
    usage: Usage,
    /// Whether messages removed by retention are noted in `expired_rows` for the data directory.
    track_rows: bool,
    expired_rows: Vec<u64>,
    /// Second deliveries owed to later receives (see [`crate::Realism::duplicate_rate`]).
    twins: VecDeque<Twin>,
    /// For a message delivered twice and still in flight: the receive count of its earlier
    /// handle, which deletes it as well as the latest one does.
    twin_handles: HashMap<u64, u32>,
}

/// A delivery owed to a later receive: the message as its first delivery left it.
#[derive(Debug)]
struct Twin {
    key: u64,
    copy: StoredMessage,
}

impl Messages {
    pub fn new(fifo: bool) -> Self {
        Messages {
            map: MessageMap::default(),
            order: if fifo {
                Order::Fifo(FifoOrder::default())
            } else {
                Order::Standard(StandardOrder::default())
            },
            deadlines: BinaryHeap::new(),
            retention: BinaryHeap::new(),
            counts: Counts::default(),
            usage: Usage::default(),
            track_rows: false,
            expired_rows: Vec::new(),
            twins: VecDeque::new(),
            twin_handles: HashMap::new(),
        }
    }

    /// Charges these messages to the server's memory bound from now on, and, with a data
    /// directory, notes the rows of messages that retention removes.
    pub fn attach(&mut self, budget: Arc<Budget>, track_rows: bool) {
        self.usage.attach(budget);
        self.track_rows = track_rows;
    }

    pub fn budget(&self) -> &Arc<Budget> {
        self.usage.budget()
    }

    /// Rows of the messages retention removed since the last call.
    pub fn take_expired_rows(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.expired_rows)
    }

    pub fn row_of(&self, key: u64) -> Option<u64> {
        self.map.get(&key).map(|m| m.row)
    }

    pub fn get(&self, key: u64) -> Option<&StoredMessage> {
        self.map.get(&key)
    }

    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Stores a message whose state is already `Visible` or `Delayed`.
    pub fn insert(&mut self, message: StoredMessage) -> u64 {
        let group = message.group_id.clone();
        let state = message.state;
        let sent_at = message.sent_at;
        self.usage.add(message.stored_bytes());
        let key = self.map.insert(message);
        self.retention.push(Reverse((sent_at, key)));
        if let (Order::Standard(line), Some(_)) = (&mut self.order, &group) {
            let line = std::mem::take(line).into_line(&self.map);
            self.order = Order::Fair(Box::new(FairOrder::from_line(line, &self.map)));
        }
        let visible = match state {
            State::Delayed { until } => {
                self.deadlines.push(Reverse((until, key)));
                self.counts.delayed += 1;
                false
            }
            State::Visible => {
                self.counts.visible += 1;
                true
            }
            State::InFlight { until, .. } => {
                // Never inserted in flight; treat it as a deadline so nothing is lost.
                self.deadlines.push(Reverse((until, key)));
                self.counts.in_flight += 1;
                false
            }
        };
        match &mut self.order {
            Order::Standard(line) => {
                if visible {
                    line.push(key);
                }
            }
            Order::Fair(order) => order.inserted(&self.map, group.as_ref(), key, state, sent_at),
            Order::Fifo(order) => {
                if let Some(group) = &group {
                    order.push(&self.map, group, key);
                }
            }
        }
        key
    }

    /// Applies every deadline and retention expiry that has passed.
    pub fn tick(&mut self, now: u64, retention_ms: u64) {
        while let Some(Reverse((deadline, key))) = self.deadlines.peek().copied() {
            if deadline > now {
                break;
            }
            self.deadlines.pop();
            self.deadline_passed(key, deadline);
        }
        while let Some(Reverse((sent_at, key))) = self.retention.peek().copied() {
            if sent_at.saturating_add(retention_ms) > now {
                break;
            }
            self.retention.pop();
            if self.map.get(&key).is_some_and(|m| m.sent_at == sent_at)
                && let Some(message) = self.remove(key)
                && self.track_rows
            {
                self.expired_rows.push(message.row);
            }
        }
        self.compact();
    }

    fn deadline_passed(&mut self, key: u64, deadline: u64) {
        let Some(message) = self.map.get_mut(&key) else {
            return;
        };
        if message.deadline() != Some(deadline) {
            return;
        }
        let was_in_flight = match message.state {
            State::Delayed { .. } => {
                self.counts.delayed = self.counts.delayed.saturating_sub(1);
                false
            }
            State::InFlight { .. } => {
                self.counts.in_flight = self.counts.in_flight.saturating_sub(1);
                true
            }
            State::Visible => return,
        };
        message.state = State::Visible;
        self.counts.visible += 1;
        if !self.twin_handles.is_empty() {
            self.twin_handles.remove(&key);
        }
        let group = message.group_id.clone();
        match &mut self.order {
            Order::Standard(line) if was_in_flight => line.returned(&self.map, key),
            Order::Standard(line) => line.push(key),
            Order::Fair(order) => {
                order.became_visible(&self.map, group.as_ref(), key, was_in_flight);
            }
            Order::Fifo(order) => {
                if let Some(group) = &group {
                    if was_in_flight {
                        order.returned(&self.map, group, key);
                    } else {
                        order.refresh(&self.map, group);
                    }
                }
            }
        }
    }

    pub fn remove(&mut self, key: u64) -> Option<StoredMessage> {
        let message = self.map.remove(&key)?;
        self.usage.sub(message.stored_bytes());
        if !self.twin_handles.is_empty() {
            self.twin_handles.remove(&key);
        }
        if let Order::Fair(order) = &mut self.order {
            order.removed(message.group_id.as_ref(), message.state);
        }
        match message.state {
            State::Visible => self.counts.visible = self.counts.visible.saturating_sub(1),
            State::Delayed { .. } => self.counts.delayed = self.counts.delayed.saturating_sub(1),
            State::InFlight { .. } => {
                self.counts.in_flight = self.counts.in_flight.saturating_sub(1);
            }
        }
        // The group's head may have changed, or the group may have been taken off the ready
        // line to deliver this message.
        if let (Order::Fifo(order), Some(group)) = (&mut self.order, &message.group_id) {
            order.refresh(&self.map, group);
        }
        Some(message)
    }

    /// Keys of up to `max` messages that may be delivered now, in delivery order: send order on a
    /// standard queue (a message back from flight by when it was sent), unless `draw` picks within
    /// its window. A fair queue gives one key at a
    /// time, since each delivery changes whom the next one favours.
    fn candidates(&mut self, max: usize, now: u64, draw: Option<&mut Draw>) -> Vec<u64> {
        match &mut self.order {
            Order::Standard(line) => line.candidates(&self.map, max, draw),
            Order::Fair(order) => order
                .next(&self.map, self.counts.in_flight, now, draw)
                .into_iter()
                .collect(),
            Order::Fifo(order) => order.candidates(&self.map, max),
        }
    }

    /// Receives up to `ask.max` messages. A message already received `max_receives` times goes to
    /// `to_dead_letter` instead of being returned. With a `draw` (realism on), second deliveries
    /// owed come first, a standard queue's order is shuffled within the window, and some of
    /// the messages received are owed a second delivery.
    pub fn receive(&mut self, now: u64, ask: Ask, mut draw: Option<&mut Draw>) -> Received {
        let Ask {
            max,
            visibility_ms,
            max_receives,
        } = ask;
        let mut received = Received::default();
        if draw.is_some() {
            self.deliver_twins(now, max, visibility_ms, &mut received);
        }
        let first_fresh = received.messages.len();
        received.twins_delivered = first_fresh;
        loop {
            let wanted = max - received.messages.len();
            if wanted == 0 {
                break;
            }
            let keys = self.candidates(wanted, now, draw.as_deref_mut());
            if keys.is_empty() {
                break;
            }
            for key in keys {
                let over_limit = self
                    .map
                    .get(&key)
                    .is_some_and(|m| max_receives.is_some_and(|limit| m.receive_count >= limit));
                if over_limit {
                    if let Some(message) = self.remove(key) {
                        received.to_dead_letter.push(message);
                    }
                    continue;
                }
                // Candidates are visible; the check guards the counters against any slip.
                let Some(message) = self.map.get_mut(&key).filter(|m| m.state == State::Visible)
                else {
                    continue;
                };
                let until = now.saturating_add(visibility_ms);
                message.state = State::InFlight {
                    until,
                    received_at: now,
                };
                message.mark_received(now);
                self.counts.visible = self.counts.visible.saturating_sub(1);
                self.counts.in_flight += 1;
                self.deadlines.push(Reverse((until, key)));
                received.messages.push((key, message.clone()));
                match (&mut self.order, &message.group_id) {
                    (Order::Fifo(order), Some(group)) => {
                        let group = group.clone();
                        order.refresh(&self.map, &group);
                    }
                    (Order::Fair(order), group) => order.started_flight(group.as_ref()),
                    _ => {}
                }
            }
            if received.messages.len() >= max {
                break;
            }
        }
        if let (Some(draw), Order::Standard(_) | Order::Fair(_)) = (draw, &self.order) {
            for (key, message) in &received.messages[first_fresh..] {
                if draw.duplicate() {
                    self.twins.push_back(Twin {
                        key: *key,
                        copy: message.clone(),
                    });
                    received.twins_owed += 1;
                }
            }
        }
        received
    }

    /// Delivers second deliveries owed, up to `max`, before their first delivery's visibility
    /// timeout ends. A message still in flight from that delivery is received again (a second
    /// handle; either deletes it); one deleted since comes as the copy a delete missed, which
    /// nothing deletes; one received anew since (its visibility changed to 0) is not owed
    /// anything any more.
    fn deliver_twins(&mut self, now: u64, max: usize, visibility_ms: u64, received: &mut Received) {
        while received.messages.len() < max {
            let Some(Twin { key, mut copy }) = self.twins.pop_front() else {
                break;
            };
            let first_until = copy.deadline().unwrap_or(0);
            if now >= first_until {
                continue;
            }
            match self.map.get_mut(&key) {
                None => {
                    copy.mark_received(now);
                    received.messages.push((key, copy));
                }
                Some(message) if message.receive_count == copy.receive_count => {
                    let State::InFlight { until, received_at } = message.state else {
                        continue;
                    };
                    let until = until.max(now.saturating_add(visibility_ms));
                    message.state = State::InFlight { until, received_at };
                    self.twin_handles
                        .entry(key)
                        .or_insert(message.receive_count);
                    message.mark_received(now);
                    self.deadlines.push(Reverse((until, key)));
                    received.messages.push((key, message.clone()));
                }
                Some(_) => {}
            }
        }
    }

    /// Whether a handle issued at receive count `generation` still acts on the message: the
    /// latest delivery's, or an earlier one of a message delivered twice and still in flight.
    fn handle_is_current(&self, key: u64, message: &StoredMessage, generation: u32) -> bool {
        message.receive_count == generation
            || self
                .twin_handles
                .get(&key)
                .is_some_and(|&first| (first..message.receive_count).contains(&generation))
    }

    /// Takes up to `max` visible messages out of the queue, in delivery order at `now` (for move
    /// tasks).
    pub fn take_visible(&mut self, max: usize, now: u64) -> Vec<StoredMessage> {
        let mut out = Vec::new();
        while out.len() < max {
            let keys = self.candidates(max - out.len(), now, None);
            if keys.is_empty() {
                break;
            }
            out.extend(keys.into_iter().filter_map(|key| self.remove(key)));
        }
        out
    }

    #[cfg(test)]
    pub fn delete(&mut self, key: u64, generation: u32) -> DeleteOutcome {
        self.delete_at(key, generation, 0)
    }

    /// Deletes with a handle from the `generation`th receive at `now`. On a FIFO queue a handle
    /// whose message came back from flight (its timeout ran out, or was changed to 0) and was
    /// not received again has expired; on a standard queue it still deletes.
    pub fn delete_at(&mut self, key: u64, generation: u32, now: u64) -> DeleteOutcome {
        match self.map.get(&key) {
            None => DeleteOutcome::Gone,
            Some(m) if !self.handle_is_current(key, m, generation) => DeleteOutcome::Stale,
            Some(m)
                if matches!(self.order, Order::Fifo(_))
                    && match m.state {
                        State::InFlight { until, .. } => until <= now,
                        State::Visible => true,
                        State::Delayed { .. } => false,
                    } =>
            {
                DeleteOutcome::Expired
            }
            Some(_) => {
                self.remove(key);
                DeleteOutcome::Deleted
            }
        }
    }

    /// Changes the visibility timeout of the message's current delivery. As on SQS, any handle the
    /// message was received with acts on it: one that a later receive replaced changes the
    /// timeout of that later receive, and one whose timeout ran out (the message is visible, or
    /// delayed, again) is answered with success and changes nothing. A handle of a deleted
    /// message, or of a receive the message never had, is refused.
    pub fn change_visibility(&mut self, change: VisibilityChange<'_>) -> SqsResult<()> {
        let VisibilityChange {
            key,
            generation,
            timeout_secs,
            now,
            handle,
        } = change;
        let message = self
            .map
            .get_mut(&key)
            .filter(|m| generation <= m.receive_count)
            .ok_or_else(|| {
                SqsError::invalid_value(
                    "ReceiptHandle",
                    handle,
                    "Message does not exist or is not available for visibility timeout change.",
                )
            })?;
        let State::InFlight { received_at, .. } = message.state else {
            return Ok(());
        };
        let elapsed_secs = now.saturating_sub(received_at) / 1000;
        if elapsed_secs + u64::from(timeout_secs) > 43_200 {
            return Err(SqsError::invalid_value(
                "VisibilityTimeout",
                timeout_secs,
                "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]",
            ));
        }
        let until = now.saturating_add(u64::from(timeout_secs) * 1000);
        message.state = State::InFlight { until, received_at };
        self.deadlines.push(Reverse((until, key)));
        if timeout_secs == 0 {
            self.deadlines.pop();
            self.deadline_passed(key, until);
        }
        Ok(())
    }

    pub fn purge(&mut self) {
        let fifo = matches!(self.order, Order::Fifo(_));
        let mut map = std::mem::take(&mut self.map);
        map.clear();
        self.usage.clear();
        let usage = std::mem::take(&mut self.usage);
        let expired_rows = std::mem::take(&mut self.expired_rows);
        *self = Messages {
            map,
            usage,
            track_rows: self.track_rows,
            expired_rows,
            ..Messages::new(fifo)
        };
    }

    /// Rebuilds a heap or deque once stale entries dominate, keeping memory proportional to
    /// what is stored at an amortized O(1) per operation.
    fn compact(&mut self) {
        let live = self.map.len();
        let limit = 2 * live + 4096;
        if self.deadlines.len() > limit {
            let map = &self.map;
            self.deadlines
                .retain(|Reverse((d, k))| map.get(k).and_then(StoredMessage::deadline) == Some(*d));
        }
        if self.retention.len() > limit {
            let map = &self.map;
            self.retention
                .retain(|Reverse((s, k))| map.get(k).is_some_and(|m| m.sent_at == *s));
        }
        match &mut self.order {
            Order::Standard(line) => line.compact(&self.map, limit),
            Order::Fair(order) => order.compact(&self.map, limit),
            _ => {}
        }
    }

    /// The latest enqueue time of a fair queue's tenant, while it has messages.
    pub fn last_sent(&self, tenant: &str) -> Option<u64> {
        match &self.order {
            Order::Fair(order) => order.last_sent(tenant),
            _ => None,
        }
    }

    #[cfg(test)]
    pub fn is_fair(&self) -> bool {
        matches!(self.order, Order::Fair(_))
    }

    #[cfg(test)]
    pub fn fair_load(&self, tenant: &str) -> Option<crate::engine::fair::Load> {
        match &self.order {
            Order::Fair(order) => order.load(tenant),
            _ => None,
        }
    }

    /// The earliest pending delay or visibility deadline (possibly a stale one, which only means
    /// an early wake-up).
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadlines
            .peek()
            .map(|Reverse((deadline, _))| *deadline)
    }

    /// Every stored message with its key, as it is: deadlines and retention not applied (see
    /// [`Messages::tick`]), nothing changed.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &StoredMessage)> {
        self.map.iter()
    }
}
