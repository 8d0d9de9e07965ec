//! How the records of `diagnose` and `fifo groups` show: what was read as a line for stderr, a
//! finding as a table row (severity, what, evidence and advice) or a line of text, a change seen by
//! `--watch` as a line, and a FIFO group layout as the table of its groups and the table of its
//! totals.

use crate::client::peek::CountsCheck;
use crate::diagnose::finding::human_seconds;
use crate::diagnose::gather::{Inspection, MessageSource};
use crate::diagnose::groups::{self, GroupLayout, GroupTotals};
use crate::diagnose::watch::Change;
use crate::output::diagnose_words::FindingRecord;
use crate::output::document::rows_table;
use crate::output::{Column, Row, Table, pairs_table};
use crate::text::plural;

/// One line describing what was read, for stderr.
pub fn describe(inspection: &Inspection, source: &MessageSource) -> String {
    let name = inspection
        .queue
        .as_ref()
        .map_or("the file", |q| q.name.as_str());
    let seen = inspection.observations.as_ref().map_or(0, |o| o.messages);
    let duplicates = inspection.observations.as_ref().map_or(0, |o| o.duplicates);
    let copies = if duplicates > 0 {
        let copies = if duplicates == 1 { "copy" } else { "copies" };
        format!("; {duplicates} {copies} of a message already read left out")
    } else {
        String::new()
    };
    match (source, &inspection.scan, &inspection.refused) {
        (MessageSource::File(path), _, _) => format!(
            "{seen} message{} read from {}{copies}",
            if seen == 1 { "" } else { "s" },
            path.display()
        ),
        (_, _, Some(refusal)) => format!(
            "{name}: messages not read (maxReceiveCount {} before {}: --force reads them); \
             settings checked",
            refusal.max_receive_count, refusal.dlq
        ),
        (_, Some(scan), _) => {
            let read = match scan.counts {
                CountsCheck::Lagging { .. } => format!(
                    "read {} (SQS counted {} visible and {} in flight: its counts lag behind what \
                     was read)",
                    plural(scan.seen, "message"),
                    scan.visible_at_start,
                    scan.in_flight_at_start
                ),
                counts => format!(
                    "read {} of {} visible message{} ({} in flight{})",
                    scan.seen,
                    scan.visible_at_start,
                    if scan.visible_at_start == 1 { "" } else { "s" },
                    scan.in_flight_at_start,
                    match counts {
                        CountsCheck::Settled { .. } => {
                            "; SQS's counts, read again after the read because they lagged behind it"
                        }
                        // Only `sqsctl local`'s inspection endpoint counts exactly.
                        _ if scan.inspected => "",
                        _ => "; SQS's counts, approximate",
                    }
                ),
            };
            format!(
                "{name}: {read} without consuming them{}",
                if scan.interrupted {
                    "; interrupted"
                } else if scan.hold_ran_short {
                    "; stopped before the first of them became visible again, so as not to read \
                     any message twice"
                } else {
                    ""
                }
            )
        }
        _ => format!("{name}: checked"),
    }
}

/// A change between two runs of `diagnose --watch`, as one line.
pub fn change_line(change: &Change) -> String {
    match change {
        Change::New {
            id,
            severity,
            title,
        } => format!("new: {severity} {id}: {title}"),
        Change::Changed {
            id,
            from,
            to,
            title,
        } => format!("changed: {id} from {from} to {to}: {title}"),
        Change::Resolved { id, title } => format!("resolved: {id}: {title}"),
        Change::Unconfirmed {
            id,
            title,
            read_now,
            read_before,
        } => format!(
            "not seen, but this scan read {} against the {read_before} that showed it, so it is not taken as resolved: {id}: {title}",
            plural(*read_now, "message")
        ),
    }
}

/// Findings as a table: severity, what (title and id), and the evidence with the advice; with
/// `-o text`, one line each: severity, id, title, the evidence (`; ` between facts) and the advice.
impl Row for FindingRecord<'_> {
    const KIND: &'static str = "finding";

    fn columns() -> Vec<Column> {
        vec![
            Column::whole("severity"),
            Column::wrap("finding", 16, 30),
            Column::wrap("evidence and advice", 20, 56),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let mut details: Vec<String> = self.evidence.iter().map(|e| format!("- {e}")).collect();
        details.push(format!("=> {}", self.advice));
        vec![
            self.severity.to_string(),
            format!("{}\n[{}]", self.title, self.id),
            details.join("\n"),
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.severity.to_string(),
            self.id.to_string(),
            self.title.to_string(),
            self.evidence.join("; "),
            self.advice.clone(),
        ]
    }
}

fn visible_cell(group: &groups::GroupRow) -> String {
    if group.inferred {
        format!("{} (inferred)", group.visible)
    } else if group.more_behind {
        format!("{}+", group.visible)
    } else {
        group.visible.to_string()
    }
}

impl Row for groups::GroupRow {
    const KIND: &'static str = "group";

    fn columns() -> Vec<Column> {
        vec![
            Column::id("group"),
            Column::whole("seen"),
            Column::whole("visible"),
            Column::whole("in flight").droppable(3),
            Column::whole("oldest").droppable(2),
            Column::whole("head received before").droppable(1),
            Column::cut("blocked", 3, 24),
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.group_id.clone(),
            self.seen.to_string(),
            visible_cell(self),
            self.in_flight.to_string(),
            self.oldest_age_seconds.map_or("-".into(), human_seconds),
            self.head_prior_receives
                .map_or("-".into(), |n| n.to_string()),
            if self.blocked {
                "yes: head keeps failing"
            } else {
                "no"
            }
            .to_string(),
        ]
    }

    /// Group, seen, visible, and the oldest message's age in seconds.
    fn fields(&self) -> Vec<String> {
        vec![
            self.group_id.clone(),
            self.seen.to_string(),
            visible_cell(self),
            self.oldest_age_seconds.unwrap_or(0).to_string(),
        ]
    }
}

/// The groups (at most `limit`), and rows for those left out and those held by consumers.
pub fn groups_table(layout: &GroupLayout, limit: usize) -> Table {
    let shown = &layout.groups[..limit.min(layout.groups.len())];
    let mut table = rows_table(shown);
    let hidden = layout.groups.len().saturating_sub(limit);
    if hidden > 0 {
        table.row(vec![format!("({hidden} more groups: --limit or -o json)")]);
    }
    if let Some(in_flight) = layout.totals.in_flight_at_start.filter(|n| *n > 0) {
        table.row(vec![
            "(groups held by consumers)".into(),
            "-".into(),
            "-".into(),
            in_flight.to_string(),
            "-".into(),
            "-".into(),
            "yes: in flight".into(),
        ]);
    }
    table
}

pub fn totals_table(totals: &GroupTotals) -> Table {
    let bound = |exact: bool, upper: bool| match (exact, upper) {
        (true, _) => "",
        (false, true) => "at most ",
        (false, false) => "at least ",
    };
    let mut rows: Vec<(String, String)> = vec![
        ("distinct groups".into(), totals.distinct_groups.to_string()),
        ("messages seen".into(), totals.messages_seen.to_string()),
    ];
    if let Some(visible) = totals.visible_at_start {
        rows.push(("visible at start".into(), visible.to_string()));
    }
    if let Some(in_flight) = totals.in_flight_at_start {
        rows.push(("in flight at start".into(), in_flight.to_string()));
    }
    if let Some(not_delivered) = totals.not_delivered {
        rows.push((
            "not delivered (behind group heads)".into(),
            not_delivered.to_string(),
        ));
    }
    if totals.distinct_groups > 0 {
        let which = match &totals.largest_group {
            Some(largest) => largest.clone(),
            None => "one of the groups with more behind".into(),
        };
        rows.push((
            "largest group share".into(),
            match totals.largest_group_share_percent {
                Some(share) => format!("{}{share}% ({which})", bound(totals.exact, false)),
                None => "unknown: SQS's counts lag behind the scan".into(),
            },
        ));
    }
    if totals.groups_with_more_behind > 0 {
        rows.push((
            "groups with more behind".into(),
            format!(
                "{} (holding at least {})",
                totals.groups_with_more_behind,
                crate::text::plural(totals.messages_in_those_groups, "message")
            ),
        ));
    }
    rows.push((
        "effective parallelism".into(),
        format!(
            "{}{}",
            bound(totals.exact, true),
            crate::text::consumers(totals.effective_parallelism)
        ),
    ));
    rows.push((
        "head-of-line blocked groups".into(),
        if totals.head_of_line_blocked.is_empty() {
            "none".into()
        } else {
            totals.head_of_line_blocked.join(", ")
        },
    ));
    pairs_table("totals", "", rows)
}
