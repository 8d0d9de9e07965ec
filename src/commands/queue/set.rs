//! `sqsctl queue set`: checks every new attribute value against SQS's limits before any call,
//! works out the redrive policy and redrive allow policy from queue names, shows the change as a
//! before/after diff, asks, applies it with one SetQueueAttributes and shows the settings after.

use std::collections::BTreeMap;

use anyhow::bail;
use serde::Serialize;

use crate::cli::queue::QueueSetArgs;
use crate::cli::values::parse_name_value;
use crate::client::ClientError;
use crate::commands::common::{confirm_destructive, queue_place, resolve_queue};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted_usage};
use crate::exit::ExitStatus;
use crate::output::{Document, pairs_table};
use crate::queues::attributes::{Change, MAX_ALLOWED_SOURCES, settable};
use crate::queues::change::{AllowChange, DlqChange, PlanError, Wanted, apply, plan};
use crate::text::attribute_with_units;

#[derive(Debug)]
pub struct SetSettings {
    pub queue: String,
    /// New values of plain attributes, each already within SQS's limits.
    pub attributes: BTreeMap<String, String>,
    pub dlq: Option<DlqChange>,
    pub allow: Option<AllowChange>,
    pub yes: bool,
    pub dry_run: bool,
}

impl SetSettings {
    /// Checks the command line's values against SQS's limits (an error here is a usage error).
    pub fn resolve(args: QueueSetArgs) -> anyhow::Result<SetSettings> {
        let mut attributes = BTreeMap::new();
        for text in &args.attrs {
            let (name, value) = parse_name_value(text, "--attr")?;
            super::check_attribute(&name, &value)?;
            if attributes.insert(name.clone(), value).is_some() {
                bail!("--attr {name} is given twice");
            }
        }
        super::add_durations(&mut attributes, &args.durations)?;
        let dlq = match (args.dlq, args.max_receive) {
            (Some(queue), Some(max_receive)) => Some(DlqChange::Set {
                queue,
                max_receive,
                create: args.create_dlq,
            }),
            _ if args.no_dlq => Some(DlqChange::Remove),
            _ => None,
        };
        if dlq.is_some() && attributes.contains_key("RedrivePolicy") {
            bail!("--attr RedrivePolicy and --dlq/--no-dlq set the same attribute: give one");
        }
        if args.allow_sources.len() > MAX_ALLOWED_SOURCES {
            bail!(
                "--allow-sources lists {} queues; a redrive allow policy names at most {MAX_ALLOWED_SOURCES}",
                args.allow_sources.len()
            );
        }
        let allow = if !args.allow_sources.is_empty() {
            Some(AllowChange::Sources(args.allow_sources))
        } else if args.allow_all {
            Some(AllowChange::All)
        } else if args.deny_all {
            Some(AllowChange::None)
        } else {
            None
        };
        if allow.is_some() && attributes.contains_key("RedriveAllowPolicy") {
            bail!(
                "--attr RedriveAllowPolicy and --allow-sources/--allow-all/--deny-all set the same attribute: give one"
            );
        }
        if attributes.is_empty() && dlq.is_none() && allow.is_none() {
            bail!(
                "nothing to change: pass --attr NAME=VALUE, --visibility, --retention, --wait, --delay, --dlq, --no-dlq or --allow-sources"
            );
        }
        Ok(SetSettings {
            queue: args.queue,
            attributes,
            dlq,
            allow,
            yes: args.confirm.yes,
            dry_run: args.confirm.dry_run,
        })
    }
}

#[derive(Debug, Serialize)]
struct SetReport {
    name: String,
    url: String,
    changes: Vec<Change>,
    /// Whether the change was made (false with --dry-run or when nothing differs).
    applied: bool,
    /// The queue's settable attributes after the change (before it, with --dry-run).
    settings: BTreeMap<String, String>,
}

pub(super) async fn set(ctx: &Context, settings: SetSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    let wanted = Wanted {
        attributes: settings.attributes,
        dlq: settings.dlq,
        allow: settings.allow,
    };
    let plan = plan(sqs, &queue, &wanted).await.map_err(plan_error)?;
    let mut report = SetReport {
        name: queue.name.clone(),
        url: queue.url.clone(),
        changes: plan.changes.clone(),
        applied: false,
        settings: settable(&plan.before),
    };
    // A redrive policy may already name a dead-letter queue that does not exist: creating it is
    // then the whole change.
    if plan.is_empty() {
        ctx.printer.info(format!(
            "queue {} already has these settings: nothing to change",
            queue.name
        ));
        print_report(ctx, &report)?;
        return Ok(ExitStatus::Success);
    }
    print_diff(ctx, &report)?;
    if let Some(pending) = &plan.pending_dlq {
        ctx.printer.info(format!(
            "the dead-letter queue {} will be created",
            pending.name
        ));
    }
    if settings.dry_run {
        ctx.printer.info(format!(
            "dry run: {} not changed",
            queue_place(&queue, sqs.region())
        ));
        print_report(ctx, &report)?;
        return Ok(ExitStatus::Success);
    }
    confirm_destructive(
        &ctx.printer,
        &format!("Change {} as shown?", queue_place(&queue, sqs.region())),
        &format!("changing `{}`", queue.name),
        true,
        settings.yes,
    )?;
    let after = apply(sqs, &queue, &plan, |dlq| {
        ctx.printer.info(format!(
            "created dead-letter queue {} ({})",
            dlq.name, dlq.url
        ));
    })
    .await?;
    report.applied = true;
    report.settings = settable(&after);
    ctx.printer.info(format!(
        "changed {} on queue {}",
        crate::text::plural(report.changes.len() as u64, "attribute"),
        queue.name
    ));
    print_report(ctx, &report)?;
    Ok(ExitStatus::Success)
}

/// A change that cannot be made as given, with the flag to reach for where one helps.
fn plan_error(err: PlanError) -> anyhow::Error {
    match err {
        PlanError::DlqMissing(name) => hinted_usage(
            format!("the dead-letter queue `{name}` does not exist"),
            "pass --create-dlq to create it, or name an existing queue (`sqsctl queues` lists them)",
        ),
        PlanError::Source(ClientError::QueueNotFound {
            queue,
            region,
            account,
            similar,
        }) => hinted_usage(
            format!("the source queue `{queue}` of --allow-sources does not exist"),
            crate::hints::queue_not_found(&region, account.as_deref(), similar.as_deref()),
        ),
        PlanError::Source(ClientError::InvalidInput(message)) => UsageError(message).into(),
        PlanError::Dlq(err) => super::dlq_error(err),
        PlanError::Source(err) | PlanError::Client(err) => err.into(),
        err @ PlanError::FifoOnly { .. } => UsageError(err.to_string()).into(),
    }
}

/// The change as `NAME: BEFORE -> AFTER` lines on stdout (text and table output), shown before the
/// question so that what is asked about is on screen; JSON output has the record at the end.
fn print_diff(ctx: &Context, report: &SetReport) -> anyhow::Result<()> {
    let shown = |name: &str, value: &Option<String>| match value {
        Some(value) => attribute_with_units(name, value),
        None => "(none)".to_string(),
    };
    let lines: Vec<String> = report
        .changes
        .iter()
        .map(|change| {
            format!(
                "{}: {} -> {}",
                change.attribute,
                shown(&change.attribute, &change.before),
                shown(&change.attribute, &change.after),
            )
        })
        .collect();
    let mut document = Document::default().text(lines.iter().map(|l| vec![l.clone()]).collect());
    for line in lines {
        document = document.note(line);
    }
    ctx.printer.emit(&document)?;
    Ok(())
}

/// The record of the change (JSON output), or the settings after it (text and table output).
fn print_report(ctx: &Context, report: &SetReport) -> anyhow::Result<()> {
    let mut document = Document::default().json(report).record("queue_set", report);
    if report.applied {
        let pairs = super::settings_pairs(&report.settings);
        document = document
            .table(pairs_table("attribute", "value", pairs.clone()))
            .text(pairs.into_iter().map(|(n, v)| vec![n, v]).collect());
    }
    ctx.printer.emit(&document)?;
    Ok(())
}
