//! Arguments of `sqsctl delete`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl delete orders AQEB...handle...
  sqsctl receive orders -o jsonl | jq -r .data.receipt_handle | xargs sqsctl delete orders --yes
  sqsctl delete orders --message-id 5f0c... --message-id 9a1b... --dry-run

With --message-id the queue is scanned (each message received once, held, and made visible again \
at once when the scan ends) and only the messages with those ids are deleted. Like peek, the scan \
counts as a receive: on a queue with a redrive policy it says what it cost, and it refuses unless \
--force with a maxReceiveCount of 1 or 2, or while sqsctl's last read left messages at their \
maxReceiveCount. It reads at most --scan-limit messages (1000 unless set). Exit status 3 when some \
messages were not found or not deleted, 5 when messages arrived in the dead-letter queue while the \
scan ran (it most likely moved them there; SQS's counts lag by up to a minute, so on SQS itself a \
move can go unnoticed).

The question names the queue, its account and the region. Ctrl-C or Ctrl-D at it cancels with \
nothing deleted (exit 130). Ctrl-C while deleting lets the requests in flight answer for a grace \
period, then stops (exit 130); the summary counts only confirmed deletes.")]
pub struct DeleteArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Receipt handles of received messages
    #[arg(value_name = "RECEIPT_HANDLE", conflicts_with = "message_ids")]
    pub receipt_handles: Vec<String>,
    /// Delete the messages with these ids, found by scanning the queue (repeatable)
    #[arg(long = "message-id", value_name = "ID", num_args = 1..)]
    pub message_ids: Vec<String>,
    #[command(flatten)]
    pub confirm: super::ConfirmArgs,
    /// Scan a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read
    /// left at their maxReceiveCount) anyway; each scanned message counts one receive
    #[arg(long)]
    pub force: bool,
    /// With --message-id, read at most this many messages looking for the ids
    #[arg(long, value_name = "N", default_value_t = crate::client::peek::DEFAULT_SCAN_LIMIT, value_parser = super::parse_count)]
    pub scan_limit: u64,
}
