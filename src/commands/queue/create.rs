//! `sqsctl queue create`: checks the name and attributes, creates the dead-letter queue when it is
//! missing, and creates the queue (an existing one with the same attributes is left as it is).

use std::collections::BTreeMap;

use anyhow::bail;
use serde::Serialize;

use crate::cli::queue::QueueCreateArgs;
use crate::cli::values::parse_name_value;
use crate::client::ClientError;
use crate::commands::context::Context;
use crate::error::{UsageError, hinted};
use crate::exit::ExitStatus;
use crate::output::{Document, pairs_table};
use crate::queues::attributes::settable;
use crate::queues::create::{CreateError, CreateEvent, NewQueue, create as create_queue};
use crate::queues::dlq::DlqError;

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

pub(super) async fn create(ctx: &Context, settings: CreateSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let new = NewQueue {
        name: settings.name.clone(),
        fifo: settings.fifo,
        attributes: settings.attributes,
        tags: settings.tags.clone(),
        dlq: settings.dlq.map(|dlq| (dlq, settings.max_receive)),
    };
    let done = create_queue(sqs, &new, |event| match event {
        CreateEvent::Exists(queue) => ctx
            .printer
            .debug(format!("queue `{}` exists: {}", queue.name, queue.url)),
        CreateEvent::DlqCreated(dlq) => ctx.printer.info(format!(
            "created dead-letter queue {} ({})",
            dlq.name, dlq.url
        )),
        CreateEvent::DlqDeleted(dlq) => ctx.printer.info(format!(
            "deleted dead-letter queue {} again, as `{}` could not be created",
            dlq.name, new.name
        )),
        CreateEvent::DlqLeft(dlq) => ctx.printer.warn(format!(
            "dead-letter queue {} was created but `{}` was not; delete it with `sqsctl queue delete {}`",
            dlq.name, new.name, dlq.name
        )),
    })
    .await
    .map_err(|err| match err {
        CreateError::ExistsOtherwise(name) => exists_error(&name),
        CreateError::InvalidName(message) => UsageError(message).into(),
        CreateError::Create { name, source }
        | CreateError::Dlq(DlqError::Create { name, source }) => create_error(&name, *source),
        CreateError::Dlq(err) => super::dlq_error(err),
        CreateError::Client(err) => err.into(),
    })?;
    let queue = done.queue;
    let dead_letter_queue = done.dlq.map(|dlq| CreatedDlq {
        name: dlq.queue.name,
        url: dlq.queue.url,
        max_receive_count: settings.max_receive,
        created: dlq.created,
    });
    let existed = done.existed;
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
        settings: settable(&sqs.attributes(&queue).await?),
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
