//! Sets of message ids kept for a whole run, as 128-bit digests: a million ids fit in a few tens
//! of MiB, and a collision (which could make the engine skip a message) has a chance of about
//! n^2 / 2^129.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

pub fn digest(id: &str) -> u128 {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        id.hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(0x5a)) << 64) | u128::from(half(0xa5))
}

#[derive(Debug, Default)]
pub struct IdSet(HashSet<u128>);

impl IdSet {
    pub fn insert(&mut self, id: &str) -> bool {
        self.0.insert(digest(id))
    }

    pub fn contains(&self, id: &str) -> bool {
        self.0.contains(&digest(id))
    }

    pub fn remove(&mut self, id: &str) -> bool {
        self.0.remove(&digest(id))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_stable_and_distinct() {
        assert_eq!(digest("a"), digest("a"));
        assert_ne!(digest("a"), digest("b"));
        let mut set = IdSet::default();
        assert!(set.insert("x"));
        assert!(!set.insert("x"));
        assert!(set.contains("x") && !set.contains("y"));
        assert!(set.remove("x") && set.is_empty());
    }
}
