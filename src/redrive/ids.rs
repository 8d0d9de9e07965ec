//! Sets of message ids kept for a whole run, as 64-bit digests: a million ids take about 19 MiB
//! at the table's fullest. Two ids share a digest with a chance of about n^2 / 2^65 (1 in 37
//! million for a million ids); if they do, the engine may take one for the other and leave a
//! message in the DLQ as already seen (never delete one unsent).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};

pub fn digest(id: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    id.hash(&mut hasher);
    hasher.finish()
}

/// The digests are already uniform: the table uses them as their own hash.
#[derive(Debug, Default, Clone, Copy)]
pub struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; this folds anything else in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Debug, Default)]
pub struct IdSet(HashSet<u64, BuildHasherDefault<Identity>>);

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
