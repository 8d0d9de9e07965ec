//! Helpers shared by the everyday commands: resolving a queue with a useful hint when it does not
//! exist, and gating destructive work behind a confirmation that names the queue, its account and
//! its region.

use anyhow::Context as _;

use crate::client::{ClientError, QueueRef, QueueSpec, Sqs};
use crate::commands::context::Context;
use crate::error::{Cancelled, UsageError, hinted};
use crate::output::{Answer, Printer};

/// Most queue names the "did you mean" hint lists.
const MAX_SUGGESTIONS: usize = 3;

/// Resolves a queue given by name, URL or ARN. When a name does not exist, the error lists queues
/// with similar names in the same region (a typo or a missing `.fifo` is the usual cause).
pub async fn resolve_queue(ctx: &Context, text: &str) -> anyhow::Result<QueueRef> {
    let sqs = ctx.sqs().await?;
    match sqs.resolve(text).await {
        Ok(queue) => {
            ctx.printer.debug(format!(
                "queue {} is {}",
                queue_place(&queue, sqs.region()),
                queue.url
            ));
            Ok(queue)
        }
        Err(ClientError::QueueNotFound { queue, region, .. }) => match QueueSpec::parse(text) {
            // Suggestions come from the caller's own account, so they would mislead here.
            Ok(QueueSpec::Arn { account, .. }) => Err(ClientError::QueueNotFound {
                queue,
                region,
                account: Some(account),
            }
            .into()),
            _ => Err(not_found(sqs, &queue, &region).await),
        },
        Err(ClientError::InvalidInput(message)) => Err(UsageError(message).into()),
        Err(err) => Err(err.into()),
    }
}

async fn not_found(sqs: &Sqs, name: &str, region: &str) -> anyhow::Error {
    let message = format!("queue `{name}` does not exist (region {region})");
    let names: Vec<String> = match sqs.list_queues(None).await {
        Ok(queues) => queues.into_iter().map(|q| q.name).collect(),
        Err(_) => Vec::new(),
    };
    let similar = similar_names(name, &names);
    let hint = if similar.is_empty() {
        format!(
            "no queue in {region} has a similar name: check the region (--region, AWS_REGION) or pass the queue URL; `sqsctl queues` lists what exists"
        )
    } else {
        let list: Vec<String> = similar.iter().map(|n| format!("`{n}`")).collect();
        format!(
            "did you mean {}? (or is the queue in another region than {region}? pass --region or the queue URL)",
            list.join(", ")
        )
    };
    hinted(message, hint)
}

/// Names close to `wanted`: the same name with or without `.fifo`, a small edit distance relative
/// to the names' length, or one containing the other when it is most of it. Closest first. A
/// one-letter queue is not "similar" to every name that contains its letter.
pub fn similar_names(wanted: &str, names: &[String]) -> Vec<String> {
    let wanted_stem = stem(wanted);
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .filter_map(|name| {
            let name_stem = stem(name);
            let distance = edit_distance(&wanted_stem, &name_stem);
            let longest = wanted_stem.chars().count().max(name_stem.chars().count());
            let shortest = wanted_stem.chars().count().min(name_stem.chars().count());
            // At most a third of the longer name changed, and never more than 4 edits.
            let close = distance * 3 <= longest && distance <= 4;
            let contained = (name_stem.contains(&wanted_stem) || wanted_stem.contains(&name_stem))
                && shortest >= 3
                && shortest * 2 >= longest;
            (close || contained).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, name)| name.clone())
        .collect()
}

/// The name as compared: lower case, without the `.fifo` a user often forgets.
fn stem(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    lower.strip_suffix(".fifo").unwrap_or(&lower).to_string()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Asks before destructive work. `--yes` skips the question; without a terminal to ask on, the
/// command refuses (usage error) unless `--yes` was given. A "no" answer is an error too, so a
/// script never mistakes a declined run for a done one. `action` names the work for that error
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
        Answer::No => Err(hinted(
            "cancelled: nothing was changed",
            "answer `y` to go ahead, or pass --yes",
        )),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_catch_typos_and_missing_fifo_suffix() {
        let names: Vec<String> = ["orders", "orders-dlq", "jobs.fifo", "payments"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(similar_names("ordres", &names)[0], "orders");
        assert_eq!(similar_names("jobs", &names), vec!["jobs.fifo".to_string()]);
        assert!(similar_names("zzzzzz", &names).is_empty());
        assert_eq!(similar_names("orders-dl", &names)[0], "orders-dlq");
    }

    #[test]
    fn similar_names_leave_out_short_names_that_merely_share_letters() {
        let names: Vec<String> = ["q", "a", "orders", "orders-dlq", "dlq"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            similar_names("ordres-dlq", &names),
            vec!["orders-dlq".to_string()]
        );
        assert!(similar_names("x", &names).is_empty());
    }
}
