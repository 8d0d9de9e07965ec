//! The tenants of a fair queue (a standard queue whose messages carry group ids) and the checks
//! on them.
//!
//! SQS treats each `MessageGroupId` of a standard queue as a tenant, and a tenant as a noisy
//! neighbour while it holds more than [`NOISY_SHARE_PERCENT`]% of the queue's in-flight messages
//! and at least [`NOISY_MIN_IN_FLIGHT`] of its own; quiet tenants' messages are then delivered
//! first. What a tenant holds in flight is hidden from any reader of SQS itself (a message in
//! flight is not delivered), so a layout built from a scan knows each tenant's visible backlog
//! only; `sqsctl local` counts in flight per tenant exactly through its inspection endpoint.

use serde::Serialize;

use super::finding::{Finding, Severity, human_seconds, percent};
use super::observe::Observations;
use super::scaling::looks_per_process;
use crate::client::inspect::GroupCounts;
use crate::text::plural;

/// A tenant with fewer messages in flight is never noisy.
pub const NOISY_MIN_IN_FLIGHT: u64 = 30;
/// A tenant must hold more than this share (in percent) of the queue's in-flight messages.
pub const NOISY_SHARE_PERCENT: u64 = 10;
/// Messages read, all of one tenant, before a constant tenant id is reported.
const CONSTANT_AFTER: u64 = 20;

/// SQS's rule: a tenant holding `in_flight` of the queue's `queue_in_flight` messages in flight
/// is noisy.
pub fn is_noisy(in_flight: u64, queue_in_flight: u64) -> bool {
    in_flight >= NOISY_MIN_IN_FLIGHT && in_flight * 100 > queue_in_flight * NOISY_SHARE_PERCENT
}

/// Where a layout's figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TenantSource {
    /// `sqsctl local`'s count of every message, in flight included: exact.
    Inspection,
    /// The visible messages a scan read: in flight per tenant is unknown.
    Scan,
}

/// One tenant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TenantRow {
    pub tenant: String,
    /// Visible messages (the tenant's backlog).
    pub visible: u64,
    /// Share of the queue's visible messages, in percent.
    pub visible_share_percent: u64,
    /// Messages in flight; `None` when it cannot be known (a scan of SQS).
    pub in_flight: Option<u64>,
    /// Share of the queue's in-flight messages, in percent.
    pub in_flight_share_percent: Option<u64>,
    pub oldest_age_seconds: Option<u64>,
    /// Noisy now by SQS's rule; `None` when in flight is unknown.
    pub noisy: Option<bool>,
}

/// The queue-wide figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TenantTotals {
    pub tenants: u64,
    /// Visible messages of all tenants (ungrouped ones included).
    pub visible: u64,
    /// The queue's messages in flight (SQS's approximate count after a scan).
    pub in_flight: u64,
    /// Messages without a group id: each is a tenant of its own.
    pub ungrouped: u64,
    pub noisy: Vec<String>,
    pub exact: bool,
    /// More tenants exist than are listed.
    pub truncated: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TenantLayout {
    pub source: TenantSource,
    /// Most in flight first, then largest backlog.
    pub tenants: Vec<TenantRow>,
    pub totals: TenantTotals,
}

impl TenantLayout {
    /// From `sqsctl local`'s exact counts.
    pub fn from_counts(counts: &GroupCounts, now_ms: u64) -> TenantLayout {
        let visible: u64 =
            counts.groups.iter().map(|g| g.counts.visible).sum::<u64>() + counts.ungrouped.visible;
        let tenants = counts
            .groups
            .iter()
            .map(|g| TenantRow {
                tenant: g.group_id.clone(),
                visible: g.counts.visible,
                visible_share_percent: percent(g.counts.visible, visible),
                in_flight: Some(g.counts.in_flight),
                in_flight_share_percent: Some(percent(g.counts.in_flight, counts.in_flight)),
                oldest_age_seconds: Some(now_ms.saturating_sub(g.oldest_sent_timestamp) / 1000),
                noisy: Some(g.noisy.unwrap_or_else(|| {
                    g.counts.visible > 0 && is_noisy(g.counts.in_flight, counts.in_flight)
                })),
            })
            .collect();
        let ungrouped = counts.ungrouped.visible + counts.ungrouped.in_flight;
        TenantLayout::sorted(
            TenantSource::Inspection,
            tenants,
            visible,
            counts.in_flight,
            ungrouped,
            counts.truncated,
        )
    }

    /// From a scan's (or an export's) messages: the backlog each tenant showed. `in_flight`: the
    /// queue's in-flight count, when read from a live queue.
    pub fn from_observations(obs: &Observations, in_flight: u64, now_ms: u64) -> TenantLayout {
        let visible = obs.messages;
        let tenants = obs
            .groups_in_order()
            .into_iter()
            .map(|(name, g)| TenantRow {
                tenant: name.to_string(),
                visible: g.seen,
                visible_share_percent: percent(g.seen, visible),
                in_flight: None,
                in_flight_share_percent: None,
                oldest_age_seconds: g.oldest_sent_ms.map(|s| now_ms.saturating_sub(s) / 1000),
                noisy: None,
            })
            .collect();
        TenantLayout::sorted(
            TenantSource::Scan,
            tenants,
            visible,
            in_flight,
            obs.ungrouped,
            false,
        )
    }

    fn sorted(
        source: TenantSource,
        mut tenants: Vec<TenantRow>,
        visible: u64,
        in_flight: u64,
        ungrouped: u64,
        truncated: bool,
    ) -> TenantLayout {
        tenants.sort_by(|a, b| {
            b.in_flight
                .cmp(&a.in_flight)
                .then(b.visible.cmp(&a.visible))
                .then(a.tenant.cmp(&b.tenant))
        });
        let noisy = tenants
            .iter()
            .filter(|t| t.noisy == Some(true))
            .map(|t| t.tenant.clone())
            .collect();
        TenantLayout {
            source,
            totals: TenantTotals {
                tenants: tenants.len() as u64,
                visible,
                in_flight,
                ungrouped,
                noisy,
                exact: source == TenantSource::Inspection,
                truncated,
            },
            tenants,
        }
    }
}

/// A fair queue in brief, as `top` shows it: how many tenants (group ids) it holds and which are
/// noisy now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TenantSummary {
    pub tenants: u64,
    /// More tenants were there than counted.
    pub truncated: bool,
    /// The noisy tenants, most in flight first.
    pub noisy: Vec<String>,
}

impl TenantSummary {
    /// From `sqsctl local`'s exact counts; `None` for a FIFO queue or one whose messages carry no
    /// group id (not a fair queue).
    pub fn from_counts(counts: &GroupCounts) -> Option<TenantSummary> {
        if counts.fifo || counts.groups.is_empty() {
            return None;
        }
        let layout = TenantLayout::from_counts(counts, 0);
        Some(TenantSummary {
            tenants: layout.tenants.len() as u64,
            truncated: counts.truncated,
            noisy: layout
                .tenants
                .into_iter()
                .filter(|t| t.noisy == Some(true))
                .map(|t| t.tenant)
                .collect(),
        })
    }
}

/// The checks on a fair queue's tenants. `untouched`: the messages read are every message the
/// queue holds and none was received by a consumer before, so they stand for what producers sent;
/// otherwise consumers may have taken other tenants' messages (fair delivery serves quiet tenants
/// first), and what is left says nothing about how many tenants producers name.
pub fn check(layout: &TenantLayout, untouched: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    findings.extend(noisy_tenants(layout));
    findings.extend(tenant_id_shape(layout, untouched));
    findings.extend(too_few_in_flight(layout));
    findings
}

fn noisy_tenants(layout: &TenantLayout) -> Option<Finding> {
    let noisy: Vec<&TenantRow> = layout
        .tenants
        .iter()
        .filter(|t| t.noisy == Some(true))
        .collect();
    let first = noisy.first()?;
    let names: Vec<String> = noisy.iter().map(|t| format!("`{}`", t.tenant)).collect();
    let title = if noisy.len() == 1 {
        format!("Tenant `{}` is a noisy neighbour", first.tenant)
    } else {
        format!("{} tenants are noisy neighbours", noisy.len())
    };
    let mut finding = Finding::new("noisy-tenant", Severity::Warning, title);
    for tenant in noisy.iter().take(3) {
        finding = finding.evidence(format!(
            "`{}` holds {} of the {} in flight ({}%, more than {NOISY_SHARE_PERCENT}% and at \
             least {NOISY_MIN_IN_FLIGHT}) and {} of the {} visible ({}%)",
            tenant.tenant,
            tenant.in_flight.unwrap_or(0),
            layout.totals.in_flight,
            tenant.in_flight_share_percent.unwrap_or(0),
            tenant.visible,
            layout.totals.visible,
            tenant.visible_share_percent
        ));
    }
    let quiet: Vec<&TenantRow> = layout
        .tenants
        .iter()
        .filter(|t| t.noisy == Some(false) && t.visible > 0)
        .collect();
    let quiet_oldest = quiet.iter().filter_map(|t| t.oldest_age_seconds).max();
    let noisy_oldest = noisy.iter().filter_map(|t| t.oldest_age_seconds).max();
    if let Some(oldest) = quiet_oldest {
        finding = finding.evidence(format!(
            "the other {} waiting have waited at most {} (the noisy one's oldest: {}): SQS \
             delivers their messages first",
            plural(quiet.len() as u64, "tenant"),
            human_seconds(oldest),
            noisy_oldest.map_or("-".to_string(), human_seconds)
        ));
    }
    Some(finding.advice(format!(
        "Fair delivery keeps the other tenants flowing while {} floods the queue; if the flood \
         is not expected, find why its producer sends so much, and if it is, give it consumers \
         (or a queue) of its own.",
        names.join(", ")
    )))
}

fn tenant_id_shape(layout: &TenantLayout, untouched: bool) -> Option<Finding> {
    let grouped: u64 = layout.tenants.iter().map(|t| t.visible).sum();
    if untouched
        && layout.tenants.len() == 1
        && grouped >= CONSTANT_AFTER
        && layout.totals.ungrouped == 0
        && layout.totals.in_flight == 0
    {
        let tenant = &layout.tenants[0].tenant;
        return Some(
            Finding::new(
                "tenant-id-constant",
                Severity::Warning,
                "Every message carries the same tenant id",
            )
            .evidence(format!(
                "all {grouped} messages in the queue have MessageGroupId `{tenant}`, and none was \
                 in flight or received by a consumer before, so no other tenant's messages were \
                 taken from it"
            ))
            .advice(
                "On a standard queue the group id names the tenant that fair delivery keeps \
                 apart: one value for everything makes the whole queue one tenant. Set it to the \
                 customer (or account, or tenant) a message belongs to.",
            ),
        );
    }
    let per_process: Vec<&TenantRow> = layout
        .tenants
        .iter()
        .filter(|t| looks_per_process(&t.tenant))
        .collect();
    if layout.tenants.len() >= 2 && per_process.len() * 2 > layout.tenants.len() {
        let examples: Vec<String> = per_process
            .iter()
            .take(3)
            .map(|t| format!("`{}`", t.tenant))
            .collect();
        return Some(
            Finding::new(
                "tenant-id-per-process",
                Severity::Warning,
                "Tenant ids look like producer instances, not tenants",
            )
            .evidence(format!(
                "{} of {} tenant ids look like a UUID, host, pid or start time, e.g. {}",
                per_process.len(),
                layout.tenants.len(),
                examples.join(", ")
            ))
            .advice(
                "Fair delivery keeps tenants apart by group id: an id per producer process \
                 mixes every customer that process serves. Set it to the customer (or account) \
                 a message belongs to.",
            ),
        );
    }
    None
}

fn too_few_in_flight(layout: &TenantLayout) -> Option<Finding> {
    let in_flight = layout.totals.in_flight;
    if layout.tenants.len() < 2
        || in_flight == 0
        || in_flight >= NOISY_MIN_IN_FLIGHT
        || layout.totals.visible == 0
    {
        return None;
    }
    Some(
        Finding::new(
            "tenants-few-in-flight",
            Severity::Info,
            "Consumers hold too few messages for fair delivery to tell tenants apart",
        )
        .evidence(format!(
            "{} in flight across {} tenants; SQS counts a tenant as noisy only from \
             {NOISY_MIN_IN_FLIGHT} in flight of its own",
            plural(in_flight, "message"),
            layout.tenants.len()
        ))
        .advice(
            "Fair queues work when consumers receive many messages at once (batches of 10, \
             several workers): with few in flight no tenant is ever noisy and messages come in \
             plain order.",
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::inspect::{GroupCount, StateCounts};

    const NOW: u64 = 1_795_000_100_000;

    fn counts(groups: &[(&str, u64, u64)], queue_in_flight: u64) -> GroupCounts {
        GroupCounts {
            fifo: false,
            in_flight: queue_in_flight,
            groups: groups
                .iter()
                .map(|(id, visible, in_flight)| GroupCount {
                    group_id: id.to_string(),
                    counts: StateCounts {
                        visible: *visible,
                        in_flight: *in_flight,
                        delayed: 0,
                    },
                    oldest_sent_timestamp: NOW - 60_000,
                    noisy: None,
                })
                .collect(),
            ungrouped: StateCounts::default(),
            truncated: false,
        }
    }

    #[test]
    fn the_rule_holds_at_its_edges() {
        assert!(!is_noisy(29, 29), "29 in flight is too few");
        assert!(is_noisy(30, 30));
        // 30 of 300 is exactly 10%: not more than 10%.
        assert!(!is_noisy(30, 300));
        assert!(is_noisy(30, 299));
        assert!(!is_noisy(0, 0));
    }

    #[test]
    fn a_flooding_tenant_is_reported_and_the_quiet_ones_are_not() {
        let layout = TenantLayout::from_counts(
            &counts(&[("a", 4_940, 60), ("b", 20, 0), ("c", 20, 0)], 60),
            NOW,
        );
        assert_eq!(layout.totals.noisy, ["a"]);
        assert_eq!(layout.tenants[0].in_flight_share_percent, Some(100));
        let findings = check(&layout, true);
        let ids: Vec<_> = findings.iter().map(|f| f.id).collect();
        assert_eq!(ids, ["noisy-tenant"]);
        assert!(findings[0].title.contains("`a`"));
        // A tenant without a backlog is not noisy.
        let drained = TenantLayout::from_counts(&counts(&[("a", 0, 60), ("b", 5, 0)], 60), NOW);
        assert!(drained.totals.noisy.is_empty());
    }

    #[test]
    fn constant_and_per_process_tenant_ids_are_flagged_and_many_tenants_are_fine() {
        let one = TenantLayout::from_counts(&counts(&[("app", 500, 0)], 0), NOW);
        assert_eq!(check(&one, true)[0].id, "tenant-id-constant");
        // The same backlog after consumers took messages: other tenants may have been drained.
        assert!(check(&one, false).is_empty());
        let busy = TenantLayout::from_counts(&counts(&[("app", 500, 10)], 10), NOW);
        assert!(check(&busy, true).is_empty(), "messages in flight");
        let hosts = TenantLayout::from_counts(
            &counts(&[("worker-12345", 50, 0), ("worker-23456", 50, 0)], 0),
            NOW,
        );
        assert_eq!(check(&hosts, true)[0].id, "tenant-id-per-process");
        let healthy = TenantLayout::from_counts(
            &counts(
                &[("acme", 50, 12), ("globex", 40, 10), ("initech", 30, 8)],
                30,
            ),
            NOW,
        );
        assert!(check(&healthy, true).is_empty());
        let few = TenantLayout::from_counts(&counts(&[("acme", 50, 2), ("globex", 40, 1)], 3), NOW);
        assert_eq!(check(&few, true)[0].severity, Severity::Info);
    }
}
