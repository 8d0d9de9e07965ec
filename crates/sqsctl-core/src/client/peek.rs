//! Reading a queue without consuming it.
//!
//! SQS has no real peek: the only way to see a message is to receive it, which hides it for a
//! visibility timeout and raises its receive count. [`scan`] receives with a visibility timeout long
//! enough to see each message once (the "hold"), hands every batch to the caller as it arrives, and
//! then makes every held message visible again at once, whatever happened in between (an error, a
//! Ctrl-C, the caller stopping early). [`guard`] is the rule every reader applies first: on a queue
//! with a redrive policy every read takes one of each message's receives before the dead-letter
//! queue. With `maxReceiveCount` 3 or more a read leaves a fresh message at least two, so the read
//! goes ahead and says what it cost ([`ReadCost`]); with 1 or 2 it could take a consumer's only
//! remaining try, so reading needs the user's explicit consent (`force`). A scan reads each message
//! at most once: it stops before its hold runs out rather than receive a message a second time.
//!
//! What a scan can see is bounded by SQS itself: on a FIFO queue SQS delivers nothing of a group
//! past its first message in flight, and a scan holds what it reads, so it sees the head of each
//! group (up to ten per receive), never a whole group that is deeper than that, and nothing of a
//! group whose oldest message a consumer holds.
//!
//! SQS's `Approximate*` counts lag behind sends (about a minute on SQS): a read that saw more
//! messages than the counts read at its start held reads them again, waiting up to
//! [`PeekOptions::settle`] for them to cover what was read, and says in [`Scanned::counts`]
//! whether they did ([`CountsCheck`]): figures built on counts that still lag are incomplete.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use super::{ClientError, QueueAttributes, QueueRef, ReceiveOptions, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::read_ledger::{ReadEntry, ReadLedger, now_ms};
use crate::select::Selector;

/// How long messages are held by default while a scan runs, in seconds.
pub const DEFAULT_HOLD_SECONDS: i32 = 30;

/// Long-poll wait of the receive that decides that nothing more is deliverable, in seconds.
const FINAL_WAIT_SECONDS: i32 = 1;

/// How long a read that outran SQS's counts waits at most for them to catch up, when its caller
/// builds figures on them (how many messages wait behind FIFO group heads, how much of the queue
/// the checks saw).
pub const COUNTS_SETTLE: Duration = Duration::from_secs(3);

/// How often counts that lag are read again while a read waits for them.
const COUNTS_POLL: Duration = Duration::from_millis(250);

/// How many messages a filtered read looks through by default before it stops.
pub const DEFAULT_SCAN_LIMIT: u64 = 1000;

/// The lowest `maxReceiveCount` a scan reads without `force`: one read leaves a fresh message at
/// least two receives, so a consumer that fails once still gets another try.
pub const MIN_UNFORCED_MAX_RECEIVE_COUNT: u32 = 3;

#[derive(Debug, thiserror::Error)]
pub enum PeekError {
    #[error(
        "reading {queue} could move messages to its dead-letter queue {dlq}: every read counts as a \
         receive, and the queue sends a message there after only {}",
        crate::text::plural(u64::from(*.max_receive_count), "receive")
    )]
    WouldDeadLetter {
        queue: String,
        dlq: String,
        max_receive_count: u32,
    },
    #[error(
        "the last read of {queue} ({when}) left {count} at maxReceiveCount {max_receive_count}: \
         reading it again would move {them} to its dead-letter queue {dlq}",
        when = crate::text::format_millis(left.ended_ms),
        count = crate::text::plural(left.at_limit, "message"),
        them = if left.at_limit == 1 { "it" } else { "them" }
    )]
    LeftAtLimit {
        queue: String,
        dlq: String,
        max_receive_count: u32,
        left: ReadEntry,
    },
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// What to read.
#[derive(Debug, Clone, Copy)]
pub struct PeekOptions {
    /// Stop after this many messages (`None`: everything deliverable).
    pub max: Option<usize>,
    /// Visibility timeout while the scan runs, in seconds; messages are released when it ends.
    pub hold_seconds: i32,
    /// Read even a queue whose `maxReceiveCount` is below [`MIN_UNFORCED_MAX_RECEIVE_COUNT`].
    pub force: bool,
    /// How long to wait for SQS's counts to cover what was read, when the read outran them
    /// (zero: they are read again once).
    pub settle: Duration,
}

impl Default for PeekOptions {
    fn default() -> Self {
        PeekOptions {
            max: Some(10),
            hold_seconds: DEFAULT_HOLD_SECONDS,
            force: false,
            settle: Duration::ZERO,
        }
    }
}

/// Whether SQS's `Approximate*` counts agree with what a read saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CountsCheck {
    /// The counts read when the read started cover what it read.
    #[default]
    Agree,
    /// The read saw more messages than the counts at its start held (they lagged behind recent
    /// sends); read again after it, they covered what was read, and [`Scanned::visible_at_start`]
    /// and [`Scanned::in_flight_at_start`] hold those later counts.
    Settled {
        visible_before: u64,
        in_flight_before: u64,
    },
    /// Read again after `waited_ms`, the counts still held fewer messages than were read: every
    /// figure built on them (how many messages the read did not see) is unknown.
    Lagging {
        visible_after: u64,
        in_flight_after: u64,
        waited_ms: u64,
    },
}

impl CountsCheck {
    pub fn agrees(&self) -> bool {
        *self == CountsCheck::Agree
    }

    pub fn lagging(&self) -> bool {
        matches!(self, CountsCheck::Lagging { .. })
    }

    /// What became of the counts of a read that saw `seen` messages, in words (`visible` and
    /// `in_flight`: the counts a [`Scanned`] ends with); `None` when the read did not outrun them.
    pub fn describe(&self, seen: u64, visible: u64, in_flight: u64) -> Option<String> {
        match *self {
            CountsCheck::Agree => None,
            CountsCheck::Settled {
                visible_before,
                in_flight_before,
            } => Some(format!(
                "SQS's counts lagged behind this read: {visible_before} visible and \
                 {in_flight_before} in flight when it started, against {} read; read again after \
                 it, {visible} visible and {in_flight} in flight",
                crate::text::plural(seen, "message")
            )),
            CountsCheck::Lagging {
                visible_after,
                in_flight_after,
                waited_ms,
            } => Some(format!(
                "SQS's counts lag behind this read: {} read, against {visible} visible and \
                 {in_flight} in flight when it started and {visible_after} visible and \
                 {in_flight_after} in flight {}; how many messages it did not see is unknown \
                 until they catch up (within about a minute)",
                crate::text::plural(seen, "message"),
                if waited_ms < 1000 {
                    "right after it".to_string()
                } else {
                    format!(
                        "{} after it",
                        crate::text::format_seconds(waited_ms.div_ceil(1000))
                    )
                }
            )),
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
    /// The scan stopped before its hold ran out, so as not to receive a message a second time.
    pub hold_ran_short: bool,
    /// What the read cost, on a queue with a redrive policy.
    pub cost: Option<ReadCost>,
    /// Messages read whose receive count is now at least `maxReceiveCount - 1`: the next receive
    /// is their last before the dead-letter queue (or, at `maxReceiveCount`, moves them there).
    pub near_dead_letter: u64,
    /// Of those, the messages at `maxReceiveCount`: the next receive moves them.
    pub at_limit: u64,
    /// When the scan ended, in epoch milliseconds.
    pub ended_ms: u64,
    /// The dead-letter queue's depth before and after the read, on a queue with a redrive policy.
    pub dead_letter_depth: Option<DeadLetterDepth>,
    /// Why the read could not be recorded in the ledger, if it could not.
    #[serde(skip)]
    pub ledger_error: Option<String>,
    /// The messages were listed by `sqsctl local`'s inspection endpoint: nothing was received.
    pub inspected: bool,
    /// Whether SQS's counts cover what was read (see [`CountsCheck`]); left out of JSON when
    /// they did from the start.
    #[serde(skip_serializing_if = "CountsCheck::agrees")]
    pub counts: CountsCheck,
}

/// The dead-letter queue's depth (visible, in flight and delayed) around a read: a read that
/// takes a message past its `maxReceiveCount` moves it there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeadLetterDepth {
    pub dlq: String,
    pub before: u64,
    pub after: u64,
}

impl DeadLetterDepth {
    /// How many messages arrived in the dead-letter queue while the read ran.
    pub fn arrived(&self) -> u64 {
        self.after.saturating_sub(self.before)
    }

    /// The warning for messages that arrived during the read, if any did.
    pub fn describe(&self, queue: &str) -> Option<String> {
        let arrived = self.arrived();
        (arrived > 0).then(|| {
            format!(
                "{} arrived in the dead-letter queue `{}` while {queue} was read (its depth went from {} to {}): \
                 a receive that takes a message past maxReceiveCount moves it there, so this read \
                 most likely moved {}, unless consumers' receives did at the same time",
                crate::text::plural(arrived, "message"),
                self.dlq,
                self.before,
                self.after,
                if arrived == 1 { "it" } else { "them" }
            )
        })
    }
}

impl Scanned {
    /// The read saw more distinct messages than the queue held, visible and in flight, by the
    /// counts read at its start: they lag (or messages were sent while it read).
    pub fn outran_counts(&self) -> bool {
        self.seen > self.visible_at_start + self.in_flight_at_start
    }

    /// Counts that lag leave unknown what the read did not see only where it could not see
    /// everything deliverable: on a FIFO queue (messages behind group heads), or when it stopped
    /// before the queue had nothing more to deliver. A standard queue read to its end saw every
    /// visible message; there the counts can also fall short of it by a copy of a message that a
    /// consumer had deleted, which SQS may still deliver.
    pub fn unseen_unknown(&self, fifo: bool) -> bool {
        self.counts.lagging() && !self.interrupted && (fifo || !self.exhausted)
    }

    /// What became of SQS's counts when the read outran them, in words; `None` when it did not.
    pub fn describe_counts(&self) -> Option<String> {
        self.counts
            .describe(self.seen, self.visible_at_start, self.in_flight_at_start)
    }

    /// The messages that arrived in the dead-letter queue while the read ran.
    pub fn dead_lettered(&self) -> u64 {
        self.dead_letter_depth
            .as_ref()
            .map_or(0, DeadLetterDepth::arrived)
    }

    /// The warning for messages that arrived in the dead-letter queue while `queue` was read.
    pub fn dead_letter_warning(&self, queue: &str) -> Option<String> {
        self.dead_letter_depth
            .as_ref()
            .and_then(|depth| depth.describe(queue))
    }
}

/// What reading a queue with a redrive policy costs: each message read uses one of its
/// `max_receive_count` receives before it moves to `dlq`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReadCost {
    pub dlq: String,
    #[serde(skip)]
    pub dlq_arn: String,
    pub max_receive_count: u32,
}

impl ReadCost {
    /// The cost in the words every reader prints on stderr.
    pub fn describe(&self) -> String {
        format!(
            "each message read used 1 of its {} before the dead-letter queue `{}`",
            crate::text::plural(u64::from(self.max_receive_count), "receive"),
            self.dlq
        )
    }

    /// Whether a message read with `ApproximateReceiveCount` `count` is now one receive (or none)
    /// away from the dead-letter queue.
    pub fn leaves_near_dead_letter(&self, count: u64) -> bool {
        count + 1 >= u64::from(self.max_receive_count)
    }

    /// Whether a message read with `ApproximateReceiveCount` `count` moves to the dead-letter
    /// queue on its next receive.
    pub fn leaves_at_limit(&self, count: u64) -> bool {
        count >= u64::from(self.max_receive_count)
    }

    /// What [`Scanned::at_limit`] means, when there are any: the next receive of each, a
    /// consumer's or a read's, moves it to the dead-letter queue (and the guard refuses the next
    /// read because of them, which the caller says in its own words).
    pub fn describe_at_limit(&self, at_limit: u64) -> Option<String> {
        (at_limit > 0).then(|| {
            format!(
                "{} now at maxReceiveCount {}: the next receive moves {} to the dead-letter queue \
                 `{}`",
                if at_limit == 1 {
                    "1 message is".to_string()
                } else {
                    format!("{at_limit} messages are")
                },
                self.max_receive_count,
                if at_limit == 1 { "it" } else { "them" },
                self.dlq
            )
        })
    }

    /// The line that reports [`Scanned::near_dead_letter`], when there are any.
    pub fn describe_near(&self, near: u64) -> Option<String> {
        (near > 0).then(|| {
            format!(
                "{} now one receive away from the dead-letter queue `{}` (received at least {} \
                 of {} times): poison messages, or a visibility timeout shorter than the work",
                if near == 1 {
                    "1 message is".to_string()
                } else {
                    format!("{near} messages are")
                },
                self.dlq,
                self.max_receive_count.saturating_sub(1),
                self.max_receive_count
            )
        })
    }
}

/// When a scan that starts now and holds messages for `hold_seconds` stops receiving: a quarter of
/// the hold before it runs out, because a message received first could otherwise come back while
/// the scan still runs and be received (and its count raised) a second time.
pub fn stop_reading_at(hold_seconds: i32) -> Instant {
    let hold_ms = u64::try_from(hold_seconds.max(1)).unwrap_or(1) * 1000;
    Instant::now() + Duration::from_millis(hold_ms * 3 / 4)
}

/// Weighs what a read of `queue` costs: nothing without a redrive policy; one receive of each
/// message read with one, which is refused (unless `force`) when `maxReceiveCount` is below
/// [`MIN_UNFORCED_MAX_RECEIVE_COUNT`], or when the last read recorded in the [`ReadLedger`] left
/// messages at their `maxReceiveCount` (this read would move them). The one rule of every reader.
pub fn guard(
    queue: &QueueRef,
    attrs: &QueueAttributes,
    force: bool,
) -> Result<Option<ReadCost>, PeekError> {
    let Some(policy) = attrs.redrive_policy() else {
        return Ok(None);
    };
    let dlq = super::queue::name_from_arn(&policy.dead_letter_target_arn)
        .unwrap_or(&policy.dead_letter_target_arn)
        .to_string();
    if policy.max_receive_count < MIN_UNFORCED_MAX_RECEIVE_COUNT && !force {
        return Err(PeekError::WouldDeadLetter {
            queue: queue.name.clone(),
            dlq,
            max_receive_count: policy.max_receive_count,
        });
    }
    if !force && let Some(left) = ReadLedger::for_queue(queue).left_at_limit(now_ms()) {
        return Err(PeekError::LeftAtLimit {
            queue: queue.name.clone(),
            dlq,
            max_receive_count: policy.max_receive_count,
            left,
        });
    }
    Ok(Some(ReadCost {
        dlq,
        dlq_arn: policy.dead_letter_target_arn.clone(),
        max_receive_count: policy.max_receive_count,
    }))
}

/// How a read of a queue goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadPath {
    /// Through `sqsctl local`'s inspection endpoint: nothing is received, nothing to weigh.
    Inspect,
    /// By receives, at the cost the guard weighed (`None` without a redrive policy).
    Receive(Option<ReadCost>),
}

/// How a read of `queue` will go: on `sqsctl local`, through its inspection endpoint; elsewhere
/// by receives, under the [`guard`]'s rule.
pub async fn weigh(
    sqs: &Sqs,
    queue: &QueueRef,
    attrs: &QueueAttributes,
    force: bool,
) -> Result<ReadPath, PeekError> {
    if sqs.inspection().available(queue).await {
        return Ok(ReadPath::Inspect);
    }
    guard(queue, attrs, force).map(ReadPath::Receive)
}

/// One read of a queue, as every scan takes it: the queue, its attributes when the read starts
/// (its depth and redrive policy), what to read, and the Ctrl-C that stops it.
#[derive(Clone, Copy)]
pub struct ReadRequest<'a> {
    pub sqs: &'a Sqs,
    pub queue: &'a QueueRef,
    pub attrs: &'a QueueAttributes,
    pub options: PeekOptions,
    pub interrupt: &'a Interrupt,
}

impl ReadRequest<'_> {
    /// How this read will go ([`weigh`] with its options' `force`).
    pub async fn weigh(&self) -> Result<ReadPath, PeekError> {
        weigh(self.sqs, self.queue, self.attrs, self.options.force).await
    }
}

/// Reads a queue without consuming it: see the module documentation. `on_batch` gets each batch of
/// newly seen messages (with their receipt handles, valid until the scan ends) and may stop the
/// scan with `ControlFlow::Break`. Every held message is released before this returns, also on
/// error.
pub async fn scan<F>(request: &ReadRequest<'_>, on_batch: F) -> Result<Scanned, PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let path = request.weigh().await?;
    scan_weighed(request, path, on_batch).await
}

/// [`scan`] for a caller that already [`weigh`]ed the read (to refuse it, or announce its
/// cost, before anything else): the guard is not asked twice.
pub async fn scan_weighed<F>(
    request: &ReadRequest<'_>,
    path: ReadPath,
    mut on_batch: F,
) -> Result<Scanned, PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let cost = match path {
        ReadPath::Inspect => return inspect(request, on_batch).await,
        ReadPath::Receive(cost) => cost,
    };
    let ReadRequest {
        sqs, queue, attrs, ..
    } = *request;
    let watch = watch_dead_letter_queue(sqs, cost.as_ref()).await;
    let mut scanned = Scanned {
        visible_at_start: attrs.visible(),
        in_flight_at_start: attrs.in_flight(),
        cost,
        ..Scanned::default()
    };
    let mut held = Held::default();
    let outcome = read(request, &mut scanned, &mut held, &mut on_batch).await;
    // Releasing is attempted even after a failed read; a failure to release is reported, not fatal,
    // because the messages come back by themselves when the hold runs out.
    scanned.release_failed = held.release(sqs, queue).await;
    finish_read(sqs, queue, &mut scanned, watch, request.options.force).await;
    outcome?;
    let interrupt = request.interrupt;
    settle_counts(sqs, queue, &mut scanned, request.options.settle, interrupt).await;
    Ok(scanned)
}

/// [`scan_weighed`] for a reader that shows what it reads: only the messages `selector` matches
/// (every one without a selector) are handed to `on_batch`, and the scan stops once `show` were
/// handed over or `on_batch` stops it. Returns what was read and how many were shown.
pub async fn scan_matching<F>(
    request: &ReadRequest<'_>,
    path: ReadPath,
    selector: Option<&Selector>,
    show: usize,
    mut on_batch: F,
) -> Result<(Scanned, usize), PeekError>
where
    F: FnMut(&[MessageRecord]) -> ControlFlow<()>,
{
    let mut shown = 0usize;
    let scanned = scan_weighed(request, path, |mut batch| {
        if let Some(selector) = selector {
            batch.retain(|m| selector.matches(m));
            batch.truncate(show.saturating_sub(shown));
        }
        shown += batch.len();
        if on_batch(&batch).is_break() || shown >= show {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .await?;
    Ok((scanned, shown))
}

/// [`scan`] through `sqsctl local`'s inspection endpoint: the same batches, handed over in tens,
/// without a receive (so without receipt handles).
async fn inspect<F>(request: &ReadRequest<'_>, mut on_batch: F) -> Result<Scanned, PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let ReadRequest {
        sqs,
        queue,
        attrs,
        options,
        interrupt,
    } = *request;
    let max = options
        .max
        .map_or(super::inspect::MAX_INSPECTED, |m| m as u64)
        .min(super::inspect::MAX_INSPECTED);
    let listed = sqs.inspection().visible_messages(queue, max).await?;
    let mut scanned = Scanned {
        visible_at_start: attrs.visible(),
        in_flight_at_start: attrs.in_flight(),
        inspected: true,
        exhausted: !listed.truncated,
        ..Scanned::default()
    };
    let mut messages = listed.messages.into_iter().peekable();
    while messages.peek().is_some() {
        if interrupt.is_set() {
            scanned.interrupted = true;
            scanned.exhausted = false;
            break;
        }
        let batch: Vec<MessageRecord> = messages.by_ref().take(10).collect();
        scanned.seen += batch.len() as u64;
        if on_batch(batch).is_break() {
            scanned.exhausted = false;
            break;
        }
    }
    scanned.ended_ms = now_ms();
    settle_counts(sqs, queue, &mut scanned, options.settle, interrupt).await;
    Ok(scanned)
}

/// The dead-letter queue of a read, resolved once, and its depth (visible, in flight and delayed)
/// before the read, for [`finish_read`].
pub struct DeadLetterWatch {
    queue: QueueRef,
    before: u64,
}

/// Watches the dead-letter queue of a read that costs `cost`; `None` without a redrive policy, or
/// when the queue cannot be read (a read goes on without the check rather than fail for it).
pub async fn watch_dead_letter_queue(
    sqs: &Sqs,
    cost: Option<&ReadCost>,
) -> Option<DeadLetterWatch> {
    let queue = sqs.resolve_arn(&cost?.dlq_arn).await.ok()?;
    let before = sqs.attributes(&queue).await.ok()?.total();
    Some(DeadLetterWatch { queue, before })
}

/// What every read does once its messages were released: notes when it ended, measures the
/// dead-letter queue again (against `watch`), and records the read in the queue's
/// [`ReadLedger`] when it saw messages (their receive counts grew) or was forced on a queue with
/// a redrive policy (it may have moved what an earlier read left at the limit, and what it saw
/// replaces that).
pub async fn finish_read(
    sqs: &Sqs,
    queue: &QueueRef,
    scanned: &mut Scanned,
    watch: Option<DeadLetterWatch>,
    force: bool,
) {
    scanned.ended_ms = now_ms();
    if let (Some(cost), Some(watch)) = (&scanned.cost, watch)
        && let Ok(after) = sqs.attributes(&watch.queue).await
    {
        scanned.dead_letter_depth = Some(DeadLetterDepth {
            dlq: cost.dlq.clone(),
            before: watch.before,
            after: after.total(),
        });
    }
    if scanned.seen == 0 && !(force && scanned.cost.is_some()) {
        return;
    }
    let recorded = ReadLedger::for_queue(queue).append(ReadEntry {
        ended_ms: scanned.ended_ms,
        at_limit: scanned.at_limit,
        near: scanned.near_dead_letter.saturating_sub(scanned.at_limit),
    });
    if let Err(e) = recorded {
        scanned.ledger_error = Some(e.to_string());
    }
}

/// When a read saw more messages than SQS's counts held at its start, reads the counts again,
/// every [`COUNTS_POLL`] for up to `wait`, until they hold what was read (the messages it read
/// are visible again by now), and says in [`Scanned::counts`] how that went. An interrupted read
/// does not wait.
pub async fn settle_counts(
    sqs: &Sqs,
    queue: &QueueRef,
    scanned: &mut Scanned,
    wait: Duration,
    interrupt: &Interrupt,
) {
    if !scanned.outran_counts() || scanned.interrupted {
        return;
    }
    // Nothing waits on counts that cannot change what a read to the end saw (see
    // [`Scanned::unseen_unknown`]): they are read again once, for the words.
    let wait = if queue.is_fifo() || !scanned.exhausted {
        wait
    } else {
        Duration::ZERO
    };
    let started = Instant::now();
    let (mut visible_after, mut in_flight_after) =
        (scanned.visible_at_start, scanned.in_flight_at_start);
    loop {
        if let Ok(attrs) = sqs.attributes(queue).await {
            (visible_after, in_flight_after) = (attrs.visible(), attrs.in_flight());
            if visible_after + in_flight_after >= scanned.seen {
                scanned.counts = CountsCheck::Settled {
                    visible_before: scanned.visible_at_start,
                    in_flight_before: scanned.in_flight_at_start,
                };
                scanned.visible_at_start = visible_after;
                scanned.in_flight_at_start = in_flight_after;
                return;
            }
        }
        if started.elapsed() + COUNTS_POLL > wait || interrupt.is_set() {
            break;
        }
        tokio::select! {
            () = tokio::time::sleep(COUNTS_POLL) => {}
            () = interrupt.wait() => break,
        }
    }
    scanned.counts = CountsCheck::Lagging {
        visible_after,
        in_flight_after,
        waited_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    };
}

impl Scanned {
    /// Counts a message a read saw for the first time, by where its receive count now stands.
    pub fn count_seen(&mut self, message: &MessageRecord) {
        self.seen += 1;
        if let (Some(cost), Some(count)) =
            (&self.cost, message.attribute_u64("ApproximateReceiveCount"))
            && cost.leaves_near_dead_letter(count)
        {
            self.near_dead_letter += 1;
            if cost.leaves_at_limit(count) {
                self.at_limit += 1;
            }
        }
    }
}

/// The receipt handles a scan holds, one per message: a message that comes again (its hold ran
/// out, or a standard queue delivered it twice) is held by its newest handle only, the one that
/// can still release it (releasing by the older handle too would fail once the message is
/// visible again).
#[derive(Debug, Default)]
pub(crate) struct Held {
    handles: Vec<String>,
    /// Where each message's handle is in `handles`, by message id.
    at: HashMap<String, usize>,
}

impl Held {
    /// Holds `handle` for the message `id`, in place of the handle of an earlier delivery.
    pub(crate) fn hold(&mut self, id: Option<&str>, handle: String) {
        let Some(id) = id else {
            self.handles.push(handle);
            return;
        };
        match self.at.get(id) {
            Some(&at) => self.handles[at] = handle,
            None => {
                self.at.insert(id.to_string(), self.handles.len());
                self.handles.push(handle);
            }
        }
    }

    /// Makes every held message visible again; how many could not be (also when a request
    /// failed: they come back by themselves when the hold runs out).
    pub(crate) async fn release(self, sqs: &Sqs, queue: &QueueRef) -> u64 {
        let handles: Vec<&str> = self.handles.iter().map(String::as_str).collect();
        sqs.release(queue, &handles).await.unwrap_or(handles.len()) as u64
    }
}

/// The receives of a [`scan`]: each message received once, held, and handed over when new.
async fn read<F>(
    request: &ReadRequest<'_>,
    scanned: &mut Scanned,
    held: &mut Held,
    on_batch: &mut F,
) -> Result<(), PeekError>
where
    F: FnMut(Vec<MessageRecord>) -> ControlFlow<()>,
{
    let ReadRequest {
        sqs,
        queue,
        options,
        interrupt,
        ..
    } = *request;
    let mut seen_ids: HashSet<String> = HashSet::new();
    let limit = options.max.unwrap_or(usize::MAX) as u64;
    // How many messages the scan expects to find before it confirms the end with a long poll.
    let mut expected = scanned.visible_at_start;
    let stop_at = stop_reading_at(options.hold_seconds);
    loop {
        if interrupt.is_set() {
            scanned.interrupted = true;
            return Ok(());
        }
        if Instant::now() >= stop_at {
            scanned.hold_ran_short = true;
            return Ok(());
        }
        let remaining = limit.saturating_sub(scanned.seen);
        if remaining == 0 {
            return Ok(());
        }
        // Short polls while the queue still holds unseen messages; one long poll to be sure
        // nothing more comes once the visible depth at the start has been covered. A FIFO queue
        // is long-polled throughout: a receive locks the groups it brings messages of, so a
        // short poll that sampled only part of a group's head would cut what the scan sees of it.
        let wait = if scanned.seen < expected && !queue.is_fifo() {
            0
        } else {
            FINAL_WAIT_SECONDS
        };
        let request = ReceiveOptions {
            max_messages: remaining.min(10) as i32,
            wait_seconds: Some(wait),
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
            // A message seen before came back (its hold ran out, or it was delivered twice); it
            // is not new.
            let new = match &message.message_id {
                Some(id) => seen_ids.insert(id.clone()),
                None => true,
            };
            if let Some(handle) = &message.receipt_handle {
                held.hold(message.message_id.as_deref(), handle.clone());
            }
            if new {
                scanned.count_seen(&message);
                fresh.push(message);
            }
        }
        if fresh.is_empty() {
            continue;
        }
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

    fn with_policy(max: u32) -> (QueueRef, QueueAttributes) {
        let policy = format!(
            r#"{{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:orders-dlq","maxReceiveCount":"{max}"}}"#
        );
        queue_with(&[("RedrivePolicy", &policy)])
    }

    #[test]
    fn guard_refuses_a_max_receive_count_of_one_or_two_unless_forced() {
        for max in [1, 2] {
            let (queue, attrs) = with_policy(max);
            match guard(&queue, &attrs, false) {
                Err(PeekError::WouldDeadLetter {
                    dlq,
                    max_receive_count,
                    ..
                }) => {
                    assert_eq!(dlq, "orders-dlq");
                    assert_eq!(max_receive_count, max);
                }
                other => panic!("expected a refusal at {max}, got {other:?}"),
            }
            let cost = guard(&queue, &attrs, true).expect("forced");
            assert_eq!(cost.map(|c| c.max_receive_count), Some(max));
        }
    }

    #[test]
    fn guard_reads_a_max_receive_count_of_three_or_more_and_names_the_cost() {
        let (queue, attrs) = with_policy(5);
        let cost = guard(&queue, &attrs, false)
            .expect("read without forcing")
            .expect("a cost");
        assert_eq!(
            cost.describe(),
            "each message read used 1 of its 5 receives before the dead-letter queue `orders-dlq`"
        );
        let (queue, attrs) = with_policy(MIN_UNFORCED_MAX_RECEIVE_COUNT);
        assert!(guard(&queue, &attrs, false).is_ok());
    }

    #[test]
    fn a_message_one_receive_from_the_dlq_is_counted_from_max_minus_one() {
        let cost = ReadCost {
            dlq: "orders-dlq".into(),
            dlq_arn: "arn:aws:sqs:us-east-1:000000000000:orders-dlq".into(),
            max_receive_count: 5,
        };
        assert!(!cost.leaves_near_dead_letter(3));
        assert!(cost.leaves_near_dead_letter(4));
        assert!(cost.leaves_near_dead_letter(5));
        assert_eq!(cost.describe_near(0), None);
        let line = cost.describe_near(1).expect("a line");
        assert!(
            line.starts_with("1 message is now one receive away"),
            "{line}"
        );
        let line = cost.describe_near(3).expect("a line");
        assert!(line.starts_with("3 messages are now"), "{line}");
    }

    #[test]
    fn guard_lets_a_queue_without_a_redrive_policy_be_read() {
        let (queue, attrs) = queue_with(&[("VisibilityTimeout", "30")]);
        assert_eq!(guard(&queue, &attrs, false).expect("read"), None);
    }
}
