//! The rewrite of one batch (see [`crate::redrive::rewrite`]): each message the worker took on is
//! rewritten, checked against the digest an interrupted run journaled for it, and on FIFO queues a
//! group stops at its first message that cannot go. The worker journals and sends the result.

use super::state::{Shared, message_id};
use super::summary::Counters;
use super::worker::BLOCKED;
use crate::message::MessageRecord;

/// Applies the run's rewrite to each message of a batch (`shaped[i]` is how `originals[i]` would
/// be sent unchanged): the message to send with its digest, or the group id and the reason it
/// stays in the DLQ. On FIFO queues a group stops at its first message the rewrite refused, as it
/// does at a failed send: the later messages of the group are not sent either.
pub(super) async fn rewrite_all(
    shared: &Shared,
    originals: &[MessageRecord],
    shaped: Vec<MessageRecord>,
) -> Vec<Result<(MessageRecord, Option<String>), (Option<String>, String)>> {
    let mut stopped_groups: Vec<String> = Vec::new();
    let mut results = Vec::with_capacity(shaped.len());
    for (original, out) in originals.iter().zip(shaped) {
        let group_id = out.group_id.clone();
        if shared.plan.fifo
            && let Some(group) = group_id.as_deref()
            && stopped_groups.iter().any(|g| g == group)
        {
            results.push(Err((group_id, BLOCKED.to_string())));
            continue;
        }
        let reason = match shared.rewriter.apply(original, out).await {
            Ok(rewritten) => {
                let journaled = shared.journaled_digests.get(message_id(original));
                match (journaled, rewritten.digest.as_deref()) {
                    (Some(then), Some(now)) if then != now => {
                        Counters::add(&shared.counters.changed_since_journal, 1);
                        format!(
                            "not sent: rewritten differently from what the interrupted run made of it (digest {} then, {} now), which it may have sent; a filter or command that gives the same result twice moves it",
                            short(then),
                            short(now)
                        )
                    }
                    _ => {
                        results.push(Ok((rewritten.message, rewritten.digest)));
                        continue;
                    }
                }
            }
            Err(failure) => {
                Counters::add(&shared.counters.rewrite_failed, 1);
                format!("rewrite: {failure}")
            }
        };
        if let Some(group) = group_id.as_deref() {
            stopped_groups.push(group.to_string());
        }
        results.push(Err((group_id, reason)));
    }
    results
}

/// The first 12 digits of a digest, as a reason names it.
fn short(digest: &str) -> &str {
    digest.get(..12).unwrap_or(digest)
}
