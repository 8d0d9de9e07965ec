//! `sqsctl delete`: delete messages by receipt handle, or find them by message id and delete only
//! those, through [`crate::delete`]; here, the settings, the read guard's refusal with its hint,
//! the confirmation, and one record per message handled.

use anyhow::bail;

use super::common::{confirm_destructive, queue_place, resolve_queue};
use crate::cli::delete::DeleteArgs;
use crate::client::QueueRef;
use crate::client::peek;
use crate::commands::context::Context;
use crate::delete::{self as engine, ByIdRequest, Deletion, HOLD_SECONDS, Status};
use crate::error::with_hint;
use crate::exit::ExitStatus;
use crate::output::rows::RowStream;
use crate::output::table::cut;
use crate::output::{Column, Row};
use crate::text::plural;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeleteTarget {
    ReceiptHandles(Vec<String>),
    MessageIds(Vec<String>),
}

#[derive(Debug)]
pub struct DeleteSettings {
    pub queue: String,
    pub target: DeleteTarget,
    pub dry_run: bool,
    pub yes: bool,
    pub force: bool,
    /// With `--message-id`: how many messages the scan reads at most.
    pub scan_limit: u64,
}

impl DeleteSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: DeleteArgs) -> anyhow::Result<DeleteSettings> {
        let target = if !args.message_ids.is_empty() {
            let mut ids = args.message_ids;
            ids.sort();
            ids.dedup();
            DeleteTarget::MessageIds(ids)
        } else if !args.receipt_handles.is_empty() {
            DeleteTarget::ReceiptHandles(args.receipt_handles)
        } else {
            bail!("nothing to delete: give RECEIPT_HANDLE arguments or --message-id ID");
        };
        if let DeleteTarget::ReceiptHandles(handles) = &target
            && let Some(empty) = handles.iter().position(|h| h.trim().is_empty())
        {
            bail!("receipt handle number {} is empty", empty + 1);
        }
        Ok(DeleteSettings {
            queue: args.queue,
            target,
            dry_run: args.confirm.dry_run,
            yes: args.confirm.yes,
            force: args.force,
            scan_limit: args.scan_limit,
        })
    }
}

pub async fn run(ctx: &Context, settings: DeleteSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let mut out = RowStream::new(&ctx.printer);
    let dead_lettered = match &settings.target {
        DeleteTarget::ReceiptHandles(handles) => {
            by_handles(ctx, &queue, handles, &settings, &mut out).await?;
            0
        }
        DeleteTarget::MessageIds(ids) => by_ids(ctx, &queue, ids, &settings, &mut out).await?,
    };
    out.finish()?;
    let count = |status| out.rows().iter().filter(|d| d.status == status).count() as u64;
    let (deleted, failed, missing) = (
        count(Status::Deleted),
        count(Status::Failed),
        count(Status::NotFound),
    );
    if settings.dry_run {
        ctx.printer.info(format!(
            "dry run: would delete {} from {}; nothing was deleted",
            plural(count(Status::WouldDelete), "message"),
            queue.name
        ));
    } else {
        ctx.printer.info(format!(
            "deleted {} from {}",
            plural(deleted, "message"),
            queue.name
        ));
    }
    if failed > 0 {
        ctx.printer.warn(format!(
            "{} could not be deleted",
            plural(failed, "message")
        ));
    }
    if missing > 0 {
        ctx.printer.warn(format!(
            "{} not found in {} (deleted already, in flight with a consumer, or delayed)",
            if missing == 1 {
                "1 message id was".to_string()
            } else {
                format!("{missing} message ids were")
            },
            queue.name
        ));
    }
    Ok(if ctx.interrupt.is_set() {
        ExitStatus::Interrupted
    } else if dead_lettered > 0 {
        ExitStatus::ReadDeadLettered
    } else if failed > 0 || missing > 0 {
        ExitStatus::Partial
    } else {
        ExitStatus::Success
    })
}

/// Asks before deleting `what` from `queue` (a dry run does not ask).
async fn confirm(
    ctx: &Context,
    queue: &QueueRef,
    what: &str,
    settings: &DeleteSettings,
) -> anyhow::Result<()> {
    if settings.dry_run {
        return Ok(());
    }
    confirm_destructive(
        &ctx.printer,
        &format!(
            "Delete {what} from {}?",
            queue_place(queue, ctx.sqs().await?.region())
        ),
        &format!("deleting messages from `{}`", queue.name),
        true,
        settings.yes,
    )
}

async fn by_handles(
    ctx: &Context,
    queue: &QueueRef,
    handles: &[String],
    settings: &DeleteSettings,
    out: &mut RowStream<'_, Deletion>,
) -> anyhow::Result<()> {
    let count = plural(handles.len() as u64, "message");
    confirm(ctx, queue, &count, settings).await?;
    let sqs = ctx.sqs().await?;
    let deleted = engine::by_handles(
        sqs,
        queue,
        handles,
        settings.dry_run,
        &ctx.interrupt,
        |deletion| out.push(deletion),
    )
    .await;
    out.checked()?;
    Ok(deleted?)
}

async fn by_ids(
    ctx: &Context,
    queue: &QueueRef,
    ids: &[String],
    settings: &DeleteSettings,
    out: &mut RowStream<'_, Deletion>,
) -> anyhow::Result<u64> {
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(queue).await?;
    let cost = peek::guard(queue, &attrs, settings.force).map_err(|refused| match refused {
        peek::PeekError::WouldDeadLetter { .. } => with_hint(
            refused,
            format!(
                "queues with a maxReceiveCount of {} or more are scanned without asking; pass --force to scan for the ids anyway, or delete by receipt handle",
                peek::MIN_UNFORCED_MAX_RECEIVE_COUNT
            ),
        ),
        other => anyhow::Error::new(other),
    })?;
    let what = format!(
        "the {} with the given ids",
        plural(ids.len() as u64, "message")
    );
    confirm(ctx, queue, &what, settings).await?;
    let request = ByIdRequest {
        sqs,
        queue,
        ids,
        visible_at_start: attrs.visible(),
        cost: cost.clone(),
        force: settings.force,
        dry_run: settings.dry_run,
        scan_limit: settings.scan_limit,
        interrupt: &ctx.interrupt,
    };
    let report = engine::by_id(request, |deletion| out.push(deletion)).await;
    let scanned = &report.scanned;
    if scanned.hold_ran_short {
        ctx.printer.warn(format!(
            "the scan stopped after reading {} before the first of them became visible again, so as not to read any message twice; run it again for the ids not found",
            plural(scanned.seen, "message")
        ));
    }
    ctx.printer
        .warn_not_released(report.not_released, "", &format!("within {HOLD_SECONDS}s"));
    out.checked()?;
    if let Some(err) = report.error {
        return Err(err.into());
    }
    if let Some(cost) = cost {
        ctx.printer.info(cost.describe());
    }
    if let Some(moved) = scanned.dead_letter_warning(&queue.name) {
        ctx.printer.warn(moved);
    }
    if report.not_found > 0 && scanned.seen >= settings.scan_limit {
        ctx.printer.warn(format!(
            "the scan stopped at --scan-limit {} before finding every id; raise it to read further",
            settings.scan_limit
        ));
    }
    Ok(scanned.dead_lettered())
}

impl Row for Deletion {
    const KIND: &'static str = "delete";

    fn columns() -> Vec<Column> {
        vec![
            Column::id("message"),
            Column::whole("status"),
            Column::cut("body / error", 12, 60),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let key = self
            .message_id
            .clone()
            .or_else(|| self.receipt_handle.as_deref().map(|h| cut(h, 24)))
            .unwrap_or_default();
        let detail = self.error.as_deref().or(self.body.as_deref()).unwrap_or("");
        vec![
            key,
            self.status.as_str().replace('_', " "),
            detail.to_string(),
        ]
    }

    fn fields(&self) -> Vec<String> {
        let key = self
            .message_id
            .as_deref()
            .or(self.receipt_handle.as_deref())
            .unwrap_or("");
        vec![self.status.as_str().to_string(), key.to_string()]
    }
}
