//! Arguments of `sqsctl redrive`, and of its `status`, `cancel` and `journals` subcommands.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::values::{self, Choice};
use crate::redrive::{DEFAULT_VISIBILITY_TIMEOUT, DedupMode, MAX_CONCURRENCY};

const REDRIVE_HELP: &str = "Examples:
  sqsctl redrive orders-dlq --dry-run               # what would move, and where
  sqsctl redrive orders-dlq                         # move everything back to its source queue
  sqsctl redrive orders-dlq --transform '.body.retries = 0'  # fix each, then replay

More examples:
  sqsctl redrive orders-dlq --grep timeout --rate 50 --max 1000
  sqsctl redrive --resume ~/.local/state/sqsctl/redrive/orders-dlq-20260101T030000Z.jsonl
  sqsctl redrive orders-dlq --where \"body.tenant == 'acme'\" --to orders-replay
  sqsctl redrive orders-dlq --copy --to orders-replay  # copy; the DLQ keeps its messages
  sqsctl redrive orders-dlq --to https://sqs.eu-west-1.amazonaws.com/123456789012/orders
  sqsctl redrive orders-dlq --to orders --to-profile prod --to-region eu-west-1
  sqsctl redrive orders-dlq --transform '.body.retries = 0' --dry-run   # each before and after
  sqsctl redrive orders-dlq --unwrap                # the SNS/EventBridge message, not its envelope
  sqsctl redrive orders-dlq --native                # AWS's server-side move task
  sqsctl redrive status orders-dlq                  # native move tasks of a DLQ
  sqsctl redrive cancel orders-dlq
  sqsctl redrive journals                           # past runs: completed, or to resume

Safety: a message is deleted from the DLQ only after the destination confirmed it, after the
journal recorded the send on disk, and (with --archive) after its archive copy is on disk; if the
archive cannot be written, nothing more is deleted and the run stops. Messages that do not match,
or cannot be sent, stay in the DLQ (hidden while the run lasts, visible again when it ends).
Journals and archives are created mode 0600, in directories created 0700.

Resume: --resume FILE continues with the run's own settings (--archive included; only the pacing,
--rate and --concurrency, may change) and asks first unless --yes. A run that completed is not run
again (exit 0). A resumed run moves at most the run's --max (if any) less what the journal shows
as sent, otherwise until a long poll finds the DLQ empty, and leaves in the DLQ messages sent after
the run started (SentTimestamp; on standard queues that is the original send time, so messages
dead-lettered during the run move too) and messages the run moved that came back.

Ctrl-C: batches in flight may finish within 5 s; those still unanswered then are abandoned and
journaled as outcome unknown (--resume waits for them and may send them again). A second Ctrl-C
stops at once: messages still held stay hidden in the DLQ until their visibility timeout, and the
hint says how long --resume will wait for them before it moves each message the journal does not
show as sent. SIGTERM and SIGHUP are handled as Ctrl-C. The question before a move names both queues, each with its account
and region (and profile, when not the default); Ctrl-C or Ctrl-D at it cancels with nothing moved
(exit 130), and a no declines (exit 6).

Copy: --copy sends without deleting; each message is copied once, also across --resume, and is
visible in the DLQ again when the run ends (its receive count raised by the run's receives). On a
FIFO DLQ a copy reaches as deep into each group as one receive does (SQS hands over a group's later
messages only once its earlier ones are gone): what it cannot reach is counted, and exits 3. A copy
keeps what it copied in flight until it ends, so one run takes at most the DLQ's in-flight limit
(about 120,000 on SQS): there it stops, makes what it holds visible again, says about how many it
could not reach and exits 3 (docs/redrive.md: how to replay a larger DLQ and keep it).

Other regions and accounts: --to takes a queue URL or ARN anywhere (its region comes from it), or a
name with --to-region; --to-profile sends with another profile's credentials (and its region and
endpoint_url). The journal records them, so --resume reaches the same queue.

Rewriting: --unwrap, then --transform or --exec, change what is sent (the DLQ copy and --archive
keep the original). The journal records the rewrite and a digest of each rewritten message;
--resume applies the same rewrite and leaves in the DLQ (exit 3) a message that would now be sent
differently from what the interrupted run may already have sent.

Exit codes: 0 every selected message moved (or the resumed run had completed); 3 some stayed in
the DLQ (see the summary); 6 declined at the question; 130 stopped by Ctrl-C (143 SIGTERM, 129
SIGHUP); 1 error; 2 usage.";

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true,
    after_help = REDRIVE_HELP
)]
pub struct RedriveArgs {
    #[command(subcommand)]
    pub task: Option<TaskCommand>,

    /// The dead-letter queue to move messages from (name, URL or ARN)
    #[arg(value_name = "DLQ", required_unless_present = "resume")]
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub dlq: Option<String>,

    /// Where to move them (default: the DLQ's source; --help: --copy, regions)
    ///
    /// The source queue is found with ListDeadLetterSourceQueues. A queue URL or ARN may name
    /// another region or account (see --to-region and --to-profile).
    #[arg(long, value_name = "QUEUE")]
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub to: Option<String>,

    /// Credentials and region of --to from this profile (a destination in another account)
    ///
    /// The profile's own region and endpoint_url apply to the destination, unless --to-region,
    /// --to-endpoint-url or the queue URL or ARN say otherwise.
    #[arg(
        long,
        value_name = "NAME",
        requires = "to",
        hide_short_help = true,
        help_heading = "Destination"
    )]
    pub to_profile: Option<String>,

    /// Region of --to (default: the region in its URL or ARN, else the profile's, else the DLQ's)
    #[arg(
        long,
        value_name = "REGION",
        requires = "to",
        hide_short_help = true,
        help_heading = "Destination"
    )]
    pub to_region: Option<String>,

    /// Endpoint of --to (default: the profile's with --to-profile, else the DLQ's)
    #[arg(long, value_name = "URL", requires = "to", value_parser = super::parse_endpoint_url, hide_short_help = true, help_heading = "Destination")]
    pub to_endpoint_url: Option<String>,

    /// Send copies and keep the messages in the DLQ (nothing is deleted)
    ///
    /// Each message is copied once, also across --resume; the DLQ's messages are visible again
    /// when the run ends, their receive counts raised by the run's receives.
    #[arg(
        long,
        conflicts_with = "native",
        hide_short_help = true,
        help_heading = "Sending"
    )]
    pub copy: bool,

    /// --dry-run shows what would move and where, with counts per destination and group
    #[command(flatten)]
    pub confirm: super::ConfirmArgs,

    #[command(flatten)]
    pub select: super::select::SelectArgs,

    /// Only these messages (DLQ message ids)
    #[arg(long = "message-id", value_name = "ID", num_args = 1.., help_heading = "Selection")]
    pub message_ids: Vec<String>,

    /// Move at most this many messages
    #[arg(long, short = 'n', alias = "limit", value_name = "N", value_parser = super::parse_count, help_heading = "Selection")]
    pub max: Option<u64>,

    /// MessageDeduplicationId on FIFO destinations
    ///
    /// The DLQ message id, the original id, or a new one.
    #[arg(
        long,
        hide_possible_values = true,
        default_value = "message-id",
        value_name = "MODE",
        value_parser = values::choice::<DedupMode>(),
        help_heading = "Sending"
    )]
    pub dedup: DedupMode,

    #[arg(long, value_name = "DURATION", value_parser = values::DELAY, help = delay_help(), help_heading = "Sending")]
    pub delay: Option<std::time::Duration>,

    /// Messages per second at most (with --native: 1-500)
    #[arg(long, value_name = "N", value_parser = parse_rate, help_heading = "Sending")]
    pub rate: Option<f64>,

    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_CONCURRENCY as i64), help = format!("Workers moving batches at once, 1-{MAX_CONCURRENCY} (default: adapts)"), long_help = concurrency_help(), help_heading = "Sending")]
    pub concurrency: Option<u16>,

    #[arg(
        long,
        alias = "visibility-timeout",
        value_name = "DURATION",
        default_value = crate::text::format_seconds(DEFAULT_VISIBILITY_TIMEOUT as u64),
        value_parser = values::HOLD,
        help = format!("How long received messages stay hidden, {}", values::HOLD.text()),
        long_help = visibility_help(),
        help_heading = "Sending"
    )]
    pub visibility: std::time::Duration,

    /// Write the journal here (default: a new file under the state directory)
    ///
    /// The default file's path is printed at the start.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    pub journal: Option<PathBuf>,

    /// Complete an interrupted run from its journal
    ///
    /// The run goes on with its own settings (--archive included; --rate and --concurrency may
    /// change), without re-sending what the journal shows as sent; a completed run is not run
    /// again.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["to", "to_profile", "to_region", "to_endpoint_url", "copy", "grep", "attributes", "where_expr", "older_than", "newer_than", "message_ids", "max", "delay", "journal", "archive", "dedup", "visibility", "native", "dry_run", "transform", "exec", "exec_timeout", "unwrap"]
    )]
    pub resume: Option<PathBuf>,

    /// Append a copy of every moved message to this JSON Lines file
    ///
    /// Each copy is written and synced before the message leaves the DLQ.
    #[arg(long, value_name = "FILE")]
    pub archive: Option<PathBuf>,

    /// Rewrite each message with a jq filter before it is sent
    ///
    /// The filter sees the message record (as --where does: a JSON body as its value) and must
    /// give one object with a `body`: the whole record with a change (`.body.qty = 1`) or a new
    /// one (`{body: .body.order}`). A string body is sent as it is, any other value as compact
    /// JSON; `message_attributes`, `group_id` and `dedup_id`, when given, replace the message's
    /// (null removes them). A message the filter fails on (an error, no value, several, not a
    /// valid message, or 10 s) stays in the DLQ and is reported (exit 3). Runs jaq, a jq
    /// written in Rust: most of jq, not all of it.
    #[arg(
        long,
        value_name = "FILTER",
        conflicts_with = "exec",
        hide_short_help = true,
        help_heading = "Rewriting"
    )]
    pub transform: Option<String>,

    /// Rewrite each body with a shell command (the body on stdin, the new one on stdout)
    ///
    /// Run as `sh -c COMMAND` once per message, with SQSCTL_MESSAGE_ID (and SQSCTL_GROUP_ID) set;
    /// one trailing newline of its output is dropped. A message whose command exits non-zero,
    /// runs past --exec-timeout or prints no body stays in the DLQ and is reported (exit 3).
    #[arg(
        long,
        value_name = "COMMAND",
        hide_short_help = true,
        help_heading = "Rewriting"
    )]
    pub exec: Option<String>,

    #[arg(long, value_name = "DURATION", requires = "exec", value_parser = values::HOLD, help = exec_timeout_help(), hide_short_help = true, help_heading = "Rewriting")]
    pub exec_timeout: Option<std::time::Duration>,

    /// Send what an SNS notification or EventBridge event carries, not the envelope
    ///
    /// SNS (raw delivery off): its Message as the body and its MessageAttributes as raw delivery
    /// maps them (String.Array becomes a String). EventBridge: its detail, as compact JSON. Other
    /// messages are sent unchanged and counted (not_envelope). Applied before --transform/--exec.
    #[arg(long, hide_short_help = true, help_heading = "Rewriting")]
    pub unwrap: bool,

    /// Use SQS's server-side move task: no selection, no journal
    ///
    /// The task is StartMessageMoveTask; `redrive status` and `redrive cancel` follow it.
    #[arg(long)]
    pub native: bool,
}

impl Choice for DedupMode {
    const ALL: &'static [(DedupMode, &'static str, &'static str)] = &[
        (
            DedupMode::Keep,
            "keep",
            "The id the message had (SQS drops a re-send of an id it saw in the last 5 minutes)",
        ),
        (
            DedupMode::MessageId,
            "message-id",
            "The DLQ message id: unique per message, and stable across retries and `--resume`",
        ),
        (
            DedupMode::New,
            "new",
            "A fresh id per message (stable across retries within one run, not across `--resume`)",
        ),
    ];
}

fn delay_help() -> String {
    format!(
        "Delay each moved message by this long, {} (standard queues)",
        values::DELAY.text()
    )
}

fn exec_timeout_help() -> String {
    format!(
        "How long --exec may take on one message, {} (default: {})",
        values::HOLD.text(),
        crate::text::format_seconds(crate::redrive::rewrite::DEFAULT_EXEC_TIMEOUT.as_secs())
    )
}

fn concurrency_help() -> String {
    format!(
        "Workers moving batches at once (1-{MAX_CONCURRENCY}); without it the run adapts: it \
         starts at {} and adds workers while that raises throughput (up to {}), and takes some \
         away when SQS throttles",
        crate::redrive::DEFAULT_CONCURRENCY,
        crate::redrive::ADAPTIVE_CAP
    )
}

fn visibility_help() -> String {
    format!(
        "How long received messages stay hidden while they are moved, {} (extended when slow)",
        values::HOLD.text()
    )
}

/// A rate of messages per second: a positive number.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        _ => Err("expected a positive number of messages per second (e.g. 50, 0.5)".to_string()),
    }
}

#[derive(Debug, Subcommand)]
pub enum TaskCommand {
    /// List the native move tasks of a dead-letter queue (SQS keeps the latest 10)
    Status(TaskArgs),
    /// Cancel the running native move task of a dead-letter queue
    Cancel(TaskArgs),
    /// List the runs whose journals are in the journal directory, newest first; remove old ones
    #[command(after_help = JOURNALS_HELP)]
    Journals(JournalsArgs),
}

const JOURNALS_HELP: &str = "Examples:
  sqsctl redrive journals                                 # every run, newest first
  sqsctl redrive journals --prune --older-than 7d --dry-run
  sqsctl redrive journals --prune --older-than 7d         # remove completed runs' journals

A run is completed, interrupted (Ctrl-C, or it ended without its closing line: killed, or still
running) or stopped (messages stayed in the DLQ); the last two can be resumed with
`sqsctl redrive --resume FILE`. A file that is not a journal is listed as unreadable and never
removed. --prune removes completed runs only, unless --include-interrupted (which asks first,
unless --yes).

Exit codes: 0 done; 1 a journal could not be removed; 2 usage; 6 declined at the question.";

#[derive(Debug, Args)]
pub struct JournalsArgs {
    /// The journal directory (default: where redrive writes them, under the state directory)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Remove the journals of completed runs last written to longer ago than --older-than
    #[arg(long, requires = "older_than")]
    pub prune: bool,

    /// With --prune: the age (e.g. 7d, 12h, 0s)
    #[arg(long, value_name = "DURATION", value_parser = values::AGE, requires = "prune")]
    pub older_than: Option<std::time::Duration>,

    /// With --prune: remove the journals of runs that did not complete too (they cannot be
    /// resumed afterwards)
    #[arg(long, requires = "prune")]
    pub include_interrupted: bool,

    /// With --prune: show what would be removed, remove nothing
    #[arg(long, requires = "prune")]
    pub dry_run: bool,

    /// With --prune --include-interrupted: do not ask (needed when not on a terminal)
    #[arg(long, short = 'y', requires = "prune")]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct TaskArgs {
    /// The dead-letter queue (name, URL or ARN)
    #[arg(value_name = "DLQ")]
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub dlq: String,
}
