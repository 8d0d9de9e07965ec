//! `sqsctl queues`: every queue (or those with a name prefix) with its depth, type and DLQ.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::cli::queues::QueuesArgs;
use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueRef};
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::{Column, Document, Row};
use crate::text::plural;

/// Attribute requests in flight at once.
const CONCURRENCY: usize = 16;

#[derive(Debug)]
pub struct QueuesSettings {
    pub prefix: Option<String>,
}

impl QueuesSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: QueuesArgs) -> anyhow::Result<QueuesSettings> {
        if let Some(prefix) = &args.prefix {
            super::common::check_prefix(prefix)?;
        }
        Ok(QueuesSettings {
            prefix: args.prefix.filter(|p| !p.is_empty()),
        })
    }
}

#[derive(Debug, Serialize)]
pub struct QueueRow {
    pub name: String,
    pub url: String,
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    pub fifo: bool,
    /// Name of the dead-letter queue of its redrive policy.
    pub dlq: Option<String>,
    pub max_receive_count: Option<u32>,
}

pub async fn run(ctx: &Context, settings: QueuesSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let queues = sqs.list_queues(settings.prefix.as_deref()).await?;
    ctx.printer.debug(format!(
        "ListQueues found {}; reading their attributes, {CONCURRENCY} at a time",
        plural(queues.len() as u64, "queue")
    ));
    let permits = Arc::new(Semaphore::new(CONCURRENCY));
    let mut tasks: JoinSet<(usize, Result<QueueRow, ClientError>)> = JoinSet::new();
    for (index, queue) in queues.into_iter().enumerate() {
        let sqs = sqs.clone();
        let permits = permits.clone();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (index, row(&sqs, queue).await)
        });
    }
    let mut rows: Vec<Option<QueueRow>> = Vec::new();
    let mut vanished = 0;
    while let Some(done) = tasks.join_next().await {
        let (index, result) = done?;
        if rows.len() <= index {
            rows.resize_with(index + 1, || None);
        }
        match result {
            Ok(row) => rows[index] = Some(row),
            // Deleted between the listing and the attribute call.
            Err(ClientError::QueueNotFound { .. }) => vanished += 1,
            Err(err) => return Err(err.into()),
        }
    }
    let mut rows: Vec<QueueRow> = rows.into_iter().flatten().collect();
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    ctx.printer.emit(&Document::rows(&rows))?;
    let mut summary = plural(rows.len() as u64, "queue");
    if let Some(prefix) = &settings.prefix {
        summary.push_str(&format!(" starting with `{prefix}`"));
    }
    summary.push_str(&format!(" in {}", sqs.region()));
    if vanished > 0 {
        summary.push_str(&format!(" ({vanished} deleted while listing)"));
    }
    ctx.printer.info(summary);
    Ok(ExitStatus::Success)
}

async fn row(sqs: &crate::client::Sqs, queue: QueueRef) -> Result<QueueRow, ClientError> {
    let attrs = sqs.attributes(&queue).await?;
    let policy = attrs.redrive_policy();
    Ok(QueueRow {
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        fifo: attrs.is_fifo() || queue.is_fifo(),
        dlq: policy.as_ref().map(|p| {
            name_from_arn(&p.dead_letter_target_arn)
                .unwrap_or(&p.dead_letter_target_arn)
                .to_string()
        }),
        max_receive_count: policy.map(|p| p.max_receive_count),
        name: queue.name,
        url: queue.url,
    })
}

impl Row for QueueRow {
    const KIND: &'static str = "queue";

    fn columns() -> Vec<Column> {
        vec![
            Column::id("name"),
            Column::whole("visible"),
            Column::whole("in flight").droppable(3),
            Column::whole("delayed").droppable(1),
            Column::whole("FIFO").droppable(2),
            Column::id("DLQ").droppable(4),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let dlq = match (&self.dlq, self.max_receive_count) {
            (Some(dlq), Some(max)) => format!("{dlq} (after {max})"),
            (Some(dlq), None) => dlq.clone(),
            _ => String::new(),
        };
        vec![
            self.name.clone(),
            self.visible.to_string(),
            self.in_flight.to_string(),
            self.delayed.to_string(),
            if self.fifo { "yes" } else { "" }.to_string(),
            dlq,
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.visible.to_string(),
            self.in_flight.to_string(),
            self.delayed.to_string(),
            (if self.fifo { "fifo" } else { "standard" }).to_string(),
            self.dlq.clone().unwrap_or_else(|| "-".to_string()),
        ]
    }
}
