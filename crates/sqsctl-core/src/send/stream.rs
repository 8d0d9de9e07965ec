//! Sending a stream of records: the batches [`input`](super::input) reads go out several at a time
//! (one at a time to a FIFO queue, to keep its order), and each entry's outcome is tallied: sent,
//! failed (definitely not sent) or unknown (perhaps sent: an attempt failed after SQS may have
//! applied it, and none confirmed it), each entry not confirmed with its input line and the record
//! itself, for a retry. A confirmed entry that an attempt SQS may have applied went before may be
//! in a standard queue more than once: those copies are counted as possible duplicates (on a FIFO
//! queue SQS drops them, as the re-sent record keeps its deduplication id).
//!
//! A run stops early at an invalid line (unless invalid lines are skipped), a request that failed
//! after its retries, input that cannot be read, or an interrupt; it then finishes what is in
//! flight and names the first line it did not send. What happens comes out as [`Event`]s, pulled
//! with [`SendStream::next`]; nothing here prints.

use std::collections::VecDeque;
use std::io::Read;
use std::os::fd::AsFd;
use std::sync::Arc;

use serde::Serialize;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;

use super::input::{Batch, Item, LineFormat, RecordDefaults, spawn_reader};
use crate::client::{BatchOutcome, ClientError, EntryResult, QueueRef, RetryPolicy, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;

/// What a stream send reads and how.
pub struct StreamOptions {
    pub format: LineFormat,
    /// What the records do not say themselves.
    pub defaults: RecordDefaults,
    /// Skip lines that are not valid messages (each reported) instead of stopping at the first.
    pub skip_invalid: bool,
    /// Batches in flight at once on a standard queue.
    pub concurrency: usize,
    pub interrupt: Interrupt,
}

/// An entry SQS did not confirm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unconfirmed {
    /// Definitely not sent.
    Failed,
    /// Perhaps sent.
    Unknown,
}

impl Unconfirmed {
    /// `failed` or `unknown`: the name of the record that reports it.
    pub fn name(self) -> &'static str {
        match self {
            Unconfirmed::Failed => "failed",
            Unconfirmed::Unknown => "unknown",
        }
    }
}

/// An entry not confirmed sent, with its input line and the record, for a retry.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub line: u64,
    pub code: String,
    pub message: String,
    pub record: MessageRecord,
}

/// The counts of a stream send.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub sent: u64,
    /// Definitely not sent.
    pub failed: u64,
    /// Perhaps sent: see the `unknown` records.
    pub unknown: u64,
    /// At most this many copies of the `sent` messages are in a standard queue besides one of
    /// each: each is an attempt that SQS may have applied although its answer was an error or was
    /// lost, sent again and confirmed. How many did arrive twice nobody can tell (an SQS message
    /// id is new on each send). Always 0 on a FIFO queue: see `ambiguous_resends`.
    pub possible_duplicates: u64,
    /// Sends made again after an attempt SQS may have applied: on a standard queue the possible
    /// duplicates; on a FIFO queue SQS keeps one copy (the same deduplication id within 5
    /// minutes), so they are no duplicates.
    pub ambiguous_resends: u64,
    pub skipped: u64,
    /// The first input line not sent, when the run stopped before the end of its input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_line: Option<u64>,
    pub interrupted: bool,
}

impl Summary {
    /// Entries SQS answered for, whatever the answer.
    pub fn handled(&self) -> u64 {
        self.sent + self.failed + self.unknown
    }

    /// Lines were skipped and none was left to send: not a success.
    pub fn all_skipped(&self) -> bool {
        self.skipped > 0 && self.handled() == 0
    }
}

/// What happened, in the order it happened.
#[derive(Debug)]
pub enum Event {
    /// An invalid line, skipped.
    Skipped { line: u64, reason: String },
    /// A batch finished; its entries not confirmed follow as [`Event::NotSent`].
    Batch {
        first_line: u64,
        last_line: u64,
        sent: usize,
        not_sent: usize,
    },
    /// An entry not confirmed sent.
    NotSent {
        outcome: Unconfirmed,
        failure: Box<Failure>,
    },
}

/// Why a run stopped before the end of its input.
#[derive(Debug)]
pub enum Stop {
    /// A line that is not a valid message, when invalid lines are not skipped.
    InvalidLine { line: u64, reason: String },
    /// A request that failed as a whole after its retries.
    Request(ClientError),
    /// The input could not be read.
    Read(std::io::Error),
}

/// How a run ended.
#[derive(Debug)]
pub struct Finished {
    pub summary: Summary,
    pub failed: Vec<Failure>,
    pub unknown: Vec<Failure>,
    pub stop: Option<Stop>,
    /// Every line of the input was read.
    pub input_done: bool,
}

/// A stream send under way.
pub struct SendStream {
    sqs: Sqs,
    queue: QueueRef,
    /// The reader's batches; `None` once reading stopped, and what is in flight finishes.
    items: Option<mpsc::Receiver<Item>>,
    permits: Arc<Semaphore>,
    policy: RetryPolicy,
    tasks: JoinSet<(Batch, BatchOutcome)>,
    /// A FIFO queue drops a second send of a deduplication id within 5 minutes.
    deduplicated: bool,
    interrupt: Interrupt,
    skip_invalid: bool,
    concurrency: usize,
    events: VecDeque<Event>,
    summary: Summary,
    failed: Vec<Failure>,
    unknown: Vec<Failure>,
    stop: Option<Stop>,
    /// The first input line not handed to a request (nor skipped): where a stopped run resumes.
    next_line: u64,
    input_done: bool,
}

impl SendStream {
    /// Starts reading `input` (on a thread of its own) and sending what it holds to `queue`.
    pub fn start<R: Read + AsFd + Send + 'static>(
        sqs: &Sqs,
        queue: &QueueRef,
        input: R,
        options: StreamOptions,
    ) -> SendStream {
        // FIFO order holds only if batches leave one after the other.
        let concurrency = if queue.is_fifo() {
            1
        } else {
            options.concurrency.max(1)
        };
        let items = spawn_reader(
            input,
            options.format,
            options.defaults,
            options.skip_invalid,
            concurrency * 2,
        );
        SendStream {
            sqs: sqs.clone(),
            queue: queue.clone(),
            items: Some(items),
            permits: Arc::new(Semaphore::new(concurrency)),
            policy: RetryPolicy::default().stopped_by(options.interrupt.clone()),
            tasks: JoinSet::new(),
            deduplicated: queue.is_fifo(),
            interrupt: options.interrupt,
            skip_invalid: options.skip_invalid,
            concurrency,
            events: VecDeque::new(),
            summary: Summary::default(),
            failed: Vec::new(),
            unknown: Vec::new(),
            stop: None,
            next_line: 1,
            input_done: false,
        }
    }

    /// Requests in flight at once.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// The counts so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The next thing that happened; `None` once the run is over (then [`SendStream::finish`]).
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.events.pop_front() {
                return Some(event);
            }
            if self.items.is_some() {
                self.read_one().await;
            } else {
                let done = self.tasks.join_next().await?;
                self.batch_done(done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic())));
            }
        }
    }

    /// How the run ended.
    pub fn finish(mut self) -> Finished {
        // A run that stopped names the first line it did not send, also when every line was read
        // (the line after the last): what comes from there on is for the next run.
        if self.stop.is_some() || self.summary.interrupted {
            self.summary.stopped_at_line = Some(self.next_line);
        }
        Finished {
            summary: self.summary,
            failed: self.failed,
            unknown: self.unknown,
            stop: self.stop,
            input_done: self.input_done,
        }
    }

    /// Takes one item from the reader: sends a batch, skips or stops at an invalid line.
    async fn read_one(&mut self) {
        let Some(items) = self.items.as_mut() else {
            return;
        };
        let item = tokio::select! {
            item = items.recv() => item,
            () = self.interrupt.wait() => return self.interrupted(),
        };
        let Some(item) = item else {
            self.input_done = true;
            return self.stop_reading();
        };
        match item {
            Item::Batch(batch) => {
                let permit = tokio::select! {
                    permit = self.permits.clone().acquire_owned() => permit,
                    () = self.interrupt.wait() => return self.interrupted(),
                };
                let permit = permit.expect("the semaphore is never closed");
                if let Some(&last) = batch.lines.last() {
                    self.next_line = last + 1;
                }
                let (sqs, queue, policy) =
                    (self.sqs.clone(), self.queue.clone(), self.policy.clone());
                self.tasks.spawn(async move {
                    let outcome = sqs
                        .send_batch_retrying(&queue, &batch.records, &policy)
                        .await;
                    drop(permit);
                    (batch, outcome)
                });
            }
            Item::Invalid { line, reason } if self.skip_invalid => {
                self.next_line = line + 1;
                self.summary.skipped += 1;
                self.events.push_back(Event::Skipped { line, reason });
            }
            Item::Invalid { line, reason } => {
                self.next_line = line;
                self.stop = Some(Stop::InvalidLine { line, reason });
            }
            Item::ReadError(err) => self.stop = Some(Stop::Read(err)),
        }
        while let Some(done) = self.tasks.try_join_next() {
            self.batch_done(done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic())));
        }
        if self.stop.is_some() {
            self.stop_reading();
        }
    }

    fn interrupted(&mut self) {
        self.summary.interrupted = true;
        self.stop_reading();
    }

    /// Stops the reader; what it already handed over and is in flight is finished.
    fn stop_reading(&mut self) {
        self.items = None;
    }

    /// Tallies one finished batch. A request that failed as a whole after its retries stops the
    /// run; its entries are reported like any other entry not sent.
    fn batch_done(&mut self, (batch, outcome): (Batch, BatchOutcome)) {
        let BatchOutcome {
            entries,
            request_error,
            ..
        } = outcome;
        let sent = entries.iter().filter(|o| o.is_done()).count();
        self.events.push_back(Event::Batch {
            first_line: batch.lines.first().copied().unwrap_or(0),
            last_line: batch.lines.last().copied().unwrap_or(0),
            sent,
            not_sent: entries.len() - sent,
        });
        for ((line, record), entry) in batch.lines.into_iter().zip(batch.records).zip(entries) {
            let (outcome, code, message) = match entry {
                EntryResult::Done {
                    ambiguous_attempts, ..
                } => {
                    self.summary.sent += 1;
                    let resends = u64::from(ambiguous_attempts);
                    self.summary.ambiguous_resends += resends;
                    if !self.deduplicated {
                        self.summary.possible_duplicates += resends;
                    }
                    continue;
                }
                EntryResult::Failed { code, message } => {
                    self.summary.failed += 1;
                    (Unconfirmed::Failed, code, message)
                }
                EntryResult::Unknown { code, message } => {
                    self.summary.unknown += 1;
                    (Unconfirmed::Unknown, code, message)
                }
            };
            let failure = Failure {
                line,
                code,
                message,
                record,
            };
            match outcome {
                Unconfirmed::Failed => self.failed.push(failure.clone()),
                Unconfirmed::Unknown => self.unknown.push(failure.clone()),
            }
            self.events.push_back(Event::NotSent {
                outcome,
                failure: Box::new(failure),
            });
        }
        if let Some(err) = request_error {
            self.stop.get_or_insert(Stop::Request(err));
            self.stop_reading();
        }
    }
}
