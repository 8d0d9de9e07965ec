//! The run loop: `concurrency` workers, each receiving a batch from the DLQ, choosing what moves,
//! sending it, journaling the outcome and deleting what was confirmed, until the DLQ has nothing
//! more to give, the limit is reached, or Ctrl-C. See the module documentation of `redrive` for the
//! safety rules; this folder is where they are kept: [`worker`] receives, selects and sends,
//! [`rewriting`] rewrites a batch before its send, [`commit`] journals and deletes, [`release`]
//! makes held messages visible again at the end, over the [`state`] the workers share;
//! [`summary`] is what a run reports.

mod adaptive;
mod commit;
mod release;
mod rewriting;
mod state;
mod summary;
mod twins;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use parking_lot::Mutex;
use serde_json::json;

use super::RedriveError;
use super::archive::Archive;
use super::ids::IdSet;
use super::journal::{Journal, ResumeState, line};
use super::plan::{DedupMode, Plan};
use super::rate::RateLimiter;
use super::rewrite::Rewriter;
use crate::client::{RetryPolicy, Sqs};
use crate::interrupt::Interrupt;
use crate::select::Selector;
use adaptive::{Adaptive, Sample};
pub use adaptive::{CAP as ADAPTIVE_CAP, START as ADAPTIVE_START};
use release::release_all;
use state::{Held, Shared, now_ms};
pub use summary::{Counters, FailedMessage, Summary, Workers};
pub(crate) use worker::outgoing;
use worker::worker;

/// Rounds of workers: a round ends when the DLQ looks empty; another starts if it was not.
const MAX_ROUNDS: usize = 3;
/// How long the end of a run gives SQS's lagging counts to stop showing messages in flight.
const COUNTS_SETTLE: std::time::Duration = std::time::Duration::from_secs(4);
/// How many times the end of a run waits for messages a lost receive hid (see [`run`]).
const MAX_END_WAITS: usize = 3;
/// Time past a lost receive's deadline that its messages may take to show again.
const LOST_HOLD_SLACK_MS: u64 = 1_000;
/// How often an adaptive run looks whether its window is over (see [`Adaptive::window_over`]).
const ADAPTIVE_TICK: std::time::Duration = std::time::Duration::from_millis(20);

/// What a run needs besides the plan.
pub struct RunOptions {
    pub journal: Option<Journal>,
    pub archive: Option<Archive>,
    /// What an earlier run of the same journal already did.
    pub resume: ResumeState,
    /// Leave in the DLQ the messages whose `SentTimestamp` is later than this (ms since the
    /// epoch): a resumed run's bound on new arrivals.
    pub sent_before_ms: Option<u64>,
    pub counters: Arc<Counters>,
    pub interrupt: Interrupt,
    /// The client that reaches the destination, when it is not `sqs` (another region, account
    /// or endpoint: [`Plan::destination_access`]).
    pub destination: Option<Sqs>,
}

/// Runs a redrive to its end and says what happened. Errors that stop the run midway are reported
/// in [`Summary::error`] (after the work in flight was finished); `Err` is returned only when
/// nothing could start.
pub async fn run(sqs: &Sqs, plan: &Plan, options: RunOptions) -> Result<Summary, RedriveError> {
    plan.validate()?;
    let selector = Selector::compile(&plan.selection)?;
    let started = Instant::now();
    let journal_path = options
        .journal
        .as_ref()
        .map(|j| j.path().display().to_string());
    let archive_path = options
        .archive
        .as_ref()
        .map(|a| a.path().display().to_string());
    let mut resume = options.resume;
    let mut parked = IdSet::default();
    if plan.copy {
        // A copy's `sent` is final: what an earlier run copied is held, never deleted or sent.
        parked = std::mem::take(&mut resume.sent);
        resume.sent_not_deleted = 0;
    }
    let shared = Arc::new(Shared {
        sqs: sqs.clone(),
        to_sqs: options.destination,
        plan: plan.clone(),
        selector,
        rewriter: Rewriter::new(&plan.rewrite, plan.fifo, plan.dedup != DedupMode::New)?,
        journaled_digests: std::mem::take(&mut resume.digests),
        limiter: plan.rate.map(RateLimiter::new),
        journal: options.journal,
        archive: options.archive,
        counters: options.counters.clone(),
        interrupt: options.interrupt.clone(),
        claimed: AtomicU64::new(0),
        limit_reached: AtomicBool::new(plan.limit == Some(0)),
        in_flight_limit: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        processing: AtomicUsize::new(0),
        drained: AtomicBool::new(false),
        completions: AtomicU64::new(0),
        last_done_us: AtomicU64::new(0),
        epoch: started,
        pending_journal_deletes: AtomicU64::new(resume.sent_not_deleted),
        sent_before: Mutex::new(resume.sent),
        skipped_seen: Mutex::new(IdSet::default()),
        sent_as: Mutex::new(resume.sent_as),
        later_seen: Mutex::new(IdSet::default()),
        sent_before_ms: options.sent_before_ms,
        moved_before: resume.moved_before,
        archive_failed: AtomicBool::new(false),
        named_seen: Mutex::new(IdSet::default()),
        parked: Mutex::new(parked),
        cut_groups: Mutex::default(),
        deliveries: Mutex::new(Default::default()),
        held: Mutex::new(Vec::new()),
        failures: Mutex::new((Vec::new(), 0)),
        fatal: Mutex::new(None),
        active: AtomicUsize::new(plan.concurrency),
        wake: tokio::sync::Notify::new(),
        receive_policy: RetryPolicy::default().stopped_by(options.interrupt.clone()),
        receive_attributes: state::receive_attributes(plan, options.sent_before_ms.is_some()),
        lost_receives: AtomicU64::new(resume.lost_receives),
        lost_until_ms: AtomicU64::new(resume.lost_until_ms.unwrap_or(0)),
    });
    if !plan.fifo {
        // Received by an earlier run and sent or not, nobody knows: this run sends them again.
        Counters::add(
            &shared.counters.possible_duplicates,
            resume.unresolved as usize,
        );
    }
    let mut adaptive = plan.adaptive.then(|| Adaptive::new(adaptive::CAP));
    if let Some(adaptive) = &adaptive {
        shared.active.store(adaptive.workers(), Ordering::SeqCst);
    }
    let mut most_workers = shared.active.load(Ordering::SeqCst);
    shared
        .counters
        .workers
        .store(most_workers as u64, Ordering::Relaxed);
    // A run ends on what long polls saw; SQS's counts, read once it ended, may show messages
    // that came back meanwhile (hidden by a receive whose answer was lost, this run's or an
    // earlier one's). One more pass of long polls tells them from counts that lag.
    let mut verifying: Option<u64> = None;
    let mut release_failed = 0;
    let mut rounds_ended_ms;
    let mut end_waits = 0;
    let mut copy_passes_found = 0;
    let mut copy_passes_cut = usize::MAX;
    let (left_visible, left_in_flight, maybe_left) = loop {
        rounds(sqs, &shared, &mut adaptive, &mut most_workers).await;
        rounds_ended_ms = now_ms();
        // Messages a lost receive hid come back when its visibility timeout ends: a run that can
        // still see them waits for them and looks again, a few times at most (under sustained faults
        // the last polls lose answers too), rather than end before it could see them.
        let lost_until = shared.lost_until_ms.load(Ordering::Relaxed);
        let last_polls_ms = rounds_ended_ms.saturating_sub(worker::POLL_WAIT.as_millis() as u64);
        if end_waits < MAX_END_WAITS && !shared.stopping() && lost_until > last_polls_ms {
            end_waits += 1;
            let wait = std::time::Duration::from_millis(
                (lost_until + LOST_HOLD_SLACK_MS).saturating_sub(now_ms()),
            );
            options
                .counters
                .waiting_until_ms
                .store(lost_until + LOST_HOLD_SLACK_MS, Ordering::Relaxed);
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = shared.interrupt.wait() => {}
            }
            options
                .counters
                .waiting_until_ms
                .store(0, Ordering::Relaxed);
            shared.drained.store(false, Ordering::SeqCst);
            continue;
        }
        let held = std::mem::take(&mut *shared.held.lock());
        let found = Counters::get(&options.counters.selected)
            + Counters::get(&options.counters.completed_from_journal)
            + Counters::get(&options.counters.arrived_later);
        // A FIFO DLQ hands over a group's later messages only while none of its earlier ones is
        // in flight, so a copy, which keeps what it copied hidden, reaches in a pass no further
        // into a group than where a receive stopped. A receive reads each group it takes from its
        // head to its end, except the last group of a full receive, which it may have cut short.
        // Between passes the messages of those groups alone are made visible again (all others
        // stay hidden), so the next pass reads them from their heads: copied already, then the
        // rest. Passes go on while they find messages or leave fewer groups cut short (a group
        // read whole is no longer cut; a group of more than ten stays cut and ends the passes).
        let cut = std::mem::take(&mut *shared.cut_groups.lock());
        if plan.copy
            && plan.fifo
            && !shared.stopping()
            && !cut.is_empty()
            && (found > copy_passes_found || cut.len() < copy_passes_cut)
        {
            copy_passes_found = found;
            copy_passes_cut = cut.len();
            let (again, still): (Vec<Held>, Vec<Held>) = held
                .into_iter()
                .partition(|h| h.group.as_ref().is_some_and(|group| cut.contains(group)));
            release_failed += release_all(&shared, again).await;
            shared.held.lock().extend(still);
            shared.drained.store(false, Ordering::SeqCst);
            continue;
        }
        release_failed += release_all(&shared, held).await;
        // Only a run that would be complete but for messages in flight waits for the counts.
        let settle = shared.fatal.lock().is_none()
            && !shared.interrupt.is_set()
            && !shared.limit_reached.load(Ordering::SeqCst);
        let (visible, in_flight) = left_in_dlq(sqs, plan, settle).await;
        let mut knowingly_left = Counters::get(&options.counters.skipped)
            + Counters::get(&options.counters.failed)
            + Counters::get(&options.counters.arrived_later)
            + release_failed;
        if plan.copy {
            // Copied, and still in the DLQ: by this run, and by the earlier runs of its journal.
            knowingly_left += Counters::get(&options.counters.moved) + shared.moved_before;
        }
        let in_flight_limit = shared.in_flight_limit.load(Ordering::SeqCst);
        match verifying {
            // What the copy did not take stays visible; nothing more can be taken in this run.
            _ if in_flight_limit => {
                break (visible, in_flight, visible.saturating_sub(knowingly_left));
            }
            None if settle && !shared.stopping() && visible > knowingly_left => {
                verifying = Some(found);
                shared.drained.store(false, Ordering::SeqCst);
            }
            // Counts that still show more than the run knowingly left, after a pass of long
            // polls that found more: the DLQ may still hold messages of the selection.
            // A copy deletes nothing, so its counts do not lag behind deletes: more visible
            // than it knowingly left are messages it could not reach (FIFO groups behind the
            // messages it copied) or that came meanwhile.
            Some(before) if found > before || plan.copy => {
                break (visible, in_flight, visible.saturating_sub(knowingly_left));
            }
            _ => break (visible, in_flight, 0),
        }
    };
    let Ok(shared) = Arc::try_unwrap(shared) else {
        return Err(RedriveError::Invalid(
            "internal error: workers outlived the run".into(),
        ));
    };
    let mut error = shared.fatal.lock().take();
    // Synced before the journal's closing line, so that a `completed` journal has a whole archive.
    if let Some(archive) = &shared.archive
        && let Err(e) = archive.close()
    {
        error.get_or_insert(format!(
            "the archive {} could not be written: {e}",
            archive.path().display()
        ));
    }
    let counters = &options.counters;
    // Messages a lost receive hid until after the run's last long polls: not seen by this run.
    let lost_until_ms = shared.lost_until_ms.load(Ordering::Relaxed);
    let last_polls_ms = rounds_ended_ms.saturating_sub(worker::POLL_WAIT.as_millis() as u64);
    let hidden_until_ms = (lost_until_ms > last_polls_ms).then_some(lost_until_ms);
    let seconds = started.elapsed().as_secs_f64();
    let moved = Counters::get(&counters.moved);
    let (failures, _) = std::mem::take(&mut *shared.failures.lock());
    // Only a run that went through the whole DLQ can tell that an id is not there.
    let in_flight_limit = shared.in_flight_limit.load(Ordering::SeqCst);
    let looked_everywhere = !shared.interrupt.is_set()
        && !shared.limit_reached.load(Ordering::SeqCst)
        && !in_flight_limit
        && error.is_none();
    let not_found = if !looked_everywhere {
        Vec::new()
    } else {
        let seen = shared.named_seen.lock();
        plan.selection
            .message_ids
            .iter()
            .filter(|id| !seen.contains(id))
            .cloned()
            .collect()
    };
    let mut summary = Summary {
        source: plan.source.name.clone(),
        destination: plan.destination.name.clone(),
        selected: Counters::get(&counters.selected),
        moved,
        skipped: Counters::get(&counters.skipped),
        failed: Counters::get(&counters.failed),
        delete_failed: Counters::get(&counters.delete_failed),
        completed_from_journal: Counters::get(&counters.completed_from_journal),
        arrived_later: Counters::get(&counters.arrived_later),
        delivered_twice: Counters::get(&counters.delivered_twice),
        outcome_unknown: Counters::get(&counters.outcome_unknown),
        retries: Counters::get(&counters.retries),
        possible_duplicates: Counters::get(&counters.possible_duplicates),
        left_visible,
        left_in_flight,
        maybe_left,
        lost_receives: shared.lost_receives.load(Ordering::Relaxed),
        hidden_until_ms,
        release_failed,
        limit_reached: shared.limit_reached.load(Ordering::SeqCst),
        in_flight_limit,
        interrupted: shared.interrupt.is_set(),
        // A rate to a tenth and a duration to the millisecond: the digits beyond are noise, and
        // they end up in JSON that people read.
        seconds: (seconds * 1000.0).round() / 1000.0,
        messages_per_second: if seconds > 0.0 {
            (moved as f64 / seconds * 10.0).round() / 10.0
        } else {
            0.0
        },
        workers: Workers {
            adaptive: plan.adaptive,
            most: most_workers,
            at_end: shared.active.load(Ordering::SeqCst),
            settled: adaptive.as_ref().and_then(Adaptive::settled),
        },
        failures,
        not_found,
        journal: journal_path,
        archive: archive_path,
        error,
        rewrite: shared
            .rewriter
            .is_active()
            .then(|| crate::redrive::rewrite::RewriteSummary {
                failed: Counters::get(&shared.counters.rewrite_failed),
                changed_since_journal: Counters::get(&shared.counters.changed_since_journal),
                not_envelope: shared.rewriter.not_envelope(),
            }),
        where_failed: shared.selector.where_failures(),
        dlq_depth_at_start: plan.dlq_depth_at_start,
        moved_before: shared.moved_before,
        copy: plan.copy,
    };
    if let Some(journal) = shared.journal {
        let closing = closing_line(&summary);
        let written = journal.note(closing);
        if let Err(e) = written.and(journal.close().await) {
            summary
                .error
                .get_or_insert(format!("the journal could not be closed: {e}"));
        }
    }
    Ok(summary)
}

/// Runs rounds of workers until one ends on an empty DLQ with no message showing up meanwhile (at
/// most [`MAX_ROUNDS`]), or the run stops. An adaptive run's controller sets the workers as it goes.
async fn rounds(
    sqs: &Sqs,
    shared: &Arc<Shared>,
    adaptive: &mut Option<Adaptive>,
    most_workers: &mut usize,
) {
    for _round in 0..MAX_ROUNDS {
        let mut workers = tokio::task::JoinSet::new();
        let mut spawned = 0;
        let mut window = tokio::time::interval(ADAPTIVE_TICK);
        window.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut window_start = Instant::now();
        let mut window_batches = shared.completions.load(Ordering::SeqCst);
        loop {
            let active = shared.active.load(Ordering::SeqCst);
            while spawned < active {
                workers.spawn(worker(shared.clone(), spawned));
                spawned += 1;
            }
            tokio::select! {
                joined = workers.join_next() => match joined {
                    None => break,
                    Some(Err(err)) => shared.fail(format!("a worker stopped unexpectedly: {err}")),
                    Some(Ok(())) => {}
                },
                _ = window.tick(), if adaptive.is_some() => {
                    let Some(adaptive) = adaptive.as_mut() else { continue };
                    let batches = shared.completions.load(Ordering::SeqCst);
                    let elapsed = window_start.elapsed();
                    if !adaptive.window_over(elapsed, batches - window_batches) {
                        continue;
                    }
                    window_start = Instant::now();
                    window_batches = batches;
                    let seconds = elapsed.as_secs_f64();
                    let received = Counters::get(&shared.counters.received);
                    if let Some(workers) = adaptive.observe(seconds, Sample {
                        received,
                        batches,
                        throttled: sqs.throttled()
                            + shared.to_sqs.as_ref().map_or(0, Sqs::throttled),
                        rate_waits: shared.limiter.as_ref().map_or(0, RateLimiter::waits),
                    }) {
                        *most_workers = (*most_workers).max(workers);
                        shared.counters.workers.store(workers as u64, Ordering::Relaxed);
                        shared.active.store(workers, Ordering::SeqCst);
                        shared.wake.notify_waiters();
                    }
                }
            }
        }
        if shared.stopping() {
            break;
        }
        // The workers saw an empty DLQ; another round only if messages showed up meanwhile (a
        // batch finished as the last poll ran, and unblocked a FIFO group).
        // A copy deletes nothing, so no group of a FIFO DLQ was unblocked meanwhile: what is
        // visible there waits behind the messages the run holds (see `run`'s passes).
        if shared.plan.copy && shared.plan.fifo {
            break;
        }
        match shared.sqs.attributes(&shared.plan.source).await {
            Ok(attrs) if attrs.visible() > 0 => shared.drained.store(false, Ordering::SeqCst),
            _ => break,
        }
    }
}

/// What is left in the DLQ at the end, as (visible, in flight). SQS's counts are approximate and
/// lag behind: read right after the run released and deleted its last batches, they may still show
/// them in flight. Messages in flight at the end make the run incomplete, so with `settle` a count
/// that shows some is read again for a few seconds, until it shows none.
async fn left_in_dlq(sqs: &Sqs, plan: &Plan, settle: bool) -> (u64, u64) {
    let deadline = Instant::now()
        + if settle {
            COUNTS_SETTLE
        } else {
            Default::default()
        };
    loop {
        let Ok(attrs) = sqs.attributes(&plan.source).await else {
            return (0, 0);
        };
        if attrs.in_flight() == 0 || Instant::now() >= deadline {
            return (attrs.visible(), attrs.in_flight());
        }
        tokio::time::sleep(COUNTS_SETTLE / 8).await;
    }
}

/// The journal's last line for this run: `completed` when every message the run was about moved
/// (`--resume` then has nothing to do), `stopped` with the reason otherwise.
fn closing_line(summary: &Summary) -> Vec<u8> {
    let at_ms = now_ms();
    let moved = summary.moved_by_journal();
    if summary.complete() {
        return line("completed", &json!({ "at_ms": at_ms, "moved": moved }));
    }
    let reason = if let Some(error) = &summary.error {
        error.clone()
    } else if summary.interrupted {
        "interrupted".to_string()
    } else {
        "some messages stayed in the dead-letter queue".to_string()
    };
    line(
        "stopped",
        &json!({
            "at_ms": at_ms,
            "reason": reason,
            "moved": moved,
            "failed": summary.failed,
            "delete_failed": summary.delete_failed,
            "outcome_unknown": summary.outcome_unknown,
            "left_in_flight": summary.left_in_flight,
            "maybe_left": summary.maybe_left,
            "hidden_until_ms": summary.hidden_until_ms,
        }),
    )
}
