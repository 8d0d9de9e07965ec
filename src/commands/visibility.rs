//! `sqsctl visibility`: change how long received messages stay hidden, by receipt handle, in
//! batches of 10 under the client's retry policy, with one result per handle.

use sqsctl_core::client::ChangeVisibility;
use std::io::BufRead;

use anyhow::bail;
use serde::Serialize;

use super::common::resolve_queue;
use crate::cli::visibility::VisibilityArgs;
use crate::client::{EntryResult, MAX_BATCH_ENTRIES, RetryPolicy};
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::rows::RowStream;
use crate::output::{Column, Row};
use crate::text::plural;

/// SQS's longest visibility timeout: 12 hours.
pub const MAX_VISIBILITY_SECONDS: u64 = 12 * 60 * 60;

#[derive(Debug)]
pub struct VisibilitySettings {
    pub queue: String,
    pub timeout_seconds: i32,
    /// Empty: read the handles from stdin.
    pub receipt_handles: Vec<String>,
}

impl VisibilitySettings {
    /// Checks the command line's values (an error here is a usage error).
    pub fn resolve(args: VisibilityArgs) -> anyhow::Result<VisibilitySettings> {
        let seconds = crate::cli::values::whole_seconds(args.timeout);
        if let Some(empty) = args
            .receipt_handles
            .iter()
            .position(|h| h.trim().is_empty())
        {
            bail!("receipt handle number {} is empty", empty + 1);
        }
        Ok(VisibilitySettings {
            queue: args.queue,
            timeout_seconds: seconds,
            receipt_handles: args.receipt_handles,
        })
    }
}

/// The result for one receipt handle.
#[derive(Debug, Serialize)]
struct Changed {
    receipt_handle: String,
    /// `changed`, `failed`, or `unknown` (an attempt may have been applied; none confirmed it).
    status: &'static str,
    visibility_timeout: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

pub async fn run(ctx: &Context, settings: VisibilitySettings) -> anyhow::Result<ExitStatus> {
    let handles = if settings.receipt_handles.is_empty() {
        handles_from_stdin(ctx)?
    } else {
        settings.receipt_handles
    };
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    let policy = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let mut results = RowStream::new(&ctx.printer);
    let mut request_error = None;
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        if ctx.interrupt.is_set() {
            break;
        }
        let entries: Vec<(&str, i32)> = chunk
            .iter()
            .map(|h| (h.as_str(), settings.timeout_seconds))
            .collect();
        let outcome = sqs
            .batch_retrying(ChangeVisibility, &queue, &entries, &policy)
            .await;
        for (handle, entry) in chunk.iter().zip(&outcome.entries) {
            let result = Changed {
                receipt_handle: handle.clone(),
                status: match entry {
                    EntryResult::Done { .. } => "changed",
                    EntryResult::Failed { .. } => "failed",
                    EntryResult::Unknown { .. } => "unknown",
                },
                visibility_timeout: settings.timeout_seconds,
                error: entry.reason(),
            };
            if results.push(result).is_break() {
                break;
            }
        }
        results.checked()?;
        if let Some(err) = outcome.request_error {
            request_error = Some(err);
            break;
        }
    }
    results.finish()?;
    let results = results.rows();
    if let Some(err) = request_error {
        return Err(err.into());
    }
    let changed = results.iter().filter(|r| r.status == "changed").count() as u64;
    let not_changed = results.len() as u64 - changed;
    ctx.printer.info(format!(
        "changed the visibility timeout of {} in {} to {} s",
        plural(changed, "message"),
        queue.name,
        settings.timeout_seconds
    ));
    if not_changed > 0 {
        ctx.printer.warn(format!(
            "{} not changed (an expired receipt handle, or a message deleted already)",
            plural(not_changed, "message")
        ));
    }
    Ok(if ctx.interrupt.is_set() {
        ExitStatus::Interrupted
    } else if not_changed > 0 || (results.len() as u64) < handles.len() as u64 {
        ExitStatus::Partial
    } else {
        ExitStatus::Success
    })
}

/// Receipt handles from stdin, one per line, blank lines skipped.
fn handles_from_stdin(ctx: &Context) -> anyhow::Result<Vec<String>> {
    if ctx.printer.terminal().stdin_is_tty {
        bail!(crate::error::UsageError(
            "no receipt handles: give RECEIPT_HANDLE arguments or pipe them in, one per line"
                .to_string()
        ));
    }
    let mut handles = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let handle = line.trim();
        if !handle.is_empty() {
            handles.push(handle.to_string());
        }
    }
    if handles.is_empty() {
        bail!(crate::error::UsageError(
            "no receipt handles on stdin".to_string()
        ));
    }
    Ok(handles)
}

impl Row for Changed {
    const KIND: &'static str = "visibility";

    fn columns() -> Vec<Column> {
        vec![
            Column::cut("receipt handle", 12, 24),
            Column::whole("status"),
            Column::wrap("error", 12, 60),
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.receipt_handle.clone(),
            self.status.to_string(),
            self.error.clone().unwrap_or_default(),
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![self.status.to_string(), self.receipt_handle.clone()]
    }
}
