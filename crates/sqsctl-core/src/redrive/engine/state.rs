//! The state the workers of one run share: the plan, the compiled selection, the journal and
//! archive, the limit's claims, the ids already seen, the held receipt handles and the failures. It
//! holds no logic of its own beyond claiming toward the limit and recording what went wrong.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;

use super::summary::{Counters, FailedMessage};
use super::twins::Deliveries;
use crate::client::{
    BatchOutcome, ChangeVisibility, MAX_BATCH_ENTRIES, RetryPolicy, Sqs, SystemAttributes,
};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::redrive::archive::Archive;
use crate::redrive::ids::{IdLog, IdSet};
use crate::redrive::journal::Journal;
use crate::redrive::plan::Plan;
use crate::redrive::rate::RateLimiter;
use crate::redrive::rewrite::Rewriter;
use crate::select::Selector;

/// Failures kept in the summary (all are in the journal).
pub(super) const MAX_REPORTED_FAILURES: usize = 100;
pub(super) struct Shared {
    pub(super) sqs: Sqs,
    /// The destination's own client (another region, account or endpoint); `None`: `sqs`.
    pub(super) to_sqs: Option<Sqs>,
    pub(super) plan: Plan,
    pub(super) selector: Selector,
    /// What each selected message becomes before it is sent.
    pub(super) rewriter: Rewriter,
    /// The digests of rewritten messages earlier runs of the journal may have sent (see
    /// [`crate::redrive::ResumeState::digests`]).
    pub(super) journaled_digests: std::collections::HashMap<String, String>,
    pub(super) limiter: Option<RateLimiter>,
    pub(super) journal: Option<Journal>,
    pub(super) archive: Option<Archive>,
    pub(super) counters: Arc<Counters>,
    pub(super) interrupt: Interrupt,
    /// Messages claimed toward `--limit`.
    pub(super) claimed: AtomicU64,
    pub(super) limit_reached: AtomicBool,
    /// A copy stopped because the DLQ holds its limit of messages in flight (see
    /// [`Summary::in_flight_limit`](super::Summary::in_flight_limit)).
    pub(super) in_flight_limit: AtomicBool,
    pub(super) stop: AtomicBool,
    /// Workers holding a received batch.
    pub(super) processing: AtomicUsize,
    /// A worker found the DLQ empty while no batch was being processed: this round is over.
    pub(super) drained: AtomicBool,
    /// Batches finished (what the adaptive mode counts).
    pub(super) completions: AtomicU64,
    /// When the last batch was finished with, in microseconds since `epoch`: a poll that came
    /// back empty says nothing of a batch finished after its wait (see [`Shared::covers`]).
    pub(super) last_done_us: AtomicU64,
    /// The run's clock, for `last_done_us`.
    pub(super) epoch: std::time::Instant,
    /// Sent by an earlier run and not yet deleted.
    pub(super) pending_journal_deletes: AtomicU64,
    /// Confirmed sent (by an earlier run, or now with a failed delete): delete, never send again.
    pub(super) sent_before: Mutex<IdSet>,
    /// Not matching, already counted.
    pub(super) skipped_seen: Mutex<IdSet>,
    /// Destination ids of the messages sent (by this run or, per the journal, an earlier one).
    pub(super) sent_as: Mutex<IdLog>,
    /// Left as arriving later, already counted.
    pub(super) later_seen: Mutex<IdSet>,
    pub(super) sent_before_ms: Option<u64>,
    /// Moved ones since the start of the journal, for its `completed` line.
    pub(super) moved_before: u64,
    /// An archive write failed: nothing more is deleted.
    pub(super) archive_failed: AtomicBool,
    /// Ids named with `--message-id` that were received.
    pub(super) named_seen: Mutex<IdSet>,
    /// Copying a FIFO DLQ: the groups whose messages ended a full receive, so that more of them
    /// may wait behind what the run holds.
    pub(super) cut_groups: Mutex<std::collections::HashSet<String>>,
    /// Could not be sent in this run, or (copying) sent already: not tried again.
    pub(super) parked: Mutex<IdSet>,
    /// What the run took on, to tell a second delivery of a message from a new one.
    pub(super) deliveries: Mutex<Deliveries>,
    /// Messages kept hidden until the run ends (not matching, failed, over the limit, waiting
    /// for `--rate` at Ctrl-C), then made visible again.
    pub(super) held: Mutex<Vec<Held>>,
    pub(super) failures: Mutex<(Vec<FailedMessage>, u64)>,
    pub(super) fatal: Mutex<Option<String>>,
    /// Workers allowed to work now: those with a lower index work, the others wait.
    pub(super) active: AtomicUsize,
    /// Wakes waiting workers when `active` grows.
    pub(super) wake: tokio::sync::Notify,
    /// How receives are retried (Ctrl-C stops the retries).
    pub(super) receive_policy: RetryPolicy,
    /// The system attributes each receive asks for.
    pub(super) receive_attributes: SystemAttributes,
    /// Receives that may have hidden messages without returning them (see [`Shared::lost_receive`]).
    pub(super) lost_receives: AtomicU64,
    /// When the messages those receives may have hidden are visible again at the latest (ms
    /// since the epoch; 0 when there were none).
    pub(super) lost_until_ms: AtomicU64,
}

/// What the engine reads of a message besides its body and message attributes: the trace header
/// and the group id it keeps (a FIFO group, or a fair standard queue's tenant), on FIFO queues the
/// deduplication id, and the send time when it is needed
/// (`--older-than`, `--newer-than`, a resumed run's bound). `--where` may read any attribute, and
/// the archive keeps them all: then every one is asked for.
pub(super) fn receive_attributes(plan: &Plan, bounded_in_time: bool) -> SystemAttributes {
    let selection = &plan.selection;
    let timed =
        bounded_in_time || selection.sent_before_ms.is_some() || selection.sent_after_ms.is_some();
    if selection.where_expr.is_some() || plan.archive.is_some() {
        return SystemAttributes::All;
    }
    SystemAttributes::Only(match (plan.fifo, timed) {
        (true, true) => &[
            "AWSTraceHeader",
            "MessageGroupId",
            "MessageDeduplicationId",
            "SentTimestamp",
        ],
        (true, false) => &["AWSTraceHeader", "MessageGroupId", "MessageDeduplicationId"],
        (false, true) => &["AWSTraceHeader", "MessageGroupId", "SentTimestamp"],
        (false, false) => &["AWSTraceHeader", "MessageGroupId"],
    })
}

impl Shared {
    /// Sets the visibility timeout of source messages held by this run (seconds per handle),
    /// under the default retry policy.
    pub(super) async fn change_visibility(&self, entries: &[(&str, i32)]) -> BatchOutcome {
        let (source, policy) = (&self.plan.source, RetryPolicy::default());
        self.sqs
            .batch_retrying(ChangeVisibility, source, entries, &policy)
            .await
    }

    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || self.interrupt.is_set()
    }

    /// Whether a message is not one the run is about: sent after a resumed run's start, or a
    /// message this run moved that failed again and came back (standard queues keep the id that
    /// the destination gave it).
    pub(super) fn arrived_later(&self, message: &MessageRecord) -> bool {
        if self.sent_as.lock().contains(message_id(message)) {
            return true;
        }
        let sent_at = message
            .attributes
            .get("SentTimestamp")
            .and_then(|t| t.parse::<u64>().ok());
        matches!((self.sent_before_ms, sent_at), (Some(bound), Some(at)) if at > bound)
    }

    /// Waits while worker `index` is beyond the run's concurrency; false once the round is over.
    pub(super) async fn wait_turn(&self, index: usize) -> bool {
        loop {
            if self.round_over() {
                return false;
            }
            if index < self.active.load(Ordering::SeqCst) {
                return true;
            }
            // The round's end is not announced: look again now and then.
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(std::time::Duration::from_millis(100)) => {}
            }
        }
    }

    /// A batch is finished with (moved, left, or abandoned).
    pub(super) fn batch_done(&self) {
        let now = self.epoch.elapsed().as_micros() as u64;
        self.last_done_us.fetch_max(now, Ordering::SeqCst);
        self.completions.fetch_add(1, Ordering::SeqCst);
        self.processing.fetch_sub(1, Ordering::SeqCst);
    }

    /// Whether a long poll sent at `sent` that waited `wait` and came back empty at `returned`
    /// shows the round is over (see [`saw_the_end`]).
    pub(super) fn covers(
        &self,
        sent: std::time::Instant,
        wait: std::time::Duration,
        returned: std::time::Instant,
    ) -> bool {
        let us =
            |at: std::time::Instant| at.saturating_duration_since(self.epoch).as_micros() as u64;
        saw_the_end(
            us(sent),
            wait.as_micros() as u64,
            us(returned),
            self.last_done_us.load(Ordering::SeqCst),
            self.processing.load(Ordering::SeqCst),
        )
    }

    pub(super) fn round_over(&self) -> bool {
        self.stopping() || self.drained.load(Ordering::SeqCst)
    }

    pub(super) fn fail(&self, message: String) {
        let mut fatal = self.fatal.lock();
        if fatal.is_none() {
            *fatal = Some(message);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Counts `count` receives that may have hidden messages in the DLQ without returning them: an
    /// attempt whose answer was lost (the retry that followed got other messages), or a receive
    /// given up when the grace period after Ctrl-C ran out. Whatever they hid comes back when the
    /// visibility timeout ends; the journal says when, so that `--resume` waits for it.
    pub(super) fn lost_receive(&self, count: u32) {
        if count == 0 {
            return;
        }
        let until = hidden_until_ms(self.plan.visibility_timeout);
        self.lost_receives
            .fetch_add(u64::from(count), Ordering::Relaxed);
        self.lost_until_ms.fetch_max(until, Ordering::Relaxed);
        journal_note(
            self,
            crate::redrive::journal::line(
                "lost_receive",
                &serde_json::json!({ "count": count, "until_ms": until }),
            ),
        );
    }

    pub(super) fn report(&self, failure: FailedMessage) {
        let mut failures = self.failures.lock();
        failures.1 += 1;
        if failures.0.len() < MAX_REPORTED_FAILURES {
            failures.0.push(failure);
        }
    }

    /// Claims up to `n` messages toward the limit; returns how many may move.
    pub(super) fn claim(&self, n: usize) -> usize {
        let Some(limit) = self.plan.limit else {
            return n;
        };
        let mut current = self.claimed.load(Ordering::SeqCst);
        loop {
            let grant = (limit.saturating_sub(current)).min(n as u64);
            match self.claimed.compare_exchange(
                current,
                current + grant,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => {
                    if current + grant >= limit {
                        self.limit_reached.store(true, Ordering::SeqCst);
                    }
                    return grant as usize;
                }
                Err(now) => current = now,
            }
        }
    }

    /// How many messages the next receive may ask for.
    pub(super) fn wanted(&self) -> usize {
        let mut want = MAX_BATCH_ENTRIES;
        if let Some(limiter) = &self.limiter {
            want = want.min(limiter.batch());
        }
        if let Some(limit) = self.plan.limit {
            let left = limit.saturating_sub(self.claimed.load(Ordering::SeqCst));
            // Past the limit, a resumed run still looks for the messages its journal shows as
            // sent but not deleted.
            if left > 0 || self.pending_journal_deletes.load(Ordering::SeqCst) == 0 {
                want = want.min(left as usize);
            }
        }
        want
    }
}

/// A message kept hidden until the run ends.
pub(super) struct Held {
    pub(super) handle: String,
    /// Its id when the journal shows it in flight: its release, once SQS confirms it, is
    /// journaled, so that `--resume` knows not to wait for it.
    pub(super) id: Option<String>,
    /// Its message group: a copy from a FIFO DLQ makes visible again, between passes, only the
    /// messages of groups whose receive may have stopped short (see `run`).
    pub(super) group: Option<String>,
}

impl Held {
    /// A message the journal does not track (not one the run moves).
    pub(super) fn untracked(message: &MessageRecord) -> Held {
        Held {
            handle: handle(message).to_string(),
            id: None,
            group: message.group_id.clone(),
        }
    }

    /// A message the journal shows in flight.
    pub(super) fn tracked(message: &MessageRecord) -> Held {
        Held {
            handle: handle(message).to_string(),
            id: Some(message_id(message).to_string()),
            group: message.group_id.clone(),
        }
    }
}

/// When a message hidden now for `seconds` becomes visible again at the latest (ms since the
/// epoch): taken after SQS was asked, so never earlier than SQS's own deadline.
pub(super) fn hidden_until_ms(seconds: i32) -> u64 {
    now_ms() + u64::try_from(seconds).unwrap_or(0) * 1000
}

/// The time now, in ms since the epoch: the clock of the journal's deadlines.
pub(super) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

pub(super) fn message_id(message: &MessageRecord) -> &str {
    message.message_id.as_deref().unwrap_or_default()
}

pub(super) fn handle(message: &MessageRecord) -> &str {
    message.receipt_handle.as_deref().unwrap_or_default()
}

/// Appends to the journal and returns once the lines are on disk; false when that failed, which
/// stops the run.
pub(super) async fn journal_sync(shared: &Shared, bytes: Vec<u8>) -> bool {
    journal_wait(shared, bytes, true).await
}

/// Appends to the journal and waits until the lines are written to the file (not synced); false
/// (and the run stops) when they could not be.
pub(super) async fn journal_write(shared: &Shared, bytes: Vec<u8>) -> bool {
    journal_wait(shared, bytes, false).await
}

async fn journal_wait(shared: &Shared, bytes: Vec<u8>, durable: bool) -> bool {
    let Some(journal) = &shared.journal else {
        return true;
    };
    let written = if durable {
        journal.sync(bytes).await
    } else {
        journal.write(bytes).await
    };
    match written {
        Ok(()) => true,
        Err(e) => {
            shared.fail(format!(
                "the journal {} could not be written: {e}",
                journal.path().display()
            ));
            false
        }
    }
}

/// Appends to the journal without waiting: the lines go to disk in order, with the next synced
/// ones, whose write reports a failure.
pub(super) fn journal_note(shared: &Shared, bytes: Vec<u8>) {
    if let Some(journal) = &shared.journal
        && let Err(e) = journal.note(bytes)
    {
        shared.fail(format!(
            "the journal {} could not be written: {e}",
            journal.path().display()
        ));
    }
}

/// Whether an empty long poll (sent, its wait and its answer at these microseconds of the run)
/// ends the round, the last batch having finished at `last_done_us` and `processing` batches
/// being moved now: none is, and every batch finished before the poll's wait ran out. A batch
/// finished during the wait made visible what it was going to (a FIFO group's next message,
/// released messages) while the poll waited, and the poll would have returned it; one finished
/// after the wait may not have. A poll answered before its wait was out covers only what had
/// finished before it was sent.
fn saw_the_end(
    sent_us: u64,
    wait_us: u64,
    returned_us: u64,
    last_done_us: u64,
    processing: usize,
) -> bool {
    let waited_out = returned_us >= sent_us + wait_us;
    let covered_us = if waited_out {
        sent_us + wait_us
    } else {
        sent_us
    };
    processing == 0 && last_done_us <= covered_us
}

#[cfg(test)]
mod tests {
    use super::saw_the_end;

    const SECOND: u64 = 1_000_000;

    #[test]
    fn a_batch_finished_during_the_wait_is_covered_by_the_poll() {
        // Sent at 10 s, waited 1 s, answered at 11.005 s; the last batch finished at 10.5 s.
        assert!(saw_the_end(
            10 * SECOND,
            SECOND,
            11 * SECOND + 5_000,
            10 * SECOND + 500_000,
            0
        ));
    }

    #[test]
    fn a_batch_finished_after_the_wait_needs_another_poll() {
        // The answer came late (11.2 s) and the batch finished at 11.1 s, after the wait ran out.
        assert!(!saw_the_end(
            10 * SECOND,
            SECOND,
            11 * SECOND + 200_000,
            11 * SECOND + 100_000,
            0
        ));
    }

    #[test]
    fn a_batch_still_being_moved_needs_another_poll() {
        assert!(!saw_the_end(
            10 * SECOND,
            SECOND,
            11 * SECOND,
            9 * SECOND,
            1
        ));
    }

    #[test]
    fn a_poll_answered_early_covers_only_what_finished_before_it_was_sent() {
        let (sent, returned) = (10 * SECOND, 10 * SECOND + 300_000);
        assert!(saw_the_end(sent, SECOND, returned, sent - 1, 0));
        assert!(!saw_the_end(sent, SECOND, returned, sent + 100_000, 0));
    }
}
