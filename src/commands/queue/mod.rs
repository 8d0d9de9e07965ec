//! `sqsctl queue info|create|delete|set|url|tag|untag|permission`: the settings each subcommand runs with, and the dispatch to
//! the file of each.

mod create;
mod delete;
mod info;
mod permission;
mod set;
mod tag;
mod url;

use std::collections::BTreeMap;

use crate::cli::queue::QueueCommand;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
pub use create::CreateSettings;
pub use permission::PermissionSettings;
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
    Permission(PermissionSettings),
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
                queue: args.target.queue,
                yes: args.target.confirm.yes,
                dry_run: args.target.confirm.dry_run,
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
            QueueCommand::Permission(command) => {
                QueueSettings::Permission(PermissionSettings::resolve(command)?)
            }
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
        QueueSettings::Permission(settings) => permission::run(ctx, settings).await,
    }
}

/// Checks one `--attr` against what SQS accepts (a usage error if it does not).
fn check_attribute(name: &str, value: &str) -> anyhow::Result<()> {
    use crate::queues::attributes::{AttributeError, SETTABLE};
    crate::queues::attributes::check_attribute(name, value).map_err(|err| match err {
        AttributeError::NotSettable(_) => crate::error::hinted_usage(
            err.to_string(),
            format!("settable attributes: {}", SETTABLE.join(", ")),
        ),
        err => crate::error::UsageError(err.to_string()).into(),
    })
}

/// A dead-letter queue that cannot be used as named: a usage error, unless SQS failed.
fn dlq_error(err: crate::queues::dlq::DlqError) -> anyhow::Error {
    use crate::queues::dlq::DlqError;
    match err {
        DlqError::Client(err) => err.into(),
        DlqError::Create { source, .. } => (*source).into(),
        err @ DlqError::NoArn(_) => anyhow::Error::new(err),
        err => crate::error::UsageError(err.to_string()).into(),
    }
}

/// Settings in human units beside the raw values, as `NAME | VALUE` pairs.
fn settings_pairs(settings: &BTreeMap<String, String>) -> Vec<(String, String)> {
    settings
        .iter()
        .map(|(name, value)| (name.clone(), crate::text::attribute_with_units(name, value)))
        .collect()
}
