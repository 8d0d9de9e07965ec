//! The receivers of a [`run`](super::run): several receive requests at once, each reserving its
//! share of the budget first (so `max` is exact), keeping only the messages that match (the others
//! are made visible again at once), and deciding when the queue is empty: only a long poll that
//! brings nothing says so, and with `until_empty` and `delete` not before the messages hidden by a
//! receive that failed after SQS may have applied it have come back.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::time::Instant;

use crate::client::{ClientError, QueueRef, ReceiveOptions, RetryPolicy, Sqs, SystemAttributes};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::select::Selector;

/// How long a long poll in flight when the run stops may still answer before it is abandoned.
const LONG_POLL_LINGER: Duration = Duration::from_millis(250);

/// The longest wait, at the end of `until_empty` with `delete`, for messages that a failed receive
/// may have hidden: their visibility timeout, when it is not longer than this.
const MAX_HIDDEN_WAIT: Duration = Duration::from_secs(120);

/// State shared by the receivers.
pub(super) struct Shared {
    pub sqs: Sqs,
    pub queue: QueueRef,
    /// Messages still to receive; each request reserves its share first, so `max` is exact.
    pub budget: AtomicU64,
    pub done: AtomicBool,
    /// Set when the writer failed (a closed pipe): receivers stop and abandon long polls.
    pub halt: watch::Sender<bool>,
    pub interrupt: Interrupt,
    pub wait_seconds: Option<i32>,
    pub visibility_timeout: Option<i32>,
    pub until_empty: bool,
    pub delete: bool,
    pub retry: RetryPolicy,
    /// One batch at a time: one permit, taken before a receive and given back once the batch was
    /// written and read, so only one batch is out at a time.
    pub turn: Option<Arc<Semaphore>>,
    /// When the last receive failed after SQS may have applied it (hiding its messages).
    pub last_ambiguous_receive: Mutex<Option<Instant>>,
    /// Receives that failed after SQS may have applied them.
    pub ambiguous_receives: AtomicU64,
    /// The filters; messages that do not match are released at once.
    pub selector: Option<Selector>,
    /// Ids of the messages passed over so far: one that comes back is not new, and is left hidden.
    pub passed_over: Mutex<HashSet<String>>,
    /// Messages passed over that could not be released.
    pub release_failed: AtomicU64,
    /// Receive until Ctrl-C.
    pub follow: bool,
    /// With `follow`: the latest receipt handle of each message passed over more than once, left
    /// hidden while the run lasts and released when it ends.
    pub held: Mutex<HashMap<String, String>>,
    /// Ids of the messages handed to the writer so far: a standard queue delivers at least once,
    /// and a message that comes again is a duplicate delivery, not a new message.
    pub handed: Mutex<HashSet<String>>,
    /// A run that gives back what it received: when its requests must be answered by.
    pub read_once: Option<ReadOnce>,
    /// The run stopped because no request could be answered in time ([`ReadOnce`]).
    pub hold_ran_short: AtomicBool,
    /// A long poll came back with nothing: the queue had nothing more for this run.
    pub exhausted: AtomicBool,
}

/// How a run that does not delete reads each message once: every request is answered before
/// `answered_by`, a quarter of the visibility timeout before the first message it returned could
/// come back and be received a second time.
pub(super) struct ReadOnce {
    pub answered_by: Instant,
    /// The queue's `ReceiveMessageWaitTimeSeconds`, the wait of a request that names none.
    pub queue_wait: i32,
    /// The run's first request has gone (see [`ReadOnce::request_wait`]).
    pub first_sent: AtomicBool,
}

impl ReadOnce {
    /// The wait of the next request of the run, which wants `wait`; `None` when no request can
    /// start any more. The run's first request always goes, as a long poll unless `--wait 0` asks
    /// for a short one (a short poll samples and says nothing of an empty queue): a hold too short
    /// for any other request (`--visibility 0`) still reads what one request can, or finds the
    /// queue empty.
    fn request_wait(&self, wait: Option<i32>) -> Option<i32> {
        if !self.first_sent.swap(true, Ordering::SeqCst) {
            return Some(wait.unwrap_or(self.queue_wait.max(1)));
        }
        self.wait_now(wait)
    }

    /// The wait a request may have that starts now and wants `wait`: `None` when no request can
    /// start any more (or only a short poll could, where a long poll was wanted: a short poll
    /// samples and says nothing of an empty queue).
    fn wait_now(&self, wait: Option<i32>) -> Option<i32> {
        let wanted = wait.unwrap_or(self.queue_wait).max(0);
        let left = self.answered_by.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        let fits = i32::try_from(left.as_secs()).unwrap_or(i32::MAX);
        match wanted.min(fits) {
            0 if wanted > 0 => None,
            wait => Some(wait),
        }
    }
}

/// A batch on its way to the writer, with the turn its receiver took (one batch at a time).
pub(super) struct Received {
    pub batch: Vec<MessageRecord>,
    /// Messages of this receive already handed over by an earlier one (delivered twice).
    pub duplicates: Vec<MessageRecord>,
    pub turn: Option<OwnedSemaphorePermit>,
}

pub(super) fn receipt_handles(batch: &[MessageRecord]) -> Vec<String> {
    batch
        .iter()
        .filter_map(|m| m.receipt_handle.clone())
        .collect()
}

impl Shared {
    fn reserve(&self) -> u64 {
        let mut current = self.budget.load(Ordering::SeqCst);
        loop {
            let take = current.min(10);
            if take == 0 {
                return 0;
            }
            match self.budget.compare_exchange(
                current,
                current - take,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => return take,
                Err(actual) => current = actual,
            }
        }
    }

    fn give_back(&self, count: u64) {
        if count > 0 {
            self.budget.fetch_add(count, Ordering::SeqCst);
        }
    }

    fn stopped(&self) -> bool {
        self.done.load(Ordering::SeqCst) || *self.halt.borrow() || self.interrupt.is_set()
    }

    pub fn halt(&self) {
        self.done.store(true, Ordering::SeqCst);
        self.halt.send_replace(true);
    }

    /// Resolves once the run is halted (closed pipe) or interrupted (Ctrl-C).
    async fn halted(&self) {
        let mut halt = self.halt.subscribe();
        tokio::select! {
            _ = halt.wait_for(|halted| *halted) => {}
            () = self.interrupt.wait() => {}
        }
    }

    /// The messages of `batch` that match; the others are made visible again at once (through
    /// the client's batch call), for other consumers. The flag says whether the batch held nothing
    /// new at all (only messages passed over before), which ends a run that does not follow. A
    /// run that follows leaves a message it passed over before hidden instead of releasing it
    /// again, so that it reads it at most once per visibility timeout rather than again and again
    /// (each receive raises its receive count).
    async fn keep_matching(
        &self,
        selector: &Selector,
        batch: Vec<MessageRecord>,
    ) -> (Vec<MessageRecord>, bool) {
        let received = batch.len();
        let mut seen_again = 0;
        let mut release = Vec::new();
        let mut kept = Vec::with_capacity(batch.len());
        for message in batch {
            if selector.matches(&message) {
                kept.push(message);
                continue;
            }
            let new = match &message.message_id {
                Some(id) => self.passed_over.lock().insert(id.clone()),
                None => true,
            };
            if !new {
                seen_again += 1;
                if self.follow {
                    if let (Some(id), Some(handle)) = (message.message_id, message.receipt_handle) {
                        self.held.lock().insert(id, handle);
                    }
                    continue;
                }
            }
            if let Some(handle) = message.receipt_handle {
                release.push(handle);
            }
        }
        if !release.is_empty() {
            let refs: Vec<&str> = release.iter().map(String::as_str).collect();
            let failed = self
                .sqs
                .release(&self.queue, &refs)
                .await
                .unwrap_or(refs.len());
            self.release_failed
                .fetch_add(failed as u64, Ordering::Relaxed);
        }
        (kept, seen_again == received)
    }

    /// Splits `batch` into the messages not handed to the writer before and those that were (a
    /// second delivery of the same message id).
    fn split_duplicates(
        &self,
        batch: Vec<MessageRecord>,
    ) -> (Vec<MessageRecord>, Vec<MessageRecord>) {
        let mut handed = self.handed.lock();
        batch.into_iter().partition(|m| {
            m.message_id
                .as_ref()
                .is_none_or(|id| handed.insert(id.clone()))
        })
    }

    /// Until when messages hidden by a receive that failed after SQS may have applied it can still
    /// come back, if that is worth waiting for (`until_empty` with `delete`, a visibility timeout
    /// not longer than [`MAX_HIDDEN_WAIT`]).
    fn hidden_until(&self, queue_visibility: Option<u64>) -> Option<Instant> {
        if !(self.until_empty && self.delete) {
            return None;
        }
        let failed_at = (*self.last_ambiguous_receive.lock())?;
        let visibility = self
            .visibility_timeout
            .map(|v| v.max(0) as u64)
            .or(queue_visibility)?;
        let visibility = Duration::from_secs(visibility);
        (visibility <= MAX_HIDDEN_WAIT).then(|| failed_at + visibility + Duration::from_secs(1))
    }
}

/// One receiver: reserves its share of the budget, receives, hands the batch to the writer.
pub(super) async fn receive_loop(
    shared: Arc<Shared>,
    tx: mpsc::Sender<Received>,
) -> Result<(), ClientError> {
    let mut wait = shared.wait_seconds;
    loop {
        if shared.stopped() {
            return Ok(());
        }
        // A run that gives back what it received asks only what can be answered before the
        // first message returned could come back.
        let request_wait = match &shared.read_once {
            Some(read_once) => match read_once.request_wait(wait) {
                Some(wait) => Some(wait),
                None => {
                    shared.hold_ran_short.store(true, Ordering::SeqCst);
                    shared.done.store(true, Ordering::SeqCst);
                    return Ok(());
                }
            },
            None => wait,
        };
        let turn = match &shared.turn {
            Some(turn) => tokio::select! {
                permit = turn.clone().acquire_owned() => permit.ok(),
                () = shared.halted() => return Ok(()),
            },
            None => None,
        };
        if shared.stopped() {
            return Ok(());
        }
        let want = shared.reserve();
        if want == 0 {
            return Ok(());
        }
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: request_wait,
            visibility_timeout: shared.visibility_timeout,
        };
        // A short poll is left to finish on Ctrl-C or a closed pipe, so what it received is
        // written or released rather than left hidden until its visibility timeout; a long poll
        // is abandoned, since it most likely holds nothing yet, but only after a moment: an
        // answer already on its way (messages that arrived as the run stopped, or, with filters,
        // a message another request just released) is taken and released.
        let request = shared.sqs.receive_retrying(
            &shared.queue,
            options,
            SystemAttributes::All,
            &shared.retry,
        );
        tokio::pin!(request);
        let outcome = if request_wait == Some(0) {
            request.await
        } else {
            tokio::select! {
                outcome = &mut request => outcome,
                () = shared.halted() => {
                    match tokio::time::timeout(LONG_POLL_LINGER, &mut request).await {
                        Ok(outcome) => outcome,
                        Err(_) => {
                            shared.give_back(want);
                            return Ok(());
                        }
                    }
                }
            }
        };
        if outcome.ambiguous > 0 {
            shared
                .ambiguous_receives
                .fetch_add(u64::from(outcome.ambiguous), Ordering::Relaxed);
            *shared.last_ambiguous_receive.lock() = Some(Instant::now());
        }
        let batch = match outcome.result {
            Ok(batch) => batch,
            Err(err) => {
                shared.give_back(want);
                shared.done.store(true, Ordering::SeqCst);
                return Err(err);
            }
        };
        let received_some = !batch.is_empty();
        let (batch, nothing_new) = match &shared.selector {
            Some(selector) if !batch.is_empty() => shared.keep_matching(selector, batch).await,
            _ => (batch, false),
        };
        let (batch, duplicates) = shared.split_duplicates(batch);
        shared.give_back(want.saturating_sub(batch.len() as u64));
        if nothing_new && !shared.follow {
            // Every message received was passed over before: the queue has nothing new.
            shared.exhausted.store(true, Ordering::SeqCst);
            shared.done.store(true, Ordering::SeqCst);
            return Ok(());
        }
        if !duplicates.is_empty() {
            let duplicates = Received {
                batch: Vec::new(),
                duplicates,
                turn: None,
            };
            if tx.send(duplicates).await.is_err() {
                return Ok(());
            }
        }
        if batch.is_empty() && received_some {
            // Only messages that do not match, or delivered before, came: the queue is not
            // empty, look again.
            continue;
        }
        if batch.is_empty() && shared.follow {
            continue;
        }
        if batch.is_empty() {
            // A short poll samples some of SQS's servers and can come back empty from a queue
            // that holds messages: only a long poll that brings nothing says the queue is empty.
            // Without a wait the queue's own setting applied, which may have been a short poll.
            if request_wait.is_none_or(|w| w <= 0) {
                wait = Some(1);
                continue;
            }
            if !shared.until_empty || shared.last_ambiguous_receive.lock().is_none() {
                shared.exhausted.store(true, Ordering::SeqCst);
                shared.done.store(true, Ordering::SeqCst);
                return Ok(());
            }
            let attrs = shared
                .retry
                .request(|| shared.sqs.attributes(&shared.queue))
                .await
                .result?;
            if attrs.visible() == 0 {
                // Messages hidden by a receive that failed after SQS applied it come back when
                // their visibility timeout ends: wait for them rather than leave them behind.
                let hidden = shared.hidden_until(attrs.visibility_timeout());
                if !(attrs.in_flight() > 0 && hidden.is_some_and(|until| Instant::now() < until)) {
                    shared.exhausted.store(true, Ordering::SeqCst);
                    shared.done.store(true, Ordering::SeqCst);
                    return Ok(());
                }
            }
            wait = Some(1);
            continue;
        }
        wait = shared.wait_seconds;
        let received = Received {
            batch,
            duplicates: Vec::new(),
            turn,
        };
        if let Err(unsent) = tx.send(received).await {
            // The writer is gone: put the messages back.
            let handles = receipt_handles(&unsent.0.batch);
            let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
            let _ = shared.sqs.release(&shared.queue, &refs).await;
            return Ok(());
        }
    }
}
