//! `sqsctl fifo groups`: the message groups of a FIFO queue, what a scan saw of each, and the
//! parallelism the layout allows.

use comfy_table::Cell;
use serde::Serialize;

use crate::cli::fifo::FifoCommand;
use crate::client::peek::Scanned;
use crate::commands::context::Context;
use crate::diagnose::ReceiveClock;
use crate::diagnose::finding::human_seconds;
use crate::diagnose::gather::{self as inspect, MessageSource};
use crate::diagnose::groups::{self, GroupLayout, GroupTotals};
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::Format;

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
    if let Some(facts) = &inspection.facts
        && !(facts.attrs.is_fifo() || facts.name.ends_with(".fifo"))
    {
        return Err(hinted(
            format!(
                "{} is not a FIFO queue: it has no message groups",
                facts.name
            ),
            format!("`sqsctl diagnose {}` checks standard queues", facts.name),
        ));
    }
    if let Some(refusal) = &inspection.refused {
        return Err(inspect::refusal_error(refusal));
    }
    let Some(obs) = &inspection.observations else {
        anyhow::bail!("no messages were read");
    };
    let clock = ReceiveClock {
        now_ms: inspect::now_ms(),
        own_scans: &inspection.own_scans,
        visibility_timeout: inspection
            .facts
            .as_ref()
            .and_then(|f| f.attrs.visibility_timeout()),
    };
    let layout = groups::layout(obs, inspection.coverage, &clock);
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
    let printer = &ctx.printer;
    match printer.format() {
        Format::Json => printer.json(&Output {
            queue,
            layout: &layout,
            scan: inspection.scan.as_ref(),
        })?,
        Format::Jsonl => {
            for group in &layout.groups {
                printer.record("group", group)?;
            }
            printer.record(
                "totals",
                &Totals {
                    queue,
                    totals: &layout.totals,
                    inferred: &layout.inferred,
                    scan: inspection.scan.as_ref(),
                },
            )?;
        }
        Format::Text => {
            for g in &layout.groups {
                printer.fields(&[
                    g.group_id.clone(),
                    g.seen.to_string(),
                    visible_cell(g),
                    g.oldest_age_seconds.unwrap_or(0).to_string(),
                ])?;
            }
        }
        Format::Table => {
            printer.table(&groups_table(ctx, &layout, settings.limit))?;
            printer.table(&totals_table(ctx, &layout.totals))?;
            for note in &layout.inferred {
                printer.line(&format!("inferred: {note}"))?;
            }
        }
    }
    if inspection.interrupted() {
        return Ok(ExitStatus::Interrupted);
    }
    if inspection
        .scan
        .as_ref()
        .is_some_and(|s| s.dead_lettered() > 0)
    {
        return Ok(ExitStatus::ReadDeadLettered);
    }
    Ok(ExitStatus::Success)
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

fn groups_table(ctx: &Context, layout: &GroupLayout, limit: usize) -> comfy_table::Table {
    let printer = &ctx.printer;
    let mut table = printer.new_table(&[
        "GROUP",
        "SEEN",
        "VISIBLE",
        "IN FLIGHT",
        "OLDEST",
        "HEAD RECEIVED BEFORE",
        "BLOCKED",
    ]);
    for group in layout.groups.iter().take(limit) {
        table.add_row(vec![
            Cell::new(printer.display(&group.group_id)),
            Cell::new(group.seen),
            Cell::new(visible_cell(group)),
            Cell::new(group.in_flight),
            Cell::new(group.oldest_age_seconds.map_or("-".into(), human_seconds)),
            Cell::new(
                group
                    .head_prior_receives
                    .map_or("-".into(), |n| n.to_string()),
            ),
            Cell::new(if group.blocked {
                "yes: head keeps failing"
            } else {
                "no"
            }),
        ]);
    }
    let hidden = layout.groups.len().saturating_sub(limit);
    if hidden > 0 {
        table.add_row(vec![
            Cell::new(format!("({hidden} more groups: --limit or -o json)")),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
            Cell::new(""),
        ]);
    }
    if let Some(in_flight) = layout.totals.in_flight_at_start.filter(|n| *n > 0) {
        table.add_row(vec![
            Cell::new("(groups held by consumers)"),
            Cell::new("-"),
            Cell::new("-"),
            Cell::new(in_flight),
            Cell::new("-"),
            Cell::new("-"),
            Cell::new("yes: in flight"),
        ]);
    }
    crate::output::fit_width(&mut table);
    table
}

fn totals_table(ctx: &Context, totals: &GroupTotals) -> comfy_table::Table {
    let mut table = ctx.printer.new_table(&["TOTALS", ""]);
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
            Some(largest) => ctx.printer.display(largest).into_owned(),
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
            ctx.printer
                .display(&totals.head_of_line_blocked.join(", "))
                .into_owned()
        },
    ));
    for (name, value) in rows {
        table.add_row(vec![Cell::new(name), Cell::new(value)]);
    }
    crate::output::fit_width(&mut table);
    table
}
