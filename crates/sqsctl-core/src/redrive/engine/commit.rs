//! The second half of a batch: the outcomes of its sends go to the journal's file, and the worker
//! goes on; once they are on disk, and the archive copies after them, the confirmed messages are
//! deleted from the DLQ.

use std::sync::atomic::Ordering;

use super::state::{Held, Shared, handle, journal_note, journal_sync, journal_write, message_id};
use super::summary::{Counters, FailedMessage};
use super::worker::{Hidden, delete_twins, keep_hidden};
use crate::client::MAX_BATCH_ENTRIES;
use crate::message::MessageRecord;
use crate::redrive::journal::Lines;
use crate::redrive::send;

/// What is left of a batch once its sends are answered: journal them to disk, then delete.
pub(super) struct Commit {
    /// The journal lines of the sends and failures.
    pub(super) lines: Vec<u8>,
    /// Confirmed sent, then the messages an earlier run had sent: to delete, in that order.
    pub(super) to_delete: Vec<MessageRecord>,
    pub(super) confirmed: usize,
    /// The whole batch, to keep hidden while the commit is slow.
    pub(super) hidden: Hidden,
}

/// A batch whose sends are on disk: what remains is to delete the confirmed messages.
pub(super) struct Delete {
    to_delete: Vec<MessageRecord>,
    confirmed: usize,
    hidden: Hidden,
}

/// The sends of a batch go to the journal's file (a `kill -9` cannot lose them once this returns),
/// and the worker goes on to its next batch; the [`Delete`] it returns waits for them to be on
/// disk (`None` when there is nothing to delete, or they must stay).
pub(super) async fn record(shared: &Shared, commit: Commit) -> Option<Delete> {
    let Commit {
        lines,
        to_delete,
        confirmed,
        hidden,
    } = commit;
    if !journal_write(shared, lines).await {
        keep(shared, &to_delete, "the journal could not be written");
        return None;
    }
    (!to_delete.is_empty()).then_some(Delete {
        to_delete,
        confirmed,
        hidden,
    })
}

impl Delete {
    /// Waits for the batch's journal lines to be on disk (one sync serves the batches of every
    /// worker waiting then) and writes the archive copies, then deletes the confirmed messages
    /// from the DLQ with the receipt handles of their receive, keeping the batch hidden while it
    /// takes.
    pub(super) async fn run(self, shared: &Shared) {
        keep_hidden(
            shared,
            &self.hidden,
            std::pin::pin!(async {
                if on_disk(shared, &self.to_delete).await {
                    delete(shared, &self.to_delete, self.confirmed).await;
                }
            }),
        )
        .await;
    }
}

/// Syncs the journal (the lines written before, this batch's among them) and writes the archive
/// copies of `to_delete`: false, with the messages kept in the DLQ, when either failed.
async fn on_disk(shared: &Shared, to_delete: &[MessageRecord]) -> bool {
    if !journal_sync(shared, Vec::new()).await {
        keep(shared, to_delete, "the journal could not be written");
        return false;
    }
    // Each message's archive copy is on disk before its delete (the messages an earlier run sent
    // included: the archive skips those it already holds). Once a write fails, nothing more is
    // deleted: what was sent stays in the DLQ, the journal shows it as sent, and the run stops.
    if let Some(archive) = &shared.archive {
        let copies: Vec<&MessageRecord> = to_delete.iter().collect();
        let written = if shared.archive_failed.load(Ordering::SeqCst) {
            Err(std::io::Error::other("an earlier write failed"))
        } else {
            archive.write(&copies)
        };
        if let Err(e) = written {
            shared.archive_failed.store(true, Ordering::SeqCst);
            shared.fail(format!(
                "the archive {} could not be written: {e}",
                archive.path().display()
            ));
            keep(shared, to_delete, "the archive could not be written");
            return false;
        }
    }
    true
}

/// Leaves sent messages in the DLQ, undeleted: never sent again by this run, visible again when
/// it ends, and deleted by `--resume` (the journal shows them as sent).
pub(super) fn keep(shared: &Shared, messages: &[MessageRecord], why: &str) {
    for message in messages {
        sent_not_deleted(shared, message, why);
    }
    shared
        .held
        .lock()
        .extend(messages.iter().map(Held::tracked));
}

/// A message sent but still in the DLQ: never sent again by this run, deleted when seen again,
/// and reported as failed.
fn sent_not_deleted(shared: &Shared, message: &MessageRecord, why: &str) {
    let id = message_id(message);
    shared.deliveries.lock().given_back(id);
    shared.sent_before.lock().insert(id);
    Counters::add(&shared.counters.delete_failed, 1);
    shared.report(FailedMessage {
        message_id: id.to_string(),
        group_id: message.effective_group_id().map(str::to_string),
        reason: format!("sent, but not deleted from the dead-letter queue: {why}"),
    });
}

/// A copy run's confirmed sends: their `sent` lines are final, and the messages stay in the DLQ,
/// hidden until the run ends (then visible again) and never sent again when SQS hands them over
/// once more. A copy run has no messages of an earlier run to delete (`--resume` parks them).
fn keep_copied(shared: &Shared, copied: &[MessageRecord]) {
    let mut parked = shared.parked.lock();
    for message in copied {
        parked.insert(message_id(message));
        shared.deliveries.lock().given_back(message_id(message));
    }
    drop(parked);
    Counters::add(&shared.counters.moved, copied.len());
    shared.held.lock().extend(copied.iter().map(Held::tracked));
}

pub(super) async fn delete(shared: &Shared, to_delete: &[MessageRecord], confirmed: usize) {
    if to_delete.is_empty() {
        return;
    }
    if shared.plan.copy {
        keep_copied(shared, to_delete);
        return;
    }
    let handles: Vec<&str> = to_delete.iter().map(handle).collect();
    let mut outcomes = Vec::with_capacity(handles.len());
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        outcomes.extend(
            send::delete_with_retries(
                &shared.sqs,
                &shared.plan.source,
                chunk,
                &shared.counters.retries,
            )
            .await,
        );
    }
    let mut lines = Lines::default();
    let mut twins: Vec<(String, String)> = Vec::new();
    for (index, (message, outcome)) in to_delete.iter().zip(outcomes).enumerate() {
        let id = message_id(message);
        let resumed = index >= confirmed;
        match outcome {
            None => {
                lines.push("deleted", &[("id", Some(id))]);
                let handles = shared.deliveries.lock().deleted(id);
                twins.extend(handles.into_iter().map(|h| (id.to_string(), h)));
                if resumed {
                    Counters::add(&shared.counters.completed_from_journal, 1);
                    let _ = shared.pending_journal_deletes.fetch_update(
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                        |n| n.checked_sub(1),
                    );
                    shared.sent_before.lock().remove(id);
                } else {
                    Counters::add(&shared.counters.moved, 1);
                }
            }
            Some(reason) => sent_not_deleted(shared, message, &reason),
        }
    }
    journal_note(shared, lines.into_bytes());
    if !twins.is_empty() {
        let twins: Vec<(&str, &str)> = twins
            .iter()
            .map(|(id, handle)| (id.as_str(), handle.as_str()))
            .collect();
        delete_twins(shared, &twins).await;
    }
}
