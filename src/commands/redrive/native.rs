//! `sqsctl redrive --native` (SQS's own StartMessageMoveTask, followed until it ends) and the
//! `status` and `cancel` subcommands for those tasks.

use serde::Serialize;

use super::ask;
use super::settings::NativeSettings;
use crate::client::Sqs;
use crate::commands::common::queue_place;
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::{Document, pairs_table};
use crate::redrive::move_task::{self, MoveTaskError, MoveTaskRequest};
use crate::redrive::{Route, SharedDlq};
use crate::text::plural;

#[derive(Debug, Serialize)]
struct NativeSummary {
    mode: &'static str,
    source: String,
    destination: String,
    task_handle: String,
    status: String,
    moved: i64,
    to_move: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_reason: Option<String>,
    seconds: f64,
}

/// A record shown as rows of (label for a table, key for `-o text`, value): a two-column table,
/// or one `key<TAB>value` line each with `-o text`, as the redrive summary prints its own. A row
/// without a label is for scripts only (a task handle: long, and no command takes it).
fn key_values<T: Serialize>(
    kind: &str,
    data: &T,
    title: &str,
    rows: &[(&str, &str, String)],
) -> Document {
    let shown = rows
        .iter()
        .filter(|(label, _, _)| !label.is_empty())
        .map(|(label, _, value)| (label.to_string(), value.clone()));
    let text = rows
        .iter()
        .map(|(_, key, value)| vec![key.to_string(), value.clone()])
        .collect();
    Document::default()
        .json(data)
        .record(kind, data)
        .table(pairs_table(title, "result", shown))
        .text(text)
}

/// Where a native move task sends the messages.
pub enum NativeTarget<'a> {
    /// One queue, named in the task.
    Queue(&'a Route),
    /// No destination in the task: SQS returns each message to the queue named in its
    /// DeadLetterQueueSourceArn (the DLQ serves several source queues).
    Sources(&'a SharedDlq),
}

/// A move task's refusal, with the hint of this command.
fn task_error(err: MoveTaskError) -> anyhow::Error {
    match (crate::hints::move_task(&err), err) {
        (_, MoveTaskError::Client(e)) => e.into(),
        (Some(hint), err) => hinted(err.to_string(), hint),
        (None, err) => err.into(),
    }
}

pub async fn start(
    ctx: &Context,
    sqs: &Sqs,
    target: NativeTarget<'_>,
    settings: &NativeSettings,
) -> anyhow::Result<ExitStatus> {
    let (dlq, dlq_attrs, destination_name, destination_attrs) = match target {
        // Named even without --to: the one source queue was found, and messages sent to the DLQ
        // directly have no DeadLetterQueueSourceArn for the task to follow.
        NativeTarget::Queue(route) => (
            &route.dlq,
            &route.dlq_attrs,
            route.destination.name.clone(),
            Some(&route.destination_attrs),
        ),
        NativeTarget::Sources(shared) => {
            let names: Vec<&str> = shared.sources.iter().map(|q| q.name.as_str()).collect();
            (
                &shared.dlq,
                &shared.dlq_attrs,
                format!("each message's source queue ({})", names.join(", ")),
                None,
            )
        }
    };
    let request = MoveTaskRequest::new(dlq, dlq_attrs, destination_attrs, settings.rate)
        .map_err(task_error)?;
    let depth = dlq_attrs.visible();
    if settings.dry_run {
        ctx.printer.info(format!(
            "dry run: a native move task would move about {} from {} to {}; nothing was changed",
            plural(depth, "message"),
            dlq.name,
            destination_name
        ));
        return Ok(ExitStatus::Success);
    }
    let question = format!(
        "Start a native move task for every message of {} (about {depth}) to {destination_name}?",
        queue_place(dlq, sqs.region())
    );
    ask(
        ctx,
        settings.yes,
        &question,
        "redrive moves messages, and without a terminal to ask on it needs --yes (or --dry-run, to see what would move)",
    )?;
    let started = std::time::Instant::now();
    let handle = move_task::start(sqs, &request).await?;
    ctx.printer.info(format!(
        "started a native move task on {} (cancel with `sqsctl redrive cancel {}`)",
        dlq.name, dlq.name
    ));
    let bar = ctx.printer.progress(
        depth.max(1),
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} moved by SQS ({rate})",
    );
    let followed = move_task::follow(sqs, &request, handle, started, &ctx.interrupt, |task| {
        if let Some(total) = task.to_move {
            bar.set_length(total.max(0) as u64);
        }
        bar.set_position(task.moved.max(0) as u64);
    })
    .await;
    bar.finish_and_clear();
    let followed = followed?;
    let summary = NativeSummary {
        mode: "native",
        source: dlq.name.clone(),
        destination: destination_name,
        task_handle: followed.handle.clone(),
        status: followed.task.status.clone(),
        moved: followed.task.moved,
        to_move: followed.task.to_move,
        failure_reason: followed.task.failure_reason.clone(),
        seconds: followed.elapsed.as_secs_f64(),
    };
    let to_move = summary.to_move.map(|n| n.to_string()).unwrap_or_default();
    let mut rows = vec![
        ("from", "source", summary.source.clone()),
        ("to", "destination", summary.destination.clone()),
        ("", "task_handle", summary.task_handle.clone()),
        ("status", "status", summary.status.clone()),
        ("moved", "moved", summary.moved.to_string()),
        ("to move", "to_move", to_move),
        ("time", "seconds", format!("{:.1} s", summary.seconds)),
    ];
    if let Some(reason) = &summary.failure_reason {
        rows.push(("failure", "failure_reason", reason.clone()));
    }
    ctx.printer
        .emit(&key_values("summary", &summary, "native redrive", &rows))?;
    ctx.printer.flush()?;
    if followed.interrupted {
        ctx.printer.warn(format!(
            "stopped following the task; it keeps running on the server: `sqsctl redrive status {0}` shows it, `sqsctl redrive cancel {0}` stops it",
            dlq.name
        ));
        return Ok(ExitStatus::Interrupted);
    }
    ctx.printer.info(format!(
        "native move task {}: {} moved from {} in {:.1} s",
        summary.status.to_lowercase(),
        plural(summary.moved.max(0) as u64, "message"),
        summary.source,
        summary.seconds
    ));
    if followed.completed() {
        return Ok(ExitStatus::Success);
    }
    if let Some(reason) = &summary.failure_reason {
        ctx.printer.warn(format!("the task failed: {reason}"));
    }
    Ok(ExitStatus::Partial)
}

pub async fn status(ctx: &Context, dlq: &str) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let (name, tasks) = move_task::list(sqs, dlq).await.map_err(task_error)?;
    ctx.printer.emit(&Document::rows(&tasks))?;
    if tasks.is_empty() {
        ctx.printer.info(format!("no move tasks for {name}"));
    }
    Ok(ExitStatus::Success)
}

pub async fn cancel(ctx: &Context, dlq: &str) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let task = move_task::cancel(sqs, dlq).await.map_err(task_error)?;
    let data = serde_json::json!({ "source": task.source, "task_handle": task.handle, "cancelled": true, "moved": task.moved });
    ctx.printer.emit(&key_values(
        "cancelled",
        &data,
        "cancelled move task",
        &[
            ("source", "source", task.source.clone()),
            ("", "task_handle", task.handle.clone()),
            ("moved", "moved", task.moved.to_string()),
        ],
    ))?;
    ctx.printer.info(format!(
        "cancelled the move task of {} after {}",
        task.source,
        plural(task.moved.max(0) as u64, "message")
    ));
    Ok(ExitStatus::Success)
}
