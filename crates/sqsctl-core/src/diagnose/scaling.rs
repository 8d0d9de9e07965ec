//! Checks on the group layout: serialized groups (one group, or a few, holding most messages)
//! and head-of-line blocking (a group's head failing over and over).

use super::dedup::embedded_time;
use super::finding::{Finding, Severity, human_seconds, percent};
use super::groups::{GroupLayout, GroupRow, IDLE_NOTE, own_reads_note};
use super::words::{Tool, Words};
use crate::text::plural;

/// Below this many messages a group layout says nothing about scaling.
const MIN_MESSAGES: u64 = 10;

/// Findings about the group layout: serialized groups and head-of-line blocking.
pub fn check(layout: &GroupLayout) -> Vec<Finding> {
    let mut findings = Vec::new();
    findings.extend(serialized(layout));
    findings.extend(head_of_line(layout));
    findings
}

fn serialized(layout: &GroupLayout) -> Option<Finding> {
    let t = &layout.totals;
    let total = t
        .visible_at_start
        .unwrap_or(0)
        .saturating_sub(t.ungrouped)
        .max(t.messages_seen - t.ungrouped);
    // A share of a queue whose size is unknown (its counts lag behind the scan) says nothing.
    let share = t.largest_group_share_percent?;
    if t.distinct_groups == 0 || total < MIN_MESSAGES {
        return None;
    }
    let bound = if t.exact { "" } else { "at least " };
    let few = t.groups_with_more_behind;
    let concentrated = !t.exact
        && few > 0
        && few * 4 <= t.distinct_groups
        && t.messages_in_those_groups * 2 >= total;
    let (severity, title) = if t.distinct_groups == 1 && t.exact {
        (
            Severity::Error,
            "Every message is in one message group: consumption is serialized".to_string(),
        )
    } else if share >= 50 {
        (
            Severity::Warning,
            format!("One message group holds {bound}{share}% of the messages"),
        )
    } else if concentrated {
        (
            Severity::Warning,
            format!(
                "Most messages wait in {few} of {} message groups",
                t.distinct_groups
            ),
        )
    } else if t.effective_parallelism < 4.0 && t.exact {
        (
            Severity::Warning,
            format!(
                "Only {} can make progress at once",
                crate::text::consumers(t.effective_parallelism)
            ),
        )
    } else {
        return None;
    };
    let mut finding = Finding::new("serialized-groups", severity, title).evidence(format!(
        "{} among {} seen{}",
        plural(t.distinct_groups, "distinct group"),
        plural(t.messages_seen, "message"),
        t.largest_group
            .as_deref()
            .map(|g| format!("; largest: `{g}`"))
            .unwrap_or_default()
    ));
    if concentrated {
        let names: Vec<String> = layout
            .groups
            .iter()
            .filter(|g| g.more_behind)
            .take(5)
            .map(|g| format!("`{}`", g.group_id))
            .collect();
        finding = finding.evidence(format!(
            "at least {} of {} ({}%) are in the {} whose last receive \
             came back full, so more of them wait behind their heads: {}{}",
            t.messages_in_those_groups,
            plural(total, "message"),
            percent(t.messages_in_those_groups, total),
            plural(few, "group"),
            names.join(", "),
            if few > 5 { ", ..." } else { "" }
        ));
    }
    if let (Some(visible), Some(not_delivered)) = (t.visible_at_start, t.not_delivered) {
        finding = finding.evidence(format!(
            "{visible} visible at the start, {not_delivered} not delivered to the scan because \
             they wait behind a group head"
        ));
    }
    finding = finding.evidence(format!(
        "effective parallelism: {}{} (however many run)",
        if t.exact { "" } else { "at most " },
        crate::text::consumers(t.effective_parallelism)
    ));
    let fixed: Vec<&str> = layout
        .groups
        .iter()
        .take(3)
        .map(|g| g.group_id.as_str())
        .filter(|id| looks_per_process(id))
        .collect();
    if let Some(id) = fixed.first() {
        finding = finding.evidence(format!(
            "the group id `{id}` looks like a value fixed when a producer starts (a UUID, host/pid \
             or start time), not a per-entity key"
        ));
    }
    Some(finding.advice(
        "Order is only kept within a group, and only one consumer works on a group at a time. Use \
         the entity whose order matters as the MessageGroupId (order id, account id, device id), \
         not a constant or a per-process value; messages of different entities then flow in \
         parallel.",
    ))
}

fn head_of_line(layout: &GroupLayout) -> Option<Finding> {
    let blocked: Vec<&GroupRow> = layout.groups.iter().filter(|g| g.blocked).collect();
    if blocked.is_empty() {
        return None;
    }
    let behind = blocked.iter().any(|g| g.seen > 1 || g.more_behind);
    let idle = layout.coverage.nothing_in_flight();
    let severity = match (idle, behind) {
        (true, _) => Severity::Info,
        (false, true) => Severity::Error,
        (false, false) => Severity::Warning,
    };
    let mut finding = Finding::new(
        "head-of-line-blocking",
        severity,
        format!(
            "{} held up by a head message that keeps failing",
            plural(blocked.len() as u64, "group")
        ),
    );
    finding = finding.evidence_each(&blocked, 5, |group| {
        format!(
            "group `{}`: head received {} times before{}{}",
            group.group_id,
            group.head_prior_receives.unwrap_or(0),
            group
                .oldest_age_seconds
                .map(|a| format!(", oldest message {} old", human_seconds(a)))
                .unwrap_or_default(),
            if group.seen > 1 || group.more_behind {
                ", more messages wait behind it"
            } else {
                ""
            }
        )
    });
    finding = finding.evidence(own_reads_note());
    if idle {
        finding = finding.evidence(IDLE_NOTE);
    }
    Some(
        finding.advice(
            Words::from(
                "While the head of a group is in flight, nothing behind it is delivered. Find why \
                 it fails (",
            )
            .then(Tool::Peek { queue: None })
            .then(
                " shows it), and set a redrive policy with a small maxReceiveCount so a poison \
                 message moves to a dead-letter queue instead of blocking its group.",
            ),
        ),
    )
}

/// Whether a group id looks like a value fixed per producer process rather than per entity.
pub fn looks_per_process(id: &str) -> bool {
    let is_uuid = uuid::Uuid::parse_str(id).is_ok();
    let host_pid = id
        .rsplit_once(['-', '_', ':', '.'])
        .is_some_and(|(host, pid)| {
            !host.is_empty()
                && (2..=7).contains(&pid.len())
                && pid.bytes().all(|b| b.is_ascii_digit())
                && host.bytes().any(|b| b.is_ascii_alphabetic())
                && (host.contains("worker")
                    || host.contains("host")
                    || host.contains("pod")
                    || host.contains("ip-")
                    || host.contains("producer"))
        });
    is_uuid || host_pid || embedded_time(id).is_some()
}
