//! The queue analyzer behind `sqsctl diagnose` and `sqsctl fifo groups`.
//!
//! Pure functions over message records and queue attributes: [`observe`] condenses messages (from a
//! scan of a live queue or from a JSON Lines export) into counters, [`groups`] lays out FIFO message
//! groups and says what a scan could and could not see, [`scaling`], [`dedup`] and [`settings`] run
//! the checks, [`dlq`] describes a dead-letter queue, [`counts`] counts messages by key, [`reads`] says what the read of the queue
//! left unchecked and how close it left messages to the dead-letter queue, and [`analyze`] runs
//! them all into a [`Report`] of [`Finding`]s, whose [`words`] name what sqsctl can do as facts
//! for the binary to spell. Reading the queue ([`gather`]) and deciding whether
//! it may be read ([`crate::client::peek::guard`]) happen before.

pub mod counts;
pub mod dedup;
pub mod dlq;
pub mod finding;
pub mod gather;
pub mod groups;
pub mod observe;
pub mod reads;
pub mod scaling;
pub mod settings;
pub mod tenant_key;
pub mod tenants;
pub mod watch;
pub mod words;

use crate::client::inspect::GroupCounts;
use crate::client::peek::Scanned;

pub use dlq::DlqView;
pub use finding::{Finding, Severity, has_problems, sort_findings};
pub use groups::{Coverage, GroupLayout};
pub use observe::{Observations, ReceiveClock};
pub use reads::{Refusal, Skipped};
pub use settings::{QueueFacts, RelatedQueue};
pub use tenants::TenantLayout;
pub use words::{QueueChange, Tool, Words};

/// What to analyze.
#[derive(Debug, Clone, Copy)]
pub struct Analysis<'a> {
    /// The live queue's attributes and neighbours; `None` for a file analyzed on its own.
    pub facts: Option<&'a QueueFacts>,
    /// The messages read; `None` when they were not read (see `refused`).
    pub observations: Option<&'a Observations>,
    /// The guard refused to read the live queue.
    pub refused: Option<&'a Refusal>,
    /// The scan of the live queue, when there was one.
    pub scan: Option<&'a Scanned>,
    pub coverage: Coverage,
    /// "Now" for ages, in epoch milliseconds.
    pub now_ms: u64,
    /// When earlier scans of the same queue by this tool ended (epoch milliseconds): their reads
    /// raised receive counts and are not failures.
    pub own_scans: &'a [u64],
    /// `sqsctl local`'s exact count of a standard queue's messages per tenant, when it gave one.
    pub tenant_counts: Option<&'a GroupCounts>,
}

/// Everything found: the content of `diagnose --output json`, whose words the binary spells.
#[derive(Debug, Clone)]
pub struct Report {
    pub queue: Option<String>,
    pub findings: Vec<Finding>,
    /// The FIFO group layout, when messages with group ids were read.
    pub groups: Option<GroupLayout>,
    /// The tenants of a standard queue whose messages carry group ids (a fair queue); absent
    /// otherwise.
    pub tenants: Option<TenantLayout>,
    /// The dead-letter view, when the queue is a DLQ.
    pub dlq: Option<DlqView>,
    /// Every check ran over every message it needed (see [`reads`]).
    pub complete: bool,
    /// The checks that did not run, or ran over part of the queue only.
    pub skipped: Vec<Skipped>,
}

impl Report {
    pub fn has_problems(&self) -> bool {
        has_problems(&self.findings)
    }
}

/// Runs every check that the inputs allow.
pub fn analyze(analysis: &Analysis<'_>) -> Report {
    let facts = analysis.facts;
    let obs = analysis.observations;
    let clock = ReceiveClock {
        now_ms: analysis.now_ms,
        own_scans: analysis.own_scans,
        visibility_timeout: facts.and_then(|f| f.attrs.visibility_timeout()),
    };
    let fifo = facts.is_none_or(|f| f.attrs.is_fifo() || f.name.ends_with(".fifo"));
    let groups = obs
        .filter(|o| fifo && !o.groups.is_empty())
        .map(|o| groups::layout(o, analysis.coverage, &clock));
    let tenants = if fifo {
        None
    } else {
        let in_flight = facts.map_or(0, |f| f.attrs.in_flight());
        match analysis.tenant_counts {
            Some(counts) => Some(TenantLayout::from_counts(counts, analysis.now_ms)),
            None => obs
                .filter(|o| !o.groups.is_empty())
                .map(|o| TenantLayout::from_observations(o, in_flight, analysis.now_ms)),
        }
        .filter(|layout| !layout.tenants.is_empty())
    };
    let mut findings = Vec::new();
    if let Some(layout) = &groups {
        findings.extend(scaling::check(layout));
    }
    if let (Some(layout), Some(obs)) = (&tenants, obs) {
        let untouched = untouched(analysis, obs, &clock);
        findings.extend(tenants::check(layout, untouched));
    }
    if let Some(tally) = obs.and_then(|o| tenant_key::applies(facts, o)) {
        findings.extend(tenant_key::check(tally));
    }
    if let Some(obs) = obs {
        let content_based = facts.is_some_and(|f| f.attrs.content_based_dedup());
        findings.extend(dedup::check(obs, content_based));
        dedup::weigh_with_groups(&mut findings);
    }
    match facts {
        Some(facts) => findings.extend(settings::check(
            facts,
            obs,
            groups.as_ref().map(|g| &g.totals),
            &clock,
            analysis.coverage,
        )),
        None => {
            if let Some(obs) = obs.filter(|o| o.dead_letter_sources.is_empty()) {
                findings.extend(settings::climbing_receives(
                    None,
                    obs,
                    &clock,
                    analysis.coverage,
                ));
            }
        }
    }
    let dlq = facts.and_then(|f| dlq::view(f, obs, analysis.now_ms));
    if let (Some(view), Some(facts)) = (&dlq, facts) {
        findings.extend(dlq::check(view, &facts.name));
    }
    if let (Some(facts), Some(obs)) = (facts, obs) {
        findings.extend(reads::near_dead_letter(facts, obs, &clock));
    }
    let mut skipped = Vec::new();
    if let Some(facts) = facts
        && let Some((finding, unchecked)) = reads::unread(facts, analysis.refused, analysis.scan)
    {
        findings.push(finding);
        skipped = unchecked;
    }
    sort_findings(&mut findings);
    Report {
        queue: facts.map(|f| f.name.clone()),
        findings,
        groups,
        tenants,
        dlq,
        complete: skipped.is_empty(),
        skipped,
    }
}

/// Whether the messages read are every message the queue holds, none of them received by a
/// consumer before: then they stand for what producers sent. A scan that stopped early, counts
/// that lag behind it, messages in flight, or a message a consumer received before (one taken
/// from the queue may have been deleted) say consumers may have changed the mix.
fn untouched(analysis: &Analysis<'_>, obs: &Observations, clock: &ReceiveClock<'_>) -> bool {
    let whole = match analysis.coverage {
        Coverage::Complete => true,
        Coverage::Scan {
            in_flight_at_start,
            exhausted,
            counts_lagging,
            ..
        } => exhausted && !counts_lagging && in_flight_at_start == 0,
    };
    // A listing through `sqsctl local`'s inspection endpoint raises no receive count: any count
    // is a consumer's receive. A read by receives added one of its own, and earlier reads by
    // sqsctl added theirs.
    let inspected = analysis.scan.is_some_and(|s| s.inspected);
    let received_before = if inspected {
        obs.received_at_least(1) > 0
    } else {
        obs.retried
            .iter()
            .any(|&(count, first)| clock.prior_receives(count, first) > 0)
    };
    whole && !received_before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::observe::tests::fifo;

    /// The report on a complete scan's observations, without a refusal or earlier scans.
    fn observed(
        facts: Option<&QueueFacts>,
        obs: &Observations,
        coverage: Coverage,
        now_ms: u64,
    ) -> Report {
        analyze(&Analysis {
            facts,
            observations: Some(obs),
            refused: None,
            scan: None,
            coverage,
            now_ms,
            own_scans: &[],
            tenant_counts: None,
        })
    }

    #[test]
    fn a_file_alone_gets_group_and_dedup_checks_most_severe_first() {
        let mut obs = Observations::new(false);
        for i in 0..20 {
            obs.add(&fifo(
                "deploy-1795000000",
                &format!("d{}", i % 19),
                &format!("m{i}"),
                1,
                1,
            ));
        }
        let report = observed(None, &obs, Coverage::Complete, 2);
        let ids: Vec<_> = report.findings.iter().map(|f| f.id).collect();
        assert_eq!(
            ids,
            ["serialized-groups", "dedup-collision", "dedup-id-counter"]
        );
        assert!(report.has_problems());
        assert!(report.groups.is_some() && report.dlq.is_none());
        assert_eq!(report.findings[0].severity, Severity::Error);
        assert!(!report.findings[0].evidence.is_empty());
    }

    #[test]
    fn standard_queues_have_no_group_layout() {
        let facts = QueueFacts::plain("jobs");
        let mut obs = Observations::new(false);
        obs.add(&fifo("tenant-1", "d", "b", 1, 1));
        let report = observed(Some(&facts), &obs, Coverage::Complete, 2);
        assert!(report.groups.is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Ids, groups, bodies and attributes come from users: no input makes an analyzer panic.
        #[test]
        fn any_messages_are_analyzed_without_panicking(
            messages in proptest::collection::vec(
                ("\\PC{0,20}", "[a-z0-9-]{0,6}", "\\PC{0,30}", 0u64..5, proptest::option::of(0u64..4_000_000_000_000)),
                0..40,
            ),
            visible in 0u64..500,
            in_flight in 0u64..5,
            exhausted: bool,
        ) {
            let mut obs = Observations::new(visible % 2 == 0);
            for chunk in messages.chunks(10) {
                let batch: Vec<_> = chunk
                    .iter()
                    .map(|(dedup, group, body, receives, sent)| {
                        let mut m = fifo(group, dedup, body, sent.unwrap_or(0), *receives);
                        if sent.is_none() {
                            m.attributes.remove("SentTimestamp");
                        }
                        m
                    })
                    .collect();
                obs.add_batch(&batch);
            }
            for coverage in [
                Coverage::Complete,
                Coverage::Scan { visible_at_start: visible, in_flight_at_start: in_flight, exhausted, counts_lagging: false },
                Coverage::Scan { visible_at_start: visible, in_flight_at_start: in_flight, exhausted, counts_lagging: true },
            ] {
                let report = observed(None, &obs, coverage, 1_795_000_000_000);
                proptest::prop_assert!(report.findings.iter().all(|f| !f.title.is_empty()));
            }
        }
    }
}
