//! One worker of a run: receives a batch from the DLQ, chooses what moves, waits for `--rate`
//! tokens, sends, and hands what was confirmed to [`commit`](super::commit); the batch stays hidden
//! in the DLQ (its visibility extended) for as long as the work lasts.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::json;

use super::commit::{Commit, commit};
use super::state::{Shared, handle, journal, message_id};
use super::summary::{Counters, FailedMessage};
use crate::client::{MAX_BATCH_ENTRIES, ReceiveOptions, RetryPolicy, backoff, is_transient};
use crate::message::MessageRecord;
use crate::redrive::journal::line;
use crate::redrive::plan::{DedupMode, Plan};
use crate::redrive::send::{self, Sent};

/// Consecutive failed receives (after the SDK's own retries) before the run gives up.
pub(super) const MAX_RECEIVE_ERRORS: u32 = 8;
/// One worker: receive a batch, choose what moves, wait for `--rate` tokens, send, journal, delete;
/// again until the round is over. A worker holds one batch at a time, so `--concurrency` is the
/// number of batches in flight (received and not yet deleted).
pub(super) async fn worker(shared: Arc<Shared>) {
    let mut receive_errors = 0u32;
    loop {
        if shared.round_over() {
            return;
        }
        let want = shared.wanted();
        if want == 0 {
            shared.stop.store(true, Ordering::SeqCst);
            return;
        }
        let seen_completions = shared.completions.load(Ordering::SeqCst);
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: 1,
            visibility_timeout: Some(shared.plan.visibility_timeout),
        };
        // A receive unanswered when the grace period runs out is given up: whatever it would have
        // returned stays hidden until its visibility timeout ends, as after a lost answer.
        let received = tokio::select! {
            biased;
            received = shared.sqs.receive(&shared.plan.source, options) => received,
            () = shared.interrupt.grace_over() => return,
        };
        let batch = match received {
            Ok(batch) => {
                receive_errors = 0;
                batch
            }
            Err(err) => {
                receive_errors += 1;
                if !is_transient(&err) || receive_errors >= MAX_RECEIVE_ERRORS {
                    shared.fail(format!("receiving from {}: {err}", shared.plan.source.name));
                    return;
                }
                tokio::time::sleep(backoff(receive_errors)).await;
                continue;
            }
        };
        if batch.is_empty() {
            // Done when no batch is being moved and none finished while this poll ran: otherwise
            // a finished batch may have unblocked a FIFO group, so poll again.
            if shared.processing.load(Ordering::SeqCst) == 0
                && shared.completions.load(Ordering::SeqCst) == seen_completions
            {
                shared.drained.store(true, Ordering::SeqCst);
                return;
            }
            continue;
        }
        if shared.stopping() {
            // Received as the run was stopping (Ctrl-C during the receive): no new work.
            shared
                .held
                .lock()
                .extend(batch.iter().map(|m| handle(m).to_string()));
            return;
        }
        shared.processing.fetch_add(1, Ordering::SeqCst);
        Counters::add(&shared.counters.received, batch.len());
        let unanswered = Mutex::new(Vec::new());
        let work = async {
            if let Some(pending) = process(&shared, batch, &unanswered).await {
                commit(&shared, pending).await;
            }
        };
        // After Ctrl-C the batch may finish within the grace period; past it, the batch is
        // abandoned, and the messages whose send had no answer are journaled as `unknown`.
        let finished = tokio::select! {
            biased;
            () = work => true,
            () = shared.interrupt.grace_over() => false,
        };
        if !finished {
            let ids = std::mem::take(&mut *unanswered.lock());
            abandon(&shared, ids).await;
        }
        shared.completions.fetch_add(1, Ordering::SeqCst);
        shared.processing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Journals the messages of an abandoned batch whose send had no answer: they may or may not have
/// been sent. They stay hidden in the DLQ until their visibility timeout ends (releasing them could
/// not undo a send), and `--resume` waits for them.
pub(super) async fn abandon(shared: &Shared, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    Counters::add(&shared.counters.outcome_unknown, ids.len());
    let mut lines = Vec::new();
    for id in &ids {
        lines.extend(line("unknown", &json!({ "id": id })));
    }
    journal(shared, lines, true).await;
}

/// One received message on its way.
pub(super) struct Moving {
    pub(super) original: MessageRecord,
    pub(super) outgoing: MessageRecord,
}

/// The message as it is sent to the destination.
pub(super) fn outgoing(plan: &Plan, message: &MessageRecord) -> MessageRecord {
    let group_id = if plan.fifo {
        message.effective_group_id().map(str::to_string)
    } else {
        None
    };
    let dedup_id = if plan.fifo {
        match plan.dedup {
            DedupMode::Keep => message
                .effective_dedup_id()
                .or(message.message_id.as_deref())
                .map(str::to_string),
            DedupMode::MessageId => message.message_id.clone(),
            DedupMode::New => Some(uuid::Uuid::new_v4().simple().to_string()),
        }
    } else {
        None
    };
    MessageRecord {
        message_id: None,
        body: message.body.clone(),
        message_attributes: message.message_attributes.clone(),
        group_id,
        dedup_id,
        // A trace stays one trace across the detour through the dead-letter queue.
        trace_header: message.trace_header.clone(),
        delay_seconds: plan.delay_seconds.filter(|_| !plan.fifo),
        attributes: Default::default(),
        receipt_handle: None,
    }
}

/// Chooses what moves, sends it, and returns what remains to be committed (`None` when the batch
/// held nothing to send or delete).
pub(super) async fn process(
    shared: &Arc<Shared>,
    batch: Vec<MessageRecord>,
    unanswered: &Mutex<Vec<String>>,
) -> Option<Commit> {
    let mut moving: Vec<Moving> = Vec::new();
    let mut delete_only: Vec<MessageRecord> = Vec::new();
    let mut hold: Vec<String> = Vec::new();
    let mut matching: Vec<MessageRecord> = Vec::new();
    for message in batch {
        let id = message_id(&message);
        if shared.selector.names_id(id) {
            shared.named_seen.lock().insert(id);
        }
        if shared.parked.lock().contains(id) {
            hold.push(handle(&message).to_string());
        } else if shared.sent_before.lock().contains(id) {
            delete_only.push(message);
        } else if shared.arrived_later(&message) {
            if shared.later_seen.lock().insert(id) {
                Counters::add(&shared.counters.arrived_later, 1);
            }
            hold.push(handle(&message).to_string());
        } else if !shared.selector.matches(&message) {
            if shared.skipped_seen.lock().insert(id) {
                Counters::add(&shared.counters.skipped, 1);
            }
            hold.push(handle(&message).to_string());
        } else {
            matching.push(message);
        }
    }
    let granted = shared.claim(matching.len());
    for (index, message) in matching.into_iter().enumerate() {
        if index < granted {
            let outgoing = outgoing(&shared.plan, &message);
            moving.push(Moving {
                original: message,
                outgoing,
            });
        } else {
            hold.push(handle(&message).to_string());
        }
    }
    if let Some(wanted) = shared.selector.wanted_ids()
        && Counters::get(&shared.counters.selected) + moving.len() as u64 >= wanted as u64
    {
        shared.stop.store(true, Ordering::SeqCst);
    }
    shared.held.lock().extend(hold);
    if moving.is_empty() && delete_only.is_empty() {
        return None;
    }
    let handles: Vec<String> = moving
        .iter()
        .map(|m| handle(&m.original).to_string())
        .chain(delete_only.iter().map(|m| handle(m).to_string()))
        .collect();
    // Journaled as held before anything else happens to them, so that after a crash `--resume`
    // knows the run held these messages and waits for them to be visible again.
    let mut lines = Vec::new();
    for m in &moving {
        lines.extend(line(
            "received",
            &json!({ "id": message_id(&m.original), "group": m.outgoing.group_id }),
        ));
    }
    if !lines.is_empty() {
        journal(shared, lines, false).await;
    }
    // `--rate` counts messages sent, so the tokens are taken for what this batch sends, once it
    // is known; the batch stays hidden while it waits. Receives take no tokens, so the run ends
    // as soon as the DLQ is found empty. Ctrl-C while waiting sends nothing: the whole batch is
    // made visible again when the run ends.
    if let Some(limiter) = &shared.limiter
        && !moving.is_empty()
    {
        let wait = async {
            tokio::select! {
                () = limiter.acquire(moving.len()) => true,
                () = shared.interrupt.wait() => false,
            }
        };
        if !keep_hidden(shared, &handles, wait).await {
            let mut lines = Vec::new();
            for m in &moving {
                lines.extend(line("released", &json!({ "id": message_id(&m.original) })));
            }
            journal(shared, lines, false).await;
            shared.held.lock().extend(handles);
            return None;
        }
    }
    Counters::add(&shared.counters.selected, moving.len());
    *unanswered.lock() = moving
        .iter()
        .map(|m| message_id(&m.original).to_string())
        .collect();
    let (lines, confirmed) = keep_hidden(shared, &handles, send_batch(shared, &moving)).await;
    unanswered.lock().clear();
    let count = confirmed.len();
    let to_delete = confirmed.into_iter().chain(delete_only).collect();
    Some(Commit {
        lines,
        to_delete,
        confirmed: count,
        handles,
    })
}

/// Runs `work` while keeping the batch hidden in the DLQ: its visibility timeout is extended at
/// half its length for as long as the work lasts.
pub(super) async fn keep_hidden<F: std::future::Future>(
    shared: &Shared,
    handles: &[String],
    work: F,
) -> F::Output {
    tokio::pin!(work);
    let timeout = shared.plan.visibility_timeout;
    let period = Duration::from_secs_f64((f64::from(timeout) / 2.0).max(0.5));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            output = &mut work => return output,
            _ = ticker.tick() => extend(shared, handles, timeout).await,
        }
    }
}

pub(super) async fn extend(shared: &Shared, handles: &[String], timeout: i32) {
    for chunk in handles.chunks(MAX_BATCH_ENTRIES) {
        let entries: Vec<(&str, i32)> = chunk.iter().map(|h| (h.as_str(), timeout)).collect();
        let _ = shared
            .sqs
            .change_visibility_retrying(&shared.plan.source, &entries, &RetryPolicy::default())
            .await;
    }
}

/// Sends the selected messages; returns the journal lines of the outcomes and the messages that
/// were confirmed. What failed is parked: hidden until the run ends, so it is not tried again (and,
/// on FIFO, the rest of its group stays behind it), then visible in the DLQ.
pub(super) async fn send_batch(
    shared: &Shared,
    moving: &[Moving],
) -> (Vec<u8>, Vec<MessageRecord>) {
    let outgoing: Vec<MessageRecord> = moving.iter().map(|m| m.outgoing.clone()).collect();
    let results = send::send_all(
        &shared.sqs,
        &shared.plan.destination,
        shared.plan.fifo,
        &outgoing,
        &shared.counters.retries,
    )
    .await;
    let mut lines = Vec::new();
    let mut confirmed = Vec::new();
    let mut failed_handles = Vec::new();
    for (m, result) in moving.iter().zip(&results) {
        let id = message_id(&m.original);
        let reason = match result {
            Sent::Ok(new_id) => {
                lines.extend(line("sent", &json!({ "id": id, "new_id": new_id })));
                if !new_id.is_empty() {
                    shared.sent_as.lock().insert(new_id);
                }
                confirmed.push(m.original.clone());
                continue;
            }
            Sent::Failed(reason) | Sent::Unknown(reason) => reason.clone(),
            Sent::Blocked => "not sent: an earlier message of its group could not be sent".into(),
        };
        lines.extend(line("failed", &json!({ "id": id, "reason": reason })));
        shared.parked.lock().insert(id);
        failed_handles.push(handle(&m.original).to_string());
        shared.report(FailedMessage {
            message_id: id.to_string(),
            group_id: m.outgoing.group_id.clone(),
            reason,
        });
        Counters::add(&shared.counters.failed, 1);
    }
    shared.held.lock().extend(failed_handles);
    (lines, confirmed)
}
