//! `receive` without `--delete` is a read: every message it returns stays in the queue with its
//! receive count raised by one, a step toward the dead-letter queue of a redrive policy. So it
//! follows the [read guard](crate::client::peek::guard) that `peek` follows: refused without
//! `--force` when `maxReceiveCount` is 1 or 2 or the last read left messages at the limit, the
//! cost said after the read, the messages left near the dead-letter queue counted, the read
//! recorded in the ledger, and the dead-letter queue measured around it. A follow that gives
//! messages back receives each one again after every visibility timeout, until the redrive policy
//! moves it: on a queue with one it is refused without `--force`.
//!
//! `--delete` consumes on purpose: what it writes is deleted, so the guard does not apply.

use crate::client::QueueRef;
use crate::client::peek::{self, DeadLetterWatch, ReadCost, Scanned};
use crate::commands::context::Context;
use crate::error::with_hint;
use crate::receive::{ReceivePlan, ReceiveReport};
use crate::text::plural;

/// A follow without `--delete` on a queue with a redrive policy.
#[derive(Debug, thiserror::Error)]
#[error(
    "refusing to follow `{queue}` without --delete: each message written comes back after its \
     visibility timeout and is received again, and its redrive policy moves a message to `{dlq}` \
     after {}",
    plural(u64::from(*.max_receive_count), "receive")
)]
struct FollowWouldDeadLetter {
    queue: String,
    dlq: String,
    max_receive_count: u32,
}

/// A read weighed before it starts: what it costs, and the dead-letter queue it watches.
pub struct ReadGuard {
    pub cost: Option<ReadCost>,
    watch: Option<DeadLetterWatch>,
    force: bool,
}

impl ReadGuard {
    /// Weighs a run of `plan` on `queue`: nothing to weigh with `--delete`; otherwise the guard's
    /// rule, and its refusal with the hint that names the flags.
    pub async fn weigh(
        ctx: &Context,
        queue: &QueueRef,
        plan: &ReceivePlan,
        force: bool,
    ) -> anyhow::Result<ReadGuard> {
        if plan.delete {
            return Ok(ReadGuard {
                cost: None,
                watch: None,
                force,
            });
        }
        let sqs = ctx.sqs().await?;
        let attrs = sqs.attributes(queue).await?;
        let cost = peek::guard(queue, &attrs, force).map_err(|refused| match refused {
            peek::PeekError::WouldDeadLetter { .. } | peek::PeekError::LeftAtLimit { .. } => {
                with_hint(
                    refused,
                    format!(
                        "without --delete every message received stays in the queue with one receive used; --delete consumes them, --force reads anyway (queues with a maxReceiveCount of {} or more are read without asking)",
                        peek::MIN_UNFORCED_MAX_RECEIVE_COUNT
                    ),
                )
            }
            other => anyhow::Error::new(other),
        })?;
        if plan.follow
            && !force
            && let Some(cost) = &cost
        {
            return Err(with_hint(
                FollowWouldDeadLetter {
                    queue: queue.name.clone(),
                    dlq: cost.dlq.clone(),
                    max_receive_count: cost.max_receive_count,
                },
                "--delete consumes what it writes; --force follows anyway",
            ));
        }
        let watch = peek::watch_dead_letter_queue(sqs, cost.as_ref()).await;
        Ok(ReadGuard { cost, watch, force })
    }

    /// Once the run ended: records the read, measures the dead-letter queue again, and says what
    /// the read cost and left behind. Returns how many messages arrived in the dead-letter queue
    /// while it ran.
    pub async fn finish(self, ctx: &Context, queue: &QueueRef, report: &ReceiveReport) -> u64 {
        let Some(cost) = self.cost else {
            return 0;
        };
        let Ok(sqs) = ctx.sqs().await else {
            return 0;
        };
        let mut scanned = Scanned {
            seen: report.received,
            near_dead_letter: report.near_dead_letter,
            at_limit: report.at_limit,
            cost: Some(cost.clone()),
            ..Scanned::default()
        };
        peek::finish_read(sqs, queue, &mut scanned, self.watch, self.force).await;
        if let Some(e) = &scanned.ledger_error {
            ctx.printer
                .debug(format!("could not record the read in the ledger: {e}"));
        }
        if report.received > 0 {
            ctx.printer.info(cost.describe());
            if let Some(line) = cost.describe_at_limit(report.at_limit) {
                ctx.printer.warn(format!(
                    "{line}, so sqsctl refuses to read this queue again without --force or --delete"
                ));
            }
            if let Some(near) = cost.describe_near(report.near_dead_letter - report.at_limit) {
                ctx.printer.warn(near);
            }
        }
        if let Some(moved) = scanned.dead_letter_warning(&queue.name) {
            ctx.printer.warn(moved);
        }
        scanned.dead_lettered()
    }
}
