//! What a person sees during and after a redrive: the progress bar and the summary.

use std::sync::Arc;
use std::time::Duration;

use crate::commands::context::Context;
use crate::output::Document;
use crate::output::redrive::Report;
use crate::redrive::{Counters, Summary};
use crate::text::{counted, plural};

/// A progress bar fed from the engine's counters; hidden unless stderr is a terminal.
pub struct Progress {
    bar: indicatif::ProgressBar,
    ticker: Option<tokio::task::JoinHandle<()>>,
}

impl Progress {
    pub fn start(ctx: &Context, counters: Arc<Counters>, total: u64) -> Progress {
        let bar = ctx.printer.progress(
            total,
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} ({rate}, ETA {eta})",
        );
        if bar.is_hidden() {
            return Progress { bar, ticker: None };
        }
        let shown = bar.clone();
        let ticker = tokio::spawn(async move {
            loop {
                let moved = Counters::get(&counters.moved)
                    + Counters::get(&counters.completed_from_journal);
                let failed =
                    Counters::get(&counters.failed) + Counters::get(&counters.delete_failed);
                let skipped = Counters::get(&counters.skipped);
                let workers = Counters::get(&counters.workers);
                if moved > shown.length().unwrap_or(0) {
                    shown.set_length(moved);
                }
                shown.set_position(moved);
                let waiting = Counters::get(&counters.waiting_until_ms);
                if waiting > 0 {
                    shown.set_message(format!(
                        "moved; waiting {} s for messages a receive without an answer may have hidden",
                        seconds_until(waiting)
                    ));
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
                shown.set_message(format!(
                    "moved, {skipped} left (not matching), {failed} failed, {}",
                    plural(workers, "worker")
                ));
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        Progress {
            bar,
            ticker: Some(ticker),
        }
    }

    /// Whether the bar is drawn (stderr is a terminal and not `--quiet`).
    pub fn shown(&self) -> bool {
        !self.bar.is_hidden()
    }

    pub fn finish(self) {
        if let Some(ticker) = self.ticker {
            ticker.abort();
        }
        self.bar.finish_and_clear();
    }
}

/// Whole seconds from now until `until_ms` (ms since the epoch), 0 once it passed.
fn seconds_until(until_ms: u64) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    until_ms.saturating_sub(now).div_ceil(1000)
}

/// Runs `run` and, without a progress bar to show it, says on stderr when the end of the run
/// waits for messages a receive without an answer may have hidden: a pipe would otherwise see a
/// silence as long as a visibility timeout.
pub async fn telling_waits<T>(
    ctx: &Context,
    progress: &Progress,
    counters: &Counters,
    run: impl std::future::Future<Output = T>,
) -> T {
    tokio::pin!(run);
    if progress.shown() {
        return run.await;
    }
    let mut told = 0;
    loop {
        tokio::select! {
            output = &mut run => return output,
            () = tokio::time::sleep(Duration::from_millis(250)) => {
                let until = Counters::get(&counters.waiting_until_ms);
                if until != 0 && until != told {
                    told = until;
                    ctx.printer.info(format!(
                        "waiting {} s for messages a receive without an answer may have hidden, then looking again",
                        seconds_until(until)
                    ));
                }
            }
        }
    }
}

/// The summary: data on stdout in the chosen format, one line for a person on stderr.
/// Prints the summary of a run. `account_region` says where the run acted (`account 123456789012,
/// eu-west-1`), for the closing line.
pub fn summary(ctx: &Context, summary: &Summary, account_region: &str) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let mut document = Document::fields(&Report(summary));
    for failure in &summary.failures {
        document = document.note(format!("failed {}: {}", failure.message_id, failure.reason));
    }
    printer.emit(&document)?;
    printer.flush()?;
    printer.debug(format!("workers: {}", summary.workers));
    if let Some(why) = summary.workers.why_settled() {
        printer.debug(format!("workers: {why}"));
    }
    let verb = if summary.copy { "copied" } else { "moved" };
    let mut line = if summary.interrupted || summary.error.is_some() {
        // The run stopped before it looked at the whole DLQ: "of N selected" would read as if
        // nothing else were left.
        format!(
            "stopped after {} {} from {} to {} in {:.1} s; {} still in {} ({} visible, {} in flight), not all of them looked at yet",
            if summary.copy { "copying" } else { "moving" },
            summary.moved,
            summary.source,
            summary.destination,
            summary.seconds,
            counted(
                summary.left_visible + summary.left_in_flight,
                "message",
                "is",
                "are"
            ),
            summary.source,
            summary.left_visible,
            summary.left_in_flight
        )
    } else {
        format!(
            "{verb} {} of {} selected from {} to {} in {:.1} s",
            summary.moved, summary.selected, summary.source, summary.destination, summary.seconds
        )
    };
    line.push_str(&format!(" ({account_region})"));
    let clauses = [
        (summary.completed_from_journal > 0).then(|| {
            format!(
                "deleted {} that an earlier run of the journal had sent",
                summary.completed_from_journal
            )
        }),
        summary.share().map(|(moved, depth)| {
            let by = if summary.moved_before > 0 {
                "this run and the earlier runs of its journal moved"
            } else {
                "that is"
            };
            format!(
                "{by} {}% of the {depth} the DLQ held at the start: other readers took the rest",
                moved * 100 / depth.max(1)
            )
        }),
        summary.depth_lagged().then(|| {
            format!(
                "SQS counted {} in the DLQ at the start, fewer than the run found (its counts lag): whether other readers took some, and sent copies this run cannot see, is not known",
                summary.dlq_depth_at_start.unwrap_or(0)
            )
        }),
        (summary.skipped > 0).then(|| format!("{} not matching stay in the DLQ", summary.skipped)),
        summary
            .rewrite
            .as_ref()
            .and_then(|r| r.not_envelope)
            .filter(|&n| n > 0)
            .map(|n| format!("{n} not an SNS or EventBridge envelope, sent unchanged")),
        (summary.delivered_twice > 0).then(|| {
            format!(
                "{} delivered twice by SQS to this run (each sent once by it)",
                summary.delivered_twice
            )
        }),
    ];
    for clause in clauses.into_iter().flatten() {
        line.push_str("; ");
        line.push_str(&clause);
    }
    printer.info(line);
    printer.warn_where_failures(summary.where_failed.as_ref(), &summary.source);
    if let Some(rewrite) = summary.rewrite.as_ref()
        && rewrite.changed_since_journal > 0
    {
        printer.warn(format!(
            "{} rewritten differently from what the interrupted run may have sent, and {} not sent: a filter or command that gives the same result twice moves {}",
            counted(rewrite.changed_since_journal, "message", "was", "were"),
            if rewrite.changed_since_journal == 1 { "it was" } else { "they were" },
            if rewrite.changed_since_journal == 1 { "it" } else { "them" },
        ));
    }
    if summary.failed > 0 {
        printer.warn(format!(
            "{} not be sent and {} in {} (reasons in the summary and the journal)",
            counted(summary.failed, "message", "could", "could"),
            if summary.failed == 1 { "stays" } else { "stay" },
            summary.source
        ));
    }
    if !summary.not_found.is_empty() {
        printer.warn(format!(
            "{} not found in {} (moved already, in flight with a consumer, or delayed): {}",
            if summary.not_found.len() == 1 {
                "1 message id was".to_string()
            } else {
                format!("{} message ids were", summary.not_found.len())
            },
            summary.source,
            summary
                .not_found
                .iter()
                .map(|id| printer.display(id))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if summary.delete_failed > 0 {
        printer.warn(format!(
            "{} sent but could not be deleted from {}: run `sqsctl redrive --resume {}` to delete {} without sending {} again",
            counted(summary.delete_failed, "message", "was", "were"),
            summary.source,
            summary.journal.as_deref().unwrap_or("JOURNAL"),
            if summary.delete_failed == 1 { "it" } else { "them" },
            if summary.delete_failed == 1 { "it" } else { "them" },
        ));
    }
    if summary.left_in_flight > 0 && !summary.limit_reached {
        printer.warn(format!(
            "{} in {} {} in flight (held by another consumer, or by a receive whose answer was lost); when {} visible again, run `sqsctl redrive --resume {}`",
            plural(summary.left_in_flight, "message"),
            summary.source,
            if summary.left_in_flight == 1 { "is" } else { "are" },
            if summary.left_in_flight == 1 { "it is" } else { "they are" },
            summary.journal.as_deref().unwrap_or("JOURNAL")
        ));
    }
    if summary.possible_duplicates > 0 {
        printer.warn(format!(
            "up to {} in {} twice: sent again after an answer SQS may have applied anyway, held past a visibility timeout it could not extend (another reader may have sent it too), or sent with an unknown outcome and left in {} for a later run",
            counted(summary.possible_duplicates, "message", "may be", "may be"),
            summary.destination,
            summary.source
        ));
    }
    if summary.share().is_some() {
        printer.warn(
            "SQS may hand one message to two readers at once: a copy that another reader sent is not counted in this summary (docs/redrive.md, \"Duplicates: the bounds\")",
        );
    }
    if let Some(until_ms) = summary.hidden_until_ms {
        printer.warn(format!(
            "a receive that got no answer (or was given up; {} in all) may have hidden messages in {} until {}, after this run's last look; then run `sqsctl redrive --resume {}`",
            summary.lost_receives,
            summary.source,
            humantime::format_rfc3339_seconds(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(until_ms)
            ),
            summary.journal.as_deref().unwrap_or("JOURNAL")
        ));
    }
    if summary.in_flight_limit {
        printer.warn(format!(
            "the copy stopped at the limit of messages in flight in {source}: SQS hands over no more while a queue holds about 120,000 in flight, and a copy keeps each message it copied in flight until it ends; about {left} in {source} (SQS's approximate count) {were} not reached, and a second copy would meet the same limit (docs/redrive.md, \"Copying more than the in-flight limit\")",
            source = summary.source,
            left = plural(summary.maybe_left, "message"),
            were = if summary.maybe_left == 1 { "was" } else { "were" },
        ));
    } else if summary.maybe_left > 0 && summary.copy {
        printer.warn(format!(
            "{} in {} {} not reached by this copy: {}",
            plural(summary.maybe_left, "message"),
            summary.source,
            if summary.maybe_left == 1 { "was" } else { "were" },
            if summary.source.ends_with(".fifo") {
                "a FIFO queue hands over a group's later messages only once its earlier ones have left it, and a copy deletes nothing, so it reaches as deep into each group as one receive does (moving the messages reaches them all)".to_string()
            } else {
                format!(
                    "run `sqsctl redrive --resume {}` to copy what came since",
                    summary.journal.as_deref().unwrap_or("JOURNAL")
                )
            },
        ));
    } else if summary.maybe_left > 0 {
        printer.warn(format!(
            "SQS still counts {} more in {} than the run left there on purpose, and its last look found more: some of the selection may be left; run `sqsctl redrive --resume {}`",
            summary.maybe_left,
            summary.source,
            summary.journal.as_deref().unwrap_or("JOURNAL")
        ));
    }
    if summary.arrived_later > 0 {
        printer.info(format!(
            "{} in {} as not part of this run (sent after it started, or moved by it and back since)",
            counted(summary.arrived_later, "message", "stays", "stay"),
            summary.source
        ));
    }
    if summary.interrupted && summary.outcome_unknown > 0 {
        printer.warn(format!(
            "interrupted: {} abandoned when the grace period ran out, with the send unanswered (it may or may not have reached {}); they stay hidden in {} until their visibility timeout ends, and `sqsctl redrive --resume {}` waits for them and continues",
            counted(summary.outcome_unknown, "message", "was", "were"),
            summary.destination,
            summary.source,
            summary.journal.as_deref().unwrap_or("JOURNAL")
        ));
    } else if summary.interrupted {
        printer.warn(format!(
            "interrupted: the batches in flight were finished; `sqsctl redrive --resume {}` continues",
            summary.journal.as_deref().unwrap_or("JOURNAL")
        ));
    }
    Ok(())
}
