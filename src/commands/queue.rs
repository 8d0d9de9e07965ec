//! `sqsctl queue info|create|delete`.

use anyhow::bail;
use std::collections::BTreeMap;

use serde::Serialize;

use super::common::{confirm_destructive, plural, queue_place, resolve_queue};
use crate::cli::queue::{QueueCommand, QueueCreateArgs};
use crate::cli::values::parse_name_value;
use crate::client::queue::name_from_arn;
use crate::client::{ClientError, QueueAttributes, QueueRef, Sqs};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted};
use crate::exit::ExitStatus;
use crate::output::{Format, sanitize};

#[derive(Debug)]
pub enum QueueSettings {
    Info {
        queue: String,
    },
    Create(CreateSettings),
    Delete {
        queue: String,
        yes: bool,
        dry_run: bool,
    },
}

impl QueueSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(command: QueueCommand) -> anyhow::Result<QueueSettings> {
        Ok(match command {
            QueueCommand::Info(args) => QueueSettings::Info { queue: args.queue },
            QueueCommand::Create(args) => QueueSettings::Create(CreateSettings::resolve(args)?),
            QueueCommand::Delete(args) => QueueSettings::Delete {
                queue: args.queue,
                yes: args.yes,
                dry_run: args.dry_run,
            },
        })
    }
}

impl CreateSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: QueueCreateArgs) -> anyhow::Result<CreateSettings> {
        let fifo = args.fifo || args.name.ends_with(".fifo");
        if fifo && !args.name.ends_with(".fifo") {
            bail!("FIFO queue names end in .fifo: use `{}.fifo`", args.name);
        }
        let valid_name = |name: &str| {
            let base = name.strip_suffix(".fifo").unwrap_or(name);
            !base.is_empty()
                && name.len() <= 80
                && base
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !valid_name(&args.name) {
            bail!(
                "`{}` is not a valid queue name: 1-80 letters, digits, - and _ (FIFO names end in .fifo)",
                args.name
            );
        }
        let mut attributes = BTreeMap::new();
        for text in &args.attrs {
            let (name, value) = parse_name_value(text, "--attr")?;
            if attributes.insert(name.clone(), value).is_some() {
                bail!("--attr {name} is given twice");
            }
        }
        if fifo {
            attributes.insert("FifoQueue".to_string(), "true".to_string());
        }
        Ok(CreateSettings {
            name: args.name,
            fifo,
            dlq: args.dlq,
            max_receive: args.max_receive,
            attributes,
        })
    }
}

#[derive(Debug)]
pub struct CreateSettings {
    pub name: String,
    pub fifo: bool,
    pub dlq: Option<String>,
    pub max_receive: u32,
    /// Queue attributes, `FifoQueue` included for FIFO queues.
    pub attributes: BTreeMap<String, String>,
}

pub async fn run(ctx: &Context, settings: QueueSettings) -> anyhow::Result<ExitStatus> {
    match settings {
        QueueSettings::Info { queue } => info(ctx, &queue).await,
        QueueSettings::Create(create_settings) => create(ctx, create_settings).await,
        QueueSettings::Delete {
            queue,
            yes,
            dry_run,
        } => delete(ctx, &queue, yes, dry_run).await,
    }
}

#[derive(Debug, Serialize)]
struct Depth {
    name: String,
    url: Option<String>,
    visible: u64,
    in_flight: u64,
    delayed: u64,
    exists: bool,
}

#[derive(Debug, Serialize)]
struct RedriveInfo {
    dead_letter_target_arn: String,
    max_receive_count: u32,
    dead_letter_queue: Depth,
}

#[derive(Debug, Serialize)]
struct QueueInfo {
    name: String,
    url: String,
    fifo: bool,
    visible: u64,
    in_flight: u64,
    delayed: u64,
    /// Every attribute as SQS reports it.
    attributes: QueueAttributes,
    #[serde(skip_serializing_if = "Option::is_none")]
    redrive_policy: Option<RedriveInfo>,
    /// Queues whose redrive policy points at this one (it is their DLQ).
    dead_letter_sources: Vec<String>,
}

async fn depth_of(sqs: &Sqs, arn: &str) -> Result<Depth, ClientError> {
    let name = name_from_arn(arn).unwrap_or(arn).to_string();
    match sqs.resolve_arn(arn).await {
        Ok(queue) => {
            let attrs = sqs.attributes(&queue).await?;
            Ok(Depth {
                name,
                url: Some(queue.url),
                visible: attrs.visible(),
                in_flight: attrs.in_flight(),
                delayed: attrs.delayed(),
                exists: true,
            })
        }
        Err(ClientError::QueueNotFound { .. }) => Ok(Depth {
            name,
            url: None,
            visible: 0,
            in_flight: 0,
            delayed: 0,
            exists: false,
        }),
        Err(err) => Err(err),
    }
}

async fn info(ctx: &Context, text: &str) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(&queue).await?;
    let redrive_policy = match attrs.redrive_policy() {
        Some(policy) => Some(RedriveInfo {
            dead_letter_queue: depth_of(sqs, &policy.dead_letter_target_arn).await?,
            dead_letter_target_arn: policy.dead_letter_target_arn,
            max_receive_count: policy.max_receive_count,
        }),
        None => None,
    };
    let mut dead_letter_sources: Vec<String> = sqs
        .dead_letter_sources(&queue)
        .await?
        .into_iter()
        .map(|q| q.name)
        .collect();
    dead_letter_sources.sort();
    let info = QueueInfo {
        fifo: attrs.is_fifo() || queue.is_fifo(),
        visible: attrs.visible(),
        in_flight: attrs.in_flight(),
        delayed: attrs.delayed(),
        name: queue.name,
        url: queue.url,
        attributes: attrs,
        redrive_policy,
        dead_letter_sources,
    };
    if let Some(policy) = &info.redrive_policy
        && !policy.dead_letter_queue.exists
    {
        ctx.printer.warn(format!(
            "the dead-letter queue `{}` of the redrive policy does not exist: messages over the receive limit have nowhere to go",
            policy.dead_letter_queue.name
        ));
    }
    print_info(ctx, &info)?;
    Ok(ExitStatus::Success)
}

fn print_info(ctx: &Context, info: &QueueInfo) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    match printer.format() {
        Format::Jsonl => printer.record("queue_info", info)?,
        Format::Json => printer.json(info)?,
        Format::Table | Format::Text => {
            let mut rows: Vec<(String, String)> = vec![
                ("Name".into(), info.name.clone()),
                ("URL".into(), info.url.clone()),
                (
                    "Type".into(),
                    if info.fifo { "FIFO" } else { "standard" }.into(),
                ),
                (
                    "Messages".into(),
                    format!(
                        "{} visible, {} in flight, {} delayed",
                        info.visible, info.in_flight, info.delayed
                    ),
                ),
            ];
            if let Some(policy) = &info.redrive_policy {
                let dlq = &policy.dead_letter_queue;
                rows.push((
                    "Redrive policy".into(),
                    format!(
                        "to `{}` after {} receives",
                        dlq.name, policy.max_receive_count
                    ),
                ));
                rows.push((
                    "Dead-letter queue".into(),
                    if dlq.exists {
                        format!(
                            "{}: {} visible, {} in flight, {} delayed",
                            dlq.name, dlq.visible, dlq.in_flight, dlq.delayed
                        )
                    } else {
                        format!("{} (does not exist)", dlq.name)
                    },
                ));
            } else {
                rows.push(("Redrive policy".into(), "none".into()));
            }
            if !info.dead_letter_sources.is_empty() {
                rows.push((
                    "Dead-letter queue of".into(),
                    info.dead_letter_sources.join(", "),
                ));
            }
            for (name, value) in &info.attributes.0 {
                rows.push((name.clone(), value.clone()));
            }
            if printer.format() == Format::Text {
                for (name, value) in rows {
                    printer.line(&format!("{name}\t{}", printer.display(&value)))?;
                }
            } else {
                let mut table = printer.new_table(&["attribute", "value"]);
                for (name, value) in rows {
                    table.add_row(vec![name, sanitize::for_terminal(&value).into_owned()]);
                }
                printer.table(&table)?;
            }
        }
    }
    printer.flush()?;
    Ok(())
}

#[derive(Debug, Serialize)]
struct Created {
    name: String,
    url: String,
    fifo: bool,
    /// Whether this run created it (false: it existed with the same attributes).
    created: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    dead_letter_queue: Option<CreatedDlq>,
}

#[derive(Debug, Serialize)]
struct CreatedDlq {
    name: String,
    url: String,
    max_receive_count: u32,
    /// Whether this run created it (false: it existed).
    created: bool,
}

async fn create(ctx: &Context, mut settings: CreateSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    // The queue itself is looked up first, so that a run that cannot create it leaves nothing
    // behind (no new dead-letter queue for a queue that exists with other attributes).
    let existing = match sqs.resolve(&settings.name).await {
        Ok(queue) => Some(queue),
        Err(ClientError::QueueNotFound { .. }) => None,
        Err(ClientError::InvalidInput(message)) => return Err(UsageError(message).into()),
        Err(err) => return Err(err.into()),
    };
    if let Some(queue) = &existing {
        ctx.printer
            .debug(format!("queue `{}` exists: {}", queue.name, queue.url));
    }
    let mut dead_letter_queue = None;
    if let Some(dlq_name) = &settings.dlq {
        if existing.is_some()
            && matches!(
                sqs.resolve(dlq_name).await,
                Err(ClientError::QueueNotFound { .. })
            )
        {
            // An existing queue cannot already point at a queue that does not exist.
            return Err(exists_error(&settings.name));
        }
        let (dlq, created) = ensure_dlq(sqs, dlq_name, settings.fifo).await?;
        let attrs = sqs.attributes(&dlq).await?;
        let arn = attrs
            .arn()
            .map(str::to_string)
            .ok_or_else(|| anyhow::anyhow!("SQS did not report the ARN of `{}`", dlq.name))?;
        let policy = serde_json::json!({
            "deadLetterTargetArn": arn,
            "maxReceiveCount": settings.max_receive,
        });
        settings
            .attributes
            .insert("RedrivePolicy".to_string(), policy.to_string());
        if created {
            ctx.printer.info(format!(
                "created dead-letter queue {} ({})",
                dlq.name, dlq.url
            ));
        }
        dead_letter_queue = Some(CreatedDlq {
            name: dlq.name,
            url: dlq.url,
            max_receive_count: settings.max_receive,
            created,
        });
    }
    // CreateQueue of an existing name succeeds when the attributes given match and fails when
    // they differ, so SQS itself decides whether the existing queue is what was asked for.
    let queue = match sqs
        .create_queue(&settings.name, settings.attributes.clone())
        .await
    {
        Ok(queue) => queue,
        Err(err) => {
            if let Some(dlq) = dead_letter_queue.as_ref().filter(|d| d.created) {
                // Undo the dead-letter queue this run created for a queue it could not create.
                let dlq_ref = QueueRef {
                    name: dlq.name.clone(),
                    url: dlq.url.clone(),
                };
                match sqs.delete_queue(&dlq_ref).await {
                    Ok(()) => ctx.printer.info(format!(
                        "deleted dead-letter queue {} again, as `{}` could not be created",
                        dlq.name, settings.name
                    )),
                    Err(_) => ctx.printer.warn(format!(
                        "dead-letter queue {} was created but `{}` was not; delete it with `sqsctl queue delete {}`",
                        dlq.name, settings.name, dlq.name
                    )),
                }
            }
            return Err(create_error(&settings.name, err));
        }
    };
    let existed = existing.is_some();
    let created = Created {
        name: queue.name.clone(),
        url: queue.url.clone(),
        fifo: settings.fifo,
        created: !existed,
        dead_letter_queue,
    };
    match ctx.printer.format() {
        Format::Jsonl => ctx.printer.record("queue_created", &created)?,
        Format::Json => ctx.printer.json(&created)?,
        Format::Table | Format::Text => ctx.printer.line(&queue.url)?,
    }
    let mut line = if existed {
        format!("queue {} exists, unchanged", queue.name)
    } else {
        format!("created queue {}", queue.name)
    };
    if let Some(dlq) = &created.dead_letter_queue {
        let with = format!(
            "dead-letter queue {} after {} receives",
            dlq.name, dlq.max_receive_count
        );
        line.push_str(&if existed {
            format!(" ({with})")
        } else {
            format!(" with {with}")
        });
    }
    ctx.printer.info(line);
    Ok(ExitStatus::Success)
}

/// Finds the DLQ or creates it with the source's type.
async fn ensure_dlq(sqs: &Sqs, text: &str, fifo: bool) -> anyhow::Result<(QueueRef, bool)> {
    match sqs.resolve(text).await {
        Ok(dlq) => {
            let attrs = sqs.attributes(&dlq).await?;
            let dlq_fifo = attrs.is_fifo() || dlq.is_fifo();
            if dlq_fifo != fifo {
                return Err(UsageError(format!(
                    "`{}` is a {} queue; the dead-letter queue of a {} queue must be {} too",
                    dlq.name,
                    if dlq_fifo { "FIFO" } else { "standard" },
                    if fifo { "FIFO" } else { "standard" },
                    if fifo { "FIFO" } else { "standard" },
                ))
                .into());
            }
            Ok((dlq, false))
        }
        Err(ClientError::QueueNotFound { queue, .. }) => {
            if fifo != queue.ends_with(".fifo") {
                return Err(UsageError(if fifo {
                    format!("the dead-letter queue of a FIFO queue must be FIFO: name it `{queue}.fifo`")
                } else {
                    format!("`{queue}` is a FIFO name; the dead-letter queue of a standard queue must be standard")
                })
                .into());
            }
            let mut attributes = BTreeMap::new();
            if fifo {
                attributes.insert("FifoQueue".to_string(), "true".to_string());
            }
            // SQS measures retention of standard messages from the original enqueue time, so a DLQ
            // keeps them the maximum time to leave room for a redrive.
            attributes.insert("MessageRetentionPeriod".to_string(), "1209600".to_string());
            let dlq = sqs
                .create_queue(&queue, attributes)
                .await
                .map_err(|err| create_error(&queue, err))?;
            Ok((dlq, true))
        }
        Err(ClientError::InvalidInput(message)) => Err(UsageError(message).into()),
        Err(err) => Err(err.into()),
    }
}

fn exists_error(name: &str) -> anyhow::Error {
    hinted(
        format!("a queue named `{name}` already exists with different attributes"),
        format!(
            "see them with `sqsctl queue info {name}`; change them on the existing queue, or pick another name"
        ),
    )
}

fn create_error(name: &str, err: ClientError) -> anyhow::Error {
    match err.code() {
        Some(
            "QueueAlreadyExists" | "QueueNameExists" | "AWS.SimpleQueueService.QueueNameExists",
        ) => exists_error(name),
        Some("AWS.SimpleQueueService.QueueDeletedRecently" | "QueueDeletedRecently") => hinted(
            format!("`{name}` was deleted less than 60 seconds ago"),
            "SQS refuses to reuse a queue name for 60 seconds after deleting it; wait and try again",
        ),
        _ => err.into(),
    }
}

#[derive(Debug, Serialize)]
struct Deleted<'a> {
    name: &'a str,
    url: &'a str,
    /// Approximate depth when it was deleted.
    messages: u64,
    dry_run: bool,
}

async fn delete(ctx: &Context, text: &str, yes: bool, dry_run: bool) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
    let attrs = sqs.attributes(&queue).await?;
    let sources: Vec<String> = sqs
        .dead_letter_sources(&queue)
        .await
        .map(|queues| queues.into_iter().map(|q| q.name).collect())
        .unwrap_or_default();
    if !sources.is_empty() {
        ctx.printer.warn(format!(
            "`{}` is the dead-letter queue of {}: their failed messages will have nowhere to go",
            queue.name,
            sources.join(", ")
        ));
    }
    let depth = attrs.total();
    if !dry_run {
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Delete queue {} and its {}?",
                queue_place(&queue, sqs.region()),
                plural(depth, "message")
            ),
            &format!("deleting queue `{}`", queue.name),
            true,
            yes,
        )?;
        sqs.delete_queue(&queue).await?;
    }
    let deleted = Deleted {
        name: &queue.name,
        url: &queue.url,
        messages: depth,
        dry_run,
    };
    match ctx.printer.format() {
        Format::Jsonl => ctx.printer.record("queue_deleted", &deleted)?,
        Format::Json => ctx.printer.json(&deleted)?,
        Format::Table | Format::Text => {}
    }
    ctx.printer.info(if dry_run {
        format!(
            "dry run: would delete queue {} and its {}",
            queue.name,
            plural(depth, "message")
        )
    } else {
        format!(
            "deleted queue {} and its {}",
            queue.name,
            plural(depth, "message")
        )
    });
    Ok(ExitStatus::Success)
}
