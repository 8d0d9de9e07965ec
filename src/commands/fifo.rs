//! `sqsctl fifo groups`: the message groups of a FIFO queue, what a scan saw of each, and the
//! parallelism the layout allows.

use serde::Serialize;

use crate::cli::fifo::FifoCommand;
use crate::client::peek::Scanned;
use crate::commands::context::Context;
use crate::diagnose::gather::{self as inspect, LayoutError, MessageSource};
use crate::diagnose::groups::{GroupLayout, GroupTotals};
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::output::diagnose::{describe, groups_table, totals_table};

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
    ctx.printer.info(describe(&inspection, &settings.source));
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
