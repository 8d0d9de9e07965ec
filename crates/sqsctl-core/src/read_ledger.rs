//! The read ledger: what sqsctl's own reads of a queue (peek, diagnose, `fifo groups`,
//! `delete --message-id`, a redrive's dry run) left behind, kept in a small private file per queue
//! under the state directory.
//!
//! Every read of SQS is a receive, which raises each message's receive count. Two uses follow:
//! the guard refuses a read while the last one left messages at their `maxReceiveCount` (one more
//! receive, this read's, would move them to the dead-letter queue), and `diagnose` discounts the
//! receives its own and peek's reads added, so that looking at a queue is not mistaken for failing
//! consumers. The file is a hint, not a record anyone depends on: a read that cannot write it goes
//! on and says so.
//!
//! One line per read: `ENDED_MS [AT_LIMIT NEAR]` (the counts were added later; a line with the time
//! alone reads as a read that left none).

use std::path::PathBuf;

use crate::client::QueueRef;
use crate::state_file::InvalidQueueName;

/// Reads older than this cannot matter: no message outlives 14 days.
const MAX_AGE_MS: u64 = 14 * 86_400 * 1000;
/// Lines kept per queue.
const MAX_ENTRIES: usize = 500;

/// What one read left behind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadEntry {
    /// When the read ended, in epoch milliseconds.
    pub ended_ms: u64,
    /// Messages it left with a receive count at `maxReceiveCount`: the next receive of each, by
    /// anyone, moves it to the dead-letter queue.
    pub at_limit: u64,
    /// Messages it left one below that: the next receive is their last delivery.
    pub near: u64,
}

impl ReadEntry {
    fn parse(line: &str) -> Option<ReadEntry> {
        let mut fields = line.split_whitespace();
        let ended_ms = fields.next()?.parse().ok()?;
        let mut count = || fields.next().and_then(|f| f.parse().ok()).unwrap_or(0);
        let at_limit = count();
        let near = count();
        Some(ReadEntry {
            ended_ms,
            at_limit,
            near,
        })
    }
}

/// The ledger of one queue.
pub struct ReadLedger {
    /// `Err` when the queue's name cannot be part of a file name (nothing is read or written);
    /// `Ok(None)` without a state directory.
    path: Result<Option<PathBuf>, InvalidQueueName>,
}

impl ReadLedger {
    pub fn for_queue(queue: &QueueRef) -> ReadLedger {
        if let Err(invalid) = crate::state_file::queue_file_name(&queue.name) {
            return ReadLedger { path: Err(invalid) };
        }
        // The URL (made of a valid name, so never `.` or `..` once its `/` are replaced) tells
        // apart queues of one name in different accounts, regions or endpoints.
        let file: String = queue
            .url
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dirs::state_dir()
            .or_else(dirs::data_local_dir)
            .map(|dir| dir.join("sqsctl").join("scans").join(file));
        ReadLedger { path: Ok(path) }
    }

    /// The reads of the last 14 days, oldest first.
    pub fn entries(&self, now_ms: u64) -> Vec<ReadEntry> {
        let Some(text) = self
            .path
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .and_then(|p| std::fs::read_to_string(p).ok())
        else {
            return Vec::new();
        };
        let mut entries: Vec<ReadEntry> = text
            .lines()
            .filter_map(ReadEntry::parse)
            .filter(|e| now_ms.saturating_sub(e.ended_ms) < MAX_AGE_MS)
            .collect();
        entries.sort_by_key(|e| e.ended_ms);
        entries
    }

    /// When the reads of the last 14 days ended.
    pub fn ends(&self, now_ms: u64) -> Vec<u64> {
        self.entries(now_ms).iter().map(|e| e.ended_ms).collect()
    }

    /// The latest read, if it left messages at their `maxReceiveCount`.
    pub fn left_at_limit(&self, now_ms: u64) -> Option<ReadEntry> {
        self.entries(now_ms).pop().filter(|e| e.at_limit > 0)
    }

    /// Adds a read.
    pub fn append(&self, entry: ReadEntry) -> std::io::Result<()> {
        let path = match &self.path {
            Ok(Some(path)) => path,
            Ok(None) => return Ok(()),
            Err(invalid) => return Err(std::io::Error::other(invalid.to_string())),
        };
        crate::state_file::create_parent(path)?;
        let mut entries = self.entries(entry.ended_ms);
        entries.push(entry);
        let keep = entries.len().saturating_sub(MAX_ENTRIES);
        let text: String = entries[keep..]
            .iter()
            .map(|e| format!("{} {} {}\n", e.ended_ms, e.at_limit, e.near))
            .collect();
        let temporary = path.with_extension("tmp");
        let mut file = crate::state_file::open(
            &temporary,
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true),
        )?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        drop(file);
        std::fs::rename(temporary, path)
    }
}

/// "Now" in epoch milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_and_without_counts_parse() {
        assert_eq!(
            ReadEntry::parse("1700000000000"),
            Some(ReadEntry {
                ended_ms: 1_700_000_000_000,
                at_limit: 0,
                near: 0
            })
        );
        assert_eq!(
            ReadEntry::parse("5 2 3"),
            Some(ReadEntry {
                ended_ms: 5,
                at_limit: 2,
                near: 3
            })
        );
        assert_eq!(ReadEntry::parse("not a time"), None);
        assert_eq!(ReadEntry::parse(""), None);
    }
}
