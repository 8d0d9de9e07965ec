//! `sqsctl redrive`: wires the redrive engine (`crate::redrive`) to the terminal: resolves the
//! queues, asks for confirmation, opens the journal, shows progress, prints the summary and picks
//! the exit code. `--dry-run`, `--native` and the `status`/`cancel`/`journals` subcommands live
//! beside it.

mod destination;
mod dry_run;
mod journals;
mod native;
mod report;
mod resume;
mod settings;

use std::sync::Arc;
use std::time::SystemTime;

use anyhow::Context as _;

use crate::client::Sqs;
use crate::commands::common::{account_region, queue_place};
use crate::commands::context::Context;
use crate::error::{Cancelled, Declined, HintedError, UsageError, hinted};
use crate::exit::ExitStatus;
use crate::output::Answer;
use crate::read_ledger::now_ms;
use crate::redrive::{
    self, Counters, DedupMode, Journal, Plan, ResumeState, RouteError, RouteRequest, RunOptions,
};
pub use settings::RedriveSettings;
pub(crate) use settings::default_journal_dir;
use settings::{MoveSettings, NativeSettings, Queues};

pub async fn run(ctx: &Context, settings: RedriveSettings) -> anyhow::Result<ExitStatus> {
    match settings {
        RedriveSettings::Status { dlq } => native::status(ctx, &dlq).await,
        RedriveSettings::Cancel { dlq } => native::cancel(ctx, &dlq).await,
        RedriveSettings::Journals(settings) => journals::run(ctx, &settings),
        RedriveSettings::Native(settings) => start_native(ctx, &settings).await,
        RedriveSettings::Resume(settings) => resume::run(ctx, &settings).await,
        RedriveSettings::Move(settings) => start(ctx, *settings).await,
    }
}

pub(super) fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// The route the engine found for `request`, or its refusal with the hint of this command.
async fn route(sqs: &Sqs, request: RouteRequest<'_>) -> anyhow::Result<redrive::Route> {
    redrive::route(sqs, request).await.map_err(|err| {
        let usage = matches!(
            err,
            RouteError::SeveralSources { .. } | RouteError::DestinationIsSource
        );
        match (crate::hints::redrive_route(&err), err) {
            (_, RouteError::Client(e)) => e.into(),
            (Some(hint), err) => anyhow::Error::new(HintedError {
                message: err.to_string(),
                hint,
                usage,
            }),
            (None, err) => anyhow::Error::new(UsageError(err.to_string())),
        }
    })
}

async fn start_native(ctx: &Context, settings: &NativeSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    if settings.queues.to.is_none()
        && let Some(shared) = redrive::shared_dlq(sqs, &settings.queues.dlq).await?
    {
        // SQS's move task without a destination returns each message to its own source.
        return native::start(ctx, sqs, native::NativeTarget::Sources(&shared), settings).await;
    }
    let route = checked_route(ctx, sqs, None, &settings.queues, settings.dry_run).await?;
    native::start(ctx, sqs, native::NativeTarget::Queue(&route), settings).await
}

/// The DLQ's destination, checked by the engine (a dry run accepts a DLQ of several sources),
/// and said with `-v`.
async fn checked_route(
    ctx: &Context,
    sqs: &Sqs,
    destination: Option<&destination::Destination>,
    queues: &Queues,
    dry_run: bool,
) -> anyhow::Result<redrive::Route> {
    let request = RouteRequest {
        dlq: &queues.dlq,
        to: queues.to.as_deref(),
        several_sources: dry_run,
        destination_sqs: destination.map(|d| &d.sqs),
    };
    let route = route(sqs, request).await?;
    ctx.printer.debug(format!(
        "from {} to {}",
        queue_place(&route.dlq, sqs.region()),
        queue_place(
            &route.destination,
            destination.map_or(sqs.region(), |d| d.sqs.region())
        )
    ));
    Ok(route)
}

async fn start(ctx: &Context, settings: MoveSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let queues = &settings.queues;
    let destination = destination::connect(ctx, sqs, queues.to.as_deref(), &queues.reach).await?;
    let route = checked_route(ctx, sqs, destination.as_ref(), queues, settings.dry_run).await?;
    let mut new = settings.plan;
    new.destination_access = destination.as_ref().map(|d| d.access.clone());
    // Absolute, so that `--resume` from another directory writes to the same archive.
    new.archive = new
        .archive
        .as_deref()
        .map(std::path::absolute)
        .transpose()
        .context("cannot resolve the archive path")?;
    let plan =
        Plan::new_run(&route, new, now_ms()).map_err(|e| usage(settings::flag_message(&e)))?;
    if plan.fifo && plan.dedup == DedupMode::Keep {
        ctx.printer.warn(
            "--dedup keep: SQS silently drops a message whose deduplication id it saw in the last 5 minutes; messages sent to the destination recently with the same id will not arrive",
        );
    }
    if settings.dry_run {
        return dry_run::run(ctx, sqs, &route, &plan).await;
    }
    let path = match &settings.journal {
        Some(path) => path.clone(),
        None => Journal::new_path(&settings.journal_dir, &plan.source.name, SystemTime::now())
            .map_err(|e| {
                hinted(
                    e.to_string(),
                    "name the journal file with --journal FILE, or check the queue URL or ARN",
                )
            })?,
    };
    let depth = route.dlq_attrs.visible();
    let sides = destination::Sides::new(
        ctx,
        sqs,
        &plan.source,
        &plan.destination,
        plan.destination_access.as_ref(),
    );
    confirm(ctx, settings.yes, &plan, depth, &sides)?;
    let journal = Journal::create(&path, &plan).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists && path.exists() {
            hinted(
                format!("the journal {} already exists", path.display()),
                "to complete the run it records, pass --resume FILE; otherwise choose another --journal",
            )
        } else {
            anyhow::Error::new(e).context(format!("cannot create the journal {}", path.display()))
        }
    })?;
    ctx.printer.info(format!("journal: {}", path.display()));
    let state = ResumeState::default();
    let to_sqs = destination.map(|d| d.sqs);
    execute(ctx, sqs, to_sqs, &plan, journal, false, state, depth).await
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn execute(
    ctx: &Context,
    sqs: &Sqs,
    to_sqs: Option<Sqs>,
    plan: &Plan,
    journal: Journal,
    resuming: bool,
    resume: ResumeState,
    depth: u64,
) -> anyhow::Result<ExitStatus> {
    let archive = plan
        .archive
        .as_deref()
        .map(|path| {
            redrive::Archive::open(path, resuming)
                .with_context(|| format!("cannot open the archive {}", path.display()))
        })
        .transpose()?;
    // No --yes in the hint: run later from the shell's history, it should ask first.
    // Every message the run holds was hidden (or its visibility extended) at most one visibility
    // timeout before this abort, and the journal says until when.
    crate::interrupt::on_abort(format!(
        "messages the run held stay hidden in {} until their visibility timeout ends, at most {} s from now; `sqsctl redrive --resume {}` waits until then, then moves each message the journal does not show as sent",
        plan.source.name,
        plan.visibility_timeout,
        journal.path().display()
    ));
    let counters = Arc::new(Counters::default());
    let total = plan.limit.map_or(depth, |l| l.min(depth));
    let progress = report::Progress::start(ctx, counters.clone(), total);
    let watched = counters.clone();
    let options = RunOptions {
        journal: Some(journal),
        archive,
        sent_before_ms: if resuming { plan.started_at_ms } else { None },
        resume,
        counters,
        interrupt: ctx.interrupt.clone(),
        destination: to_sqs,
    };
    let summary =
        report::telling_waits(ctx, &progress, &watched, redrive::run(sqs, plan, options)).await;
    progress.finish();
    let summary = summary?;
    report::summary(ctx, &summary, &account_region(&plan.source, sqs.region()))?;
    Ok(if summary.interrupted {
        ExitStatus::Interrupted
    } else if let Some(error) = &summary.error {
        return Err(anyhow::anyhow!("{error}").context("the redrive stopped"));
    } else if summary.complete() {
        ExitStatus::Success
    } else {
        ExitStatus::Partial
    })
}

pub(super) fn confirm(
    ctx: &Context,
    yes: bool,
    plan: &Plan,
    depth: u64,
    sides: &destination::Sides,
) -> anyhow::Result<()> {
    let what = if plan.selection.is_all() {
        "every message".to_string()
    } else {
        format!(
            "the messages matching {}",
            crate::commands::selection::describe(&plan.selection).join(" ")
        )
    };
    let limit = plan
        .limit
        .map(|l| format!(" (at most {l})"))
        .unwrap_or_default();
    let rewritten = rewrite_words(&plan.rewrite)
        .map(|words| format!(", {words}"))
        .unwrap_or_default();
    let question = if plan.copy {
        format!(
            "Copy {what}{limit} from {} (about {depth} visible) to {}{rewritten}? The dead-letter queue keeps its messages (their receive counts go up by one per receive)",
            sides.source, sides.destination
        )
    } else {
        format!(
            "Move {what}{limit} from {} (about {depth} visible) to {}{rewritten}?",
            sides.source, sides.destination
        )
    };
    ask(
        ctx,
        yes,
        &question,
        "redrive sends messages (and, unless --copy, deletes them), and without a terminal to ask on it needs --yes (or --dry-run, to see what would move)",
    )
}

/// How the question before a move says what the rewrite does (`None` without one): the flags as
/// given, so that what is asked is what runs.
fn rewrite_words(rewrite: &redrive::Rewrite) -> Option<String> {
    let mut steps = Vec::new();
    if rewrite.unwrap {
        steps.push("unwrapped (--unwrap)".to_string());
    }
    if let Some(filter) = &rewrite.transform {
        steps.push(format!("rewritten by --transform '{filter}'"));
    }
    if let Some(exec) = &rewrite.exec {
        steps.push(format!("rewritten by --exec '{}'", exec.command));
    }
    if !rewrite.replace.is_empty() {
        steps.push(format!(
            "with {} replaced",
            crate::text::plural_with(rewrite.replace.len() as u64, "body", "bodies")
        ));
    }
    (!steps.is_empty()).then(|| steps.join(", then "))
}

/// Asks `question` unless `yes`; `no_terminal` is the refusal when there is no terminal to ask on,
/// and a "no" ends the run with [`Declined`], nothing moved.
fn ask(ctx: &Context, yes: bool, question: &str, no_terminal: &str) -> anyhow::Result<()> {
    if yes {
        return Ok(());
    }
    match ctx.printer.confirm(question)? {
        Answer::Yes => Ok(()),
        Answer::No => Err(Declined.into()),
        Answer::Cancelled => Err(Cancelled.into()),
        Answer::NoTerminal => Err(usage(no_terminal)),
    }
}
