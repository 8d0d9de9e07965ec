//! `sqsctl queue info|create|delete|set|url|tag|untag`: the settings each subcommand runs with, and the dispatch to
//! the file of each.

mod create;
mod delete;
mod info;
mod set;
mod tag;
mod url;

use std::collections::BTreeMap;

use crate::cli::queue::QueueCommand;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
pub use create::CreateSettings;
pub use set::SetSettings;

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
    Set(SetSettings),
    Url {
        name: String,
        account: Option<String>,
    },
    Tag {
        queue: String,
        tags: BTreeMap<String, String>,
    },
    Untag {
        queue: String,
        keys: Vec<String>,
    },
}

/// Adds the duration flags of `queue create` and `queue set` to `attributes` (as the seconds SQS
/// takes; their range was checked as they were parsed), refusing one that `--attr` sets too.
fn add_durations(
    attributes: &mut BTreeMap<String, String>,
    durations: &crate::cli::queue::QueueDurationArgs,
) -> anyhow::Result<()> {
    for (flag, name, seconds) in durations.attributes() {
        if attributes
            .insert(name.to_string(), seconds.to_string())
            .is_some()
        {
            anyhow::bail!("{flag} and --attr {name} set the same attribute: give one");
        }
    }
    Ok(())
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
                yes: args.confirm.yes,
                dry_run: args.confirm.dry_run,
            },
            QueueCommand::Set(args) => QueueSettings::Set(SetSettings::resolve(args)?),
            QueueCommand::Url(args) => QueueSettings::Url {
                name: args.name,
                account: args.account,
            },
            QueueCommand::Tag(args) => QueueSettings::Tag {
                tags: tag::parse_tags(&args.tags, "queue tag")?,
                queue: args.queue,
            },
            QueueCommand::Untag(args) => QueueSettings::Untag {
                queue: args.queue,
                keys: args.keys,
            },
        })
    }
}

pub async fn run(ctx: &Context, settings: QueueSettings) -> anyhow::Result<ExitStatus> {
    match settings {
        QueueSettings::Info { queue } => info::info(ctx, &queue).await,
        QueueSettings::Create(create_settings) => create::create(ctx, create_settings).await,
        QueueSettings::Delete {
            queue,
            yes,
            dry_run,
        } => delete::delete(ctx, &queue, yes, dry_run).await,
        QueueSettings::Set(set_settings) => set::set(ctx, set_settings).await,
        QueueSettings::Url { name, account } => url::url(ctx, &name, account).await,
        QueueSettings::Tag { queue, tags } => tag::tag(ctx, &queue, tags).await,
        QueueSettings::Untag { queue, keys } => tag::untag(ctx, &queue, keys).await,
    }
}

/// A dead-letter queue named on the command line, of its source's type.
enum Dlq {
    /// It exists.
    Found {
        queue: crate::client::QueueRef,
        arn: String,
    },
    /// It does not exist: the name to create it under.
    Missing { name: String },
}

/// Looks up the dead-letter queue `text` for a source queue of this type (`source` names it when
/// there is one yet), refusing a queue or a name of the other type: SQS requires the two to match.
async fn find_dlq(
    sqs: &crate::client::Sqs,
    text: &str,
    fifo: bool,
    source: Option<&str>,
) -> anyhow::Result<Dlq> {
    use crate::client::ClientError;
    match sqs.resolve(text).await {
        Ok(queue) => {
            let attrs = sqs.attributes(&queue).await?;
            check_dlq_type(
                &queue.name,
                "queue",
                attrs.is_fifo() || queue.is_fifo(),
                fifo,
                source,
            )?;
            let arn = attrs
                .arn()
                .map(str::to_string)
                .ok_or_else(|| anyhow::anyhow!("SQS did not report the ARN of `{}`", queue.name))?;
            Ok(Dlq::Found { queue, arn })
        }
        Err(ClientError::QueueNotFound { queue: name, .. }) => {
            check_dlq_type(&name, "name", name.ends_with(".fifo"), fifo, source)?;
            Ok(Dlq::Missing { name })
        }
        Err(ClientError::InvalidInput(message)) => Err(crate::error::UsageError(message).into()),
        Err(err) => Err(err.into()),
    }
}

/// Creates a dead-letter queue of this type, keeping messages the longest SQS allows.
async fn create_dlq(
    sqs: &crate::client::Sqs,
    name: &str,
    fifo: bool,
) -> Result<crate::client::QueueRef, crate::client::ClientError> {
    sqs.create_queue(
        name,
        crate::client::limits::dead_letter_queue_attributes(fifo),
    )
    .await
}

fn check_dlq_type(
    dlq: &str,
    what: &str,
    dlq_fifo: bool,
    fifo: bool,
    source: Option<&str>,
) -> anyhow::Result<()> {
    if dlq_fifo == fifo {
        return Ok(());
    }
    let kind = |fifo: bool| if fifo { "FIFO" } else { "standard" };
    let of = match source {
        Some(name) => format!("the {} queue `{name}`", kind(fifo)),
        None => format!("a {} queue", kind(fifo)),
    };
    let rename = if fifo && what == "name" {
        format!(": name it `{dlq}.fifo`")
    } else {
        String::new()
    };
    Err(crate::error::UsageError(format!(
        "`{dlq}` is a {} {what}; the dead-letter queue of {of} must be {} too{rename}",
        kind(dlq_fifo),
        kind(fifo)
    ))
    .into())
}

/// The attributes of a queue that a person sets (those `queue set` changes): what `queue create`
/// and `queue set` show after their change.
fn settable(attrs: &crate::client::QueueAttributes) -> BTreeMap<String, String> {
    attrs
        .0
        .iter()
        .filter(|(name, _)| set::SETTABLE.contains(&name.as_str()))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// Settings in human units beside the raw values, as `NAME | VALUE` pairs.
fn settings_pairs(settings: &BTreeMap<String, String>) -> Vec<(String, String)> {
    settings
        .iter()
        .map(|(name, value)| (name.clone(), crate::text::attribute_with_units(name, value)))
        .collect()
}
