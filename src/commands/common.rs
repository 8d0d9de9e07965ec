//! Helpers shared by the everyday commands: resolving a queue with a useful hint when it does not
//! exist, and gating destructive work behind a confirmation that names the queue, its account and
//! its region.

use anyhow::Context as _;

use crate::client::{ClientError, QueueRef};
use crate::commands::context::Context;
use crate::error::{Cancelled, Declined, UsageError};
use crate::output::{Answer, Printer};

/// Resolves a queue given by name, URL or ARN; a name that does not exist comes back with the
/// caller's queues of similar names, for the hint (a typo or a missing `.fifo` is the usual cause).
pub async fn resolve_queue(ctx: &Context, text: &str) -> anyhow::Result<QueueRef> {
    let sqs = ctx.sqs().await?;
    match sqs.lookup(text).await {
        Ok(queue) => {
            ctx.printer.debug(format!(
                "queue {} is {}",
                queue_place(&queue, sqs.region()),
                queue.url
            ));
            Ok(queue)
        }
        Err(ClientError::InvalidInput(message)) => Err(UsageError(message).into()),
        Err(err) => Err(err.into()),
    }
}

/// Asks before destructive work. `--yes` skips the question; without a terminal to ask on, the
/// command refuses (usage error) unless `--yes` was given. A "no" answer ends the run with
/// [`Declined`] (exit code 6), so a script never mistakes a declined run for a done one, nor for a
/// failed one. `action` names the work for that error
/// ("purging `orders`"); `dry_run_flag` says whether the command has `--dry-run` to offer.
pub fn confirm_destructive(
    printer: &Printer,
    question: &str,
    action: &str,
    dry_run_flag: bool,
    yes: bool,
) -> anyhow::Result<()> {
    if yes {
        return Ok(());
    }
    match printer
        .confirm(question)
        .context("could not read the answer")?
    {
        Answer::Yes => Ok(()),
        Answer::No => Err(Declined.into()),
        Answer::Cancelled => Err(Cancelled.into()),
        Answer::NoTerminal => {
            let alternative = if dry_run_flag {
                " (or --dry-run to see what it would do)"
            } else {
                ""
            };
            Err(UsageError(format!(
                "{action} needs confirmation, and there is no terminal to ask on: pass --yes to go ahead{alternative}"
            ))
            .into())
        }
    }
}

/// Where a queue is, for a question asked before destructive work: its name, the account that owns
/// it (from its URL) and the region, e.g. `` `orders` (account 123456789012, eu-west-1) ``.
pub fn queue_place(queue: &QueueRef, region: &str) -> String {
    format!("`{}` ({})", queue.name, account_region(queue, region))
}

/// `account 123456789012, eu-west-1`, or `region eu-west-1` when the queue's URL names no account.
pub fn account_region(queue: &QueueRef, region: &str) -> String {
    match queue.account() {
        Some(account) => format!("account {account}, {region}"),
        None => format!("region {region}"),
    }
}

/// Checks a queue name prefix (`queues PREFIX`, `top PREFIX`): SQS would only answer with no queue.
pub fn check_prefix(prefix: &str) -> anyhow::Result<()> {
    if !prefix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        anyhow::bail!("`{prefix}` cannot start a queue name (letters, digits, - and _ only)");
    }
    Ok(())
}
