//! `sqsctl queues`: every queue (or those with a name prefix) with its depth, type and DLQ.

use crate::cli::queues::QueuesArgs;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::queues::listing::{ListOptions, list};
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

pub async fn run(ctx: &Context, settings: QueuesSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let options = ListOptions {
        prefix: settings.prefix.as_deref(),
        concurrency: CONCURRENCY,
        // Each call once (the SDK's own retries aside): an endpoint that does not answer fails fast.
        retry: None,
    };
    let listing = list(sqs, options, |found| {
        ctx.printer.debug(format!(
            "ListQueues found {}; reading their attributes, {CONCURRENCY} at a time",
            plural(found as u64, "queue")
        ));
    })
    .await?;
    ctx.printer.emit(&Document::rows(&listing.queues))?;
    let mut summary = plural(listing.queues.len() as u64, "queue");
    if let Some(prefix) = &settings.prefix {
        summary.push_str(&format!(" starting with `{prefix}`"));
    }
    summary.push_str(&format!(" in {}", sqs.region()));
    if listing.vanished > 0 {
        summary.push_str(&format!(" ({} deleted while listing)", listing.vanished));
    }
    ctx.printer.info(summary);
    Ok(ExitStatus::Success)
}
