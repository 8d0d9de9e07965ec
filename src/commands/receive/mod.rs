//! `sqsctl receive`: receive messages and write them as records, optionally deleting each one
//! after its record reached stdout, through the engine in [`crate::receive`].
//!
//! Here: the settings, the confirmation, the [read guard](guard) of a run without `--delete`, the
//! choice to go one batch at a time (`--delete` into a pipe, where a reader that stops early loses
//! what sits unread in between: the pipe is shrunk to one page, holds one message at a time, and a
//! message counts as written once the reader took it out), the [`sink`] that writes, and the
//! summary.

mod guard;
mod sink;

use crate::cli::values::whole_seconds;
use crate::client::limits;

use super::common::{confirm_destructive, queue_place, resolve_queue};
use crate::cli::receive::ReceiveArgs;
use crate::client::QueueRef;
use crate::client::RetryPolicy;
use crate::commands::context::Context;
use crate::error::UsageError;
use crate::exit::ExitStatus;
use crate::message::shown::Shown;
use crate::output::Format;
use crate::output::messages::MessageWriter;
use crate::output::pipe::{shrink_pipe, stdout_is_stream};
use crate::output::template::Template;
use crate::receive::{ReceivePlan, ReceiveReport, ReceiveRequest};
use crate::select::Selection;
use crate::text::{plural, plural_with};

#[derive(Debug)]
pub struct ReceiveSettings {
    pub queue: String,
    pub plan: ReceivePlan,
    pub yes: bool,
    /// Read what the read guard refuses.
    pub force: bool,
    pub shown: Shown,
    pub selection: Selection,
    pub template: Option<Template>,
    pub unwrap: bool,
    /// `--count-by` expressions: counts instead of messages.
    pub count_by: Vec<String>,
}

impl ReceiveSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: ReceiveArgs) -> anyhow::Result<ReceiveSettings> {
        let max = match (args.max, args.until_empty || args.follow) {
            (Some(max), _) => Some(max),
            (None, true) => None,
            (None, false) => Some(10),
        };
        let wait_seconds = match (args.wait.map(whole_seconds), args.follow) {
            (Some(0), true) => {
                anyhow::bail!("--follow long-polls: --wait must be 1s-20s with it")
            }
            (Some(wait), _) => Some(wait),
            (None, true) => Some(whole_seconds(limits::MAX_WAIT)),
            (None, false) => None,
        };
        Ok(ReceiveSettings {
            queue: args.queue,
            plan: ReceivePlan {
                max,
                wait_seconds,
                visibility_timeout: args.visibility.map(whole_seconds),
                until_empty: args.until_empty,
                follow: args.follow,
                delete: args.delete,
                concurrency: usize::from(args.concurrency),
            },
            yes: args.yes,
            force: args.force,
            shown: super::selection::shown(&args.shown)?,
            selection: super::selection::resolve(args.select, Vec::new())?,
            template: args.format,
            unwrap: args.shown.unwrap,
            count_by: super::selection::count_by(args.count_by)?,
        })
    }
}

pub async fn run(ctx: &Context, settings: ReceiveSettings) -> anyhow::Result<ExitStatus> {
    ctx.printer.check_template(settings.template.as_ref())?;
    ctx.printer.check_unwrap(settings.unwrap)?;
    ctx.printer.check_message_query()?;
    let plan = &settings.plan;
    let into_pipe = plan.delete && !ctx.printer.stdout_is_terminal() && stdout_is_stream();
    if plan.delete {
        // Each message is deleted once its record is written: a stdout that takes writes into
        // nothing would delete every message unread.
        crate::output::check_stdout().map_err(|why| {
            anyhow::Error::new(why).context("receive --delete deletes each message once written to stdout, and nothing can be written there; nothing was received or deleted")
        })?;
        if into_pipe && ctx.printer.format() == Format::Table && settings.template.is_none() {
            return Err(UsageError(
                "into a pipe, receive --delete deletes a message once the reader took it, and a table is written a batch at a time: use -o jsonl, -o json, -o text or --format".into(),
            )
            .into());
        }
    }
    let queue = resolve_queue(ctx, &settings.queue).await?;
    if plan.delete {
        let region = ctx.sqs().await?.region();
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Delete each message received from {} once it is written?",
                queue_place(&queue, region)
            ),
            &format!("receiving with --delete from `{}`", queue.name),
            false,
            settings.yes,
        )?;
    }
    let read_guard = guard::ReadGuard::weigh(ctx, &queue, plan, settings.force).await?;
    let sqs = ctx.sqs().await?;
    if into_pipe {
        shrink_pipe();
    }
    let request = ReceiveRequest {
        queue: queue.clone(),
        plan: plan.clone(),
        one_batch_at_a_time: into_pipe,
        selector: super::selection::selector(&settings.selection)?,
        read_cost: read_guard.cost.clone(),
        interrupt: ctx.interrupt.clone(),
    };
    let filtered = !settings.selection.is_all();
    let mut sink = sink::Stdout {
        counting: sink::Counting::start(sqs, &queue, &settings.count_by, filtered).await?,
        writer: MessageWriter::new(&ctx.printer, true)
            .showing(settings.shown.clone())
            .with_template(settings.template)
            .unwrapping(settings.unwrap),
        printer: &ctx.printer,
        progress: ctx
            .printer
            .progress(0, "{spinner} messages received: {pos} ({rate})"),
        into_pipe,
        interrupt: ctx.interrupt.clone(),
    };
    if into_pipe {
        ctx.printer.debug(
            "stdout is a pipe: one batch at a time, one message in the pipe at a time, each deleted once the reader took it",
        );
    } else {
        ctx.printer.debug(format!(
            "receiving with {} requests at once, up to 10 messages each, {} (-vv: each batch)",
            plan.concurrency.max(1),
            plan.wait_seconds
                .map_or("the queue's own wait".to_string(), |w| format!(
                    "wait {w} s"
                ))
        ));
    }
    let mut report = crate::receive::run(sqs, request, &mut sink).await?;
    if report.unwritten > 0 {
        ctx.printer.debug(format!(
            "released {} that were received but not written",
            plural(report.unwritten, "message")
        ));
    }
    sink.progress.finish_and_clear();
    if report.write_error.is_none()
        && let Err(err) = sink.finish(report.passed_over)
    {
        report.write_error = Some(err);
    }
    // A reader that went away (`| head`) is a normal end: without --delete no summary talks over
    // it; with --delete the summary says what was deleted.
    let pipe_closed = report
        .write_error
        .as_ref()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe);
    let summary = summary(ctx, plan, &settings.selection, &queue, &report, into_pipe).await;
    if !pipe_closed || plan.delete {
        ctx.printer.info(summary);
    }
    // A run without --delete that stopped before it could see the queue's end (an empty long
    // poll) did not do what --until-empty asks.
    // So did one that a receive which failed after SQS may have applied it (hiding messages)
    // leaves unsure.
    let incomplete = plan.until_empty
        && !ctx.interrupt.is_set()
        && (report.hold_ran_short || (!plan.delete && report.ambiguous_receives > 0));
    if report.hold_ran_short && !pipe_closed {
        let hold = crate::text::format_seconds(report.hold_seconds.unwrap_or(0));
        let unread = if incomplete {
            ", so the queue may hold messages not read"
        } else {
            ""
        };
        ctx.printer.warn(if report.received == 0 {
            // Only short polls went, and they came back empty: that says nothing of the queue.
            format!(
                "stopped after a short poll that returned nothing (a short poll asks only some of SQS's servers), with no time for another before a message it returned could come back (the visibility timeout is {hold}){unread}; --wait 1-20 long-polls"
            )
        } else {
            format!(
                "stopped receiving before the first message returned could come back (its visibility timeout is {hold}): a second receive would raise its receive count again{unread}; a longer --visibility reads further"
            )
        });
    }
    warn(ctx, &report, &queue.name, pipe_closed, plan.delete);
    let dead_lettered = read_guard.finish(ctx, &queue, &report).await;
    if let Some(err) = report.write_error {
        return Err(anyhow::Error::new(err).context("could not write to stdout"));
    }
    if let Some(err) = report.receive_error {
        return Err(err.into());
    }
    Ok(if ctx.interrupt.is_set() {
        ExitStatus::Interrupted
    } else if dead_lettered > 0 {
        ExitStatus::ReadDeadLettered
    } else if report.delete_failed > 0 || incomplete {
        ExitStatus::Partial
    } else {
        ExitStatus::Success
    })
}

/// The summary line: each count exact (distinct messages, as sqsctl saw them), duplicate
/// deliveries counted apart.
async fn summary(
    ctx: &Context,
    plan: &ReceivePlan,
    selection: &Selection,
    queue: &QueueRef,
    report: &ReceiveReport,
    into_pipe: bool,
) -> String {
    let received = report.received;
    let mut summary = if selection.is_all() {
        format!(
            "received {} from {}",
            plural(received, "message"),
            queue.name
        )
    } else {
        format!(
            "received {} matching {} from {} ({} did not match and were made visible again)",
            plural(received, "message"),
            super::selection::describe(selection).join(" "),
            queue.name,
            report.passed_over
        )
    };
    if report.duplicates > 0 {
        // Standard queues deliver at least once: a second delivery is not a new message.
        summary.push_str(&format!(
            " (and {} of messages already received, not shown again)",
            plural_with(
                report.duplicates,
                "duplicate delivery",
                "duplicate deliveries"
            )
        ));
    }
    if received == 0
        && report.write_error.is_none()
        && report.receive_error.is_none()
        && !ctx.interrupt.is_set()
        && let Ok(sqs) = ctx.sqs().await
    {
        // "received 0" alone reads as "empty": say what the queue holds that no receive could
        // return now.
        let retry = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
        if let Ok(attrs) = retry.request(|| sqs.attributes(queue)).await.result {
            summary.push_str(&nothing_received_because(
                &attrs,
                plan.wait_seconds,
                report.exhausted,
            ));
        }
    }
    if plan.delete {
        summary.push_str(&format!(", deleted {}", report.deleted));
        if report.unwritten > 0 {
            summary.push_str(&format!(
                "; {} {} made visible again",
                report.unwritten,
                if into_pipe {
                    "not taken by the reader were"
                } else {
                    "not written were"
                }
            ));
        }
    } else if report.delivered > 0 {
        summary.push_str(" (not deleted: they become visible again after their visibility timeout; --delete consumes them)");
    }
    summary
}

/// The lines on stderr after the summary: what could not be put back or deleted.
fn warn(ctx: &Context, report: &ReceiveReport, queue: &str, pipe_closed: bool, delete: bool) {
    let ambiguous = report.ambiguous_receives;
    if ambiguous > 0 && !delete && !pipe_closed {
        // A run that does not delete cannot wait for them: they come back when its own do.
        ctx.printer.warn(format!(
            "{} failed after SQS may have applied {}: the messages {} hid, if any, were not read (they come back after their visibility timeout)",
            plural(ambiguous, "receive request"),
            if ambiguous == 1 { "it" } else { "them" },
            if ambiguous == 1 { "it" } else { "they" },
        ));
    } else if ambiguous > 0 && !pipe_closed && !ctx.interrupt.is_set() {
        ctx.printer.debug(format!(
            "{} failed after SQS may have applied {}; what {} hid returned after the visibility timeout",
            plural(ambiguous, "receive request"),
            if ambiguous == 1 { "it" } else { "them" },
            if ambiguous == 1 { "it" } else { "they" },
        ));
    }
    let released_failed = report.release_failed;
    if report.unwritten > 0 {
        ctx.printer.warn_not_released(
            released_failed,
            " not written",
            "when the visibility timeout ends",
        );
    }
    ctx.printer
        .warn_where_failures(report.where_failures.as_ref(), queue);
    ctx.printer.warn_not_released(
        report.pass_release_failed,
        " passed over",
        "when the visibility timeout ends",
    );
    ctx.printer.warn_count(
        report.delete_failed,
        "message",
        "written but not deleted: they will be delivered again",
    );
}

/// What a queue held when a run received nothing: `; 9990 in flight, 3 delayed`, and a word on
/// short polls when it still reports visible messages. With no count above zero the queue is
/// called empty only when a long poll came back empty (`saw_the_end`): the counts alone are
/// approximate.
fn nothing_received_because(
    attrs: &crate::client::QueueAttributes,
    wait: Option<i32>,
    saw_the_end: bool,
) -> String {
    let mut held = Vec::new();
    if attrs.in_flight() > 0 {
        held.push(format!("{} in flight", attrs.in_flight()));
    }
    if attrs.delayed() > 0 {
        held.push(format!("{} delayed", attrs.delayed()));
    }
    let short_poll = match wait {
        Some(w) => w == 0,
        None => attrs.receive_wait_seconds().unwrap_or(0) == 0,
    };
    if attrs.visible() > 0 {
        held.push(if short_poll {
            format!(
                "about {} visible: a short poll asks only some of SQS's servers and can miss them; --wait 1-20 long-polls",
                attrs.visible()
            )
        } else {
            format!(
                "about {} visible (approximate counts lag)",
                attrs.visible()
            )
        });
    }
    if held.is_empty() && saw_the_end {
        "; the queue is empty".to_string()
    } else if held.is_empty() {
        "; the queue's approximate counts show no messages".to_string()
    } else {
        format!("; {}", held.join(", "))
    }
}
