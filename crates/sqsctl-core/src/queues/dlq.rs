//! Dead-letter queue wiring, as `queue create --dlq` and `queue set --dlq` do it: a dead-letter
//! queue named by its source's owner is looked up and must be of its source's type (SQS requires
//! the two to match); one sqsctl creates keeps messages the longest SQS allows
//! ([`limits::dead_letter_queue_attributes`]), to leave room for a redrive.

use crate::client::{ClientError, QueueRef, RedrivePolicy, Sqs, limits};

/// A dead-letter queue named for a source queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DlqLookup {
    /// It exists.
    Found { queue: QueueRef, arn: String },
    /// It does not exist: the name to create it under.
    Missing { name: String },
}

/// A dead-letter queue that exists now, and whether this run created it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnsuredDlq {
    pub queue: QueueRef,
    pub arn: String,
    pub created: bool,
}

/// Why a dead-letter queue could not be used or made.
#[derive(Debug, thiserror::Error)]
pub enum DlqError {
    /// The queue, or the name of one to create, is of the other type than its source.
    #[error("{}", wrong_type(dlq, *exists, *dlq_fifo, *fifo, of.as_deref()))]
    WrongType {
        dlq: String,
        /// A queue that exists (rather than a name to create).
        exists: bool,
        dlq_fifo: bool,
        fifo: bool,
        /// The source queue, when there is one yet.
        of: Option<String>,
    },
    /// The name, URL or ARN given is not one.
    #[error("{0}")]
    InvalidName(String),
    #[error("SQS did not report the ARN of `{0}`")]
    NoArn(String),
    /// Creating it failed.
    #[error("could not create the dead-letter queue `{name}`: {source}")]
    Create {
        name: String,
        source: Box<ClientError>,
    },
    #[error(transparent)]
    Client(#[from] ClientError),
}

fn wrong_type(dlq: &str, exists: bool, dlq_fifo: bool, fifo: bool, of: Option<&str>) -> String {
    let kind = |fifo: bool| if fifo { "FIFO" } else { "standard" };
    let what = if exists { "queue" } else { "name" };
    let of = match of {
        Some(name) => format!("the {} queue `{name}`", kind(fifo)),
        None => format!("a {} queue", kind(fifo)),
    };
    let rename = if fifo && !exists {
        format!(": name it `{dlq}.fifo`")
    } else {
        String::new()
    };
    format!(
        "`{dlq}` is a {} {what}; the dead-letter queue of {of} must be {} too{rename}",
        kind(dlq_fifo),
        kind(fifo)
    )
}

/// Looks up the dead-letter queue `text` (a name, URL or ARN) for a source queue of this type
/// (`of` names it when there is one yet), refusing a queue or a name of the other type.
pub async fn find_dlq(
    sqs: &Sqs,
    text: &str,
    fifo: bool,
    of: Option<&str>,
) -> Result<DlqLookup, DlqError> {
    let check = |dlq: &str, exists: bool, dlq_fifo: bool| {
        if dlq_fifo == fifo {
            Ok(())
        } else {
            Err(DlqError::WrongType {
                dlq: dlq.to_string(),
                exists,
                dlq_fifo,
                fifo,
                of: of.map(str::to_string),
            })
        }
    };
    match sqs.resolve(text).await {
        Ok(queue) => {
            let attrs = sqs.attributes(&queue).await?;
            check(&queue.name, true, attrs.is_fifo() || queue.is_fifo())?;
            let arn = attrs
                .arn()
                .map(str::to_string)
                .ok_or_else(|| DlqError::NoArn(queue.name.clone()))?;
            Ok(DlqLookup::Found { queue, arn })
        }
        Err(ClientError::QueueNotFound { queue: name, .. }) => {
            check(&name, false, name.ends_with(".fifo"))?;
            Ok(DlqLookup::Missing { name })
        }
        Err(ClientError::InvalidInput(message)) => Err(DlqError::InvalidName(message)),
        Err(err) => Err(err.into()),
    }
}

/// Creates a dead-letter queue of this type, keeping messages the longest SQS allows.
pub async fn create_dlq(sqs: &Sqs, name: &str, fifo: bool) -> Result<QueueRef, ClientError> {
    sqs.create_queue(name, limits::dead_letter_queue_attributes(fifo))
        .await
}

/// Finds the dead-letter queue `text` for a source queue of this type, or creates it.
pub async fn ensure_dlq(sqs: &Sqs, text: &str, fifo: bool) -> Result<EnsuredDlq, DlqError> {
    match find_dlq(sqs, text, fifo, None).await? {
        DlqLookup::Found { queue, arn } => Ok(EnsuredDlq {
            queue,
            arn,
            created: false,
        }),
        DlqLookup::Missing { name } => {
            let queue = create_dlq(sqs, &name, fifo)
                .await
                .map_err(|source| DlqError::Create {
                    name,
                    source: Box::new(source),
                })?;
            let arn = arn_of(sqs, &queue).await?;
            Ok(EnsuredDlq {
                queue,
                arn,
                created: true,
            })
        }
    }
}

/// The ARN of a queue, as SQS reports it.
pub async fn arn_of(sqs: &Sqs, queue: &QueueRef) -> Result<String, DlqError> {
    sqs.attributes(queue)
        .await?
        .arn()
        .map(str::to_string)
        .ok_or_else(|| DlqError::NoArn(queue.name.clone()))
}

/// The `RedrivePolicy` attribute that sends a message to `dead_letter_target_arn` after
/// `max_receive_count` receives.
pub fn redrive_policy(dead_letter_target_arn: &str, max_receive_count: u32) -> String {
    let policy = RedrivePolicy {
        dead_letter_target_arn: dead_letter_target_arn.to_string(),
        max_receive_count,
    };
    serde_json::to_string(&policy).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redrive_policy_reads_back_as_the_same_policy() {
        let text = redrive_policy("arn:aws:sqs:us-east-1:000000000000:orders-dlq", 5);
        assert_eq!(
            text,
            r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:orders-dlq","maxReceiveCount":5}"#
        );
    }

    #[test]
    fn a_dead_letter_queue_of_the_other_type_says_what_to_name_it() {
        assert_eq!(
            wrong_type("jobs-dlq", false, false, true, Some("jobs.fifo")),
            "`jobs-dlq` is a standard name; the dead-letter queue of the FIFO queue `jobs.fifo` must be FIFO too: name it `jobs-dlq.fifo`"
        );
        assert_eq!(
            wrong_type("dlq.fifo", true, true, false, None),
            "`dlq.fifo` is a FIFO queue; the dead-letter queue of a standard queue must be standard too"
        );
    }
}
