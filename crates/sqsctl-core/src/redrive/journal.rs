//! The journal: one JSON Lines file per run that records each message's state, so that a run
//! killed at any moment can be completed with `--resume` without losing a message and without
//! re-sending what it shows as sent.
//!
//! Lines are `{"type": KIND, "data": {...}}`. The first is the `plan`; then, per message (by its
//! DLQ message id): `received`, `sent` (with the destination's new message id), `deleted`, or
//! `failed` (with the reason it stays in the DLQ), or `unknown` (abandoned when the grace period
//! after Ctrl-C ran out while its send was unanswered: it may or may not have been sent).
//! `received` lines are written to the file (handed to the operating system, not synced) before
//! any of those messages is sent, so a `kill -9` never leaves a sent message out of the journal;
//! `sent` lines are on disk (fsync'd) before the delete of those messages is issued.
//!
//! A message the run hides in the DLQ is in flight until the `until_ms` of its `received` line, or
//! of a later `in_flight` line (written before each extension of its visibility timeout, so the
//! journal's deadline is never earlier than SQS's). `released` says that SQS confirmed making it
//! visible again (a held message at the end of a run, one that waited for `--rate` on Ctrl-C): only
//! that, or `deleted`, ends its time in flight. After a crash or a second Ctrl-C, `--resume` waits
//! until the latest deadline of the messages still in flight, so that it sees them all. Workers write
//! their lines themselves, in order under one lock; a single thread does the fsyncs, so one serves
//! every batch that is waiting for it.
//!
//! Each run (the first, and each `--resume`) that ends on its own closes with one line: `completed`
//! (with counts) when every message it was about moved, after which `--resume` has nothing to do;
//! otherwise `stopped`, with the reason, and `--resume` continues.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use serde::Serialize;
use serde_json::json;
use tokio::sync::watch;

use super::ids::{IdLog, IdSet};
use super::plan::Plan;

/// An open journal. Cheap to share by reference between workers.
///
/// Lines are written to the file by the caller, under a lock that keeps them in order: when
/// [`Journal::note`] or [`Journal::write`] returns, they are in the file. One thread does only the
/// syncs: a [`Journal::sync`] asks it for the lines written so far and waits until an `fdatasync`
/// begun after them has returned, so that one sync serves every batch waiting at the time and no
/// write waits for a thread.
pub struct Journal {
    path: PathBuf,
    shared: Arc<Shared>,
    /// How far the file is on disk, as the sync thread publishes it.
    synced: watch::Receiver<Synced>,
    syncer: Option<JoinHandle<()>>,
}

struct Shared {
    file: File,
    state: Mutex<State>,
    /// Wakes the sync thread: a sync was asked for, or the journal is closing.
    wake: Condvar,
}

#[derive(Default)]
struct State {
    /// Bytes written to the file by this journal.
    written: u64,
    /// The most bytes a sync was asked for.
    wanted: u64,
    /// The first failed write or sync: every later one fails too (the file may have a hole).
    broken: Option<(io::ErrorKind, String)>,
    closing: bool,
    /// The sync thread waits for a request: a sync must wake it.
    idle: bool,
}

impl State {
    fn check(&self) -> io::Result<()> {
        match &self.broken {
            None => Ok(()),
            Some((kind, text)) => Err(io::Error::new(*kind, text.clone())),
        }
    }
}

/// What the sync thread publishes after each `fdatasync`.
#[derive(Debug, Clone, Copy, Default)]
struct Synced {
    /// Bytes on disk.
    upto: u64,
    /// A sync failed: nothing more will be.
    failed: bool,
}

impl std::fmt::Debug for Journal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journal").field("path", &self.path).finish()
    }
}

/// One journal line.
pub fn line<T: Serialize>(kind: &str, data: &T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&json!({ "type": kind, "data": data })).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// The lines of one batch's messages, written straight into one buffer: the same text as
/// [`line`] gives (keys in the same order), without a JSON value built per message.
#[derive(Debug, Default)]
pub struct Lines(Vec<u8>);

impl Lines {
    /// Appends `{"data":{FIELDS},"type":KIND}`; a field without a value is `null`. Fields are
    /// given in the order [`line`] would write them (by name).
    pub fn push(&mut self, kind: &str, fields: &[(&str, Option<&str>)]) {
        self.push_fields(kind, fields, None);
    }

    /// [`Lines::push`] for a message the run hides in the DLQ: `until_ms` (after the given
    /// fields, whose names sort before it) is when it becomes visible again at the latest, unless
    /// a later line says it was released, deleted or hidden longer.
    pub fn push_until(&mut self, kind: &str, fields: &[(&str, Option<&str>)], until_ms: u64) {
        self.push_fields(kind, fields, Some(until_ms));
    }

    fn push_fields(&mut self, kind: &str, fields: &[(&str, Option<&str>)], until_ms: Option<u64>) {
        let out = &mut self.0;
        out.extend_from_slice(b"{\"data\":{");
        for (index, (name, value)) in fields.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            string(out, name);
            out.push(b':');
            match value {
                Some(value) => string(out, value),
                None => out.extend_from_slice(b"null"),
            }
        }
        if let Some(until_ms) = until_ms {
            if !fields.is_empty() {
                out.push(b',');
            }
            out.extend_from_slice(format!("\"until_ms\":{until_ms}").as_bytes());
        }
        out.extend_from_slice(b"},\"type\":");
        string(out, kind);
        out.extend_from_slice(b"}\n");
    }

    /// Appends the lines of `other` after these.
    pub fn extend(&mut self, other: Lines) {
        self.0.extend(other.0);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// A JSON string, quoted and escaped.
fn string(out: &mut Vec<u8>, text: &str) {
    // Message ids and most reasons need no escape: copied as they are.
    if !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        return;
    }
    // Writing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

impl Journal {
    /// A path for a new journal under `dir`, named after the queue and the time `now`, that no
    /// file has yet. A queue name (from a URL or an ARN) that is not a valid one is refused: it
    /// could leave the directory.
    pub fn new_path(
        dir: &Path,
        queue: &str,
        now: std::time::SystemTime,
    ) -> Result<PathBuf, crate::state_file::InvalidQueueName> {
        let queue = crate::state_file::queue_file_name(queue)?;
        let stamp = humantime::format_rfc3339_seconds(now)
            .to_string()
            .replace([':', '-'], "");
        let mut path = dir.join(format!("{queue}-{stamp}.jsonl"));
        let mut n = 1;
        while path.exists() {
            n += 1;
            path = dir.join(format!("{queue}-{stamp}-{n}.jsonl"));
        }
        Ok(path)
    }

    /// Creates a new journal (refusing to overwrite one) and writes the plan, on disk, first.
    /// The file is created with mode 0600, in directories created 0700.
    pub fn create(path: &Path, plan: &Plan) -> io::Result<Journal> {
        crate::state_file::create_parent(path)?;
        let mut file =
            crate::state_file::open(path, OpenOptions::new().write(true).create_new(true))?;
        file.write_all(&line("plan", plan))?;
        file.sync_all()?;
        Ok(Journal::spawn(path, file))
    }

    /// Opens an existing journal to append to it (for `--resume`).
    pub fn append(path: &Path) -> io::Result<Journal> {
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Journal::spawn(path, file))
    }

    fn spawn(path: &Path, file: File) -> Journal {
        let shared = Arc::new(Shared {
            file,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let (publish, synced) = watch::channel(Synced::default());
        let syncer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("redrive-journal".into())
                .spawn(move || sync_loop(&shared, &publish))
        };
        let syncer = match syncer {
            Ok(syncer) => Some(syncer),
            Err(e) => {
                // Without the thread no sync can be answered: each fails at once.
                shared.lock().broken = Some((e.kind(), format!("no journal sync thread: {e}")));
                None
            }
        };
        Journal {
            path: path.to_path_buf(),
            shared,
            synced,
            syncer,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends lines without waiting for a sync: they are in the file when it returns, and go to
    /// disk with the next synced ones. A failure to write them is also the answer of every later
    /// write, sync and `close`.
    pub fn note(&self, bytes: Vec<u8>) -> io::Result<()> {
        self.shared.append(&bytes).map(drop)
    }

    /// Appends lines and returns once they, and every line before them, are written to the file
    /// (handed to the operating system, not synced): a `kill -9` of this process after it
    /// returns cannot lose them, a crash of the machine can.
    pub async fn write(&self, bytes: Vec<u8>) -> io::Result<()> {
        self.note(bytes)
    }

    /// Appends lines and returns once they, and every line before them, are on disk. One fsync
    /// serves all the batches waiting at the time.
    pub async fn sync(&self, bytes: Vec<u8>) -> io::Result<()> {
        let target = {
            let mut state = self.shared.append(&bytes)?;
            if self.synced.borrow().upto >= state.written {
                return Ok(());
            }
            state.wanted = state.wanted.max(state.written);
            if state.idle {
                self.shared.wake.notify_one();
            }
            state.written
        };
        let mut synced = self.synced.clone();
        let now = synced
            .wait_for(|s| s.upto >= target || s.failed)
            .await
            .map(|s| *s);
        match now {
            Ok(s) if s.upto >= target => Ok(()),
            _ => {
                self.shared.lock().check()?;
                Err(stopped())
            }
        }
    }

    /// Flushes everything to disk and stops the sync thread.
    pub async fn close(mut self) -> io::Result<()> {
        let result = self.sync(Vec::new()).await;
        self.shared.close();
        if let Some(syncer) = self.syncer.take() {
            let _ = tokio::task::spawn_blocking(move || syncer.join()).await;
        }
        result
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        // A journal dropped without `close` (a run that failed early): its lines are in the file
        // already; the sync thread only has to end.
        self.shared.close();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left no partial state behind: the counts
        // are updated after each write, and a failed write marks the journal broken.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes `bytes` after every line before them, under the lock, which it returns held.
    fn append(&self, bytes: &[u8]) -> io::Result<MutexGuard<'_, State>> {
        let mut state = self.lock();
        state.check()?;
        if !bytes.is_empty() {
            if let Err(e) = (&self.file).write_all(bytes) {
                state.broken = Some((e.kind(), e.to_string()));
                return Err(e);
            }
            state.written += bytes.len() as u64;
        }
        Ok(state)
    }

    fn close(&self) {
        self.lock().closing = true;
        self.wake.notify_one();
    }
}

/// The shortest time between two syncs: requests that come meanwhile wait for the next one, so
/// that at high rates one sync serves the batches of this long (at 1,000 batches a second, some
/// 400 syncs instead of 700, and half the thread switches). A sync asked for after a quiet spell
/// starts at once. The wait is off a worker's path: its delete waits for the sync, while it
/// receives and sends its next batch.
const SYNC_GAP: std::time::Duration = std::time::Duration::from_millis(2);

fn stopped() -> io::Error {
    io::Error::other("the journal writer stopped")
}

/// The sync thread: waits until a sync is asked for, then syncs everything written so far (all
/// the lines of the batches that asked meanwhile, in one `fdatasync`) and publishes how far the
/// file is on disk. A failed sync marks the journal broken: every later write and sync fails.
fn sync_loop(shared: &Shared, publish: &watch::Sender<Synced>) {
    let mut synced = 0u64;
    let mut last: Option<std::time::Instant> = None;
    loop {
        let target = {
            let mut state = shared.lock();
            while state.wanted <= synced && !state.closing {
                state.idle = true;
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            state.idle = false;
            if state.wanted <= synced {
                return;
            }
            // Syncs at most one per SYNC_GAP: what is asked meanwhile waits for the next one.
            let since = last.map(|last| last.elapsed());
            if let Some(wait) = since.and_then(|since| SYNC_GAP.checked_sub(since))
                && !state.closing
            {
                drop(state);
                std::thread::sleep(wait);
                state = shared.lock();
            }
            if state.broken.is_some() {
                publish.send_replace(Synced {
                    upto: synced,
                    failed: true,
                });
                return;
            }
            // Every write counted here has returned: the sync below covers it.
            state.written
        };
        let result = shared.file.sync_data();
        last = Some(std::time::Instant::now());
        match result {
            Ok(()) => {
                synced = target;
                publish.send_replace(Synced {
                    upto: synced,
                    failed: false,
                });
            }
            Err(e) => {
                shared.lock().broken = Some((e.kind(), e.to_string()));
                publish.send_replace(Synced {
                    upto: synced,
                    failed: true,
                });
                return;
            }
        }
    }
}

/// What a journal says about an earlier run.
#[derive(Debug, Default)]
pub struct ResumeState {
    /// Messages (DLQ ids) confirmed sent: never sent again, only deleted.
    pub sent: IdSet,
    /// How many were sent and deleted: moved by earlier runs.
    pub moved_before: u64,
    /// Sent but not yet deleted: to delete when seen again.
    pub sent_not_deleted: u64,
    /// Received but with no outcome recorded: their send may or may not have happened.
    pub unresolved: u64,
    /// Of those, the messages abandoned when the grace period after Ctrl-C ran out.
    pub unknown: u64,
    /// The ids the destination gave the messages sent: one of them seen in the DLQ is a moved
    /// message that failed again, not one this run is about.
    pub sent_as: IdLog,
    /// Set when a run of this journal completed: there is nothing left to resume.
    pub completed: Option<Completed>,
    /// Messages a run hid in the DLQ that no line shows released or deleted: they may still be
    /// in flight, until [`ResumeState::held_until_ms`] at the latest.
    pub held: u64,
    /// The latest deadline (ms since the epoch) of the [`ResumeState::held`] messages; `None`
    /// when none is held, or the journal (from an older version) does not say.
    pub held_until_ms: Option<u64>,
    /// Receives whose answer was lost (or that were given up at Ctrl-C): each may have hidden
    /// messages that no line names, until [`ResumeState::lost_until_ms`].
    pub lost_receives: u64,
    /// The latest time (ms since the epoch) the messages of lost receives may stay hidden.
    pub lost_until_ms: Option<u64>,
    /// The digests of the rewritten messages an earlier run received and may have sent (no
    /// outcome recorded after their last `received` line), by DLQ id: a resumed run sends such a
    /// message only as the same message.
    pub digests: std::collections::HashMap<String, String>,
}

/// The `completed` line: the run moved every message it was about.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Completed {
    /// When (ms since the epoch).
    pub at_ms: u64,
    /// Messages moved by all runs of the journal together.
    pub moved: u64,
}

/// Reads a journal: its plan and the state of every message it records. A last line cut short by
/// a crash is ignored; any other unreadable line is an error.
pub fn load(path: &Path) -> Result<(Plan, ResumeState), String> {
    let mut plan: Option<Plan> = None;
    let mut state = ResumeState::default();
    let mut received = IdSet::default();
    let mut deleted = IdSet::default();
    let mut finished = IdSet::default();
    let mut unknown: Vec<String> = Vec::new();
    // Hidden by a run, and not (since) released or deleted.
    let mut in_flight = IdSet::default();
    for value in journal_values(path)? {
        let value = value?;
        let kind = value["type"].as_str().unwrap_or_default();
        let data = &value["data"];
        if kind == "plan" {
            plan = Some(plan_of(data, path)?);
            continue;
        }
        if kind == "completed" {
            state.completed = serde_json::from_value(data.clone()).ok();
            continue;
        }
        if kind == "lost_receive" {
            state.lost_receives += data["count"].as_u64().unwrap_or(1);
            state.lost_until_ms = state.lost_until_ms.max(data["until_ms"].as_u64());
            continue;
        }
        let Some(id) = data["id"].as_str() else {
            continue;
        };
        match kind {
            "received" | "in_flight" | "released" | "deleted" => {
                if kind == "released" || kind == "deleted" {
                    in_flight.remove(id);
                } else {
                    in_flight.insert(id);
                }
            }
            _ => {}
        }
        match (kind, data["digest"].as_str()) {
            ("received", Some(digest)) => {
                state.digests.insert(id.to_string(), digest.to_string());
            }
            ("sent" | "failed" | "released" | "not_sent" | "deleted", _) => {
                state.digests.remove(id);
            }
            _ => {}
        }
        match kind {
            "received" => {
                received.insert(id);
            }
            "sent" => {
                state.sent.insert(id);
                finished.insert(id);
                if let Some(new_id) = data["new_id"].as_str() {
                    state.sent_as.insert(new_id);
                }
            }
            "deleted" => {
                deleted.insert(id);
                finished.insert(id);
            }
            "failed" | "released" | "not_sent" => {
                finished.insert(id);
            }
            "unknown" => unknown.push(id.to_string()),
            _ => {}
        }
    }
    let plan = plan.ok_or_else(|| not_a_journal(path))?;
    if plan.copy {
        // A copy's `sent` is final: nothing is deleted.
        state.moved_before = state.sent.len() as u64;
    } else {
        state.moved_before = deleted.len() as u64;
        state.sent_not_deleted = state.sent.len().saturating_sub(deleted.len()) as u64;
    }
    state.unresolved = received.len().saturating_sub(finished.len()) as u64;
    unknown.sort_unstable();
    unknown.dedup();
    state.unknown = unknown.iter().filter(|id| !finished.contains(id)).count() as u64;
    state.held = in_flight.len() as u64;
    if !in_flight.is_empty() {
        // A second reading, only after a run that did not end on its own: the deadlines of the
        // messages still in flight, of which the latest is what `--resume` waits for.
        for value in journal_values(path)? {
            let value = value?;
            let data = &value["data"];
            let hides = matches!(value["type"].as_str(), Some("received" | "in_flight"));
            if let (true, Some(id), Some(until)) =
                (hides, data["id"].as_str(), data["until_ms"].as_u64())
                && in_flight.contains(id)
            {
                state.held_until_ms = state.held_until_ms.max(Some(until));
            }
        }
    }
    Ok((plan, state))
}

/// Reads only a journal's plan, its first line: what a listing of journals shows of a run without
/// reading the lines of its messages.
pub fn load_plan(path: &Path) -> Result<Plan, String> {
    let first = journal_values(path)?
        .next()
        .ok_or_else(|| not_a_journal(path))??;
    if first["type"] != "plan" {
        return Err(not_a_journal(path));
    }
    plan_of(&first["data"], path)
}

fn plan_of(data: &serde_json::Value, path: &Path) -> Result<Plan, String> {
    serde_json::from_value(data.clone())
        .map_err(|e| format!("{} has an unreadable plan: {e}", path.display()))
}

fn not_a_journal(path: &Path) -> String {
    format!(
        "{} is not a redrive journal (its first line is not a plan)",
        path.display()
    )
}

/// The lines of a journal as JSON values, in order. A last line cut short by a crash ends the
/// reading; any other unreadable line is an error.
fn journal_values(
    path: &Path,
) -> Result<impl Iterator<Item = Result<serde_json::Value, String>>, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let path = path.to_path_buf();
    let mut lines = BufReader::new(file).lines().enumerate().peekable();
    Ok(std::iter::from_fn(move || {
        loop {
            let (index, line) = lines.next()?;
            let line = match line {
                Ok(line) => line,
                Err(e) => return Some(Err(format!("cannot read {}: {e}", path.display()))),
            };
            if line.trim().is_empty() {
                continue;
            }
            return match serde_json::from_str(&line) {
                Ok(value) => Some(Ok(value)),
                Err(_) if lines.peek().is_none() => None,
                Err(e) => Some(Err(format!(
                    "{} line {} is not a journal line: {e}",
                    path.display(),
                    index + 1
                ))),
            };
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            started_at_ms: Some(1),
            dlq_depth_at_start: Some(5),
            ..Plan::sample()
        }
    }

    #[tokio::test]
    async fn a_copy_journal_counts_its_sends_as_done_and_keeps_how_the_destination_is_reached() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("copy.jsonl");
        let access = crate::redrive::DestinationAccess {
            region: "eu-west-1".into(),
            profile: Some("replay".into()),
            endpoint_url: None,
        };
        let copy = Plan {
            copy: true,
            destination_access: Some(access.clone()),
            ..plan()
        };
        let journal = Journal::create(&path, &copy).expect("create");
        let mut bytes = Vec::new();
        for id in ["a", "b", "c"] {
            bytes.extend(line("received", &json!({ "id": id })));
        }
        bytes.extend(line("sent", &json!({ "id": "a", "new_id": "x" })));
        bytes.extend(line("sent", &json!({ "id": "b", "new_id": "y" })));
        bytes.extend(line("released", &json!({ "id": "a" })));
        journal.sync(bytes).await.expect("write");
        journal.close().await.expect("close");
        let (loaded, state) = load(&path).expect("loads");
        assert!(loaded.copy);
        assert_eq!(loaded.destination_access, Some(access));
        assert_eq!(state.moved_before, 2, "a copy's send is final");
        assert_eq!(state.sent_not_deleted, 0, "nothing of a copy is deleted");
        assert_eq!(state.unresolved, 1, "c");
        // A move's journal has neither field.
        let text = serde_json::to_string(&plan()).expect("json");
        assert!(!text.contains("copy") && !text.contains("destination_access"));
    }

    #[tokio::test]
    async fn a_journal_round_trips_and_tolerates_a_torn_last_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.jsonl");
        let journal = Journal::create(&path, &plan()).expect("create");
        let mut bytes = Vec::new();
        for id in ["a", "b", "c", "d", "e"] {
            bytes.extend(line("received", &json!({ "id": id })));
        }
        bytes.extend(line("released", &json!({ "id": "e" })));
        bytes.extend(line("sent", &json!({ "id": "a", "new_id": "x" })));
        bytes.extend(line("sent", &json!({ "id": "b", "new_id": "y" })));
        bytes.extend(line("deleted", &json!({ "id": "a" })));
        bytes.extend(line("failed", &json!({ "id": "c", "reason": "r" })));
        bytes.extend(line("unknown", &json!({ "id": "a" })));
        bytes.extend(line("unknown", &json!({ "id": "d" })));
        journal.sync(bytes).await.expect("write");
        journal.close().await.expect("close");
        assert!(
            Journal::create(&path, &plan()).is_err(),
            "never overwritten"
        );
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(b"{\"type\":\"sent\",\"da").expect("torn");
        let (loaded, state) = load(&path).expect("loads");
        assert_eq!(loaded.destination.name, "work");
        assert!(state.sent.contains("a") && state.sent.contains("b"));
        assert!(!state.sent.contains("c") && !state.sent.contains("d"));
        assert_eq!(state.moved_before, 1);
        assert_eq!(state.sent_not_deleted, 1);
        assert_eq!(
            state.unresolved, 1,
            "d has no outcome (e was released unsent)"
        );
        assert_eq!(state.unknown, 1, "a was sent; d was abandoned");
        assert!(state.sent_as.contains("x") && state.sent_as.contains("y"));
        assert!(state.completed.is_none());
        assert_eq!(loaded.dlq_depth_at_start, Some(5));
    }

    /// What `write` returned for is in the file, for any reader (a `kill -9` right after cannot
    /// lose it), before the journal is synced or closed; 200 rounds, each read at once.
    #[tokio::test]
    async fn written_lines_are_in_the_file_when_write_returns() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.jsonl");
        let journal = Journal::create(&path, &plan()).expect("create");
        for round in 0..200 {
            let id = format!("m{round}");
            let mut lines = Lines::default();
            lines.push_until("received", &[("id", Some(&id))], 1);
            journal.write(lines.into_bytes()).await.expect("write");
            let text = std::fs::read_to_string(&path).expect("read");
            assert!(
                text.ends_with(&format!(
                    "\"id\":\"{id}\",\"until_ms\":1}},\"type\":\"received\"}}\n"
                )),
                "round {round}: {}",
                text.lines().last().unwrap_or_default()
            );
        }
        journal.close().await.expect("close");
    }

    /// 64 tasks on 4 threads, each syncing its lines one batch at a time: every sync returns, and
    /// every line is in the file whole, each task's in its order.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_syncs_all_return_with_their_lines_whole_and_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.jsonl");
        let journal = Arc::new(Journal::create(&path, &plan()).expect("create"));
        let tasks: Vec<_> = (0..64)
            .map(|task| {
                let journal = Arc::clone(&journal);
                tokio::spawn(async move {
                    for batch in 0..20 {
                        let mut lines = Lines::default();
                        for n in 0..10 {
                            let id = format!("t{task}-{batch}-{n}");
                            lines.push("sent", &[("id", Some(&id)), ("new_id", Some("x"))]);
                        }
                        journal.sync(lines.into_bytes()).await.expect("sync");
                        journal
                            .note(line(
                                "deleted",
                                &json!({ "id": format!("t{task}-{batch}") }),
                            ))
                            .expect("note");
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("task");
        }
        let journal = Arc::into_inner(journal).expect("one owner");
        journal.close().await.expect("close");
        let text = std::fs::read_to_string(&path).expect("read");
        let mut next = vec![0usize; 64];
        for value in text.lines().skip(1) {
            let value: serde_json::Value = serde_json::from_str(value).expect("a whole line");
            if value["type"] != "sent" {
                continue;
            }
            let id = value["data"]["id"].as_str().unwrap_or_default();
            let (task, rest) = id[1..].split_once('-').expect("id");
            let task: usize = task.parse().expect("task");
            assert_eq!(
                rest,
                format!("{}-{}", next[task] / 10, next[task] % 10),
                "task {task}"
            );
            next[task] += 1;
        }
        assert!(next.iter().all(|&n| n == 200), "{next:?}");
    }

    #[tokio::test]
    async fn a_completed_line_closes_the_journal() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.jsonl");
        let journal = Journal::create(&path, &plan()).expect("create");
        let bytes = line("completed", &json!({ "at_ms": 7, "moved": 3 }));
        journal.sync(bytes).await.expect("write");
        journal.close().await.expect("close");
        let (_, state) = load(&path).expect("loads");
        let completed = state.completed.expect("completed");
        assert_eq!((completed.at_ms, completed.moved), (7, 3));
    }

    #[tokio::test]
    async fn messages_stay_in_flight_until_a_confirmed_release_or_delete() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("j.jsonl");
        let journal = Journal::create(&path, &plan()).expect("create");
        let mut lines = Lines::default();
        for id in ["a", "b", "c", "d"] {
            lines.push_until("received", &[("group", None), ("id", Some(id))], 1_000);
        }
        // a moved; b released, then received again by a resumed run and extended; c only
        // extended; d released for good.
        lines.push("sent", &[("id", Some("a")), ("new_id", Some("x"))]);
        lines.push("deleted", &[("id", Some("a"))]);
        lines.push("released", &[("id", Some("b"))]);
        lines.push("released", &[("id", Some("d"))]);
        lines.push_until("in_flight", &[("id", Some("c"))], 3_000);
        lines.push_until("received", &[("group", None), ("id", Some("b"))], 2_000);
        lines.push_until("in_flight", &[("id", Some("b"))], 2_500);
        journal.sync(lines.into_bytes()).await.expect("write");
        journal.close().await.expect("close");
        let (_, state) = load(&path).expect("loads");
        assert_eq!(state.held, 2, "b and c");
        assert_eq!(state.held_until_ms, Some(3_000));

        let path = dir.path().join("released.jsonl");
        let journal = Journal::create(&path, &plan()).expect("create");
        let mut lines = Lines::default();
        lines.push_until("received", &[("group", None), ("id", Some("a"))], 1_000);
        lines.push("released", &[("id", Some("a"))]);
        journal.sync(lines.into_bytes()).await.expect("write");
        journal.close().await.expect("close");
        let (_, state) = load(&path).expect("loads");
        assert_eq!((state.held, state.held_until_ms), (0, None));
    }

    #[test]
    fn batch_lines_read_as_the_generic_ones() {
        let mut lines = Lines::default();
        lines.push("received", &[("group", None), ("id", Some("a\"b"))]);
        lines.push("sent", &[("id", Some("a")), ("new_id", Some("x\ny"))]);
        lines.push_until("in_flight", &[("id", Some("c"))], 42);
        let mut expected = line("received", &json!({ "id": "a\"b", "group": null }));
        expected.extend(line("sent", &json!({ "id": "a", "new_id": "x\ny" })));
        expected.extend(line("in_flight", &json!({ "id": "c", "until_ms": 42 })));
        assert_eq!(
            String::from_utf8_lossy(&lines.into_bytes()),
            String::from_utf8_lossy(&expected)
        );
    }

    #[tokio::test]
    async fn a_failed_write_is_its_own_answer_and_that_of_every_later_sync() {
        // Every write to /dev/full fails with "no space left on device".
        let Ok(journal) = Journal::append(Path::new("/dev/full")) else {
            return;
        };
        assert!(
            journal
                .note(line("received", &json!({ "id": "a" })))
                .is_err()
        );
        assert!(journal.sync(Vec::new()).await.is_err());
        assert!(journal.write(Vec::new()).await.is_err());
        assert!(
            journal
                .sync(line("sent", &json!({ "id": "a" })))
                .await
                .is_err()
        );
    }

    #[test]
    fn a_file_without_a_plan_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.jsonl");
        std::fs::write(&path, "{\"type\":\"sent\",\"data\":{\"id\":\"a\"}}\n").expect("write");
        assert!(load(&path).unwrap_err().contains("not a redrive journal"));
        std::fs::write(&path, "garbage\n{\"type\":\"plan\"}\n").expect("write");
        assert!(load(&path).unwrap_err().contains("line 1"));
    }
}
