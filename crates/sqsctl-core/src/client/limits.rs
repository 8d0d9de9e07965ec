//! SQS's limits on the durations a request or a queue attribute carries, in one place: the
//! command line's ranges, the queue attribute checks and the engines' own checks all read them.

use std::time::Duration;

/// Longest long-poll wait of a ReceiveMessage (`WaitTimeSeconds`,
/// `ReceiveMessageWaitTimeSeconds`).
pub const MAX_WAIT: Duration = Duration::from_secs(20);
/// Longest visibility timeout (`VisibilityTimeout`, ChangeMessageVisibility): 12 hours.
pub const MAX_VISIBILITY: Duration = Duration::from_secs(43_200);
/// Longest delivery delay (`DelaySeconds`, per message or per queue): 15 minutes.
pub const MAX_DELAY: Duration = Duration::from_secs(900);
/// Shortest message retention (`MessageRetentionPeriod`): 1 minute.
pub const MIN_RETENTION: Duration = Duration::from_secs(60);
/// Longest message retention (`MessageRetentionPeriod`): 14 days. A dead-letter queue that sqsctl
/// creates keeps messages this long, to leave room for a redrive: SQS counts a standard message's
/// age from its first send, not from its move to the DLQ.
pub const MAX_RETENTION: Duration = Duration::from_secs(1_209_600);
/// Shortest and longest `KmsDataKeyReusePeriodSeconds`: 1 minute to 24 hours.
pub const MIN_KMS_REUSE: Duration = Duration::from_secs(60);
pub const MAX_KMS_REUSE: Duration = Duration::from_secs(86_400);

/// The attributes of a dead-letter queue that sqsctl creates for a queue of this type.
pub fn dead_letter_queue_attributes(fifo: bool) -> std::collections::BTreeMap<String, String> {
    let mut attributes = std::collections::BTreeMap::new();
    if fifo {
        attributes.insert("FifoQueue".to_string(), "true".to_string());
    }
    attributes.insert(
        "MessageRetentionPeriod".to_string(),
        MAX_RETENTION.as_secs().to_string(),
    );
    attributes
}
