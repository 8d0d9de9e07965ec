//! Reporting `send --lines/--jsonl` as [`SendStream`](crate::send::stream::SendStream) tallies it:
//! each batch entry not confirmed, with its input line, as a `failed` record (definitely not sent)
//! or an `unknown` record (SQS may have it), each carrying the record itself for a retry; the
//! closing summary, which counts the possible duplicates of messages sent again after an answer SQS
//! may have applied anyway; and, for a run that stopped early, the error with where to resume.

use serde::Serialize;

use crate::client::QueueRef;
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::{Column, Document, Table};
use crate::send::input::LineFormat;
use crate::send::stream::{Event, Failure, Finished, Stop, Summary, Unconfirmed};
use crate::text::plural;

/// Failures listed one by one on stderr before the rest are only counted.
const MAX_FAILURE_WARNINGS: usize = 10;

/// Reports a stream send's events as they come, and its end.
pub struct Report<'a> {
    ctx: &'a Context,
    queue: &'a QueueRef,
    warned: usize,
    /// Hints for the failures seen, each shown once at the end.
    hints: Vec<String>,
}

impl<'a> Report<'a> {
    pub fn new(ctx: &'a Context, queue: &'a QueueRef) -> Self {
        Report {
            ctx,
            queue,
            warned: 0,
            hints: Vec::new(),
        }
    }

    /// Reports one event: a skipped line, a batch (with -vv), an entry not confirmed sent (a
    /// warning for the first few, a `failed` or `unknown` record for each).
    pub fn event(&mut self, event: Event) -> anyhow::Result<()> {
        let printer = &self.ctx.printer;
        let (outcome, failure) = match event {
            Event::Skipped { line, reason } => {
                let reason = crate::output::sanitize::for_terminal(&reason).into_owned();
                printer.warn(format!("line {line}: skipped: {reason}"));
                return Ok(());
            }
            Event::Batch {
                first_line,
                last_line,
                sent,
                not_sent,
            } => {
                if printer.verbosity() >= 2 {
                    printer.debug(format!(
                        "batch of lines {first_line}-{last_line}: {sent} sent, {not_sent} not sent"
                    ));
                }
                return Ok(());
            }
            Event::NotSent { outcome, failure } => (outcome, failure),
        };
        let Failure {
            line,
            code,
            message,
            ..
        } = failure.as_ref();
        let hint = match outcome {
            Unconfirmed::Unknown => Some(crate::hints::unknown_send_outcome(self.queue)),
            Unconfirmed::Failed => crate::hints::send_entry(self.queue, code, message),
        };
        if let Some(hint) = hint
            && !self.hints.contains(&hint)
        {
            self.hints.push(hint);
        }
        if self.warned < MAX_FAILURE_WARNINGS {
            self.warned += 1;
            let what = match outcome {
                Unconfirmed::Unknown => "perhaps sent (outcome unknown)",
                Unconfirmed::Failed => "not sent",
            };
            printer.warn(format!("line {line}: {what}: {code}: {message}"));
        }
        printer.stream(outcome.name(), &failure)?;
        Ok(())
    }

    /// The `failed` and `unknown` entries as a list (a table, lines, or the JSON summary), and
    /// the closing summary on stderr.
    pub fn finish(&self, finished: &Finished) -> anyhow::Result<()> {
        let printer = &self.ctx.printer;
        let summary = &finished.summary;
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
        let mut rows = lines("failed", &finished.failed);
        rows.extend(lines("unknown", &finished.unknown));
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
                    failures: &finished.failed,
                    unknown_outcomes: &finished.unknown,
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
        if let Some(duplicates) = duplicates_note(summary) {
            line.push_str("; ");
            line.push_str(&duplicates);
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
        } else if summary.failed > 0
            || summary.unknown > 0
            || summary.skipped > 0
            || summary.possible_duplicates > 0
        {
            printer.warn(line);
        } else {
            printer.info(line);
        }
        for hint in &self.hints {
            printer.hint(hint);
        }
        Ok(())
    }

    /// How the run ends: the error that stopped it, with where to resume, or its exit status.
    pub fn end(&self, finished: Finished, format: LineFormat) -> anyhow::Result<ExitStatus> {
        let summary = &finished.summary;
        let flag = if format == LineFormat::Jsonl {
            "--jsonl"
        } else {
            "--lines"
        };
        let resume = |line: u64| {
            format!(
                "`tail -n +{line} FILE | sqsctl send {} {flag}` sends the rest",
                self.queue.name
            )
        };
        if let Some(stop) = finished.stop {
            let mut handled = format!(
                "{} sent, {} failed, {} unknown",
                summary.sent, summary.failed, summary.unknown
            );
            if summary.possible_duplicates > 0 {
                handled.push_str(&format!(
                    ", up to {}",
                    plural(summary.possible_duplicates, "possible duplicate")
                ));
            }
            let bad_line = matches!(stop, Stop::InvalidLine { .. });
            let err = match stop {
                Stop::InvalidLine { line, reason } => anyhow::anyhow!("line {line}: {reason}"),
                Stop::Request(err) => anyhow::Error::from(err),
                Stop::Read(err) => anyhow::Error::new(err).context("could not read stdin"),
            };
            let hint = match summary.stopped_at_line {
                Some(line) if bad_line && summary.handled() == 0 => format!(
                    "nothing was sent; fix line {line} and run again, or pass --skip-invalid to skip bad lines"
                ),
                Some(line) if bad_line => format!(
                    "the lines before line {line} were handled ({handled}) and nothing from it on; fix line {line}, then {}, or pass --skip-invalid to skip bad lines",
                    resume(line)
                ),
                Some(_) if finished.input_done => {
                    format!("every line was read: {handled}; the records not sent are listed")
                }
                Some(line) => format!(
                    "the lines before line {line} were handled ({handled}; the records not sent are listed) and nothing from line {line} on was sent: {}",
                    resume(line)
                ),
                None => handled,
            };
            return Err(hinted(format!("{err:#}"), hint));
        }
        if summary.interrupted
            && let Some(line) = summary.stopped_at_line
        {
            self.ctx.printer.hint(format!(
                "nothing from line {line} on was sent: {}",
                resume(line)
            ));
        }
        // Every line skipped is not a success: a script piping the wrong file must notice.
        // Possible duplicates alone are: every message was sent, and a run again would only add
        // copies; the summary record counts them for a script that must know.
        Ok(if summary.interrupted {
            ExitStatus::Interrupted
        } else if summary.failed > 0 || summary.unknown > 0 || summary.all_skipped() {
            ExitStatus::Partial
        } else {
            ExitStatus::Success
        })
    }
}

/// What the summary line says of messages sent again after an answer SQS may have applied anyway:
/// on a standard queue they may be there twice (at most how many copies), on a FIFO queue SQS
/// dropped the copies. `None` when no send was made again after such an answer.
pub fn duplicates_note(summary: &Summary) -> Option<String> {
    if summary.possible_duplicates > 0 {
        Some(format!(
            "up to {} in the queue: sent again after an answer that SQS may have applied anyway",
            plural(summary.possible_duplicates, "possible duplicate")
        ))
    } else if summary.ambiguous_resends > 0 {
        Some(format!(
            "{} sent again after an answer that SQS may have applied anyway, no duplicates: SQS keeps one copy of a deduplication id within 5 minutes",
            plural(summary.ambiguous_resends, "message")
        ))
    } else {
        None
    }
}
