//! `sqsctl consume`: run a command once per message, delete the message when the command exits 0,
//! release it for a retry when it fails. The worker ([`crate::consume::run`]) does the work; this
//! module resolves what it needs (the command, the queue, the watchdog), shows what it tells
//! ([`report`]) and turns its summary into warnings and an exit status.

mod report;
mod settings;
pub mod watchdog;

use super::common::resolve_queue;
use crate::commands::context::Context;
use crate::consume::{Options, OutputMode, Source, Stopped, Summary, find_program};
use crate::error::{hinted, hinted_usage};
use crate::exit::ExitStatus;
use crate::select::Selector;
use crate::text::plural;
use report::Report;
pub use settings::ConsumeSettings;

pub async fn run(ctx: &Context, settings: ConsumeSettings) -> anyhow::Result<ExitStatus> {
    let program = find_program(&settings.program).map_err(|why| {
        hinted_usage(
            format!("cannot run the command: {why}"),
            "give the command after `--` as a name on PATH or a path; for shell syntax use `-- sh -c '...'`",
        )
    })?;
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?.clone();
    let source = Source::inspect(&sqs, queue, &ctx.interrupt).await?;
    if source.fifo
        && let Some(cap) = settings.plan.per_group.filter(|cap| *cap != 1)
    {
        return Err(hinted_usage(
            format!(
                "--per-group {cap} does not apply to FIFO queue `{}`: a FIFO queue runs one message of a group at a time, in order",
                source.queue.name
            ),
            "leave --per-group out (or give 1) on a FIFO queue; --concurrency sets how many groups run at once",
        ));
    }
    let selector =
        Selector::compile(&settings.selection).map_err(crate::commands::selection::invalid)?;
    if !settings.selection.is_all()
        && let Some(dead_letter) = &source.dead_letter
    {
        ctx.printer.warn(format!(
            "messages that do not match the selection are released, and each receive counts toward `{}`'s maxReceiveCount {}: one that stays unmatched moves to its dead-letter queue in the end",
            source.queue.name, dead_letter.max_receive_count
        ));
    }
    let records = ctx.printer.passing("consume")? == crate::output::Passing::Records;
    let report = Report::new(&ctx.printer, records, settings.plan.concurrency > 1);
    let output = if !records && settings.plan.concurrency == 1 && report.progress_hidden() {
        OutputMode::Inherit
    } else {
        OutputMode::Lines
    };
    if let Err(err) = crate::consume::family::become_subreaper() {
        ctx.printer.warn(format!(
            "could not adopt what the commands leave running in sessions of their own ({err}): such processes may outlive the run"
        ));
    }
    let options = Options {
        program,
        args: settings.args,
        output,
        watchdog: watchdog::start(&ctx.printer),
        selector,
        interrupt: ctx.interrupt.clone(),
    };
    let visibility = settings.plan.visibility_on(&source);
    ctx.printer.debug(format!(
        "{} at a time, visibility timeout {} s (extended while a command runs), {}",
        plural(settings.plan.concurrency as u64, "command"),
        visibility.as_secs(),
        match settings.plan.per_group {
            _ if source.fifo => "one message per group at a time".to_string(),
            Some(cap) => format!("in the order received, at most {cap} per group id at once"),
            None => "in the order received".to_string(),
        }
    ));
    ctx.interrupt.handle_abort();
    let summary = crate::consume::run(sqs, &source, settings.plan, options, |update| {
        report.update(update)
    })
    .await;
    finish(ctx, &report, &source, &settings.program, summary)
}

/// The summary line, the warnings about messages that were not settled as intended, and the exit
/// status.
fn finish(
    ctx: &Context,
    report: &Report,
    source: &Source,
    program: &str,
    summary: Summary,
) -> anyhow::Result<ExitStatus> {
    let counts = &summary.counts;
    let queue = &source.queue.name;
    report.summary(
        counts,
        queue,
        source.dead_letter.as_ref(),
        summary.interrupted,
    )?;
    ctx.printer.warn_count(
        counts.not_deleted,
        "message",
        "succeeded but SQS did not confirm the delete: they will be delivered again",
    );
    ctx.printer
        .warn_where_failures(summary.where_failures.as_ref(), queue);
    ctx.printer.warn_count(
        counts.release_failed,
        "message",
        "could not be released: they come back when their visibility timeout ends",
    );
    if summary.lapsed > 0 {
        ctx.printer.warn(format!(
            "the visibility timeout of {} lapsed before the heartbeat extended it: SQS may have delivered them to another consumer; a longer --visibility leaves more room",
            plural(summary.lapsed, "held message")
        ));
    }
    if let Some(err) = summary.write_error {
        return Err(anyhow::Error::new(err).context("could not write to stdout"));
    }
    match summary.stopped {
        Some(Stopped::Receive(err)) => {
            Err(anyhow::Error::new(err).context(format!("could not receive from `{queue}`")))
        }
        Some(Stopped::NotStarted(why)) => Err(hinted(
            format!("could not start `{program}`: {why}"),
            "the messages it held were released; check the command and run again",
        )),
        None if summary.interrupted => Ok(ExitStatus::Interrupted),
        None if counts.failed + counts.released + counts.not_deleted > 0 => Ok(ExitStatus::Partial),
        None => Ok(ExitStatus::Success),
    }
}
