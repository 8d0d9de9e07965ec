//! `ReceiveRequestAttemptId` on FIFO queues: a receive retried with the same attempt id within five
//! minutes gets the same messages and receipt handles again (and their visibility timeout starts
//! over), as long as they are still in flight under those handles; otherwise it receives anew.

use std::collections::HashMap;

use parking_lot::Mutex;

use crate::engine::message::StoredMessage;

/// How long SQS remembers an attempt id.
pub const ATTEMPT_WINDOW_MS: u64 = 5 * 60 * 1000;
/// Attempts remembered at most, over all queues, so retries cannot grow memory without bound.
const MAX_REMEMBERED: usize = 10_000;

#[derive(Debug)]
struct Attempt {
    at: u64,
    messages: Vec<(u64, StoredMessage)>,
}

/// The answers of recent receives that carried an attempt id, by queue id and attempt id.
#[derive(Debug, Default)]
pub struct ReceiveAttempts {
    remembered: Mutex<HashMap<(u64, String), Attempt>>,
}

impl ReceiveAttempts {
    /// The messages an earlier receive with this attempt id returned, if it is recent.
    pub fn recall(
        &self,
        queue_id: u64,
        attempt_id: &str,
        now: u64,
    ) -> Option<Vec<(u64, StoredMessage)>> {
        let remembered = self.remembered.lock();
        remembered
            .get(&(queue_id, attempt_id.to_string()))
            .filter(|a| now < a.at.saturating_add(ATTEMPT_WINDOW_MS))
            .map(|a| a.messages.clone())
    }

    pub fn remember(
        &self,
        queue_id: u64,
        attempt_id: &str,
        now: u64,
        messages: Vec<(u64, StoredMessage)>,
    ) {
        let mut remembered = self.remembered.lock();
        if remembered.len() >= MAX_REMEMBERED {
            remembered.retain(|_, a| now < a.at.saturating_add(ATTEMPT_WINDOW_MS));
        }
        if remembered.len() >= MAX_REMEMBERED
            && let Some(oldest) = remembered
                .iter()
                .min_by_key(|(_, a)| a.at)
                .map(|(k, _)| k.clone())
        {
            remembered.remove(&oldest);
        }
        remembered.insert(
            (queue_id, attempt_id.to_string()),
            Attempt { at: now, messages },
        );
    }
}
