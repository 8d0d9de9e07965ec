//! Reading a queue without consuming it.
//!
//! SQS has no real peek: the only way to see a message is to receive it, which hides it for a
//! visibility timeout and raises its receive count. [`scan`] receives with a visibility timeout long
//! enough to see each message once (the "hold"), hands every batch to the caller as it arrives, and
//! then makes every held message visible again at once, whatever happened in between (an error, a
//! Ctrl-C, the caller stopping early). [`guard`] is the rule every reader applies first: on a queue
//! with a redrive policy, a receive can be the one that moves a message to the dead-letter queue, so
//! reading needs the user's explicit consent.
//!
//! What a scan can see is bounded by SQS itself: on a FIFO queue, while messages of a group are held
//! no further message of that group is delivered, so a scan sees the head of each group (up to ten
//! per receive), never a whole group that is deeper than that.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::{ClientError, QueueAttributes, QueueRef, ReceiveOptions, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;

/// How long messages are held by default while a scan runs, in seconds.
pub const DEFAULT_HOLD_SECONDS: i32 = 30;

/// Long-poll wait of the receive that decides that nothing more is deliverable, in seconds.
const FINAL_WAIT_SECONDS: i32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum PeekError {
    #[error(
        "reading {queue} could move messages to its dead-letter queue {dlq}: every read counts as a \
         receive, and the queue sends a message there after {max_receive_count} receives"
    )]
    WouldDeadLetter {
        queue: String,
        dlq: String,
        max_receive_count: u32,
    },
    #[error(transparent)]
    Client(#[from] ClientError),
}

impl PeekError {
    pub fn hint(&self) -> Option<String> {
        match self {
            PeekError::WouldDeadLetter { .. } => Some(
                "pass --force to read it anyway (each message read gets one receive closer to the \
                 dead-letter queue), or read an export with --input"
                    .to_string(),
            ),
            PeekError::Client(e) => e.hint(),
        }
    }
}

/// What to read.
#[derive(Debug, Clone, Copy)]
pub struct PeekOptions {
    /// Stop after this many messages (`None`: everything deliverable).
    pub max: Option<usize>,
    /// Visibility timeout while the scan runs, in seconds; messages are released when it ends.
    pub hold_seconds: i32,
    /// Read even when a receive could move a message to the dead-letter queue.
    pub force: bool,
}

impl Default for PeekOptions {
    fn default() -> Self {
        PeekOptions {
            max: Some(10),
            hold_seconds: DEFAULT_HOLD_SECONDS,
            force: false,
        }
    }
}

/// What a scan saw and left behind.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Scanned {
    /// Distinct messages handed to the caller.
    pub seen: u64,
    /// `ApproximateNumberOfMessages` when the scan started.
    pub visible_at_start: u64,
    /// `ApproximateNumberOfMessagesNotVisible` when the scan started (held by consumers).
    pub in_flight_at_start: u64,
    /// Held messages that could not be made visible again; they reappear when the hold runs out.
    pub release_failed: u64,
    /// The scan stopped on Ctrl-C.
    pub interrupted: bool,
    /// The queue had nothing more to deliver (as opposed to stopping at `max` or by the caller).
    pub exhausted: bool,
}

/// Refuses, unless `force`, to read a queue whose redrive policy could move a message to its
/// dead-letter queue because of the read.
pub fn guard(queue: &QueueRef, attrs: &QueueAttributes, force: bool) -> Result<(), PeekError> {
    match attrs.redrive_policy() {
        Some(policy) if !force => Err(PeekError::WouldDeadLetter {
            queue: queue.name.clone(),
            dlq: super::queue::name_from_arn(&policy.dead_letter_target_arn)
                .unwrap_or(&policy.dead_letter_target_arn)
                .to_string(),
            max_receive_count: policy.max_receive_count,
        }),
        _ => Ok(()),
    }
}

/// Reads `queue` without consuming it: see the module documentation. `on_batch` gets each batch of
/// newly seen messages (with their receipt handles, valid until the scan ends) and may stop the
/// scan with `ControlFlow::Break`. Every held message is released before this returns, also on
/// error.
pub async fn scan<F>(
    sqs: &Sqs,
    queue: &QueueRef,
    attrs: &QueueAttributes,
    options: &PeekOptions,
    interrupt: &Interrupt,
    mut on_batch: F,
) -> Result<Scanned, PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    guard(queue, attrs, options.force)?;
    let mut scanned = Scanned {
        visible_at_start: attrs.visible(),
        in_flight_at_start: attrs.in_flight(),
        ..Scanned::default()
    };
    let mut held: Vec<String> = Vec::new();
    let mut seen_ids: HashSet<String> = HashSet::new();
    let outcome = read(
        sqs,
        queue,
        options,
        interrupt,
        &mut scanned,
        &mut held,
        &mut seen_ids,
        &mut on_batch,
    )
    .await;
    let handles: Vec<&str> = held.iter().map(String::as_str).collect();
    // Releasing is attempted even after a failed read; a failure to release is reported, not fatal,
    // because the messages come back by themselves when the hold runs out.
    match sqs.release(queue, &handles).await {
        Ok(failed) => scanned.release_failed = failed as u64,
        Err(_) => scanned.release_failed = handles.len() as u64,
    }
    outcome.map(|()| scanned)
}

#[allow(clippy::too_many_arguments)]
async fn read<F>(
    sqs: &Sqs,
    queue: &QueueRef,
    options: &PeekOptions,
    interrupt: &Interrupt,
    scanned: &mut Scanned,
    held: &mut Vec<String>,
    seen_ids: &mut HashSet<String>,
    on_batch: &mut F,
) -> Result<(), PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let limit = options.max.unwrap_or(usize::MAX) as u64;
    // How many messages the scan expects to find before it confirms the end with a long poll.
    let mut expected = scanned.visible_at_start;
    loop {
        if interrupt.is_set() {
            scanned.interrupted = true;
            return Ok(());
        }
        let remaining = limit.saturating_sub(scanned.seen);
        if remaining == 0 {
            return Ok(());
        }
        // Short polls while the queue still holds unseen messages; one long poll to be sure
        // nothing more comes once the visible depth at the start has been covered.
        let wait = if scanned.seen < expected {
            0
        } else {
            FINAL_WAIT_SECONDS
        };
        let request = ReceiveOptions {
            max_messages: remaining.min(10) as i32,
            wait_seconds: wait,
            visibility_timeout: Some(options.hold_seconds.max(1)),
        };
        let batch = tokio::select! {
            batch = sqs.receive(queue, request) => batch?,
            () = interrupt.wait() => {
                scanned.interrupted = true;
                return Ok(());
            }
        };
        if batch.is_empty() {
            if wait > 0 {
                scanned.exhausted = true;
                return Ok(());
            }
            // A short poll may sample only some of SQS's servers: confirm with a long poll.
            expected = scanned.seen;
            continue;
        }
        let mut fresh = Vec::with_capacity(batch.len());
        for message in batch {
            if let Some(handle) = &message.receipt_handle {
                held.push(handle.clone());
            }
            // A message seen before came back because the hold ran out; it is not new.
            let new = match &message.message_id {
                Some(id) => seen_ids.insert(id.clone()),
                None => true,
            };
            if new {
                fresh.push(message);
            }
        }
        if fresh.is_empty() {
            continue;
        }
        scanned.seen += fresh.len() as u64;
        if on_batch(fresh).is_break() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue_with(attributes: &[(&str, &str)]) -> (QueueRef, QueueAttributes) {
        let queue = QueueRef::from_url("http://127.0.0.1:9324/000000000000/orders");
        let attrs = QueueAttributes(
            attributes
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        (queue, attrs)
    }

    #[test]
    fn guard_refuses_a_queue_with_a_redrive_policy_unless_forced() {
        let policy = r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:orders-dlq","maxReceiveCount":"5"}"#;
        let (queue, attrs) = queue_with(&[("RedrivePolicy", policy)]);
        match guard(&queue, &attrs, false) {
            Err(PeekError::WouldDeadLetter {
                dlq,
                max_receive_count,
                ..
            }) => {
                assert_eq!(dlq, "orders-dlq");
                assert_eq!(max_receive_count, 5);
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(guard(&queue, &attrs, true).is_ok());
    }

    #[test]
    fn guard_lets_a_queue_without_a_redrive_policy_be_read() {
        let (queue, attrs) = queue_with(&[("VisibilityTimeout", "30")]);
        assert!(guard(&queue, &attrs, false).is_ok());
    }
}
