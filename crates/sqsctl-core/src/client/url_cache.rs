//! Queue URLs remembered on disk by name, so that a command given a queue's name skips the
//! `GetQueueUrl` round trip the next time it runs.
//!
//! A cache file holds the names looked up in one scope: one endpoint, one region and one set of
//! credential sources (profile, access key id, role, the profile files' state). Anything that could
//! point a name at another account or region gives another file, so a cached URL is the one
//! `GetQueueUrl` would answer unless the queue was deleted since. Such an entry is only
//! *provisional* until a call on the queue succeeds: a call that finds no queue at a provisional URL
//! is answered by looking the name up again ([`Sqs`](super::Sqs) does that), which also fixes or
//! drops the entry. The cache is an optimization only: a file that cannot be read or written is
//! ignored. Its directory and files are the user's alone (0700 and 0600, also where an older
//! version left them readable by others): the names and URLs say which accounts and queues the user
//! works with.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use parking_lot::Mutex;
use sha2::{Digest, Sha256};

use crate::state_file;

/// Entries kept per file; the oldest go first.
const MAX_ENTRIES: usize = 256;

#[derive(Debug)]
pub struct UrlCache {
    file: PathBuf,
    /// The file's entries once read (key, URL), oldest first.
    entries: Mutex<Option<Vec<(String, String)>>>,
    /// URLs served from the file and not yet confirmed by a call, with the queue as the user gave
    /// it (name or ARN), to look up again.
    provisional: Mutex<HashMap<String, String>>,
    /// Remembered URLs that held no queue, with the URL the name was found at since.
    moved: Mutex<HashMap<String, String>>,
}

impl UrlCache {
    /// The cache of one scope in `dir`: `scope` lists what decides which queue a name means
    /// (endpoint, region, credential sources); it is hashed into the file name, never stored.
    pub fn new(dir: &Path, scope: &[&str]) -> UrlCache {
        let mut digest = Sha256::new();
        for part in scope {
            digest.update(part.as_bytes());
            digest.update([0]);
        }
        let key = hex::encode(&digest.finalize()[..16]);
        UrlCache {
            file: dir.join(format!("queue-urls-{key}")),
            entries: Mutex::new(None),
            provisional: Mutex::new(HashMap::new()),
            moved: Mutex::new(HashMap::new()),
        }
    }

    /// The URL remembered for `name` (of account `owner`, or the caller's), marked provisional.
    /// `given` is the queue as the user wrote it.
    pub fn get(&self, name: &str, owner: Option<&str>, given: &str) -> Option<String> {
        let key = key(name, owner);
        let mut entries = self.entries.lock();
        let url = entries
            .get_or_insert_with(|| read(&self.file))
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, url)| url.clone())?;
        self.provisional
            .lock()
            .insert(url.clone(), given.to_string());
        Some(url)
    }

    /// Remembers the URL `GetQueueUrl` (or `CreateQueue`) answered for `name`.
    pub fn put(&self, name: &str, owner: Option<&str>, url: &str) {
        let key = key(name, owner);
        let mut entries = self.entries.lock();
        let entries = entries.get_or_insert_with(|| read(&self.file));
        if entries.iter().any(|(k, u)| *k == key && u == url) {
            return;
        }
        entries.retain(|(k, _)| *k != key);
        entries.push((key, url.to_string()));
        let excess = entries.len().saturating_sub(MAX_ENTRIES);
        entries.drain(..excess);
        write(&self.file, entries);
    }

    /// Forgets `name` (a queue deleted, or not found at its remembered URL).
    pub fn forget(&self, name: &str, owner: Option<&str>) {
        let key = key(name, owner);
        let mut entries = self.entries.lock();
        let entries = entries.get_or_insert_with(|| read(&self.file));
        let before = entries.len();
        entries.retain(|(k, _)| *k != key);
        if entries.len() != before {
            write(&self.file, entries);
        }
    }

    /// The queue as the user gave it, when `url` came from the file and no call has confirmed it.
    pub fn provisional(&self, url: &str) -> Option<String> {
        let provisional = self.provisional.lock();
        if provisional.is_empty() {
            return None;
        }
        provisional.get(url).cloned()
    }

    /// A call on `url` succeeded: the queue is there.
    pub fn confirm(&self, url: &str) {
        let mut provisional = self.provisional.lock();
        if !provisional.is_empty() {
            provisional.remove(url);
        }
    }
}

impl UrlCache {
    /// A remembered URL held no queue, and the name was found at `to`: calls made on the queue
    /// as first resolved go there.
    pub fn moved(&self, from: &str, to: &str) {
        self.moved.lock().insert(from.to_string(), to.to_string());
    }

    /// Where a call on `url` goes: where the queue was found, if `url` was a remembered URL
    /// that held no queue.
    pub fn current(&self, url: &str) -> Option<String> {
        let moved = self.moved.lock();
        if moved.is_empty() {
            return None;
        }
        moved.get(url).cloned()
    }
}

fn key(name: &str, owner: Option<&str>) -> String {
    match owner {
        Some(owner) => format!("{owner}/{name}"),
        None => name.to_string(),
    }
}

fn read(file: &Path) -> Vec<(String, String)> {
    if let Some(dir) = file.parent() {
        let _ = state_file::tighten(dir, state_file::DIR_MODE);
    }
    let _ = state_file::tighten(file, state_file::FILE_MODE);
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(key, url)| (key.to_string(), url.to_string()))
        .collect()
}

/// Writes the file whole (see [`state_file::replace_private`]): a reader never sees half of it;
/// two processes writing at once lose one's entry, no more.
fn write(file: &Path, entries: &[(String, String)]) {
    let text: String = entries
        .iter()
        .map(|(key, url)| format!("{key}\t{url}\n"))
        .collect();
    let _ = state_file::replace_private(file, &text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_survive_a_new_process_and_scopes_do_not_share_them() {
        let dir = tempfile::tempdir().unwrap();
        let scope = ["http://127.0.0.1:9324", "us-east-1", "key"];
        let cache = UrlCache::new(dir.path(), &scope);
        assert_eq!(cache.get("orders", None, "orders"), None);
        cache.put("orders", None, "http://127.0.0.1:9324/000000000000/orders");
        cache.put(
            "orders",
            Some("111111111111"),
            "http://h/111111111111/orders",
        );

        let again = UrlCache::new(dir.path(), &scope);
        assert_eq!(
            again.get("orders", None, "orders").as_deref(),
            Some("http://127.0.0.1:9324/000000000000/orders")
        );
        assert_eq!(
            again.get("orders", Some("111111111111"), "arn").as_deref(),
            Some("http://h/111111111111/orders")
        );
        let other_region =
            UrlCache::new(dir.path(), &["http://127.0.0.1:9324", "eu-west-1", "key"]);
        assert_eq!(other_region.get("orders", None, "orders"), None);
    }

    #[test]
    fn served_urls_are_provisional_until_confirmed_and_forgotten_names_are_gone() {
        let dir = tempfile::tempdir().unwrap();
        let cache = UrlCache::new(dir.path(), &["e"]);
        cache.put("jobs", None, "http://h/1/jobs");
        assert_eq!(cache.provisional("http://h/1/jobs"), None);
        cache.get("jobs", None, "jobs");
        assert_eq!(
            cache.provisional("http://h/1/jobs").as_deref(),
            Some("jobs")
        );
        cache.confirm("http://h/1/jobs");
        assert_eq!(cache.provisional("http://h/1/jobs"), None);
        cache.forget("jobs", None);
        assert_eq!(
            UrlCache::new(dir.path(), &["e"]).get("jobs", None, "jobs"),
            None
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_cache_is_private_also_where_it_was_not() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("sqsctl");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let cache = UrlCache::new(&dir, &["e"]);
        cache.put("jobs", None, "http://h/1/jobs");
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&cache.file), 0o600);
        // Left readable by others (an older version, a restored backup): a read tightens it.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&cache.file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let again = UrlCache::new(&dir, &["e"]);
        assert!(again.get("jobs", None, "jobs").is_some());
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&cache.file), 0o600);
    }

    #[test]
    fn the_file_keeps_the_newest_entries() {
        let dir = tempfile::tempdir().unwrap();
        let cache = UrlCache::new(dir.path(), &["e"]);
        for i in 0..MAX_ENTRIES + 10 {
            cache.put(&format!("q{i}"), None, &format!("http://h/1/q{i}"));
        }
        let again = UrlCache::new(dir.path(), &["e"]);
        assert_eq!(again.get("q0", None, "q0"), None);
        assert!(
            again
                .get(&format!("q{}", MAX_ENTRIES + 9), None, "q")
                .is_some()
        );
    }
}
