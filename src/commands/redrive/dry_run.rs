//! `sqsctl redrive --dry-run`: reads the DLQ without consuming it (every message is visible again
//! afterwards) and says what would move, where, with counts per destination and per group.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde::Serialize;

use super::Route;
use crate::client::Sqs;
use crate::client::peek::{self, PeekError, PeekOptions};
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::message::MessageRecord;
use crate::output::Format;
use crate::redrive::{Plan, Selector};

#[derive(Debug, Serialize)]
struct DryRunSummary {
    dry_run: bool,
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
}

/// Messages listed in the table; the counts cover every one, `-o jsonl` lists every one.
const TABLE_ROWS: usize = 20;

pub async fn run(
    ctx: &Context,
    sqs: &Sqs,
    route: &Route,
    plan: &Plan,
    per_source: bool,
) -> anyhow::Result<ExitStatus> {
    let selector = Selector::compile(&plan.selection).map_err(|e| anyhow::anyhow!(e))?;
    let printer = &ctx.printer;
    let mut summary = DryRunSummary {
        dry_run: true,
        source: plan.source.name.clone(),
        destination: if per_source {
            "each message's source queue".to_string()
        } else {
            plan.destination.name.clone()
        },
        visible_at_start: 0,
        seen: 0,
        would_move: 0,
        would_stay: 0,
        per_destination: BTreeMap::new(),
        per_group: BTreeMap::new(),
        in_flight_not_seen: 0,
        release_failed: 0,
    };
    let mut kept: Vec<MessageRecord> = Vec::new();
    let mut write_error: Option<std::io::Error> = None;
    let options = PeekOptions {
        max: None,
        hold_seconds: plan.visibility_timeout,
        force: false,
    };
    let limit = plan.limit.unwrap_or(u64::MAX);
    let scanned = peek::scan(
        sqs,
        &route.dlq,
        &route.dlq_attrs,
        &options,
        &ctx.interrupt,
        |batch| {
            for mut message in batch {
                summary.seen += 1;
                if summary.would_move >= limit || !selector.matches(&message) {
                    summary.would_stay += 1;
                    continue;
                }
                summary.would_move += 1;
                // Several source queues: each message counts toward the queue its
                // DeadLetterQueueSourceArn names.
                let destination = if per_source {
                    message
                        .attributes
                        .get("DeadLetterQueueSourceArn")
                        .and_then(|arn| arn.rsplit(':').next())
                        .map_or_else(
                            || "(no DeadLetterQueueSourceArn: needs --to)".to_string(),
                            str::to_string,
                        )
                } else {
                    plan.destination.name.clone()
                };
                *summary.per_destination.entry(destination).or_default() += 1;
                if let Some(group) = message.effective_group_id() {
                    *summary.per_group.entry(group.to_string()).or_default() += 1;
                }
                message.receipt_handle = None;
                match printer.format() {
                    Format::Jsonl => {
                        if let Err(e) = printer.record("message", &message) {
                            write_error = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                    Format::Text => {
                        if let Err(e) = printer.line(&printer.display(&message.body)) {
                            write_error = Some(e);
                            return ControlFlow::Break(());
                        }
                    }
                    Format::Json => kept.push(message),
                    Format::Table if kept.len() < TABLE_ROWS => kept.push(message),
                    Format::Table => {}
                }
            }
            ControlFlow::Continue(())
        },
    )
    .await
    .map_err(|err| match err {
        PeekError::Client(client) => anyhow::Error::new(client),
        other => {
            let hint = other.hint().unwrap_or_default();
            hinted(other.to_string(), hint)
        }
    })?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    summary.in_flight_not_seen = scanned.in_flight_at_start;
    summary.visible_at_start = scanned.visible_at_start;
    summary.release_failed = scanned.release_failed;
    match printer.format() {
        Format::Json => {
            printer.json(&serde_json::json!({ "messages": kept, "summary": summary }))?
        }
        Format::Jsonl => printer.record("summary", &summary)?,
        Format::Text => {}
        Format::Table => {
            let mut table = printer.new_table(&["message id", "group", "body"]);
            for message in &kept {
                let body: String = message.body.chars().take(80).collect();
                table.add_row(vec![
                    message.message_id.clone().unwrap_or_default(),
                    message.effective_group_id().unwrap_or("").to_string(),
                    printer.display(&body).into_owned(),
                ]);
            }
            printer.table(&table)?;
            let unlisted = summary.would_move.saturating_sub(kept.len() as u64);
            if unlisted > 0 {
                printer.info(format!(
                    "and {unlisted} more that would move, not listed (-o jsonl lists every one)"
                ));
            }
            let mut counts = printer.new_table(&["destination / group", "messages"]);
            for (name, count) in &summary.per_destination {
                counts.add_row(vec![format!("-> {name}"), count.to_string()]);
            }
            for (group, count) in &summary.per_group {
                counts.add_row(vec![
                    format!("   group {}", printer.display(group)),
                    count.to_string(),
                ]);
            }
            printer.table(&counts)?;
        }
    }
    printer.flush()?;
    printer.info(format!(
        "dry run: read {} of the {} messages visible in {}: {} would move to {}, {} would stay; nothing was changed",
        summary.seen,
        summary.visible_at_start,
        summary.source,
        summary.would_move,
        summary.destination,
        summary.would_stay
    ));
    if per_source {
        printer.info(format!(
            "{} is the dead-letter queue of several queues: to move these, `sqsctl redrive {} --native` returns each message to its own source, `--to QUEUE` sends them all to one",
            summary.source, summary.source
        ));
    }
    let unseen = summary.visible_at_start.saturating_sub(summary.seen);
    if route.dlq_attrs.is_fifo() && unseen > 0 {
        printer.info(format!(
            "FIFO: a read sees only the first messages of each group; {unseen} messages behind them were not seen (a redrive moves them as their groups advance), so the counts are of what was seen",
        ));
    } else if unseen > 0 && !scanned.interrupted && plan.limit.is_none() {
        printer.info(format!(
            "{unseen} messages were not seen (sent or made visible while the dry run read)"
        ));
    }
    if scanned.in_flight_at_start > 0 {
        printer.warn(format!(
            "{} messages were in flight in {} and could not be seen",
            scanned.in_flight_at_start, summary.source
        ));
    }
    Ok(if scanned.interrupted {
        ExitStatus::Interrupted
    } else {
        ExitStatus::Success
    })
}
