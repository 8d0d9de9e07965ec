//! Arguments of `sqsctl groups` (also `sqsctl fifo groups`).

use crate::cli::diagnose::MessageSourceArgs;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "On a FIFO queue: each message group. While messages of a group are held, SQS \
delivers no more of that group, so a scan sees the head of each group (up to 10 messages per \
receive); what lies behind the heads is inferred from the queue's visible depth, and the output \
says so. Effective parallelism is how many consumers can make progress at once: the messages \
divided by those of the largest group. SQS's counts lag behind sends: when the scan read more \
messages than they held, groups reads them again for up to 3 seconds; if they still lag, the \
messages behind the heads are not counted and the exit code is 4 (incomplete).

On a standard queue whose messages carry group ids (a fair queue): each tenant (group id) with its \
visible backlog, and where it can be known its messages in flight, its share of the queue's in \
flight, and whether it is a noisy neighbour now by SQS's rule (more than 10% of the queue's in \
flight and at least 30 of its own). SQS delivers no message in flight to a reader, so in flight \
per tenant is known on `sqsctl local` only; elsewhere the column shows `-`.

Each read counts as a receive: on a queue with a redrive policy groups says what it cost and \
how many messages are now one receive from the dead-letter queue; with a maxReceiveCount of 1 or 2, \
or while sqsctl's last read left messages at their maxReceiveCount, it refuses (exit 1) unless \
--force; messages that arrive in the dead-letter queue while it reads give exit 5 (SQS's counts \
lag by up to a minute, so on SQS itself a move can go unnoticed). On `sqsctl \
local` it counts the messages through the server's inspection endpoints, receiving nothing."
)]
pub struct GroupsArgs {
    /// Queue name, URL or ARN (optional with --input)
    #[arg(value_name = "QUEUE")]
    pub queue: Option<String>,
    #[command(flatten)]
    pub source: MessageSourceArgs,
    /// Show at most N groups in the table (all of them in JSON)
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub limit: usize,
    /// Read and show again every DURATION (e.g. 5, 1m), until Ctrl-C
    #[arg(long, value_name = "DURATION", value_parser = super::values::INTERVAL)]
    pub watch: Option<std::time::Duration>,
}
