//! `sqsctl purge`: delete every message in a queue, after a confirmation.

use serde::Serialize;

use super::common::{confirm_destructive, queue_place, resolve_queue};
use crate::cli::purge::PurgeArgs;
use crate::client::ClientError;
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::text::plural;

#[derive(Debug)]
pub struct PurgeSettings {
    pub queue: String,
    pub yes: bool,
    pub dry_run: bool,
}

impl PurgeSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: PurgeArgs) -> anyhow::Result<PurgeSettings> {
        Ok(PurgeSettings {
            queue: args.target.queue,
            yes: args.target.confirm.yes,
            dry_run: args.target.confirm.dry_run,
        })
    }
}

#[derive(Debug, Serialize)]
struct Purged<'a> {
    queue: &'a str,
    /// Approximate depth just before the purge: visible + in flight + delayed.
    messages: u64,
    dry_run: bool,
}

pub async fn run(ctx: &Context, settings: PurgeSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(&queue).await?;
    let depth = attrs.total();
    if !settings.dry_run {
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Purge {}: about {} ({} visible, {} in flight, {} delayed)?",
                queue_place(&queue, sqs.region()),
                plural(depth, "message"),
                attrs.visible(),
                attrs.in_flight(),
                attrs.delayed()
            ),
            &format!("purging `{}`", queue.name),
            true,
            settings.yes,
        )?;
        if let Err(err) = sqs.purge(&queue).await {
            return Err(purge_error(&queue.name, err));
        }
    }
    let purged = Purged {
        queue: &queue.name,
        messages: depth,
        dry_run: settings.dry_run,
    };
    // People read the summary on stderr; scripts get the record, or with `-o text` one line.
    ctx.printer.emit(
        &Document::default()
            .json(&purged)
            .record("purge", &purged)
            .text(vec![vec![queue.name.clone(), depth.to_string()]]),
    )?;
    if depth == 0 {
        ctx.printer.info(if settings.dry_run {
            format!(
                "dry run: {} looks empty; purging it would remove nothing",
                queue.name
            )
        } else {
            format!(
                "purged {}: it looked empty, so nothing was removed",
                queue.name
            )
        });
    } else if settings.dry_run {
        ctx.printer.info(format!(
            "dry run: purging {} would remove about {}; nothing was removed",
            queue.name,
            plural(depth, "message")
        ));
    } else {
        ctx.printer.info(format!(
            "purged {}: removed about {} (SQS may take up to 60 seconds to finish)",
            queue.name,
            plural(depth, "message")
        ));
    }
    Ok(ExitStatus::Success)
}

fn purge_error(queue: &str, err: ClientError) -> anyhow::Error {
    match err.code() {
        Some(code) if code.ends_with("PurgeQueueInProgress") => hinted(
            format!(
                "`{queue}` was purged less than 60 seconds ago; SQS refuses another purge until then (PurgeQueueInProgress)"
            ),
            "wait a minute and run the purge again; the earlier purge is still removing the messages that were in the queue then",
        ),
        _ => err.into(),
    }
}
