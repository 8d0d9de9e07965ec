//! `sqsctl groups` (and its alias `fifo groups`): the message groups of a FIFO queue, or the
//! tenants of a fair queue (a standard queue whose messages carry group ids), with what a read
//! saw of each; `--watch` reads again until Ctrl-C.

use std::time::Duration;

use serde::Serialize;

use crate::cli::groups::GroupsArgs;
use crate::client::peek::Scanned;
use crate::commands::context::Context;
use crate::diagnose::gather::{self as inspect, Inspection, LayoutError, MessageSource};
use crate::diagnose::groups::GroupTotals;
use crate::diagnose::tenants::{TenantLayout, TenantSource, TenantTotals};
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::output::diagnose::{describe, groups_table, totals_table};
use crate::output::groups::{tenant_totals_table, tenants_table};

#[derive(Debug)]
pub struct GroupsSettings {
    pub queue: Option<String>,
    pub source: MessageSource,
    pub force: bool,
    /// Rows shown in the table.
    pub limit: usize,
    pub watch: Option<Duration>,
}

impl GroupsSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: GroupsArgs) -> anyhow::Result<GroupsSettings> {
        Ok(GroupsSettings {
            force: args.source.force,
            source: super::diagnose::resolve_source(args.queue.is_some(), args.source)?,
            queue: args.queue,
            limit: args.limit,
            watch: args.watch,
        })
    }
}

/// `groups --output json`: the layout of a FIFO queue's groups or of a fair queue's tenants.
#[derive(Serialize)]
struct Output<'a, L> {
    queue: Option<&'a str>,
    #[serde(flatten)]
    layout: &'a L,
    scan: Option<&'a Scanned>,
}

/// The closing JSON Lines record on a FIFO queue.
#[derive(Serialize)]
struct Totals<'a> {
    queue: Option<&'a str>,
    #[serde(flatten)]
    totals: &'a GroupTotals,
    inferred: &'a [String],
    scan: Option<&'a Scanned>,
}

/// The closing JSON Lines record on a fair queue.
#[derive(Serialize)]
struct FairTotals<'a> {
    queue: Option<&'a str>,
    source: TenantSource,
    #[serde(flatten)]
    totals: &'a TenantTotals,
    scan: Option<&'a Scanned>,
}

pub async fn run(ctx: &Context, settings: GroupsSettings) -> anyhow::Result<ExitStatus> {
    let Some(every) = settings.watch else {
        return run_once(ctx, &settings).await;
    };
    loop {
        let status = run_once(ctx, &settings).await?;
        if status == ExitStatus::Interrupted {
            return Ok(status);
        }
        ctx.printer.flush()?;
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = ctx.interrupt.wait() => return Ok(ExitStatus::Interrupted),
        }
    }
}

async fn run_once(ctx: &Context, settings: &GroupsSettings) -> anyhow::Result<ExitStatus> {
    let inspection = super::diagnose::gather(
        ctx,
        inspect::Request {
            queue: settings.queue.as_deref(),
            source: &settings.source,
            force: settings.force,
            neighbours: false,
            earlier_scans: &[],
            tenant_key: None,
            counting: &crate::diagnose::counts::Counting::Off,
        },
    )
    .await?;
    if inspection.is_standard() && inspection.refused.is_none() {
        if let Some(layout) = inspection.tenant_layout() {
            print_tenants(ctx, settings, &inspection, &layout)?;
            return Ok(super::diagnose::exit_status(inspection.outcome(None)));
        }
    }
    let layout = inspection.group_layout().map_err(|err| match err {
        LayoutError::Refused(refused) => anyhow::Error::new(refused),
        LayoutError::NotFifo { ref queue } => {
            hinted(err.to_string(), crate::hints::not_fifo(queue))
        }
        LayoutError::NothingRead => err.into(),
    })?;
    print_read(ctx, settings, &inspection);
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

/// What was read, and how close it left messages to the dead-letter queue, on stderr.
fn print_read(ctx: &Context, settings: &GroupsSettings, inspection: &Inspection) {
    ctx.printer.info(describe(inspection, &settings.source));
    if let Some(scan) = &inspection.scan
        && let Some(near) = scan
            .cost
            .as_ref()
            .and_then(|cost| cost.describe_near(scan.near_dead_letter))
    {
        ctx.printer.warn(near);
    }
}

fn print_tenants(
    ctx: &Context,
    settings: &GroupsSettings,
    inspection: &Inspection,
    layout: &TenantLayout,
) -> anyhow::Result<()> {
    print_read(ctx, settings, inspection);
    let queue = inspection.queue.as_ref().map(|q| q.name.as_str());
    let mut document = Document::rows(&layout.tenants)
        .json(&Output {
            queue,
            layout,
            scan: inspection.scan.as_ref(),
        })
        .record(
            "totals",
            &FairTotals {
                queue,
                source: layout.source,
                totals: &layout.totals,
                scan: inspection.scan.as_ref(),
            },
        )
        .tables(vec![
            tenants_table(layout, settings.limit),
            tenant_totals_table(layout),
        ]);
    if layout.source == TenantSource::Scan {
        document = document.note(
            "in flight per tenant is not shown: SQS delivers no message in flight to a reader \
             (on `sqsctl local` it is counted)",
        );
    }
    ctx.printer.emit(&document)?;
    Ok(())
}
