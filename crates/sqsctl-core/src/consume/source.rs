//! The queue a run consumes ([`Source`]): read once, before the run, for what the worker needs to
//! know of it (FIFO or not, its visibility timeout, its dead-letter queue).

use std::time::Duration;

use super::outcome::DeadLetter;
use crate::client::{ClientError, QueueRef, RetryPolicy, Sqs};
use crate::interrupt::Interrupt;

/// The queue a run consumes, and what the run needs to know of it.
#[derive(Debug, Clone)]
pub struct Source {
    pub queue: QueueRef,
    /// Messages run one per group at a time, in lanes.
    pub fifo: bool,
    /// The queue's visibility timeout (at least a second).
    pub visibility: Duration,
    /// Where the queue's redrive policy sends a message that keeps failing.
    pub dead_letter: Option<DeadLetter>,
}

impl Source {
    /// Reads the queue's attributes (retried, until Ctrl-C).
    pub async fn inspect(
        sqs: &Sqs,
        queue: QueueRef,
        interrupt: &Interrupt,
    ) -> Result<Source, ClientError> {
        let policy = RetryPolicy::default().stopped_by(interrupt.clone());
        let attributes = policy.request(|| sqs.attributes(&queue)).await.result?;
        let dead_letter = attributes.redrive_policy().map(|policy| DeadLetter {
            queue: policy
                .dead_letter_target_arn
                .rsplit(':')
                .next()
                .unwrap_or(&policy.dead_letter_target_arn)
                .to_string(),
            max_receive_count: u64::from(policy.max_receive_count),
        });
        Ok(Source {
            fifo: queue.is_fifo() || attributes.is_fifo(),
            visibility: Duration::from_secs(attributes.visibility_timeout().unwrap_or(30).max(1)),
            dead_letter,
            queue,
        })
    }
}
