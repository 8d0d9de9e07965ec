//! How the records of `redrive` show: a run's summary as a two-column table (or its counts as
//! text), and a native move task as a table row.

use std::time::Duration;

use serde::Serialize;

use crate::client::MoveTask;
use crate::output::{Column, Fields, Row};
use crate::redrive::Summary;

/// The summary of a run as output shows it.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Report<'a>(pub &'a Summary);

impl Fields for Report<'_> {
    const KIND: &'static str = "summary";
    const TITLE: &'static str = "redrive";
    const VALUE_TITLE: &'static str = "result";

    fn fields(&self) -> Vec<(String, String)> {
        let summary = self.0;
        let rows: [(&str, String); 12] = [
            ("from", summary.source.clone()),
            ("to", summary.destination.clone()),
            (
                if summary.copy {
                    "copied (kept in the DLQ)"
                } else {
                    "moved"
                },
                summary.moved.to_string(),
            ),
            ("left (not matching)", summary.skipped.to_string()),
            ("failed (still in the DLQ)", summary.failed.to_string()),
            ("sent but not deleted", summary.delete_failed.to_string()),
            (
                "completed from the journal",
                summary.completed_from_journal.to_string(),
            ),
            (
                "arrived later (left in the DLQ)",
                summary.arrived_later.to_string(),
            ),
            ("outcome unknown", summary.outcome_unknown.to_string()),
            (
                "left in the DLQ",
                format!(
                    "{} visible, {} in flight",
                    summary.left_visible, summary.left_in_flight
                ),
            ),
            (
                "time",
                format!(
                    "{:.1} s ({:.1} messages/s)",
                    summary.seconds, summary.messages_per_second
                ),
            ),
            ("workers", summary.workers.to_string()),
        ];
        rows.into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .chain(rewrite_row(summary))
            .chain(journal_row(summary))
            .collect()
    }

    fn text(&self) -> Vec<(String, String)> {
        let summary = self.0;
        [
            (if summary.copy { "copied" } else { "moved" }, summary.moved),
            ("skipped", summary.skipped),
            ("failed", summary.failed),
            ("delete_failed", summary.delete_failed),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .chain(journal_row(summary))
        .collect()
    }
}

/// What the rewrite did, when the run rewrote messages.
fn rewrite_row(summary: &Summary) -> Option<(String, String)> {
    let rewrite = summary.rewrite.as_ref()?;
    let mut parts = vec![format!("{} failed", rewrite.failed)];
    if rewrite.changed_since_journal > 0 {
        parts.push(format!(
            "{} changed since the journal",
            rewrite.changed_since_journal
        ));
    }
    if let Some(not_envelope) = rewrite.not_envelope {
        parts.push(format!("{not_envelope} not an envelope (sent unchanged)"));
    }
    Some(("rewrite".to_string(), parts.join(", ")))
}

/// Where the run's journal is (`sqsctl redrive journals` lists it later).
fn journal_row(summary: &Summary) -> Option<(String, String)> {
    summary
        .journal
        .as_ref()
        .map(|path| ("journal".to_string(), path.clone()))
}

impl Row for MoveTask {
    const KIND: &'static str = "task";

    fn columns() -> Vec<Column> {
        vec![
            Column::whole("status"),
            Column::whole("moved"),
            Column::whole("to move"),
            Column::whole("rate").droppable(1),
            Column::whole("started").droppable(2),
            Column::wrap("failure", 12, 60),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let started =
            std::time::UNIX_EPOCH + Duration::from_millis(self.started_timestamp.max(0) as u64);
        vec![
            self.status.clone(),
            self.moved.to_string(),
            self.to_move.map(|n| n.to_string()).unwrap_or_default(),
            self.max_per_second
                .map(|n| format!("{n}/s"))
                .unwrap_or_default(),
            humantime::format_rfc3339_seconds(started).to_string(),
            self.failure_reason.clone().unwrap_or_default(),
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.status.clone(),
            self.moved.to_string(),
            self.to_move.map(|n| n.to_string()).unwrap_or_default(),
        ]
    }
}
