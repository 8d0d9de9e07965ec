//! Arguments of `sqsctl receive`.

use std::time::Duration;

use super::values::{VISIBILITY, WAIT};

fn wait_help() -> String {
    format!("Long-poll wait per request, {}", WAIT.text())
}

fn wait_long_help() -> String {
    format!(
        "Long-poll wait per request, {} (default: the queue's own wait, or {} with --follow); 0 \
         short-polls, which on SQS can miss messages",
        WAIT.text(),
        crate::text::format_seconds(crate::client::limits::MAX_WAIT.as_secs())
    )
}

fn visibility_help() -> String {
    format!(
        "Visibility timeout of the received messages, {} (default: the queue's)",
        VISIBILITY.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl receive orders                        # up to 10 messages; they stay in the queue
  sqsctl receive orders --max 100 --wait 20    # long poll
  sqsctl receive orders --until-empty --delete --yes > orders.jsonl
  sqsctl receive orders --grep timeout --attr tenant=acme   # only what matches
  sqsctl receive orders --format '{id}\\t{attr.tenant}\\t{body}'
  sqsctl receive orders --follow --grep ERROR   # as messages arrive, until Ctrl-C
  sqsctl redrive a --to b --yes                # to move messages between queues, not receive | send

Received messages stay in the queue and come back after their visibility timeout unless --delete is \
given; to look without receiving, use `sqsctl peek`. Without --delete a run reads each message once: \
it stops receiving before a quarter of the visibility timeout is left (and says so; with --until-empty \
that exits 3), and on a queue with a redrive policy it follows the read guard of `peek`: it says what \
the read cost and which messages are now one receive away from the dead-letter queue, refuses a \
maxReceiveCount of 1 or 2, or a queue the last read left at the limit, without --force, and exits 5 \
when messages arrived in the dead-letter queue while it read. --follow without --delete on such a \
queue is refused without --force: each message would come back and be received again until moved.

With --delete each message is deleted only after its record was written to stdout and flushed; a \
closed pipe or Ctrl-C stops the run, and nothing unwritten is deleted (it is made visible again at \
once, and never received again in the same run); a stdout closed from the start (`>&-`) is refused \
before anything is received. Into a pipe, --delete puts one message in the pipe at a time (shrunk to \
one page, on Linux): each is written and flushed on its own, deleted only once the reader has taken \
it out of the pipe, and the next is written after that. A reader takes what the pipe holds whole, \
so a reader that stops early (`| head -1`) leaves nothing deleted unread; a table cannot go that way \
(-o table is refused). Taken is not processed: what the next program does with a message is beyond \
sqsctl. The summary counts distinct messages: received, deleted, not taken (or not written) and made \
visible again, and duplicate deliveries apart. With --until-empty --delete, messages hidden by a \
receive that failed after SQS applied it are waited for (up to their visibility timeout, when that is \
2 minutes or less). Records are what `send --jsonl` reads; --query applies to each record \
(`--query body`), not to the AWS CLI's {\"Messages\": [...]} answer.

Without --wait a receive sends no wait, so the queue's ReceiveMessageWaitTimeSeconds applies, as \
with the AWS CLI. A short poll (a wait of 0) asks only some of SQS's servers and can come back empty \
from a queue that holds messages: --until-empty stops only after a long poll brought nothing, and a \
run that received nothing says what the queue holds in flight, delayed or visible.

Filters (--grep, --attr, --where, --older-than, --newer-than) work as in redrive. SQS cannot \
filter on the server: messages that do not match are received too, and made visible again at once \
(each such read raises their receive count); they are neither written nor deleted. A run without \
--follow stops when a receive brings back only messages it already passed over.

With --follow, receive long-polls (20 s per request unless --wait) and writes each message as it \
arrives, until Ctrl-C (exit 130) or --max; with --delete each message is deleted once written, under \
the same rules as above (into a pipe, one message at a time, once the reader took it). A message that \
does not match the filters and comes back is left hidden for its visibility timeout rather than \
released again, so a follow reads it at most once per visibility timeout.

The --delete question names the queue, its account and the region; Ctrl-C or Ctrl-D at it cancels \
with nothing received (exit 130).")]
pub struct ReceiveArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Stop after N messages (default 10; no limit with --until-empty)
    #[arg(long, short = 'n', value_name = "N", value_parser = super::parse_count)]
    pub max: Option<u64>,
    #[arg(long, value_name = "DURATION", value_parser = super::values::WAIT, help = wait_help(), long_help = wait_long_help())]
    pub wait: Option<Duration>,
    #[arg(long, value_name = "DURATION", value_parser = super::values::VISIBILITY, help = visibility_help())]
    pub visibility: Option<Duration>,
    /// Keep receiving until a long poll comes back empty
    #[arg(long)]
    pub until_empty: bool,
    /// Keep long-polling and writing messages as they arrive, until Ctrl-C (or --max)
    #[arg(long, short = 'f', conflicts_with = "until_empty")]
    pub follow: bool,
    /// Delete each message once written (asks first on a terminal)
    #[arg(long)]
    pub delete: bool,
    /// Do not ask for confirmation of --delete
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Without --delete, read what the read guard refuses
    ///
    /// A queue whose maxReceiveCount is 1 or 2, or whose last read left messages at their
    /// maxReceiveCount, and --follow on a queue with a redrive policy; each receive counts toward
    /// it
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub shown: ShownArgs,
    /// Count messages per value of EXPR instead of writing them
    ///
    /// Repeatable; each EXPR is a JMESPath expression over the record --where sees, e.g.
    /// message_attributes.error.value, message.type, envelope.topic,
    /// attributes.ApproximateReceiveCount, "age > `3600`". Most frequent first, with how many
    /// messages were read and how many the queue held.
    #[arg(long, value_name = "EXPR", conflicts_with_all = ["format", "unwrap", "delete", "follow"])]
    pub count_by: Vec<String>,
    /// Receive requests in flight at once
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub concurrency: u16,
    /// Write each message as this template instead of a record
    ///
    /// Fields: {body}, {id}, {group}, {attr.NAME}, {sent}, {age}, {receives}, and for an
    /// envelope {message} and {envelope} (its marker), with \t and \n (e.g.
    /// '{id}\t{attr.tenant}\t{body}')
    #[arg(long, value_name = "TEMPLATE", value_parser = crate::output::template::Template::parse)]
    pub format: Option<crate::output::template::Template>,
    #[command(flatten)]
    pub select: super::select::SelectArgs,
}

/// Which attributes `receive` and `peek` show of each message.
#[derive(Debug, clap::Args)]
pub struct ShownArgs {
    /// System attributes to show: All (default) or names
    ///
    /// Names are comma-separated, e.g. SentTimestamp,ApproximateReceiveCount
    #[arg(long = "attributes", value_name = "NAMES", value_delimiter = ',')]
    pub system_attributes: Vec<String>,
    /// Message attributes to show: All (default), names, or prefixes such as `trace.*`
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub message_attributes: Vec<String>,
    /// Write the inner message of SNS and EventBridge envelopes
    ///
    /// The inner message of an SNS notification or EventBridge event instead of its body: lines
    /// of text in a pipe, the body column of a table; other bodies (an S3 pointer too) as they
    /// are. Refused with -o json and -o jsonl, whose records keep the body as sent and carry the
    /// inner message as `message`, and with --query.
    #[arg(long)]
    pub unwrap: bool,
}
