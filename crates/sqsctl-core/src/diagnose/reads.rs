//! What the read of a queue itself tells: which checks could not run, or ran over part of the
//! queue only (the scan was refused, or stopped before the visible depth was read), and which
//! messages the read left one receive away from the dead-letter queue.
//!
//! A run that skipped a check is never a clean bill of health: it gets a `warning` finding and
//! `complete: false`. What SQS lets no reader see (messages behind FIFO group heads, messages in
//! flight at consumers) is coverage, reported with the inference by [`super::groups`], and does not
//! make a run incomplete; SQS's counts that lag behind what was read (so that what the read did not
//! see cannot be inferred) do.

use super::{Finding, Observations, QueueFacts, ReceiveClock, Severity, Tool, Words};
use crate::client::peek::{CountsCheck, MIN_UNFORCED_MAX_RECEIVE_COUNT, Scanned};
use crate::read_ledger::ReadEntry;

/// A check that did not run, or ran over part of the queue only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The check's name: `message-groups`, `deduplication-ids`, `receive-counts`,
    /// `dead-letter-messages`.
    pub check: &'static str,
    pub reason: Words,
}

/// Why messages were not read: the guard refused a queue whose `maxReceiveCount` is too low.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub queue: String,
    pub dlq: String,
    pub max_receive_count: u32,
    /// Set when the refusal came from the read ledger: the last read left messages at their
    /// `maxReceiveCount`.
    pub left: Option<ReadEntry>,
}

impl Refusal {
    /// The guard's refusal as a `Refusal`; any other error is given back.
    pub fn from_guard(
        err: crate::client::peek::PeekError,
    ) -> Result<Refusal, crate::client::peek::PeekError> {
        use crate::client::peek::PeekError;
        match err {
            PeekError::WouldDeadLetter {
                queue,
                dlq,
                max_receive_count,
            } => Ok(Refusal {
                queue,
                dlq,
                max_receive_count,
                left: None,
            }),
            PeekError::LeftAtLimit {
                queue,
                dlq,
                max_receive_count,
                left,
            } => Ok(Refusal {
                queue,
                dlq,
                max_receive_count,
                left: Some(left),
            }),
            other => Err(other),
        }
    }

    /// The refusal as the guard's error, for commands that cannot go on without messages.
    pub fn to_error(&self) -> crate::client::peek::PeekError {
        use crate::client::peek::PeekError;
        match self.left {
            Some(left) => PeekError::LeftAtLimit {
                queue: self.queue.clone(),
                dlq: self.dlq.clone(),
                max_receive_count: self.max_receive_count,
                left,
            },
            None => PeekError::WouldDeadLetter {
                queue: self.queue.clone(),
                dlq: self.dlq.clone(),
                max_receive_count: self.max_receive_count,
            },
        }
    }
}

/// The checks that need the queue's messages, for the queue `facts` describes.
fn message_checks(facts: &QueueFacts) -> Vec<&'static str> {
    let mut checks = Vec::new();
    if facts.attrs.is_fifo() || facts.name.ends_with(".fifo") {
        checks.extend(["message-groups", "deduplication-ids"]);
    }
    checks.push("receive-counts");
    if !facts.sources.is_empty() || facts.dlq_sources > 0 {
        checks.push("dead-letter-messages");
    }
    checks
}

/// The checks a live read left undone, with the finding that says so; nothing when every check
/// ran over every visible message.
pub fn unread(
    facts: &QueueFacts,
    refused: Option<&Refusal>,
    scan: Option<&Scanned>,
) -> Option<(Finding, Vec<Skipped>)> {
    let skipped = |reason: Words| -> Vec<Skipped> {
        message_checks(facts)
            .into_iter()
            .map(|check| Skipped {
                check,
                reason: reason.clone(),
            })
            .collect()
    };
    if let Some(refusal) = refused {
        let finding = scan_skipped(refusal);
        let reason = match refusal.left {
            Some(left) => format!(
                "messages not read: the last read left {} at maxReceiveCount {}",
                crate::text::plural(left.at_limit, "message"),
                refusal.max_receive_count
            ),
            None => format!(
                "messages not read: maxReceiveCount {} is below {MIN_UNFORCED_MAX_RECEIVE_COUNT}",
                refusal.max_receive_count
            ),
        };
        return Some((finding, skipped(reason.into())));
    }
    let scan = scan?;
    let fifo = facts.attrs.is_fifo() || facts.name.ends_with(".fifo");
    if let Some(finding) = counts_lagging(scan).filter(|_| scan.unseen_unknown(fifo)) {
        let reason = Words::from(format!(
            "SQS's counts ({} visible, {} in flight) lag behind the {} read: how much of the \
             queue the read saw is unknown",
            scan.visible_at_start,
            scan.in_flight_at_start,
            crate::text::plural(scan.seen, "message")
        ));
        return Some((finding, skipped(reason)));
    }
    if scan.exhausted || scan.seen >= scan.visible_at_start {
        return None;
    }
    let why = if scan.interrupted {
        Words::from("the scan was interrupted")
    } else if scan.hold_ran_short {
        Words::from(
            "the scan stopped before the messages it held became visible again, so as not to \
             read any message twice",
        )
    } else {
        Words::from("the scan stopped at the ")
            .then(Tool::SampleSize)
            .then(" limit")
    };
    let reason = Words::from(format!(
        "{} of {} visible messages read: ",
        scan.seen, scan.visible_at_start
    ))
    .then(why.clone());
    let finding = Finding::new(
        "scan-incomplete",
        Severity::Warning,
        format!(
            "Only {} of {} visible messages were read: the checks over messages saw part of the \
             queue",
            scan.seen, scan.visible_at_start
        ),
    )
    .evidence(why)
    .advice(
        Words::from("Run again with a ")
            .then(Tool::SampleSize)
            .then(format!(
                " of at least {} so that the scan reads as far as the queue delivers, or export \
                 the messages and run ",
                scan.visible_at_start
            ))
            .then(Tool::DiagnoseExport {
                queue: facts.name.clone(),
            })
            .then("."),
    );
    Some((finding, skipped(reason)))
}

/// The finding that says SQS's counts still held fewer messages than the read saw when read again
/// after it: what the read did not see (messages behind FIFO group heads, the rest of a sampled
/// queue) cannot be inferred, so no check over messages is a clean bill.
fn counts_lagging(scan: &Scanned) -> Option<Finding> {
    let CountsCheck::Lagging {
        visible_after,
        in_flight_after,
        waited_ms,
    } = scan.counts
    else {
        return None;
    };
    Some(
        Finding::new(
            "counts-lagging",
            Severity::Warning,
            "SQS's counts lag behind what was read: the checks over messages may have seen part \
             of the queue",
        )
        .evidence(format!(
            "{} read, but SQS counted {} visible and {} in flight when the read started",
            crate::text::plural(scan.seen, "message"),
            scan.visible_at_start,
            scan.in_flight_at_start
        ))
        .evidence(format!(
            "read again {} later: {visible_after} visible and {in_flight_after} in flight",
            crate::text::format_seconds(waited_ms.div_ceil(1000))
        ))
        .advice(
            "SQS's Approximate* counts catch up with recent sends within about a minute: run \
             again then. Until they do, nobody can tell how many messages wait behind what was \
             read (behind FIFO group heads, or past the sample).",
        ),
    )
}

/// The finding that says messages were not read because a read could take a consumer's last
/// try.
pub fn scan_skipped(refusal: &Refusal) -> Finding {
    let Refusal {
        queue,
        dlq,
        max_receive_count,
        left,
    } = refusal;
    let finding = Finding::new(
        "scan-skipped",
        Severity::Warning,
        "Messages were not read: only the queue's settings were checked",
    );
    let diagnose_export = Tool::DiagnoseExport {
        queue: queue.clone(),
    };
    if let Some(left) = left {
        return finding
            .evidence(format!(
                "the last read by sqsctl ({}) left {} at maxReceiveCount {max_receive_count}: \
                 one more receive moves {} to {dlq}",
                crate::text::format_millis(left.ended_ms),
                crate::text::plural(left.at_limit, "message"),
                if left.at_limit == 1 { "it" } else { "them" }
            ))
            .advice(
                Words::from("Consumers may have taken them since. To read anyway, pass ")
                    .then(Tool::ForceRead)
                    .then(format!(
                        " (any message still at its limit moves to {dlq}), or export the \
                         messages and run "
                    ))
                    .then(diagnose_export)
                    .then("."),
            );
    }
    finding
        .evidence(
            Words::from(format!(
                "{queue} moves a message to {dlq} after {max_receive_count} receive{}; reading a \
                 message counts as a receive and could take a consumer's last try, so queues \
                 with a maxReceiveCount below {MIN_UNFORCED_MAX_RECEIVE_COUNT} are read only \
                 with ",
                if *max_receive_count == 1 { "" } else { "s" }
            ))
            .then(Tool::ForceRead),
        )
        .advice(
            Words::from("To check groups, deduplication ids and receive counts too, pass ")
                .then(Tool::ForceRead)
                .then(format!(
                    " (each message read uses one of its {max_receive_count} receives before \
                     {dlq}), or export the messages and run "
                ))
                .then(diagnose_export)
                .then("."),
        )
}

/// Messages the read left one receive (or none) away from the dead-letter queue: a `warning`
/// when consumers' receives brought them there (poison messages, or a visibility timeout shorter
/// than the work), `info` when only sqsctl's own reads did.
pub fn near_dead_letter(
    facts: &QueueFacts,
    obs: &Observations,
    clock: &ReceiveClock<'_>,
) -> Option<Finding> {
    let policy = facts.attrs.redrive_policy()?;
    let max = u64::from(policy.max_receive_count);
    let edge = max.saturating_sub(1);
    let near = obs.received_at_least(edge);
    if near == 0 {
        return None;
    }
    // Receives by consumers: the count without this read and without sqsctl's earlier ones.
    let by_consumers = obs
        .retried
        .iter()
        .filter(|(count, first)| *count >= edge && clock.prior_receives(*count, *first) + 1 >= edge)
        .count() as u64;
    let dlq = crate::client::queue::name_from_arn(&policy.dead_letter_target_arn)
        .unwrap_or(&policy.dead_letter_target_arn);
    let mut finding = Finding::new(
        "near-dead-letter",
        if by_consumers > 0 {
            Severity::Warning
        } else {
            Severity::Info
        },
        format!(
            "{} of {} read {} one receive away from the dead-letter queue",
            near,
            crate::text::plural(obs.messages, "message"),
            if near == 1 { "is" } else { "are" }
        ),
    )
    .evidence(format!(
        "received at least {edge} of {max} times (this read included); the next receive is their \
         last before {dlq}"
    ));
    finding = if by_consumers > 0 {
        finding.evidence(format!(
            "{by_consumers} of them got there through consumers' receives, not sqsctl's reads"
        ))
    } else {
        finding.evidence("sqsctl's own reads brought them there: each read used one receive")
    };
    Some(finding.advice(if by_consumers > 0 {
        Words::from(
            "Messages received again and again either fail (poison messages: look at them with ",
        )
        .then(Tool::Peek { queue: None })
        .then(
            ") or outlast the visibility timeout (raise it above the longest processing time). \
             Every further read takes one of their last receives.",
        )
    } else {
        Words::from(
            "Read this queue less often: every read takes one of each message's receives, and \
             the next one is their last before the dead-letter queue.",
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(seen: u64, visible: u64, exhausted: bool) -> Scanned {
        Scanned {
            seen,
            visible_at_start: visible,
            exhausted,
            ..Scanned::default()
        }
    }

    #[test]
    fn a_scan_cut_short_before_the_visible_depth_is_incomplete() {
        let facts = QueueFacts::plain("jobs");
        let (finding, skipped) =
            unread(&facts, None, Some(&scanned(3, 5_000, false))).expect("incomplete");
        assert_eq!(finding.id, "scan-incomplete");
        assert_eq!(finding.severity, Severity::Warning);
        assert!(
            finding
                .advice
                .plain()
                .contains("SampleSize of at least 5000")
        );
        assert_eq!(skipped[0].check, "receive-counts");
        assert!(
            skipped[0].reason.tools().eq([&Tool::SampleSize]),
            "{skipped:?}"
        );
    }

    #[test]
    fn what_sqs_lets_no_reader_see_does_not_make_a_run_incomplete() {
        let facts = QueueFacts::plain("jobs.fifo");
        // Group heads only: the queue delivered nothing more.
        assert!(unread(&facts, None, Some(&scanned(10, 2_000, true))).is_none());
        // The sample reached the visible depth.
        assert!(unread(&facts, None, Some(&scanned(50, 50, false))).is_none());
    }

    #[test]
    fn counts_that_lag_behind_the_read_make_a_run_incomplete() {
        let facts = QueueFacts::plain("p2.fifo");
        let mut lagging = scanned(58, 0, true);
        lagging.counts = CountsCheck::Lagging {
            visible_after: 0,
            in_flight_after: 0,
            waited_ms: 5_000,
        };
        let (finding, skipped) = unread(&facts, None, Some(&lagging)).expect("incomplete");
        assert_eq!(
            (finding.id, finding.severity),
            ("counts-lagging", Severity::Warning)
        );
        assert_eq!(skipped[0].check, "message-groups");
        // Counts that caught up when read again are the queue's depth: nothing is skipped.
        let mut settled = scanned(58, 1_000, true);
        settled.counts = CountsCheck::Settled {
            visible_before: 0,
            in_flight_before: 0,
        };
        assert!(unread(&facts, None, Some(&settled)).is_none());
    }

    #[test]
    fn a_refused_scan_skips_every_message_check_with_a_warning() {
        let facts = QueueFacts::plain("mail.fifo");
        let refusal = Refusal {
            queue: "mail.fifo".into(),
            dlq: "mail-dlq.fifo".into(),
            max_receive_count: 1,
            left: None,
        };
        let (finding, skipped) = unread(&facts, Some(&refusal), None).expect("skipped");
        assert_eq!(finding.id, "scan-skipped");
        assert_eq!(finding.severity, Severity::Warning);
        let export = Tool::DiagnoseExport {
            queue: "mail.fifo".into(),
        };
        assert!(finding.advice.tools().eq([&Tool::ForceRead, &export]));
        let checks: Vec<_> = skipped.iter().map(|s| s.check).collect();
        assert_eq!(
            checks,
            ["message-groups", "deduplication-ids", "receive-counts"]
        );
    }
}
