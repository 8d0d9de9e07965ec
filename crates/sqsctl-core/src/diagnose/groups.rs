//! The layout of a FIFO queue's message groups: per group what was seen and inferred, and the
//! queue-wide totals (the checks on it are in [`super::scaling`]).
//!
//! A scan of a live FIFO queue cannot see a whole group: SQS delivers nothing of a group past its
//! first message in flight, and the scan holds what it reads, so it sees each group's first
//! messages (up to ten per receive), and nothing of a group whose oldest message a consumer holds.
//! The
//! layout therefore says what was seen and what was inferred: the visible depth at the start minus
//! the messages seen is the number of messages still behind the heads, and only groups whose last
//! receive was full can hold them.

use serde::Serialize;

use super::finding::percent;
use super::observe::{Observations, ReceiveClock};
use super::words::{Tool, Words};
use crate::text::plural;

/// A group whose head was received this many times before is blocked on a failing message.
/// (Reads by tools count too, so one or two earlier looks at the queue are not enough.)
pub const HEAD_RETRIES: u64 = 3;
/// Why a finding about receive counts is only informational when nothing was in flight.
pub const IDLE_NOTE: &str = "no message was in flight when the queue was read, so no consumer \
     was receiving: the counts climbed earlier, or through reads that only looked";
/// Receive counts include reads that only looked.
pub fn own_reads_note() -> Words {
    Words::from("receive counts include reads that only looked: each ")
        .then(Tool::LookingReads)
        .then(" of the queue adds one")
}

/// How much of the queue the observations cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Coverage {
    /// Every message (an export of the whole queue, or a producer's log).
    Complete,
    /// A scan of a live queue that does not consume it.
    Scan {
        visible_at_start: u64,
        in_flight_at_start: u64,
        /// The queue had nothing more to deliver (as opposed to stopping at the sample size).
        exhausted: bool,
        /// SQS's counts still held fewer messages than the scan read when read again after it:
        /// how many messages the scan did not see is unknown. Left out of JSON when false.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        counts_lagging: bool,
    },
}

impl Coverage {
    /// A live scan after which SQS's counts still lagged behind what it read, so that what it
    /// did not see is unknown.
    pub fn counts_lagging(&self) -> bool {
        matches!(
            self,
            Coverage::Scan {
                counts_lagging: true,
                ..
            }
        )
    }

    /// A live scan found no message in flight: no consumer was receiving from the queue, so
    /// receive counts climbed earlier, or through reads that only looked.
    pub fn nothing_in_flight(&self) -> bool {
        matches!(
            self,
            Coverage::Scan {
                in_flight_at_start: 0,
                ..
            }
        )
    }
}

/// One message group as seen (and, where noted, inferred).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRow {
    pub group_id: String,
    pub seen: u64,
    /// Visible messages of the group: the messages seen, plus those inferred behind them.
    pub visible: u64,
    /// More of the group may sit behind what was seen.
    pub more_behind: bool,
    /// `visible` includes messages inferred behind the ones seen (from the queue's depth).
    pub inferred: bool,
    /// Messages of the group in flight: 0 from a scan, which cannot see them (a group delivered
    /// to it may still have messages in flight past those it delivered).
    pub in_flight: u64,
    pub oldest_age_seconds: Option<u64>,
    /// Times the group's head had been received before this read.
    pub head_prior_receives: Option<u64>,
    /// The head keeps coming back (failing or timing out) and holds up the rest of the group.
    pub blocked: bool,
}

/// The queue-wide figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupTotals {
    pub distinct_groups: u64,
    pub messages_seen: u64,
    /// Messages without a group id (a standard queue, or messages written by hand).
    pub ungrouped: u64,
    pub visible_at_start: Option<u64>,
    pub in_flight_at_start: Option<u64>,
    /// Visible messages the scan was not given (behind group heads, or in groups held by others).
    pub not_delivered: Option<u64>,
    /// The largest group, when it is known (not when several groups may hide messages).
    pub largest_group: Option<String>,
    /// Share of all messages held by the largest group (a lower bound unless `exact`); `None`
    /// when SQS's counts lag behind the scan and groups may hide messages: then the queue's
    /// size, and so any share of it, is unknown.
    pub largest_group_share_percent: Option<u64>,
    /// How many consumers can make progress at once: the messages over the largest group's
    /// (an upper bound unless `exact`).
    pub effective_parallelism: f64,
    pub exact: bool,
    /// Groups that may hold more than was seen (their last receive came back full).
    pub groups_with_more_behind: u64,
    /// Messages in those groups: what was seen of them plus everything not delivered.
    pub messages_in_those_groups: u64,
    pub head_of_line_blocked: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupLayout {
    pub coverage: Coverage,
    /// Groups, largest first.
    pub groups: Vec<GroupRow>,
    pub totals: GroupTotals,
    /// What was inferred rather than seen, in plain words.
    pub inferred: Vec<String>,
}

/// Builds the layout. `clock` tells failed receives of a group's head from reads that only looked.
pub fn layout(obs: &Observations, coverage: Coverage, clock: &ReceiveClock<'_>) -> GroupLayout {
    let now_ms = clock.now_ms;
    let mut inferred = Vec::new();
    let mut rows: Vec<GroupRow> = obs
        .groups_in_order()
        .into_iter()
        .map(|(name, g)| {
            let prior = g
                .head_receive_count
                .map(|n| clock.prior_receives(n, g.head_first_receive_ms));
            let failed = g
                .head_receive_count
                .map_or(0, |n| clock.timed_out_receives(n, g.head_first_receive_ms));
            GroupRow {
                group_id: name.to_string(),
                seen: g.seen,
                visible: g.seen,
                more_behind: matches!(coverage, Coverage::Scan { .. }) && g.may_continue,
                inferred: false,
                in_flight: 0,
                oldest_age_seconds: g.oldest_sent_ms.map(|s| now_ms.saturating_sub(s) / 1000),
                head_prior_receives: prior,
                blocked: failed >= HEAD_RETRIES,
            }
        })
        .collect();
    if rows.is_empty() && obs.messages > 0 {
        inferred.push("no message read carries a MessageGroupId".to_string());
    }
    let seen_grouped: u64 = rows.iter().map(|r| r.seen).sum();
    let max_seen = rows.iter().map(|r| r.seen).max().unwrap_or(0);
    let (total, largest, exact, not_delivered, visible_at_start, in_flight_at_start) =
        match coverage {
            Coverage::Complete => (seen_grouped, max_seen, true, None, None, None),
            Coverage::Scan {
                visible_at_start,
                in_flight_at_start,
                counts_lagging: true,
                ..
            } => {
                // Counts below what was read say nothing of what the scan did not see: no
                // message is inferred behind a head, and no group is known to be the largest.
                inferred.push(format!(
                    "SQS's counts lag behind the scan: it read {} but they held {} visible and \
                     {} in flight, so how many messages wait behind the group heads is unknown",
                    plural(obs.messages, "message"),
                    visible_at_start,
                    in_flight_at_start
                ));
                (
                    seen_grouped,
                    max_seen,
                    false,
                    None,
                    Some(visible_at_start),
                    Some(in_flight_at_start),
                )
            }
            Coverage::Scan {
                visible_at_start,
                in_flight_at_start,
                exhausted,
                counts_lagging: false,
            } => {
                let total = visible_at_start
                    .saturating_sub(obs.ungrouped)
                    .max(seen_grouped);
                let unseen = total - seen_grouped;
                // Every visible message was delivered: none waits behind a head, whatever a
                // full receive suggested.
                if exhausted && unseen == 0 {
                    for row in &mut rows {
                        row.more_behind = false;
                    }
                }
                // With nothing in flight no group can be hidden: if no receive came back full
                // (a server that returns fewer messages of a group at once), the messages not
                // delivered still wait behind the heads of the groups seen.
                if exhausted
                    && unseen > 0
                    && in_flight_at_start == 0
                    && !rows.iter().any(|r| r.more_behind)
                {
                    for row in &mut rows {
                        row.more_behind = true;
                    }
                }
                let candidates = rows.iter().filter(|r| r.more_behind).count() as u64;
                let mut largest = max_seen;
                let mut exact = exhausted && unseen == 0 && in_flight_at_start == 0;
                if !exhausted {
                    inferred.push(format!(
                        "the scan stopped early (at the sample size, or interrupted): {} of {} \
                         visible messages were read, so groups not seen yet may exist",
                        obs.messages, visible_at_start
                    ));
                } else if unseen > 0 && candidates > 0 {
                    let behind: u64 = rows.iter().filter(|r| r.more_behind).map(|r| r.seen).sum();
                    largest = largest.max((unseen + behind).div_ceil(candidates));
                    if candidates == 1 && in_flight_at_start == 0 {
                        exact = true;
                    }
                    if let Some(row) = rows.iter_mut().find(|r| r.more_behind)
                        && candidates == 1
                    {
                        row.visible += unseen;
                        row.inferred = true;
                    }
                    let behind_whom = match rows.iter().find(|r| r.more_behind) {
                        Some(row) if candidates == 1 => format!("group `{}`", row.group_id),
                        _ => format!("the {candidates} groups marked as having more behind"),
                    };
                    inferred.push(format!(
                        "{} were not delivered: SQS delivers nothing of a \
                         group past a message held, so they wait behind the head of \
                         {behind_whom}{}",
                        plural(unseen, "visible message"),
                        if in_flight_at_start > 0 {
                            " (or in groups held by consumers)"
                        } else {
                            ""
                        }
                    ));
                } else if unseen > 0 {
                    inferred.push(format!(
                        "{} were not delivered: they wait in their groups behind \
                         messages in flight, which a scan cannot see",
                        plural(unseen, "visible message")
                    ));
                }
                if in_flight_at_start > 0 {
                    inferred.push(format!(
                        "{} were in flight when the scan started; \
                         what follows them in their groups is held back until they are deleted \
                         or time out, and a group whose oldest message is among them is not \
                         listed",
                        plural(in_flight_at_start, "message")
                    ));
                }
                (
                    total,
                    largest,
                    exact,
                    Some(unseen),
                    Some(visible_at_start),
                    Some(in_flight_at_start),
                )
            }
        };
    // Largest first; at equal counts, groups that may hold more come first.
    rows.sort_by(|a, b| {
        b.visible
            .cmp(&a.visible)
            .then(b.more_behind.cmp(&a.more_behind))
            .then(b.seen.cmp(&a.seen))
    });
    let candidates: Vec<&GroupRow> = rows.iter().filter(|r| r.more_behind).collect();
    let in_candidates = candidates.iter().map(|r| r.seen).sum::<u64>()
        + not_delivered
            .filter(|_| !candidates.is_empty())
            .unwrap_or(0);
    let distinct = rows.len() as u64;
    // Counts that lag leave the messages behind the heads uncounted: with a group that may hold
    // more, neither the largest group nor its share is known, and one consumer per group is
    // the only bound on the parallelism.
    let unknown_size = coverage.counts_lagging() && !candidates.is_empty();
    let largest_known = if coverage.counts_lagging() {
        candidates.is_empty()
    } else {
        exact || candidates.len() <= 1
    };
    let parallelism = if largest == 0 {
        0.0
    } else if unknown_size {
        distinct as f64
    } else {
        ((total as f64 / largest as f64).min(distinct as f64) * 10.0).round() / 10.0
    };
    let totals = GroupTotals {
        distinct_groups: distinct,
        messages_seen: obs.messages,
        ungrouped: obs.ungrouped,
        visible_at_start,
        in_flight_at_start,
        not_delivered,
        largest_group: rows
            .first()
            .filter(|_| largest_known)
            .map(|r| r.group_id.clone()),
        largest_group_share_percent: (!unknown_size).then(|| percent(largest, total)),
        effective_parallelism: parallelism,
        exact,
        groups_with_more_behind: candidates.len() as u64,
        messages_in_those_groups: in_candidates,
        head_of_line_blocked: rows
            .iter()
            .filter(|r| r.blocked)
            .map(|r| r.group_id.clone())
            .collect(),
    };
    GroupLayout {
        coverage,
        groups: rows,
        totals,
        inferred,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::Severity;
    use crate::diagnose::observe::tests::fifo;
    use crate::diagnose::scaling::{check, looks_per_process};

    const NOW: u64 = 1_795_000_100_000;

    const SCANS: [u64; 2] = [NOW - 1_000, NOW - 500];

    /// A clock after `own_scans` earlier scans of ours.
    fn clock(own_scans: usize) -> ReceiveClock<'static> {
        ReceiveClock {
            now_ms: NOW,
            own_scans: &SCANS[..own_scans],
            visibility_timeout: None,
        }
    }

    fn scan(batches: &[Vec<(&str, u64)>]) -> Observations {
        let mut obs = Observations::new(false);
        let mut n = 0;
        for batch in batches {
            let records: Vec<_> = batch
                .iter()
                .map(|(group, receives)| {
                    n += 1;
                    fifo(
                        group,
                        &format!("d{n}"),
                        &format!("m{n}"),
                        NOW - 60_000,
                        *receives,
                    )
                })
                .collect();
            obs.add_batch(&records);
        }
        obs
    }

    #[test]
    fn one_constant_group_is_serialized_and_the_rest_is_inferred_behind_its_head() {
        let obs = scan(&[vec![("producer-1", 1); 10]]);
        let coverage = Coverage::Scan {
            visible_at_start: 5_000,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let layout = layout(&obs, coverage, &clock(0));
        assert_eq!(layout.groups.len(), 1);
        assert_eq!(layout.groups[0].visible, 5_000);
        assert!(layout.groups[0].more_behind);
        assert_eq!(layout.groups[0].oldest_age_seconds, Some(60));
        let t = &layout.totals;
        assert_eq!((t.effective_parallelism, t.exact), (1.0, true));
        assert_eq!(t.largest_group_share_percent, Some(100));
        assert_eq!(t.not_delivered, Some(4_990));
        assert!(layout.inferred[0].starts_with("4990 visible messages were not delivered"));
        let findings = check(&layout);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].id, "serialized-groups");
        assert_eq!(findings[0].severity, Severity::Error);
    }

    #[test]
    fn a_hot_group_in_an_export_is_measured_exactly() {
        let mut obs = Observations::new(false);
        for i in 0..300 {
            let group = if i % 3 == 0 {
                format!("g{}", i % 49)
            } else {
                "hot".into()
            };
            obs.add(&fifo(&group, &format!("d{i}"), "b", NOW, 1));
        }
        let layout = layout(&obs, Coverage::Complete, &clock(0));
        let t = &layout.totals;
        assert_eq!(t.largest_group.as_deref(), Some("hot"));
        assert_eq!(t.largest_group_share_percent, Some(67));
        assert_eq!(t.effective_parallelism, 1.5);
        let findings = check(&layout);
        assert_eq!(findings[0].severity, Severity::Warning);
        assert!(findings[0].title.contains("67%"), "{}", findings[0].title);
    }

    #[test]
    fn a_scan_that_finds_most_messages_behind_a_few_heads_says_so() {
        // Twenty groups of two seen whole, and two whose receive came back full.
        let mut batches: Vec<Vec<(&str, u64)>> = Vec::new();
        let names: Vec<String> = (0..20).map(|i| format!("g{i}")).collect();
        for chunk in names.chunks(4) {
            let mut batch: Vec<(&str, u64)> = Vec::new();
            for name in chunk {
                batch.extend([(name.as_str(), 1), (name.as_str(), 1)]);
            }
            batches.push(batch);
        }
        batches.push(vec![("hot", 1); 10]);
        batches.push(vec![("warm", 1); 10]);
        let obs = scan(&batches);
        let coverage = Coverage::Scan {
            visible_at_start: 400,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let layout = layout(&obs, coverage, &clock(0));
        let t = &layout.totals;
        assert_eq!(
            (t.groups_with_more_behind, t.messages_in_those_groups),
            (2, 360)
        );
        assert_eq!(t.largest_group, None, "one of two, unknown which");
        assert_eq!(t.largest_group_share_percent, Some(45));
        assert_eq!(t.effective_parallelism, 2.2);
        let finding = &check(&layout)[0];
        assert_eq!(
            finding.title,
            "Most messages wait in 2 of 22 message groups"
        );
        assert!(
            finding.evidence[1].plain().contains("`hot`, `warm`"),
            "{:?}",
            finding.evidence
        );
    }

    #[test]
    fn without_full_receives_the_undelivered_messages_are_still_behind_the_heads() {
        // A server that hands out one message of a group per receive.
        let obs = scan(&[vec![("only", 1)]]);
        let coverage = Coverage::Scan {
            visible_at_start: 300,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let layout = layout(&obs, coverage, &clock(0));
        assert!(layout.totals.exact);
        assert_eq!(layout.groups[0].visible, 300);
        assert_eq!(check(&layout)[0].severity, Severity::Error);
    }

    #[test]
    fn many_even_groups_are_fine() {
        let batches: Vec<Vec<(&str, u64)>> = ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .map(|g| vec![(*g, 1); 3])
            .collect();
        let obs = scan(&batches);
        let coverage = Coverage::Scan {
            visible_at_start: 24,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let layout = layout(&obs, coverage, &clock(0));
        assert_eq!(layout.totals.effective_parallelism, 8.0);
        assert!(layout.totals.exact);
        assert!(check(&layout).is_empty());
    }

    #[test]
    fn a_failing_head_blocks_its_group_and_own_reads_do_not_count() {
        let obs = scan(&[vec![("a", 4), ("a", 1)], vec![("b", 2)]]);
        let coverage = Coverage::Complete;
        let blocked = layout(&obs, coverage, &clock(0));
        assert_eq!(blocked.totals.head_of_line_blocked, ["a"]);
        let finding = &check(&blocked)[0];
        assert_eq!(
            (finding.id, finding.severity),
            ("head-of-line-blocking", Severity::Error)
        );
        assert!(
            finding.evidence[0]
                .plain()
                .contains("received 3 times before")
        );
        // The same heads after two earlier reads of our own: not failures.
        assert!(
            layout(&obs, coverage, &clock(2))
                .totals
                .head_of_line_blocked
                .is_empty()
        );
        // Read live with nothing in flight: nobody is receiving now, so only a note.
        let idle = Coverage::Scan {
            visible_at_start: 3,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let finding = &check(&layout(&obs, idle, &clock(0)))[0];
        assert_eq!(finding.severity, Severity::Info);
    }

    #[test]
    fn in_flight_and_sampled_scans_are_not_exact() {
        let obs = scan(&[vec![("a", 1); 3]]);
        let sampled = layout(
            &obs,
            Coverage::Scan {
                visible_at_start: 100,
                in_flight_at_start: 0,
                exhausted: false,
                counts_lagging: false,
            },
            &clock(0),
        );
        assert!(!sampled.totals.exact);
        assert!(sampled.inferred[0].contains("sample size"));
        let held = layout(
            &obs,
            Coverage::Scan {
                visible_at_start: 3,
                in_flight_at_start: 5,
                exhausted: true,
                counts_lagging: false,
            },
            &clock(0),
        );
        assert!(!held.totals.exact);
        assert!(held.inferred[0].contains("5 messages were in flight"));
    }

    #[test]
    fn a_scan_that_saw_every_visible_message_has_nothing_behind_any_head() {
        // Full receives, but the queue held no more than was read.
        let obs = scan(&[
            vec![("hot", 1); 10],
            vec![("hot", 1); 5],
            vec![("b", 1); 10],
        ]);
        let whole = Coverage::Scan {
            visible_at_start: 25,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let layout = layout(&obs, whole, &clock(0));
        assert!(layout.groups.iter().all(|g| !g.more_behind), "{layout:?}");
        let t = &layout.totals;
        assert_eq!((t.not_delivered, t.groups_with_more_behind), (Some(0), 0));
        assert_eq!(t.messages_in_those_groups, 0);
    }

    #[test]
    fn counts_that_lag_behind_the_scan_infer_nothing_behind_the_heads() {
        let obs = scan(&[vec![("hot", 1); 10], vec![("a", 1), ("b", 1)]]);
        let lagging = Coverage::Scan {
            visible_at_start: 0,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: true,
        };
        let layout = layout(&obs, lagging, &clock(0));
        let t = &layout.totals;
        assert_eq!((t.not_delivered, t.exact), (None, false));
        assert_eq!(t.largest_group, None);
        assert_eq!(
            t.largest_group_share_percent, None,
            "of a queue of unknown size"
        );
        assert_eq!(
            t.effective_parallelism, 3.0,
            "one consumer per group at most"
        );
        assert!(
            layout.groups[0].more_behind,
            "the hot group's receive came back full"
        );
        assert!(
            layout.inferred[0].starts_with("SQS's counts lag behind the scan: it read 12 messages"),
            "{:?}",
            layout.inferred
        );
    }

    #[test]
    fn per_process_group_ids_are_recognised() {
        assert!(looks_per_process("6f1c2a9e-3b7d-4c55-9a1e-2f0b8c7d6e5a"));
        assert!(looks_per_process("worker-12345"));
        assert!(looks_per_process("deploy-1795000000"));
        assert!(!looks_per_process("order-42"));
        assert!(!looks_per_process("customer-981"));
    }
}
