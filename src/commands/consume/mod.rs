//! `sqsctl consume`: run a command once per message, delete the message when the command exits 0,
//! release it for a retry when it fails.
//!
//! One event loop owns the run's state: the scheduler of received messages (FIFO lanes), the
//! heartbeat's book of held messages, the deletes and releases waiting to be batched, and the
//! counts. Everything slow happens in tasks that report back to it as [`Event`]s: one receive at a
//! time, the commands ([`child`]), the delete and visibility batch calls, and the heartbeat's
//! extensions. A message is deleted only after its command exited 0, and counts as done only when
//! SQS confirmed the delete; everything else a run holds is released (made visible again) rather
//! than left hidden, except when the process is killed outright, in which case SQS brings it back
//! after its visibility timeout and the run's [`watchdog`] kills the commands still running.

mod child;
mod report;
mod settings;
pub mod watchdog;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::common::resolve_queue;
use crate::client::{ClientError, EntryResult, QueueRef, ReceiveOptions, RetryPolicy, Sqs};
use crate::commands::context::Context;
use crate::consume::{Finished, Holdings, JobId, Scheduler, message_env, retry_delay};
use crate::error::{hinted, hinted_usage};
use crate::exit::ExitStatus;
use crate::message::MessageRecord;
use crate::select::Selector;
use crate::text::plural;
use child::{CommandSpec, Ending, OutputMode, Stream};
use report::{Counts, DeadLetter, Report, ResultRecord};
pub use settings::ConsumeSettings;

/// Events handled in one turn of the loop before it looks at timers and Ctrl-C again.
const EVENTS_PER_TURN: usize = 256;
/// How long a delete or release may wait for others to share its batch call: a batch of 10 costs
/// SQS one request instead of 10, and a command's slot is free meanwhile.
const LINGER: Duration = Duration::from_millis(10);

/// What the tasks of a run report to its event loop.
pub(crate) enum Event {
    Received {
        requested_at: Instant,
        result: Result<Vec<MessageRecord>, ClientError>,
    },
    Output {
        job: JobId,
        stream: Stream,
        line: Vec<u8>,
    },
    Exited {
        job: JobId,
        ending: Ending,
        took: Duration,
    },
    Settled {
        entries: Vec<Settle>,
        results: Vec<EntryResult>,
    },
    Extended {
        jobs: Vec<JobId>,
        requested_at: Instant,
        done: Vec<bool>,
    },
}

/// A delete or release on its way, and what it is for.
#[derive(Debug, Clone)]
pub(crate) struct Settle {
    /// The held message it settles; `None` for one never held (filtered out, beyond `--max`).
    job: Option<JobId>,
    receipt_handle: String,
    action: Action,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Delete,
    /// Visible again after this many seconds.
    Release(i32),
}

/// A message whose command was started, until its delete or release is answered.
struct Started {
    message_id: String,
    receive_count: u64,
    ending: Option<Ending>,
    took: Duration,
    retry_in: Option<u64>,
}

pub async fn run(ctx: &Context, settings: ConsumeSettings) -> anyhow::Result<ExitStatus> {
    let program = child::find_program(&settings.program).map_err(|why| {
        hinted_usage(
            format!("cannot run the command: {why}"),
            "give the command after `--` as a name on PATH or a path; for shell syntax use `-- sh -c '...'`",
        )
    })?;
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?.clone();
    let receive_policy = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let attributes = receive_policy
        .request(|| sqs.attributes(&queue))
        .await
        .result?;
    let fifo = queue.is_fifo() || attributes.is_fifo();
    let visibility = settings.visibility.unwrap_or_else(|| {
        Duration::from_secs(attributes.visibility_timeout().unwrap_or(30).max(1))
    });
    let selector = Selector::compile(&settings.selection).map_err(anyhow::Error::msg)?;
    if !settings.selection.is_all()
        && let Some(policy) = attributes.redrive_policy()
    {
        ctx.printer.warn(format!(
            "messages that do not match the selection are released, and each receive counts toward `{}`'s maxReceiveCount {}: one that stays unmatched moves to its dead-letter queue in the end",
            queue.name, policy.max_receive_count
        ));
    }
    let records = ctx.printer.passing("consume")? == crate::output::Passing::Records;
    let dead_letter = attributes.redrive_policy().map(|policy| DeadLetter {
        queue: policy
            .dead_letter_target_arn
            .rsplit(':')
            .next()
            .unwrap_or(&policy.dead_letter_target_arn)
            .to_string(),
        max_receive_count: u64::from(policy.max_receive_count),
    });
    let report = Report::new(&ctx.printer, records, settings.concurrency > 1);
    let output = if !records && settings.concurrency == 1 && report.progress_hidden() {
        OutputMode::Inherit
    } else {
        OutputMode::Lines
    };
    let spec = Arc::new(CommandSpec {
        program,
        args: settings.args.clone(),
        output,
        timeout: settings.timeout,
        env: vec![
            ("SQS_QUEUE_URL".into(), queue.url.clone()),
            ("SQS_QUEUE_NAME".into(), queue.name.clone()),
        ],
        watchdog: start_watchdog(ctx),
    });
    ctx.printer.debug(format!(
        "{} at a time, visibility timeout {} s (extended while a command runs), {}",
        plural(settings.concurrency as u64, "command"),
        visibility.as_secs(),
        if fifo {
            "one message per group at a time"
        } else {
            "in the order received"
        }
    ));
    ctx.interrupt.handle_abort();
    let (events, mut inbox) = mpsc::channel::<Event>(1024);
    let mut worker = Worker {
        ctx,
        sqs,
        queue,
        selector,
        scheduler: Scheduler::new(fifo, settings.concurrency),
        holdings: Holdings::new(visibility),
        settings,
        spec,
        events,
        kill: watch::channel(false).0,
        receive_policy,
        settle_policy: RetryPolicy::default(),
        receiving: None,
        stop_receiving: false,
        interrupted: false,
        killed: false,
        taken: 0,
        last_seen: Instant::now(),
        started: HashMap::new(),
        skipped_seen: HashSet::new(),
        to_settle: Vec::new(),
        settle_by: None,
        settling: 0,
        counts: Counts::default(),
        dead_letter,
        fatal: None,
        write_error: None,
        report,
    };
    let mut heartbeat = tokio::time::interval(worker.holdings.tick());
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        worker.start_ready();
        worker.receive_more();
        worker.flush();
        if worker.done() {
            break;
        }
        let interrupt = &worker.ctx.interrupt;
        let linger = worker.settle_by;
        tokio::select! {
            () = tokio::time::sleep_until(linger.unwrap_or_else(Instant::now)), if linger.is_some() => {}
            Some(event) = inbox.recv() => {
                worker.handle(event);
                for _ in 1..EVENTS_PER_TURN {
                    match inbox.try_recv() {
                        Ok(event) => worker.handle(event),
                        Err(_) => break,
                    }
                }
                worker.report.progress(&worker.counts, worker.scheduler.running());
            }
            _ = heartbeat.tick() => worker.extend_due(),
            () = interrupt.wait(), if !worker.interrupted => worker.on_interrupt(),
            () = interrupt.grace_over(), if worker.interrupted && !worker.killed => worker.kill_all(),
            () = interrupt.aborted(), if !worker.killed => worker.kill_all(),
        }
    }
    worker.finish()
}

/// The run's [`watchdog::Watchdog`], or a warning that commands may outlive a killed run.
fn start_watchdog(ctx: &Context) -> Option<watchdog::Watchdog> {
    #[cfg(unix)]
    match watchdog::Watchdog::start() {
        Ok(watchdog) => Some(watchdog),
        Err(err) => {
            ctx.printer.warn(format!(
                "could not start the watchdog that stops the commands if sqsctl is killed ({err}): a command may outlive a `kill -9` of this run"
            ));
            None
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctx;
        None
    }
}

struct Worker<'a> {
    ctx: &'a Context,
    sqs: Sqs,
    queue: QueueRef,
    settings: ConsumeSettings,
    selector: Selector,
    scheduler: Scheduler<MessageRecord>,
    holdings: Holdings,
    spec: Arc<CommandSpec>,
    events: mpsc::Sender<Event>,
    /// Set to true: every running command is killed.
    kill: watch::Sender<bool>,
    receive_policy: RetryPolicy,
    /// Deletes, releases and extensions go on after Ctrl-C: they settle what is already done.
    settle_policy: RetryPolicy,
    /// The receive in flight.
    receiving: Option<JoinHandle<()>>,
    stop_receiving: bool,
    interrupted: bool,
    killed: bool,
    /// Messages accepted to run (what `--max` counts).
    taken: u64,
    /// When a receive last brought a message to run.
    last_seen: Instant,
    started: HashMap<JobId, Started>,
    /// Messages the selection left out once already: not released again, so that a run does not
    /// receive them over and over (each receive counts toward maxReceiveCount).
    skipped_seen: HashSet<String>,
    to_settle: Vec<Settle>,
    /// When the oldest of `to_settle` has waited long enough for company.
    settle_by: Option<Instant>,
    /// Delete and release calls in flight.
    settling: usize,
    counts: Counts,
    /// Where the queue's redrive policy sends a message that keeps failing.
    dead_letter: Option<DeadLetter>,
    fatal: Option<anyhow::Error>,
    write_error: Option<std::io::Error>,
    report: Report<'a>,
}

impl Worker<'_> {
    /// Nothing left to do: no more receiving, nothing held, nothing to settle.
    fn done(&self) -> bool {
        self.stop_receiving
            && self.receiving.is_none()
            && self.holdings.is_empty()
            && self.scheduler.running() == 0
            && self.to_settle.is_empty()
            && self.settling == 0
    }

    /// Starts what the scheduler lets start.
    fn start_ready(&mut self) {
        while !self.interrupted && self.fatal.is_none() {
            let Some((job, message)) = self.scheduler.start() else {
                return;
            };
            let stdin = if self.settings.jsonl {
                let mut line = serde_json::to_vec(&message).unwrap_or_default();
                line.push(b'\n');
                line
            } else {
                message.body.clone().into_bytes()
            };
            let env = message_env(&message);
            self.started.insert(
                job,
                Started {
                    message_id: message.message_id.clone().unwrap_or_default(),
                    receive_count: message
                        .attribute_u64("ApproximateReceiveCount")
                        .unwrap_or(1),
                    ending: None,
                    took: Duration::ZERO,
                    retry_in: None,
                },
            );
            tokio::spawn(child::run(
                job,
                self.spec.clone(),
                stdin,
                env,
                self.events.clone(),
                self.kill.subscribe(),
            ));
        }
    }

    /// Starts a receive when there is room for more messages and none is in flight.
    fn receive_more(&mut self) {
        if self.stop_receiving || self.receiving.is_some() {
            return;
        }
        let mut want = self.scheduler.room().min(10) as u64;
        if let Some(max) = self.settings.max {
            let left = max.saturating_sub(self.taken);
            if left == 0 {
                self.stop_receiving = true;
                return;
            }
            want = want.min(left);
        }
        if want == 0 {
            return;
        }
        // A receive waits at most as long as --idle-exit, so an idle run notices it promptly.
        let wait = match self.settings.idle_exit {
            Some(idle) => {
                let idle_secs = i32::try_from(idle.as_secs()).unwrap_or(i32::MAX);
                self.settings.wait_seconds.min(idle_secs.max(1))
            }
            None => self.settings.wait_seconds,
        };
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: Some(wait),
            visibility_timeout: Some(self.holdings.visibility_seconds()),
        };
        let (sqs, queue, events) = self.calls();
        let policy = self.receive_policy.clone();
        self.receiving = Some(tokio::spawn(async move {
            let requested_at = Instant::now();
            let outcome = sqs.receive_retrying(&queue, options, &policy).await;
            let _ = events
                .send(Event::Received {
                    requested_at,
                    result: outcome.result,
                })
                .await;
        }));
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Received {
                requested_at,
                result,
            } => {
                self.receiving = None;
                match result {
                    Ok(batch) => self.received(batch, requested_at),
                    Err(_) if self.interrupted => {}
                    Err(err) => {
                        self.fail(
                            anyhow::Error::new(err)
                                .context(format!("could not receive from `{}`", self.queue.name)),
                        );
                    }
                }
            }
            Event::Output { job, stream, line } => {
                let id = self
                    .started
                    .get(&job)
                    .map(|s| s.message_id.as_str())
                    .unwrap_or_default();
                if let Err(err) = self.report.output(id, stream, &line)
                    && self.write_error.is_none()
                {
                    self.write_error = Some(err);
                    self.stop();
                }
            }
            Event::Exited { job, ending, took } => self.exited(job, ending, took),
            Event::Settled { entries, results } => self.settled(entries, results),
            Event::Extended {
                jobs,
                requested_at,
                done,
            } => {
                for (job, done) in jobs.into_iter().zip(done) {
                    self.holdings.extended(job, requested_at, done);
                }
            }
        }
    }

    fn received(&mut self, batch: Vec<MessageRecord>, requested_at: Instant) {
        let now = Instant::now();
        if batch.is_empty() {
            self.check_idle(now);
            return;
        }
        for message in batch {
            let Some(handle) = message.receipt_handle.clone() else {
                continue;
            };
            let release = |job| Settle {
                job,
                receipt_handle: handle.clone(),
                action: Action::Release(0),
            };
            if self.stop_receiving || self.interrupted {
                self.counts.returned += 1;
                self.to_settle.push(release(None));
                continue;
            }
            if !self.selector.matches(&message) {
                self.counts.skipped += 1;
                let id = message.message_id.clone().unwrap_or_default();
                if self.skipped_seen.insert(id) {
                    self.to_settle.push(release(None));
                }
                continue;
            }
            if self.settings.max.is_some_and(|max| self.taken >= max) {
                self.counts.returned += 1;
                self.to_settle.push(release(None));
                continue;
            }
            self.taken += 1;
            self.last_seen = now;
            let group = message.effective_group_id().map(str::to_string);
            let job = self.scheduler.push(group.as_deref(), message);
            self.holdings.hold(job, handle, requested_at);
        }
    }

    /// After an empty receive: with `--idle-exit`, stops once nothing is held and nothing was
    /// received for that long. A message waiting out its retry delay is not visible, so it does
    /// not keep a run going: an `--idle-exit` longer than the retry delay waits for it.
    fn check_idle(&mut self, now: Instant) {
        let Some(idle) = self.settings.idle_exit else {
            return;
        };
        if self.holdings.is_empty()
            && self.to_settle.is_empty()
            && self.settling == 0
            && now >= self.last_seen + idle
        {
            self.stop_receiving = true;
        }
    }

    fn exited(&mut self, job: JobId, ending: Ending, took: Duration) {
        self.scheduler.exited(job);
        let Some(handle) = self.holdings.receipt_handle(job).map(str::to_string) else {
            return;
        };
        let receive_count = self.started.get(&job).map_or(1, |s| s.receive_count);
        let action = match &ending {
            Ending::Exited(0) => Action::Delete,
            Ending::Exited(code) if self.settings.release_exit_codes.contains(code) => {
                self.counts.released += 1;
                Action::Release(0)
            }
            Ending::Killed => {
                self.counts.stopped += 1;
                Action::Release(0)
            }
            // The interrupt itself, not `self.interrupted`: the loop may see the command's end
            // before the signal that stops the run.
            ending if self.ctx.interrupt.is_set() && ending.by_stop_signal() => {
                self.counts.stopped += 1;
                Action::Release(0)
            }
            Ending::NotStarted(why) => {
                self.counts.stopped += 1;
                self.fail(hinted(
                    format!("could not start `{}`: {why}", self.settings.program),
                    "the messages it held were released; check the command and run again",
                ));
                Action::Release(0)
            }
            Ending::Exited(_) | Ending::Signaled(_) | Ending::TimedOut => {
                self.counts.failed += 1;
                self.count_last_receive(receive_count);
                let delay = retry_delay(
                    self.settings.retry_delay,
                    self.settings.max_retry_delay,
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

    fn settled(&mut self, entries: Vec<Settle>, results: Vec<EntryResult>) {
        self.settling = self.settling.saturating_sub(1);
        for (settle, result) in entries.into_iter().zip(results) {
            let Some(job) = settle.job else {
                continue;
            };
            self.holdings.forget(job);
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
            let record = ResultRecord::new(
                started.message_id,
                started.ending.as_ref(),
                settle.action == Action::Delete && result.is_done(),
                started.took,
                started.receive_count,
                started.retry_in,
                error,
            );
            if let Err(err) = self.report.result(&record)
                && self.write_error.is_none()
            {
                self.write_error = Some(err);
                self.stop();
            }
        }
    }

    /// Releases messages taken out of the scheduler without being run.
    fn release_unstarted(&mut self, jobs: Vec<(JobId, MessageRecord)>) {
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
    fn flush(&mut self) {
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
        self.to_settle = blocked;
        if !self.to_settle.is_empty() {
            self.settle_by = Some(now + LINGER);
        }
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
                    sqs.delete_batch_retrying(&queue, &handles, &policy).await
                } else {
                    let changes: Vec<(&str, i32)> = entries
                        .iter()
                        .map(|s| match s.action {
                            Action::Release(seconds) => (s.receipt_handle.as_str(), seconds),
                            Action::Delete => (s.receipt_handle.as_str(), 0),
                        })
                        .collect();
                    sqs.change_visibility_retrying(&queue, &changes, &policy)
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
    fn extend_due(&mut self) {
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
                    .change_visibility_retrying(&queue, &changes, &policy)
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

    /// What a task making SQS calls for the run takes along: the client, the queue, the way back.
    fn calls(&self) -> (Sqs, QueueRef, mpsc::Sender<Event>) {
        (self.sqs.clone(), self.queue.clone(), self.events.clone())
    }

    /// Stops receiving and releases what has not started.
    fn stop(&mut self) {
        self.stop_receiving = true;
        if let Some(receiving) = self.receiving.take() {
            // A long poll most likely holds nothing yet; what an abandoned receive did hide comes
            // back after its visibility timeout.
            receiving.abort();
        }
        let waiting = self.scheduler.drain();
        self.release_unstarted(waiting);
    }

    /// The first Ctrl-C.
    fn on_interrupt(&mut self) {
        self.interrupted = true;
        let waiting = self.scheduler.waiting();
        self.stop();
        let running = self.scheduler.running();
        if running > 0 || waiting > 0 {
            self.ctx.printer.info(format!(
                "{} not started released; {} may finish within the grace period",
                plural(waiting as u64, "message"),
                plural(running as u64, "running command")
            ));
        }
    }

    /// After the grace period, or at the second Ctrl-C: kills every running command (their
    /// messages are released).
    fn kill_all(&mut self) {
        self.interrupted = true;
        self.killed = true;
        self.stop();
        self.kill.send_replace(true);
    }

    /// An error that ends the run: no new message starts, the waiting ones are released, running
    /// commands finish.
    fn fail(&mut self, err: anyhow::Error) {
        if self.fatal.is_none() {
            self.fatal = Some(err);
        }
        self.stop();
    }

    /// Counts a message released after its last receive: SQS moves it to the dead-letter queue
    /// instead of delivering it again.
    fn count_last_receive(&mut self, receive_count: u64) {
        if self
            .dead_letter
            .as_ref()
            .is_some_and(|dl| receive_count >= dl.max_receive_count)
        {
            self.counts.at_last_receive += 1;
        }
    }

    fn finish(self) -> anyhow::Result<ExitStatus> {
        let counts = &self.counts;
        self.report.summary(
            counts,
            &self.queue.name,
            self.dead_letter.as_ref(),
            self.interrupted,
        )?;
        if counts.not_deleted > 0 {
            self.ctx.printer.warn(format!(
                "{} succeeded but SQS did not confirm the delete: they will be delivered again",
                plural(counts.not_deleted, "message")
            ));
        }
        if let Some(failures) = self.selector.where_failures() {
            self.ctx.printer.warn(failures.describe(&self.queue.name));
        }
        if counts.release_failed > 0 {
            self.ctx.printer.warn(format!(
                "{} could not be released: they come back when their visibility timeout ends",
                plural(counts.release_failed, "message")
            ));
        }
        if self.holdings.lapsed() > 0 {
            self.ctx.printer.warn(format!(
                "the visibility timeout of {} lapsed before the heartbeat extended it: SQS may have delivered them to another consumer; a longer --visibility leaves more room",
                plural(self.holdings.lapsed(), "held message")
            ));
        }
        if let Some(err) = self.write_error {
            return Err(anyhow::Error::new(err).context("could not write to stdout"));
        }
        if let Some(err) = self.fatal {
            return Err(err);
        }
        Ok(if self.interrupted {
            ExitStatus::Interrupted
        } else if counts.failed + counts.released + counts.not_deleted > 0 {
            ExitStatus::Partial
        } else {
            ExitStatus::Success
        })
    }
}
