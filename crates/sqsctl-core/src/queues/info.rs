//! What `queue info` shows of a queue: every attribute, its redrive policy with the depth of its
//! dead-letter queue, the queues that use it as theirs, and its tags, read in one go.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueAttributes, QueueRef, Sqs};

/// The dead-letter queue a redrive policy names, and its depth (zero when it does not exist).
#[derive(Debug, Serialize)]
pub struct Depth {
    pub name: String,
    pub url: Option<String>,
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    pub exists: bool,
}

/// A queue's redrive policy, decoded.
#[derive(Debug, Serialize)]
pub struct RedriveInfo {
    pub dead_letter_target_arn: String,
    pub max_receive_count: u32,
    pub dead_letter_queue: Depth,
}

/// A queue described.
#[derive(Debug, Serialize)]
pub struct QueueInfo {
    pub name: String,
    pub url: String,
    pub fifo: bool,
    pub visible: u64,
    pub in_flight: u64,
    pub delayed: u64,
    /// Always true: `visible`, `in_flight` and `delayed` (here and in the redrive policy's
    /// dead-letter queue) are SQS's `ApproximateNumberOfMessages*`, which lag behind.
    pub approximate_counts: bool,
    /// Every attribute as SQS reports it.
    pub attributes: QueueAttributes,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redrive_policy: Option<RedriveInfo>,
    /// Queues whose redrive policy points at this one (it is their DLQ).
    pub dead_letter_sources: Vec<String>,
    /// The queue's tags; `null` when the credentials may not read them.
    pub tags: Option<BTreeMap<String, String>>,
}

async fn depth_of(sqs: &Sqs, arn: &str) -> Result<Depth, ClientError> {
    let name = name_from_arn(arn).unwrap_or(arn).to_string();
    match sqs.resolve_arn(arn).await {
        Ok(queue) => {
            let attrs = sqs.attributes(&queue).await?;
            Ok(Depth {
                name,
                url: Some(queue.url),
                visible: attrs.visible(),
                in_flight: attrs.in_flight(),
                delayed: attrs.delayed(),
                exists: true,
            })
        }
        Err(ClientError::QueueNotFound { .. }) => Ok(Depth {
            name,
            url: None,
            visible: 0,
            in_flight: 0,
            delayed: 0,
            exists: false,
        }),
        Err(err) => Err(err),
    }
}

/// A queue described, and why its tags are missing when they are.
#[derive(Debug)]
pub struct Described {
    pub info: QueueInfo,
    /// The error code that refused reading the tags (reading them is a permission of its own,
    /// sqs:ListQueueTags); the rest is still worth showing without them.
    pub tags_denied: Option<String>,
}

/// Reads everything `queue info` shows of `queue`.
pub async fn describe(sqs: &Sqs, queue: QueueRef) -> Result<Described, ClientError> {
    let attrs = sqs.attributes(&queue).await?;
    let redrive_policy = match attrs.redrive_policy() {
        Some(policy) => Some(RedriveInfo {
            dead_letter_queue: depth_of(sqs, &policy.dead_letter_target_arn).await?,
            dead_letter_target_arn: policy.dead_letter_target_arn,
            max_receive_count: policy.max_receive_count,
        }),
        None => None,
    };
    let mut dead_letter_sources: Vec<String> = sqs
        .dead_letter_sources(&queue)
        .await?
        .into_iter()
        .map(|q| q.name)
        .collect();
    dead_letter_sources.sort();
    let (tags, tags_denied) = match sqs.tags(&queue).await {
        Ok(tags) => (Some(tags), None),
        Err(ClientError::Auth { code, .. }) if code.starts_with("AccessDenied") => {
            (None, Some(code))
        }
        Err(err) => return Err(err),
    };
    let info = QueueInfo {
        tags,
        fifo: attrs.is_fifo() || queue.is_fifo(),
        approximate_counts: true,
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        name: queue.name,
        url: queue.url,
        attributes: attrs,
        redrive_policy,
        dead_letter_sources,
    };
    Ok(Described { info, tags_denied })
}
