//! Arguments of `sqsctl fifo ...`.

use std::path::PathBuf;

use crate::cli::diagnose::DEFAULT_SAMPLE;

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
messages divided by those of the largest group."
)]
pub struct FifoGroupsArgs {
    /// FIFO queue name, URL or ARN (optional with --input)
    #[arg(value_name = "QUEUE")]
    pub queue: Option<String>,
    /// Read messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin)
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Read at most N messages of the queue
    #[arg(long, default_value_t = DEFAULT_SAMPLE, value_name = "N")]
    pub sample: usize,
    /// Read messages even when the queue has a redrive policy (each read counts as a receive)
    #[arg(long)]
    pub force: bool,
    /// Show at most N groups in the table (all of them in JSON)
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub limit: usize,
}
