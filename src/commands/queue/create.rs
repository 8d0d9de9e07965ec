//! `sqsctl queue create`: checks the name and attributes, creates the dead-letter queue when it is
//! missing, and creates the queue (an existing one with the same attributes is left as it is).

use std::collections::BTreeMap;

use anyhow::bail;
use serde::Serialize;

use crate::cli::queue::QueueCreateArgs;
use crate::cli::values::parse_name_value;
use crate::client::{ClientError, QueueRef, Sqs};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted};
use crate::exit::ExitStatus;
use crate::output::{Document, pairs_table};

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
        super::add_durations(&mut attributes, &args.durations)?;
        if fifo {
            attributes.insert("FifoQueue".to_string(), "true".to_string());
        }
        let tags = super::tag::parse_tags(&args.tags, "--tag")?;
        Ok(CreateSettings {
            tags,
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
    pub tags: BTreeMap<String, String>,
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
    /// The queue's settings as SQS reports them after the call.
    settings: BTreeMap<String, String>,
    /// The queue's tags after the call.
    tags: BTreeMap<String, String>,
}

#[derive(Debug, Serialize)]
struct CreatedDlq {
    name: String,
    url: String,
    max_receive_count: u32,
    /// Whether this run created it (false: it existed).
    created: bool,
}

pub(super) async fn create(
    ctx: &Context,
    mut settings: CreateSettings,
) -> anyhow::Result<ExitStatus> {
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
        .create_tagged_queue(
            &settings.name,
            settings.attributes.clone(),
            settings.tags.clone(),
        )
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
    let tags = sqs.tags(&queue).await?;
    if settings.tags.iter().any(|(k, v)| tags.get(k) != Some(v)) {
        // CreateQueue of an existing queue leaves its tags as they are.
        ctx.printer.warn(format!(
            "queue {} exists, and its tags were not changed: use `sqsctl queue tag {} KEY=VALUE...`",
            queue.name, queue.name
        ));
    }
    let created = Created {
        name: queue.name.clone(),
        url: queue.url.clone(),
        fifo: settings.fifo,
        created: !existed,
        dead_letter_queue,
        settings: super::settable(&sqs.attributes(&queue).await?),
        tags,
    };
    // Scripts take the URL from a pipe or from text output: nothing else goes to stdout there.
    let mut document =
        Document::value("queue_created", &created, queue.url.clone()).table(pairs_table(
            "attribute",
            "value",
            super::settings_pairs(&created.settings),
        ));
    if !created.tags.is_empty() {
        document = document.table(super::tag::tags_table(&created.tags));
    }
    ctx.printer.emit(&document)?;
    let mut line = if existed {
        format!("queue {} exists, unchanged", queue.name)
    } else {
        format!("created queue {}", queue.name)
    };
    if let Some(dlq) = &created.dead_letter_queue {
        let with = format!(
            "dead-letter queue {} after {}",
            dlq.name,
            crate::text::plural(u64::from(dlq.max_receive_count), "receive")
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
    match super::find_dlq(sqs, text, fifo, None).await? {
        super::Dlq::Found { queue, .. } => Ok((queue, false)),
        super::Dlq::Missing { name } => {
            let dlq = super::create_dlq(sqs, &name, fifo)
                .await
                .map_err(|err| create_error(&name, err))?;
            Ok((dlq, true))
        }
    }
}

fn exists_error(name: &str) -> anyhow::Error {
    hinted(
        format!("a queue named `{name}` already exists with different attributes"),
        format!(
            "see them with `sqsctl queue info {name}`; change them on the existing queue with `sqsctl queue set {name} --attr NAME=VALUE`, or pick another name"
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
