//! The run loop: `concurrency` workers, each receiving a batch from the DLQ, choosing what moves,
//! sending it, journaling the outcome and deleting what was confirmed, until the DLQ has nothing
//! more to give, the limit is reached, or Ctrl-C. See the module documentation of `redrive` for the
//! safety rules; this file is where they are kept.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde::Serialize;
use serde_json::json;

use super::RedriveError;
use super::archive::Archive;
use super::ids::IdSet;
use super::journal::{Journal, ResumeState, line};
use super::plan::{DedupMode, Plan};
use super::rate::RateLimiter;
use super::select::Selector;
use super::send::{self, Sent};
use crate::client::{MAX_BATCH_ENTRIES, ReceiveOptions, RetryPolicy, Sqs, backoff, is_transient};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;

/// Failures kept in the summary (all are in the journal).
const MAX_REPORTED_FAILURES: usize = 100;
/// Consecutive failed receives (after the SDK's own retries) before the run gives up.
const MAX_RECEIVE_ERRORS: u32 = 8;
/// Rounds of workers: a round ends when the DLQ looks empty; another starts if it was not.
const MAX_ROUNDS: usize = 3;

/// Live counts, for progress bars and the summary.
#[derive(Debug, Default)]
pub struct Counters {
    /// Messages received from the DLQ (a message seen twice counts twice).
    pub received: AtomicU64,
    /// Messages that matched the selection and were sent or tried.
    pub selected: AtomicU64,
    /// Sent and deleted from the DLQ.
    pub moved: AtomicU64,
    /// Not matching the selection: left in the DLQ.
    pub skipped: AtomicU64,
    /// Could not be sent: left in the DLQ.
    pub failed: AtomicU64,
    /// Sent, but the DLQ copy could not be deleted.
    pub delete_failed: AtomicU64,
    /// Sent by an earlier run (per the journal) and deleted now, without sending again.
    pub completed_from_journal: AtomicU64,
    /// Not part of the run: sent after a resumed run's start, or moved by this run and back in
    /// the DLQ since. Left in the DLQ.
    pub arrived_later: AtomicU64,
    /// Abandoned when the grace period after Ctrl-C ran out before their send was answered: they
    /// may or may not have been sent.
    pub outcome_unknown: AtomicU64,
    /// Entries sent or deleted again after SQS failed them, one by one or as a whole request.
    pub retries: AtomicU64,
}

impl Counters {
    fn add(counter: &AtomicU64, n: usize) {
        counter.fetch_add(n as u64, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// A message left in the DLQ, and why.
#[derive(Debug, Clone, Serialize)]
pub struct FailedMessage {
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    pub reason: String,
}

/// How a run ended.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub source: String,
    pub destination: String,
    pub selected: u64,
    pub moved: u64,
    pub skipped: u64,
    pub failed: u64,
    pub delete_failed: u64,
    pub completed_from_journal: u64,
    /// Left in the DLQ as not part of the run (see [`Counters::arrived_later`]).
    pub arrived_later: u64,
    /// Abandoned with their send unanswered when the grace period after Ctrl-C ran out.
    pub outcome_unknown: u64,
    pub retries: u64,
    /// Messages visible in the DLQ at the end.
    pub left_visible: u64,
    /// Messages in flight in the DLQ at the end (held by another consumer, or by a receive whose
    /// answer was lost); they become visible when their visibility timeout ends.
    pub left_in_flight: u64,
    /// Held messages that could not be made visible again (they come back by themselves).
    pub release_failed: u64,
    pub limit_reached: bool,
    pub interrupted: bool,
    pub seconds: f64,
    pub messages_per_second: f64,
    /// The first failures (every one is in the journal).
    pub failures: Vec<FailedMessage>,
    /// Ids named with `--message-id` that were not seen in the DLQ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
    /// Set when the run stopped on an error (the summary still says what was done).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Summary {
    /// True when every selected message reached the destination and left the DLQ.
    pub fn complete(&self) -> bool {
        self.failed == 0
            && self.delete_failed == 0
            && self.outcome_unknown == 0
            && self.not_found.is_empty()
            && self.error.is_none()
            && !self.interrupted
            && (self.limit_reached || self.left_in_flight == 0)
    }
}

/// What a run needs besides the plan.
pub struct RunOptions {
    pub journal: Option<Journal>,
    pub archive: Option<Archive>,
    /// What an earlier run of the same journal already did.
    pub resume: ResumeState,
    /// Leave in the DLQ the messages whose `SentTimestamp` is later than this (ms since the
    /// epoch): a resumed run's bound on new arrivals.
    pub sent_before_ms: Option<u64>,
    pub counters: Arc<Counters>,
    pub interrupt: Interrupt,
}

struct Shared {
    sqs: Sqs,
    plan: Plan,
    selector: Selector,
    limiter: Option<RateLimiter>,
    journal: Option<Journal>,
    archive: Option<Archive>,
    counters: Arc<Counters>,
    interrupt: Interrupt,
    /// Messages claimed toward `--limit`.
    claimed: AtomicU64,
    limit_reached: AtomicBool,
    stop: AtomicBool,
    /// Workers holding a received batch.
    processing: AtomicUsize,
    /// A worker found the DLQ empty while no batch was being processed: this round is over.
    drained: AtomicBool,
    /// Batches finished, so an idle worker can tell whether anything changed while it polled.
    completions: AtomicU64,
    /// Sent by an earlier run and not yet deleted.
    pending_journal_deletes: AtomicU64,
    /// Confirmed sent (by an earlier run, or now with a failed delete): delete, never send again.
    sent_before: Mutex<IdSet>,
    /// Not matching, already counted.
    skipped_seen: Mutex<IdSet>,
    /// Destination ids of the messages sent (by this run or, per the journal, an earlier one).
    sent_as: Mutex<IdSet>,
    /// Left as arriving later, already counted.
    later_seen: Mutex<IdSet>,
    sent_before_ms: Option<u64>,
    /// Moved ones since the start of the journal, for its `completed` line.
    moved_before: u64,
    /// An archive write failed: nothing more is deleted.
    archive_failed: AtomicBool,
    /// Ids named with `--message-id` that were received.
    named_seen: Mutex<IdSet>,
    /// Could not be sent in this run: not tried again.
    parked: Mutex<IdSet>,
    /// Receipt handles of messages kept hidden until the run ends (not matching, failed, over the
    /// limit), then made visible again.
    held: Mutex<Vec<String>>,
    failures: Mutex<(Vec<FailedMessage>, u64)>,
    fatal: Mutex<Option<String>>,
}

impl Shared {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || self.interrupt.is_set()
    }

    /// Whether a message is not one the run is about: sent after a resumed run's start, or a
    /// message this run moved that failed again and came back (standard queues keep the id that
    /// the destination gave it).
    fn arrived_later(&self, message: &MessageRecord) -> bool {
        if self.sent_as.lock().contains(message_id(message)) {
            return true;
        }
        let sent_at = message
            .attributes
            .get("SentTimestamp")
            .and_then(|t| t.parse::<u64>().ok());
        matches!((self.sent_before_ms, sent_at), (Some(bound), Some(at)) if at > bound)
    }

    fn round_over(&self) -> bool {
        self.stopping() || self.drained.load(Ordering::SeqCst)
    }

    fn fail(&self, message: String) {
        let mut fatal = self.fatal.lock();
        if fatal.is_none() {
            *fatal = Some(message);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    fn report(&self, failure: FailedMessage) {
        let mut failures = self.failures.lock();
        failures.1 += 1;
        if failures.0.len() < MAX_REPORTED_FAILURES {
            failures.0.push(failure);
        }
    }

    /// Claims up to `n` messages toward the limit; returns how many may move.
    fn claim(&self, n: usize) -> usize {
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
    fn wanted(&self) -> usize {
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

/// Runs a redrive to its end and says what happened. Errors that stop the run midway are reported
/// in [`Summary::error`] (after the work in flight was finished); `Err` is returned only when
/// nothing could start.
pub async fn run(sqs: &Sqs, plan: &Plan, options: RunOptions) -> Result<Summary, RedriveError> {
    plan.validate()?;
    let selector = Selector::compile(&plan.selection).map_err(RedriveError::Invalid)?;
    let started = Instant::now();
    let journal_path = options
        .journal
        .as_ref()
        .map(|j| j.path().display().to_string());
    let archive_path = options
        .archive
        .as_ref()
        .map(|a| a.path().display().to_string());
    let shared = Arc::new(Shared {
        sqs: sqs.clone(),
        plan: plan.clone(),
        selector,
        limiter: plan.rate.map(RateLimiter::new),
        journal: options.journal,
        archive: options.archive,
        counters: options.counters.clone(),
        interrupt: options.interrupt.clone(),
        claimed: AtomicU64::new(0),
        limit_reached: AtomicBool::new(plan.limit == Some(0)),
        stop: AtomicBool::new(false),
        processing: AtomicUsize::new(0),
        drained: AtomicBool::new(false),
        completions: AtomicU64::new(0),
        pending_journal_deletes: AtomicU64::new(options.resume.sent_not_deleted),
        sent_before: Mutex::new(options.resume.sent),
        skipped_seen: Mutex::new(IdSet::default()),
        sent_as: Mutex::new(options.resume.sent_as),
        later_seen: Mutex::new(IdSet::default()),
        sent_before_ms: options.sent_before_ms,
        moved_before: options.resume.moved_before,
        archive_failed: AtomicBool::new(false),
        named_seen: Mutex::new(IdSet::default()),
        parked: Mutex::new(IdSet::default()),
        held: Mutex::new(Vec::new()),
        failures: Mutex::new((Vec::new(), 0)),
        fatal: Mutex::new(None),
    });
    for _round in 0..MAX_ROUNDS {
        let mut workers = tokio::task::JoinSet::new();
        for _ in 0..plan.concurrency {
            workers.spawn(worker(shared.clone()));
        }
        while let Some(joined) = workers.join_next().await {
            if let Err(err) = joined {
                shared.fail(format!("a worker stopped unexpectedly: {err}"));
            }
        }
        if shared.stopping() {
            break;
        }
        // The workers saw an empty DLQ; another round only if messages showed up meanwhile (a
        // batch finished as the last poll ran, and unblocked a FIFO group).
        match shared.sqs.attributes(&shared.plan.source).await {
            Ok(attrs) if attrs.visible() > 0 => shared.drained.store(false, Ordering::SeqCst),
            _ => break,
        }
    }
    let held = std::mem::take(&mut *shared.held.lock());
    let release_failed = release_all(&shared, held).await;
    let Ok(shared) = Arc::try_unwrap(shared) else {
        return Err(RedriveError::Invalid(
            "internal error: workers outlived the run".into(),
        ));
    };
    let mut error = shared.fatal.lock().take();
    // Synced before the journal's closing line, so that a `completed` journal has a whole archive.
    if let Some(archive) = &shared.archive
        && let Err(e) = archive.close()
    {
        error.get_or_insert(format!(
            "the archive {} could not be written: {e}",
            archive.path().display()
        ));
    }
    let (left_visible, left_in_flight) = match sqs.attributes(&plan.source).await {
        Ok(attrs) => (attrs.visible(), attrs.in_flight()),
        Err(_) => (0, 0),
    };
    let counters = &options.counters;
    let seconds = started.elapsed().as_secs_f64();
    let moved = Counters::get(&counters.moved);
    let (failures, _) = std::mem::take(&mut *shared.failures.lock());
    // Only a run that went through the whole DLQ can tell that an id is not there.
    let looked_everywhere = !shared.interrupt.is_set()
        && !shared.limit_reached.load(Ordering::SeqCst)
        && error.is_none();
    let not_found = if !looked_everywhere {
        Vec::new()
    } else {
        let seen = shared.named_seen.lock();
        plan.selection
            .message_ids
            .iter()
            .filter(|id| !seen.contains(id))
            .cloned()
            .collect()
    };
    let mut summary = Summary {
        source: plan.source.name.clone(),
        destination: plan.destination.name.clone(),
        selected: Counters::get(&counters.selected),
        moved,
        skipped: Counters::get(&counters.skipped),
        failed: Counters::get(&counters.failed),
        delete_failed: Counters::get(&counters.delete_failed),
        completed_from_journal: Counters::get(&counters.completed_from_journal),
        arrived_later: Counters::get(&counters.arrived_later),
        outcome_unknown: Counters::get(&counters.outcome_unknown),
        retries: Counters::get(&counters.retries),
        left_visible,
        left_in_flight,
        release_failed,
        limit_reached: shared.limit_reached.load(Ordering::SeqCst),
        interrupted: shared.interrupt.is_set(),
        seconds,
        messages_per_second: if seconds > 0.0 {
            moved as f64 / seconds
        } else {
            0.0
        },
        failures,
        not_found,
        journal: journal_path,
        archive: archive_path,
        error,
    };
    if let Some(journal) = shared.journal {
        let closing = closing_line(&summary, shared.moved_before);
        let written = journal.write(closing, false).await;
        if let Err(e) = written.and(journal.close().await) {
            summary
                .error
                .get_or_insert(format!("the journal could not be closed: {e}"));
        }
    }
    Ok(summary)
}

/// The journal's last line for this run: `completed` when every message the run was about moved
/// (`--resume` then has nothing to do), `stopped` with the reason otherwise.
fn closing_line(summary: &Summary, moved_before: u64) -> Vec<u8> {
    let at_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let moved = moved_before + summary.moved + summary.completed_from_journal;
    if summary.complete() {
        return line("completed", &json!({ "at_ms": at_ms, "moved": moved }));
    }
    let reason = if let Some(error) = &summary.error {
        error.clone()
    } else if summary.interrupted {
        "interrupted".to_string()
    } else {
        "some messages stayed in the dead-letter queue".to_string()
    };
    line(
        "stopped",
        &json!({
            "at_ms": at_ms,
            "reason": reason,
            "moved": moved,
            "failed": summary.failed,
            "delete_failed": summary.delete_failed,
            "outcome_unknown": summary.outcome_unknown,
            "left_in_flight": summary.left_in_flight,
        }),
    )
}

/// One worker: receive a batch, choose what moves, wait for `--rate` tokens, send, journal, delete;
/// again until the round is over. A worker holds one batch at a time, so `--concurrency` is the
/// number of batches in flight (received and not yet deleted).
async fn worker(shared: Arc<Shared>) {
    let mut receive_errors = 0u32;
    loop {
        if shared.round_over() {
            return;
        }
        let want = shared.wanted();
        if want == 0 {
            shared.stop.store(true, Ordering::SeqCst);
            return;
        }
        let seen_completions = shared.completions.load(Ordering::SeqCst);
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: 1,
            visibility_timeout: Some(shared.plan.visibility_timeout),
        };
        // A receive unanswered when the grace period runs out is given up: whatever it would have
        // returned stays hidden until its visibility timeout ends, as after a lost answer.
        let received = tokio::select! {
            biased;
            received = shared.sqs.receive(&shared.plan.source, options) => received,
            () = shared.interrupt.grace_over() => return,
        };
        let batch = match received {
            Ok(batch) => {
                receive_errors = 0;
                batch
            }
            Err(err) => {
                receive_errors += 1;
                if !is_transient(&err) || receive_errors >= MAX_RECEIVE_ERRORS {
                    shared.fail(format!("receiving from {}: {err}", shared.plan.source.name));
                    return;
                }
                tokio::time::sleep(backoff(receive_errors)).await;
                continue;
            }
        };
        if batch.is_empty() {
            // Done when no batch is being moved and none finished while this poll ran: otherwise
            // a finished batch may have unblocked a FIFO group, so poll again.
            if shared.processing.load(Ordering::SeqCst) == 0
                && shared.completions.load(Ordering::SeqCst) == seen_completions
            {
                shared.drained.store(true, Ordering::SeqCst);
                return;
            }
            continue;
        }
        if shared.stopping() {
            // Received as the run was stopping (Ctrl-C during the receive): no new work.
            shared
                .held
                .lock()
                .extend(batch.iter().map(|m| handle(m).to_string()));
            return;
        }
        shared.processing.fetch_add(1, Ordering::SeqCst);
        Counters::add(&shared.counters.received, batch.len());
        let unanswered = Mutex::new(Vec::new());
        let work = async {
            if let Some(pending) = process(&shared, batch, &unanswered).await {
                commit(&shared, pending).await;
            }
        };
        // After Ctrl-C the batch may finish within the grace period; past it, the batch is
        // abandoned, and the messages whose send had no answer are journaled as `unknown`.
        let finished = tokio::select! {
            biased;
            () = work => true,
            () = shared.interrupt.grace_over() => false,
        };
        if !finished {
            let ids = std::mem::take(&mut *unanswered.lock());
            abandon(&shared, ids).await;
        }
        shared.completions.fetch_add(1, Ordering::SeqCst);
        shared.processing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Journals the messages of an abandoned batch whose send had no answer: they may or may not have
/// been sent. They stay hidden in the DLQ until their visibility timeout ends (releasing them could
/// not undo a send), and `--resume` waits for them.
async fn abandon(shared: &Shared, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    Counters::add(&shared.counters.outcome_unknown, ids.len());
    let mut lines = Vec::new();
    for id in &ids {
        lines.extend(line("unknown", &json!({ "id": id })));
    }
    journal(shared, lines, true).await;
}

/// One received message on its way.
struct Moving {
    original: MessageRecord,
    outgoing: MessageRecord,
}

fn message_id(message: &MessageRecord) -> &str {
    message.message_id.as_deref().unwrap_or_default()
}

fn handle(message: &MessageRecord) -> &str {
    message.receipt_handle.as_deref().unwrap_or_default()
}

/// The message as it is sent to the destination.
fn outgoing(plan: &Plan, message: &MessageRecord) -> MessageRecord {
    let group_id = if plan.fifo {
        message.effective_group_id().map(str::to_string)
    } else {
        None
    };
    let dedup_id = if plan.fifo {
        match plan.dedup {
            DedupMode::Keep => message
                .effective_dedup_id()
                .or(message.message_id.as_deref())
                .map(str::to_string),
            DedupMode::MessageId => message.message_id.clone(),
            DedupMode::New => Some(uuid::Uuid::new_v4().simple().to_string()),
        }
    } else {
        None
    };
    MessageRecord {
        message_id: None,
        body: message.body.clone(),
        message_attributes: message.message_attributes.clone(),
        group_id,
        dedup_id,
        delay_seconds: plan.delay_seconds.filter(|_| !plan.fifo),
        attributes: Default::default(),
        receipt_handle: None,
    }
}

/// What is left of a batch once its sends are answered: journal them to disk, then delete.
struct Commit {
    /// The journal lines of the sends and failures.
    lines: Vec<u8>,
    /// Confirmed sent, then the messages an earlier run had sent: to delete, in that order.
    to_delete: Vec<MessageRecord>,
    confirmed: usize,
    /// Receipt handles of the whole batch, to extend while the commit is slow.
    handles: Vec<String>,
}

/// Chooses what moves, sends it, and returns what remains to be committed (`None` when the batch
/// held nothing to send or delete).
async fn process(
    shared: &Arc<Shared>,
    batch: Vec<MessageRecord>,
    unanswered: &Mutex<Vec<String>>,
) -> Option<Commit> {
    let mut moving: Vec<Moving> = Vec::new();
    let mut delete_only: Vec<MessageRecord> = Vec::new();
    let mut hold: Vec<String> = Vec::new();
    let mut matching: Vec<MessageRecord> = Vec::new();
    for message in batch {
        let id = message_id(&message);
        if shared.selector.names_id(id) {
            shared.named_seen.lock().insert(id);
        }
        if shared.parked.lock().contains(id) {
            hold.push(handle(&message).to_string());
        } else if shared.sent_before.lock().contains(id) {
            delete_only.push(message);
        } else if shared.arrived_later(&message) {
            if shared.later_seen.lock().insert(id) {
                Counters::add(&shared.counters.arrived_later, 1);
            }
            hold.push(handle(&message).to_string());
        } else if !shared.selector.matches(&message) {
            if shared.skipped_seen.lock().insert(id) {
                Counters::add(&shared.counters.skipped, 1);
            }
            hold.push(handle(&message).to_string());
        } else {
            matching.push(message);
        }
    }
    let granted = shared.claim(matching.len());
    for (index, message) in matching.into_iter().enumerate() {
        if index < granted {
            let outgoing = outgoing(&shared.plan, &message);
            moving.push(Moving {
                original: message,
                outgoing,
            });
        } else {
            hold.push(handle(&message).to_string());
        }
    }
    if let Some(wanted) = shared.selector.wanted_ids()
        && Counters::get(&shared.counters.selected) + moving.len() as u64 >= wanted as u64
    {
        shared.stop.store(true, Ordering::SeqCst);
    }
    shared.held.lock().extend(hold);
    if moving.is_empty() && delete_only.is_empty() {
        return None;
    }
    let handles: Vec<String> = moving
        .iter()
        .map(|m| handle(&m.original).to_string())
        .chain(delete_only.iter().map(|m| handle(m).to_string()))
        .collect();
    // Journaled as held before anything else happens to them, so that after a crash `--resume`
    // knows the run held these messages and waits for them to be visible again.
    let mut lines = Vec::new();
    for m in &moving {
        lines.extend(line(
            "received",
            &json!({ "id": message_id(&m.original), "group": m.outgoing.group_id }),
        ));
    }
    if !lines.is_empty() {
        journal(shared, lines, false).await;
    }
    // `--rate` counts messages sent, so the tokens are taken for what this batch sends, once it
    // is known; the batch stays hidden while it waits. Receives take no tokens, so the run ends
    // as soon as the DLQ is found empty. Ctrl-C while waiting sends nothing: the whole batch is
    // made visible again when the run ends.
    if let Some(limiter) = &shared.limiter
        && !moving.is_empty()
    {
        let wait = async {
            tokio::select! {
                () = limiter.acquire(moving.len()) => true,
                () = shared.interrupt.wait() => false,
            }
        };
        if !keep_hidden(shared, &handles, wait).await {
            let mut lines = Vec::new();
            for m in &moving {
                lines.extend(line("released", &json!({ "id": message_id(&m.original) })));
            }
            journal(shared, lines, false).await;
            shared.held.lock().extend(handles);
            return None;
        }
    }
    Counters::add(&shared.counters.selected, moving.len());
    *unanswered.lock() = moving
        .iter()
        .map(|m| message_id(&m.original).to_string())
        .collect();
    let (lines, confirmed) = keep_hidden(shared, &handles, send_batch(shared, &moving)).await;
    unanswered.lock().clear();
    let count = confirmed.len();
    let to_delete = confirmed.into_iter().chain(delete_only).collect();
    Some(Commit {
        lines,
        to_delete,
        confirmed: count,
        handles,
    })
}

/// Runs `work` while keeping the batch hidden in the DLQ: its visibility timeout is extended at
/// half its length for as long as the work lasts.
async fn keep_hidden<F: std::future::Future>(
    shared: &Shared,
    handles: &[String],
    work: F,
) -> F::Output {
    tokio::pin!(work);
    let timeout = shared.plan.visibility_timeout;
    let period = Duration::from_secs_f64((f64::from(timeout) / 2.0).max(0.5));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            output = &mut work => return output,
            _ = ticker.tick() => extend(shared, handles, timeout).await,
        }
    }
}

async fn extend(shared: &Shared, handles: &[String], timeout: i32) {
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        let entries: Vec<(&str, i32)> = chunk.iter().map(|h| (h.as_str(), timeout)).collect();
        let _ = shared
            .sqs
            .change_visibility_retrying(&shared.plan.source, &entries, &RetryPolicy::default())
            .await;
    }
}

/// Appends to the journal (with `sync`, on disk when this returns); false when that failed, which
/// stops the run.
async fn journal(shared: &Shared, bytes: Vec<u8>, sync: bool) -> bool {
    if let Some(journal) = &shared.journal
        && let Err(e) = journal.write(bytes, sync).await
    {
        shared.fail(format!(
            "the journal {} could not be written: {e}",
            journal.path().display()
        ));
        return false;
    }
    true
}

/// Sends the selected messages; returns the journal lines of the outcomes and the messages that
/// were confirmed. What failed is parked: hidden until the run ends, so it is not tried again (and,
/// on FIFO, the rest of its group stays behind it), then visible in the DLQ.
async fn send_batch(shared: &Shared, moving: &[Moving]) -> (Vec<u8>, Vec<MessageRecord>) {
    let outgoing: Vec<MessageRecord> = moving.iter().map(|m| m.outgoing.clone()).collect();
    let results = send::send_all(
        &shared.sqs,
        &shared.plan.destination,
        shared.plan.fifo,
        &outgoing,
        &shared.counters.retries,
    )
    .await;
    let mut lines = Vec::new();
    let mut confirmed = Vec::new();
    let mut failed_handles = Vec::new();
    for (m, result) in moving.iter().zip(&results) {
        let id = message_id(&m.original);
        let reason = match result {
            Sent::Ok(new_id) => {
                lines.extend(line("sent", &json!({ "id": id, "new_id": new_id })));
                if !new_id.is_empty() {
                    shared.sent_as.lock().insert(new_id);
                }
                confirmed.push(m.original.clone());
                continue;
            }
            Sent::Failed(reason) | Sent::Unknown(reason) => reason.clone(),
            Sent::Blocked => "not sent: an earlier message of its group could not be sent".into(),
        };
        lines.extend(line("failed", &json!({ "id": id, "reason": reason })));
        shared.parked.lock().insert(id);
        failed_handles.push(handle(&m.original).to_string());
        shared.report(FailedMessage {
            message_id: id.to_string(),
            group_id: m.outgoing.group_id.clone(),
            reason,
        });
        Counters::add(&shared.counters.failed, 1);
    }
    shared.held.lock().extend(failed_handles);
    (lines, confirmed)
}

/// The second half of a batch: the sends go to disk, then (and only then) the confirmed messages
/// are deleted from the DLQ with the receipt handles of their receive.
async fn commit(shared: &Shared, commit: Commit) {
    let Commit {
        lines,
        to_delete,
        confirmed,
        handles,
    } = commit;
    keep_hidden(shared, &handles, async {
        if !journal(shared, lines, true).await {
            keep(shared, &to_delete, "the journal could not be written");
            return;
        }
        // Each message's archive copy is on disk before its delete (the messages an earlier run
        // sent included: the archive skips those it already holds). Once a write fails, nothing
        // more is deleted: what was sent stays in the DLQ, the journal shows it as sent, and the
        // run stops.
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
                keep(shared, &to_delete, "the archive could not be written");
                return;
            }
        }
        delete(shared, &to_delete, confirmed).await;
    })
    .await;
}

/// Leaves sent messages in the DLQ, undeleted: never sent again by this run, visible again when
/// it ends, and deleted by `--resume` (the journal shows them as sent).
fn keep(shared: &Shared, messages: &[MessageRecord], why: &str) {
    for message in messages {
        let id = message_id(message);
        shared.sent_before.lock().insert(id);
        Counters::add(&shared.counters.delete_failed, 1);
        shared.report(FailedMessage {
            message_id: id.to_string(),
            group_id: message.effective_group_id().map(str::to_string),
            reason: format!("sent, but not deleted from the dead-letter queue: {why}"),
        });
    }
    shared
        .held
        .lock()
        .extend(messages.iter().map(|m| handle(m).to_string()));
}

async fn delete(shared: &Shared, to_delete: &[MessageRecord], confirmed: usize) {
    if to_delete.is_empty() {
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
    let mut lines = Vec::new();
    for (index, (message, outcome)) in to_delete.iter().zip(outcomes).enumerate() {
        let id = message_id(message);
        let resumed = index >= confirmed;
        match outcome {
            None => {
                lines.extend(line("deleted", &json!({ "id": id })));
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
            Some(reason) => {
                // Sent but still in the DLQ: never send it again, delete it when seen again.
                shared.sent_before.lock().insert(id);
                Counters::add(&shared.counters.delete_failed, 1);
                shared.report(FailedMessage {
                    message_id: id.to_string(),
                    group_id: message.effective_group_id().map(str::to_string),
                    reason: format!("sent, but not deleted from the dead-letter queue: {reason}"),
                });
            }
        }
    }
    journal(shared, lines, false).await;
}

/// Makes held messages visible again, a few batches at a time. Returns how many could not be.
async fn release_all(shared: &Arc<Shared>, handles: Vec<String>) -> u64 {
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
