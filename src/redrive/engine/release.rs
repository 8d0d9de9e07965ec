//! The end of a run: the messages it held without moving them are made visible in the DLQ again.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use super::state::Shared;
use crate::client::MAX_BATCH_ENTRIES;

/// Makes held messages visible again, a few batches at a time. Returns how many could not be.
pub(super) async fn release_all(shared: &Arc<Shared>, handles: Vec<String>) -> u64 {
    if handles.is_empty() {
        return 0;
    }
    let failed = Arc::new(AtomicU64::new(0));
    let chunks: Vec<Vec<String>> = handles
        .chunks(MAX_BATCH_ENTRIES)
        .map(<[String]>::to_vec)
        .collect();
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
                let handles: Vec<&str> = chunk.iter().map(String::as_str).collect();
                // The client retries what may still succeed.
                let result = shared.sqs.release(&shared.plan.source, &handles).await;
                let lost = result.unwrap_or(handles.len());
                failed.fetch_add(lost as u64, Ordering::Relaxed);
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    failed.load(Ordering::Relaxed)
}
