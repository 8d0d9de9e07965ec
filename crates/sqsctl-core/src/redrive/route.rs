//! Which queues a redrive moves between: the DLQ, and the destination named with it or found as
//! the DLQ's one source queue (ListDeadLetterSourceQueues). What could never work (no source to
//! return to, a choice among several, the DLQ itself as destination, queues of different types) is
//! refused before anything moves, as a [`RouteError`] that names the queues; the caller says how to
//! choose otherwise.

use crate::client::{ClientError, QueueAttributes, QueueRef, Sqs};

/// The DLQ and where its messages go, with both queues' attributes.
#[derive(Debug, Clone)]
pub struct Route {
    pub dlq: QueueRef,
    pub dlq_attrs: QueueAttributes,
    pub destination: QueueRef,
    pub destination_attrs: QueueAttributes,
    /// The DLQ serves several source queues and no destination was named (accepted with
    /// [`RouteRequest::several_sources`]): each message goes back to its own source queue, and
    /// `destination` is the first of them, checked in their stead.
    pub per_source: bool,
}

/// The queues a redrive was asked to move between.
#[derive(Debug, Clone, Copy)]
pub struct RouteRequest<'a> {
    /// The DLQ by name, URL or ARN.
    pub dlq: &'a str,
    /// The destination by name, URL or ARN; without it, the DLQ's source queue.
    pub to: Option<&'a str>,
    /// Accept a DLQ of several source queues when no destination is named (a preview counts each
    /// message toward its own source); otherwise that is [`RouteError::SeveralSources`].
    pub several_sources: bool,
    /// The client that reaches the destination named with `to`, when it is not the DLQ's (another
    /// region, account or endpoint).
    pub destination_sqs: Option<&'a Sqs>,
}

/// A DLQ that serves several source queues, for a move that returns each message to its own.
#[derive(Debug, Clone)]
pub struct SharedDlq {
    pub dlq: QueueRef,
    pub dlq_attrs: QueueAttributes,
    pub sources: Vec<QueueRef>,
}

/// A route the engine refuses.
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    #[error(
        "no queue uses {dlq} as its dead-letter queue, so there is no source to return its messages to"
    )]
    NoSource { dlq: String },
    #[error("{dlq} is the dead-letter queue of {} queues: {}", sources.len(), sources.join(", "))]
    SeveralSources { dlq: String, sources: Vec<String> },
    #[error("the destination is the dead-letter queue itself")]
    DestinationIsSource,
    #[error(
        "{dlq} is {} queue but {destination} is {} queue; messages can only move between queues of the same type",
        kind(*dlq_fifo),
        kind(!*dlq_fifo)
    )]
    MixedTypes {
        dlq: String,
        destination: String,
        /// The DLQ is FIFO (and the destination is not), or the other way round.
        dlq_fifo: bool,
    },
    #[error(transparent)]
    Client(#[from] ClientError),
}

fn kind(fifo: bool) -> &'static str {
    if fifo { "a FIFO" } else { "a standard" }
}

/// Finds and checks the route of `request`.
pub async fn route(sqs: &Sqs, request: RouteRequest<'_>) -> Result<Route, RouteError> {
    let mut per_source = false;
    let dlq = sqs.lookup(request.dlq).await?;
    let dlq_attrs = sqs.attributes(&dlq).await?;
    let to_sqs = request.destination_sqs.unwrap_or(sqs);
    let destination = match request.to {
        Some(to) => to_sqs.lookup(to).await?,
        None => {
            let mut sources = sqs.dead_letter_sources(&dlq).await?;
            match sources.len() {
                0 => return Err(RouteError::NoSource { dlq: dlq.name }),
                1 => sources.remove(0),
                _ if request.several_sources => {
                    per_source = true;
                    sources.remove(0)
                }
                _ => {
                    return Err(RouteError::SeveralSources {
                        dlq: dlq.name,
                        sources: sources.into_iter().map(|q| q.name).collect(),
                    });
                }
            }
        }
    };
    let destination_attrs = to_sqs.attributes(&destination).await?;
    if dlq.url == destination.url {
        return Err(RouteError::DestinationIsSource);
    }
    if dlq_attrs.is_fifo() != destination_attrs.is_fifo() {
        return Err(RouteError::MixedTypes {
            dlq: dlq.name,
            destination: destination.name,
            dlq_fifo: dlq_attrs.is_fifo(),
        });
    }
    Ok(Route {
        dlq,
        dlq_attrs,
        destination,
        destination_attrs,
        per_source,
    })
}

/// The DLQ `dlq` (name, URL or ARN) with its source queues, when it serves more than one; `None`
/// when it serves one or none.
pub async fn shared_dlq(sqs: &Sqs, dlq: &str) -> Result<Option<SharedDlq>, ClientError> {
    let dlq = sqs.lookup(dlq).await?;
    let sources = sqs.dead_letter_sources(&dlq).await?;
    if sources.len() < 2 {
        return Ok(None);
    }
    let dlq_attrs = sqs.attributes(&dlq).await?;
    Ok(Some(SharedDlq {
        dlq,
        dlq_attrs,
        sources,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_queues() {
        let several = RouteError::SeveralSources {
            dlq: "dlq".into(),
            sources: vec!["a".into(), "b".into()],
        };
        assert_eq!(
            several.to_string(),
            "dlq is the dead-letter queue of 2 queues: a, b"
        );
        let mixed = RouteError::MixedTypes {
            dlq: "dlq.fifo".into(),
            destination: "work".into(),
            dlq_fifo: true,
        };
        assert_eq!(
            mixed.to_string(),
            "dlq.fifo is a FIFO queue but work is a standard queue; messages can only move between queues of the same type"
        );
    }
}
