//! What a redrive would move, computed without moving anything: the DLQ is read as `peek` reads a
//! queue (every message visible again afterwards), each message is put through the plan's
//! selection and limit, and the ones that would move are counted per destination and per group.
//! With a rewrite, each message that would move is also rewritten as the run would rewrite it
//! ([`PreviewedRewrite`]: before and after, or why the rewrite would leave it in the DLQ).
//! The preview is data; how it is shown (table, JSON, one line per message) is the caller's job.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde::Serialize;

use super::plan::{DedupMode, Plan};
use super::rewrite::{RewriteError, Rewriter};
use crate::client::peek::{self, CountsCheck, PeekError, PeekOptions, ReadCost};
use crate::client::{QueueAttributes, Sqs};
use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::select::{SelectionError, Selector};

/// How a preview reads the DLQ and what it keeps.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreviewOptions {
    /// The DLQ serves several source queues and no destination was chosen: each message counts
    /// toward the queue its `DeadLetterQueueSourceArn` names.
    pub per_source: bool,
    /// How many of the messages that would move to keep in [`Preview::messages`] (the counts
    /// cover every one).
    pub keep: usize,
}

/// What a redrive of the plan would do, as far as the read could see.
#[derive(Debug, Clone, Default)]
pub struct Preview {
    /// Messages visible in the DLQ when the read started.
    pub visible_at_start: u64,
    /// Messages in flight in the DLQ when the read started: not seen.
    pub in_flight_at_start: u64,
    /// Messages read from the DLQ.
    pub seen: u64,
    pub would_move: u64,
    pub would_stay: u64,
    /// Messages that would move, per destination queue name.
    pub per_destination: BTreeMap<String, u64>,
    /// With [`PreviewOptions::per_source`]: messages that would move but name no source queue
    /// (sent to the DLQ directly), so that only a chosen destination could take them.
    pub without_source: u64,
    /// Messages that would move, per message group (FIFO, or fair standard queues).
    pub per_group: BTreeMap<String, u64>,
    /// The first messages that would move (without receipt handles), at most
    /// [`PreviewOptions::keep`].
    pub messages: Vec<MessageRecord>,
    /// Held messages that could not be made visible again (they come back by themselves).
    pub release_failed: u64,
    /// The DLQ is FIFO: a read sees only the first messages of each group, so messages behind
    /// them were not seen.
    pub fifo: bool,
    /// The read stopped on Ctrl-C.
    pub interrupted: bool,
    /// What the read cost, when the DLQ itself has a redrive policy.
    pub cost: Option<ReadCost>,
    /// Messages the read left one receive (or none) away from the DLQ's own dead-letter queue.
    pub near_dead_letter: u64,
    /// The DLQ's own dead-letter queue around the read, when it has one.
    pub dead_letter_depth: Option<crate::client::peek::DeadLetterDepth>,
    /// Messages `--where` could not be evaluated on: counted in `would_stay`.
    pub where_failed: Option<crate::select::WhereFailures>,
    /// With a rewrite: the first messages that would move, before and after (at most
    /// [`PreviewOptions::keep`], beside [`Preview::messages`]).
    pub rewritten: Vec<PreviewedRewrite>,
    /// With a rewrite: what it would do over every message read.
    pub rewrite: Option<RewritePreview>,
    /// Whether the DLQ's counts covered what was read (`visible_at_start` holds the counts read
    /// again after the read when they had lagged behind it; [`CountsCheck::describe`] says how).
    pub counts: CountsCheck,
    /// The DLQ is FIFO and its counts lagged behind the read: how many messages wait behind the
    /// group heads seen is unknown (see [`peek::Scanned::unseen_unknown`]).
    unseen_unknown: bool,
}

impl Preview {
    /// Messages visible at the start that the read did not see; `None` when the DLQ's counts
    /// still lagged behind what was read, so that nobody can tell.
    pub fn unseen(&self) -> Option<u64> {
        (!self.counts.lagging()).then(|| self.visible_at_start.saturating_sub(self.seen))
    }

    /// A FIFO DLQ whose counts lag behind the read: how many messages wait behind the group
    /// heads it saw, and so how many would move, is unknown.
    pub fn incomplete(&self) -> bool {
        self.unseen_unknown
    }
}

/// A message of a dry run with a rewrite: as it is in the DLQ, and as it would be sent (or why
/// the rewrite would leave it there).
#[derive(Debug, Clone, Serialize)]
pub struct PreviewedRewrite {
    pub message_id: String,
    pub before: MessageRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<MessageRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a rewrite would do, over every message a dry run read.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RewritePreview {
    /// Messages the rewrite would refuse: they would stay in the DLQ (counted in `would_stay`).
    pub failed: u64,
    /// The reason of the first of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
    /// With `--unwrap`: messages that are not an envelope with a message inside (sent unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_envelope: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error(transparent)]
    Selection(#[from] SelectionError),
    #[error(transparent)]
    Read(#[from] PeekError),
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
}

/// Reads the plan's DLQ (whose attributes are `dlq_attrs`) and says what would move. `each` gets
/// every message that would move, as it is found (without its receipt handle), and may stop the
/// read with `ControlFlow::Break`; what was counted until then is returned.
pub async fn preview<F>(
    sqs: &Sqs,
    plan: &Plan,
    dlq_attrs: &QueueAttributes,
    options: PreviewOptions,
    interrupt: &Interrupt,
    mut each: F,
) -> Result<Preview, PreviewError>
where
    F: FnMut(&MessageRecord) -> ControlFlow<()>,
{
    preview_rewriting(sqs, plan, dlq_attrs, options, interrupt, |message, _| {
        each(message)
    })
    .await
}

/// [`preview`] that also hands `each` what the plan's rewrite makes of each message that would
/// move (`None` when the plan rewrites nothing). A message the rewrite refuses would stay: it is
/// counted in `would_stay` and handed to `each` with its error.
pub async fn preview_rewriting<F>(
    sqs: &Sqs,
    plan: &Plan,
    dlq_attrs: &QueueAttributes,
    options: PreviewOptions,
    interrupt: &Interrupt,
    mut each: F,
) -> Result<Preview, PreviewError>
where
    F: FnMut(&MessageRecord, Option<&PreviewedRewrite>) -> ControlFlow<()>,
{
    let selector = Selector::compile(&plan.selection)?;
    let rewriter = Rewriter::new(&plan.rewrite, plan.fifo, plan.dedup != DedupMode::New)?;
    let mut rewrite = rewriter.is_active().then(RewritePreview::default);
    let mut preview = Preview {
        fifo: dlq_attrs.is_fifo(),
        ..Preview::default()
    };
    let read = PeekOptions {
        max: None,
        hold_seconds: plan.visibility_timeout,
        force: false,
        settle: peek::COUNTS_SETTLE,
    };
    let limit = plan.limit.unwrap_or(u64::MAX);
    let request = peek::ReadRequest {
        sqs,
        queue: &plan.source,
        attrs: dlq_attrs,
        options: read,
        interrupt,
    };
    let scanned = peek::scan(&request, |batch| {
        for mut message in batch {
            preview.seen += 1;
            if preview.would_move >= limit || !selector.matches(&message) {
                preview.would_stay += 1;
                continue;
            }
            message.receipt_handle = None;
            let rewritten = rewrite.as_mut().map(|rewrite| {
                let mut original = message.clone();
                let outgoing = super::engine::outgoing(plan, &mut original, true);
                let id = message.message_id.clone().unwrap_or_default();
                let (after, error) = match rewriter.apply_blocking(&message, outgoing) {
                    Ok(done) => (Some(done.message), None),
                    Err(failure) => {
                        rewrite.failed += 1;
                        rewrite
                            .first_error
                            .get_or_insert_with(|| failure.to_string());
                        (None, Some(failure.to_string()))
                    }
                };
                PreviewedRewrite {
                    message_id: id,
                    before: message.clone(),
                    after,
                    error,
                }
            });
            if rewritten.as_ref().is_some_and(|r| r.error.is_some()) {
                preview.would_stay += 1;
                let flow = each(&message, rewritten.as_ref());
                if let Some(rewritten) = rewritten
                    && preview.rewritten.len() < options.keep
                {
                    preview.rewritten.push(rewritten);
                }
                if flow.is_break() {
                    return ControlFlow::Break(());
                }
                continue;
            }
            preview.would_move += 1;
            if !options.per_source {
                *preview
                    .per_destination
                    .entry(plan.destination.name.clone())
                    .or_default() += 1;
            } else if let Some(source) = message
                .attributes
                .get("DeadLetterQueueSourceArn")
                .and_then(|arn| arn.rsplit(':').next())
            {
                *preview
                    .per_destination
                    .entry(source.to_string())
                    .or_default() += 1;
            } else {
                preview.without_source += 1;
            }
            if let Some(group) = message.effective_group_id() {
                *preview.per_group.entry(group.to_string()).or_default() += 1;
            }
            let flow = each(&message, rewritten.as_ref());
            if let Some(rewritten) = rewritten
                && preview.rewritten.len() < options.keep
            {
                preview.rewritten.push(rewritten);
            }
            if preview.messages.len() < options.keep {
                preview.messages.push(message);
            }
            if flow.is_break() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
    .await?;
    // A dry run reads the DLQ to its end: only a FIFO one hides messages behind what was read.
    preview.unseen_unknown = preview.fifo && scanned.unseen_unknown(true);
    preview.visible_at_start = scanned.visible_at_start;
    preview.in_flight_at_start = scanned.in_flight_at_start;
    preview.release_failed = scanned.release_failed;
    preview.interrupted = scanned.interrupted;
    preview.cost = scanned.cost;
    preview.near_dead_letter = scanned.near_dead_letter;
    preview.dead_letter_depth = scanned.dead_letter_depth;
    preview.where_failed = selector.where_failures();
    preview.rewrite = rewrite.map(|rewrite| RewritePreview {
        not_envelope: rewriter.not_envelope(),
        ..rewrite
    });
    preview.counts = scanned.counts;
    Ok(preview)
}
