//! How `browse` reads a queue: as `peek` reads it, through `sqsctl local`'s inspection endpoint
//! when it answers (nothing received) and otherwise by receives under the same read guard, with
//! what the read cost and left behind in words for the title and the status line.

use std::ops::ControlFlow;

use crate::client::peek::{self, PeekOptions, ReadPath};
use crate::client::{QueueRef, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::text::plural;

/// What a read found.
pub struct Read {
    pub messages: Vec<MessageRecord>,
    /// What reading costs, for the title.
    pub note: String,
    /// What the read left to say (messages near the dead-letter queue, counts that lag).
    pub status: String,
    pub inspected: bool,
    pub interrupted: bool,
}

/// Why the guard refused, with what lets it read.
fn refusal(err: peek::PeekError) -> String {
    match err {
        peek::PeekError::WouldDeadLetter { .. } | peek::PeekError::LeftAtLimit { .. } => {
            format!(
                "{err}; `sqsctl browse --force` reads it anyway (each read uses one receive of each message)"
            )
        }
        other => other.to_string(),
    }
}

/// Reads up to `max` messages of `queue` as `peek` does: through `sqsctl local`'s inspection
/// endpoint when it answers (nothing received), otherwise by receives under the read guard.
pub async fn read(
    sqs: &Sqs,
    queue: &QueueRef,
    max: u64,
    force: bool,
    interrupt: &Interrupt,
) -> Result<Read, String> {
    let attrs = sqs.attributes(queue).await.map_err(|e| e.to_string())?;
    let path = peek::weigh(sqs, queue, &attrs, force)
        .await
        .map_err(refusal)?;
    let note = match &path {
        ReadPath::Inspect => "reads are free (sqsctl local's inspection: nothing received)".into(),
        ReadPath::Receive(Some(cost)) => format!(
            "each read (R) uses 1 of each message's {} before `{}`",
            plural(u64::from(cost.max_receive_count), "receive"),
            cost.dlq
        ),
        ReadPath::Receive(None) => "each read (R) is one receive of each message".into(),
    };
    let request = peek::ReadRequest {
        sqs,
        queue,
        attrs: &attrs,
        options: PeekOptions {
            max: Some(usize::try_from(max).unwrap_or(usize::MAX)),
            force,
            ..PeekOptions::default()
        },
        interrupt,
    };
    let mut messages = Vec::new();
    let show = usize::try_from(max).unwrap_or(usize::MAX);
    let (scanned, _) = peek::scan_matching(&request, path, None, show, |batch| {
        messages.extend(batch.iter().cloned().map(|mut m| {
            // Receipt handles stop working once the read released the messages.
            m.receipt_handle = None;
            m
        }));
        ControlFlow::Continue(())
    })
    .await
    .map_err(refusal)?;
    let mut status = format!(
        "read {} of about {} visible",
        scanned.seen, scanned.visible_at_start
    );
    if scanned.in_flight_at_start > 0 {
        status.push_str(&format!(
            " ({} in flight, not shown)",
            scanned.in_flight_at_start
        ));
    }
    if let Some(cost) = &scanned.cost {
        if let Some(line) = cost.describe_at_limit(scanned.at_limit) {
            status.push_str(&format!("; {line}"));
        } else if let Some(line) = cost.describe_near(scanned.near_dead_letter) {
            status.push_str(&format!("; {line}"));
        }
    }
    if let Some(moved) = scanned.dead_letter_warning(&queue.name) {
        status.push_str(&format!("; {moved}"));
    }
    if scanned.release_failed > 0 {
        status.push_str(&format!(
            "; {} could not be made visible again (they come back within {} s)",
            plural(scanned.release_failed, "message"),
            peek::DEFAULT_HOLD_SECONDS
        ));
    }
    Ok(Read {
        messages,
        note,
        status,
        inspected: scanned.inspected,
        interrupted: scanned.interrupted,
    })
}
