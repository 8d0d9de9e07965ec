//! `sqsctl fifo groups`: the message groups of a FIFO queue, what a scan saw of each, and the
//! parallelism the layout allows.

use serde::Serialize;

use crate::cli::fifo::FifoCommand;
use crate::client::peek::Scanned;
use crate::commands::context::Context;
use crate::diagnose::finding::human_seconds;
use crate::diagnose::gather::{self as inspect, LayoutError, MessageSource};
use crate::diagnose::groups::{self, GroupLayout, GroupTotals};
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::document::rows_table;
use crate::output::{Column, Document, Row, Table, pairs_table};

#[derive(Debug)]
pub struct FifoSettings {
    pub queue: Option<String>,
    pub source: MessageSource,
    pub force: bool,
    /// Rows shown in the table.
    pub limit: usize,
}

impl FifoSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(command: FifoCommand) -> anyhow::Result<FifoSettings> {
        match command {
            FifoCommand::Groups(args) => Ok(FifoSettings {
                force: args.source.force,
                source: super::diagnose::resolve_source(args.queue.is_some(), args.source)?,
                queue: args.queue,
                limit: args.limit,
            }),
        }
    }
}

/// `fifo groups --output json`.
#[derive(Serialize)]
struct Output<'a> {
    queue: Option<&'a str>,
    #[serde(flatten)]
    layout: &'a GroupLayout,
    scan: Option<&'a Scanned>,
}

/// The closing JSON Lines record.
#[derive(Serialize)]
struct Totals<'a> {
    queue: Option<&'a str>,
    #[serde(flatten)]
    totals: &'a GroupTotals,
    inferred: &'a [String],
    scan: Option<&'a Scanned>,
}

pub async fn run(ctx: &Context, settings: FifoSettings) -> anyhow::Result<ExitStatus> {
    let inspection = super::diagnose::gather(
        ctx,
        inspect::Request {
            queue: settings.queue.as_deref(),
            source: &settings.source,
            force: settings.force,
            neighbours: false,
            earlier_scans: &[],
        },
    )
    .await?;
    let layout = inspection.group_layout().map_err(|err| match err {
        LayoutError::Refused(refused) => anyhow::Error::new(refused),
        LayoutError::NotFifo { ref queue } => {
            hinted(err.to_string(), crate::hints::not_fifo(queue))
        }
        LayoutError::NothingRead => err.into(),
    })?;
    ctx.printer
        .info(super::diagnose::describe(&inspection, &settings.source));
    if let Some(scan) = &inspection.scan
        && let Some(near) = scan
            .cost
            .as_ref()
            .and_then(|cost| cost.describe_near(scan.near_dead_letter))
    {
        ctx.printer.warn(near);
    }
    let queue = inspection.queue.as_ref().map(|q| q.name.as_str());
    let mut document = Document::rows(&layout.groups)
        .json(&Output {
            queue,
            layout: &layout,
            scan: inspection.scan.as_ref(),
        })
        .record(
            "totals",
            &Totals {
                queue,
                totals: &layout.totals,
                inferred: &layout.inferred,
                scan: inspection.scan.as_ref(),
            },
        )
        .tables(vec![
            groups_table(&layout, settings.limit),
            totals_table(&layout.totals),
        ]);
    for note in &layout.inferred {
        document = document.note(format!("inferred: {note}"));
    }
    ctx.printer.emit(&document)?;
    Ok(super::diagnose::exit_status(inspection.outcome(None)))
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
            Column::id("GROUP"),
            Column::whole("SEEN"),
            Column::whole("VISIBLE"),
            Column::whole("IN FLIGHT").droppable(3),
            Column::whole("OLDEST").droppable(2),
            Column::whole("HEAD RECEIVED BEFORE").droppable(1),
            Column::cut("BLOCKED", 3, 24),
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
fn groups_table(layout: &GroupLayout, limit: usize) -> Table {
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

fn totals_table(totals: &GroupTotals) -> Table {
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
            format!(
                "{}{}% ({which})",
                bound(totals.exact, false),
                totals.largest_group_share_percent
            ),
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
    pairs_table("TOTALS", "", rows)
}
