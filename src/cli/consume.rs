//! Arguments of `sqsctl consume`.

use std::time::Duration;

use super::values::{self, DurationRange};

/// `--timeout`: more than 0, at most a year (a deadline past that would overflow the clock).
const COMMAND_TIMEOUT: DurationRange = DurationRange::positive(Duration::from_secs(365 * 86_400));

fn retry_delay_help() -> String {
    format!(
        "How long a failed message stays hidden before its retry, doubled for each receive it \
         already had, {}",
        values::RETRY_DELAY.text()
    )
}

fn max_retry_delay_help() -> String {
    format!("The longest retry delay, {}", values::RETRY_DELAY.text())
}

fn visibility_help() -> String {
    format!(
        "Visibility timeout of received messages, {}, extended while their command runs \
         (default: the queue's)",
        values::HOLD.text()
    )
}

fn wait_help() -> String {
    format!(
        "Longest wait of one receive for messages, {}",
        values::WAIT.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl consume orders -- ./process-order.sh         # the body on stdin, the message in SQS_*
  sqsctl consume orders --concurrency 8 --idle-exit 30s -- python3 worker.py
  sqsctl consume orders --jsonl -- jq -e '.body | fromjson | .amount > 0'
  sqsctl consume jobs.fifo --concurrency 4 --timeout 5m -- sh -c 'make -C \"$SQS_ATTR_DIR\"'

COMMAND runs once per message, with the body on stdin (with --jsonl: the message record as one \
line of JSON) and these environment variables: SQS_MESSAGE_ID, SQS_RECEIPT_HANDLE, \
SQS_RECEIVE_COUNT, SQS_SENT_TIMESTAMP (epoch milliseconds), SQS_GROUP_ID (FIFO and fair queues) and \
SQS_DEDUPLICATION_ID (FIFO), SQS_QUEUE_URL, SQS_QUEUE_NAME, and SQS_ATTR_<NAME> per message attribute (the name in upper \
case, other characters than letters, digits and _ replaced by _). COMMAND is run directly, not \
through a shell: use `sh -c '...'` for pipes and variables.

Exit codes of COMMAND: 0 deletes the message (only a delete that SQS confirms counts as done). \
75 (EX_TEMPFAIL; see --release-exit-codes) releases it at once for another try. Any other code, a \
signal, or --timeout releases it after --retry-delay, doubled for each receive it already had, so \
the queue's redrive policy moves a message that keeps failing to its dead-letter queue. A COMMAND \
that is not found stops the run before anything is received (exit 2).

While COMMAND runs, the message's visibility timeout is extended before it lapses (a heartbeat), so \
a long job is not delivered to anyone else. --timeout stops a command that runs too long: SIGTERM \
to its process group (COMMAND and what it started), SIGKILL 2 s later. On a FIFO queue two \
messages of the same group never run at once and run in order; a failed message holds back the \
rest of its group until SQS delivers it again (--per-group takes only 1 there).

--per-group N on a standard queue (a fair queue: its group ids name tenants) runs at most N \
messages of one group id at once, so one tenant's flood cannot take every slot; a message without \
a group id is a tenant of its own. Messages over the cap wait, held (their visibility extended), \
while other tenants' messages run; they are never released for it, so no receive is spent.

Ctrl-C, SIGTERM and SIGHUP: the first stops receiving, releases the messages not started, and lets \
running commands finish for the grace period (SQSCTL_INTERRUPT_GRACE, 5 s by default), then kills \
them with their process groups; a second kills them at once. Messages of killed commands, and of \
commands that one of these signals ended meanwhile, are released at once. Exit 130 (143 for SIGTERM, 129 for SIGHUP). If sqsctl is killed (kill -9), a \
watchdog process kills the commands' process groups.

--grep, --attr and --where run only the messages that match; the others are released at once, \
and one left out again in the same run stays hidden for its visibility timeout (each receive counts \
toward the queue's maxReceiveCount).

COMMAND's stdout and stderr pass through, line by line (each line prefixed with the first 8 \
characters of its message id when --concurrency is more than 1); with -o jsonl they are `output` \
records, each message's outcome a `result` record, and a `summary` record closes the run. The \
summary says where failed messages went: released for a retry, or, after their last receive, on \
their way to the dead-letter queue. Exit 0 when every message was deleted, 3 when some failed or \
could not be deleted (they will be delivered again).")]
pub struct ConsumeArgs {
    /// Queue name, URL or ARN
    pub queue: String,

    /// The command to run for each message, after `--`
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Commands running at once
    #[arg(long, short = 'c', default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub concurrency: u16,

    /// On a standard queue, run at most N messages of one group id (tenant) at once (default: no cap)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub per_group: Option<u16>,

    /// Stop after this many messages were run
    #[arg(long, short = 'n', value_name = "N", value_parser = super::parse_count)]
    pub max: Option<u64>,

    /// Stop once the queue stayed empty this long with no command running (e.g. 0s, 30s, 5m)
    #[arg(long, value_name = "DURATION", value_parser = values::SPAN)]
    pub idle_exit: Option<Duration>,

    /// Write the message record (as one JSON line) to COMMAND's stdin instead of the body
    #[arg(long)]
    pub jsonl: bool,

    #[arg(long, default_value = "10s", value_name = "DURATION", value_parser = values::RETRY_DELAY, help = retry_delay_help())]
    pub retry_delay: Duration,

    #[arg(long, default_value = "15m", value_name = "DURATION", value_parser = values::RETRY_DELAY, help = max_retry_delay_help())]
    pub max_retry_delay: Duration,

    /// Exit codes of COMMAND that release the message at once, without the retry delay (comma-separated)
    #[arg(
        long,
        visible_alias = "fail-exit-codes",
        value_delimiter = ',',
        default_value = "75",
        value_name = "CODES"
    )]
    pub release_exit_codes: Vec<i32>,

    /// Stop a command that runs longer than this (it then counts as failed)
    #[arg(long, value_name = "DURATION", value_parser = COMMAND_TIMEOUT)]
    pub timeout: Option<Duration>,

    #[arg(long, value_name = "DURATION", value_parser = values::HOLD, help = visibility_help())]
    pub visibility: Option<Duration>,

    #[arg(long, default_value = "20s", value_name = "DURATION", value_parser = values::WAIT, help = wait_help())]
    pub wait: Duration,

    #[command(flatten)]
    pub select: super::select::SelectArgs,
}
