//! Arguments of `sqsctl fifo ...`.

use crate::cli::diagnose::MessageSourceArgs;

#[derive(Debug, clap::Subcommand)]
pub enum FifoCommand {
    /// Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism
    Groups(FifoGroupsArgs),
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The queue is read without consuming it. While messages of a group are \
held, SQS delivers no more of that group, so a scan sees the head of each group (up to 10 messages \
per receive); what lies behind the heads is inferred from the queue's visible depth, and the \
output says so. Effective parallelism is how many consumers can make progress at once: the \
messages divided by those of the largest group.

Each read counts as a receive: on a queue with a redrive policy fifo groups says what it cost and \
how many messages are now one receive from the dead-letter queue; with a maxReceiveCount of 1 or 2, \
or while sqsctl's last read left messages at their maxReceiveCount, it refuses (exit 1) unless \
--force; messages that arrive in the dead-letter queue while it reads give exit 5. On `sqsctl \
local` it lists the messages through the server's inspection endpoint, receiving nothing."
)]
pub struct FifoGroupsArgs {
    /// FIFO queue name, URL or ARN (optional with --input)
    #[arg(value_name = "QUEUE")]
    pub queue: Option<String>,
    #[command(flatten)]
    pub source: MessageSourceArgs,
    /// Show at most N groups in the table (all of them in JSON)
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub limit: usize,
}
