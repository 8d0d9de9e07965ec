//! `sqsctl redrive --dry-run`: shows the engine's [`Preview`] of a redrive (what would move,
//! where, with counts per destination and per group) as a table, JSON, JSON Lines or message
//! bodies. Nothing is moved or consumed: every message read is visible again afterwards.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde::Serialize;

use crate::client::Sqs;
use crate::client::peek::PeekError;
use crate::commands::context::Context;
use crate::error::with_hint;
use crate::exit::ExitStatus;
use crate::output::Format;
use crate::output::messages::{listing_table, rewrite_table};
use crate::output::{Column, Document, Table};
use crate::redrive::{
    Plan, Preview, PreviewError, PreviewOptions, PreviewedRewrite, RewritePreview, Route,
    WhereFailures, preview_rewriting,
};
use crate::text::{counted, plural, seen_of_visible};

#[derive(Debug, Serialize)]
struct DryRunSummary {
    dry_run: bool,
    /// With `--copy`: the messages counted in `would_move` would be copied, and stay in the DLQ.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    copy: bool,
    source: String,
    destination: String,
    /// Messages visible in the DLQ when the dry run started.
    visible_at_start: u64,
    /// Messages read from the DLQ.
    seen: u64,
    would_move: u64,
    would_stay: u64,
    per_destination: BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    per_group: BTreeMap<String, u64>,
    /// Messages in flight in the DLQ when the dry run started: not seen.
    in_flight_not_seen: u64,
    release_failed: u64,
    /// Messages `--where` could not be evaluated on (counted in `would_stay`).
    #[serde(skip_serializing_if = "Option::is_none")]
    where_failed: Option<WhereFailures>,
    /// With a rewrite: messages it would refuse (counted in `would_stay`), the first reason, and
    /// with `--unwrap` the messages that are not envelopes.
    #[serde(skip_serializing_if = "Option::is_none")]
    rewrite: Option<RewritePreview>,
    /// False when the DLQ is FIFO and its counts lagged behind the read: how many messages wait
    /// behind the group heads seen, and would move too, is unknown.
    complete: bool,
}

impl DryRunSummary {
    fn of(preview: &Preview, plan: &Plan, per_source: bool) -> DryRunSummary {
        let mut per_destination = preview.per_destination.clone();
        if preview.without_source > 0 {
            per_destination.insert(
                "(no DeadLetterQueueSourceArn: needs --to)".to_string(),
                preview.without_source,
            );
        }
        DryRunSummary {
            dry_run: true,
            copy: plan.copy,
            source: plan.source.name.clone(),
            destination: if per_source {
                "each message's source queue".to_string()
            } else {
                plan.destination.name.clone()
            },
            visible_at_start: preview.visible_at_start,
            seen: preview.seen,
            would_move: preview.would_move,
            would_stay: preview.would_stay,
            per_destination,
            per_group: preview.per_group.clone(),
            in_flight_not_seen: preview.in_flight_at_start,
            release_failed: preview.release_failed,
            where_failed: preview.where_failed.clone(),
            rewrite: preview.rewrite.clone(),
            complete: !preview.incomplete(),
        }
    }
}

/// A message of a dry run with a rewrite, written as it comes: a `rewrite` record (`message_id`,
/// `before`, and `after` or `error`) with JSON Lines; with `-o text`, the body it would be sent
/// with. The other formats list it in the document at the end.
fn live_rewrite(
    printer: &crate::output::Printer,
    rewritten: &PreviewedRewrite,
) -> std::io::Result<()> {
    match printer.format() {
        Format::Jsonl => printer.record("rewrite", rewritten),
        Format::Text => match &rewritten.after {
            Some(after) => printer.line(&printer.display(&after.body)),
            None => Ok(()),
        },
        Format::Json | Format::Table => Ok(()),
    }
}

/// Messages listed in the table; the counts cover every one, `-o jsonl` lists every one.
const TABLE_ROWS: usize = 20;

pub async fn run(
    ctx: &Context,
    sqs: &Sqs,
    route: &Route,
    plan: &Plan,
) -> anyhow::Result<ExitStatus> {
    let printer = &ctx.printer;
    let per_source = route.per_source;
    let options = PreviewOptions {
        per_source,
        keep: printer.messages_to_keep(TABLE_ROWS),
    };
    // JSON Lines and bodies are written as the messages are found, so a deep DLQ is not held.
    let mut write_error: Option<std::io::Error> = None;
    let preview = preview_rewriting(
        sqs,
        plan,
        &route.dlq_attrs,
        options,
        &ctx.interrupt,
        |message, rewritten| {
            let written = match rewritten {
                Some(rewritten) => live_rewrite(printer, rewritten),
                None => printer.live_message(message),
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    )
    .await
    .map_err(|err| match err {
        PreviewError::Read(PeekError::Client(client)) => anyhow::Error::new(client),
        // The guard's refusal is rendered by `app::report`; the dry run has no --force.
        PreviewError::Read(
            refused @ (PeekError::WouldDeadLetter { .. } | PeekError::LeftAtLimit { .. }),
        ) => with_hint(
            refused,
            format!(
                "a dry run reads the DLQ and cannot be forced: `sqsctl peek {} --force` shows its messages, and a redrive without --dry-run moves each of them after one receive",
                plan.source.name
            ),
        ),
        PreviewError::Selection(invalid) => crate::commands::selection::invalid(invalid).into(),
        PreviewError::Rewrite(invalid) => anyhow::Error::new(invalid),
    })?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if let Some(cost) = preview.cost.as_ref().filter(|_| preview.seen > 0) {
        printer.info(cost.describe());
        if let Some(near) = cost.describe_near(preview.near_dead_letter) {
            printer.warn(near);
        }
    }
    let summary = DryRunSummary::of(&preview, plan, per_source);
    let kept = &preview.messages;
    let mut counts = Table::new(vec![
        Column::id("destination / group"),
        Column::whole("messages"),
    ]);
    for (name, count) in &summary.per_destination {
        counts.row(vec![format!("-> {name}"), count.to_string()]);
    }
    for (group, count) in &summary.per_group {
        counts.row(vec![format!("   group {group}"), count.to_string()]);
    }
    let rewriting = preview.rewrite.is_some();
    let mut document = if rewriting {
        Document::default()
            .json(&serde_json::json!({ "messages": preview.rewritten, "summary": summary }))
            .record("summary", &summary)
            .table(rewrite_table(&preview.rewritten))
            .table(counts)
    } else {
        Document::default()
            .json(&serde_json::json!({ "messages": kept, "summary": summary }))
            .record("summary", &summary)
            .table(listing_table(kept))
            .table(counts)
    };
    let listed = if rewriting {
        preview.rewritten.len()
    } else {
        kept.len()
    };
    let shown = summary.would_move + summary.rewrite.as_ref().map_or(0, |r| r.failed);
    let unlisted = shown.saturating_sub(listed as u64);
    if unlisted > 0 && !kept.is_empty() {
        document = document.aside(format!(
            "and {unlisted} more that {}, not listed (-o jsonl lists every one)",
            would_go(summary.copy)
        ));
    }
    printer.emit(&document)?;
    printer.flush()?;
    printer.info(format!(
        "dry run: read {}: {} {} to {}, {} would stay; nothing was changed",
        seen_of_visible(summary.seen, summary.visible_at_start, &summary.source),
        summary.would_move,
        would_go(summary.copy),
        summary.destination,
        summary.would_stay
    ));
    if per_source {
        printer.info(format!(
            "{} is the dead-letter queue of several queues: to move these, `sqsctl redrive {} --native` returns each message to its own source, `--to QUEUE` sends them all to one",
            summary.source, summary.source
        ));
    }
    match preview.unseen() {
        Some(unseen) if preview.fifo && unseen > 0 => printer.info(format!(
            "FIFO: a read sees only the first messages of each group; {} behind them {} not seen (a redrive moves them as their groups advance), so the counts are of what was seen",
            plural(unseen, "message"),
            if unseen == 1 { "was" } else { "were" },
        )),
        Some(unseen) if unseen > 0 && !preview.interrupted && plan.limit.is_none() => {
            printer.info(format!(
                "{} not seen (sent or made visible while the dry run read)",
                counted(unseen, "message", "was", "were"),
            ));
        }
        _ => {}
    }
    if let Some(counts) = preview.counts.describe(
        preview.seen,
        preview.visible_at_start,
        preview.in_flight_at_start,
    ) {
        if preview.incomplete() {
            printer.warn(format!(
                "{counts}. A read of a FIFO queue sees only the first messages of each group: the counts above are of what was seen, and how many more would move is unknown"
            ));
        } else {
            printer.info(counts);
        }
    }
    printer.warn_where_failures(preview.where_failed.as_ref(), &summary.source);
    if let Some(rewrite) = summary.rewrite.as_ref().filter(|r| r.failed > 0) {
        printer.warn(format!(
            "the rewrite would fail on {} ({} would stay in {}); the first: {}",
            plural(rewrite.failed, "message"),
            if rewrite.failed == 1 { "it" } else { "they" },
            summary.source,
            rewrite.first_error.as_deref().unwrap_or("")
        ));
    }
    if preview.in_flight_at_start > 0 {
        printer.warn(format!(
            "{} in flight in {} and could not be seen",
            counted(preview.in_flight_at_start, "message", "was", "were"),
            summary.source
        ));
    }
    let dead_lettered = preview
        .dead_letter_depth
        .as_ref()
        .map_or(0, |d| d.arrived());
    if let Some(moved) = preview
        .dead_letter_depth
        .as_ref()
        .and_then(|depth| depth.describe(&summary.source))
    {
        printer.warn(moved);
    }
    Ok(if preview.interrupted {
        ExitStatus::Interrupted
    } else if dead_lettered > 0 {
        ExitStatus::ReadDeadLettered
    } else if preview.incomplete() {
        ExitStatus::ProblemsFound
    } else {
        ExitStatus::Success
    })
}

/// What a selected message would do: be copied (`--copy`, the DLQ keeps it) or move.
fn would_go(copy: bool) -> &'static str {
    if copy {
        "would be copied"
    } else {
        "would move"
    }
}
