//! Arguments of `sqsctl queue info|create|delete|set|url|tag|untag|permission`.

use std::time::Duration;

use super::values::{DELAY, RETENTION, VISIBILITY, WAIT};

/// The queue's durations, named as on every other command (`--visibility`, `--wait`, `--delay`),
/// for `queue create` and `queue set`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct QueueDurationArgs {
    #[arg(long, value_name = "DURATION", value_parser = VISIBILITY, help = format!("How long a received message stays hidden (VisibilityTimeout, {})", VISIBILITY.text()))]
    pub visibility: Option<Duration>,
    #[arg(long, value_name = "DURATION", value_parser = RETENTION, help = format!("How long SQS keeps a message (MessageRetentionPeriod, {})", RETENTION.text()))]
    pub retention: Option<Duration>,
    #[arg(long, value_name = "DURATION", value_parser = WAIT, help = format!("Long-polling wait of receives (ReceiveMessageWaitTimeSeconds, {})", WAIT.text()))]
    pub wait: Option<Duration>,
    #[arg(long, value_name = "DURATION", value_parser = DELAY, help = format!("Delay before a new message is visible (DelaySeconds, {})", DELAY.text()))]
    pub delay: Option<Duration>,
}

impl QueueDurationArgs {
    /// Each duration given: its flag, the attribute it sets, and its value in seconds.
    pub fn attributes(&self) -> Vec<(&'static str, &'static str, u64)> {
        [
            ("--visibility", "VisibilityTimeout", self.visibility),
            ("--retention", "MessageRetentionPeriod", self.retention),
            ("--wait", "ReceiveMessageWaitTimeSeconds", self.wait),
            ("--delay", "DelaySeconds", self.delay),
        ]
        .into_iter()
        .filter_map(|(flag, name, value)| value.map(|v| (flag, name, v.as_secs())))
        .collect()
    }
}

#[derive(Debug, clap::Subcommand)]
pub enum QueueCommand {
    /// Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources
    Info(QueueInfoArgs),
    /// Create a queue (optionally FIFO, optionally with a dead-letter queue)
    Create(QueueCreateArgs),
    /// Delete a queue and every message in it
    Delete(QueueDeleteArgs),
    /// Change a queue's attributes: durations, dead-letter queue, redrive allow policy
    Set(QueueSetArgs),
    /// Print the URL of a queue
    Url(QueueUrlArgs),
    /// Add tags to a queue, or change their values
    Tag(QueueTagArgs),
    /// Remove tags from a queue
    Untag(QueueUntagArgs),
    /// Let other AWS accounts use a queue: list, add or remove permissions
    #[command(subcommand)]
    Permission(PermissionCommand),
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  sqsctl queue info orders")]
pub struct QueueInfoArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue create orders --dlq orders-dlq --max-receive 5
  sqsctl queue create jobs.fifo --fifo --attr ContentBasedDeduplication=true
  sqsctl queue create slow --visibility 2m --delay 5s
  sqsctl queue create billing --tag team=payments --tag env=prod

A missing dead-letter queue is created, of the same type. Creating a queue that exists with the same \
attributes succeeds and changes nothing (SQS's rule).")]
pub struct QueueCreateArgs {
    /// Name of the queue (FIFO names end in .fifo)
    pub name: String,
    /// Create a FIFO queue (implied by a name ending in .fifo)
    #[arg(long)]
    pub fifo: bool,
    /// Dead-letter queue for messages received more than --max-receive times (created if missing)
    #[arg(long, value_name = "QUEUE", alias = "dead-letter-queue")]
    pub dlq: Option<String>,
    /// Receives before a message moves to the dead-letter queue, 1-1000
    #[arg(long, value_name = "N", alias = "max-receive-count", requires = "dlq", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_receive: u32,
    #[command(flatten)]
    pub durations: QueueDurationArgs,
    /// Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)
    #[arg(long = "attr", value_name = "NAME=VALUE")]
    pub attrs: Vec<String>,
    /// Tag KEY=VALUE on the new queue, e.g. team=payments (repeatable)
    #[arg(long = "tag", value_name = "KEY=VALUE")]
    pub tags: Vec<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  sqsctl queue delete scratch --yes

The question names the queue, its account and the region. Ctrl-C or Ctrl-D at it cancels with \
nothing deleted (exit 130).")]
pub struct QueueDeleteArgs {
    #[command(flatten)]
    pub target: super::WholeQueueArgs,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue set orders --visibility 2m --retention 14d
  sqsctl queue set orders --dlq orders-dlq --max-receive 5
  sqsctl queue set orders-dlq --allow-sources orders
  sqsctl queue set orders --attr MaximumMessageSize=262144 --dry-run

Values are checked against SQS's limits before any call. The change is shown as a before/after \
diff and asked for on a terminal (the question names the queue, its account and the region); \
without a terminal it needs --yes. Durations take units: 90s, 2m, 12h, 14d.")]
pub struct QueueSetArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Queue attribute NAME=VALUE, e.g. MaximumMessageSize=262144 (repeatable)
    #[arg(long = "attr", value_name = "NAME=VALUE")]
    pub attrs: Vec<String>,
    #[command(flatten)]
    pub durations: QueueDurationArgs,
    /// Dead-letter queue (name, URL or ARN) for messages received more than --max-receive times
    #[arg(
        long,
        value_name = "QUEUE",
        alias = "dead-letter-queue",
        requires = "max_receive"
    )]
    pub dlq: Option<String>,
    /// Receives before a message moves to the dead-letter queue, 1-1000
    #[arg(long, value_name = "N", alias = "max-receive-count", requires = "dlq", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_receive: Option<u32>,
    /// Create the --dlq queue when it does not exist (of the same type, 14 days retention)
    #[arg(long, requires = "dlq")]
    pub create_dlq: bool,
    /// Remove the redrive policy (messages are no longer moved to a dead-letter queue)
    #[arg(long, conflicts_with = "dlq")]
    pub no_dlq: bool,
    /// As a dead-letter queue, accept messages only from these source queues (1-10)
    #[arg(long, value_name = "QUEUE", num_args = 1.., conflicts_with_all = ["allow_all", "deny_all"])]
    pub allow_sources: Vec<String>,
    /// As a dead-letter queue, accept messages from any source queue
    #[arg(long, conflicts_with = "deny_all")]
    pub allow_all: bool,
    /// Accept no source queue (this queue cannot be a dead-letter queue)
    #[arg(long)]
    pub deny_all: bool,
    #[command(flatten)]
    pub confirm: super::ConfirmArgs,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue url orders
  sqsctl queue url orders --account 123456789012")]
pub struct QueueUrlArgs {
    /// Queue name
    pub name: String,
    /// Account that owns the queue (another account's queue shared with yours)
    #[arg(long, value_name = "ID")]
    pub account: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue tag orders team=payments env=prod
  sqsctl queue tag orders owner=

A key the queue has already gets the new value. Keys are 1-128 characters, values 0-256, of \
letters, digits, spaces and _ . : / = + - @; keys starting with aws: are reserved; a queue has at \
most 50 tags. Tags are listed by `sqsctl queue info`.")]
pub struct QueueTagArgs {
    /// Queue name, URL or ARN
    pub queue: String,
    /// Tags to set, KEY=VALUE (an empty value is allowed: KEY=)
    #[arg(value_name = "KEY=VALUE", required = true)]
    pub tags: Vec<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  sqsctl queue untag orders env owner

Keys the queue does not have are no error; they are named on stderr.")]
pub struct QueueUntagArgs {
    /// Queue name, URL or ARN
    pub queue: String,
    /// Keys of the tags to remove
    #[arg(value_name = "KEY", required = true)]
    pub keys: Vec<String>,
}

#[derive(Debug, clap::Subcommand)]
pub enum PermissionCommand {
    /// List the statements of a queue's policy: the permissions added, and any others
    List(PermissionListArgs),
    /// Allow other AWS accounts actions on a queue (AddPermission)
    Add(PermissionAddArgs),
    /// Remove a permission by its label (RemovePermission)
    Remove(PermissionRemoveArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue permission list orders
  sqsctl queue permission list orders -o json

Each row is one statement of the queue's policy (the Policy attribute): its label (Sid), its \
effect, the accounts or principals it names and the actions it allows. `sqsctl queue info` shows \
the policy as written.")]
pub struct PermissionListArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue permission add orders --label billing-send --account 111122223333 --action SendMessage
  sqsctl queue permission add orders --label audit --account 444455556666 --action ReceiveMessage,GetQueueAttributes --dry-run

SQS adds one statement to the queue's policy: the label is its Sid, each account is allowed as \
arn:aws:iam::ACCOUNT:root, each action is written SQS:ACTION. Actions a permission can allow: \
SendMessage, ReceiveMessage, DeleteMessage, ChangeMessageVisibility (each with its batch \
action), GetQueueAttributes, GetQueueUrl, ListDeadLetterSourceQueues, PurgeQueue, or * for all \
of them; at most 7. Labels, account ids and action names are checked before any call. The \
question names the queue, its account and the region; without a terminal it needs --yes.")]
pub struct PermissionAddArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Name of the permission (the statement's Sid): 1-80 letters, digits, - and _
    #[arg(long, value_name = "LABEL")]
    pub label: String,
    /// AWS account allowed, 12 digits (repeatable, or comma-separated)
    #[arg(
        long = "account",
        value_name = "ID",
        required = true,
        value_delimiter = ','
    )]
    pub accounts: Vec<String>,
    /// Action allowed, e.g. SendMessage, or * for all (repeatable, or comma-separated)
    #[arg(
        long = "action",
        value_name = "NAME",
        required = true,
        value_delimiter = ','
    )]
    pub actions: Vec<String>,
    #[command(flatten)]
    pub confirm: super::ConfirmArgs,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue permission remove orders --label billing-send
  sqsctl queue permission remove orders --label audit --dry-run

The statement labelled LABEL leaves the queue's policy; once the last one goes, the queue has no \
policy. The question names the queue, its account and the region; without a terminal it needs \
--yes.")]
pub struct PermissionRemoveArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Label of the permission to remove (its Sid; `queue permission list` shows them)
    #[arg(long, value_name = "LABEL")]
    pub label: String,
    #[command(flatten)]
    pub confirm: super::ConfirmArgs,
}
