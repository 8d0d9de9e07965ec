//! Arguments of `sqsctl delete`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl delete orders AQEB...handle...
  sqsctl receive orders -o jsonl | jq -r .data.receipt_handle | xargs sqsctl delete orders --yes
  sqsctl delete orders --message-id 5f0c... --message-id 9a1b... --dry-run

With --message-id the queue is scanned (each message received once, held, and made visible again \
at once when the scan ends) and only the messages with those ids are deleted. Like peek, the scan \
counts as a receive: on a queue with a redrive policy it says what it cost, and with a \
maxReceiveCount of 1 or 2 it refuses unless --force. Exit status 3 when some messages were not \
found or not deleted.

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
    /// Show what would be deleted, delete nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Scan a queue whose maxReceiveCount is 1 or 2 anyway (each scanned message counts one receive)
    #[arg(long)]
    pub force: bool,
}
