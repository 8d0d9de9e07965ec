//! `sqsctl receive`: receive messages and write them as records, optionally deleting each one
//! after its record reached stdout.
//!
//! Several receive requests run at once and hand their batches to one writer (this task), which
//! writes and flushes each batch before handing its receipt handles to the deleters. So a message is
//! deleted only once its record was written; when writing fails (a closed pipe) or Ctrl-C stops the
//! run, no new request starts, long polls in flight are abandoned, and the batches received but not
//! written are made visible again once every receiver has stopped, so that no request of this run
//! can receive a released message a second time (each receive raises its receive count, which a
//! redrive policy turns into a move to the dead-letter queue).
//!
//! With `--delete` into a pipe, where a reader that stops early loses what sits unread in between,
//! the run is bounded instead: one batch at a time, each message written and flushed on its own,
//! the pipe shrunk to one page (Linux), and a message deleted only once the reader has taken it out
//! of the pipe. The next batch is received only after that, so a reader that stops early has been
//! handed at most one batch it did not read.
//!
//! With filters, the receivers keep only the messages that match and release the others at once;
//! with `--follow` they wait out empty long polls until Ctrl-C.

mod pipe;

use crate::cli::values::whole_seconds;
use crate::client::limits;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::common::{confirm_destructive, queue_place, resolve_queue};
use crate::cli::receive::ReceiveArgs;
use crate::client::{ClientError, QueueRef, ReceiveOptions, RetryPolicy, Sqs};
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::message::shown::Shown;
use crate::output::messages::MessageWriter;
use crate::output::template::Template;
use crate::select::{Selection, Selector};
use crate::text::plural;
use pipe::{shrink_pipe, stdout_is_stream, taken_by_reader};

/// How long a long poll in flight when the run stops may still answer before it is abandoned.
const LONG_POLL_LINGER: Duration = Duration::from_millis(250);

/// The longest wait, at the end of `--until-empty --delete`, for messages that a failed receive may
/// have hidden: their visibility timeout, when it is not longer than this.
const MAX_HIDDEN_WAIT: Duration = Duration::from_secs(120);

#[derive(Debug)]
pub struct ReceiveSettings {
    pub queue: String,
    /// `None`: no limit.
    pub max: Option<u64>,
    /// `None`: the queue's own `ReceiveMessageWaitTimeSeconds`.
    pub wait_seconds: Option<i32>,
    pub visibility_timeout: Option<i32>,
    pub until_empty: bool,
    /// Receive until Ctrl-C (or `max`), waiting out empty long polls.
    pub follow: bool,
    pub delete: bool,
    pub yes: bool,
    pub concurrency: usize,
    pub shown: Shown,
    pub selection: Selection,
    pub template: Option<Template>,
}

impl ReceiveSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: ReceiveArgs) -> anyhow::Result<ReceiveSettings> {
        let max = match (args.max, args.until_empty || args.follow) {
            (Some(max), _) => Some(max),
            (None, true) => None,
            (None, false) => Some(10),
        };
        let wait_seconds = match (args.wait.map(whole_seconds), args.follow) {
            (Some(0), true) => {
                anyhow::bail!("--follow long-polls: --wait must be 1s-20s with it")
            }
            (Some(wait), _) => Some(wait),
            (None, true) => Some(whole_seconds(limits::MAX_WAIT)),
            (None, false) => None,
        };
        Ok(ReceiveSettings {
            queue: args.queue,
            max,
            wait_seconds,
            visibility_timeout: args.visibility.map(whole_seconds),
            until_empty: args.until_empty,
            follow: args.follow,
            delete: args.delete,
            yes: args.yes,
            concurrency: usize::from(args.concurrency),
            shown: Shown::parse(
                &args.shown.system_attributes,
                &args.shown.message_attributes,
            )
            .map_err(anyhow::Error::msg)?,
            selection: super::selection::resolve(args.select, Vec::new())?,
            template: args.format,
        })
    }
}

/// State shared by the receivers.
struct Shared {
    sqs: Sqs,
    queue: QueueRef,
    /// Messages still to receive; each request reserves its share first, so `--max` is exact.
    budget: AtomicU64,
    done: AtomicBool,
    /// Set when the writer failed (a closed pipe): receivers stop and abandon long polls.
    halt: watch::Sender<bool>,
    interrupt: Interrupt,
    wait_seconds: Option<i32>,
    visibility_timeout: Option<i32>,
    until_empty: bool,
    delete: bool,
    retry: RetryPolicy,
    /// With `--delete` into a pipe: one permit, taken before a receive and given back once the
    /// batch was written and read, so only one batch is out at a time.
    turn: Option<Arc<Semaphore>>,
    /// When the last receive failed after SQS may have applied it (hiding its messages).
    last_ambiguous_receive: Mutex<Option<Instant>>,
    /// Receives that failed after SQS may have applied them.
    ambiguous_receives: AtomicU64,
    /// The filters; messages that do not match are released at once.
    selector: Option<Selector>,
    /// Ids of the messages passed over so far: one that comes back is not new, and is left hidden.
    passed_over: Mutex<HashSet<String>>,
    /// Messages passed over that could not be released.
    release_failed: AtomicU64,
    /// `--follow`: receive until Ctrl-C.
    follow: bool,
    /// With `--follow`: the latest receipt handle of each message passed over more than once, left
    /// hidden while the run lasts and released when it ends.
    held: Mutex<HashMap<String, String>>,
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

    fn halt(&self) {
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
}

pub async fn run(ctx: &Context, settings: ReceiveSettings) -> anyhow::Result<ExitStatus> {
    ctx.printer.check_template(settings.template.as_ref())?;
    if settings.delete {
        // Each message is deleted once its record is written: a stdout that takes writes into
        // nothing would delete every message unread.
        crate::output::check_stdout().map_err(|why| {
            anyhow::Error::new(why).context("receive --delete deletes each message once written to stdout, and nothing can be written there; nothing was received or deleted")
        })?;
    }
    let queue = resolve_queue(ctx, &settings.queue).await?;
    if settings.delete {
        let region = ctx.sqs().await?.region();
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Delete each message received from {} once it is written?",
                queue_place(&queue, region)
            ),
            &format!("receiving with --delete from `{}`", queue.name),
            false,
            settings.yes,
        )?;
    }
    let sqs = ctx.sqs().await?.clone();
    let retry = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let mut max = settings.max;
    if settings.until_empty && !settings.delete {
        // Without --delete every message comes back after its visibility timeout, so a queue
        // that takes longer than that to read would never look empty: read what was visible
        // when the run started. That count is approximate (it lags on SQS): at least one batch
        // is asked for when it says 0, so that an empty queue is still confirmed by a long poll.
        let visible = retry
            .request(|| sqs.attributes(&queue))
            .await
            .result?
            .visible();
        let visible = if visible == 0 { 10 } else { visible };
        max = Some(max.map_or(visible, |m| m.min(visible)));
    }
    let bounded = settings.delete && !ctx.printer.stdout_is_terminal() && stdout_is_stream();
    if bounded {
        shrink_pipe();
    }
    let shared = Arc::new(Shared {
        sqs: sqs.clone(),
        queue: queue.clone(),
        budget: AtomicU64::new(max.unwrap_or(u64::MAX)),
        done: AtomicBool::new(false),
        halt: watch::channel(false).0,
        interrupt: ctx.interrupt.clone(),
        wait_seconds: settings.wait_seconds,
        visibility_timeout: settings.visibility_timeout,
        until_empty: settings.until_empty,
        delete: settings.delete,
        retry: retry.clone(),
        turn: bounded.then(|| Arc::new(Semaphore::new(1))),
        last_ambiguous_receive: Mutex::new(None),
        ambiguous_receives: AtomicU64::new(0),
        selector: super::selection::selector(&settings.selection)?,
        passed_over: Mutex::new(HashSet::new()),
        release_failed: AtomicU64::new(0),
        follow: settings.follow,
        held: Mutex::new(HashMap::new()),
    });
    let concurrency = if bounded {
        1
    } else {
        settings.concurrency.max(1)
    };
    let (tx, mut rx) = mpsc::channel::<Received>(concurrency);
    let mut receivers: JoinSet<Result<(), ClientError>> = JoinSet::new();
    for _ in 0..concurrency {
        receivers.spawn(receive_loop(shared.clone(), tx.clone()));
    }
    drop(tx);

    let deleters = Arc::new(Semaphore::new(concurrency * 2));
    let mut deletes: JoinSet<(usize, usize)> = JoinSet::new();
    let progress = ctx
        .printer
        .progress(0, "{spinner} messages received: {pos} ({rate})");
    let (mut deleted, mut delete_failed) = (0u64, 0u64);
    let mut writer = MessageWriter::new(&ctx.printer, true)
        .showing(settings.shown.clone())
        .with_template(settings.template);
    let mut write_error: Option<std::io::Error> = None;
    let mut released_failed = 0usize;
    let mut unwritten = 0u64;
    // Receipt handles of batches received but not written, released only after the receivers
    // stopped: a release while a request is still in flight could hand the same message back.
    let mut to_release: Vec<String> = Vec::new();
    if bounded {
        ctx.printer.debug(
            "stdout is a pipe: one batch at a time, each message deleted once the reader took it",
        );
    } else {
        ctx.printer.debug(format!(
            "receiving with {concurrency} requests at once, up to 10 messages each, {} (-vv: each batch)",
            settings
                .wait_seconds
                .map_or("the queue's own wait".to_string(), |w| format!("wait {w} s"))
        ));
    }
    let verbose_batches = ctx.printer.verbosity() >= 2;
    while let Some(Received { batch, turn }) = rx.recv().await {
        if verbose_batches {
            ctx.printer
                .debug(format!("received a batch of {}", batch.len()));
        }
        let mut handles = receipt_handles(&batch);
        if write_error.is_none() {
            // How many of the batch's messages may be deleted: all once written, or in a pipe
            // only those written and taken out of it by the reader.
            let taken = if bounded {
                let flushed = writer.write_each(&batch);
                let taken = taken_by_reader(&flushed.ends, &ctx.interrupt).await;
                if let Some(err) = flushed.error {
                    write_error = Some(err);
                } else if taken < batch.len() && !ctx.interrupt.is_set() {
                    write_error = Some(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
                }
                taken
            } else {
                // A table goes to the terminal the progress line is on: the line steps aside
                // while it is written, or it would be left above the table.
                match progress.suspend(|| writer.write_batch(&batch)) {
                    Ok(()) => batch.len(),
                    Err(err) => {
                        write_error = Some(err);
                        0
                    }
                }
            };
            if write_error.is_some() {
                shared.halt();
            }
            progress.set_position(writer.written());
            // Finished deletes are collected as they go: a JoinSet keeps every task until it is
            // joined, and a long run has hundreds of thousands.
            while let Some(result) = deletes.try_join_next() {
                let (count, failed) = result?;
                deleted += (count - failed) as u64;
                delete_failed += failed as u64;
            }
            let rest = handles.split_off(taken.min(handles.len()));
            if settings.delete && !handles.is_empty() {
                let permit = deleters.clone().acquire_owned().await?;
                let sqs = sqs.clone();
                let queue = queue.clone();
                let retry = retry.clone();
                deletes.spawn(async move {
                    let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
                    let outcome = sqs.delete_batch_retrying(&queue, &refs, &retry).await;
                    let failed = outcome.entries.iter().filter(|e| !e.is_done()).count();
                    drop(permit);
                    (refs.len(), failed)
                });
            }
            handles = rest;
        }
        drop(turn);
        unwritten += handles.len() as u64;
        to_release.extend(handles);
    }
    let mut receive_error: Option<ClientError> = None;
    while let Some(result) = receivers.join_next().await {
        if let Err(err) = result? {
            receive_error.get_or_insert(err);
        }
    }
    // Every receiver has stopped (the channel closed only when the last one did): make the
    // unwritten messages visible again now rather than after their visibility timeout.
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
        released_failed += sqs.release(&queue, &refs).await.unwrap_or(refs.len());
    }
    if unwritten > 0 {
        ctx.printer.debug(format!(
            "released {} that were received but not written",
            plural(unwritten, "message")
        ));
    }
    while let Some(result) = deletes.join_next().await {
        let (count, failed) = result?;
        deleted += (count - failed) as u64;
        delete_failed += failed as u64;
    }
    progress.finish_and_clear();
    if write_error.is_none()
        && let Err(err) = writer.finish()
    {
        write_error = Some(err);
    }

    let written = writer.written();
    let mut summary = format!(
        "received {} from {}",
        plural(written + unwritten, "message"),
        queue.name
    );
    let passed_over = shared.passed_over.lock().len() as u64;
    if shared.selector.is_some() {
        summary = format!(
            "received {} matching {} from {} ({passed_over} did not match and were made visible again)",
            plural(written + unwritten, "message"),
            settings.selection.describe().join(" "),
            queue.name
        );
    }
    if written + unwritten == 0
        && write_error.is_none()
        && receive_error.is_none()
        && !ctx.interrupt.is_set()
    {
        // "received 0" alone reads as "empty": say what the queue holds that no receive could
        // return now.
        if let Ok(attrs) = retry.request(|| sqs.attributes(&queue)).await.result {
            summary.push_str(&nothing_received_because(&attrs, settings.wait_seconds));
        }
    }
    if settings.delete {
        summary.push_str(&format!(", deleted {deleted}"));
    } else if written > 0 {
        summary.push_str(" (not deleted: they become visible again after their visibility timeout; --delete consumes them)");
    }
    // A reader that went away (`| head`) is a normal end: no summary to talk over it.
    let pipe_closed = write_error
        .as_ref()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe);
    if !pipe_closed {
        ctx.printer.info(summary);
    }
    let ambiguous = shared.ambiguous_receives.load(Ordering::Relaxed);
    if ambiguous > 0 && !pipe_closed && !ctx.interrupt.is_set() {
        ctx.printer.debug(format!(
            "{} failed after SQS may have applied {}; what {} hid returned after the visibility timeout",
            plural(ambiguous, "receive request"),
            if ambiguous == 1 { "it" } else { "them" },
            if ambiguous == 1 { "it" } else { "they" },
        ));
    }
    if unwritten > 0 && released_failed > 0 {
        ctx.printer.warn(format!(
            "{} not written could not be made visible again; {} after {} visibility timeout",
            plural(released_failed as u64, "message"),
            if released_failed == 1 {
                "it returns"
            } else {
                "they return"
            },
            if released_failed == 1 { "its" } else { "their" },
        ));
    }
    if let Some(failures) = shared.selector.as_ref().and_then(|s| s.where_failures()) {
        ctx.printer.warn(failures.describe(&queue.name));
    }
    let pass_release_failed = shared.release_failed.load(Ordering::Relaxed);
    if pass_release_failed > 0 {
        ctx.printer.warn(format!(
            "{} passed over could not be made visible again; they return after their visibility timeout",
            plural(pass_release_failed, "message")
        ));
    }
    if delete_failed > 0 {
        ctx.printer.warn(format!(
            "{} written but not deleted: they will be delivered again",
            plural(delete_failed, "message was")
        ));
    }
    if let Some(err) = write_error {
        return Err(anyhow::Error::new(err).context("could not write to stdout"));
    }
    if let Some(err) = receive_error {
        return Err(err.into());
    }
    Ok(if ctx.interrupt.is_set() {
        ExitStatus::Interrupted
    } else if delete_failed > 0 {
        ExitStatus::Partial
    } else {
        ExitStatus::Success
    })
}

/// What a queue held when a run received nothing: `; 9990 in flight, 3 delayed`, and a word on
/// short polls when it still reports visible messages.
fn nothing_received_because(attrs: &crate::client::QueueAttributes, wait: Option<i32>) -> String {
    let mut held = Vec::new();
    if attrs.in_flight() > 0 {
        held.push(format!("{} in flight", attrs.in_flight()));
    }
    if attrs.delayed() > 0 {
        held.push(format!("{} delayed", attrs.delayed()));
    }
    let short_poll = match wait {
        Some(w) => w == 0,
        None => attrs.receive_wait_seconds().unwrap_or(0) == 0,
    };
    if attrs.visible() > 0 {
        held.push(if short_poll {
            format!(
                "about {} visible: a short poll asks only some of SQS's servers and can miss them; --wait 1-20 long-polls",
                attrs.visible()
            )
        } else {
            format!(
                "about {} visible (approximate counts lag)",
                attrs.visible()
            )
        });
    }
    if held.is_empty() {
        "; the queue is empty".to_string()
    } else {
        format!("; {}", held.join(", "))
    }
}

/// A batch on its way to the writer, with the turn its receiver took (bounded mode).
struct Received {
    batch: Vec<MessageRecord>,
    turn: Option<OwnedSemaphorePermit>,
}

fn receipt_handles(batch: &[MessageRecord]) -> Vec<String> {
    batch
        .iter()
        .filter_map(|m| m.receipt_handle.clone())
        .collect()
}

impl Shared {
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

    /// Until when messages hidden by a receive that failed after SQS may have applied it can still
    /// come back, if that is worth waiting for (`--until-empty --delete`, a visibility timeout
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
async fn receive_loop(shared: Arc<Shared>, tx: mpsc::Sender<Received>) -> Result<(), ClientError> {
    let mut wait = shared.wait_seconds;
    loop {
        if shared.stopped() {
            return Ok(());
        }
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
            wait_seconds: wait,
            visibility_timeout: shared.visibility_timeout,
        };
        // A short poll is left to finish on Ctrl-C or a closed pipe, so what it received is
        // written or released rather than left hidden until its visibility timeout; a long poll
        // is abandoned, since it most likely holds nothing yet, but only after a moment: an
        // answer already on its way (messages that arrived as the run stopped, or, with filters,
        // a message another request just released) is taken and released.
        let request = shared
            .sqs
            .receive_retrying(&shared.queue, options, &shared.retry);
        tokio::pin!(request);
        let outcome = if wait == Some(0) {
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
        shared.give_back(want.saturating_sub(batch.len() as u64));
        if nothing_new && !shared.follow {
            // Every message received was passed over before: the queue has nothing new.
            shared.done.store(true, Ordering::SeqCst);
            return Ok(());
        }
        if batch.is_empty() && received_some {
            // Only messages that do not match came: the queue is not empty, look again.
            continue;
        }
        if batch.is_empty() && shared.follow {
            continue;
        }
        if batch.is_empty() {
            if !shared.until_empty {
                shared.done.store(true, Ordering::SeqCst);
                return Ok(());
            }
            // A short poll samples some of SQS's servers and can come back empty from a queue
            // that holds messages: only a long poll that brings nothing says the queue is empty.
            // Without --wait the queue's own setting applied, which may have been a short poll.
            if wait.is_none_or(|w| w <= 0) {
                wait = Some(1);
                continue;
            }
            if shared.last_ambiguous_receive.lock().is_none() {
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
                    shared.done.store(true, Ordering::SeqCst);
                    return Ok(());
                }
            }
            wait = Some(1);
            continue;
        }
        wait = shared.wait_seconds;
        if let Err(unsent) = tx.send(Received { batch, turn }).await {
            // The writer is gone: put the messages back.
            let handles = receipt_handles(&unsent.0.batch);
            let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
            let _ = shared.sqs.release(&shared.queue, &refs).await;
            return Ok(());
        }
    }
}
