//! How the runs of `redrive journals` show: one record per journal file (its JSON schema, a table
//! row, a line of text), with the command that resumes a run that can be resumed.

use std::time::{Duration, UNIX_EPOCH};

use serde::Serialize;

use crate::output::{Column, Row};
use crate::redrive::journals::{JournalEntry, RunState};

/// A journal as output shows it.
#[derive(Debug, Serialize)]
pub struct JournalRecord {
    /// The journal's path.
    pub file: String,
    pub state: RunState,
    /// The DLQ the run moves from, and where to; null when unreadable.
    pub source: Option<String>,
    pub destination: Option<String>,
    /// RFC 3339, UTC.
    pub started_at: Option<String>,
    /// When its last run ended (completed or stopped); null without a closing line.
    pub ended_at: Option<String>,
    pub moved: Option<u64>,
    pub outcome_unknown: Option<u64>,
    pub sent_not_deleted: Option<u64>,
    pub resumable: bool,
    /// The command that resumes the run.
    pub resume: Option<String>,
    /// Why the run stopped, or why the file cannot be read.
    pub reason: Option<String>,
}

impl From<&JournalEntry> for JournalRecord {
    fn from(entry: &JournalEntry) -> JournalRecord {
        let file = entry.path.display().to_string();
        JournalRecord {
            state: entry.state,
            source: entry.source.clone(),
            destination: entry.destination.clone(),
            started_at: entry.started_at_ms.map(time),
            ended_at: entry.ended_at_ms.map(time),
            moved: entry.moved,
            outcome_unknown: entry.outcome_unknown,
            sent_not_deleted: entry.sent_not_deleted,
            resumable: entry.resumable(),
            resume: entry.resumable().then(|| resume_command(&file)),
            reason: entry.reason.clone(),
            file,
        }
    }
}

fn time(ms: u64) -> String {
    humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}

/// `sqsctl redrive --resume FILE`, the path quoted for a shell when it needs to be.
pub fn resume_command(file: &str) -> String {
    let plain = !file.is_empty()
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@,~".contains(c));
    if plain {
        format!("sqsctl redrive --resume {file}")
    } else {
        format!("sqsctl redrive --resume '{}'", file.replace('\'', r"'\''"))
    }
}

fn count(value: Option<u64>) -> String {
    value.map_or("-".into(), |n| n.to_string())
}

fn or_dash(value: Option<&String>) -> String {
    value.cloned().unwrap_or_else(|| "-".into())
}

impl JournalRecord {
    /// The journal's file name, without its directory.
    fn name(&self) -> String {
        std::path::Path::new(&self.file)
            .file_name()
            .map_or_else(|| self.file.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// The line under the table for a run to resume or a file that cannot be read.
    pub fn note(&self) -> Option<String> {
        match (&self.resume, self.state) {
            (Some(resume), _) => Some(format!("{}: {resume}", self.name())),
            (None, RunState::Unreadable) => Some(format!(
                "{}: unreadable: {}",
                self.name(),
                self.reason.as_deref().unwrap_or_default()
            )),
            _ => None,
        }
    }
}

impl Row for JournalRecord {
    const KIND: &'static str = "journal";

    fn columns() -> Vec<Column> {
        vec![
            Column::whole("started"),
            Column::id("DLQ"),
            Column::id("to").droppable(2),
            Column::whole("state"),
            Column::whole("moved"),
            Column::whole("unknown").droppable(3),
            Column::cut("file", 12, 40).droppable(1),
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            or_dash(self.started_at.as_ref()),
            or_dash(self.source.as_ref()),
            or_dash(self.destination.as_ref()),
            self.state.as_str().to_string(),
            count(self.moved),
            count(self.outcome_unknown),
            self.name(),
        ]
    }

    /// State, started, DLQ, destination, moved, unknown, resumable (`yes`/`no`) and the path.
    fn fields(&self) -> Vec<String> {
        vec![
            self.state.as_str().to_string(),
            or_dash(self.started_at.as_ref()),
            or_dash(self.source.as_ref()),
            or_dash(self.destination.as_ref()),
            count(self.moved),
            count(self.outcome_unknown),
            if self.resumable { "yes" } else { "no" }.to_string(),
            self.file.clone(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_spaces_or_quotes_is_quoted_for_a_shell() {
        assert_eq!(
            resume_command("/home/a/orders-dlq-20260101T030000Z.jsonl"),
            "sqsctl redrive --resume /home/a/orders-dlq-20260101T030000Z.jsonl"
        );
        assert_eq!(
            resume_command("/tmp/my runs/it's.jsonl"),
            r"sqsctl redrive --resume '/tmp/my runs/it'\''s.jsonl'"
        );
    }
}
