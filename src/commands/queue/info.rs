//! `sqsctl queue info`: every attribute of a queue, its redrive policy decoded, the depth of its
//! dead-letter queue, the queues that use it as theirs, and its tags. Durations, sizes and
//! timestamps read in human units beside the raw values in text and table output; JSON keeps the
//! raw values.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueAttributes, Sqs};
use crate::commands::common::resolve_queue;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::{Document, Fields};
use crate::text::attribute_with_units;

#[derive(Debug, Serialize)]
struct Depth {
    name: String,
    url: Option<String>,
    visible: u64,
    in_flight: u64,
    delayed: u64,
    exists: bool,
}

#[derive(Debug, Serialize)]
struct RedriveInfo {
    dead_letter_target_arn: String,
    max_receive_count: u32,
    dead_letter_queue: Depth,
}

#[derive(Debug, Serialize)]
struct QueueInfo {
    name: String,
    url: String,
    fifo: bool,
    visible: u64,
    in_flight: u64,
    delayed: u64,
    /// Every attribute as SQS reports it.
    attributes: QueueAttributes,
    #[serde(skip_serializing_if = "Option::is_none")]
    redrive_policy: Option<RedriveInfo>,
    /// Queues whose redrive policy points at this one (it is their DLQ).
    dead_letter_sources: Vec<String>,
    /// The queue's tags; `null` when the credentials may not read them.
    tags: Option<BTreeMap<String, String>>,
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

pub(super) async fn info(ctx: &Context, text: &str) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
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
    let tags = match sqs.tags(&queue).await {
        Ok(tags) => Some(tags),
        // Reading tags is a permission of its own (sqs:ListQueueTags); the rest is still worth
        // showing without them.
        Err(ClientError::Auth { code, .. }) if code.starts_with("AccessDenied") => {
            ctx.printer.warn(format!(
                "the tags of `{}` are not shown: these credentials may not read them ({code})",
                queue.name
            ));
            None
        }
        Err(err) => return Err(err.into()),
    };
    let info = QueueInfo {
        tags,
        fifo: attrs.is_fifo() || queue.is_fifo(),
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        name: queue.name,
        url: queue.url,
        attributes: attrs,
        redrive_policy,
        dead_letter_sources,
    };
    if let Some(policy) = &info.redrive_policy
        && !policy.dead_letter_queue.exists
    {
        ctx.printer.warn(format!(
            "the dead-letter queue `{}` of the redrive policy does not exist: messages over the receive limit have nowhere to go",
            policy.dead_letter_queue.name
        ));
    }
    ctx.printer.emit(&Document::fields(&info))?;
    Ok(ExitStatus::Success)
}

impl Fields for QueueInfo {
    const KIND: &'static str = "queue_info";
    const TITLE: &'static str = "attribute";

    fn fields(&self) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = vec![
            ("Name".into(), self.name.clone()),
            ("URL".into(), self.url.clone()),
            (
                "Type".into(),
                if self.fifo { "FIFO" } else { "standard" }.into(),
            ),
            (
                "Messages".into(),
                format!(
                    "{} visible, {} in flight, {} delayed",
                    self.visible, self.in_flight, self.delayed
                ),
            ),
        ];
        if let Some(policy) = &self.redrive_policy {
            let dlq = &policy.dead_letter_queue;
            rows.push((
                "Redrive policy".into(),
                format!(
                    "to `{}` after {}",
                    dlq.name,
                    crate::text::plural(u64::from(policy.max_receive_count), "receive")
                ),
            ));
            rows.push((
                "Dead-letter queue".into(),
                if dlq.exists {
                    format!(
                        "{}: {} visible, {} in flight, {} delayed",
                        dlq.name, dlq.visible, dlq.in_flight, dlq.delayed
                    )
                } else {
                    format!("{} (does not exist)", dlq.name)
                },
            ));
        } else {
            rows.push(("Redrive policy".into(), "none".into()));
        }
        if !self.dead_letter_sources.is_empty() {
            rows.push((
                "Dead-letter queue of".into(),
                self.dead_letter_sources.join(", "),
            ));
        }
        if let Some(tags) = &self.tags {
            let shown: Vec<String> = tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
            rows.push((
                "Tags".into(),
                if shown.is_empty() {
                    "none".into()
                } else {
                    shown.join(", ")
                },
            ));
        }
        for (name, value) in &self.attributes.0 {
            rows.push((name.clone(), attribute_with_units(name, value)));
        }
        rows
    }
}
