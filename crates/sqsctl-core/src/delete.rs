//! Deleting messages: by receipt handle, in batches under the one retry policy, or by message id,
//! which SQS cannot do, so the queue is scanned for them.
//!
//! Finding by id scans the queue the way a peek reads it ([`crate::client::peek`]): each message is
//! received once with a visibility timeout (the hold, [`HOLD_SECONDS`]) so the scan never sees it
//! twice, the matches are deleted while their receipt handles are fresh, and every other message is
//! made visible again the moment the scan ends, whatever ended it. The scan stops before its hold
//! runs out rather than receive a message a second time. Each message handled is one [`Deletion`],
//! handed to the caller as it happens.

use crate::client::Delete;
use std::collections::{BTreeSet, HashSet};
use std::ops::ControlFlow;
use std::time::Instant;

use serde::Serialize;

use crate::client::peek::{self, Held, ReadCost, Scanned};
use crate::client::{ClientError, EntryResult, MAX_BATCH_ENTRIES, QueueRef, ReceiveOptions};
use crate::client::{RetryPolicy, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;

/// Visibility timeout of scanned messages while a scan for ids runs, in seconds.
pub const HOLD_SECONDS: i32 = 30;

/// What became of one message: one record per message handled.
#[derive(Debug, Serialize)]
pub struct Deletion {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receipt_handle: Option<String>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Deleted,
    /// A dry run found it.
    WouldDelete,
    Failed,
    /// A scan for ids did not find it.
    NotFound,
}

impl Status {
    /// A delete whose outcome is unknown counts as failed: it may have happened, and deleting
    /// again does no harm.
    pub fn of(entry: &EntryResult) -> Status {
        if entry.is_done() {
            Status::Deleted
        } else {
            Status::Failed
        }
    }

    /// Its name in records: `deleted`, `would_delete`, `failed`, `not_found`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Deleted => "deleted",
            Status::WouldDelete => "would_delete",
            Status::Failed => "failed",
            Status::NotFound => "not_found",
        }
    }
}

impl Deletion {
    fn not_found(message_id: String) -> Deletion {
        Deletion {
            message_id: Some(message_id),
            receipt_handle: None,
            status: Status::NotFound,
            error: None,
            body: None,
        }
    }

    fn of_handle(handle: &str, status: Status, error: Option<String>) -> Deletion {
        Deletion {
            message_id: None,
            receipt_handle: Some(handle.to_string()),
            status,
            error,
            body: None,
        }
    }
}

/// Deletes by receipt handle, ten at a time, until Ctrl-C; a dry run deletes nothing and says
/// what it would. `on_deletion` gets each message's outcome and may stop the run. The error is
/// the one that stopped SQS taking the batches.
pub async fn by_handles<F>(
    sqs: &Sqs,
    queue: &QueueRef,
    handles: &[String],
    dry_run: bool,
    interrupt: &Interrupt,
    mut on_deletion: F,
) -> Result<(), ClientError>
where
    F: FnMut(Deletion) -> ControlFlow<()>,
{
    if dry_run {
        for handle in handles {
            if on_deletion(Deletion::of_handle(handle, Status::WouldDelete, None)).is_break() {
                break;
            }
        }
        return Ok(());
    }
    let policy = RetryPolicy::default().stopped_by(interrupt.clone());
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        if interrupt.is_set() {
            break;
        }
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let outcome = sqs.batch_retrying(Delete, queue, &refs, &policy).await;
        for (handle, entry) in chunk.iter().zip(&outcome.entries) {
            let deletion = Deletion::of_handle(handle, Status::of(entry), entry.reason());
            if on_deletion(deletion).is_break() {
                return Ok(());
            }
        }
        if let Some(err) = outcome.request_error {
            return Err(err);
        }
    }
    Ok(())
}

/// A scan for message ids, in finished values.
pub struct ByIdRequest<'a> {
    pub sqs: &'a Sqs,
    pub queue: &'a QueueRef,
    /// The ids, each once.
    pub ids: &'a [String],
    /// `ApproximateNumberOfMessages` when the scan starts: it short-polls until it has seen that
    /// many, then confirms the end with one long poll.
    pub visible_at_start: u64,
    /// What reading the queue costs, as [`peek::guard`] weighed it.
    pub cost: Option<ReadCost>,
    pub force: bool,
    pub dry_run: bool,
    /// How many messages the scan reads at most.
    pub scan_limit: u64,
    pub interrupt: &'a Interrupt,
}

/// What a scan for ids did.
#[derive(Debug)]
pub struct ByIdReport {
    /// What it read ([`Scanned::hold_ran_short`]: it stopped before its hold ran out).
    pub scanned: Scanned,
    /// Scanned messages that could not be made visible again: they return after [`HOLD_SECONDS`].
    pub not_released: u64,
    /// How many of the ids it did not find (each also handed over as [`Status::NotFound`], in
    /// order, once the scan ended without an error).
    pub not_found: usize,
    /// The error that stopped it.
    pub error: Option<ClientError>,
}

/// Scans `request.queue` for the ids and deletes each (a dry run only reports it), handing each
/// outcome to `on_deletion`, which may stop the scan; see the module documentation. Every message
/// held and not deleted is released before this returns, and the read is recorded as every read
/// is ([`peek::finish_read`]).
pub async fn by_id<F>(request: ByIdRequest<'_>, mut on_deletion: F) -> ByIdReport
where
    F: FnMut(Deletion) -> ControlFlow<()>,
{
    let ByIdRequest { sqs, queue, .. } = request;
    let mut wanted: BTreeSet<String> = request.ids.iter().cloned().collect();
    let mut held = Held::default();
    let watch = peek::watch_dead_letter_queue(sqs, request.cost.as_ref()).await;
    let mut scanned = Scanned {
        visible_at_start: request.visible_at_start,
        cost: request.cost.clone(),
        ..Scanned::default()
    };
    let mut scan = Scan {
        request: &request,
        wanted: &mut wanted,
        held: &mut held,
        scanned: &mut scanned,
        matched: HashSet::new(),
    };
    let outcome = scan.run(&mut on_deletion).await;
    // Everything not deleted goes back at once, also after an error.
    let not_released = held.release(sqs, queue).await;
    peek::finish_read(sqs, queue, &mut scanned, watch, request.force).await;
    let not_found = wanted.len();
    if let Ok(ControlFlow::Continue(())) = outcome {
        for id in wanted {
            if on_deletion(Deletion::not_found(id)).is_break() {
                break;
            }
        }
    }
    ByIdReport {
        scanned,
        not_released,
        not_found,
        error: outcome.err(),
    }
}

/// A scan for ids under way: what is still wanted, the receipt handles held, what was read.
struct Scan<'r, 'a> {
    request: &'r ByIdRequest<'a>,
    wanted: &'r mut BTreeSet<String>,
    held: &'r mut Held,
    scanned: &'r mut Scanned,
    /// The ids found and deleted (or tried): a second delivery of one (SQS delivers at least
    /// once) is deleted through its own receipt handle too, never released.
    matched: HashSet<String>,
}

/// What one received batch holds for the scan.
#[derive(Default)]
struct Sorted {
    /// The wanted messages seen for the first time, each reported once deleted.
    matches: Vec<MessageRecord>,
    /// Receipt handles of second deliveries of matched messages: deleted with the matches and
    /// not reported again.
    again: Vec<String>,
}

impl Scan<'_, '_> {
    /// Reads and deletes until every id was found, the queue has nothing more to deliver, the
    /// scan limit, the hold or Ctrl-C stops it; `Break`: the caller stopped it.
    async fn run<F>(&mut self, on_deletion: &mut F) -> Result<ControlFlow<()>, ClientError>
    where
        F: FnMut(Deletion) -> ControlFlow<()>,
    {
        let ByIdRequest {
            sqs,
            queue,
            scan_limit,
            interrupt,
            ..
        } = *self.request;
        let mut visible_at_start = self.scanned.visible_at_start;
        let mut seen: HashSet<String> = HashSet::new();
        let stop_at = peek::stop_reading_at(HOLD_SECONDS);
        while !self.wanted.is_empty() && !interrupt.is_set() && self.scanned.seen < scan_limit {
            if Instant::now() >= stop_at {
                self.scanned.hold_ran_short = true;
                break;
            }
            // Short polls while unseen messages remain; one long poll to be sure before stopping.
            let wait = if (seen.len() as u64) < visible_at_start {
                0
            } else {
                1
            };
            let options = ReceiveOptions {
                max_messages: scan_limit.saturating_sub(self.scanned.seen).clamp(1, 10) as i32,
                wait_seconds: Some(wait),
                visibility_timeout: Some(HOLD_SECONDS),
            };
            let batch = tokio::select! {
                batch = sqs.receive(queue, options) => batch?,
                () = interrupt.wait() => break,
            };
            if batch.is_empty() {
                if wait > 0 {
                    break;
                }
                visible_at_start = seen.len() as u64;
                continue;
            }
            let Some(sorted) = self.sort_out(batch, &mut seen, on_deletion) else {
                return Ok(ControlFlow::Break(()));
            };
            if sorted.matches.is_empty() && sorted.again.is_empty() {
                continue;
            }
            if self.delete(sorted, on_deletion).await?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// What of `batch` to delete: each wanted message seen for the first time, and any second
    /// delivery of one already matched. The others are held for release; a dry run reports its
    /// matches and holds them too. `None`: the caller stopped the scan.
    fn sort_out<F>(
        &mut self,
        batch: Vec<MessageRecord>,
        seen: &mut HashSet<String>,
        on_deletion: &mut F,
    ) -> Option<Sorted>
    where
        F: FnMut(Deletion) -> ControlFlow<()>,
    {
        let mut sorted = Sorted::default();
        for message in batch {
            let Some(handle) = message.receipt_handle.clone() else {
                continue;
            };
            let id = message.message_id.clone().unwrap_or_default();
            let first_time = seen.insert(id.clone());
            if first_time {
                self.scanned.count_seen(&message);
            }
            // Only a real run matches, and only on a first delivery: a matched id is a later one.
            if self.matched.contains(&id) {
                sorted.again.push(handle);
            } else if !(first_time && self.wanted.remove(&id)) {
                self.held.hold(Some(&id), handle);
            } else if self.request.dry_run {
                self.held.hold(Some(&id), handle);
                let found = Deletion {
                    message_id: Some(id),
                    receipt_handle: None,
                    status: Status::WouldDelete,
                    error: None,
                    body: Some(message.body),
                };
                if on_deletion(found).is_break() {
                    return None;
                }
            } else {
                self.matched.insert(id);
                sorted.matches.push(message);
            }
        }
        Some(sorted)
    }

    /// Deletes the matches while their receipt handles are fresh, and the second deliveries of
    /// matched messages with them; a match not deleted is held for release. A second delivery
    /// that could not be deleted is left alone: releasing it would fail as well once the message
    /// is gone, and if it is not, it returns after the hold and its match was reported failed or
    /// deleted through the other handle.
    async fn delete<F>(
        &mut self,
        sorted: Sorted,
        on_deletion: &mut F,
    ) -> Result<ControlFlow<()>, ClientError>
    where
        F: FnMut(Deletion) -> ControlFlow<()>,
    {
        let ByIdRequest {
            sqs,
            queue,
            interrupt,
            ..
        } = *self.request;
        let Sorted { matches, again } = sorted;
        let refs: Vec<&str> = matches
            .iter()
            .filter_map(|m| m.receipt_handle.as_deref())
            .chain(again.iter().map(String::as_str))
            .collect();
        let policy = RetryPolicy::default().stopped_by(interrupt.clone());
        let mut outcome = sqs.batch_retrying(Delete, queue, &refs, &policy).await;
        outcome.entries.truncate(matches.len());
        for (message, entry) in matches.into_iter().zip(&outcome.entries) {
            if !entry.is_done()
                && let Some(handle) = message.receipt_handle.clone()
            {
                self.held.hold(message.message_id.as_deref(), handle);
            }
            let deletion = Deletion {
                message_id: message.message_id,
                receipt_handle: None,
                status: Status::of(entry),
                error: entry.reason(),
                body: Some(message.body),
            };
            if on_deletion(deletion).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        match outcome.request_error {
            Some(err) => Err(err),
            None => Ok(ControlFlow::Continue(())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deletion_is_the_record_scripts_read() {
        let found = Deletion {
            message_id: Some("m-1".into()),
            receipt_handle: None,
            status: Status::WouldDelete,
            error: None,
            body: Some("hello".into()),
        };
        assert_eq!(
            serde_json::to_string(&found).unwrap(),
            r#"{"message_id":"m-1","status":"would_delete","body":"hello"}"#
        );
        let unknown = EntryResult::Unknown {
            code: "Timeout".into(),
            message: "no answer".into(),
        };
        assert_eq!(
            Status::of(&unknown),
            Status::Failed,
            "perhaps done counts as failed"
        );
    }
}
