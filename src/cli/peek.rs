//! Arguments of `sqsctl peek`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl peek orders
  sqsctl peek orders --max 100 | jq -r .data.body

SQS has no real peek: peek receives the messages with a short visibility timeout and makes them \
visible again at once. Each peek therefore counts as a receive (ApproximateReceiveCount grows), and \
on a queue with a redrive policy that can push a message into its dead-letter queue: peek refuses \
such queues unless --force. While a peek runs, other consumers do not get the messages it holds.")]
pub struct PeekArgs {
    /// Queue name, URL or ARN
    pub queue: String,
    /// Show at most this many messages
    #[arg(long, short = 'n', default_value_t = 10, value_name = "N", value_parser = super::parse_count)]
    pub max: u64,
    /// Read a queue with a redrive policy anyway (each read counts toward maxReceiveCount)
    #[arg(long)]
    pub force: bool,
}
