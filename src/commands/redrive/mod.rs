//! `sqsctl redrive`: wires the redrive engine (`crate::redrive`) to the terminal: resolves the
//! queues, asks for confirmation, opens the journal, shows progress, prints the summary and picks
//! the exit code. `--dry-run`, `--native` and the `status`/`cancel` subcommands live beside it.

mod dry_run;
mod native;
mod report;
mod settings;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;

use crate::client::{QueueAttributes, QueueRef, Sqs};
use crate::commands::common::{account_region, queue_place};
use crate::commands::context::Context;
use crate::error::{Cancelled, UsageError, hinted, hinted_usage};
use crate::exit::ExitStatus;
use crate::output::Answer;
use crate::redrive::{self, Counters, DedupMode, Journal, Plan, ResumeState, RunOptions};
use crate::text::plural;
pub use settings::{MoveSettings, RedriveSettings};

pub async fn run(ctx: &Context, settings: RedriveSettings) -> anyhow::Result<ExitStatus> {
    match settings {
        RedriveSettings::Status { dlq } => native::status(ctx, &dlq).await,
        RedriveSettings::Cancel { dlq } => native::cancel(ctx, &dlq).await,
        RedriveSettings::Move(settings) => match &settings.resume {
            Some(path) => resume(ctx, &settings, path.clone()).await,
            None => start(ctx, &settings).await,
        },
    }
}

fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// The DLQ and where its messages go, with both queues' attributes.
pub(crate) struct Route {
    pub dlq: QueueRef,
    pub dlq_attrs: QueueAttributes,
    pub destination: QueueRef,
    pub destination_attrs: QueueAttributes,
}

/// The DLQ and its destination. With `several_sources` (a dry run without --to), a DLQ of several
/// source queues is accepted: the destination is then the first of them (for the type check), and
/// the second value is true.
async fn route(
    sqs: &Sqs,
    dlq: &str,
    to: Option<&str>,
    several_sources: bool,
) -> anyhow::Result<(Route, bool)> {
    let mut per_source = false;
    let dlq = sqs.lookup(dlq).await?;
    let dlq_attrs = sqs.attributes(&dlq).await?;
    let destination = match to {
        Some(to) => sqs.lookup(to).await?,
        None => {
            let mut sources = sqs.dead_letter_sources(&dlq).await?;
            match sources.len() {
                0 => {
                    return Err(hinted(
                        format!(
                            "no queue uses {} as its dead-letter queue, so there is no source to return its messages to",
                            dlq.name
                        ),
                        "name the destination with --to QUEUE",
                    ));
                }
                1 => sources.remove(0),
                _ if several_sources => {
                    per_source = true;
                    sources.remove(0)
                }
                _ => {
                    let names: Vec<&str> = sources.iter().map(|q| q.name.as_str()).collect();
                    return Err(hinted_usage(
                        format!(
                            "{} is the dead-letter queue of {} queues: {}",
                            dlq.name,
                            names.len(),
                            names.join(", ")
                        ),
                        "choose one with --to QUEUE (`--dry-run` without --to counts the messages per source queue; `--native` returns each to its own source)",
                    ));
                }
            }
        }
    };
    let destination_attrs = sqs.attributes(&destination).await?;
    if dlq.url == destination.url {
        return Err(usage("the destination is the dead-letter queue itself"));
    }
    if dlq_attrs.is_fifo() != destination_attrs.is_fifo() {
        let kind = |fifo: bool| if fifo { "a FIFO" } else { "a standard" };
        return Err(hinted(
            format!(
                "{} is {} queue but {} is {} queue; messages can only move between queues of the same type",
                dlq.name,
                kind(dlq_attrs.is_fifo()),
                destination.name,
                kind(destination_attrs.is_fifo())
            ),
            "pick a destination of the same type with --to",
        ));
    }
    Ok((
        Route {
            dlq,
            dlq_attrs,
            destination,
            destination_attrs,
        },
        per_source,
    ))
}

async fn start(ctx: &Context, settings: &MoveSettings) -> anyhow::Result<ExitStatus> {
    let dlq = settings
        .dlq
        .as_deref()
        .ok_or_else(|| usage("name the dead-letter queue, or pass --resume FILE"))?;
    if settings.native {
        refuse_native_options(settings)?;
    }
    let sqs = ctx.sqs().await?;
    if settings.native && settings.to.is_none() {
        // A DLQ of several queues: SQS's move task without a destination returns each message
        // to its own source.
        let dlq_ref = sqs.lookup(dlq).await?;
        let sources = sqs.dead_letter_sources(&dlq_ref).await?;
        if sources.len() > 1 {
            let dlq_attrs = sqs.attributes(&dlq_ref).await?;
            let target = native::NativeTarget::Sources {
                dlq: &dlq_ref,
                dlq_attrs: &dlq_attrs,
                sources: sources.into_iter().map(|q| q.name).collect(),
            };
            return native::start(ctx, sqs, target, settings).await;
        }
    }
    let (route, per_source) = route(sqs, dlq, settings.to.as_deref(), settings.dry_run).await?;
    ctx.printer.debug(format!(
        "from {} to {}",
        queue_place(&route.dlq, sqs.region()),
        queue_place(&route.destination, sqs.region())
    ));
    let fifo = route.dlq_attrs.is_fifo();
    if settings.native {
        // --delay was refused with --native.
        return native::start(ctx, sqs, native::NativeTarget::Queue(&route), settings).await;
    }
    // Absolute, so that `--resume` from another directory writes to the same archive.
    let archive = settings
        .archive
        .as_deref()
        .map(std::path::absolute)
        .transpose()
        .context("cannot resolve the archive path")?;
    let dlq_depth = route.dlq_attrs.total();
    let (concurrency, adaptive) = Plan::workers(settings.concurrency);
    let plan = Plan {
        source: route.dlq.clone(),
        destination: route.destination.clone(),
        fifo,
        dedup: settings.dedup,
        delay_seconds: settings.delay,
        selection: settings.selection.clone(),
        limit: settings.limit,
        rate: settings.rate,
        concurrency,
        adaptive,
        visibility_timeout: settings.visibility_timeout,
        archive,
        started_at_ms: Some(now_ms()),
        dlq_depth_at_start: Some(dlq_depth),
        planned: Some(settings.limit.map_or(dlq_depth, |l| l.min(dlq_depth))),
    };
    plan.validate()
        .map_err(|e| usage(settings::flag_message(&e)))?;
    if fifo && settings.dedup == DedupMode::Keep {
        ctx.printer.warn(
            "--dedup keep: SQS silently drops a message whose deduplication id it saw in the last 5 minutes; messages sent to the destination recently with the same id will not arrive",
        );
    }
    if settings.dry_run {
        return dry_run::run(ctx, sqs, &route, &plan, per_source).await;
    }
    let path = match &settings.journal {
        Some(path) => path.clone(),
        None => default_journal_path(&settings.journal_dir, &plan.source.name)?,
    };
    let depth = route.dlq_attrs.visible();
    if !confirm(ctx, settings.yes, &plan, depth, sqs.region())? {
        ctx.printer.info("nothing moved");
        return Ok(ExitStatus::Failure);
    }
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
    execute(
        ctx,
        sqs,
        &plan,
        journal,
        settings,
        ResumeState::default(),
        depth,
    )
    .await
}

async fn resume(
    ctx: &Context,
    settings: &MoveSettings,
    path: PathBuf,
) -> anyhow::Result<ExitStatus> {
    let (plan, state) = redrive::journal::load(&path).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(completed) = &state.completed {
        let at = std::time::UNIX_EPOCH + Duration::from_millis(completed.at_ms);
        ctx.printer.info(format!(
            "the run in {} completed at {} ({} moved from {} to {}): nothing to resume",
            path.display(),
            humantime::format_rfc3339_seconds(at),
            completed.moved,
            plan.source.name,
            plan.destination.name
        ));
        return Ok(ExitStatus::Success);
    }
    let sqs = ctx.sqs().await?;
    if let Some(dlq) = &settings.dlq {
        let named = sqs.lookup(dlq).await?;
        if named.url != plan.source.url {
            return Err(usage(format!(
                "the journal {} is for {}, not {}",
                path.display(),
                plan.source.name,
                named.name
            )));
        }
    }
    // The run moves at most what it planned (its --max, or the DLQ's depth when it started),
    // and what the journal shows as sent counts toward it. Journals without that record keep
    // their --max only.
    let bound = match (plan.limit, plan.planned) {
        (Some(limit), Some(planned)) => Some(limit.min(planned)),
        (limit, planned) => limit.or(planned),
    };
    // Pacing (--rate, --concurrency) may change on resume; what moves and how may not.
    let (concurrency, adaptive) = match settings.concurrency {
        Some(_) => Plan::workers(settings.concurrency),
        None => (plan.concurrency, plan.adaptive),
    };
    let plan = Plan {
        rate: settings.rate.or(plan.rate),
        concurrency,
        adaptive,
        limit: bound.map(|bound| bound.saturating_sub(state.sent.len() as u64)),
        ..plan
    };
    ctx.printer.info(format!(
        "resuming {} -> {}: {} moved earlier, {} sent but not yet deleted, {} with an unknown outcome{}",
        plan.source.name,
        plan.destination.name,
        state.moved_before,
        state.sent_not_deleted,
        state.unresolved,
        plan.limit
            .map(|left| format!("; at most {left} more to move"))
            .unwrap_or_default()
    ));
    if let Some(archive) = &plan.archive {
        ctx.printer
            .info(format!("archive (from the journal): {}", archive.display()));
    }
    let attrs = sqs.attributes(&plan.source).await?;
    if !confirm(ctx, settings.yes, &plan, attrs.visible(), sqs.region())? {
        ctx.printer.info("nothing moved");
        return Ok(ExitStatus::Failure);
    }
    if state.held > 0 && attrs.in_flight() > 0 {
        wait_for_held_messages(ctx, sqs, &plan, &state, &path).await?;
    }
    let journal = Journal::append(&path)
        .with_context(|| format!("cannot append to the journal {}", path.display()))?;
    ctx.printer.info(format!("journal: {}", path.display()));
    let depth = sqs.attributes(&plan.source).await?.visible();
    execute(ctx, sqs, &plan, journal, settings, state, depth).await
}

/// Time past a journaled deadline that a message may take to show again: a server's clock, or
/// its lag in bringing a message back (LocalStack's is up to about a second).
const DEADLINE_SLACK: Duration = Duration::from_secs(2);
/// How often a wait without a progress bar says how long it has left.
const WAIT_NOTE_EVERY: Duration = Duration::from_secs(10);

/// After a crash or a second Ctrl-C, the messages the dead run held stay hidden until their
/// visibility timeout ends, and the journal says until when: wait for that, so that the resumed
/// run sees them all (and moves each once, since the journal shows which were sent). A journal that
/// does not say (from an older version) gets a whole visibility timeout, ended early when the DLQ
/// has nothing in flight. Ctrl-C ends the wait with nothing moved.
async fn wait_for_held_messages(
    ctx: &Context,
    sqs: &Sqs,
    plan: &Plan,
    state: &ResumeState,
    journal: &std::path::Path,
) -> anyhow::Result<()> {
    let now = std::time::SystemTime::now();
    let timeout = Duration::from_secs(u64::try_from(plan.visibility_timeout).unwrap_or(0));
    let until = match state.held_until_ms {
        Some(ms) => std::time::UNIX_EPOCH + Duration::from_millis(ms),
        None => now + timeout,
    } + DEADLINE_SLACK;
    let Ok(wait) = until.duration_since(now) else {
        return Ok(());
    };
    let wait = Duration::from_secs(wait.as_secs_f64().ceil() as u64);
    ctx.printer.info(format!(
        "waiting up to {} (until {}) for the {} the interrupted run left in flight in {} to be visible again; Ctrl-C stops with nothing moved",
        humantime::format_duration(wait),
        humantime::format_rfc3339_seconds(until),
        plural(state.held, "message"),
        plan.source.name
    ));
    let deadline = tokio::time::Instant::now() + wait;
    let bar = ctx.printer.progress(wait.as_secs(), "{spinner} {msg}");
    let mut noted = tokio::time::Instant::now();
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            break;
        }
        let in_flight = sqs.attributes(&plan.source).await?.in_flight();
        if in_flight == 0 && state.held_until_ms.is_none() {
            break;
        }
        let status = format!(
            "{} s left, {} in flight in {}",
            left.as_secs_f64().ceil(),
            plural(in_flight, "message"),
            plan.source.name
        );
        if !bar.is_hidden() {
            bar.set_message(format!("waiting: {status}"));
        } else if noted.elapsed() >= WAIT_NOTE_EVERY {
            ctx.printer.info(format!("still waiting: {status}"));
            noted = tokio::time::Instant::now();
        }
        tokio::select! {
            () = tokio::time::sleep(left.min(Duration::from_millis(500))) => {}
            () = ctx.interrupt.wait() => {
                bar.finish_and_clear();
                return Err(anyhow::Error::new(Cancelled).context(format!(
                    "stopped while waiting for the held messages: nothing moved; `sqsctl redrive --resume {}` waits again",
                    journal.display()
                )));
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

async fn execute(
    ctx: &Context,
    sqs: &Sqs,
    plan: &Plan,
    journal: Journal,
    settings: &MoveSettings,
    resume: ResumeState,
    depth: u64,
) -> anyhow::Result<ExitStatus> {
    let resuming = settings.resume.is_some();
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
    let options = RunOptions {
        journal: Some(journal),
        archive,
        sent_before_ms: if resuming { plan.started_at_ms } else { None },
        resume,
        counters,
        interrupt: ctx.interrupt.clone(),
    };
    let summary = redrive::run(sqs, plan, options).await;
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

fn confirm(
    ctx: &Context,
    yes: bool,
    plan: &Plan,
    depth: u64,
    region: &str,
) -> anyhow::Result<bool> {
    if yes {
        return Ok(true);
    }
    let what = if plan.selection.is_all() {
        "every message".to_string()
    } else {
        format!(
            "the messages matching {}",
            plan.selection.describe().join(" ")
        )
    };
    let limit = plan
        .limit
        .map(|l| format!(" (at most {l})"))
        .unwrap_or_default();
    let question = format!(
        "Move {what}{limit} from {} (about {depth} visible) to {}?",
        queue_place(&plan.source, region),
        queue_place(&plan.destination, region)
    );
    match ctx.printer.confirm(&question)? {
        Answer::Yes => Ok(true),
        Answer::No => Ok(false),
        Answer::Cancelled => Err(Cancelled.into()),
        Answer::NoTerminal => Err(usage(
            "redrive moves and deletes messages, and without a terminal to ask on it needs --yes (or --dry-run, to see what would move)",
        )),
    }
}

fn confirm_native(
    ctx: &Context,
    yes: bool,
    dlq: &str,
    destination: &str,
    depth: u64,
) -> anyhow::Result<bool> {
    if yes {
        return Ok(true);
    }
    let question = format!(
        "Start a native move task for every message of {dlq} (about {depth}) to {destination}?"
    );
    match ctx.printer.confirm(&question)? {
        Answer::Yes => Ok(true),
        Answer::No => Ok(false),
        Answer::Cancelled => Err(Cancelled.into()),
        Answer::NoTerminal => Err(usage(
            "redrive moves messages, and without a terminal to ask on it needs --yes (or --dry-run, to see what would move)",
        )),
    }
}

fn refuse_native_options(settings: &MoveSettings) -> anyhow::Result<()> {
    let mut given = settings.selection.describe();
    if settings.limit.is_some() {
        given.push("--max".into());
    }
    if !given.is_empty() {
        return Err(usage(format!(
            "--native cannot be combined with {}: SQS's move task moves every message of the queue and has no filter or limit (drop --native to let sqsctl select messages itself)",
            given.join(", ")
        )));
    }
    let mut unsupported = Vec::new();
    if settings.delay.is_some() {
        unsupported.push("--delay");
    }
    if settings.archive.is_some() {
        unsupported.push("--archive");
    }
    if settings.journal.is_some() {
        unsupported.push("--journal");
    }
    if settings.dedup != DedupMode::MessageId {
        unsupported.push("--dedup");
    }
    if !unsupported.is_empty() {
        return Err(usage(format!(
            "--native cannot be combined with {}: the move task runs on the server, which does not offer them",
            unsupported.join(", ")
        )));
    }
    Ok(())
}

/// A new journal file under `dir`, named after the queue (refused when the name, from a URL or an
/// ARN, is not a valid queue name: it could leave the directory) and the time.
fn default_journal_path(dir: &std::path::Path, queue: &str) -> anyhow::Result<PathBuf> {
    let queue = crate::state_file::queue_file_name(queue).map_err(|e| {
        hinted(
            e.to_string(),
            "name the journal file with --journal FILE, or check the queue URL or ARN",
        )
    })?;
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        .to_string()
        .replace([':', '-'], "");
    let mut path = dir.join(format!("{queue}-{stamp}.jsonl"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("{queue}-{stamp}-{n}.jsonl"));
    }
    Ok(path)
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
