//! One worker of a run: receives a batch from the DLQ, chooses what moves, waits for `--rate`
//! tokens, sends, and hands what was confirmed to [`commit`](super::commit); the batch stays hidden
//! in the DLQ (its visibility extended) for as long as the work lasts.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::commit::{Commit, record};
use super::rewriting::rewrite_all;
use super::state::{
    Held, Shared, handle, hidden_until_ms, journal_note, journal_sync, journal_write, message_id,
    now_ms,
};
use super::summary::{Counters, FailedMessage};
use super::twins::Twin;
use crate::client::{MAX_BATCH_ENTRIES, ReceiveOptions, backoff, is_transient};
use crate::message::MessageRecord;
use crate::redrive::journal::Lines;
use crate::redrive::plan::{DedupMode, Plan};
use crate::redrive::send::{self, Sent};

/// A worker's long poll: the shortest SQS offers, so a drained DLQ costs one second at the end.
pub(super) const POLL_WAIT: Duration = Duration::from_secs(1);

/// Consecutive failed receives (each after the retry policy's own attempts) before the run gives up.
pub(super) const MAX_RECEIVE_ERRORS: u32 = 8;
/// One worker: receive a batch, choose what moves, wait for `--rate` tokens, send, journal, delete;
/// again until the round is over. The delete of a batch (its sends written to the journal; the
/// delete waits for them to be on disk) runs while the worker receives and sends its next one, so
/// a worker holds at most two batches: one being deleted and one whose sends may not be journaled
/// yet. Only the latter can be sent twice after a `kill -9` (both after a crash of the machine).
/// Worker `index` works while the run's concurrency is above it, and waits otherwise.
pub(super) async fn worker(shared: Arc<Shared>, index: usize) {
    let mut receive_errors = 0u32;
    let mut deleting: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        if !shared.wait_turn(index).await {
            break;
        }
        let want = shared.wanted();
        if want == 0 {
            shared.stop.store(true, Ordering::SeqCst);
            break;
        }
        let sent = Instant::now();
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: Some(POLL_WAIT.as_secs() as i32),
            visibility_timeout: Some(shared.plan.visibility_timeout),
        };
        // A receive unanswered when the grace period runs out is given up: whatever it would have
        // returned stays hidden until its visibility timeout ends, as after a lost answer.
        let received = tokio::select! {
            biased;
            received = shared.sqs.receive_retrying(
                &shared.plan.source,
                options,
                shared.receive_attributes,
                &shared.receive_policy,
            ) => {
                shared.lost_receive(received.ambiguous);
                received.result
            }
            () = shared.interrupt.grace_over() => {
                shared.lost_receive(1);
                break;
            }
        };
        let batch = match received {
            Ok(batch) => {
                receive_errors = 0;
                if shared.plan.copy
                    && shared.plan.fifo
                    && batch.len() == want
                    && let Some(group) = batch.last().and_then(|m| m.group_id.clone())
                {
                    // A full receive may have stopped inside this group.
                    shared.cut_groups.lock().insert(group);
                }
                batch
            }
            // At the DLQ's limit of messages in flight (SQS says so to short polls; a long poll
            // just gets nothing): nothing to receive until messages leave flight. A move's
            // deletes make room; a copy finds out below that it cannot take more.
            Err(err) if err.code() == Some(OVER_LIMIT) => {
                receive_errors = 0;
                Vec::new()
            }
            Err(err) => {
                receive_errors += 1;
                if !is_transient(&err) || receive_errors >= MAX_RECEIVE_ERRORS {
                    shared.fail(format!("receiving from {}: {err}", shared.plan.source.name));
                    break;
                }
                tokio::time::sleep(backoff(receive_errors)).await;
                continue;
            }
        };
        if batch.is_empty() {
            let returned = Instant::now();
            if shared.plan.copy && at_in_flight_limit(&shared).await {
                // The copy holds what it copied until it ends, so no message leaves flight: stop
                // taking messages, finish the batches in progress, release them all at the end.
                shared.in_flight_limit.store(true, Ordering::SeqCst);
                shared.stop.store(true, Ordering::SeqCst);
                break;
            }
            if let Some(previous) = deleting.take_if(|delete| !delete.is_finished()) {
                // Its delete may unblock a FIFO group: poll again once it is done.
                let _ = previous.await;
                continue;
            }
            // Done when this poll saw the end of every batch (see `Shared::covers`): the last
            // batches finish while the workers' final polls wait, so the end costs one poll.
            if shared.covers(sent, POLL_WAIT, returned) {
                shared.drained.store(true, Ordering::SeqCst);
                break;
            }
            continue;
        }
        if shared.stopping() {
            // Received as the run was stopping (Ctrl-C during the receive): no new work. In flight
            // until released, which a second Ctrl-C may prevent: `--resume` then waits for them.
            let until = hidden_until_ms(shared.plan.visibility_timeout);
            let mut lines = Lines::default();
            for message in &batch {
                lines.push_until("in_flight", &[("id", Some(message_id(message)))], until);
            }
            journal_note(&shared, lines.into_bytes());
            shared.held.lock().extend(batch.iter().map(Held::tracked));
            break;
        }
        shared.processing.fetch_add(1, Ordering::SeqCst);
        Counters::add(&shared.counters.received, batch.len());
        let unanswered = Mutex::new(Vec::new());
        let work = async {
            match process(&shared, batch, &unanswered).await {
                Some(pending) => record(&shared, pending).await,
                None => None,
            }
        };
        // After Ctrl-C the batch may finish within the grace period; past it, the batch is
        // abandoned, and the messages whose send had no answer are journaled as `unknown`.
        let recorded = tokio::select! {
            biased;
            recorded = work => Ok(recorded),
            () = shared.interrupt.grace_over() => Err(()),
        };
        match recorded {
            Ok(Some(delete)) => {
                // One delete in flight per worker: the previous one ends before this one starts.
                if let Some(previous) = deleting.take() {
                    let _ = previous.await;
                }
                let shared = shared.clone();
                deleting = Some(tokio::spawn(async move {
                    tokio::select! {
                        biased;
                        () = delete.run(&shared) => {}
                        // What was not deleted stays hidden; the journal shows it sent, and
                        // `--resume` deletes it.
                        () = shared.interrupt.grace_over() => {}
                    }
                    shared.batch_done();
                }));
            }
            Ok(None) => shared.batch_done(),
            Err(()) => {
                let ids = std::mem::take(&mut *unanswered.lock());
                abandon(&shared, ids).await;
                shared.batch_done();
            }
        }
    }
    if let Some(previous) = deleting.take() {
        let _ = previous.await;
    }
}

/// SQS's error code for a receive from a queue that holds its limit of messages in flight.
const OVER_LIMIT: &str = "OverLimit";

/// Whether the DLQ of a copy that holds messages is at its limit of messages in flight. A long poll
/// at the limit returns nothing, as at the end of the DLQ; only a short poll is answered with
/// `OverLimit`, so one asks. Should it get a message instead, its visibility timeout of 0 leaves it
/// visible (its receive count one higher). FIFO queues answer nothing at their limit either way.
async fn at_in_flight_limit(shared: &Shared) -> bool {
    if shared.plan.fifo || shared.held.lock().is_empty() {
        return false;
    }
    let probe = ReceiveOptions {
        max_messages: 1,
        wait_seconds: Some(0),
        visibility_timeout: Some(0),
    };
    let answer = shared
        .sqs
        .receive_retrying(
            &shared.plan.source,
            probe,
            shared.receive_attributes,
            &shared.receive_policy,
        )
        .await;
    matches!(answer.result, Err(err) if err.code() == Some(OVER_LIMIT))
}

/// Journals the messages of an abandoned batch whose send had no answer: they may or may not have
/// been sent. They stay hidden in the DLQ until their visibility timeout ends (releasing them could
/// not undo a send), and `--resume` waits for them.
pub(super) async fn abandon(shared: &Shared, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    Counters::add(&shared.counters.outcome_unknown, ids.len());
    let mut lines = Lines::default();
    for id in &ids {
        lines.push("unknown", &[("id", Some(id))]);
    }
    journal_sync(shared, lines.into_bytes()).await;
}

/// The message as it is sent to the destination. Its body and attributes are taken from the
/// received message, which keeps them only when the archive needs a copy.
pub(crate) fn outgoing(plan: &Plan, message: &mut MessageRecord, keep: bool) -> MessageRecord {
    // A FIFO group, or a fair standard queue's tenant: either way the message keeps it.
    let group_id = message.effective_group_id().map(str::to_string);
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
    let (body, message_attributes) = if keep {
        (message.body.clone(), message.message_attributes.clone())
    } else {
        (
            std::mem::take(&mut message.body),
            std::mem::take(&mut message.message_attributes),
        )
    };
    MessageRecord {
        message_id: None,
        body,
        message_attributes,
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
    // Taken once the receive answered, so no later than SQS's own deadline for the batch.
    let until = hidden_until_ms(shared.plan.visibility_timeout);
    let mut delete_only: Vec<MessageRecord> = Vec::new();
    let mut hold: Vec<Held> = Vec::new();
    let mut matching: Vec<MessageRecord> = Vec::with_capacity(batch.len());
    let mut twins = Twins::default();
    for message in batch {
        let id = message_id(&message);
        if shared.selector.names_id(id) {
            shared.named_seen.lock().insert(id);
        }
        let delivered = |take| {
            shared
                .deliveries
                .lock()
                .delivered(id, handle(&message), take)
        };
        if let Some(twin) = delivered(false) {
            twins.add(shared, message, twin, until);
        } else if shared.parked.lock().contains(id)
            || (shared.plan.copy && shared.sent_before.lock().contains(id))
        {
            // Copying, a message sent already (by this run or an earlier one) is never deleted.
            hold.push(Held::tracked(&message));
        } else if shared.sent_before.lock().contains(id) {
            match delivered(true) {
                Some(twin) => twins.add(shared, message, twin, until),
                None => delete_only.push(message),
            }
        } else if shared.arrived_later(&message) {
            if shared.later_seen.lock().insert(id) {
                Counters::add(&shared.counters.arrived_later, 1);
            }
            hold.push(Held::untracked(&message));
        } else if !shared.selector.matches(&message) {
            if shared.skipped_seen.lock().insert(id) {
                Counters::add(&shared.counters.skipped, 1);
            }
            hold.push(Held::untracked(&message));
        } else {
            match delivered(true) {
                Some(twin) => twins.add(shared, message, twin, until),
                None => matching.push(message),
            }
        }
    }
    twins.delete_copies(shared).await;
    let granted = shared.claim(matching.len());
    for message in matching.drain(granted.min(matching.len())..) {
        shared.deliveries.lock().given_back(message_id(&message));
        hold.push(Held::untracked(&message));
    }
    let mut originals = matching;
    if let Some(wanted) = shared.selector.wanted_ids()
        && Counters::get(&shared.counters.selected) + originals.len() as u64 >= wanted as u64
    {
        shared.stop.store(true, Ordering::SeqCst);
    }
    if !hold.is_empty() {
        shared.held.lock().extend(hold);
    }
    if originals.is_empty() && delete_only.is_empty() {
        return None;
    }
    let hidden = Hidden {
        handles: originals
            .iter()
            .chain(&delete_only)
            .map(|m| handle(m).to_string())
            .collect(),
        ids: originals
            .iter()
            .chain(&delete_only)
            .map(|m| message_id(m).to_string())
            .collect(),
        // The receive's answer came after SQS started the timeout: counted a little earlier.
        deadline_ms: AtomicU64::new(
            until.saturating_sub(lapse_margin_ms(shared.plan.visibility_timeout)),
        ),
        lapsed: Mutex::new(Vec::new()),
    };
    // Journaled as held, with the time they are hidden until, before anything else happens to
    // them, so that after a crash `--resume` knows the run held these messages and waits for them
    // to be visible again. Written to the file before any of them is sent (not synced: the `sent`
    // lines that follow are, and these lines are on disk no later than they are), so that a
    // `kill -9` during a send leaves each message it sent journaled, as of unknown outcome.
    let keep_copy = shared.archive.is_some();
    let shaped: Vec<MessageRecord> = originals
        .iter_mut()
        .map(|original| self::outgoing(&shared.plan, original, keep_copy))
        .collect();
    // A rewrite (an `--exec` most of all) may take a while: the batch stays hidden meanwhile,
    // and is journaled as held first, so that after a `kill -9` during the rewrite `--resume`
    // waits for it (its `received` lines, with the digests, come once it is rewritten).
    let rewritten = if shared.rewriter.is_active() {
        let mut held = Lines::default();
        for original in &originals {
            held.push_until("in_flight", &[("id", Some(message_id(original)))], until);
        }
        if !journal_write(shared, held.into_bytes()).await {
            hold_back(shared, &originals, &delete_only);
            return None;
        }
        keep_hidden(
            shared,
            &hidden,
            std::pin::pin!(rewrite_all(shared, &originals, shaped)),
        )
        .await
    } else {
        shaped.into_iter().map(|out| Ok((out, None))).collect()
    };
    let mut lines = Lines::default();
    let mut failed = Lines::default();
    let mut outgoing: Vec<MessageRecord> = Vec::with_capacity(originals.len());
    let mut sending: Vec<MessageRecord> = Vec::with_capacity(originals.len());
    for (original, result) in originals.into_iter().zip(rewritten) {
        let id = message_id(&original);
        match result {
            Ok((out, digest)) => {
                let mut fields = Vec::with_capacity(3);
                if let Some(digest) = digest.as_deref() {
                    fields.push(("digest", Some(digest)));
                }
                fields.push(("group", out.group_id.as_deref()));
                fields.push(("id", Some(id)));
                lines.push_until("received", &fields, until);
                outgoing.push(out);
                sending.push(original);
            }
            Err((group_id, reason)) => {
                lines.push_until(
                    "received",
                    &[("group", group_id.as_deref()), ("id", Some(id))],
                    until,
                );
                failed.push("failed", &[("id", Some(id)), ("reason", Some(&reason))]);
                leave(shared, &original, group_id, reason);
            }
        }
    }
    let originals = sending;
    for message in &delete_only {
        lines.push_until("in_flight", &[("id", Some(message_id(message)))], until);
    }
    lines.extend(failed);
    if !lines.is_empty() && !journal_write(shared, lines.into_bytes()).await {
        // The journal cannot be written, and the run stops: nothing of the batch is sent.
        hold_back(shared, &originals, &delete_only);
        return None;
    }
    // `--rate` counts messages sent, so the tokens are taken for what this batch sends, once it
    // is known; the batch stays hidden while it waits. Receives take no tokens, so the run ends
    // as soon as the DLQ is found empty. Ctrl-C while waiting sends nothing: the whole batch is
    // made visible again when the run ends, and journaled `released` only once SQS confirmed it
    // (a second Ctrl-C may end the process first: the messages then stay in flight until their
    // deadline, and `--resume` waits for them).
    if let Some(limiter) = &shared.limiter
        && !originals.is_empty()
    {
        let wait = async {
            tokio::select! {
                () = limiter.acquire(originals.len()) => true,
                () = shared.interrupt.wait() => false,
            }
        };
        if !keep_hidden(shared, &hidden, std::pin::pin!(wait)).await {
            hold_back(shared, &originals, &delete_only);
            return None;
        }
    }
    Counters::add(&shared.counters.selected, originals.len());
    *unanswered.lock() = originals
        .iter()
        .map(|m| message_id(m).to_string())
        .collect();
    let (lines, mut to_delete) = keep_hidden(
        shared,
        &hidden,
        std::pin::pin!(send_batch(shared, originals, &outgoing)),
    )
    .await;
    unanswered.lock().clear();
    let confirmed = to_delete.len();
    to_delete.extend(delete_only);
    Some(Commit {
        lines,
        to_delete,
        confirmed,
        hidden,
    })
}

/// Why a message of a FIFO group is not sent after an earlier one of its group failed.
pub(super) const BLOCKED: &str = "not sent: an earlier message of its group could not be sent";

/// A message the run took on and leaves in the DLQ, for `reason`: it stays hidden until the run
/// ends (so it is not tried again, and on FIFO the rest of its group stays behind it), and is
/// counted and reported as failed. Its `failed` line is the caller's to journal.
fn leave(shared: &Shared, original: &MessageRecord, group_id: Option<String>, reason: String) {
    let id = message_id(original);
    shared.parked.lock().insert(id);
    shared.deliveries.lock().given_back(id);
    shared.held.lock().push(Held::tracked(original));
    shared.report(FailedMessage {
        message_id: id.to_string(),
        group_id,
        reason,
    });
    Counters::add(&shared.counters.selected, 1);
    Counters::add(&shared.counters.failed, 1);
}

/// A batch the run took on and will not send: it stays hidden until the run ends, which makes it
/// visible again. The journal says they were not sent (`not_sent`), so that a resumed run does not
/// count them as of unknown outcome when their release fails.
fn hold_back(shared: &Shared, originals: &[MessageRecord], delete_only: &[MessageRecord]) {
    let mut lines = Lines::default();
    for message in originals {
        lines.push("not_sent", &[("id", Some(message_id(message)))]);
    }
    journal_note(shared, lines.into_bytes());
    let mut deliveries = shared.deliveries.lock();
    for message in originals.iter().chain(delete_only) {
        deliveries.given_back(message_id(message));
    }
    drop(deliveries);
    shared
        .held
        .lock()
        .extend(originals.iter().chain(delete_only).map(Held::tracked));
}

/// The messages of a batch the run keeps hidden while it works on them: their receipt handles,
/// and their ids, by which the journal tracks how long they are in flight.
pub(super) struct Hidden {
    pub(super) handles: Vec<String>,
    pub(super) ids: Vec<String>,
    /// When the batch is visible again at the earliest, as far as the run knows (ms since the
    /// epoch): set at the receive, moved on by each extension SQS confirmed for every entry.
    pub(super) deadline_ms: AtomicU64,
    /// The entries whose hold may have lapsed (see [`Hidden::lapse`]), by index.
    pub(super) lapsed: Mutex<Vec<bool>>,
}

impl Hidden {
    /// Notes that the hold of the entries `which` may have lapsed: an extension SQS did not
    /// confirm, or work that outlasted the deadline. Another reader may then have received and
    /// sent them too, which this run cannot see: each such message counts once as a possible
    /// duplicate (on a standard destination).
    fn lapse(&self, shared: &Shared, which: impl Iterator<Item = usize>) {
        let mut lapsed = self.lapsed.lock();
        if lapsed.is_empty() {
            lapsed.resize(self.ids.len(), false);
        }
        let mut new = 0;
        for index in which {
            if let Some(flag) = lapsed.get_mut(index)
                && !*flag
            {
                *flag = true;
                new += 1;
            }
        }
        if new > 0 && !shared.plan.fifo {
            Counters::add(&shared.counters.possible_duplicates, new);
        }
    }

    /// Whether the run's hold on the batch may be over by now.
    fn past_deadline(&self) -> bool {
        now_ms() > self.deadline_ms.load(Ordering::Relaxed)
    }
}

/// Runs `work` while keeping the batch hidden in the DLQ: its visibility timeout is extended at
/// half its length for as long as the work lasts. The work is pinned by the caller, which holds it
/// once (taken by value, it would be held twice: as the argument and in the `select!`).
pub(super) async fn keep_hidden<F: std::future::Future>(
    shared: &Shared,
    hidden: &Hidden,
    mut work: std::pin::Pin<&mut F>,
) -> F::Output {
    let timeout = shared.plan.visibility_timeout;
    let period = Duration::from_secs_f64((f64::from(timeout) / 2.0).max(0.5));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            output = work.as_mut() => {
                if hidden.past_deadline() {
                    hidden.lapse(shared, 0..hidden.ids.len());
                }
                return output;
            }
            _ = ticker.tick() => extend(shared, hidden, timeout).await,
        }
    }
}

/// Hides the batch for `timeout` seconds more; the journal shows each message extended in flight
/// until its new deadline (taken once SQS answered, so no earlier than SQS's).
pub(super) async fn extend(shared: &Shared, hidden: &Hidden, timeout: i32) {
    if hidden.past_deadline() {
        // Extended too late (a starved process): SQS may have handed the batch to another
        // reader meanwhile.
        hidden.lapse(shared, 0..hidden.ids.len());
    }
    let asked_at = now_ms();
    let mut lines = Lines::default();
    let mut every_one = true;
    for (chunk, (handles, ids)) in hidden
        .handles
        .chunks(MAX_BATCH_ENTRIES)
        .zip(hidden.ids.chunks(MAX_BATCH_ENTRIES))
        .enumerate()
    {
        let entries: Vec<(&str, i32)> = handles.iter().map(|h| (h.as_str(), timeout)).collect();
        let outcome = shared.change_visibility(&entries).await;
        let until = hidden_until_ms(timeout);
        let mut not_extended = Vec::new();
        for (offset, id) in ids.iter().enumerate() {
            match outcome.entries.get(offset) {
                Some(entry) if entry.is_done() => {
                    lines.push_until("in_flight", &[("id", Some(id))], until);
                }
                _ => not_extended.push(chunk * MAX_BATCH_ENTRIES + offset),
            }
        }
        every_one &= not_extended.is_empty();
        hidden.lapse(shared, not_extended.into_iter());
    }
    if every_one {
        // From before the calls were made: no later than SQS's own new deadline.
        let until = asked_at + u64::try_from(timeout).unwrap_or(0) * 1000;
        hidden.deadline_ms.fetch_max(
            until.saturating_sub(lapse_margin_ms(timeout)),
            Ordering::Relaxed,
        );
    }
    journal_note(shared, lines.into_bytes());
}

/// How much earlier than its nominal end the run counts a hold of `timeout` seconds as over, for
/// the time the calls took: a second, or a quarter of a short timeout (extensions come at half of
/// it, so a hold kept up to date never counts as lapsed).
fn lapse_margin_ms(timeout: i32) -> u64 {
    (u64::try_from(timeout).unwrap_or(0) * 1000 / 4).min(1_000)
}

/// Sends the selected messages (`outgoing[i]` is what `originals[i]` becomes); returns the journal
/// lines of the outcomes and the originals that were confirmed. What failed is parked: hidden until
/// the run ends, so it is not tried again (and, on FIFO, the rest of its group stays behind it),
/// then visible in the DLQ.
pub(super) async fn send_batch(
    shared: &Shared,
    originals: Vec<MessageRecord>,
    outgoing: &[MessageRecord],
) -> (Vec<u8>, Vec<MessageRecord>) {
    let results = send::send_all(
        shared.to_sqs.as_ref().unwrap_or(&shared.sqs),
        &shared.plan.destination,
        shared.plan.fifo,
        outgoing,
        &shared.counters.retries,
        &shared.counters.possible_duplicates,
    )
    .await;
    let mut lines = Lines::default();
    let mut confirmed = Vec::with_capacity(originals.len());
    let mut failed_handles = Vec::new();
    for ((original, out), result) in originals.into_iter().zip(outgoing).zip(results) {
        let id = message_id(&original);
        let reason = match result {
            Sent::Ok(new_id) => {
                lines.push("sent", &[("id", Some(id)), ("new_id", Some(&new_id))]);
                if !new_id.is_empty() {
                    shared.sent_as.lock().insert(&new_id);
                }
                confirmed.push(original);
                continue;
            }
            Sent::Failed(reason) => reason,
            // Left in the DLQ, where a later run sends it again: a second copy if this send
            // happened after all.
            Sent::Unknown(reason) => {
                if !shared.plan.fifo {
                    Counters::add(&shared.counters.possible_duplicates, 1);
                }
                reason
            }
            Sent::Blocked => BLOCKED.into(),
        };
        lines.push("failed", &[("id", Some(id)), ("reason", Some(&reason))]);
        shared.parked.lock().insert(id);
        shared.deliveries.lock().given_back(id);
        failed_handles.push(Held::tracked(&original));
        shared.report(FailedMessage {
            message_id: id.to_string(),
            group_id: out.group_id.clone(),
            reason,
        });
        Counters::add(&shared.counters.failed, 1);
    }
    if !failed_handles.is_empty() {
        shared.held.lock().extend(failed_handles);
    }
    (lines.into_bytes(), confirmed)
}

/// The second deliveries met in one batch (see [`super::twins`]): each is counted and journaled in
/// flight until its deadline (so that `--resume` waits for it as for any held message); the copies
/// of messages deleted already are deleted with their own handles.
#[derive(Default)]
pub(super) struct Twins {
    copies: Vec<MessageRecord>,
    lines: Lines,
}

impl Twins {
    fn add(&mut self, shared: &Shared, message: MessageRecord, twin: Twin, until: u64) {
        Counters::add(&shared.counters.delivered_twice, 1);
        self.lines
            .push_until("in_flight", &[("id", Some(message_id(&message)))], until);
        if twin == Twin::Deleted {
            self.copies.push(message);
        }
    }

    async fn delete_copies(self, shared: &Shared) {
        if !self.lines.is_empty() {
            journal_note(shared, self.lines.into_bytes());
        }
        let copies: Vec<(&str, &str)> = self
            .copies
            .iter()
            .map(|m| (message_id(m), handle(m)))
            .collect();
        delete_twins(shared, &copies).await;
    }
}

/// Deletes second deliveries by their own receipt handles, `(id, handle)` each, journaling each
/// one deleted. One that cannot be deleted is left alone: the message it is a copy of was deleted
/// (or is being), and SQS delivers what a delete missed again after its timeout, as it would to
/// any consumer.
pub(super) async fn delete_twins(shared: &Shared, twins: &[(&str, &str)]) {
    let mut lines = Lines::default();
    for chunk in twins.chunks(MAX_BATCH_ENTRIES) {
        let handles: Vec<&str> = chunk.iter().map(|(_, handle)| *handle).collect();
        let outcomes = send::delete_with_retries(
            &shared.sqs,
            &shared.plan.source,
            &handles,
            &shared.counters.retries,
        )
        .await;
        for ((id, _), outcome) in chunk.iter().zip(outcomes) {
            if outcome.is_none() {
                lines.push("deleted", &[("id", Some(id))]);
            }
        }
    }
    if !lines.is_empty() {
        journal_note(shared, lines.into_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::lapse_margin_ms;

    #[test]
    fn a_hold_counts_as_lapsed_a_second_early_or_a_quarter_of_a_short_timeout() {
        assert_eq!(lapse_margin_ms(60), 1_000);
        assert_eq!(lapse_margin_ms(4), 1_000);
        // Extensions come at half the timeout, before a quarter of it is left.
        assert_eq!(lapse_margin_ms(1), 250);
        assert_eq!(lapse_margin_ms(2), 500);
        assert_eq!(lapse_margin_ms(0), 0);
    }
}
