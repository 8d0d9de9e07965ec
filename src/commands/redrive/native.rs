//! `sqsctl redrive --native` (SQS's own StartMessageMoveTask, followed until it ends) and the
//! `status` and `cancel` subcommands for those tasks.

use std::time::Duration;

use serde::Serialize;

use super::{MoveSettings, Route, confirm_native};
use crate::client::{MoveTask, QueueAttributes, QueueRef, Sqs};
use crate::commands::common::queue_place;
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::{Column, Document, Row, pairs_table};
use crate::text::plural;

/// How often a running task is polled.
const POLL: Duration = Duration::from_millis(500);

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

async fn arn_of(sqs: &Sqs, dlq: &str) -> anyhow::Result<(String, String)> {
    let queue = sqs.lookup(dlq).await?;
    let attrs = sqs.attributes(&queue).await?;
    let arn = attrs
        .arn()
        .ok_or_else(|| anyhow::anyhow!("{} has no QueueArn attribute", queue.name))?
        .to_string();
    Ok((queue.name, arn))
}

/// Where a native move task sends the messages.
pub enum NativeTarget<'a> {
    /// One queue, named in the task.
    Queue(&'a Route),
    /// No destination in the task: SQS returns each message to the queue named in its
    /// DeadLetterQueueSourceArn (the DLQ serves several source queues).
    Sources {
        dlq: &'a QueueRef,
        dlq_attrs: &'a QueueAttributes,
        sources: Vec<String>,
    },
}

pub async fn start(
    ctx: &Context,
    sqs: &Sqs,
    target: NativeTarget<'_>,
    settings: &MoveSettings,
) -> anyhow::Result<ExitStatus> {
    let (dlq, dlq_attrs, destination_name, destination_arn) = match &target {
        // Named even without --to: the one source queue was found, and messages sent to the DLQ
        // directly have no DeadLetterQueueSourceArn for the task to follow.
        NativeTarget::Queue(route) => (
            &route.dlq,
            &route.dlq_attrs,
            route.destination.name.clone(),
            route.destination_attrs.arn().map(str::to_string),
        ),
        NativeTarget::Sources {
            dlq,
            dlq_attrs,
            sources,
        } => (
            *dlq,
            *dlq_attrs,
            format!("each message's source queue ({})", sources.join(", ")),
            None,
        ),
    };
    let source_arn = dlq_attrs
        .arn()
        .ok_or_else(|| anyhow::anyhow!("{} has no QueueArn attribute", dlq.name))?
        .to_string();
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
    let dlq_place = queue_place(dlq, sqs.region());
    if !confirm_native(ctx, settings.yes, &dlq_place, &destination_name, depth)? {
        ctx.printer.info("nothing moved");
        return Ok(ExitStatus::Failure);
    }
    let rate = settings.rate.map(|r| r.round() as i32);
    let started = std::time::Instant::now();
    let handle = sqs
        .start_move_task(&source_arn, destination_arn.as_deref(), rate)
        .await?;
    ctx.printer.info(format!(
        "started a native move task on {} (cancel with `sqsctl redrive cancel {}`)",
        dlq.name, dlq.name
    ));
    let bar = ctx.printer.progress(
        depth.max(1),
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} moved by SQS ({rate})",
    );
    let mut last: Option<MoveTask> = None;
    let mut interrupted = false;
    loop {
        let tasks = sqs.list_move_tasks(&source_arn).await?;
        // SQS names the handle only while a task runs; after that, ours is the latest one.
        let task = match tasks
            .iter()
            .position(|t| t.task_handle.as_deref() == Some(handle.as_str()))
        {
            Some(index) => tasks.into_iter().nth(index),
            None => tasks.into_iter().max_by_key(|t| t.started_timestamp),
        };
        if let Some(task) = &task {
            if let Some(total) = task.to_move {
                bar.set_length(total.max(0) as u64);
            }
            bar.set_position(task.moved.max(0) as u64);
        }
        let running = task
            .as_ref()
            .is_some_and(|t| t.status == "RUNNING" || t.status == "CANCELLING");
        last = task.or(last);
        if !running {
            break;
        }
        tokio::select! {
            () = tokio::time::sleep(POLL) => {}
            () = ctx.interrupt.wait() => { interrupted = true; break; }
        }
    }
    bar.finish_and_clear();
    let task = last.unwrap_or(MoveTask {
        task_handle: Some(handle.clone()),
        status: "UNKNOWN".into(),
        source_arn: Some(source_arn.clone()),
        destination_arn: destination_arn.clone(),
        max_per_second: rate,
        moved: 0,
        to_move: None,
        failure_reason: None,
        started_timestamp: 0,
    });
    let summary = NativeSummary {
        mode: "native",
        source: dlq.name.clone(),
        destination: destination_name.clone(),
        task_handle: handle,
        status: task.status.clone(),
        moved: task.moved,
        to_move: task.to_move,
        failure_reason: task.failure_reason.clone(),
        seconds: started.elapsed().as_secs_f64(),
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
    if interrupted {
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
    Ok(match summary.status.as_str() {
        "COMPLETED" => ExitStatus::Success,
        _ => {
            if let Some(reason) = &summary.failure_reason {
                ctx.printer.warn(format!("the task failed: {reason}"));
            }
            ExitStatus::Partial
        }
    })
}

pub async fn status(ctx: &Context, dlq: &str) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let (name, arn) = arn_of(sqs, dlq).await?;
    let tasks = sqs.list_move_tasks(&arn).await?;
    let printer = &ctx.printer;
    printer.emit(&Document::rows(&tasks))?;
    if tasks.is_empty() {
        printer.info(format!("no move tasks for {name}"));
    }
    Ok(ExitStatus::Success)
}

pub async fn cancel(ctx: &Context, dlq: &str) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let (name, arn) = arn_of(sqs, dlq).await?;
    let tasks = sqs.list_move_tasks(&arn).await?;
    let Some(handle) = tasks
        .iter()
        .find(|t| t.status == "RUNNING")
        .and_then(|t| t.task_handle.clone())
    else {
        return Err(hinted(
            format!("no move task is running for {name}"),
            format!("`sqsctl redrive status {name}` lists its recent tasks"),
        ));
    };
    let moved = sqs.cancel_move_task(&handle).await?;
    let printer = &ctx.printer;
    let data = serde_json::json!({ "source": name, "task_handle": handle, "cancelled": true, "moved": moved });
    printer.emit(&key_values(
        "cancelled",
        &data,
        "cancelled move task",
        &[
            ("source", "source", name.clone()),
            ("", "task_handle", handle.clone()),
            ("moved", "moved", moved.to_string()),
        ],
    ))?;
    printer.info(format!(
        "cancelled the move task of {name} after {}",
        plural(moved.max(0) as u64, "message")
    ));
    Ok(ExitStatus::Success)
}

impl Row for MoveTask {
    const KIND: &'static str = "task";

    fn columns() -> Vec<Column> {
        vec![
            Column::whole("status"),
            Column::whole("moved"),
            Column::whole("to move"),
            Column::whole("rate").droppable(1),
            Column::whole("started").droppable(2),
            Column::wrap("failure", 12, 60),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let started =
            std::time::UNIX_EPOCH + Duration::from_millis(self.started_timestamp.max(0) as u64);
        vec![
            self.status.clone(),
            self.moved.to_string(),
            self.to_move.map(|n| n.to_string()).unwrap_or_default(),
            self.max_per_second
                .map(|n| format!("{n}/s"))
                .unwrap_or_default(),
            humantime::format_rfc3339_seconds(started).to_string(),
            self.failure_reason.clone().unwrap_or_default(),
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.status.clone(),
            self.moved.to_string(),
            self.to_move.map(|n| n.to_string()).unwrap_or_default(),
        ]
    }
}
