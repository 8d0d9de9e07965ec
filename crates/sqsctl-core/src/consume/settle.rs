//! How the run loop settles messages: a command's end decides between a delete and a release
//! (after the retry delay, or at once), deletes and releases wait a moment to share a batch call,
//! their answers become [`Outcome`]s, and the heartbeat extends what is still held.

use crate::client::{ChangeVisibility, Delete};
use std::io;
use std::time::Duration;

use tokio::time::Instant;

use super::child::Ending;
use super::outcome::{Outcome, Stopped, Update};
use super::worker::{Event, Worker};
use crate::client::EntryResult;
use crate::consume::{Finished, JobId, retry_delay};
use crate::message::MessageRecord;

/// How long a delete or release may wait for others to share its batch call: a batch of 10 costs
/// SQS one request instead of 10, and a command's slot is free meanwhile.
const LINGER: Duration = Duration::from_millis(10);

/// A delete or release on its way, and what it is for.
#[derive(Debug, Clone)]
pub(super) struct Settle {
    /// The held message it settles; `None` for one never held (filtered out, beyond the limit).
    job: Option<JobId>,
    receipt_handle: String,
    action: Action,
}

impl Settle {
    /// Releases at once a message received and never held.
    pub(super) fn release_unheld(receipt_handle: String) -> Settle {
        Settle {
            job: None,
            receipt_handle,
            action: Action::Release(0),
        }
    }

    /// Deletes a copy of a message the run deleted already.
    pub(super) fn delete_unheld(receipt_handle: String) -> Settle {
        Settle {
            job: None,
            receipt_handle,
            action: Action::Delete,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Delete,
    /// Visible again after this many seconds.
    Release(i32),
}

impl<F: FnMut(Update<'_>) -> io::Result<()>> Worker<F> {
    pub(super) fn exited(&mut self, job: JobId, ending: Ending, took: Duration) {
        self.scheduler.exited(job);
        let Some(handle) = self.holdings.receipt_handle(job).map(str::to_string) else {
            return;
        };
        let receive_count = self.started.get(&job).map_or(1, |s| s.receive_count);
        let action = match &ending {
            Ending::Exited(0) => Action::Delete,
            Ending::Exited(code) if self.plan.release_exit_codes.contains(code) => {
                self.counts.released += 1;
                Action::Release(0)
            }
            Ending::Killed => {
                self.counts.stopped += 1;
                Action::Release(0)
            }
            // The interrupt itself, not `self.interrupted`: the loop may see the command's end
            // before the signal that stops the run.
            ending if self.interrupt.is_set() && ending.by_stop_signal() => {
                self.counts.stopped += 1;
                Action::Release(0)
            }
            Ending::NotStarted(why) => {
                self.counts.stopped += 1;
                self.fail(Stopped::NotStarted(why.clone()));
                Action::Release(0)
            }
            Ending::Exited(_) | Ending::Signaled(_) | Ending::TimedOut => {
                self.counts.failed += 1;
                self.count_failed_message(job, receive_count);
                let delay = retry_delay(
                    self.plan.retry_delay,
                    self.plan.max_retry_delay,
                    receive_count,
                );
                if let Some(started) = self.started.get_mut(&job) {
                    started.retry_in = Some(delay.as_secs());
                }
                Action::Release(i32::try_from(delay.as_secs()).unwrap_or(i32::MAX))
            }
        };
        if let Some(started) = self.started.get_mut(&job) {
            started.ending = Some(ending);
            started.took = took;
        }
        if action != Action::Delete {
            // The group's next messages go back behind this one (FIFO).
            let rest = self.scheduler.settled(job, Finished::NotDeleted);
            self.release_unstarted(rest);
        }
        self.to_settle.push(Settle {
            job: Some(job),
            receipt_handle: handle,
            action,
        });
    }

    pub(super) fn settled(&mut self, entries: Vec<Settle>, results: Vec<EntryResult>) {
        self.settling = self.settling.saturating_sub(1);
        for (settle, result) in entries.into_iter().zip(results) {
            let Some(job) = settle.job else {
                continue;
            };
            self.holdings.forget(job);
            let deleted = settle.action == Action::Delete && result.is_done();
            self.deliveries.settled(job, deleted, Instant::now());
            let Some(started) = self.started.remove(&job) else {
                continue;
            };
            let mut error = None;
            if settle.action == Action::Delete {
                let finished = if result.is_done() {
                    self.counts.deleted += 1;
                    Finished::Deleted
                } else {
                    self.counts.not_deleted += 1;
                    error = result.reason();
                    Finished::NotDeleted
                };
                let rest = self.scheduler.settled(job, finished);
                self.release_unstarted(rest);
            } else if !result.is_done() {
                self.counts.release_failed += 1;
                error = result.reason();
            }
            let outcome = Outcome::new(
                started.message_id,
                started.ending.as_ref(),
                settle.action == Action::Delete && result.is_done(),
                started.took,
                started.receive_count,
                started.retry_in,
                error,
            );
            let answer = (self.update)(Update::Outcome(&outcome));
            self.told(answer);
        }
    }

    /// Releases messages taken out of the scheduler without being run.
    pub(super) fn release_unstarted(&mut self, jobs: Vec<(JobId, MessageRecord)>) {
        for (job, _) in jobs {
            if let Some(handle) = self.holdings.receipt_handle(job) {
                self.counts.returned += 1;
                self.to_settle.push(Settle {
                    job: Some(job),
                    receipt_handle: handle.to_string(),
                    action: Action::Release(0),
                });
            }
        }
    }

    /// Sends the deletes and releases gathered, in batches of 10: at once when there are 10 or the
    /// run is stopping, otherwise once the oldest has waited [`LINGER`] for others.
    pub(super) fn flush(&mut self) {
        if self.to_settle.is_empty() {
            self.settle_by = None;
            return;
        }
        let now = Instant::now();
        let due = *self.settle_by.get_or_insert(now + LINGER);
        if self.to_settle.len() < 10 && !self.stop_receiving && now < due {
            return;
        }
        self.settle_by = None;
        // A release waits for an extension in flight, which would otherwise hide the message again
        // after it; once sent, no extension of it starts.
        let (blocked, pending): (Vec<Settle>, Vec<Settle>) = std::mem::take(&mut self.to_settle)
            .into_iter()
            .partition(|s| {
                s.action != Action::Delete && s.job.is_some_and(|j| self.holdings.is_extending(j))
            });
        if !blocked.is_empty() {
            self.settle_by = Some(now + LINGER);
        }
        // Once the run stops, a receive still in flight would take back what is made visible now
        // (and a copy it took could not be released): releases wait for its answer, which brings
        // the loop back here, and what it brought is released with them.
        let (waiting, pending): (Vec<Settle>, Vec<Settle>) =
            if self.stop_receiving && self.receiving.is_some() {
                pending
                    .into_iter()
                    .partition(|s| s.action == Action::Release(0))
            } else {
                (Vec::new(), pending)
            };
        self.to_settle = blocked;
        self.to_settle.extend(waiting);
        for job in pending.iter().filter_map(|s| s.job) {
            self.holdings.settling(job);
        }
        let (deletes, releases): (Vec<Settle>, Vec<Settle>) = pending
            .into_iter()
            .partition(|s| s.action == Action::Delete);
        for chunk in deletes.chunks(10).chain(releases.chunks(10)) {
            let entries = chunk.to_vec();
            self.settling += 1;
            let (sqs, queue, events) = self.calls();
            let policy = self.settle_policy.clone();
            tokio::spawn(async move {
                let outcome = if entries[0].action == Action::Delete {
                    let handles: Vec<&str> =
                        entries.iter().map(|s| s.receipt_handle.as_str()).collect();
                    sqs.batch_retrying(Delete, &queue, &handles, &policy).await
                } else {
                    let changes: Vec<(&str, i32)> = entries
                        .iter()
                        .map(|s| match s.action {
                            Action::Release(seconds) => (s.receipt_handle.as_str(), seconds),
                            Action::Delete => (s.receipt_handle.as_str(), 0),
                        })
                        .collect();
                    sqs.batch_retrying(ChangeVisibility, &queue, &changes, &policy)
                        .await
                };
                let _ = events
                    .send(Event::Settled {
                        entries,
                        results: outcome.entries,
                    })
                    .await;
            });
        }
    }

    /// The heartbeat: extends the visibility of held messages before it lapses.
    pub(super) fn extend_due(&mut self) {
        let now = Instant::now();
        let due = self.holdings.due(now);
        let seconds = self.holdings.visibility_seconds();
        for chunk in due.chunks(10) {
            let jobs: Vec<JobId> = chunk.iter().map(|(job, _)| *job).collect();
            let handles: Vec<String> = chunk.iter().map(|(_, h)| h.clone()).collect();
            let (sqs, queue, events) = self.calls();
            let policy = self.settle_policy.clone();
            tokio::spawn(async move {
                let changes: Vec<(&str, i32)> =
                    handles.iter().map(|h| (h.as_str(), seconds)).collect();
                let outcome = sqs
                    .batch_retrying(ChangeVisibility, &queue, &changes, &policy)
                    .await;
                let done = outcome.entries.iter().map(EntryResult::is_done).collect();
                let _ = events
                    .send(Event::Extended {
                        jobs,
                        requested_at: now,
                        done,
                    })
                    .await;
            });
        }
    }

    /// Counts the message of a failed run once, however often it failed, and once more among
    /// those released after their last receive (SQS moves it to the dead-letter queue instead of
    /// delivering it again) when this run had its last receive.
    fn count_failed_message(&mut self, job: JobId, receive_count: u64) {
        let Some(id) = self.started.get(&job).map(|s| s.message_id.clone()) else {
            return;
        };
        let last = self
            .dead_letter
            .as_ref()
            .is_some_and(|dl| receive_count >= dl.max_receive_count);
        let counts = &mut self.counts;
        let seen_last = self.failed_messages.entry(id).or_insert_with(|| {
            counts.failed_messages += 1;
            false
        });
        if last && !*seen_last {
            *seen_last = true;
            counts.at_last_receive += 1;
        }
    }
}
