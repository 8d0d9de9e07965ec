//! Shell completion of queue names. The completion scripts `COMPLETE=bash sqsctl` prints (clap's
//! dynamic completion) call sqsctl back while the user presses Tab; for a queue argument it lists
//! the queues of the account and region the environment points at (`AWS_PROFILE`, `AWS_REGION`,
//! `AWS_ENDPOINT_URL_SQS`...). Names are cached for a few seconds, so pressing Tab again does not
//! ask SQS again; the call is bounded by a short timeout, and any error (no credentials, no
//! network) completes nothing rather than print to a prompt.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use clap_complete::CompletionCandidate;
use sha2::{Digest, Sha256};

use crate::client::{AwsEnvironment, AwsSettings, Sqs};

/// How long a listing is reused.
const CACHE_FOR: Duration = Duration::from_secs(5);
/// The most a completion waits for SQS.
const TIMEOUT: Duration = Duration::from_secs(2);

/// The candidates for a queue argument (clap filters them by what was typed).
pub fn queue_names() -> Vec<CompletionCandidate> {
    names().into_iter().map(CompletionCandidate::new).collect()
}

fn names() -> Vec<String> {
    let cache = cache_file();
    if let Some(path) = &cache
        && let Ok(meta) = std::fs::metadata(path)
        && meta
            .modified()
            .ok()
            .and_then(|at| SystemTime::now().duration_since(at).ok())
            .is_some_and(|age| age < CACHE_FOR)
        && let Ok(text) = std::fs::read_to_string(path)
    {
        return text.lines().map(str::to_string).collect();
    }
    let Some(names) = list() else {
        return Vec::new();
    };
    if let Some(path) = &cache {
        // A cache that cannot be written only costs the next Tab a request. The names are the
        // user's business: the file and its directory are private.
        let _ = crate::state_file::replace_private(path, &names.join("\n"));
    }
    names
}

/// The queue names, or `None` on any error or after [`TIMEOUT`].
fn list() -> Option<Vec<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let settings = AwsSettings {
            max_attempts: Some(1),
            connect_timeout: Some(TIMEOUT),
            read_timeout: Some(TIMEOUT),
            environment: AwsEnvironment::read(),
            ..AwsSettings::default()
        };
        let listing = async {
            let sqs = Sqs::connect(&settings).await.ok()?;
            let queues = sqs.list_queues(None).await.ok()?;
            Some(queues.into_iter().map(|q| q.name).collect())
        };
        tokio::time::timeout(TIMEOUT, listing).await.ok().flatten()
    })
}

/// One cache file per place the environment points at, so two accounts or regions never share
/// names; `None` when there is no cache directory.
fn cache_file() -> Option<PathBuf> {
    let place: Vec<String> = [
        "AWS_PROFILE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL_SQS",
        "AWS_ENDPOINT_URL",
        "AWS_ACCESS_KEY_ID",
    ]
    .iter()
    .map(|name| std::env::var(name).unwrap_or_default())
    .collect();
    let digest = Sha256::digest(place.join("\n").as_bytes());
    let key = hex::encode(&digest[..8]);
    Some(
        dirs::cache_dir()?
            .join("sqsctl")
            .join(format!("queue-names-{key}")),
    )
}
