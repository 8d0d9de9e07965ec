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

/// A set that only grows (insert and look up, no removal), for the ids a run gives the messages it
/// sends: up to one per message moved. It keeps the digests in one sorted array (8 bytes each,
/// where a hash table takes about 19 at its fullest and twice that while it grows), with the latest
/// ones in a small table that is merged into the array when it fills.
#[derive(Debug, Default)]
pub struct IdLog {
    sorted: Vec<u64>,
    recent: HashSet<u64, BuildHasherDefault<Identity>>,
}

/// Digests kept in the small table before a merge.
const RECENT: usize = 1 << 14;

impl IdLog {
    pub fn insert(&mut self, id: &str) -> bool {
        let digest = digest(id);
        if self.sorted.binary_search(&digest).is_ok() || !self.recent.insert(digest) {
            return false;
        }
        if self.recent.len() >= RECENT {
            self.merge();
        }
        true
    }

    pub fn contains(&self, id: &str) -> bool {
        let digest = digest(id);
        self.recent.contains(&digest) || self.sorted.binary_search(&digest).is_ok()
    }

    pub fn len(&self) -> usize {
        self.sorted.len() + self.recent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the small table into the array: sorted on its own, then merged from the back, in
    /// place, into the room made at the array's end.
    fn merge(&mut self) {
        let mut chunk: Vec<u64> = self.recent.drain().collect();
        chunk.sort_unstable();
        let old = self.sorted.len();
        self.sorted.reserve_exact(chunk.len());
        self.sorted.resize(old + chunk.len(), 0);
        let (mut i, mut j, mut k) = (old, chunk.len(), self.sorted.len());
        while j > 0 {
            k -= 1;
            if i > 0 && self.sorted[i - 1] > chunk[j - 1] {
                self.sorted[k] = self.sorted[i - 1];
                i -= 1;
            } else {
                self.sorted[k] = chunk[j - 1];
                j -= 1;
            }
        }
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

    #[test]
    fn a_log_answers_as_a_set_across_merges() {
        let mut log = IdLog::default();
        let mut set = IdSet::default();
        for i in 0..(3 * RECENT + 17) {
            let id = format!("id-{}", (i * 7919) % (2 * RECENT));
            assert_eq!(log.insert(&id), set.insert(&id), "{id}");
        }
        assert_eq!(log.len(), set.len());
        assert!(log.sorted.windows(2).all(|w| w[0] < w[1]), "kept sorted");
        for i in 0..(4 * RECENT) {
            let id = format!("id-{i}");
            assert_eq!(log.contains(&id), set.contains(&id), "{id}");
        }
    }
}
