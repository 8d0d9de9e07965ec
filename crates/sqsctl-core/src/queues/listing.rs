//! Listing queues with their depths: one ListQueues, then one GetQueueAttributes per queue, a
//! bounded number in flight. A queue deleted between the listing and its attributes is counted,
//! not an error.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueRef, RetryPolicy, Sqs};

/// A queue, its depth and its dead-letter settings, as one listing read them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedQueue {
    pub name: String,
    pub url: String,
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    pub fifo: bool,
    /// Name of the dead-letter queue of its redrive policy.
    pub dlq: Option<String>,
    pub max_receive_count: Option<u32>,
}

impl ListedQueue {
    /// Visible, in flight and delayed messages together.
    pub fn total(&self) -> u64 {
        self.visible + self.in_flight + self.delayed
    }
}

/// What one listing found.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// By name, A to Z.
    pub queues: Vec<ListedQueue>,
    /// Queues deleted between the listing and the attribute call.
    pub vanished: usize,
}

/// How to list.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListOptions<'a> {
    /// Only queues whose name starts with this.
    pub prefix: Option<&'a str>,
    /// Attribute requests in flight at once.
    pub concurrency: usize,
    /// Each call retried under this policy; `None`: each call made once (the SDK's own retries
    /// aside), for a one-off listing that should fail fast.
    pub retry: Option<&'a RetryPolicy>,
}

/// Lists the queues and reads each one's attributes. `on_listed` hears how many queues the
/// listing found before their attributes are read.
pub async fn list(
    sqs: &Sqs,
    options: ListOptions<'_>,
    on_listed: impl FnOnce(usize),
) -> Result<Listing, ClientError> {
    let queues = match options.retry {
        Some(retry) => {
            retry
                .request(|| sqs.list_queues(options.prefix))
                .await
                .result?
        }
        None => sqs.list_queues(options.prefix).await?,
    };
    on_listed(queues.len());
    let permits = Arc::new(Semaphore::new(options.concurrency.max(1)));
    let mut tasks: JoinSet<(usize, Result<ListedQueue, ClientError>)> = JoinSet::new();
    for (index, queue) in queues.into_iter().enumerate() {
        let sqs = sqs.clone();
        let permits = permits.clone();
        let retry = options.retry.cloned();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (index, read(&sqs, queue, retry.as_ref()).await)
        });
    }
    let mut found: Vec<Option<ListedQueue>> = Vec::new();
    let mut vanished = 0;
    while let Some(done) = tasks.join_next().await {
        let (index, result) = done.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        if found.len() <= index {
            found.resize_with(index + 1, || None);
        }
        match result {
            Ok(queue) => found[index] = Some(queue),
            Err(ClientError::QueueNotFound { .. }) => vanished += 1,
            Err(err) => return Err(err),
        }
    }
    let mut queues: Vec<ListedQueue> = found.into_iter().flatten().collect();
    queues.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Listing { queues, vanished })
}

async fn read(
    sqs: &Sqs,
    queue: QueueRef,
    retry: Option<&RetryPolicy>,
) -> Result<ListedQueue, ClientError> {
    let attrs = match retry {
        Some(retry) => retry.request(|| sqs.attributes(&queue)).await.result?,
        None => sqs.attributes(&queue).await?,
    };
    let policy = attrs.redrive_policy();
    Ok(ListedQueue {
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        fifo: attrs.is_fifo() || queue.is_fifo(),
        dlq: policy.as_ref().map(|p| {
            name_from_arn(&p.dead_letter_target_arn)
                .unwrap_or(&p.dead_letter_target_arn)
                .to_string()
        }),
        max_receive_count: policy.map(|p| p.max_receive_count),
        name: queue.name,
        url: queue.url,
    })
}
