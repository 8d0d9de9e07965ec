//! `sqsctl queue delete`: deletes a queue and its messages, after a confirmation.

use serde::Serialize;

use crate::commands::common::{confirm_destructive, queue_place, resolve_queue};
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::text::plural;

#[derive(Debug, Serialize)]
struct Deleted<'a> {
    name: &'a str,
    url: &'a str,
    /// Approximate depth when it was deleted.
    messages: u64,
    dry_run: bool,
}

pub(super) async fn delete(
    ctx: &Context,
    text: &str,
    yes: bool,
    dry_run: bool,
) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(&queue).await?;
    let sources: Vec<String> = sqs
        .dead_letter_sources(&queue)
        .await
        .map(|queues| queues.into_iter().map(|q| q.name).collect())
        .unwrap_or_default();
    if !sources.is_empty() {
        ctx.printer.warn(format!(
            "`{}` is the dead-letter queue of {}: their failed messages will have nowhere to go",
            queue.name,
            sources.join(", ")
        ));
    }
    let depth = attrs.total();
    if !dry_run {
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Delete queue {} and its {}?",
                queue_place(&queue, sqs.region()),
                plural(depth, "message")
            ),
            &format!("deleting queue `{}`", queue.name),
            true,
            yes,
        )?;
        sqs.delete_queue(&queue).await?;
    }
    let deleted = Deleted {
        name: &queue.name,
        url: &queue.url,
        messages: depth,
        dry_run,
    };
    // People read the summary on stderr; scripts get the record, or with `-o text` one line.
    ctx.printer.emit(
        &Document::default()
            .json(&deleted)
            .record("queue_deleted", &deleted)
            .text(vec![vec![queue.name.clone(), depth.to_string()]]),
    )?;
    ctx.printer.info(if dry_run {
        format!(
            "dry run: would delete queue {} and its {}",
            queue.name,
            plural(depth, "message")
        )
    } else {
        format!(
            "deleted queue {} and its {}",
            queue.name,
            plural(depth, "message")
        )
    });
    Ok(ExitStatus::Success)
}
