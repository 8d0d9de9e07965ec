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

/// Refuses a dead-letter queue whose type (FIFO or standard) is not its source's: SQS requires
/// the two to match. `source` names the source queue when there is one yet.
fn check_dlq_type(
    dlq: &crate::client::QueueRef,
    dlq_attrs: &crate::client::QueueAttributes,
    fifo: bool,
    source: Option<&str>,
) -> anyhow::Result<()> {
    let dlq_fifo = dlq_attrs.is_fifo() || dlq.is_fifo();
    if dlq_fifo == fifo {
        return Ok(());
    }
    let kind = |fifo: bool| if fifo { "FIFO" } else { "standard" };
    let of = match source {
        Some(name) => format!("the {} queue `{name}`", kind(fifo)),
        None => format!("a {} queue", kind(fifo)),
    };
    Err(crate::error::UsageError(format!(
        "`{}` is a {} queue; the dead-letter queue of {of} must be {} too",
        dlq.name,
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
