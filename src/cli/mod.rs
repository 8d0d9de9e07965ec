//! The command line as clap derive structs, and nothing else.
//!
//! Each subcommand's `Args` lives in its own file; the command resolves it into the plain settings
//! struct it runs with (`XSettings::resolve`, in the commands layer), so nothing here imports
//! `commands`. Global options are flattened here.

pub mod browse;
pub mod consume;
pub mod delete;
pub mod demo;
pub mod diagnose;
pub mod fifo;
pub mod generate;
pub mod groups;
pub mod local;
pub mod peek;
pub mod purge;
pub mod queue;
pub mod queues;
pub mod receive;
pub mod redrive;
pub mod select;
pub mod send;
pub mod top;
pub mod values;
pub mod visibility;
pub mod wrong_names;

use clap::{Args, Parser, Subcommand};

use crate::exit::ExitStatus;
use crate::output::{ColorChoice, OutputFormat};

pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("SQSCTL_GIT_COMMIT"),
    ")"
);

const ABOUT: &str = "Amazon SQS from the command line: send, receive, peek, purge, redrive DLQs safely, diagnose FIFO queues";

const LONG_ABOUT: &str = "Amazon SQS from the command line.

sqsctl sends, receives, peeks at and purges messages, redrives dead-letter queues without losing a \
message, and explains why a FIFO queue does not scale. Output is a table on a terminal and JSON Lines \
in a pipe. `sqsctl local` runs an SQS-compatible server, and `sqsctl demo` shows everything on it \
without an AWS account.

AWS settings come from the usual places (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_SQS, \
~/.aws/config, SSO, instance roles); --profile, --region and --endpoint-url override them. A queue \
argument accepts a name, a queue URL or an ARN.";

/// The line that ends every `-h`: the global options are shown by `--help` only.
pub const GLOBAL_OPTIONS_POINTER: &str = "Global options (--region, --profile, --endpoint-url, -o, --query, -q, -v, timeouts): \
sqsctl --help";

/// The command line as the binary parses it: the derive's definition, with every `-h` cut to fit a
/// screen. A command's `-h` shows its own options, its examples and [`GLOBAL_OPTIONS_POINTER`];
/// `--help` shows everything, global options and the whole after-help text included.
pub fn command() -> clap::Command {
    let cli = <Cli as clap::CommandFactory>::command().mut_args(|arg| {
        if arg.is_global_set() {
            arg.hide_short_help(true)
        } else {
            arg
        }
    });
    short_help(cli)
}

fn short_help(mut command: clap::Command) -> clap::Command {
    let long = command
        .get_after_long_help()
        .or_else(|| command.get_after_help())
        .map(ToString::to_string);
    // The examples (the first paragraph of a text that starts with them) stay in `-h`.
    let examples = long
        .as_deref()
        .filter(|text| text.starts_with("Example"))
        .map(|text| text.split("\n\n").next().unwrap_or(text).to_string());
    let short = match examples {
        Some(examples) => format!("{examples}\n\n{GLOBAL_OPTIONS_POINTER}"),
        None => GLOBAL_OPTIONS_POINTER.to_string(),
    };
    command = command.after_help(short);
    if let Some(long) = long {
        command = command.after_long_help(long);
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, short_help);
    }
    command
}

#[derive(Debug, Parser)]
#[command(name = "sqsctl", version = VERSION, about = ABOUT, long_about = LONG_ABOUT, after_help = ExitStatus::HELP)]
#[command(
    propagate_version = true,
    disable_version_flag = true,
    max_term_width = 100
)]
pub struct Cli {
    /// Print version
    #[arg(long, short = 'V', global = true, action = clap::ArgAction::Version, display_order = 1000)]
    version: Option<bool>,
    #[command(flatten)]
    pub aws: AwsArgs,
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Where to connect. Credentials are deliberately not flags: they come from the AWS chain.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "AWS")]
pub struct AwsArgs {
    /// AWS profile from ~/.aws/config (default: AWS_PROFILE or `default`)
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// AWS region (default: AWS_REGION or the profile's region)
    #[arg(long, global = true, value_name = "REGION")]
    pub region: Option<String>,
    /// SQS endpoint, e.g. http://127.0.0.1:9324 for `sqsctl local` (default: AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL or AWS's)
    #[arg(long, global = true, value_name = "URL", value_parser = parse_endpoint_url)]
    pub endpoint_url: Option<String>,
    // The variables are read by `settings`, not by clap: a value sqsctl cannot use is an error
    // that names the variable, not the flag.
    #[arg(long, global = true, value_name = "DURATION", value_parser = values::TIMEOUT, help = connect_timeout_help())]
    pub connect_timeout: Option<std::time::Duration>,
    #[arg(long, global = true, value_name = "DURATION", value_parser = values::TIMEOUT, help = read_timeout_help())]
    pub read_timeout: Option<std::time::Duration>,
}

fn connect_timeout_help() -> String {
    format!(
        "How long to wait for a connection to the endpoint before giving up, {}; {} sets it too \
         [default: {}]",
        values::TIMEOUT.text(),
        crate::settings::CONNECT_TIMEOUT_ENV,
        humantime::format_duration(crate::client::DEFAULT_CONNECT_TIMEOUT)
    )
}

fn read_timeout_help() -> String {
    format!(
        "How long to wait for an answer to a request before giving up, {}; a long poll's wait \
         comes on top, and a request that timed out is tried once more, so a hung endpoint costs \
         at most twice this; {} sets it too [default: {}]",
        values::TIMEOUT.text(),
        crate::settings::READ_TIMEOUT_ENV,
        humantime::format_duration(crate::client::DEFAULT_READ_TIMEOUT)
    )
}

/// Accepts `http://HOST[:PORT][/PATH]` or `https://...`; anything else would only fail later,
/// inside the SDK, with a dump of the request.
pub fn parse_endpoint_url(text: &str) -> Result<String, String> {
    crate::client::check_endpoint_url(text).map(|()| text.to_string())
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output")]
pub struct GlobalArgs {
    /// Output format: a table on a terminal and JSON Lines in a pipe by default
    #[arg(
        long,
        short = 'o',
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "FORMAT"
    )]
    pub output: OutputFormat,
    /// JMESPath expression applied to the JSON document, as the AWS CLI reads it, its result
    /// written as JSON on a terminal and in a pipe alike (per message for receive and peek; per
    /// record with `-o jsonl`, leaving out records it finds nothing in); with `-o text`, its result
    /// as the AWS CLI's text: a list of values is one tab-separated line. Not with `-o table`
    #[arg(long, global = true, value_name = "EXPR")]
    pub query: Option<String>,
    /// When to use colour on stderr (NO_COLOR is respected)
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: ColorChoice,
    /// Print only data and errors: no progress, no summaries
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    /// Explain what is being done on stderr (never prints credentials)
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// `--dry-run` and `--yes`, the same on every command that changes what it cannot undo: without a
/// terminal to ask on, such a command needs `--yes`.
#[derive(Debug, Clone, Copy, Args)]
pub struct ConfirmArgs {
    /// Show what would change, change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (needed when not on a terminal)
    #[arg(long, short = 'y')]
    pub yes: bool,
}

/// One queue and the confirmation that removing all it holds needs (`purge`, `queue delete`).
#[derive(Debug, Args)]
pub struct WholeQueueArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    #[command(flatten)]
    pub confirm: ConfirmArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List queues with their depth, FIFO flag and dead-letter queue
    Queues(queues::QueuesArgs),
    /// Show, create, change or delete one queue, or print its URL
    #[command(subcommand)]
    Queue(queue::QueueCommand),
    /// Send messages: one from the argument, or many from stdin
    Send(send::SendArgs),
    /// Receive messages (and with --delete, consume them)
    Receive(receive::ReceiveArgs),
    /// Look at messages without consuming them
    Peek(peek::PeekArgs),
    /// Run a command per message: delete it on success, retry it on failure
    Consume(consume::ConsumeArgs),
    /// Delete messages by receipt handle or by message id
    Delete(delete::DeleteArgs),
    /// Delete every message in a queue
    Purge(purge::PurgeArgs),
    /// Change how long received messages stay hidden (0 releases them)
    Visibility(visibility::VisibilityArgs),
    /// Move messages from a dead-letter queue back to their source (or any queue), safely
    Redrive(Box<redrive::RedriveArgs>),
    /// Show each message group (FIFO) or tenant (fair queue): backlog, in flight, blocked or noisy
    Groups(groups::GroupsArgs),
    /// Inspect FIFO queues
    #[command(subcommand)]
    Fifo(fifo::FifoCommand),
    /// Browse a queue full screen: count, filter, mark, then redrive, delete, export or edit
    Browse(browse::BrowseArgs),
    /// Watch queue depths and rates, refreshed (full screen on a terminal, JSON lines otherwise)
    Top(top::TopArgs),
    /// Find what is wrong with a queue: serialized FIFO groups, dedup collisions, settings that bite
    Diagnose(diagnose::DiagnoseArgs),
    /// Run a local SQS-compatible server (no AWS account needed)
    Local(local::LocalArgs),
    /// Show sqsctl's main job end to end on a local server
    Demo(demo::DemoArgs),
    /// Write shell completions and man pages (for packaging)
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
    /// Stop the commands of a `consume` run once it is gone (started by `consume` itself)
    #[command(hide = true, name = "consume-watchdog")]
    ConsumeWatchdog,
}

/// A count of at least 1, for `--max`: clap's own range error ("not in 1..18446744073709551615")
/// reads like a bug.
pub fn parse_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(count) => Ok(count),
        Err(_) => Err("expected a whole number of 1 or more".to_string()),
    }
}
