//! Arguments of `sqsctl queue info|create|delete`.

#[derive(Debug, clap::Subcommand)]
pub enum QueueCommand {
    /// Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources
    Info(QueueInfoArgs),
    /// Create a queue (optionally FIFO, optionally with a dead-letter queue)
    Create(QueueCreateArgs),
    /// Delete a queue and every message in it
    Delete(QueueDeleteArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  sqsctl queue info orders")]
pub struct QueueInfoArgs {
    /// Queue name, URL or ARN
    pub queue: String,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queue create orders --dlq orders-dlq --max-receive 5
  sqsctl queue create jobs.fifo --fifo --attr ContentBasedDeduplication=true
  sqsctl queue create slow --attr VisibilityTimeout=120 --attr DelaySeconds=5

A missing dead-letter queue is created, of the same type. Creating a queue that exists with the same \
attributes succeeds and changes nothing (SQS's rule).")]
pub struct QueueCreateArgs {
    /// Name of the queue (FIFO names end in .fifo)
    pub name: String,
    /// Create a FIFO queue (implied by a name ending in .fifo)
    #[arg(long)]
    pub fifo: bool,
    /// Dead-letter queue for messages received more than --max-receive times (created if missing)
    #[arg(long, value_name = "QUEUE")]
    pub dlq: Option<String>,
    /// Receives before a message moves to the dead-letter queue, 1-1000
    #[arg(long, value_name = "N", requires = "dlq", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_receive: u32,
    /// Queue attribute NAME=VALUE, e.g. VisibilityTimeout=60 (repeatable)
    #[arg(long = "attr", value_name = "NAME=VALUE")]
    pub attrs: Vec<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  sqsctl queue delete scratch --yes

The question names the queue, its account and the region. Ctrl-C or Ctrl-D at it cancels with \
nothing deleted (exit 130).")]
pub struct QueueDeleteArgs {
    /// Queue name, URL or ARN
    pub queue: String,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Show what would be deleted, delete nothing
    #[arg(long)]
    pub dry_run: bool,
}
