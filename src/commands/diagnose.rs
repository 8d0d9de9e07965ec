//! `sqsctl diagnose`: every check of [`crate::diagnose`] on a queue or an export, as a table of
//! findings, JSON, or JSON Lines; exit code 4 when a warning or an error was found.

use std::time::Duration;

use anyhow::bail;

use crate::cli::diagnose::{DiagnoseArgs, MessageSourceArgs};
use crate::commands::context::Context;
use crate::diagnose::Report;
use crate::diagnose::counts::Counting;
pub use crate::diagnose::gather::MessageSource;
use crate::diagnose::gather::{self as inspect, Inspection, Outcome};
use crate::diagnose::tenant_key::KeyTally;
use crate::diagnose::watch::Watch;
use crate::exit::ExitStatus;
use crate::output::diagnose::{change_line, describe};
use crate::text::plural;

#[derive(Debug)]
pub struct DiagnoseSettings {
    pub queue: Option<String>,
    pub source: MessageSource,
    pub force: bool,
    pub watch: Option<Duration>,
    /// `--tenant-key`, compiled.
    pub tenant_key: Option<KeyTally>,
    /// `--count-by`, compiled; the default counts of a dead-letter queue without it.
    pub counting: Counting,
}

impl DiagnoseSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: DiagnoseArgs) -> anyhow::Result<DiagnoseSettings> {
        let force = args.source.force;
        let source = resolve_source(args.queue.is_some(), args.source)?;
        let tenant_key = args
            .tenant_key
            .as_deref()
            .map(KeyTally::compile)
            .transpose()
            .map_err(|why| anyhow::anyhow!("--tenant-key {why}"))?;
        let counting = if args.count_by.is_empty() {
            Counting::DeadLetterDefault
        } else {
            Counting::By(super::selection::compile_count_by(&args.count_by)?)
        };
        Ok(DiagnoseSettings {
            queue: args.queue,
            source,
            force,
            watch: args.watch,
            tenant_key,
            counting,
        })
    }
}

/// Where messages come from, shared by `diagnose` and `fifo groups`.
pub fn resolve_source(has_queue: bool, args: MessageSourceArgs) -> anyhow::Result<MessageSource> {
    if args.sample == 0 {
        bail!("--sample takes a number of messages greater than 0");
    }
    match args.input {
        Some(path) => Ok(MessageSource::File(path)),
        None if has_queue => Ok(MessageSource::Queue {
            sample: args.sample,
        }),
        None => bail!("give a QUEUE to read, or --input FILE with exported messages"),
    }
}

pub async fn run(ctx: &Context, settings: DiagnoseSettings) -> anyhow::Result<ExitStatus> {
    let Some(every) = settings.watch else {
        return Ok(run_once(ctx, &settings, &[], true).await?.status);
    };
    let mut watch = Watch::new();
    loop {
        // A report from a scan cut short by Ctrl-C would read as a change: it is not printed.
        let run = run_once(ctx, &settings, watch.own_scans(), false).await?;
        if run.status == ExitStatus::Interrupted {
            ctx.printer
                .info("stopped during a scan; nothing is reported from the partial scan");
            return Ok(run.status);
        }
        watch.scanned(run.scan_ended);
        if let Some(changes) = watch.observe(&run.report.findings, run.read) {
            if changes.is_empty() {
                ctx.printer.info("no change since the last run");
            }
            for change in &changes {
                ctx.printer.info(change_line(change));
            }
        }
        ctx.printer.flush()?;
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = ctx.interrupt.wait() => return Ok(ExitStatus::Interrupted),
        }
    }
}

/// One run of the checks, as `--watch` needs it back.
struct Run {
    report: Report,
    status: ExitStatus,
    /// When this run's scan ended (epoch milliseconds), if it read the queue.
    scan_ended: Option<u64>,
    /// Messages the scan read, if there was one.
    read: Option<u64>,
}

/// Gathers, analyzes and prints once. `print_partial`: whether a run cut short by Ctrl-C still
/// prints what it saw (a single run does; `--watch` does not).
async fn run_once(
    ctx: &Context,
    settings: &DiagnoseSettings,
    earlier_scans: &[u64],
    print_partial: bool,
) -> anyhow::Result<Run> {
    let inspection = gather(
        ctx,
        inspect::Request {
            queue: settings.queue.as_deref(),
            source: &settings.source,
            force: settings.force,
            neighbours: true,
            earlier_scans,
            tenant_key: settings.tenant_key.as_ref(),
            counting: &settings.counting,
        },
    )
    .await?;
    let report = inspection.analyze();
    let read = inspection.scan.as_ref().map(|s| s.seen);
    if inspection.interrupted() && !print_partial {
        return Ok(Run {
            report,
            status: ExitStatus::Interrupted,
            scan_ended: inspection.scan_ended_ms,
            read,
        });
    }
    ctx.printer.info(describe(&inspection, &settings.source));
    if let Some(why) = inspection.tenant_key_unused() {
        ctx.printer.info(format!(
            "--tenant-key was not checked: {why} (see the tenant findings and `sqsctl groups`)"
        ));
    }
    if let Some(groups) = &report.groups {
        let t = &groups.totals;
        ctx.printer.info(format!(
            "{}; effective parallelism {}{} (`sqsctl fifo groups` shows each group)",
            plural(t.distinct_groups, "message group"),
            if t.exact { "" } else { "at most " },
            t.effective_parallelism
        ));
    }
    print(ctx, settings, &inspection, &report)?;
    let status = exit_status(inspection.outcome(Some(&report)));
    Ok(Run {
        report,
        status,
        scan_ended: inspection.scan_ended_ms,
        read,
    })
}

/// The exit code of what a look at a queue came to.
pub fn exit_status(outcome: Outcome) -> ExitStatus {
    match outcome {
        Outcome::Interrupted => ExitStatus::Interrupted,
        Outcome::ReadDeadLettered => ExitStatus::ReadDeadLettered,
        Outcome::ProblemsFound | Outcome::Incomplete => ExitStatus::ProblemsFound,
        Outcome::Clean => ExitStatus::Success,
    }
}

fn print(
    ctx: &Context,
    settings: &DiagnoseSettings,
    inspection: &Inspection,
    report: &Report,
) -> anyhow::Result<()> {
    let document = crate::output::diagnose_report::document(report, inspection, &settings.source);
    ctx.printer.emit(&document)?;
    Ok(())
}

/// Gathers through [`inspect::inspect`] with this command's client, progress bar and `--verbose`
/// notes: the one place `diagnose` and `fifo groups` turn the gatherer's reports into output.
pub async fn gather(ctx: &Context, request: inspect::Request<'_>) -> anyhow::Result<Inspection> {
    let sqs = match request.queue {
        Some(_) => Some(ctx.sqs().await?),
        None => None,
    };
    let mut bar = None;
    let inspection = inspect::inspect(sqs, request, &ctx.interrupt, |progress| match progress {
        inspect::Progress::Started { expected } => {
            bar = Some(ctx.printer.progress(
                expected,
                "{spinner} reading messages: {pos}/{len} {elapsed}",
            ));
        }
        inspect::Progress::Read(count) => {
            if let Some(bar) = &bar {
                bar.inc(count);
            }
        }
        inspect::Progress::Finished => {
            if let Some(bar) = bar.take() {
                bar.finish_and_clear();
            }
        }
    })
    .await?;
    for note in &inspection.notes {
        ctx.printer.debug(note);
    }
    if let Some(cost) = inspection
        .scan
        .as_ref()
        .filter(|s| s.seen > 0)
        .and_then(|s| s.cost.as_ref())
    {
        ctx.printer.info(cost.describe());
    }
    if let (Some(scan), Some(queue)) = (&inspection.scan, &inspection.queue)
        && let Some(moved) = scan.dead_letter_warning(&queue.name)
    {
        ctx.printer.warn(moved);
    }
    if let Some(scan) = &inspection.scan {
        ctx.printer.warn_not_released(
            scan.release_failed,
            "",
            &format!("within {}s", inspect::HOLD_SECONDS),
        );
    }
    Ok(inspection)
}
