//! `sqsctl redrive --resume FILE`: completes an interrupted run from its journal, with the run's
//! own plan (new pacing allowed), after waiting for the messages the interrupted run left hidden.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

use super::settings::ResumeSettings;
use super::{confirm, execute, usage};
use crate::client::Sqs;
use crate::commands::context::Context;
use crate::error::Cancelled;
use crate::exit::ExitStatus;
use crate::redrive::{self, HeldWait, Journal, Plan};
use crate::text::plural;

pub async fn run(ctx: &Context, settings: &ResumeSettings) -> anyhow::Result<ExitStatus> {
    let path = &settings.journal;
    let (plan, state) = redrive::journal::load(path).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(completed) = &state.completed {
        let at = UNIX_EPOCH + Duration::from_millis(completed.at_ms);
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
    let plan = plan.resumed(&state, settings.pacing);
    ctx.printer.info(format!(
        "resuming {} -> {}: {} {} earlier, {} sent but not yet deleted, {} with an unknown outcome{}",
        plan.source.name,
        plan.destination.name,
        state.moved_before,
        if plan.copy { "copied" } else { "moved" },
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
    // The destination as the journal's plan recorded how to reach it, checked before anything
    // is received.
    let destination = match &plan.destination_access {
        Some(access) => {
            let reach = super::destination::Reach::recorded(access);
            super::destination::connect(ctx, sqs, Some(&plan.destination.url), &reach)
                .await
                .with_context(|| {
                    format!(
                        "cannot reach the journal's destination {} (region {}{})",
                        plan.destination.name,
                        access.region,
                        access
                            .profile
                            .as_deref()
                            .map(|p| format!(", profile {p}"))
                            .unwrap_or_default()
                    )
                })?
        }
        None => None,
    };
    let to_sqs = destination.as_ref().map_or(sqs, |d| &d.sqs);
    to_sqs
        .attributes(&plan.destination)
        .await
        .with_context(|| {
            format!(
                "cannot reach the journal's destination {}",
                plan.destination.name
            )
        })?;
    let attrs = sqs.attributes(&plan.source).await?;
    let sides = super::destination::Sides::new(
        ctx,
        sqs,
        &plan.source,
        &plan.destination,
        plan.destination_access.as_ref(),
    );
    confirm(ctx, settings.yes, &plan, attrs.visible(), &sides)?;
    if let Some(held) = HeldWait::needed(&plan, &state, &attrs, SystemTime::now()) {
        wait_for_held_messages(ctx, sqs, &plan, &held, path).await?;
    }
    let journal = Journal::append(path)
        .with_context(|| format!("cannot append to the journal {}", path.display()))?;
    ctx.printer.info(format!("journal: {}", path.display()));
    let depth = sqs.attributes(&plan.source).await?.visible();
    let to_sqs = destination.map(|d| d.sqs);
    execute(ctx, sqs, to_sqs, &plan, journal, true, state, depth).await
}

/// How often a wait without a progress bar says how long it has left.
const WAIT_NOTE_EVERY: Duration = Duration::from_secs(10);

/// Waits, with a spinner or a note every few seconds, for the messages a dead run held to be
/// visible again, so that the resumed run sees them all (and moves each once, since the journal
/// shows which were sent). Ctrl-C ends the wait with nothing moved.
async fn wait_for_held_messages(
    ctx: &Context,
    sqs: &Sqs,
    plan: &Plan,
    held: &HeldWait,
    journal: &std::path::Path,
) -> anyhow::Result<()> {
    let lost = match held.lost_receives {
        0 => String::new(),
        lost => format!(
            "{} what {} without an answer may have hidden",
            if held.held == 0 { "" } else { " and" },
            plural(lost, "receive")
        ),
    };
    let what = if held.held == 0 {
        format!("{} in {}", lost.trim_start(), plan.source.name)
    } else {
        format!(
            "the {} the interrupted run left in flight in {}{lost}",
            plural(held.held, "message"),
            plan.source.name
        )
    };
    ctx.printer.info(format!(
        "waiting up to {} (until {}) for {what} to be visible again; Ctrl-C stops with nothing moved",
        humantime::format_duration(held.wait),
        humantime::format_rfc3339_seconds(held.until),
    ));
    let bar = ctx.printer.progress(held.wait.as_secs(), "{spinner} {msg}");
    let mut noted = tokio::time::Instant::now();
    let waited = held.wait(sqs, plan, &ctx.interrupt, |status| {
        let status = format!(
            "{} s left, {} in flight in {}",
            status.left.as_secs_f64().ceil(),
            plural(status.in_flight, "message"),
            plan.source.name
        );
        if !bar.is_hidden() {
            bar.set_message(format!("waiting: {status}"));
        } else if noted.elapsed() >= WAIT_NOTE_EVERY {
            ctx.printer.info(format!("still waiting: {status}"));
            noted = tokio::time::Instant::now();
        }
    });
    let waited = waited.await;
    bar.finish_and_clear();
    if !waited? {
        return Err(anyhow::Error::new(Cancelled).context(format!(
            "stopped while waiting for the held messages: nothing moved; `sqsctl redrive --resume {}` waits again",
            journal.display()
        )));
    }
    Ok(())
}
