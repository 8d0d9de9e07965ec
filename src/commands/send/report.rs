//! Tallying and reporting the outcome of `send --lines/--jsonl`: each batch entry not confirmed,
//! with its input line, as a `failed` record (definitely not sent) or an `unknown` record (SQS may
//! have it: an attempt failed after the server may have applied it, and none confirmed it), each
//! carrying the record itself for a retry; and the closing summary.

use serde::Serialize;

use crate::client::{BatchOutcome, EntryResult, QueueRef};
use crate::commands::context::Context;
use crate::message::MessageRecord;
use crate::output::{Column, Document, Table};
use crate::send::input::Batch;
use crate::text::plural;

/// Failures listed one by one on stderr before the rest are only counted.
const MAX_FAILURE_WARNINGS: usize = 10;

#[derive(Debug, Serialize)]
pub struct Failure {
    pub line: u64,
    pub code: String,
    pub message: String,
    pub record: MessageRecord,
}

#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub sent: u64,
    /// Definitely not sent.
    pub failed: u64,
    /// Perhaps sent: see the `unknown` records.
    pub unknown: u64,
    pub skipped: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_line: Option<u64>,
    pub interrupted: bool,
}

/// Tallies batch outcomes and reports failures as they come.
pub struct Report<'a> {
    ctx: &'a Context,
    queue: &'a QueueRef,
    pub summary: Summary,
    failures: Vec<Failure>,
    unknown: Vec<Failure>,
    warned: usize,
    /// Hints for the failures seen, each shown once at the end.
    hints: Vec<String>,
}

impl<'a> Report<'a> {
    pub fn new(ctx: &'a Context, queue: &'a QueueRef) -> Self {
        Report {
            ctx,
            queue,
            summary: Summary::default(),
            failures: Vec::new(),
            unknown: Vec::new(),
            warned: 0,
            hints: Vec::new(),
        }
    }

    /// Records one finished batch. A request that failed as a whole after its retries is
    /// returned, to stop the run; its entries are reported like any other entry not sent.
    pub fn batch_done(
        &mut self,
        (batch, outcome): (Batch, BatchOutcome),
    ) -> anyhow::Result<Option<anyhow::Error>> {
        let BatchOutcome {
            entries,
            request_error,
            ..
        } = outcome;
        if self.ctx.printer.verbosity() >= 2 {
            let sent = entries.iter().filter(|o| o.is_done()).count();
            self.ctx.printer.debug(format!(
                "batch of lines {}-{}: {} sent, {} not sent",
                batch.lines.first().copied().unwrap_or(0),
                batch.lines.last().copied().unwrap_or(0),
                sent,
                entries.len() - sent
            ));
        }
        for ((line, record), entry) in batch.lines.into_iter().zip(batch.records).zip(entries) {
            let (kind, code, message) = match entry {
                EntryResult::Done { .. } => {
                    self.summary.sent += 1;
                    continue;
                }
                EntryResult::Failed { code, message } => {
                    self.summary.failed += 1;
                    ("failed", code, message)
                }
                EntryResult::Unknown { code, message } => {
                    self.summary.unknown += 1;
                    ("unknown", code, message)
                }
            };
            let hint = if kind == "unknown" {
                Some(super::unknown_hint(self.queue))
            } else {
                super::entry_hint(self.queue, &code, &message)
            };
            if let Some(hint) = hint
                && !self.hints.contains(&hint)
            {
                self.hints.push(hint);
            }
            if self.warned < MAX_FAILURE_WARNINGS {
                self.warned += 1;
                let what = if kind == "unknown" {
                    "perhaps sent (outcome unknown)"
                } else {
                    "not sent"
                };
                self.ctx
                    .printer
                    .warn(format!("line {line}: {what}: {code}: {message}"));
            }
            let failure = Failure {
                line,
                code,
                message,
                record,
            };
            self.ctx.printer.stream(kind, &failure)?;
            if kind == "unknown" {
                self.unknown.push(failure);
            } else {
                self.failures.push(failure);
            }
        }
        Ok(request_error.map(anyhow::Error::from))
    }

    pub fn finish(&mut self) -> anyhow::Result<()> {
        let printer = &self.ctx.printer;
        let summary = &self.summary;
        // The counts and the lists apart: `unknown` is the count, `unknown_outcomes` the records.
        #[derive(Serialize)]
        struct Whole<'a> {
            #[serde(flatten)]
            summary: &'a Summary,
            failures: &'a [Failure],
            unknown_outcomes: &'a [Failure],
        }
        let lines = |kind: &str, failures: &[Failure]| -> Vec<Vec<String>> {
            failures
                .iter()
                .map(|f| {
                    vec![
                        kind.to_string(),
                        f.line.to_string(),
                        f.code.clone(),
                        f.message.clone(),
                    ]
                })
                .collect()
        };
        let mut rows = lines("failed", &self.failures);
        rows.extend(lines("unknown", &self.unknown));
        let mut table = Table::new(vec![
            Column::whole("outcome"),
            Column::whole("line"),
            Column::whole("code").droppable(1),
            Column::wrap("message", 12, 60),
        ]);
        for row in &rows {
            table.row(row.clone());
        }
        printer.emit(
            &Document::default()
                .json(&Whole {
                    summary,
                    failures: &self.failures,
                    unknown_outcomes: &self.unknown,
                })
                .record("summary", summary)
                .table(table)
                .text(rows),
        )?;
        printer.flush()?;
        let not_sent = (summary.failed + summary.unknown) as usize;
        if not_sent > self.warned {
            printer.warn(format!(
                "{} more messages not sent or perhaps sent, not listed",
                not_sent - self.warned
            ));
        }
        let mut line = format!(
            "sent {} to {}",
            plural(summary.sent, "message"),
            self.queue.name
        );
        if summary.failed > 0 {
            line.push_str(&format!(", {} failed", summary.failed));
        }
        if summary.unknown > 0 {
            line.push_str(&format!(
                ", {} with an unknown outcome (perhaps sent)",
                summary.unknown
            ));
        }
        if summary.skipped > 0 {
            line.push_str(&format!(
                ", skipped {}",
                plural(summary.skipped, "invalid line")
            ));
        }
        if summary.interrupted {
            line.push_str(" (interrupted: lines not yet read were not sent)");
        }
        if summary.stopped_at_line.is_some()
            && summary.sent == 0
            && summary.failed == 0
            && summary.unknown == 0
        {
            // The error that stopped the run says it all: "sent 0 messages" would only distract.
        } else if summary.failed > 0 || summary.unknown > 0 || summary.skipped > 0 {
            printer.warn(line);
        } else {
            printer.info(line);
        }
        for hint in &self.hints {
            printer.hint(hint);
        }
        Ok(())
    }
}
