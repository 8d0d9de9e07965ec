//! `sqsctl queue url`: the URL of a queue by name, in the caller's account or another's.

use crate::client::ClientError;
use crate::commands::common::resolve_queue;
use crate::commands::context::Context;
use crate::error::UsageError;
use crate::exit::ExitStatus;
use crate::output::Document;

pub(super) async fn url(
    ctx: &Context,
    name: &str,
    account: Option<String>,
) -> anyhow::Result<ExitStatus> {
    let queue = match account {
        None => resolve_queue(ctx, name).await?,
        Some(account) => {
            if account.len() != 12 || !account.chars().all(|c| c.is_ascii_digit()) {
                return Err(UsageError(format!(
                    "--account `{account}` is not an AWS account id (12 digits)"
                ))
                .into());
            }
            let sqs = ctx.sqs().await?;
            match sqs.queue_url(name, Some(account)).await {
                Ok(queue) => queue,
                Err(ClientError::InvalidInput(message)) => return Err(UsageError(message).into()),
                Err(err) => return Err(err.into()),
            }
        }
    };
    ctx.printer
        .emit(&Document::value("queue_url", &queue, queue.url.clone()))?;
    Ok(ExitStatus::Success)
}
