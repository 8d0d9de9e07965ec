//! Arguments of `sqsctl diagnose`.

use std::path::PathBuf;

/// Messages read from a queue by default.
pub const DEFAULT_SAMPLE: usize = 20_000;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each finding has a stable id (e.g. serialized-groups, dedup-collision, \
visibility-timeout-short), a severity (info, warning, error), the evidence and what to change. \
The exit code is 0 when every check ran and nothing worse than info was found, and 4 when a warning \
or an error was, or when a check could not run (scan-skipped, scan-incomplete, counts-lagging: the \
JSON then has \"complete\": false and lists the checks in \"skipped\"). SQS's counts lag behind \
sends: when the scan read more messages than they held, diagnose reads them again for up to 3 \
seconds; if they still lag, what the scan did not see is unknown (counts-lagging).

Messages are read without consuming them: each is received once with a visibility timeout and made \
visible again at the end. Each read counts as a receive: on a queue with a redrive policy diagnose \
says what it cost, and reports the messages now one receive from the dead-letter queue \
(near-dead-letter). With a maxReceiveCount of 1 or 2, or while sqsctl's last read left messages \
at their maxReceiveCount (the read ledger), it checks only the settings unless --force is given. \
When messages arrive in the dead-letter queue while it reads, it says so and exits with 5 (SQS's \
counts lag by up to a minute, so on SQS itself a move can go unnoticed). On \
`sqsctl local` it lists the messages through the server's inspection endpoint instead, receiving \
nothing."
)]
pub struct DiagnoseArgs {
    /// Queue name, URL or ARN (optional with --input: the file is then analyzed on its own)
    #[arg(value_name = "QUEUE")]
    pub queue: Option<String>,
    #[command(flatten)]
    pub source: MessageSourceArgs,
    /// On a standard queue without group ids: the tenant of each message, a JMESPath expression
    /// over the record as --where reads it (e.g. body.customer); says when one value dominates the
    /// backlog, so that a fair queue keyed on it would help
    #[arg(long, value_name = "EXPR")]
    pub tenant_key: Option<String>,
    /// Count the messages read per value of EXPR, most frequent first (repeatable)
    ///
    /// Each EXPR is a JMESPath expression over the record --where sees, e.g.
    /// message_attributes.error.value, message.type, envelope.topic, "age > `3600`". Without it,
    /// a dead-letter queue whose messages have envelopes is counted by envelope kind and topic
    /// (or source, or bucket).
    #[arg(long, value_name = "EXPR")]
    pub count_by: Vec<String>,
    /// Run again every DURATION (e.g. 30, 5m) and say which findings changed, until Ctrl-C (a
    /// finding missing from a scan that read fewer messages is not taken as resolved)
    #[arg(long, value_name = "DURATION", value_parser = super::values::INTERVAL)]
    pub watch: Option<std::time::Duration>,
}

/// Where the messages to analyze come from, for `diagnose` and `fifo groups`: a sample of the
/// queue, or an export.
#[derive(Debug, clap::Args)]
pub struct MessageSourceArgs {
    /// Analyze messages from a JSON Lines file (as `receive` and `peek` write them; `-` for stdin)
    /// instead of reading the queue
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Read at most N messages of the queue
    #[arg(long, default_value_t = DEFAULT_SAMPLE, value_name = "N")]
    pub sample: usize,
    /// Read messages even when the queue's maxReceiveCount is 1 or 2, or the last read left
    /// messages at their maxReceiveCount (each read counts as a receive)
    #[arg(long)]
    pub force: bool,
}
