//! Arguments of `sqsctl queues`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queues
  sqsctl queues orders          # names starting with `orders`
  sqsctl queues -o jsonl | jq -r 'select(.data.visible > 0) | .data.name'

Counts are SQS's approximate numbers: visible, in flight (received, not yet deleted) and delayed.")]
pub struct QueuesArgs {
    /// Only queues whose name starts with this
    pub prefix: Option<String>,
}
