//! `sqsctl delete`: delete messages by receipt handle, or find them by message id and delete only
//! those.
//!
//! Finding by id scans the queue the way peek does: each message is received once with a
//! visibility timeout (the hold) so the scan never sees it twice, the matches are deleted while
//! their receipt handles are fresh, and every other message is made visible again the moment the
//! scan ends, whatever ended it.

use std::collections::BTreeSet;
use std::collections::HashSet;
use std::time::Instant;

use anyhow::bail;
use serde::Serialize;

use super::common::{confirm_destructive, queue_place, resolve_queue};
use crate::cli::delete::DeleteArgs;
use crate::client::peek;
use crate::client::{EntryResult, MAX_BATCH_ENTRIES, QueueRef, ReceiveOptions, RetryPolicy, Sqs};
use crate::commands::context::Context;
use crate::error::with_hint;
use crate::exit::ExitStatus;
use crate::message::MessageRecord;
use crate::output::table::cut;
use crate::output::{Column, Document, Row};
use crate::text::plural;

/// Visibility timeout of scanned messages while the scan runs.
const HOLD_SECONDS: i32 = 30;

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

/// One line of output per message handled.
#[derive(Debug, Serialize)]
struct Outcome {
    #[serde(skip_serializing_if = "Option::is_none")]
    message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    receipt_handle: Option<String>,
    /// `deleted`, `would_delete`, `failed` or `not_found`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
}

pub async fn run(ctx: &Context, settings: DeleteSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let mut out = Output::new(ctx);
    match &settings.target {
        DeleteTarget::ReceiptHandles(handles) => {
            by_handles(ctx, &queue, handles, &settings, &mut out).await?;
        }
        DeleteTarget::MessageIds(ids) => by_ids(ctx, &queue, ids, &settings, &mut out).await?,
    }
    out.finish()?;
    let (deleted, failed, missing) = (
        out.count("deleted"),
        out.count("failed"),
        out.count("not_found"),
    );
    if settings.dry_run {
        ctx.printer.info(format!(
            "dry run: would delete {} from {}; nothing was deleted",
            plural(out.count("would_delete"), "message"),
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
    } else if out.dead_lettered > 0 {
        ExitStatus::ReadDeadLettered
    } else if failed > 0 || missing > 0 {
        ExitStatus::Partial
    } else {
        ExitStatus::Success
    })
}

async fn by_handles(
    ctx: &Context,
    queue: &QueueRef,
    handles: &[String],
    settings: &DeleteSettings,
    out: &mut Output<'_>,
) -> anyhow::Result<()> {
    if settings.dry_run {
        for handle in handles {
            out.push(Outcome {
                message_id: None,
                receipt_handle: Some(handle.clone()),
                status: "would_delete",
                error: None,
                body: None,
            })?;
        }
        return Ok(());
    }
    confirm_destructive(
        &ctx.printer,
        &format!(
            "Delete {} from {}?",
            plural(handles.len() as u64, "message"),
            queue_place(queue, ctx.sqs().await?.region())
        ),
        &format!("deleting messages from `{}`", queue.name),
        true,
        settings.yes,
    )?;
    let sqs = ctx.sqs().await?;
    let policy = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        if ctx.interrupt.is_set() {
            break;
        }
        let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
        let outcome = sqs.delete_batch_retrying(queue, &refs, &policy).await;
        for (handle, entry) in chunk.iter().zip(&outcome.entries) {
            out.push(Outcome {
                message_id: None,
                receipt_handle: Some(handle.clone()),
                status: status_of(entry),
                error: entry.reason(),
                body: None,
            })?;
        }
        if let Some(err) = outcome.request_error {
            return Err(err.into());
        }
    }
    Ok(())
}

/// A delete whose outcome is unknown counts as failed: it may have happened, and deleting again
/// does no harm.
fn status_of(entry: &EntryResult) -> &'static str {
    if entry.is_done() { "deleted" } else { "failed" }
}

async fn by_ids(
    ctx: &Context,
    queue: &QueueRef,
    ids: &[String],
    settings: &DeleteSettings,
    out: &mut Output<'_>,
) -> anyhow::Result<()> {
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
    if !settings.dry_run {
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Delete the {} with the given ids from {}?",
                plural(ids.len() as u64, "message"),
                queue_place(queue, ctx.sqs().await?.region())
            ),
            &format!("deleting messages from `{}`", queue.name),
            true,
            settings.yes,
        )?;
    }
    let mut wanted: BTreeSet<String> = ids.iter().cloned().collect();
    let mut held: Vec<String> = Vec::new();
    let watch = peek::watch_dead_letter_queue(sqs, cost.as_ref()).await;
    let mut tally = peek::Scanned {
        visible_at_start: attrs.visible(),
        cost: cost.clone(),
        ..peek::Scanned::default()
    };
    let result = scan(
        ctx,
        sqs,
        queue,
        &mut wanted,
        &mut held,
        settings,
        out,
        &mut tally,
    )
    .await;
    // Everything not deleted goes back at once, also after an error.
    let refs: Vec<&str> = held.iter().map(String::as_str).collect();
    let not_released = sqs.release(queue, &refs).await.unwrap_or(refs.len());
    if not_released > 0 {
        ctx.printer.warn(format!(
            "{} could not be made visible again; they return after {HOLD_SECONDS} seconds",
            plural(not_released as u64, "scanned message")
        ));
    }
    peek::finish_read(sqs, queue, &mut tally, watch, settings.force).await;
    result?;
    if let Some(cost) = cost {
        ctx.printer.info(cost.describe());
    }
    if let Some(moved) = tally.dead_letter_warning(&queue.name) {
        ctx.printer.warn(moved);
    }
    out.dead_lettered = tally.dead_lettered();
    if !wanted.is_empty() && tally.seen >= settings.scan_limit {
        ctx.printer.warn(format!(
            "the scan stopped at --scan-limit {} before finding every id; raise it to read further",
            settings.scan_limit
        ));
    }
    for id in wanted {
        out.push(Outcome {
            message_id: Some(id),
            receipt_handle: None,
            status: "not_found",
            error: None,
            body: None,
        })?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn scan(
    ctx: &Context,
    sqs: &Sqs,
    queue: &QueueRef,
    wanted: &mut BTreeSet<String>,
    held: &mut Vec<String>,
    settings: &DeleteSettings,
    out: &mut Output<'_>,
    tally: &mut peek::Scanned,
) -> anyhow::Result<()> {
    let dry_run = settings.dry_run;
    let mut visible_at_start = tally.visible_at_start;
    let mut seen: HashSet<String> = HashSet::new();
    let stop_at = peek::stop_reading_at(HOLD_SECONDS);
    while !wanted.is_empty() && !ctx.interrupt.is_set() && tally.seen < settings.scan_limit {
        if Instant::now() >= stop_at {
            ctx.printer.warn(format!(
                "the scan stopped after reading {} before the first of them became visible again, so as not to read any message twice; run it again for the ids not found",
                plural(seen.len() as u64, "message")
            ));
            break;
        }
        // Short polls while unseen messages remain; one long poll to be sure before stopping.
        let wait = if (seen.len() as u64) < visible_at_start {
            0
        } else {
            1
        };
        let options = ReceiveOptions {
            max_messages: settings.scan_limit.saturating_sub(tally.seen).clamp(1, 10) as i32,
            wait_seconds: Some(wait),
            visibility_timeout: Some(HOLD_SECONDS),
        };
        let batch = tokio::select! {
            batch = sqs.receive(queue, options) => batch?,
            () = ctx.interrupt.wait() => break,
        };
        if batch.is_empty() {
            if wait > 0 {
                break;
            }
            visible_at_start = seen.len() as u64;
            continue;
        }
        let mut matches: Vec<MessageRecord> = Vec::new();
        for message in batch {
            let Some(handle) = message.receipt_handle.clone() else {
                continue;
            };
            let id = message.message_id.clone().unwrap_or_default();
            let first_time = seen.insert(id.clone());
            if first_time {
                tally.count_seen(&message);
            }
            if !(first_time && wanted.remove(&id)) {
                held.push(handle);
            } else if dry_run {
                out.push(Outcome {
                    message_id: Some(id),
                    receipt_handle: None,
                    status: "would_delete",
                    error: None,
                    body: Some(message.body),
                })?;
                held.push(handle);
            } else {
                matches.push(message);
            }
        }
        if matches.is_empty() {
            continue;
        }
        let refs: Vec<&str> = matches
            .iter()
            .filter_map(|m| m.receipt_handle.as_deref())
            .collect();
        let policy = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
        let outcome = sqs.delete_batch_retrying(queue, &refs, &policy).await;
        for (message, entry) in matches.into_iter().zip(&outcome.entries) {
            if !entry.is_done()
                && let Some(handle) = message.receipt_handle.clone()
            {
                held.push(handle);
            }
            out.push(Outcome {
                message_id: message.message_id,
                receipt_handle: None,
                status: status_of(entry),
                error: entry.reason(),
                body: Some(message.body),
            })?;
        }
        if let Some(err) = outcome.request_error {
            return Err(err.into());
        }
    }
    Ok(())
}

/// Collects or streams the outcomes in the chosen format.
struct Output<'a> {
    ctx: &'a Context,
    /// Messages that arrived in the dead-letter queue while a scan for ids ran.
    dead_lettered: u64,
    all: Vec<Outcome>,
    counts: std::collections::BTreeMap<&'static str, u64>,
}

impl<'a> Output<'a> {
    fn new(ctx: &'a Context) -> Self {
        Output {
            ctx,
            dead_lettered: 0,
            all: Vec::new(),
            counts: Default::default(),
        }
    }

    fn count(&self, status: &str) -> u64 {
        self.counts.get(status).copied().unwrap_or(0)
    }

    fn push(&mut self, outcome: Outcome) -> anyhow::Result<()> {
        *self.counts.entry(outcome.status).or_default() += 1;
        self.ctx.printer.stream(Outcome::KIND, &outcome)?;
        self.all.push(outcome);
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        self.ctx
            .printer
            .emit(&Document::rows(&self.all).streamed())?;
        Ok(())
    }
}

impl Row for Outcome {
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
        vec![key, self.status.replace('_', " "), detail.to_string()]
    }

    fn fields(&self) -> Vec<String> {
        let key = self
            .message_id
            .as_deref()
            .or(self.receipt_handle.as_deref())
            .unwrap_or("");
        vec![self.status.to_string(), key.to_string()]
    }
}
