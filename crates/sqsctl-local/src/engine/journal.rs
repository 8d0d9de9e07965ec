//! The write-behind log of changes to the data directory, and group commit.
//!
//! The in-memory store stays the server's truth; every change to it is also recorded here as an
//! [`Op`], in the order it was applied (ops are recorded under the queue lock that ordered the
//! change). One writer thread takes every op recorded so far, applies them to the data directory
//! in one transaction and commits (one fsync for all of them), then tells the requests waiting on
//! those ops that they are durable: a request is answered only after its changes are on disk, and
//! concurrent requests share one commit. Without a data directory the [`Journal`] is off: recording
//! is one branch, and nothing waits.
//!
//! A change made of several ops (a FIFO send: its deduplication entry and its message; a purge:
//! the messages, the deduplication entries and the queue's purge time; a move task's step: the
//! messages and the task's count) is recorded with [`Journal::record_all`], under one lock of the pending list, so the
//! writer takes all of it or none of it into a commit: a crash never keeps half of a change. An
//! answer that rests on another request's change (a FIFO retry answered from the deduplication
//! cache) waits with [`Journal::await_recorded`] for everything recorded so far.
//!
//! This module knows the ops and the commit protocol; the data directory's format is
//! [`crate::storage::disk`]'s business.

use std::cell::Cell;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;

use parking_lot::{Condvar, Mutex};
use tokio::sync::watch;

use crate::engine::attrs::QueueAttributes;
use crate::engine::fifo::Original;
use crate::engine::message::{State, StoredMessage};

/// A queue as it is stored: its identity, settings and counters.
#[derive(Debug, Clone)]
pub struct QueueRecord {
    pub row: u64,
    /// `None` for a queue kept by a data directory from before queues had regions: it belongs
    /// to the server's default region.
    pub region: Option<String>,
    pub name: String,
    pub fifo: bool,
    pub created_at: u64,
    pub attributes: QueueAttributes,
    pub tags: std::collections::BTreeMap<String, String>,
    pub last_modified: u64,
    pub last_purge: Option<u64>,
    pub next_sequence: u64,
}

/// A message move task as it is stored.
#[derive(Debug, Clone)]
pub struct TaskRecord {
    pub handle: String,
    pub source_arn: String,
    pub destination_arn: Option<String>,
    pub rate: Option<u32>,
    pub started_at: u64,
    pub to_move: u64,
    pub moved: u64,
    pub status: String,
    pub reason: Option<String>,
}

/// One change to what the data directory holds.
#[derive(Debug)]
pub enum Op {
    PutQueue(QueueRecord),
    DeleteQueue {
        queue: u64,
    },
    /// Stores a message in a queue, replacing its row (a move between queues is one put).
    PutMessage {
        queue: u64,
        message: StoredMessage,
    },
    /// A receive or a visibility change.
    MessageState {
        row: u64,
        state: State,
        receive_count: u32,
        first_received_at: Option<u64>,
    },
    DeleteMessage {
        row: u64,
    },
    /// Deletes the queue's messages and its deduplication entries.
    Purge {
        queue: u64,
    },
    Dedup {
        queue: u64,
        key: String,
        original: Original,
        expires: u64,
    },
    PutTask(TaskRecord),
}

#[derive(Debug, Clone, Default)]
struct Progress {
    /// Every op up to this ticket is committed.
    durable: u64,
    failed: Option<Arc<str>>,
}

#[derive(Debug, Default)]
struct Pending {
    ops: Vec<Op>,
    /// Tickets handed out so far; the last op in `ops` has this one.
    enqueued: u64,
    closing: bool,
}

#[derive(Debug)]
struct Writer {
    pending: Mutex<Pending>,
    wake: Condvar,
    progress: watch::Sender<Progress>,
    next_row: AtomicU64,
    thread: Mutex<Option<JoinHandle<()>>>,
    dir: PathBuf,
}

/// Recording changes: off (in memory only) or writing to a data directory. Clones share the writer.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    writer: Option<Arc<Writer>>,
}

/// Why a change could not be made durable.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the data directory {dir} could not be written: {reason}")]
pub struct NotDurable {
    pub dir: String,
    pub reason: Arc<str>,
}

tokio::task_local! {
    /// The last ticket recorded by the request running in this task.
    static TICKET: Cell<u64>;
}

impl Journal {
    /// A journal that records nothing.
    pub fn off() -> Self {
        Journal::default()
    }

    /// Starts the writer thread that commits to `sink`, which writes the data directory `dir`;
    /// rows of new messages start after `last_row`.
    pub fn start(sink: impl Sink, dir: PathBuf, last_row: u64) -> std::io::Result<Self> {
        let (progress, _) = watch::channel(Progress::default());
        let writer = Arc::new(Writer {
            pending: Mutex::new(Pending::default()),
            wake: Condvar::new(),
            progress,
            next_row: AtomicU64::new(last_row + 1),
            thread: Mutex::new(None),
            dir,
        });
        let for_thread = writer.clone();
        let handle = std::thread::Builder::new()
            .name("sqsctl-local-journal".into())
            .spawn(move || write_loop(&for_thread, sink))?;
        *writer.thread.lock() = Some(handle);
        Ok(Journal {
            writer: Some(writer),
        })
    }

    pub fn is_on(&self) -> bool {
        self.writer.is_some()
    }

    /// A row for a new message; 0 when the journal is off.
    pub fn next_row(&self) -> u64 {
        self.writer
            .as_ref()
            .map_or(0, |w| w.next_row.fetch_add(1, Ordering::Relaxed))
    }

    /// Records a change already applied in memory. Call it while holding the lock that ordered the
    /// change, so ops reach the disk in the order they were applied.
    pub fn record(&self, op: Op) {
        self.record_all([op]);
    }

    /// Records a change made of several ops: they are committed together or not at all. Call it
    /// while holding the lock that ordered the change, as [`Journal::record`].
    pub fn record_all(&self, ops: impl IntoIterator<Item = Op>) {
        let Some(writer) = &self.writer else {
            return;
        };
        // A receive or a visibility change is written in order with the rest but not waited for:
        // after a crash its receipt handle is refused anyway, and losing it only makes the message
        // visible again sooner. Sends, deletes and queue changes are what a client relies on.
        let mut awaited = false;
        let ticket = {
            // One lock for the whole change: the writer swaps the pending list out under this
            // lock, so it sees all of the change or none of it.
            let mut pending = writer.pending.lock();
            for op in ops {
                awaited |= !matches!(op, Op::MessageState { .. });
                pending.ops.push(op);
                pending.enqueued += 1;
            }
            pending.enqueued
        };
        writer.wake.notify_one();
        if awaited {
            wait_for_ticket(ticket);
        }
    }

    /// Makes the running request wait, before it is answered, until everything recorded so far
    /// is durable: for an answer that rests on a change another request recorded (a FIFO retry
    /// answered from the deduplication cache, a CreateQueue of a queue that exists), which may
    /// still be on its way to the disk.
    pub fn await_recorded(&self) {
        if let Some(writer) = &self.writer {
            wait_for_ticket(writer.pending.lock().enqueued);
        }
    }

    /// Records the op `make` builds, building it only when the journal is on.
    pub fn record_with(&self, make: impl FnOnce() -> Op) {
        if self.is_on() {
            self.record(make());
        }
    }

    /// Runs a request and returns its answer once every change it recorded is durable.
    pub async fn durable<T>(&self, request: impl Future<Output = T>) -> Result<T, NotDurable> {
        let Some(writer) = &self.writer else {
            return Ok(request.await);
        };
        let (output, ticket) = TICKET
            .scope(Cell::new(0), async {
                let output = request.await;
                (output, TICKET.with(Cell::get))
            })
            .await;
        if ticket == 0 {
            return Ok(output);
        }
        let mut progress = writer.progress.subscribe();
        let reached = progress
            .wait_for(|p| p.durable >= ticket || p.failed.is_some())
            .await
            .map(|p| p.clone());
        match reached {
            Ok(p) if p.durable >= ticket => Ok(output),
            Ok(p) => Err(writer.not_durable(p.failed.unwrap_or_else(|| "".into()))),
            Err(_) => Err(writer.not_durable("the writer stopped".into())),
        }
    }

    /// Waits (blocking) until everything recorded so far is durable.
    pub fn flush(&self) -> Result<(), NotDurable> {
        let Some(writer) = &self.writer else {
            return Ok(());
        };
        let ticket = writer.pending.lock().enqueued;
        let mut progress = writer.progress.subscribe();
        loop {
            let p = progress.borrow_and_update().clone();
            if let Some(reason) = p.failed {
                return Err(writer.not_durable(reason));
            }
            if p.durable >= ticket {
                return Ok(());
            }
            // A plain thread has no runtime to wait on the channel with: poll gently.
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Commits what is pending and stops the writer. Changes recorded afterwards are not kept.
    pub fn close(&self) {
        let Some(writer) = &self.writer else {
            return;
        };
        writer.pending.lock().closing = true;
        writer.wake.notify_one();
        let thread = writer.thread.lock().take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
        // Anything recorded from now on is never committed: whoever waits for it gets an error.
        writer.progress.send_modify(|p| {
            p.failed.get_or_insert_with(|| "the server stopped".into());
        });
    }
}

/// Makes the running request wait for `ticket` as well as for what it waits for already.
fn wait_for_ticket(ticket: u64) {
    let _ = TICKET.try_with(|t| t.set(t.get().max(ticket)));
}

impl Writer {
    fn not_durable(&self, reason: Arc<str>) -> NotDurable {
        NotDurable {
            dir: self.dir.display().to_string(),
            reason,
        }
    }
}

/// Where the writer commits: the data directory, or in tests a recorder of the batches.
pub trait Sink: Send + 'static {
    type Error: std::fmt::Display;
    /// Commits `ops` in one transaction: all of them or none.
    fn apply(&mut self, ops: &[Op]) -> Result<(), Self::Error>;
    /// Called once everything is committed at a clean stop.
    fn finish(&mut self) -> Result<(), Self::Error>;
}

fn write_loop(writer: &Writer, mut disk: impl Sink) {
    let mut batch = Vec::new();
    loop {
        let upto = {
            let mut pending = writer.pending.lock();
            while pending.ops.is_empty() && !pending.closing {
                writer.wake.wait(&mut pending);
            }
            if pending.ops.is_empty() {
                drop(pending);
                // Only a stop with every change committed counts as clean: the next start then
                // expects no write-ahead log to replay.
                if writer.progress.borrow().failed.is_none()
                    && let Err(err) = disk.finish()
                {
                    eprintln!(
                        "sqsctl local: {}",
                        writer.not_durable(err.to_string().into())
                    );
                }
                return;
            }
            std::mem::swap(&mut batch, &mut pending.ops);
            pending.enqueued
        };
        if writer.progress.borrow().failed.is_none() {
            let outcome = disk.apply(&batch);
            writer.progress.send_modify(|p| match outcome {
                Ok(()) => p.durable = upto,
                Err(err) => {
                    eprintln!(
                        "sqsctl local: {}; changes from now on are not kept, and requests that change anything fail: restart the server",
                        writer.not_durable(err.to_string().into())
                    );
                    p.failed = Some(err.to_string().into());
                }
            });
        }
        batch.clear();
    }
}

#[cfg(test)]
pub mod testing {
    //! A journal whose writer keeps, instead of committing, what each commit would have held.

    use std::sync::Arc;

    use parking_lot::Mutex;

    use super::{Journal, Op, Sink};

    /// One op as a commit would hold it: its kind and the message it names, if any.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum Kept {
        Dedup(uuid::Uuid),
        Put(uuid::Uuid),
        Other,
    }

    /// The commits a recording journal made, in order.
    pub type Commits = Arc<Mutex<Vec<Vec<Kept>>>>;

    /// While it holds `true`, commits wait: the disk is slow.
    pub type Gate = Arc<(Mutex<bool>, parking_lot::Condvar)>;

    struct Recorder(Commits, Gate);

    impl Sink for Recorder {
        type Error = std::convert::Infallible;

        fn apply(&mut self, ops: &[Op]) -> Result<(), Self::Error> {
            let (closed, opened) = &*self.1;
            let mut closed = closed.lock();
            while *closed {
                opened.wait(&mut closed);
            }
            let kept = ops
                .iter()
                .map(|op| match op {
                    Op::Dedup { original, .. } => Kept::Dedup(original.message_id),
                    Op::PutMessage { message, .. } => Kept::Put(message.id),
                    _ => Kept::Other,
                })
                .collect();
            self.0.lock().push(kept);
            Ok(())
        }

        fn finish(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    pub fn recording() -> (Journal, Commits) {
        let (journal, commits, _) = gated();
        (journal, commits)
    }

    /// A recording journal whose commits wait while the gate is closed.
    pub fn gated() -> (Journal, Commits, Gate) {
        let commits = Commits::default();
        let gate = Gate::default();
        let journal = Journal::start(Recorder(commits.clone(), gate.clone()), "test".into(), 0)
            .unwrap_or_else(|e| panic!("{e}"));
        (journal, commits, gate)
    }

    pub fn set_gate(gate: &Gate, closed: bool) {
        *gate.0.lock() = closed;
        gate.1.notify_all();
    }
}
