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
/// sends: up to one per message moved. It keeps the digests sorted (8 bytes each, where a hash
/// table takes about 19 at its fullest and twice that while it grows), in buckets by their top
/// bits, so that adding to one moves a small block and never copies the whole set at once; the
/// latest ones wait in a small table that is merged into the buckets when it fills.
#[derive(Debug, Default)]
pub struct IdLog {
    buckets: Vec<Vec<u64>>,
    sorted_len: usize,
    recent: HashSet<u64, BuildHasherDefault<Identity>>,
}

/// Digests kept in the small table before a merge.
const RECENT: usize = 1 << 14;
/// The buckets are told apart by this many top bits of a digest: for a million ids, about 250
/// digests (2 KiB) each.
const BUCKET_BITS: u32 = 12;

fn bucket(digest: u64) -> usize {
    (digest >> (64 - BUCKET_BITS)) as usize
}

impl IdLog {
    pub fn insert(&mut self, id: &str) -> bool {
        let digest = digest(id);
        if self.in_buckets(digest) || !self.recent.insert(digest) {
            return false;
        }
        if self.recent.len() >= RECENT {
            self.merge();
        }
        true
    }

    pub fn contains(&self, id: &str) -> bool {
        let digest = digest(id);
        self.recent.contains(&digest) || self.in_buckets(digest)
    }

    pub fn len(&self) -> usize {
        self.sorted_len + self.recent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn in_buckets(&self, digest: u64) -> bool {
        self.buckets
            .get(bucket(digest))
            .is_some_and(|b| b.binary_search(&digest).is_ok())
    }

    /// Moves the small table into the buckets: sorted on its own, then each bucket's share merged
    /// from the back, in place, into the room made at the bucket's end.
    fn merge(&mut self) {
        let mut chunk: Vec<u64> = self.recent.drain().collect();
        chunk.sort_unstable();
        self.sorted_len += chunk.len();
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); 1 << BUCKET_BITS];
        }
        let mut rest = &chunk[..];
        while let Some(&first) = rest.first() {
            let index = bucket(first);
            let share = rest.partition_point(|&d| bucket(d) == index);
            merge_into(&mut self.buckets[index], &rest[..share]);
            rest = &rest[share..];
        }
    }
}

/// Merges `chunk` (sorted) into `sorted`, keeping it sorted.
fn merge_into(sorted: &mut Vec<u64>, chunk: &[u64]) {
    let old = sorted.len();
    sorted.reserve_exact(chunk.len());
    sorted.resize(old + chunk.len(), 0);
    let (mut i, mut j, mut k) = (old, chunk.len(), sorted.len());
    while j > 0 {
        k -= 1;
        if i > 0 && sorted[i - 1] > chunk[j - 1] {
            sorted[k] = sorted[i - 1];
            i -= 1;
        } else {
            sorted[k] = chunk[j - 1];
            j -= 1;
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
        let all: Vec<u64> = log.buckets.concat();
        assert_eq!(all.len() + log.recent.len(), set.len());
        assert!(all.windows(2).all(|w| w[0] < w[1]), "kept sorted");
        for i in 0..(4 * RECENT) {
            let id = format!("id-{i}");
            assert_eq!(log.contains(&id), set.contains(&id), "{id}");
        }
    }
}
