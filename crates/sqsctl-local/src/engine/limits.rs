//! The bound on stored message bytes (`--max-bytes`): one shared budget that every queue's message
//! store charges on insert and credits on removal, so a send past the bound is refused with
//! `OverLimit` instead of the process running out of memory. The budget knows nothing of queues or
//! requests; the store does the charging and the send path asks [`Budget::admit`]. Beside it, the
//! default of the per-queue limit of messages in flight (`--max-in-flight`), which the receive
//! path checks against the store's counts.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{ErrorKind, SqsError, SqsResult};

/// SQS's limit of messages one queue holds in flight: about 120,000 for a standard queue, 120,000 for
/// a FIFO queue (20,000 before 2024). The server's default for `--max-in-flight`.
pub const MAX_IN_FLIGHT: usize = 120_000;

/// How often at most a refused send is logged, so a client retrying in a loop does not flood
/// the log.
const LOG_EVERY_MS: u64 = 10_000;

#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: AtomicU64,
    refused: AtomicU64,
    last_log: AtomicU64,
}

impl Budget {
    pub fn new(limit: Option<u64>) -> Self {
        Budget {
            limit: limit.unwrap_or(u64::MAX),
            used: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            last_log: AtomicU64::new(0),
        }
    }

    pub fn unlimited() -> Arc<Budget> {
        Arc::new(Budget::new(None))
    }

    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// Checks that `bytes` more fit. Concurrent sends to different queues may each pass the check
    /// and overshoot the bound by at most one batch each, which is fine for a memory guard.
    pub fn admit(&self, bytes: u64) -> SqsResult<()> {
        let used = self.used();
        if used.saturating_add(bytes) <= self.limit {
            return Ok(());
        }
        let refused = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let last = self.last_log.load(Ordering::Relaxed);
        if now >= last.saturating_add(LOG_EVERY_MS)
            && self
                .last_log
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            eprintln!(
                "sqsctl local: refusing sends with OverLimit: {used} bytes of messages stored, the bound is {} (--max-bytes); {refused} refused so far",
                self.limit
            );
        }
        Err(SqsError::new(
            ErrorKind::OverLimit,
            format!(
                "The server holds {used} bytes of messages and its bound is {} bytes (--max-bytes): delete or receive messages, or restart it with a larger bound.",
                self.limit
            ),
        ))
    }

    fn charge(&self, bytes: u64) {
        self.used.fetch_add(bytes, Ordering::Relaxed);
    }

    fn credit(&self, bytes: u64) {
        // Never below zero, whatever the order of concurrent updates.
        let _ = self
            .used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |u| {
                Some(u.saturating_sub(bytes))
            });
    }
}

/// What one queue's messages hold of the budget; gives it back when the queue goes away.
#[derive(Debug)]
pub struct Usage {
    budget: Arc<Budget>,
    bytes: u64,
}

impl Default for Usage {
    fn default() -> Self {
        Usage {
            budget: Budget::unlimited(),
            bytes: 0,
        }
    }
}

impl Usage {
    pub fn budget(&self) -> &Arc<Budget> {
        &self.budget
    }

    /// Moves this usage onto `budget` (a queue joining a server).
    pub fn attach(&mut self, budget: Arc<Budget>) {
        self.budget.credit(self.bytes);
        budget.charge(self.bytes);
        self.budget = budget;
    }

    pub fn add(&mut self, bytes: u64) {
        self.bytes += bytes;
        self.budget.charge(bytes);
    }

    pub fn sub(&mut self, bytes: u64) {
        let bytes = bytes.min(self.bytes);
        self.bytes -= bytes;
        self.budget.credit(bytes);
    }

    pub fn clear(&mut self) {
        self.sub(self.bytes);
    }
}

impl Drop for Usage {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The default bound: half of the memory this process may use (the smaller of physical memory
/// and a cgroup limit), leaving room for request buffers, responses and the allocator's slack.
/// `None` where neither can be read.
pub fn default_max_bytes() -> Option<u64> {
    let physical = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        })
        .map(|kib| kib * 1024);
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|path| {
        std::fs::read_to_string(path)
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()
    });
    let total = match (physical, cgroup) {
        (Some(p), Some(c)) => p.min(c),
        (p, c) => p.or(c)?,
    };
    Some(total / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_charges_and_gives_back() {
        let budget = Arc::new(Budget::new(Some(1000)));
        let mut a = Usage::default();
        a.attach(budget.clone());
        a.add(600);
        assert!(budget.admit(400).is_ok());
        let refused = budget.admit(401);
        assert_eq!(refused.map_err(|e| e.kind), Err(ErrorKind::OverLimit));
        a.sub(100);
        assert!(budget.admit(500).is_ok());
        drop(a);
        assert_eq!(budget.used(), 0);
    }
}
