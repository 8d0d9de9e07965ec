//! The delivery order of a standard queue without group ids: send order, where a message back
//! from its visibility timeout takes its place among the messages by when it was sent (SQS
//! receives a message requeued by its timeout before one sent while it was in flight).
//!
//! Messages that became visible by a send or the end of a delay wait in a line in that order;
//! those back from flight wait in a heap by their arrival (see [`MessageMap::arrival`]), and a
//! receive takes the earlier of the two fronts, so each costs O(log n) at most. Both keep keys of
//! messages that are gone or taken and skip them lazily, as the store's other indexes do. With a
//! `draw` (realism on) a message is picked at random among the next few of that merged order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::engine::message::State;
use crate::engine::realism::Draw;
use crate::engine::slab::MessageMap;

#[derive(Debug, Default)]
pub struct StandardOrder {
    /// Keys in the order they became visible by a send or the end of a delay.
    line: VecDeque<u64>,
    /// Keys back from flight, by arrival.
    returned: BinaryHeap<Reverse<(u64, u64)>>,
}

/// Where the next key in delivery order waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Line,
    Returned,
}

impl StandardOrder {
    /// A message sent visible, or at the end of its delay.
    pub fn push(&mut self, key: u64) {
        self.line.push_back(key);
    }

    /// A message whose visibility timeout ran out (or was changed to 0).
    pub fn returned(&mut self, map: &MessageMap, key: u64) {
        self.returned.push(Reverse((map.arrival(key), key)));
    }

    pub fn len(&self) -> usize {
        self.line.len() + self.returned.len()
    }

    fn next_from(&self, map: &MessageMap) -> Option<Source> {
        match (self.line.front(), self.returned.peek()) {
            (None, None) => None,
            (Some(_), None) => Some(Source::Line),
            (None, Some(_)) => Some(Source::Returned),
            (Some(&front), Some(Reverse((arrival, _)))) => Some(if map.arrival(front) < *arrival {
                Source::Line
            } else {
                Source::Returned
            }),
        }
    }

    fn pop(&mut self, map: &MessageMap) -> Option<(Source, u64)> {
        match self.next_from(map)? {
            Source::Line => self.line.pop_front().map(|key| (Source::Line, key)),
            Source::Returned => self
                .returned
                .pop()
                .map(|Reverse((_, key))| (Source::Returned, key)),
        }
    }

    /// Takes the next key in delivery order; with a `draw`, one of the next few.
    fn take(&mut self, map: &MessageMap, draw: Option<&mut Draw>) -> Option<u64> {
        let Some(draw) = draw else {
            return self.pop(map).map(|(_, key)| key);
        };
        if self.returned.is_empty() {
            let index = draw.pick(self.line.len());
            return self.line.swap_remove_front(index);
        }
        let mut window = Vec::new();
        while window.len() < draw.realism.reorder_window.max(1) {
            let Some(next) = self.pop(map) else {
                break;
            };
            window.push(next);
        }
        let index = draw.pick(window.len());
        if index >= window.len() {
            return None;
        }
        let (_, key) = window.remove(index);
        for (from, rest) in window.into_iter().rev() {
            match from {
                Source::Line => self.line.push_front(rest),
                Source::Returned => self.returned.push(Reverse((map.arrival(rest), rest))),
            }
        }
        Some(key)
    }

    /// Keys of up to `max` visible messages in delivery order.
    pub fn candidates(
        &mut self,
        map: &MessageMap,
        max: usize,
        mut draw: Option<&mut Draw>,
    ) -> Vec<u64> {
        let mut out = Vec::with_capacity(max);
        while out.len() < max {
            let Some(key) = self.take(map, draw.as_deref_mut()) else {
                break;
            };
            if map.get(&key).is_some_and(|m| m.state == State::Visible) {
                out.push(key);
            }
        }
        out
    }

    /// Every waiting key in delivery order, stale ones included: the line a fair queue takes over.
    pub fn into_line(mut self, map: &MessageMap) -> VecDeque<u64> {
        let mut line = VecDeque::with_capacity(self.len());
        while let Some((_, key)) = self.pop(map) {
            line.push_back(key);
        }
        line
    }

    /// Drops the keys of messages no longer visible once they outnumber `limit`.
    pub fn compact(&mut self, map: &MessageMap, limit: usize) {
        if self.len() <= limit {
            return;
        }
        let visible = |key: &u64| map.get(key).is_some_and(|m| m.state == State::Visible);
        self.line.retain(visible);
        self.returned.retain(|Reverse((_, key))| visible(key));
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::message::StoredMessage;
    use crate::engine::store::{Ask, Messages};

    fn bodies(messages: &mut Messages, now: u64, max: usize) -> Vec<String> {
        messages
            .receive(now, Ask::new(max, 1_000), None)
            .messages
            .iter()
            .map(|(_, m)| m.body.to_string())
            .collect()
    }

    #[test]
    fn a_message_back_from_its_timeout_comes_before_those_sent_after_it() {
        // SQS: test1 received, test2 sent while it is in flight; test1 comes back first.
        let mut messages = Messages::new(false);
        messages.insert(StoredMessage::visible("test1", 0, None));
        assert_eq!(bodies(&mut messages, 0, 1), ["test1"]);
        messages.insert(StoredMessage::visible("test2", 500, None));
        messages.insert(StoredMessage::visible("test3", 600, None));
        messages.tick(1_000, u64::MAX / 2);
        assert_eq!(bodies(&mut messages, 1_000, 1), ["test1"]);
        // test2 received and back: it goes before test3 again, test1 stays in flight.
        assert_eq!(bodies(&mut messages, 1_000, 1), ["test2"]);
        messages.tick(2_000, u64::MAX / 2);
        assert_eq!(
            bodies(&mut messages, 2_000, 10),
            ["test1", "test2", "test3"]
        );
    }
}
