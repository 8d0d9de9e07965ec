//! The engine of `queue set`: the change that wanted attribute values, a dead-letter queue and a
//! redrive allow policy make to a queue, worked out against its settings ([`plan`]) so that it can
//! be shown and confirmed, then made ([`apply`]) with one SetQueueAttributes. A dead-letter queue
//! to create is created only when the change is applied.

use std::collections::BTreeMap;

use super::attributes::{Change, FIFO_ONLY, diff};
use super::dlq::{DlqError, DlqLookup, arn_of, create_dlq, find_dlq, redrive_policy};
use crate::client::{ClientError, QueueAttributes, QueueRef, QueueSpec, Sqs};

/// What a change does to the redrive policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DlqChange {
    /// Send messages to `queue` (a name, URL or ARN) after `max_receive` receives; `create` it
    /// when it does not exist.
    Set {
        queue: String,
        max_receive: u32,
        create: bool,
    },
    /// Remove the redrive policy.
    Remove,
}

/// Which source queues may use the queue as their dead-letter queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllowChange {
    /// These queues (names, URLs or ARNs), at most
    /// [`MAX_ALLOWED_SOURCES`](super::attributes::MAX_ALLOWED_SOURCES).
    Sources(Vec<String>),
    All,
    None,
}

/// The settings wanted.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    /// New values of plain attributes, each within SQS's limits
    /// ([`check_attribute`](super::attributes::check_attribute)); an empty value removes one.
    pub attributes: BTreeMap<String, String>,
    pub dlq: Option<DlqChange>,
    pub allow: Option<AllowChange>,
}

/// A dead-letter queue the change creates once it is applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDlq {
    pub name: String,
    pub fifo: bool,
}

/// A change worked out, not yet made.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The queue's attributes before the change.
    pub before: QueueAttributes,
    /// The attributes that differ from what is wanted.
    pub changes: Vec<Change>,
    pub pending_dlq: Option<PendingDlq>,
}

impl Plan {
    /// Nothing would change: every value is as wanted, and no dead-letter queue is missing.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.pending_dlq.is_none()
    }
}

/// Why a change cannot be worked out.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("{attribute} is an attribute of FIFO queues, and `{queue}` is a standard queue")]
    FifoOnly { attribute: String, queue: String },
    /// The dead-letter queue does not exist, and it was not to be created.
    #[error("the dead-letter queue `{0}` does not exist")]
    DlqMissing(String),
    #[error(transparent)]
    Dlq(#[from] DlqError),
    /// Looking up a source queue of the allow policy failed (it may not exist).
    #[error("{0}")]
    Source(ClientError),
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// Works out the change to `queue`.
pub async fn plan(sqs: &Sqs, queue: &QueueRef, wanted: &Wanted) -> Result<Plan, PlanError> {
    let before = sqs.attributes(queue).await?;
    let fifo = before.is_fifo() || queue.is_fifo();
    if !fifo
        && let Some(name) = wanted
            .attributes
            .keys()
            .find(|n| FIFO_ONLY.contains(&n.as_str()))
    {
        return Err(PlanError::FifoOnly {
            attribute: name.clone(),
            queue: queue.name.clone(),
        });
    }
    let mut attributes = wanted.attributes.clone();
    let mut pending_dlq = None;
    match &wanted.dlq {
        Some(DlqChange::Set {
            queue: text,
            max_receive,
            create,
        }) => {
            let (arn, pending) = dlq_arn(sqs, queue, &before, text, fifo, *create).await?;
            pending_dlq = pending;
            attributes.insert("RedrivePolicy".into(), redrive_policy(&arn, *max_receive));
        }
        Some(DlqChange::Remove) => {
            attributes.insert("RedrivePolicy".into(), String::new());
        }
        None => {}
    }
    if let Some(allow) = &wanted.allow {
        let policy = match allow {
            AllowChange::All => serde_json::json!({ "redrivePermission": "allowAll" }),
            AllowChange::None => serde_json::json!({ "redrivePermission": "denyAll" }),
            AllowChange::Sources(sources) => {
                let mut arns = Vec::new();
                for source in sources {
                    let source = sqs.lookup(source).await.map_err(PlanError::Source)?;
                    arns.push(arn_of(sqs, &source).await?);
                }
                serde_json::json!({ "redrivePermission": "byQueue", "sourceQueueArns": arns })
            }
        };
        attributes.insert("RedriveAllowPolicy".into(), policy.to_string());
    }
    Ok(Plan {
        changes: diff(&before, &attributes),
        before,
        pending_dlq,
    })
}

/// The ARN of the dead-letter queue. A missing queue is an error unless `create`: then its ARN is
/// the source's with the name replaced, and it is created only when the change is applied.
async fn dlq_arn(
    sqs: &Sqs,
    source: &QueueRef,
    source_attrs: &QueueAttributes,
    text: &str,
    fifo: bool,
    create: bool,
) -> Result<(String, Option<PendingDlq>), PlanError> {
    let name = match find_dlq(sqs, text, fifo, Some(&source.name)).await? {
        DlqLookup::Found { arn, .. } => return Ok((arn, None)),
        DlqLookup::Missing { name } => name,
    };
    if !create {
        return Err(PlanError::DlqMissing(name));
    }
    if matches!(QueueSpec::parse(text), Ok(QueueSpec::Arn { .. })) {
        return Ok((text.to_string(), Some(PendingDlq { name, fifo })));
    }
    let source_arn = source_attrs
        .arn()
        .ok_or_else(|| DlqError::NoArn(source.name.clone()))?;
    let prefix = source_arn
        .rsplit_once(':')
        .map(|(prefix, _)| prefix)
        .unwrap_or(source_arn);
    Ok((format!("{prefix}:{name}"), Some(PendingDlq { name, fifo })))
}

/// Makes the change: creates the pending dead-letter queue (`on_dlq_created` hears of it), sets
/// the attributes that change, and reads the queue's attributes after.
pub async fn apply(
    sqs: &Sqs,
    queue: &QueueRef,
    plan: &Plan,
    on_dlq_created: impl FnOnce(&QueueRef),
) -> Result<QueueAttributes, ClientError> {
    if let Some(pending) = &plan.pending_dlq {
        let dlq = create_dlq(sqs, &pending.name, pending.fifo).await?;
        on_dlq_created(&dlq);
    }
    let update: BTreeMap<String, String> = plan
        .changes
        .iter()
        .map(|c| (c.attribute.clone(), c.after.clone().unwrap_or_default()))
        .collect();
    if !update.is_empty() {
        sqs.set_attributes(queue, update).await?;
    }
    sqs.attributes(queue).await
}
