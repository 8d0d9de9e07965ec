//! The end of a run: the messages it held without moving them are made visible in the DLQ again,
//! and those the journal tracks are journaled `released` once SQS confirmed it, never before.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use super::state::{Held, Shared, journal_note};
use crate::client::MAX_BATCH_ENTRIES;
use crate::redrive::journal::Lines;

/// Makes held messages visible again, a few batches at a time. Returns how many could not be.
pub(super) async fn release_all(shared: &Arc<Shared>, held: Vec<Held>) -> u64 {
    if held.is_empty() {
        return 0;
    }
    let failed = Arc::new(AtomicU64::new(0));
    let mut chunks: Vec<Vec<Held>> = Vec::with_capacity(held.len().div_ceil(MAX_BATCH_ENTRIES));
    let mut held = held.into_iter().peekable();
    while held.peek().is_some() {
        chunks.push(held.by_ref().take(MAX_BATCH_ENTRIES).collect());
    }
    let queue = Arc::new(Mutex::new(chunks));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..shared.plan.concurrency.max(1) {
        let queue = queue.clone();
        let failed = failed.clone();
        let shared = shared.clone();
        tasks.spawn(async move {
            loop {
                let Some(chunk) = queue.lock().pop() else {
                    return;
                };
                let entries: Vec<(&str, i32)> =
                    chunk.iter().map(|h| (h.handle.as_str(), 0)).collect();
                // The policy retries what may still succeed.
                let outcome = shared.change_visibility(&entries).await;
                let mut lines = Lines::default();
                let mut lost = 0;
                for (held, result) in chunk.iter().zip(&outcome.entries) {
                    if !result.is_done() {
                        lost += 1;
                    } else if let Some(id) = &held.id {
                        lines.push("released", &[("id", Some(id))]);
                    }
                }
                lost += chunk.len().saturating_sub(outcome.entries.len());
                journal_note(&shared, lines.into_bytes());
                failed.fetch_add(lost as u64, Ordering::Relaxed);
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    failed.load(Ordering::Relaxed)
}
