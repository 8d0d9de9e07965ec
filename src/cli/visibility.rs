//! Arguments of `sqsctl visibility`.

fn timeout_help() -> String {
    format!(
        "New visibility timeout from now, {}: seconds (`30`) or a duration (`5m`, `1h30m`)",
        super::values::VISIBILITY.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl visibility orders --timeout 5m AQEB...handle...
  sqsctl receive orders -o jsonl | jq -r .data.receipt_handle | sqsctl visibility orders --timeout 0

--timeout counts from now, not from the receive: 0 makes the messages visible again at once (as if \
released), up to 12h keeps them hidden longer while a slow consumer works. Receipt handles come \
from the arguments or, when there are none, from stdin, one per line. One result per handle (JSON \
Lines record `visibility`); exit status 3 when some were not changed (an expired handle, a message \
already deleted).")]
pub struct VisibilityArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    #[arg(long, value_name = "DURATION", value_parser = super::values::VISIBILITY, help = timeout_help())]
    pub timeout: std::time::Duration,
    /// Receipt handles of received messages (default: read from stdin, one per line)
    #[arg(value_name = "RECEIPT_HANDLE")]
    pub receipt_handles: Vec<String>,
}
