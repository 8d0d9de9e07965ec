//! Tallying and reporting the outcome of `send --lines/--jsonl`: each failed batch entry with its
//! input line (as a `failed` record that carries the record itself, for a retry), and the closing
//! summary.

use serde::Serialize;

use super::common::plural;
use super::send_input::Batch;
use crate::app::Context;
use crate::client::{ClientError, EntryOutcome, QueueRef};
use crate::message::MessageRecord;
use crate::output::Format;

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
    pub failed: u64,
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
            warned: 0,
            hints: Vec::new(),
        }
    }

    /// Records one finished batch. A request that failed as a whole (after the SDK's retries)
    /// fails every entry of the batch and is returned, to stop the run.
    pub fn batch_done(
        &mut self,
        (batch, outcome): (Batch, Result<Vec<EntryOutcome>, ClientError>),
    ) -> anyhow::Result<Option<anyhow::Error>> {
        let (outcomes, fatal) = match outcome {
            Ok(outcomes) => (outcomes, None),
            Err(err) => {
                let code = err.code().unwrap_or("RequestFailed").to_string();
                let message = err.to_string();
                let failed = EntryOutcome::Failed {
                    code,
                    message,
                    sender_fault: false,
                };
                (vec![failed; batch.records.len()], Some(err.into()))
            }
        };
        if self.ctx.printer.verbosity() >= 2 {
            let sent = outcomes.iter().filter(|o| o.is_ok()).count();
            self.ctx.printer.debug(format!(
                "batch of lines {}-{}: {} sent, {} not sent",
                batch.lines.first().copied().unwrap_or(0),
                batch.lines.last().copied().unwrap_or(0),
                sent,
                outcomes.len() - sent
            ));
        }
        for ((line, record), outcome) in batch.lines.into_iter().zip(batch.records).zip(outcomes) {
            let (code, message) = match outcome {
                EntryOutcome::Ok { .. } => {
                    self.summary.sent += 1;
                    continue;
                }
                EntryOutcome::Failed { code, message, .. } => (code, message),
                EntryOutcome::Missing => (
                    "Unknown".to_string(),
                    "the answer did not mention this entry; it may or may not have been sent"
                        .to_string(),
                ),
            };
            self.summary.failed += 1;
            if let Some(hint) = super::send::entry_hint(self.queue, &code, &message)
                && !self.hints.contains(&hint)
            {
                self.hints.push(hint);
            }
            if self.warned < MAX_FAILURE_WARNINGS {
                self.warned += 1;
                self.ctx
                    .printer
                    .warn(format!("line {line}: not sent: {code}: {message}"));
            }
            let failure = Failure {
                line,
                code,
                message,
                record,
            };
            match self.ctx.printer.format() {
                Format::Jsonl => self.ctx.printer.record("failed", &failure)?,
                Format::Json => self.failures.push(failure),
                Format::Table | Format::Text => {}
            }
        }
        Ok(fatal)
    }

    pub fn finish(&mut self) -> anyhow::Result<()> {
        let printer = &self.ctx.printer;
        let summary = &self.summary;
        match printer.format() {
            Format::Jsonl => printer.record("summary", summary)?,
            Format::Json => {
                #[derive(Serialize)]
                struct Document<'a> {
                    #[serde(flatten)]
                    summary: &'a Summary,
                    failures: &'a [Failure],
                }
                printer.json(&Document {
                    summary,
                    failures: &self.failures,
                })?;
            }
            Format::Table | Format::Text => {}
        }
        printer.flush()?;
        if summary.failed as usize > self.warned {
            printer.warn(format!(
                "{} more failures not listed",
                summary.failed as usize - self.warned
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
        if summary.skipped > 0 {
            line.push_str(&format!(
                ", skipped {}",
                plural(summary.skipped, "invalid line")
            ));
        }
        if summary.interrupted {
            line.push_str(" (interrupted: lines not yet read were not sent)");
        }
        if summary.stopped_at_line.is_some() && summary.sent == 0 && summary.failed == 0 {
            // The error that stopped the run says it all: "sent 0 messages" would only distract.
        } else if summary.failed > 0 || summary.skipped > 0 {
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
