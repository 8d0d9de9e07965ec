//! The engine of `queue create`: creates a queue, with its dead-letter queue when one is named
//! (found, or created of the queue's type, before the queue that points at it). An existing queue
//! with the same attributes is left as it is; SQS itself decides whether the existing queue is what
//! was asked for. A run that cannot create the queue leaves nothing behind: the queue is looked up
//! before anything is created, and a dead-letter queue created for it is deleted again.

use std::collections::BTreeMap;

use super::dlq::{DlqError, EnsuredDlq, ensure_dlq, redrive_policy};
use crate::client::{ClientError, QueueRef, Sqs};

/// A queue to create.
#[derive(Debug, Clone, Default)]
pub struct NewQueue {
    pub name: String,
    pub fifo: bool,
    /// Queue attributes, `FifoQueue` included for a FIFO queue.
    pub attributes: BTreeMap<String, String>,
    pub tags: BTreeMap<String, String>,
    /// The dead-letter queue (a name, URL or ARN) and the receives before a message moves there.
    pub dlq: Option<(String, u32)>,
}

/// What happened on the way, as it happened.
#[derive(Debug)]
pub enum CreateEvent<'a> {
    /// The queue exists already.
    Exists(&'a QueueRef),
    /// The dead-letter queue was created.
    DlqCreated(&'a QueueRef),
    /// The queue could not be created, and the dead-letter queue created for it was deleted.
    DlqDeleted(&'a QueueRef),
    /// The queue could not be created, and deleting the dead-letter queue created for it failed.
    DlqLeft(&'a QueueRef),
}

/// The queue, created or as it was.
#[derive(Debug, Clone)]
pub struct Created {
    pub queue: QueueRef,
    /// It existed with these attributes.
    pub existed: bool,
    pub dlq: Option<EnsuredDlq>,
}

/// Why the queue was not created.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// A queue of that name exists with other attributes.
    #[error("a queue named `{0}` already exists with different attributes")]
    ExistsOtherwise(String),
    /// The name is not a queue name.
    #[error("{0}")]
    InvalidName(String),
    #[error(transparent)]
    Dlq(#[from] DlqError),
    /// CreateQueue failed.
    #[error("could not create `{name}`: {source}")]
    Create {
        name: String,
        source: Box<ClientError>,
    },
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// Creates the queue (and its dead-letter queue).
pub async fn create(
    sqs: &Sqs,
    new: &NewQueue,
    mut on_event: impl FnMut(CreateEvent<'_>),
) -> Result<Created, CreateError> {
    let existing = match sqs.resolve(&new.name).await {
        Ok(queue) => Some(queue),
        Err(ClientError::QueueNotFound { .. }) => None,
        Err(ClientError::InvalidInput(message)) => return Err(CreateError::InvalidName(message)),
        Err(err) => return Err(err.into()),
    };
    if let Some(queue) = &existing {
        on_event(CreateEvent::Exists(queue));
    }
    let mut attributes = new.attributes.clone();
    let mut dlq = None;
    if let Some((dlq_name, max_receive)) = &new.dlq {
        if existing.is_some()
            && matches!(
                sqs.resolve(dlq_name).await,
                Err(ClientError::QueueNotFound { .. })
            )
        {
            // An existing queue cannot already point at a queue that does not exist.
            return Err(CreateError::ExistsOtherwise(new.name.clone()));
        }
        let ensured = ensure_dlq(sqs, dlq_name, new.fifo).await?;
        attributes.insert(
            "RedrivePolicy".to_string(),
            redrive_policy(&ensured.arn, *max_receive),
        );
        if ensured.created {
            on_event(CreateEvent::DlqCreated(&ensured.queue));
        }
        dlq = Some(ensured);
    }
    let queue = match sqs
        .create_tagged_queue(&new.name, attributes, new.tags.clone())
        .await
    {
        Ok(queue) => queue,
        Err(source) => {
            if let Some(dlq) = dlq.as_ref().filter(|d| d.created) {
                match sqs.delete_queue(&dlq.queue).await {
                    Ok(()) => on_event(CreateEvent::DlqDeleted(&dlq.queue)),
                    Err(_) => on_event(CreateEvent::DlqLeft(&dlq.queue)),
                }
            }
            return Err(CreateError::Create {
                name: new.name.clone(),
                source: Box::new(source),
            });
        }
    };
    Ok(Created {
        queue,
        existed: existing.is_some(),
        dlq,
    })
}
