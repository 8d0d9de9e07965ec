//! The run loop: receive, run a command per message, delete what succeeded, release the rest.
//!
//! One event loop owns the run's state: the scheduler of received messages (FIFO lanes), the
//! heartbeat's book of held messages, the deletes and releases waiting to be batched, and the
//! counts. Everything slow happens in tasks that report back to it as [`Event`]s: one receive at a
//! time ([`super::receive`]), the commands ([`super::child`]), the delete and visibility batch calls ([`super::settle`]),
//! and the heartbeat's extensions. A message is deleted only after its command exited 0, and counts
//! as done only when SQS confirmed the delete; everything else a run holds is released (made
//! visible again) rather than left hidden, except when the process is killed outright, in which
//! case SQS brings it back after its visibility timeout and the run's [`super::watchdog`] kills the
//! commands still running. What the run has to tell goes to its caller as [`Update`]s, and a
//! [`Summary`] when it ends; nothing here prints.

use std::collections::{HashMap, HashSet};
use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::child::{self, CommandSpec, Ending, Stream};
use super::family::Family;
use super::options::{Options, Plan};
use super::outcome::{Counts, DeadLetter, Stopped, Summary, Update};
use super::settle::Settle;
use super::source::Source;
use crate::client::{ClientError, EntryResult, QueueRef, RetryPolicy, Sqs};
use crate::consume::{Deliveries, Holdings, JobId, Scheduler, message_env};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::select::Selector;

/// Events handled in one turn of the loop before it looks at timers and Ctrl-C again.
const EVENTS_PER_TURN: usize = 256;

/// Runs the worker on `source` until it is done: the limit reached, idle for `idle_exit`, Ctrl-C,
/// or an error. `update` is called for each [`Update`]; an error it returns stops the run.
pub async fn run(
    sqs: Sqs,
    source: &Source,
    plan: Plan,
    options: Options,
    update: impl FnMut(Update<'_>) -> io::Result<()>,
) -> Summary {
    let spec = Arc::new(CommandSpec {
        program: options.program,
        args: options.args,
        output: options.output,
        timeout: plan.timeout,
        env: vec![
            ("SQS_QUEUE_URL".into(), source.queue.url.clone()),
            ("SQS_QUEUE_NAME".into(), source.queue.name.clone()),
        ],
        family: Family::new(options.watchdog),
    });
    let (events, mut inbox) = mpsc::channel::<Event>(1024);
    let mut worker = Worker {
        sqs,
        queue: source.queue.clone(),
        dead_letter: source.dead_letter.clone(),
        scheduler: Scheduler::new(source.fifo, plan.concurrency).with_per_group(plan.per_group),
        holdings: Holdings::new(plan.visibility_on(source)),
        deliveries: Deliveries::new(plan.visibility_on(source)),
        receive_policy: RetryPolicy::default().stopped_by(options.interrupt.clone()),
        settle_policy: RetryPolicy::default(),
        plan,
        selector: options.selector,
        interrupt: options.interrupt,
        spec,
        events,
        kill: watch::channel(false).0,
        receiving: None,
        stop_receiving: false,
        interrupted: false,
        killed: false,
        taken: 0,
        last_seen: Instant::now(),
        started: HashMap::new(),
        skipped_seen: HashSet::new(),
        failed_messages: HashMap::new(),
        to_settle: Vec::new(),
        settle_by: None,
        settling: 0,
        counts: Counts::default(),
        stopped: None,
        write_error: None,
        update,
    };
    let interrupt = worker.interrupt.clone();
    let mut heartbeat = tokio::time::interval(worker.holdings.tick());
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        worker.start_ready();
        worker.receive_more();
        worker.flush();
        // After the starts: commands that run quietly send no event until they exit, and the
        // progress line must count them as running meanwhile, not show what ran before.
        worker.progress();
        if worker.done() {
            break;
        }
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
            }
            _ = heartbeat.tick() => worker.extend_due(),
            () = interrupt.wait(), if !worker.interrupted => worker.on_interrupt(),
            () = interrupt.grace_over(), if worker.interrupted && !worker.killed => worker.kill_all(),
            () = interrupt.aborted(), if !worker.killed => worker.kill_all(),
        }
    }
    // What the commands left running in sessions of their own goes with the run.
    worker.spec.family.stop_orphans().await;
    Summary {
        counts: worker.counts,
        interrupted: worker.interrupted,
        lapsed: worker.holdings.lapsed(),
        where_failures: worker.selector.where_failures(),
        write_error: worker.write_error,
        stopped: worker.stopped,
    }
}

/// What the tasks of a run report to its event loop.
pub(super) enum Event {
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

/// A message whose command was started, until its delete or release is answered.
pub(super) struct Started {
    pub(super) message_id: String,
    pub(super) receive_count: u64,
    pub(super) ending: Option<Ending>,
    pub(super) took: Duration,
    pub(super) retry_in: Option<u64>,
}

pub(super) struct Worker<F> {
    sqs: Sqs,
    queue: QueueRef,
    pub(super) plan: Plan,
    pub(super) selector: Selector,
    pub(super) interrupt: Interrupt,
    pub(super) scheduler: Scheduler<MessageRecord>,
    pub(super) holdings: Holdings,
    /// The message ids held and lately deleted, to tell second deliveries.
    pub(super) deliveries: Deliveries,
    spec: Arc<CommandSpec>,
    events: mpsc::Sender<Event>,
    /// Set to true: every running command is killed.
    kill: watch::Sender<bool>,
    pub(super) receive_policy: RetryPolicy,
    /// Deletes, releases and extensions go on after Ctrl-C: they settle what is already done.
    pub(super) settle_policy: RetryPolicy,
    /// The receive in flight.
    pub(super) receiving: Option<JoinHandle<()>>,
    pub(super) stop_receiving: bool,
    pub(super) interrupted: bool,
    killed: bool,
    /// Messages accepted to run (what the limit counts).
    pub(super) taken: u64,
    /// When a receive last brought a message to run.
    pub(super) last_seen: Instant,
    pub(super) started: HashMap<JobId, Started>,
    /// Messages the selection left out once already: not released again, so that a run does not
    /// receive them over and over (each receive counts toward maxReceiveCount).
    pub(super) skipped_seen: HashSet<String>,
    /// The messages whose command failed, by id, and whether one of those failures came at the
    /// message's last receive: a message SQS delivered twice, or one retried, fails more than once
    /// but moves to the dead-letter queue once.
    pub(super) failed_messages: HashMap<String, bool>,
    pub(super) to_settle: Vec<Settle>,
    /// When the oldest of `to_settle` has waited long enough for company.
    pub(super) settle_by: Option<Instant>,
    /// Delete and release calls in flight.
    pub(super) settling: usize,
    pub(super) counts: Counts,
    /// Where the queue's redrive policy sends a message that keeps failing.
    pub(super) dead_letter: Option<DeadLetter>,
    stopped: Option<Stopped>,
    write_error: Option<io::Error>,
    pub(super) update: F,
}

impl<F: FnMut(Update<'_>) -> io::Result<()>> Worker<F> {
    /// Nothing left to do: no more receiving, no answer of a receive left to handle, nothing held,
    /// nothing to settle.
    fn done(&self) -> bool {
        self.stop_receiving
            && self.receiving.is_none()
            && self.holdings.is_empty()
            && self.scheduler.running() == 0
            && self.to_settle.is_empty()
            && self.settling == 0
    }

    /// What the caller answered to an update: the first error stops the run.
    pub(super) fn told(&mut self, answer: io::Result<()>) {
        if let Err(err) = answer
            && self.write_error.is_none()
        {
            self.write_error = Some(err);
            self.stop();
        }
    }

    /// The counts, after a turn of the loop.
    fn progress(&mut self) {
        let answer = (self.update)(Update::Progress {
            counts: &self.counts,
            running: self.scheduler.running(),
        });
        self.told(answer);
    }

    /// Starts what the scheduler lets start.
    fn start_ready(&mut self) {
        while !self.interrupted && self.stopped.is_none() {
            let Some((job, message)) = self.scheduler.start() else {
                return;
            };
            let stdin = if self.plan.record_on_stdin {
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
                self.interrupt.clone(),
            ));
        }
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
                    Err(err) => self.fail(Stopped::Receive(err)),
                }
            }
            Event::Output { job, stream, line } => {
                let message_id = self.started.get(&job).map_or("", |s| &s.message_id);
                let answer = (self.update)(Update::Output {
                    message_id,
                    stream,
                    line: &line,
                });
                self.told(answer);
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

    /// What a task making SQS calls for the run takes along: the client, the queue, the way back.
    pub(super) fn calls(&self) -> (Sqs, QueueRef, mpsc::Sender<Event>) {
        (self.sqs.clone(), self.queue.clone(), self.events.clone())
    }

    /// Stops receiving and releases what has not started.
    fn stop(&mut self) {
        self.stop_receiving = true;
        // A receive in flight while the run holds messages is short (see `receive_more`): it is
        // answered, releases wait for it (`flush`), and what it brings is released too. One sent
        // while nothing was held may wait long; nothing the run holds will be released after it,
        // so it is abandoned and most likely holds nothing yet (what it did hide comes back after
        // its visibility timeout). One that has answered already is kept: its answer waits in the
        // inbox.
        if self.holdings.is_empty()
            && let Some(receiving) = self.receiving.take_if(|r| !r.is_finished())
        {
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
        let answer = (self.update)(Update::Stopping { waiting, running });
        self.told(answer);
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
    pub(super) fn fail(&mut self, stopped: Stopped) {
        if self.stopped.is_none() {
            self.stopped = Some(stopped);
        }
        self.stop();
    }
}
