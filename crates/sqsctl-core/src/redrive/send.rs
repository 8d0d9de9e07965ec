//! Sending one received batch to the destination: every entry of every response is read, entries
//! that may still succeed are retried under the client's one retry policy, and the outcome of each
//! message is returned in input order. On FIFO queues the messages go out in waves, at most one
//! message of a group per request, and a group stops at its first message that cannot be sent: a
//! later message of a group is never sent before an earlier one, whatever fails in between.

use crate::client::Delete;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::client::{EntryResult, MAX_PAYLOAD_BYTES, QueueRef, RetryPolicy, Sqs, plan_batches};
use crate::message::MessageRecord;

/// What happened to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Confirmed by SQS, with the destination's new message id.
    Ok(String),
    /// Not sent, and retrying will not help (or the retries ran out).
    Failed(String),
    /// Perhaps sent: an attempt may have been applied, and none confirmed it.
    Unknown(String),
    /// Not attempted: an earlier message of its FIFO group failed.
    Blocked,
}

/// Sends `records` (already shaped for the destination) and returns one outcome per record.
/// `retries` counts the entries sent again; `possible_duplicates` the copies a confirmed send may
/// have left besides the one confirmed (standard destinations only: a FIFO destination drops a
/// re-send with the same deduplication id within 5 minutes).
pub async fn send_all(
    sqs: &Sqs,
    destination: &QueueRef,
    fifo: bool,
    records: &[MessageRecord],
    retries: &AtomicU64,
    possible_duplicates: &AtomicU64,
) -> Vec<Sent> {
    let possible_duplicates = (!fifo).then_some(possible_duplicates);
    let mut results: Vec<Option<Sent>> = vec![None; records.len()];
    for wave in waves(records, fifo) {
        let wave: Vec<usize> = wave.into_iter().filter(|&i| results[i].is_none()).collect();
        // A wave of every record (always so on a standard queue) is sent as it is, uncopied.
        let copies: Vec<MessageRecord>;
        let chosen: &[MessageRecord] = if wave.len() == records.len() {
            records
        } else {
            copies = wave.iter().map(|&i| records[i].clone()).collect();
            &copies
        };
        for range in plan_batches(chosen, MAX_PAYLOAD_BYTES) {
            let outcomes = send_with_retries(
                sqs,
                destination,
                &chosen[range.clone()],
                retries,
                possible_duplicates,
            )
            .await;
            for (offset, outcome) in outcomes.into_iter().enumerate() {
                results[wave[range.start + offset]] = Some(outcome);
            }
        }
        if fifo {
            block_after_failures(records, &mut results);
        }
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or(Sent::Blocked))
        .collect()
}

/// The order in which records go out. Standard queues: one wave of everything. FIFO: wave `k`
/// holds the `k`-th message of each group, in the order the groups first appear.
fn waves(records: &[MessageRecord], fifo: bool) -> Vec<Vec<usize>> {
    if !fifo {
        return vec![(0..records.len()).collect()];
    }
    let mut position: HashMap<&str, usize> = HashMap::new();
    let mut waves: Vec<Vec<usize>> = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let group = record.group_id.as_deref().unwrap_or_default();
        let slot = position.entry(group).or_insert(0);
        if waves.len() <= *slot {
            waves.push(Vec::new());
        }
        waves[*slot].push(index);
        *slot += 1;
    }
    waves
}

/// Marks every not-yet-sent message of a group that has a failed message as blocked.
fn block_after_failures(records: &[MessageRecord], results: &mut [Option<Sent>]) {
    let failed_groups: Vec<&str> = records
        .iter()
        .zip(results.iter())
        .filter(|(_, r)| {
            matches!(
                r,
                Some(Sent::Failed(_)) | Some(Sent::Unknown(_)) | Some(Sent::Blocked)
            )
        })
        .map(|(m, _)| m.group_id.as_deref().unwrap_or_default())
        .collect();
    if failed_groups.is_empty() {
        return;
    }
    for (record, result) in records.iter().zip(results.iter_mut()) {
        if result.is_none()
            && failed_groups.contains(&record.group_id.as_deref().unwrap_or_default())
        {
            *result = Some(Sent::Blocked);
        }
    }
}

async fn send_with_retries(
    sqs: &Sqs,
    destination: &QueueRef,
    records: &[MessageRecord],
    retries: &AtomicU64,
    possible_duplicates: Option<&AtomicU64>,
) -> Vec<Sent> {
    let outcome = sqs
        .send_batch_retrying(destination, records, &RetryPolicy::default())
        .await;
    retries.fetch_add(outcome.retried, Ordering::Relaxed);
    outcome
        .entries
        .into_iter()
        .map(|entry| match entry {
            EntryResult::Done {
                message_id,
                ambiguous_attempts,
                ..
            } => {
                if let Some(possible) = possible_duplicates {
                    possible.fetch_add(u64::from(ambiguous_attempts), Ordering::Relaxed);
                }
                Sent::Ok(message_id.unwrap_or_default())
            }
            EntryResult::Failed { code, message } => Sent::Failed(format!("{code}: {message}")),
            EntryResult::Unknown { code, message } => Sent::Unknown(format!(
                "outcome unknown (SQS may have sent it): {code}: {message}"
            )),
        })
        .collect()
}

/// Deletes by receipt handle, retrying entries and requests that may still succeed. Returns, per
/// handle, `None` when deleted or the reason it was not (or may not have been).
pub async fn delete_with_retries(
    sqs: &Sqs,
    queue: &QueueRef,
    handles: &[&str],
    retries: &AtomicU64,
) -> Vec<Option<String>> {
    let outcome = sqs
        .batch_retrying(Delete, queue, handles, &RetryPolicy::default())
        .await;
    retries.fetch_add(outcome.retried, Ordering::Relaxed);
    outcome.entries.iter().map(EntryResult::reason).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouped(groups: &[&str]) -> Vec<MessageRecord> {
        groups
            .iter()
            .map(|g| MessageRecord {
                group_id: Some(g.to_string()),
                ..MessageRecord::with_body("x")
            })
            .collect()
    }

    #[test]
    fn fifo_waves_hold_one_message_per_group_in_order() {
        let records = grouped(&["a", "b", "a", "a", "c", "b"]);
        assert_eq!(
            waves(&records, true),
            vec![vec![0, 1, 4], vec![2, 5], vec![3]]
        );
        assert_eq!(waves(&records, false), vec![vec![0, 1, 2, 3, 4, 5]]);
    }

    #[test]
    fn a_failure_blocks_the_rest_of_its_group_only() {
        let records = grouped(&["a", "b", "a", "b"]);
        let mut results = vec![
            Some(Sent::Failed("x".into())),
            Some(Sent::Ok("1".into())),
            None,
            None,
        ];
        block_after_failures(&records, &mut results);
        assert_eq!(results[2], Some(Sent::Blocked));
        assert_eq!(results[3], None);
    }
}
