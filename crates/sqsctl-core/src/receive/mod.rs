//! Receiving messages for a writer, optionally deleting each one once its record was delivered.
//!
//! Several receive requests run at once ([`receivers`]) and hand their batches to one writer (the
//! task that calls [`run`]), which gives each batch to the [`Sink`] before handing its receipt
//! handles to the deleters. So a message is deleted only once the sink delivered it; when
//! delivering fails (a closed pipe) or Ctrl-C stops the run, no new request starts, long polls in
//! flight are abandoned, and the batches received but not delivered are made visible again once
//! every receiver has stopped, so that no request of this run can receive a released message a
//! second time (each receive raises its receive count, which a redrive policy turns into a move to
//! the dead-letter queue).
//!
//! With [`ReceiveRequest::one_batch_at_a_time`] (deleting into a pipe, where a reader that stops
//! early loses what sits unread in between), only one batch is out at a time: the sink says how
//! many of the batch its reader took, only those are deleted, and the next batch is received only
//! after that, so a reader that stops early has been handed at most one batch it did not read.
//!
//! A standard queue delivers at least once: a message received a second time by the run (the same
//! message id) is not handed to the sink again but counted apart
//! ([`ReceiveReport::duplicates`]); with `delete` its second receipt handle is deleted too once
//! the message was delivered, and released when it was not.
//!
//! With a selector, the receivers keep only the messages that match and release the others at
//! once; with `follow` they wait out empty long polls until Ctrl-C.
//!
//! A run that does not delete (and does not follow) receives each message at most once: every
//! message it returned comes back when its visibility timeout ends, and a second receive would
//! raise its receive count again (a step toward the dead-letter queue). So its requests are
//! answered before a quarter of that timeout is left ([`ReceiveReport::hold_ran_short`] says when
//! that stopped it), and only an empty long poll says the queue was read to its end
//! ([`ReceiveReport::exhausted`]), never a count of what is visible (it lags on SQS). With a
//! [`ReadCost`], the run counts the messages it left one receive (or none) away from the
//! dead-letter queue.

mod receivers;

use crate::client::Delete;
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::{JoinError, JoinSet};

use crate::client::peek::ReadCost;
use crate::client::{ClientError, QueueRef, RetryPolicy, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::select::{Selector, WhereFailures};
use receivers::{Received, Shared, receipt_handles, receive_loop};

/// What a run receives and when it stops, in finished values.
#[derive(Debug, Clone)]
pub struct ReceivePlan {
    /// `None`: no limit.
    pub max: Option<u64>,
    /// `None`: the queue's own `ReceiveMessageWaitTimeSeconds`.
    pub wait_seconds: Option<i32>,
    pub visibility_timeout: Option<i32>,
    /// Receive until a long poll brings nothing. Without `delete`, only while no message returned
    /// can have come back (see the module documentation).
    pub until_empty: bool,
    /// Receive until Ctrl-C (or `max`), waiting out empty long polls.
    pub follow: bool,
    /// Delete each message once the sink delivered it.
    pub delete: bool,
    /// Receive requests at once (one batch at a time makes it 1).
    pub concurrency: usize,
}

/// One run: the queue, the plan, and how the run reads it.
pub struct ReceiveRequest {
    pub queue: QueueRef,
    pub plan: ReceivePlan,
    /// One batch out at a time, each message deleted only once the sink says its reader took it.
    pub one_batch_at_a_time: bool,
    /// Only the messages that match are delivered; `None` delivers every one.
    pub selector: Option<Selector>,
    /// What each receive costs on a queue with a redrive policy: the run counts the messages it
    /// leaves near the dead-letter queue.
    pub read_cost: Option<ReadCost>,
    pub interrupt: Interrupt,
}

/// Where the received messages go: the writer of a [`run`].
pub trait Sink {
    /// A batch arrived from a receive; told also once delivering has failed.
    fn received(&mut self, _count: usize) {}

    /// Delivers `batch` and says how far it got. A message is deleted (with `delete`) only once
    /// delivered.
    fn deliver(&mut self, batch: &[MessageRecord]) -> impl Future<Output = Delivery>;
}

/// How far a [`Sink::deliver`] got.
#[derive(Debug)]
pub struct Delivery {
    /// How many of the batch's messages, from the first, reached their reader.
    pub delivered: usize,
    /// The error that stopped the writing, if one did.
    pub error: Option<std::io::Error>,
}

/// What a [`run`] did.
#[derive(Debug, Default)]
pub struct ReceiveReport {
    /// Distinct messages received and handed to the sink (duplicate deliveries not included).
    pub received: u64,
    /// Of those, the messages the sink delivered (into a pipe: that its reader took).
    pub delivered: u64,
    /// A long poll came back empty: the queue had nothing more to deliver to this run.
    pub exhausted: bool,
    /// The run stopped receiving before the first message it returned could come back, without
    /// an empty long poll (a run that does not delete).
    pub hold_ran_short: bool,
    /// The visibility timeout that bounded a run that does not delete, in seconds.
    pub hold_seconds: Option<u64>,
    /// With a [`ReadCost`]: messages received whose receive count is now at least
    /// `maxReceiveCount - 1` (their next receive is their last before the dead-letter queue).
    pub near_dead_letter: u64,
    /// Of those, the messages at `maxReceiveCount`: the next receive moves them.
    pub at_limit: u64,
    /// Messages received but not delivered (the writing failed, or the run stopped), made visible
    /// again.
    pub unwritten: u64,
    /// Of those, the ones that could not be made visible again: they return after their
    /// visibility timeout.
    pub release_failed: u64,
    pub deleted: u64,
    /// Delivered but not deleted: they will be delivered again.
    pub delete_failed: u64,
    /// Distinct messages that did not match the selector and were made visible again.
    pub passed_over: u64,
    /// Messages passed over that could not be made visible again.
    pub pass_release_failed: u64,
    /// Receives that failed after SQS may have applied them (hiding their messages until their
    /// visibility timeout).
    pub ambiguous_receives: u64,
    /// Deliveries of a message the run had received already (standard queues deliver at least
    /// once): not delivered again nor counted as messages.
    pub duplicates: u64,
    /// Messages the selector's `where` expression could not be evaluated on.
    pub where_failures: Option<WhereFailures>,
    /// Why delivering stopped: the sink's error, or a broken pipe when its reader took less than
    /// was written (it went away).
    pub write_error: Option<std::io::Error>,
    /// The receive that failed and ended the run.
    pub receive_error: Option<ClientError>,
}

/// Receives from `request.queue` into `sink` until the request says to stop (`max`, an empty
/// queue, Ctrl-C), the sink fails or a receive fails; see the module documentation. The error is
/// one of reading the queue's depth before anything was received; later errors are in the report.
pub async fn run<S: Sink>(
    sqs: &Sqs,
    request: ReceiveRequest,
    sink: &mut S,
) -> Result<ReceiveReport, ClientError> {
    let interrupt = request.interrupt.clone();
    let retry = RetryPolicy::default().stopped_by(interrupt.clone());
    let queue = request.queue.clone();
    let plan = request.plan;
    let max = plan.max;
    // A run that gives back what it received reads each message once: its requests must be
    // answered before the first message it returned can come back.
    let mut hold = None;
    if !plan.delete && !plan.follow {
        let attrs = retry.request(|| sqs.attributes(&queue)).await.result?;
        let seconds = plan
            .visibility_timeout
            .map(|v| v.max(0) as u64)
            .or(attrs.visibility_timeout())
            .unwrap_or(30);
        let queue_wait = attrs.receive_wait_seconds().unwrap_or(0).min(20) as i32;
        hold = Some((seconds, queue_wait));
    }
    let bounded = request.one_batch_at_a_time;
    let read_cost = request.read_cost;
    let shared = Arc::new(Shared {
        sqs: sqs.clone(),
        queue: queue.clone(),
        budget: AtomicU64::new(max.unwrap_or(u64::MAX)),
        done: AtomicBool::new(false),
        halt: watch::channel(false).0,
        interrupt: interrupt.clone(),
        wait_seconds: plan.wait_seconds,
        visibility_timeout: plan.visibility_timeout,
        until_empty: plan.until_empty,
        delete: plan.delete,
        retry: retry.clone(),
        turn: bounded.then(|| Arc::new(Semaphore::new(1))),
        last_ambiguous_receive: Mutex::new(None),
        ambiguous_receives: AtomicU64::new(0),
        selector: request.selector,
        passed_over: Mutex::new(HashSet::new()),
        release_failed: AtomicU64::new(0),
        follow: plan.follow,
        held: Mutex::new(HashMap::new()),
        handed: Mutex::new(HashSet::new()),
        read_once: hold.map(|(seconds, queue_wait)| receivers::ReadOnce {
            // A quarter of the hold is kept in hand, as a scan keeps it.
            answered_by: tokio::time::Instant::now() + Duration::from_millis(seconds * 750),
            queue_wait,
            first_sent: AtomicBool::new(false),
        }),
        hold_ran_short: AtomicBool::new(false),
        exhausted: AtomicBool::new(false),
    });
    let concurrency = if bounded { 1 } else { plan.concurrency.max(1) };
    let (tx, mut rx) = mpsc::channel::<Received>(concurrency);
    let mut receivers: JoinSet<Result<(), ClientError>> = JoinSet::new();
    for _ in 0..concurrency {
        receivers.spawn(receive_loop(shared.clone(), tx.clone()));
    }
    drop(tx);

    let deleters = Arc::new(Semaphore::new(concurrency * 2));
    let mut deletes: JoinSet<(usize, usize)> = JoinSet::new();
    let mut report = ReceiveReport::default();
    // Receipt handles of batches received but not delivered, released only after the receivers
    // stopped: a release while a request is still in flight could hand the same message back.
    let mut to_release: Vec<String> = Vec::new();
    // Ids delivered to the sink, and second deliveries whose first one is not (yet) delivered.
    let mut delivered_ids: HashSet<String> = HashSet::new();
    let mut pending_duplicates: Vec<MessageRecord> = Vec::new();
    // The highest receive count seen of each message, for what the run leaves near the DLQ.
    let mut receive_counts: HashMap<String, u64> = HashMap::new();
    let mut note_counts = |messages: &[MessageRecord]| {
        if read_cost.is_none() {
            return;
        }
        for m in messages {
            if let (Some(id), Some(count)) = (
                m.message_id.as_ref(),
                m.attribute_u64("ApproximateReceiveCount"),
            ) {
                let seen = receive_counts.entry(id.clone()).or_insert(0);
                *seen = (*seen).max(count);
            }
        }
    };
    while let Some(Received {
        batch,
        duplicates,
        turn,
    }) = rx.recv().await
    {
        note_counts(&batch);
        note_counts(&duplicates);
        if !duplicates.is_empty() {
            report.duplicates += duplicates.len() as u64;
            let (settled, pending): (Vec<_>, Vec<_>) = duplicates.into_iter().partition(|m| {
                m.message_id
                    .as_ref()
                    .is_some_and(|id| delivered_ids.contains(id))
            });
            pending_duplicates.extend(pending);
            if plan.delete {
                delete_duplicates(sqs, &queue, &retry, &settled).await;
            }
            continue;
        }
        sink.received(batch.len());
        report.received += batch.len() as u64;
        let mut handles = receipt_handles(&batch);
        if report.write_error.is_none() {
            let delivery = sink.deliver(&batch).await;
            if let Some(err) = delivery.error {
                report.write_error = Some(err);
            } else if delivery.delivered < batch.len() && !interrupt.is_set() {
                report.write_error = Some(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
            }
            if report.write_error.is_some() {
                shared.halt();
            }
            // Finished deletes are collected as they go: a JoinSet keeps every task until it is
            // joined, and a long run has hundreds of thousands.
            while let Some(result) = deletes.try_join_next() {
                report.count_deletes(result);
            }
            let delivered = delivery.delivered.min(batch.len());
            report.delivered += delivered as u64;
            delivered_ids.extend(
                batch[..delivered]
                    .iter()
                    .filter_map(|m| m.message_id.clone()),
            );
            let rest = handles.split_off(delivery.delivered.min(handles.len()));
            if plan.delete && !handles.is_empty() {
                let Ok(permit) = deleters.clone().acquire_owned().await else {
                    unreachable!("the deleters' semaphore is never closed");
                };
                let sqs = sqs.clone();
                let queue = queue.clone();
                let retry = retry.clone();
                deletes.spawn(async move {
                    let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
                    let outcome = sqs.batch_retrying(Delete, &queue, &refs, &retry).await;
                    let failed = outcome.entries.iter().filter(|e| !e.is_done()).count();
                    drop(permit);
                    (refs.len(), failed)
                });
            }
            handles = rest;
        }
        drop(turn);
        report.unwritten += handles.len() as u64;
        to_release.extend(handles);
    }
    while let Some(result) = receivers.join_next().await {
        if let Err(err) = joined(result) {
            report.receive_error.get_or_insert(err);
        }
    }
    // Every receiver has stopped. A second delivery whose first one was delivered is settled like
    // it (deleted with `delete`); one whose first one was not goes back with it.
    let (settled, unsettled): (Vec<_>, Vec<_>) = pending_duplicates.into_iter().partition(|m| {
        m.message_id
            .as_ref()
            .is_some_and(|id| delivered_ids.contains(id))
    });
    if plan.delete {
        delete_duplicates(sqs, &queue, &retry, &settled).await;
    }
    to_release.extend(receipt_handles(&unsettled));
    // Every receiver has stopped (the channel closed only when the last one did): make the
    // undelivered messages visible again now rather than after their visibility timeout.
    // Messages a follow passed over and left hidden go back too; a handle that expired meanwhile
    // (the message came back by itself) fails harmlessly, so those failures are not counted.
    let held: Vec<String> = shared
        .held
        .lock()
        .drain()
        .map(|(_, handle)| handle)
        .collect();
    let held_refs: Vec<&str> = held.iter().map(String::as_str).collect();
    let _ = sqs.release(&queue, &held_refs).await;
    for chunk in to_release.chunks(10) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        report.release_failed += sqs.release(&queue, &refs).await.unwrap_or(refs.len()) as u64;
    }
    while let Some(result) = deletes.join_next().await {
        report.count_deletes(result);
    }
    if let Some(cost) = &read_cost {
        for &count in receive_counts.values() {
            if cost.leaves_near_dead_letter(count) {
                report.near_dead_letter += 1;
                if cost.leaves_at_limit(count) {
                    report.at_limit += 1;
                }
            }
        }
    }
    report.exhausted = shared.exhausted.load(Ordering::SeqCst);
    report.hold_ran_short = !report.exhausted && shared.hold_ran_short.load(Ordering::SeqCst);
    report.hold_seconds = hold.map(|(seconds, _)| seconds);
    report.passed_over = shared.passed_over.lock().len() as u64;
    report.pass_release_failed = shared.release_failed.load(Ordering::Relaxed);
    report.ambiguous_receives = shared.ambiguous_receives.load(Ordering::Relaxed);
    report.where_failures = shared.selector.as_ref().and_then(Selector::where_failures);
    Ok(report)
}

/// Deletes second deliveries of messages already delivered, through their own receipt handles.
/// Either handle deletes a message, and the first one's delete is what the report counts: a
/// failure here leaves nothing behind that the first delete did not already remove.
async fn delete_duplicates(
    sqs: &Sqs,
    queue: &QueueRef,
    retry: &RetryPolicy,
    duplicates: &[MessageRecord],
) {
    let handles = receipt_handles(duplicates);
    for chunk in handles.chunks(10) {
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let _ = sqs.batch_retrying(Delete, queue, &refs, retry).await;
    }
}

impl ReceiveReport {
    fn count_deletes(&mut self, result: Result<(usize, usize), JoinError>) {
        let (count, failed) = joined(result);
        self.deleted += (count - failed) as u64;
        self.delete_failed += failed as u64;
    }
}

/// The result of a task of the run; one that panicked panics the run.
fn joined<T>(result: Result<T, JoinError>) -> T {
    match result {
        Ok(value) => value,
        Err(err) => std::panic::resume_unwind(err.into_panic()),
    }
}
