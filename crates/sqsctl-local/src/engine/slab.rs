//! The message slab of a queue: O(1) insert, lookup and removal by key, compact memory, and keys
//! that stay invalid after their message is gone.

use crate::engine::message::StoredMessage;

/// Messages by key, in a slab: a key is a slot index plus the insertion number that filled the
/// slot, so a key of a removed message never finds the message that reuses its slot. Slots are
/// reused through a free list, and the whole slab is released when the queue empties.
#[derive(Debug, Default)]
pub struct MessageMap {
    slots: Vec<Slot>,
    free: Vec<u32>,
    len: usize,
    /// Insertions so far; a key carries the low 32 bits of its insertion's number.
    insertions: u64,
}

#[derive(Debug)]
struct Slot {
    insertion: u32,
    message: Option<StoredMessage>,
}

fn split(key: u64) -> (usize, u32) {
    ((key & 0xFFFF_FFFF) as usize, (key >> 32) as u32)
}

impl MessageMap {
    pub fn insert(&mut self, message: StoredMessage) -> u64 {
        let insertion = self.insertions as u32;
        self.insertions += 1;
        let index = match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.insertion = insertion;
                slot.message = Some(message);
                index
            }
            None => {
                self.slots.push(Slot {
                    insertion,
                    message: Some(message),
                });
                u32::try_from(self.slots.len() - 1).unwrap_or(u32::MAX)
            }
        };
        self.len += 1;
        (u64::from(insertion) << 32) | u64::from(index)
    }

    pub fn get(&self, key: &u64) -> Option<&StoredMessage> {
        let (index, insertion) = split(*key);
        self.slots
            .get(index)
            .filter(|slot| slot.insertion == insertion)
            .and_then(|slot| slot.message.as_ref())
    }

    pub fn get_mut(&mut self, key: &u64) -> Option<&mut StoredMessage> {
        let (index, insertion) = split(*key);
        self.slots
            .get_mut(index)
            .filter(|slot| slot.insertion == insertion)
            .and_then(|slot| slot.message.as_mut())
    }

    pub fn contains_key(&self, key: &u64) -> bool {
        self.get(key).is_some()
    }

    pub fn remove(&mut self, key: &u64) -> Option<StoredMessage> {
        let (index, insertion) = split(*key);
        let slot = self
            .slots
            .get_mut(index)
            .filter(|s| s.insertion == insertion)?;
        let message = slot.message.take()?;
        self.len -= 1;
        if self.len == 0 {
            // Insertion numbers keep counting, so keys issued before the reset stay invalid.
            self.slots = Vec::new();
            self.free = Vec::new();
        } else {
            self.free.push(index as u32);
        }
        Some(message)
    }

    /// Drops every message, keeping the insertion counter so earlier keys stay invalid.
    pub fn clear(&mut self) {
        *self = MessageMap {
            insertions: self.insertions,
            ..MessageMap::default()
        };
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The arrival number the next insertion will have: later than every stored message's.
    pub fn next_arrival(&self) -> u64 {
        self.insertions
    }

    /// The number of the insertion that issued `key`, which orders keys by arrival: exact for the
    /// last 2^32 insertions (a key of a stored message is never older than that in practice).
    pub fn arrival(&self, key: u64) -> u64 {
        let last = self.insertions.saturating_sub(1);
        let age = (last as u32).wrapping_sub(split(key).1);
        last.saturating_sub(u64::from(age))
    }

    /// Every message with its key, in slot order (not insertion order).
    pub fn iter(&self) -> impl Iterator<Item = (u64, &StoredMessage)> {
        self.slots.iter().enumerate().filter_map(|(index, slot)| {
            let key = (u64::from(slot.insertion) << 32) | index as u64;
            slot.message.as_ref().map(|message| (key, message))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(body: &str) -> StoredMessage {
        StoredMessage::visible(body, 1, None)
    }

    #[test]
    fn a_reused_slot_does_not_answer_to_an_old_key() {
        let mut map = MessageMap::default();
        let a = map.insert(message("a"));
        let keep = map.insert(message("keep"));
        assert!(map.remove(&a).is_some());
        let b = map.insert(message("b"));
        assert_ne!(a, b);
        assert!(map.get(&a).is_none());
        assert_eq!(map.get(&b).map(|m| &*m.body), Some("b"));
        assert_eq!(map.len(), 2);
        assert!(map.remove(&keep).is_some() && map.remove(&b).is_some());
        // Emptied and reset: keys from before the reset still miss.
        let c = map.insert(message("c"));
        assert!(map.get(&a).is_none() && map.get(&b).is_none() && map.get(&keep).is_none());
        assert!(map.contains_key(&c));
    }
}
