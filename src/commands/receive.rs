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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;

use super::common::{MessageWriter, confirm_destructive, plural, queue_place, resolve_queue};
use crate::app::{Context, Interrupt};
use crate::client::{ClientError, QueueRef, ReceiveOptions, Sqs};
use crate::exit::ExitStatus;
use crate::message::MessageRecord;

const DELETE_ATTEMPTS: u32 = 4;

#[derive(Debug)]
pub struct ReceiveSettings {
    pub queue: String,
    /// `None`: no limit.
    pub max: Option<u64>,
    pub wait_seconds: i32,
    pub visibility_timeout: Option<i32>,
    pub until_empty: bool,
    pub delete: bool,
    pub yes: bool,
    pub concurrency: usize,
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
    wait_seconds: i32,
    visibility_timeout: Option<i32>,
    until_empty: bool,
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
    let mut max = settings.max;
    if settings.until_empty && !settings.delete {
        // Without --delete every message comes back after its visibility timeout, so a queue
        // that takes longer than that to read would never look empty: read what was visible
        // when the run started.
        let visible = sqs.attributes(&queue).await?.visible();
        max = Some(max.map_or(visible, |m| m.min(visible)));
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
    });
    let concurrency = settings.concurrency.max(1);
    let (tx, mut rx) = mpsc::channel::<Vec<MessageRecord>>(concurrency);
    let mut receivers: JoinSet<Result<(), ClientError>> = JoinSet::new();
    for _ in 0..concurrency {
        receivers.spawn(receive_loop(shared.clone(), tx.clone()));
    }
    drop(tx);

    let deleters = Arc::new(Semaphore::new(concurrency * 2));
    let mut deletes: JoinSet<(usize, usize)> = JoinSet::new();
    let progress = ctx
        .printer
        .progress(0, "{spinner} {pos} messages received ({per_sec})");
    let (mut deleted, mut delete_failed) = (0u64, 0u64);
    let mut writer = MessageWriter::new(&ctx.printer, true);
    let mut write_error: Option<std::io::Error> = None;
    let mut released_failed = 0usize;
    let mut unwritten = 0u64;
    // Receipt handles of batches received but not written, released only after the receivers
    // stopped: a release while a request is still in flight could hand the same message back.
    let mut to_release: Vec<String> = Vec::new();
    ctx.printer.debug(format!(
        "receiving with {concurrency} requests at once, up to 10 messages each, wait {} s (-vv: each batch)",
        settings.wait_seconds
    ));
    let verbose_batches = ctx.printer.verbosity() >= 2;
    while let Some(batch) = rx.recv().await {
        if verbose_batches {
            ctx.printer
                .debug(format!("received a batch of {}", batch.len()));
        }
        let handles = receipt_handles(&batch);
        if write_error.is_none() {
            match writer.write_batch(&batch) {
                Ok(()) => {
                    progress.set_position(writer.written());
                    // Finished deletes are collected as they go: a JoinSet keeps every task
                    // until it is joined, and a long run has hundreds of thousands.
                    while let Some(result) = deletes.try_join_next() {
                        let (count, failed) = result?;
                        deleted += (count - failed) as u64;
                        delete_failed += failed as u64;
                    }
                    if settings.delete {
                        let permit = deleters.clone().acquire_owned().await?;
                        let sqs = sqs.clone();
                        let queue = queue.clone();
                        deletes.spawn(async move {
                            let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
                            let failed = match sqs
                                .delete_batch_retrying(&queue, &refs, DELETE_ATTEMPTS)
                                .await
                            {
                                Ok(outcomes) => outcomes.iter().filter(|o| !o.is_ok()).count(),
                                Err(_) => refs.len(),
                            };
                            drop(permit);
                            (refs.len(), failed)
                        });
                    }
                    continue;
                }
                Err(err) => {
                    write_error = Some(err);
                    shared.halt();
                }
            }
        }
        unwritten += batch.len() as u64;
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
    if unwritten > 0 && released_failed > 0 {
        ctx.printer.warn(format!(
            "{released_failed} messages that were not written could not be made visible again; they return after their visibility timeout"
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

fn receipt_handles(batch: &[MessageRecord]) -> Vec<String> {
    batch
        .iter()
        .filter_map(|m| m.receipt_handle.clone())
        .collect()
}

/// One receiver: reserves its share of the budget, receives, hands the batch to the writer.
async fn receive_loop(
    shared: Arc<Shared>,
    tx: mpsc::Sender<Vec<MessageRecord>>,
) -> Result<(), ClientError> {
    let mut wait = shared.wait_seconds;
    loop {
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
        // is abandoned, since it most likely holds nothing yet.
        let request = shared.sqs.receive(&shared.queue, options);
        let received = if wait == 0 {
            request.await
        } else {
            tokio::select! {
                received = request => received,
                () = shared.halted() => {
                    shared.give_back(want);
                    return Ok(());
                }
            }
        };
        let batch = match received {
            Ok(batch) => batch,
            Err(err) => {
                shared.give_back(want);
                shared.done.store(true, Ordering::SeqCst);
                return Err(err);
            }
        };
        shared.give_back(want.saturating_sub(batch.len() as u64));
        if batch.is_empty() {
            if !shared.until_empty || wait > 0 {
                shared.done.store(true, Ordering::SeqCst);
                return Ok(());
            }
            // A short poll can miss messages on SQS (it samples some servers): when the queue
            // still reports visible messages, look again with a long poll before stopping.
            let attrs = shared.sqs.attributes(&shared.queue).await?;
            if attrs.visible() == 0 {
                shared.done.store(true, Ordering::SeqCst);
                return Ok(());
            }
            wait = 1;
            continue;
        }
        wait = shared.wait_seconds;
        if let Err(unsent) = tx.send(batch).await {
            // The writer is gone: put the messages back.
            let handles = receipt_handles(&unsent.0);
            let refs: Vec<&str> = handles.iter().map(String::as_str).collect();
            let _ = shared.sqs.release(&shared.queue, &refs).await;
            return Ok(());
        }
    }
}
