//! The journals in a directory, as runs a person can find again: what each run moved, from where
//! to where, and whether it completed or can still be resumed; and the choice of the journals an
//! age-based clean-up removes.
//!
//! Describing a journal is cheap for a completed run: its plan is the first line and its
//! `completed` line the last, so only those two are read. A run that did not complete is read
//! whole by the reader `--resume` plans with ([`super::journal::load`]), for the counts of what
//! it moved and what is of unknown outcome. A file that is not a journal (corrupt, foreign, empty)
//! is described as unreadable, with the reason; nothing here fails on one file.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::journal::{self, Completed};

/// The reason the engine writes on the `stopped` line of a run stopped by Ctrl-C (or a signal).
const INTERRUPTED: &str = "interrupted";

/// How much of a journal's end is read to find its closing line (a `completed` line is short).
const TAIL_BYTES: u64 = 64 * 1024;

/// Where a run stands, as its journal tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// Every message the run was about moved: there is nothing to resume.
    Completed,
    /// Stopped by Ctrl-C or a signal, or ended without a closing line (killed, crashed, or still
    /// running): resumable.
    Interrupted,
    /// Ended on its own with messages left in the DLQ (failed sends, an error): resumable.
    Stopped,
    /// Not a journal this version can read.
    Unreadable,
}

impl RunState {
    pub fn as_str(self) -> &'static str {
        match self {
            RunState::Completed => "completed",
            RunState::Interrupted => "interrupted",
            RunState::Stopped => "stopped",
            RunState::Unreadable => "unreadable",
        }
    }
}

/// One file of a journal directory, described.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalEntry {
    pub path: PathBuf,
    pub state: RunState,
    /// The DLQ the run moves from, and where to (by name); `None` when unreadable.
    pub source: Option<String>,
    pub destination: Option<String>,
    /// When the run started (ms since the epoch), as its plan says.
    pub started_at_ms: Option<u64>,
    /// When its last run ended (the closing line's time); `None` without a closing line.
    pub ended_at_ms: Option<u64>,
    /// The file's last change (ms since the epoch).
    pub modified_ms: Option<u64>,
    /// Messages moved (sent and deleted) by all runs of the journal.
    pub moved: Option<u64>,
    /// Messages received with no recorded outcome: their send may or may not have happened.
    pub outcome_unknown: Option<u64>,
    /// Messages sent but not yet deleted from the DLQ (a resume deletes them without sending).
    pub sent_not_deleted: Option<u64>,
    /// Why the run stopped, or why the file cannot be read.
    pub reason: Option<String>,
}

impl JournalEntry {
    /// `--resume` can continue the run.
    pub fn resumable(&self) -> bool {
        matches!(self.state, RunState::Interrupted | RunState::Stopped)
    }

    /// How long ago the journal was last written to at `now`: since its run completed, or (for a
    /// run that did not) since the file last changed.
    pub fn age(&self, now: SystemTime) -> Option<Duration> {
        let last = match self.state {
            RunState::Completed => self.ended_at_ms.or(self.modified_ms),
            _ => self.modified_ms,
        }?;
        Some(
            now.duration_since(UNIX_EPOCH + Duration::from_millis(last))
                .unwrap_or(Duration::ZERO),
        )
    }

    /// For ordering: when the run started, else when the file last changed.
    fn when(&self) -> u64 {
        self.started_at_ms.or(self.modified_ms).unwrap_or(0)
    }

    fn unreadable(path: &Path, modified_ms: Option<u64>, reason: String) -> JournalEntry {
        JournalEntry {
            path: path.to_path_buf(),
            state: RunState::Unreadable,
            source: None,
            destination: None,
            started_at_ms: None,
            ended_at_ms: None,
            modified_ms,
            moved: None,
            outcome_unknown: None,
            sent_not_deleted: None,
            reason: Some(reason),
        }
    }
}

/// The files of `dir` described, newest run first. A directory that does not exist holds none.
pub fn list(dir: &Path) -> io::Result<Vec<JournalEntry>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut journals = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            journals.push(describe(&entry.path()));
        }
    }
    journals.sort_by(|a, b| b.when().cmp(&a.when()).then_with(|| a.path.cmp(&b.path)));
    Ok(journals)
}

/// One file described: never an error, an unreadable file says why.
pub fn describe(path: &Path) -> JournalEntry {
    let modified_ms = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as u64);
    match read(path) {
        Ok(mut entry) => {
            entry.modified_ms = modified_ms;
            entry
        }
        Err(reason) => JournalEntry::unreadable(path, modified_ms, reason),
    }
}

fn read(path: &Path) -> Result<JournalEntry, String> {
    // A journal is JSON Lines: a file that does not start as one is not read further (it may be
    // large, binary, without a line end).
    let mut first = [0u8; 1];
    let mut file = File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    if file.read(&mut first).map_err(|e| e.to_string())? == 0 {
        return Err("the file is empty".into());
    }
    if first[0] != b'{' {
        return Err("it is not a redrive journal (its first line is not a plan)".into());
    }
    let plan = journal::load_plan(path).map_err(|e| without_path(&e, path))?;
    let mut entry = JournalEntry {
        path: path.to_path_buf(),
        state: RunState::Interrupted,
        source: Some(plan.source.name.clone()),
        destination: Some(plan.destination.name.clone()),
        started_at_ms: plan.started_at_ms,
        ended_at_ms: None,
        modified_ms: None,
        moved: None,
        outcome_unknown: None,
        sent_not_deleted: None,
        reason: None,
    };
    let closing = last_line(&mut file);
    if let Some(completed) = closing.as_ref().and_then(completed_of) {
        return Ok(completed_entry(entry, &completed));
    }
    // Not completed: the counts need the whole journal.
    let (_, state) = journal::load(path).map_err(|e| without_path(&e, path))?;
    if let Some(completed) = &state.completed {
        return Ok(completed_entry(entry, completed));
    }
    entry.moved = Some(state.moved_before);
    entry.outcome_unknown = Some(state.unresolved);
    entry.sent_not_deleted = Some(state.sent_not_deleted);
    match closing.filter(|line| line["type"] == "stopped") {
        Some(stopped) => {
            let reason = stopped["data"]["reason"].as_str().unwrap_or_default();
            entry.ended_at_ms = stopped["data"]["at_ms"].as_u64();
            if reason != INTERRUPTED {
                entry.state = RunState::Stopped;
            }
            entry.reason = Some(reason.to_string());
        }
        None => {
            entry.reason =
                Some("it ended without a closing line (killed, crashed, or still running)".into());
        }
    }
    Ok(entry)
}

fn completed_entry(mut entry: JournalEntry, completed: &Completed) -> JournalEntry {
    entry.state = RunState::Completed;
    entry.ended_at_ms = Some(completed.at_ms);
    entry.moved = Some(completed.moved);
    entry.outcome_unknown = Some(0);
    entry.sent_not_deleted = Some(0);
    entry
}

fn completed_of(line: &serde_json::Value) -> Option<Completed> {
    (line["type"] == "completed")
        .then(|| serde_json::from_value(line["data"].clone()).ok())
        .flatten()
}

/// The journal reader names the file in its errors; a listing shows the file beside them.
fn without_path(error: &str, path: &Path) -> String {
    let named = path.display().to_string();
    match error.strip_prefix(&named).map(str::trim_start) {
        Some(rest) if rest.starts_with("is ") || rest.starts_with("has ") => format!("it {rest}"),
        Some(rest) => rest.to_string(),
        None => error.replace(&format!(" {named}"), ""),
    }
}

/// The last complete line of the file, as JSON: read from its end only.
fn last_line(file: &mut File) -> Option<serde_json::Value> {
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(TAIL_BYTES)))
        .ok()?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).ok()?;
    let line = tail
        .split(|&b| b == b'\n')
        .rev()
        .find(|line| !line.iter().all(u8::is_ascii_whitespace))?;
    serde_json::from_slice(line).ok()
}

/// What an age-based clean-up of a journal directory removes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PruneRule {
    /// Only journals last written to at least this long ago.
    pub older_than: Duration,
    /// Also runs that did not complete (they can no longer be resumed once removed).
    pub include_resumable: bool,
    pub now: SystemTime,
}

/// The journals a clean-up removes, and what it leaves that is old enough.
#[derive(Debug, Default, PartialEq)]
pub struct Prune {
    pub remove: Vec<JournalEntry>,
    /// Old enough, but kept: their runs can still be resumed.
    pub kept_resumable: Vec<JournalEntry>,
}

impl PruneRule {
    /// Chooses among `journals`: completed runs old enough, and resumable ones too when the rule
    /// includes them. An unreadable file is never removed: it may not be a journal at all.
    pub fn choose(&self, journals: Vec<JournalEntry>) -> Prune {
        let mut prune = Prune::default();
        for journal in journals {
            let old_enough = journal
                .age(self.now)
                .is_some_and(|age| age >= self.older_than);
            if !old_enough || journal.state == RunState::Unreadable {
                continue;
            }
            if journal.state == RunState::Completed || self.include_resumable {
                prune.remove.push(journal);
            } else {
                prune.kept_resumable.push(journal);
            }
        }
        prune
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use serde_json::json;

    use super::*;
    use crate::client::QueueRef;
    use crate::redrive::Plan;
    use crate::redrive::journal::line;

    fn plan(started_at_ms: u64) -> Plan {
        Plan {
            source: QueueRef::from_url("http://h/000000000000/orders-dlq"),
            destination: QueueRef::from_url("http://h/000000000000/orders"),
            started_at_ms: Some(started_at_ms),
            dlq_depth_at_start: Some(3),
            ..Plan::sample()
        }
    }

    fn write(dir: &Path, name: &str, lines: &[Vec<u8>]) -> PathBuf {
        let path = dir.join(name);
        let mut file = File::create(&path).expect("create");
        for line in lines {
            file.write_all(line).expect("write");
        }
        path
    }

    fn message(kind: &str, id: &str) -> Vec<u8> {
        line(kind, &json!({ "id": id }))
    }

    #[test]
    fn completed_interrupted_stopped_and_unreadable_files_are_told_apart_newest_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "done.jsonl",
            &[
                line("plan", &plan(1_000)),
                message("received", "a"),
                message("sent", "a"),
                message("deleted", "a"),
                line("completed", &json!({ "at_ms": 2_000, "moved": 1 })),
            ],
        );
        write(
            dir.path(),
            "ctrl-c.jsonl",
            &[
                line("plan", &plan(3_000)),
                message("received", "a"),
                message("received", "b"),
                message("sent", "a"),
                message("deleted", "a"),
                message("unknown", "b"),
                line(
                    "stopped",
                    &json!({ "at_ms": 4_000, "reason": "interrupted" }),
                ),
            ],
        );
        let killed = write(
            dir.path(),
            "killed.jsonl",
            &[
                line("plan", &plan(5_000)),
                message("received", "a"),
                message("received", "b"),
                b"{\"type\":\"sent\",\"da".to_vec(),
            ],
        );
        write(
            dir.path(),
            "failed.jsonl",
            &[
                line("plan", &plan(500)),
                message("received", "a"),
                line("failed", &json!({ "id": "a", "reason": "too big" })),
                line(
                    "stopped",
                    &json!({ "at_ms": 600, "reason": "some messages stayed in the dead-letter queue" }),
                ),
            ],
        );
        std::fs::write(dir.path().join("notes.txt"), "hello\n").expect("write");
        std::fs::write(dir.path().join("empty.jsonl"), "").expect("write");
        std::fs::write(dir.path().join("sent-only.jsonl"), message("sent", "a")).expect("write");

        let journals = list(dir.path()).expect("lists");
        let names: Vec<String> = journals
            .iter()
            .filter(|j| j.state != RunState::Unreadable)
            .map(|j| j.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["killed.jsonl", "ctrl-c.jsonl", "done.jsonl", "failed.jsonl"]
        );
        let by_name = |name: &str| {
            journals
                .iter()
                .find(|j| j.path.ends_with(name))
                .expect(name)
        };
        let done = by_name("done.jsonl");
        assert_eq!(done.state, RunState::Completed);
        assert_eq!((done.moved, done.ended_at_ms), (Some(1), Some(2_000)));
        assert_eq!(done.source.as_deref(), Some("orders-dlq"));
        assert_eq!(done.destination.as_deref(), Some("orders"));
        assert!(!done.resumable());

        let ctrl_c = by_name("ctrl-c.jsonl");
        assert_eq!(ctrl_c.state, RunState::Interrupted);
        assert_eq!((ctrl_c.moved, ctrl_c.outcome_unknown), (Some(1), Some(1)));
        assert_eq!(ctrl_c.ended_at_ms, Some(4_000));
        assert!(ctrl_c.resumable());

        let killed = describe(&killed);
        assert_eq!(killed.state, RunState::Interrupted);
        assert_eq!(
            killed.outcome_unknown,
            Some(2),
            "a torn last line is ignored"
        );
        assert!(killed.reason.as_deref().unwrap().contains("closing line"));

        let failed = by_name("failed.jsonl");
        assert_eq!(failed.state, RunState::Stopped);
        assert!(failed.resumable());

        for name in ["notes.txt", "empty.jsonl", "sent-only.jsonl"] {
            let file = by_name(name);
            assert_eq!(file.state, RunState::Unreadable, "{name}");
            assert!(!file.resumable());
            let reason = file.reason.as_deref().unwrap();
            assert!(
                !reason.contains(&dir.path().display().to_string()),
                "{reason}"
            );
        }
    }

    #[test]
    fn a_missing_directory_holds_no_journals() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(list(&dir.path().join("none")).expect("lists"), Vec::new());
    }

    #[test]
    fn a_prune_removes_old_completed_runs_and_keeps_resumable_ones_unless_included() {
        let entry = |name: &str, state: RunState, ended_at_ms: Option<u64>, modified_ms: u64| {
            let mut entry =
                JournalEntry::unreadable(Path::new(name), Some(modified_ms), String::new());
            entry.state = state;
            entry.ended_at_ms = ended_at_ms;
            entry
        };
        let now = UNIX_EPOCH + Duration::from_secs(100);
        let journals = vec![
            entry("old-done", RunState::Completed, Some(10_000), 90_000),
            entry("new-done", RunState::Completed, Some(95_000), 95_000),
            entry("old-interrupted", RunState::Interrupted, None, 20_000),
            entry("new-interrupted", RunState::Interrupted, None, 99_000),
            entry("old-unreadable", RunState::Unreadable, None, 1_000),
        ];
        let names = |entries: &[JournalEntry]| -> Vec<String> {
            entries
                .iter()
                .map(|e| e.path.display().to_string())
                .collect()
        };
        let rule = PruneRule {
            older_than: Duration::from_secs(30),
            include_resumable: false,
            now,
        };
        let prune = rule.choose(journals.clone());
        assert_eq!(
            names(&prune.remove),
            ["old-done"],
            "completed at 10 s, though written at 90 s"
        );
        assert_eq!(names(&prune.kept_resumable), ["old-interrupted"]);
        let prune = PruneRule {
            include_resumable: true,
            ..rule
        }
        .choose(journals.clone());
        assert_eq!(names(&prune.remove), ["old-done", "old-interrupted"]);
        let prune = PruneRule {
            older_than: Duration::ZERO,
            ..rule
        }
        .choose(journals);
        assert_eq!(names(&prune.remove), ["old-done", "new-done"]);
    }
}
