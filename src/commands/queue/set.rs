//! `sqsctl queue set`: checks every new attribute value against SQS's limits before any call,
//! works out the redrive policy and redrive allow policy from queue names, shows the change as a
//! before/after diff, asks, applies it with one SetQueueAttributes and shows the settings after.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::bail;
use serde::Serialize;

use crate::cli::queue::QueueSetArgs;
use crate::cli::values::parse_name_value;
use crate::client::{ClientError, QueueAttributes, QueueRef, QueueSpec, Sqs, limits};
use crate::commands::common::{confirm_destructive, queue_place, resolve_queue};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted_usage};
use crate::exit::ExitStatus;
use crate::output::{Document, pairs_table};
use crate::text::{attribute_with_units, format_seconds};

/// The attributes a queue's owner may change, with the limits SQS enforces on each.
pub(super) const SETTABLE: &[&str] = &[
    "DelaySeconds",
    "KmsDataKeyReusePeriodSeconds",
    "KmsMasterKeyId",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "Policy",
    "ReceiveMessageWaitTimeSeconds",
    "RedriveAllowPolicy",
    "RedrivePolicy",
    "SqsManagedSseEnabled",
    "VisibilityTimeout",
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];

/// Attributes only a FIFO queue has.
const FIFO_ONLY: &[&str] = &[
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];

/// Most source queues a `byQueue` redrive allow policy may list.
const MAX_ALLOWED_SOURCES: usize = 10;

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

#[derive(Debug)]
pub enum DlqChange {
    Set {
        queue: String,
        max_receive: u32,
        create: bool,
    },
    Remove,
}

#[derive(Debug)]
pub enum AllowChange {
    Sources(Vec<String>),
    All,
    None,
}

impl SetSettings {
    /// Checks the command line's values against SQS's limits (an error here is a usage error).
    pub fn resolve(args: QueueSetArgs) -> anyhow::Result<SetSettings> {
        let mut attributes = BTreeMap::new();
        for text in &args.attrs {
            let (name, value) = parse_name_value(text, "--attr")?;
            check_attribute(&name, &value)?;
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

/// Checks one attribute's name and value against what SQS accepts.
pub(super) fn check_attribute(name: &str, value: &str) -> anyhow::Result<()> {
    let seconds_range = |min: Duration, max: Duration| -> anyhow::Result<()> {
        let (min, max) = (min.as_secs(), max.as_secs());
        match value.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(()),
            _ => Err(UsageError(format!(
                "{name} `{value}` is out of range: SQS takes {min} to {max} seconds ({} to {})",
                format_seconds(min),
                format_seconds(max)
            ))
            .into()),
        }
    };
    let one_of = |choices: &[&str]| -> anyhow::Result<()> {
        if choices.contains(&value) {
            Ok(())
        } else {
            Err(UsageError(format!(
                "{name} `{value}` is not valid: SQS takes {}",
                choices.join(" or ")
            ))
            .into())
        }
    };
    let json = || -> anyhow::Result<()> {
        if value.is_empty() || serde_json::from_str::<serde_json::Value>(value).is_ok() {
            Ok(())
        } else {
            Err(UsageError(format!("{name} `{value}` is not JSON")).into())
        }
    };
    match name {
        "DelaySeconds" => seconds_range(Duration::ZERO, limits::MAX_DELAY),
        "MessageRetentionPeriod" => seconds_range(limits::MIN_RETENTION, limits::MAX_RETENTION),
        "ReceiveMessageWaitTimeSeconds" => seconds_range(Duration::ZERO, limits::MAX_WAIT),
        "VisibilityTimeout" => seconds_range(Duration::ZERO, limits::MAX_VISIBILITY),
        "KmsDataKeyReusePeriodSeconds" => {
            seconds_range(limits::MIN_KMS_REUSE, limits::MAX_KMS_REUSE)
        }
        "MaximumMessageSize" => match value.trim().parse::<u64>() {
            Ok(n) if (1024..=1_048_576).contains(&n) => Ok(()),
            _ => Err(UsageError(format!(
                "MaximumMessageSize `{value}` is out of range: SQS takes 1024 to 1048576 bytes (1 KiB to 1 MiB)"
            ))
            .into()),
        },
        "SqsManagedSseEnabled" | "ContentBasedDeduplication" => one_of(&["true", "false"]),
        "DeduplicationScope" => one_of(&["queue", "messageGroup"]),
        "FifoThroughputLimit" => one_of(&["perQueue", "perMessageGroupId"]),
        "KmsMasterKeyId" => Ok(()),
        "Policy" | "RedrivePolicy" | "RedriveAllowPolicy" => json(),
        "FifoQueue" => Err(UsageError(
            "FifoQueue cannot change after a queue is created: create a new queue of the other type"
                .into(),
        )
        .into()),
        _ => Err(hinted_usage(
            format!("`{name}` is not a queue attribute that can be set"),
            format!("settable attributes: {}", SETTABLE.join(", ")),
        )),
    }
}

#[derive(Debug, Serialize)]
struct Change {
    attribute: String,
    /// The value before, `null` when the queue had none.
    before: Option<String>,
    /// The value after, `null` when the attribute is removed.
    after: Option<String>,
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

/// A dead-letter queue this run will create once the change is confirmed.
struct PendingDlq {
    name: String,
    fifo: bool,
}

pub(super) async fn set(ctx: &Context, settings: SetSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    let before = sqs.attributes(&queue).await?;
    let fifo = before.is_fifo() || queue.is_fifo();
    if !fifo
        && let Some(name) = settings
            .attributes
            .keys()
            .find(|n| FIFO_ONLY.contains(&n.as_str()))
    {
        return Err(UsageError(format!(
            "{name} is an attribute of FIFO queues, and `{}` is a standard queue",
            queue.name
        ))
        .into());
    }
    let mut wanted = settings.attributes.clone();
    let mut pending_dlq = None;
    match &settings.dlq {
        Some(DlqChange::Set {
            queue: dlq_text,
            max_receive,
            create,
        }) => {
            let (arn, pending) = dlq_arn(sqs, &queue, &before, dlq_text, fifo, *create).await?;
            pending_dlq = pending;
            let policy = serde_json::json!({
                "deadLetterTargetArn": arn,
                "maxReceiveCount": max_receive,
            });
            wanted.insert("RedrivePolicy".into(), policy.to_string());
        }
        Some(DlqChange::Remove) => {
            wanted.insert("RedrivePolicy".into(), String::new());
        }
        None => {}
    }
    if let Some(allow) = &settings.allow {
        let policy = match allow {
            AllowChange::All => serde_json::json!({ "redrivePermission": "allowAll" }),
            AllowChange::None => serde_json::json!({ "redrivePermission": "denyAll" }),
            AllowChange::Sources(sources) => {
                let mut arns = Vec::new();
                for source in sources {
                    arns.push(queue_arn(sqs, source).await?);
                }
                serde_json::json!({ "redrivePermission": "byQueue", "sourceQueueArns": arns })
            }
        };
        wanted.insert("RedriveAllowPolicy".into(), policy.to_string());
    }
    let changes = diff(&before, &wanted);
    let mut report = SetReport {
        name: queue.name.clone(),
        url: queue.url.clone(),
        changes,
        applied: false,
        settings: super::settable(&before),
    };
    // A redrive policy may already name a dead-letter queue that does not exist: creating it is
    // then the whole change.
    if report.changes.is_empty() && pending_dlq.is_none() {
        ctx.printer.info(format!(
            "queue {} already has these settings: nothing to change",
            queue.name
        ));
        print_report(ctx, &report)?;
        return Ok(ExitStatus::Success);
    }
    print_diff(ctx, &report)?;
    if let Some(pending) = &pending_dlq {
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
    if let Some(pending) = pending_dlq {
        create_dlq(ctx, sqs, &pending).await?;
    }
    let update: BTreeMap<String, String> = report
        .changes
        .iter()
        .map(|c| (c.attribute.clone(), c.after.clone().unwrap_or_default()))
        .collect();
    if !update.is_empty() {
        sqs.set_attributes(&queue, update).await?;
    }
    let after = sqs.attributes(&queue).await?;
    report.applied = true;
    report.settings = super::settable(&after);
    ctx.printer.info(format!(
        "changed {} on queue {}",
        crate::text::plural(report.changes.len() as u64, "attribute"),
        queue.name
    ));
    print_report(ctx, &report)?;
    Ok(ExitStatus::Success)
}

/// The ARN of the dead-letter queue, refusing one of the other type. A missing queue is an error
/// unless `create`: then its ARN is the source's with the name replaced, and it is created only
/// once the change is confirmed.
async fn dlq_arn(
    sqs: &Sqs,
    source: &QueueRef,
    source_attrs: &QueueAttributes,
    text: &str,
    fifo: bool,
    create: bool,
) -> anyhow::Result<(String, Option<PendingDlq>)> {
    let name = match super::find_dlq(sqs, text, fifo, Some(&source.name)).await? {
        super::Dlq::Found { arn, .. } => return Ok((arn, None)),
        super::Dlq::Missing { name } => name,
    };
    if !create {
        return Err(hinted_usage(
            format!("the dead-letter queue `{name}` does not exist"),
            "pass --create-dlq to create it, or name an existing queue (`sqsctl queues` lists them)",
        ));
    }
    if matches!(QueueSpec::parse(text), Ok(QueueSpec::Arn { .. })) {
        return Ok((text.to_string(), Some(PendingDlq { name, fifo })));
    }
    let source_arn = source_attrs
        .arn()
        .ok_or_else(|| anyhow::anyhow!("SQS did not report the ARN of `{}`", source.name))?;
    let prefix = source_arn
        .rsplit_once(':')
        .map(|(prefix, _)| prefix)
        .unwrap_or(source_arn);
    Ok((format!("{prefix}:{name}"), Some(PendingDlq { name, fifo })))
}

async fn create_dlq(ctx: &Context, sqs: &Sqs, pending: &PendingDlq) -> anyhow::Result<()> {
    let dlq = super::create_dlq(sqs, &pending.name, pending.fifo).await?;
    ctx.printer.info(format!(
        "created dead-letter queue {} ({})",
        dlq.name, dlq.url
    ));
    Ok(())
}

async fn queue_arn(sqs: &Sqs, text: &str) -> anyhow::Result<String> {
    let queue = match sqs.lookup(text).await {
        Ok(queue) => queue,
        Err(ClientError::QueueNotFound {
            queue,
            region,
            account,
            similar,
        }) => {
            return Err(hinted_usage(
                format!("the source queue `{queue}` of --allow-sources does not exist"),
                crate::hints::queue_not_found(&region, account.as_deref(), similar.as_deref()),
            ));
        }
        Err(ClientError::InvalidInput(message)) => return Err(UsageError(message).into()),
        Err(err) => return Err(err.into()),
    };
    let attrs = sqs.attributes(&queue).await?;
    attrs
        .arn()
        .map(str::to_string)
        .ok_or_else(|| anyhow::anyhow!("SQS did not report the ARN of `{}`", queue.name))
}

/// The attributes that would change. Policies compare as JSON, so a policy SQS renders with other
/// spacing or key order is not a change; an empty value removes the attribute.
fn diff(before: &QueueAttributes, wanted: &BTreeMap<String, String>) -> Vec<Change> {
    wanted
        .iter()
        .filter_map(|(name, value)| {
            let old = before.get(name).filter(|v| !v.is_empty());
            let new = (!value.is_empty()).then_some(value.as_str());
            let same = match (old, new) {
                (Some(a), Some(b)) => a == b || same_json(a, b),
                (None, None) => true,
                _ => false,
            };
            (!same).then(|| Change {
                attribute: name.clone(),
                before: old.map(str::to_string),
                after: new.map(str::to_string),
            })
        })
        .collect()
}

fn same_json(a: &str, b: &str) -> bool {
    match (
        serde_json::from_str::<serde_json::Value>(a),
        serde_json::from_str::<serde_json::Value>(b),
    ) {
        (Ok(a), Ok(b)) => normalize(a) == normalize(b),
        _ => false,
    }
}

/// `maxReceiveCount` may be a number or a numeric string; both mean the same.
fn normalize(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::String(s) if s.parse::<u64>().is_ok() => {
            serde_json::Value::from(s.parse::<u64>().unwrap_or_default())
        }
        serde_json::Value::Object(map) => {
            serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, normalize(v))).collect())
        }
        other => other,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_values_are_checked_against_sqs_limits() {
        assert!(check_attribute("VisibilityTimeout", "43200").is_ok());
        let err = check_attribute("VisibilityTimeout", "43201").unwrap_err();
        assert!(err.to_string().contains("0 to 43200 seconds"), "{err}");
        assert!(check_attribute("MessageRetentionPeriod", "59").is_err());
        assert!(check_attribute("DeduplicationScope", "group").is_err());
        assert!(check_attribute("Visibility", "1").is_err());
        assert!(check_attribute("FifoQueue", "true").is_err());
    }

    #[test]
    fn policies_that_differ_only_in_spelling_are_no_change() {
        let before = QueueAttributes(BTreeMap::from([(
            "RedrivePolicy".to_string(),
            r#"{"deadLetterTargetArn":"arn:a","maxReceiveCount":"5"}"#.to_string(),
        )]));
        let same = BTreeMap::from([(
            "RedrivePolicy".to_string(),
            r#"{"maxReceiveCount": 5, "deadLetterTargetArn": "arn:a"}"#.to_string(),
        )]);
        assert!(diff(&before, &same).is_empty());
        let removed = BTreeMap::from([("RedrivePolicy".to_string(), String::new())]);
        assert_eq!(diff(&before, &removed)[0].after, None);
    }
}
