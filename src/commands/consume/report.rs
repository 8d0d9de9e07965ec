//! What `sqsctl consume` shows: its commands' output passed through (each line whole, prefixed
//! with the start of the message id when several run at once) or as `output` records, a `result`
//! record per message, the progress line on a terminal, and the summary, which says where failed
//! messages went.

use std::io;

use indicatif::ProgressBar;
use serde::Serialize;
use tokio::time::Instant;

use crate::consume::{Counts, DeadLetter, Outcome, Stream, Update};
use crate::output::Printer;
use crate::text::{plural, plural_with};

/// How many characters of a message id prefix its command's output lines: enough to tell the
/// messages of a run apart, short enough to leave the line to the command.
const ID_PREFIX: usize = 8;

/// A line of a command's output as a record.
#[derive(Serialize)]
struct OutputLine<'a> {
    message_id: &'a str,
    stream: &'static str,
    line: std::borrow::Cow<'a, str>,
}

#[derive(Serialize)]
struct SummaryRecord<'a> {
    #[serde(flatten)]
    counts: &'a Counts,
    interrupted: bool,
}

pub struct Report<'a> {
    printer: &'a Printer,
    records: bool,
    prefix: bool,
    progress: ProgressBar,
    started: Instant,
}

impl<'a> Report<'a> {
    /// `records`: output and results as JSON Lines records; `prefix`: output lines start with the
    /// message id.
    pub fn new(printer: &'a Printer, records: bool, prefix: bool) -> Report<'a> {
        Report {
            printer,
            records,
            prefix,
            progress: printer.progress(0, "{spinner} {msg}"),
            started: Instant::now(),
        }
    }

    pub fn progress_hidden(&self) -> bool {
        self.progress.is_hidden()
    }

    /// What the run tells as it goes.
    pub fn update(&self, update: Update<'_>) -> io::Result<()> {
        match update {
            Update::Output {
                message_id,
                stream,
                line,
            } => self.output(message_id, stream, line),
            Update::Outcome(outcome) => self.result(outcome),
            Update::Progress { counts, running } => {
                self.progress(counts, running);
                Ok(())
            }
            Update::Stopping { waiting, running } => {
                if running > 0 || waiting > 0 {
                    self.printer.info(format!(
                        "{} not started released; {} may finish within the grace period",
                        plural(waiting as u64, "message"),
                        plural(running as u64, "running command")
                    ));
                }
                Ok(())
            }
        }
    }

    /// A line of a command's output.
    fn output(&self, message_id: &str, stream: Stream, line: &[u8]) -> io::Result<()> {
        if self.records {
            let text = String::from_utf8_lossy(line);
            let text = match text {
                std::borrow::Cow::Borrowed(t) => std::borrow::Cow::Borrowed(trim_newline(t)),
                std::borrow::Cow::Owned(t) => std::borrow::Cow::Owned(trim_newline(&t).to_string()),
            };
            let record = OutputLine {
                message_id,
                stream: stream.name(),
                line: text,
            };
            self.printer.record("output", &record)?;
            return self.printer.flush();
        }
        let mut bytes = Vec::with_capacity(line.len() + ID_PREFIX + 4);
        if self.prefix {
            let short: String = message_id.chars().take(ID_PREFIX).collect();
            bytes.extend_from_slice(format!("[{short}] ").as_bytes());
        }
        bytes.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        self.progress.suspend(|| match stream {
            Stream::Stdout => self.printer.write_bytes(&bytes),
            Stream::Stderr => self.printer.write_err_bytes(&bytes),
        })
    }

    /// One message's outcome, as a record with -o jsonl.
    fn result(&self, record: &Outcome) -> io::Result<()> {
        if !self.records {
            return Ok(());
        }
        self.printer.record("result", record)?;
        self.printer.flush()
    }

    /// The progress line: done, failed, running, rate.
    fn progress(&self, counts: &Counts, running: usize) {
        if self.progress.is_hidden() {
            return;
        }
        let secs = self.started.elapsed().as_secs_f64().max(0.001);
        self.progress.set_message(format!(
            "{} deleted, {} failed, {} running, {:.1}/s",
            counts.deleted,
            counts.failed + counts.released + counts.not_deleted,
            running,
            counts.finished() as f64 / secs
        ));
    }

    /// The closing summary: a record with -o jsonl, and a line on stderr.
    pub fn summary(
        &self,
        counts: &Counts,
        queue: &str,
        dead_letter: Option<&DeadLetter>,
        interrupted: bool,
    ) -> io::Result<()> {
        self.progress.finish_and_clear();
        if self.records {
            self.printer.record(
                "summary",
                &SummaryRecord {
                    counts,
                    interrupted,
                },
            )?;
        }
        self.printer.flush()?;
        let secs = self.started.elapsed().as_secs_f64();
        let mut line = format!(
            "consume {queue}: {} in {secs:.1} s, {} deleted",
            plural(counts.finished() + counts.stopped, "run"),
            counts.deleted
        );
        let parts = [
            (counts.released, "released at once by their exit code"),
            (counts.not_deleted, "succeeded but not deleted"),
            (counts.stopped, "stopped (released)"),
            (counts.returned, "released without running"),
            (counts.skipped, "left out by the selection"),
        ];
        for (count, what) in parts {
            if count > 0 {
                line.push_str(&format!(", {count} {what}"));
            }
        }
        if counts.duplicates > 0 {
            line.push_str(&format!(
                ", {} by SQS",
                plural_with(
                    counts.duplicates,
                    "duplicate delivery",
                    "duplicate deliveries"
                )
            ));
        }
        // Last, as it says most: where the failed messages went.
        if let Some(failed) = failures(counts, queue, dead_letter) {
            line.push_str(&format!("; {failed}"));
        }
        self.printer.info(line);
        Ok(())
    }
}

fn trim_newline(text: &str) -> &str {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.strip_suffix('\r').unwrap_or(text)
}

/// Where the failed messages went: released for a retry, and, with a dead-letter queue, which of
/// them move there at their next receive and after how many receives the others do.
fn failures(counts: &Counts, queue: &str, dead_letter: Option<&DeadLetter>) -> Option<String> {
    if counts.failed == 0 {
        return None;
    }
    // The runs that failed, and then what became of their messages, each counted once: a message
    // retried, or delivered twice by SQS, fails more than once.
    let failed = match counts.failed_messages {
        0 => counts.failed,
        messages => messages.min(counts.failed),
    };
    let runs = if failed < counts.failed {
        format!("{} failed ({})", counts.failed, plural(failed, "message"))
    } else {
        format!("{failed} failed")
    };
    let Some(dead_letter) = dead_letter else {
        return Some(format!(
            "{runs}: released for a retry after the retry delay ({queue} has no dead-letter queue: {} back until {} or {})",
            if failed == 1 { "it comes" } else { "they come" },
            if failed == 1 {
                "it succeeds"
            } else {
                "they succeed"
            },
            if failed == 1 { "expires" } else { "expire" },
        ));
    };
    let last = counts.at_last_receive.min(failed);
    let mut parts = Vec::new();
    let retried = failed.saturating_sub(last);
    if retried > 0 {
        parts.push(format!(
            "{retried} released for a retry after the retry delay (after {} {} to {})",
            plural(dead_letter.max_receive_count, "receive"),
            if retried == 1 {
                "it moves"
            } else {
                "they move"
            },
            dead_letter.queue
        ));
    }
    if last > 0 {
        parts.push(format!(
            "{} {} last receive ({} of {}) and {} to {} instead of being delivered again",
            last,
            if last == 1 { "used its" } else { "used their" },
            dead_letter.max_receive_count,
            dead_letter.max_receive_count,
            if last == 1 { "moves" } else { "move" },
            dead_letter.queue
        ));
    }
    Some(format!("{runs}: {}", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_where_failed_messages_went() {
        let dlq = DeadLetter {
            queue: "orders-dlq".into(),
            max_receive_count: 3,
        };
        let counts = Counts {
            failed: 3,
            failed_messages: 3,
            at_last_receive: 1,
            ..Counts::default()
        };
        assert_eq!(
            failures(&counts, "orders", Some(&dlq)).unwrap(),
            "3 failed: 2 released for a retry after the retry delay (after 3 receives they move to orders-dlq); 1 used its last receive (3 of 3) and moves to orders-dlq instead of being delivered again"
        );
        assert_eq!(
            failures(&counts, "orders", None).unwrap(),
            "3 failed: released for a retry after the retry delay (orders has no dead-letter queue: they come back until they succeed or expire)"
        );
        assert_eq!(failures(&Counts::default(), "orders", Some(&dlq)), None);
        // One message failed twice (retried, or delivered twice by SQS): it moves once.
        let twice = Counts {
            failed: 3,
            failed_messages: 2,
            at_last_receive: 2,
            ..Counts::default()
        };
        assert_eq!(
            failures(&twice, "orders", Some(&dlq)).unwrap(),
            "3 failed (2 messages): 2 used their last receive (3 of 3) and move to orders-dlq instead of being delivered again"
        );
    }
}
