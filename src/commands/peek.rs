//! `sqsctl peek`: show messages without consuming them, through [`crate::client::peek`].

use std::ops::ControlFlow;

use super::common::resolve_queue;
use crate::cli::peek::PeekArgs;
use crate::client::QueueRef;
use crate::client::peek::{self, PeekOptions};
use crate::commands::context::Context;
use crate::error::with_hint;
use crate::exit::ExitStatus;
use crate::message::shown::Shown;
use crate::output::counts::CountsReport;
use crate::output::messages::MessageWriter;
use crate::output::template::Template;
use crate::select::Selection;
use crate::text::{plural, seen_of_visible};

/// How many messages peek shows without `--max`.
const DEFAULT_SHOWN: u64 = 10;

#[derive(Debug)]
pub struct PeekSettings {
    pub queue: String,
    /// As given; the default depends on whether messages are shown or counted.
    pub max: Option<u64>,
    pub force: bool,
    /// With filters: how many messages to read at most.
    pub scan_limit: u64,
    pub shown: Shown,
    pub selection: Selection,
    pub template: Option<Template>,
    pub unwrap: bool,
    /// `--count-by` expressions: counts instead of messages.
    pub count_by: Vec<String>,
}

impl PeekSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: PeekArgs) -> anyhow::Result<PeekSettings> {
        if args.follow {
            anyhow::bail!(
                "peek cannot --follow: every peek is a receive that raises each message's receive count, so following would read the same messages again and again toward the dead-letter queue; `sqsctl receive QUEUE --follow` writes messages as they arrive (add --delete to consume them)"
            );
        }
        Ok(PeekSettings {
            queue: args.queue,
            max: args.max,
            force: args.force,
            scan_limit: args.scan_limit,
            shown: super::selection::shown(&args.shown)?,
            selection: super::selection::resolve(args.select, Vec::new())?,
            count_by: super::selection::count_by(args.count_by)?,
            unwrap: args.shown.unwrap,
            template: args.format,
        })
    }
}

/// On a FIFO queue that stopped delivering before the scan saw what was visible, why: SQS delivers
/// nothing of a group past a message held (by this scan, or by a consumer).
fn group_heads_note(queue: &QueueRef, scanned: &peek::Scanned) -> Option<String> {
    (queue.is_fifo() && scanned.exhausted && !scanned.interrupted && scanned.seen < scanned.visible_at_start)
        .then(|| {
            format!(
                "{} of {}: SQS delivers nothing of a group past a message held, so the messages behind each group's head cannot be peeked at (`sqsctl fifo groups {}` counts them per group)",
                scanned.seen,
                scanned.visible_at_start,
                queue.name
            )
        })
}

pub async fn run(ctx: &Context, settings: PeekSettings) -> anyhow::Result<ExitStatus> {
    ctx.printer.check_template(settings.template.as_ref())?;
    ctx.printer.check_unwrap(settings.unwrap)?;
    ctx.printer.check_message_query()?;
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(&queue).await?;
    let path = peek::weigh(sqs, &queue, &attrs, settings.force).await.map_err(|refused| match refused {
        peek::PeekError::WouldDeadLetter { .. } => with_hint(
            refused,
            format!(
                "queues with a maxReceiveCount of {} or more are peeked at without asking; pass --force to peek at this one anyway (each message shown uses one of its receives), or peek at the dead-letter queue itself",
                peek::MIN_UNFORCED_MAX_RECEIVE_COUNT
            ),
        ),
        other => anyhow::Error::new(other),
    })?;
    let cost = match &path {
        peek::ReadPath::Receive(cost) => cost.clone(),
        peek::ReadPath::Inspect => None,
    };
    let selector = super::selection::selector(&settings.selection)?;
    let mut counter = super::selection::counter(&settings.count_by);
    let counting = counter.is_some();
    // With a filter the scan goes on past `--max` messages read, until `--max` matched or
    // `--scan-limit` were read; counts read every message unless `--max` says fewer.
    let (max, reads) = match (&counter, settings.max) {
        (Some(_), max) => (usize::MAX, max.unwrap_or(u64::MAX)),
        (None, max) => {
            let max = max.unwrap_or(DEFAULT_SHOWN);
            let reads = if selector.is_some() {
                settings.scan_limit
            } else {
                max
            };
            (usize::try_from(max).unwrap_or(usize::MAX), reads)
        }
    };
    if reads > peek::DEFAULT_SCAN_LIMIT
        && attrs.visible() > peek::DEFAULT_SCAN_LIMIT
        && path != peek::ReadPath::Inspect
    {
        let mut line = format!(
            "reading up to {} of about {} visible in {}",
            plural(reads.min(attrs.visible()), "message"),
            attrs.visible(),
            queue.name
        );
        if let Some(cost) = &cost {
            line.push_str(&format!(
                ": each read uses 1 of its {} before the dead-letter queue `{}`",
                plural(u64::from(cost.max_receive_count), "receive"),
                cost.dlq
            ));
        }
        ctx.printer.info(line);
    }
    let options = PeekOptions {
        max: Some(usize::try_from(reads).unwrap_or(usize::MAX)),
        force: settings.force,
        ..PeekOptions::default()
    };
    // Receipt handles are left out: they stop working once the peek has released the messages.
    let mut writer = MessageWriter::new(&ctx.printer, false)
        .showing(settings.shown.clone())
        .with_template(settings.template)
        .unwrapping(settings.unwrap);
    let mut write_error = None;
    let request = peek::ReadRequest {
        sqs,
        queue: &queue,
        attrs: &attrs,
        options,
        interrupt: &ctx.interrupt,
    };
    let (scanned, shown) = peek::scan_matching(&request, path, selector.as_ref(), max, |batch| {
        if let Some(counter) = &mut counter {
            batch.iter().for_each(|m| counter.add(m));
            return ControlFlow::Continue(());
        }
        writer.write_batch(batch).map_or_else(
            |err| {
                write_error = Some(err);
                ControlFlow::Break(())
            },
            ControlFlow::Continue,
        )
    })
    .await?;
    if let Some(e) = &scanned.ledger_error {
        ctx.printer
            .debug(format!("could not record the read in the ledger: {e}"));
    }
    if let Some(err) = write_error {
        return Err(anyhow::Error::new(err).context("could not write to stdout"));
    }
    match counter {
        Some(counter) => ctx.printer.emit(
            &CountsReport {
                queue: queue.name.clone(),
                read: scanned.seen,
                matched: selector.is_some().then_some(shown as u64),
                visible: scanned.visible_at_start,
                counts: counter.counts(),
            }
            .document(),
        )?,
        None => writer.finish()?,
    }
    let mut summary = format!(
        "peeked at {}",
        seen_of_visible(scanned.seen, scanned.visible_at_start, &queue.name)
    );
    if scanned.in_flight_at_start > 0 {
        summary.push_str(&format!(
            " ({} in flight with consumers, not shown)",
            scanned.in_flight_at_start
        ));
    }
    if scanned.inspected {
        summary.push_str("; listed by sqsctl local's inspection endpoint, so nothing was received");
    }
    if scanned.hold_ran_short {
        summary.push_str(
            "; stopped before the first of them became visible again, so as not to read any message twice",
        );
    }
    if selector.is_some() {
        summary.push_str(&format!(
            "; {} matched {}",
            shown,
            super::selection::describe(&settings.selection).join(" ")
        ));
        if !counting && shown < max && scanned.seen >= settings.scan_limit && !scanned.exhausted {
            summary.push_str(&format!(
                "; stopped at --scan-limit {} (raise it to read further)",
                settings.scan_limit
            ));
        }
    }
    ctx.printer.info(summary);
    let where_failures = selector.as_ref().and_then(|s| s.where_failures());
    ctx.printer
        .warn_where_failures(where_failures.as_ref(), &queue.name);
    if let Some(note) = group_heads_note(&queue, &scanned) {
        ctx.printer.info(note);
    }
    // The messages shown are what was read; only the count beside them is in doubt.
    if scanned.counts.lagging()
        && let Some(counts) = scanned.describe_counts()
    {
        ctx.printer.info(counts);
    }
    if let Some(cost) = &scanned.cost
        && scanned.seen > 0
    {
        ctx.printer.info(cost.describe());
        if let Some(line) = cost.describe_at_limit(scanned.at_limit) {
            ctx.printer.warn(format!(
                "{line}, so sqsctl refuses to read this queue again without --force"
            ));
        }
        let near = scanned.near_dead_letter - scanned.at_limit;
        if let Some(near) = cost.describe_near(near) {
            ctx.printer.warn(near);
        }
    }
    ctx.printer.warn_not_released(
        scanned.release_failed,
        "",
        &format!(
            "within {}",
            crate::text::format_seconds(peek::DEFAULT_HOLD_SECONDS as u64)
        ),
    );
    if let Some(moved) = scanned.dead_letter_warning(&queue.name) {
        ctx.printer.warn(moved);
    }
    Ok(if scanned.interrupted {
        ExitStatus::Interrupted
    } else if scanned.dead_lettered() > 0 {
        ExitStatus::ReadDeadLettered
    } else {
        ExitStatus::Success
    })
}
