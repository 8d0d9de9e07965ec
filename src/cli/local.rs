//! Arguments of `sqsctl local`.
//!
//! The server's default region is the global `--region` (or `SQSCTL_LOCAL_REGION`, read where
//! the settings are resolved; default us-east-1), so it is not repeated here.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::BoolishValueParser;
use sqsctl_local::UrlStrategy;

use super::values::{ByteSizeRange, DurationRange, RATE, SAMPLE};

/// `--latency`: a round trip, or a slow server for testing client timeouts; beyond 5 minutes a
/// request would look hung, and far beyond it the timer overflows.
const LATENCY: DurationRange = DurationRange::between(Duration::ZERO, Duration::from_secs(300));
/// `--count-lag`: how stale the approximate counts may be.
const COUNT_LAG: DurationRange =
    DurationRange::between(Duration::ZERO, sqsctl_local::MAX_COUNT_LAG);
/// `--max-bytes`: at least a handful of small messages.
const MAX_BYTES: ByteSizeRange = ByteSizeRange {
    min: 1024,
    max: u64::MAX,
};

fn latency_help() -> String {
    format!(
        "Delay added to every request, like a network round trip (e.g. 5ms), {}",
        LATENCY.text()
    )
}

fn max_bytes_help() -> String {
    format!(
        "Bound on stored message bytes (bodies and attributes, plus 200 bytes a message); sends \
         past it fail with OverLimit. Default: half of the memory the process may use (e.g. \
         512MiB, 2GB; {})",
        MAX_BYTES.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "stdout is what a shell evaluates to use the server (redirect it to a file and source that): `export AWS_ENDPOINT_URL_SQS=<endpoint>` first, then AWS_REGION and AWS_DEFAULT_REGION, then stand-in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY unless the environment has credentials (any are accepted). SDKs and the AWS CLI then use the local server.\n\nQueues are kept apart by region, as on SQS: a request sees the queues of the region it is signed for. The global --region (else SQSCTL_LOCAL_REGION, default us-east-1) is the server's default region, for unsigned requests and --init queues; queue URLs of other regions carry the region (http://127.0.0.1:9324/eu-west-1/000000000000/orders).\n\nEach option but --health-check and the global ones can also be set by SQSCTL_LOCAL_ and its name in upper snake case (SQSCTL_LOCAL_DATA_DIR=/data; switches take true or false, 1 or 0, yes or no, on or off; a flag given wins), which is how the container image (docs/container.md) is configured.\n\nAn --init file lists queues, each with a name and optionally attributes, tags, and a dead-letter queue by name:\n\n  [[queue]]\n  name = \"orders-dlq\"\n\n  [[queue]]\n  name = \"orders\"\n  dead_letter_queue = \"orders-dlq\"\n  max_receive_count = 5\n  attributes = { VisibilityTimeout = 60 }\n  tags = { team = \"checkout\" }"
)]
pub struct LocalArgs {
    /// Address and port to listen on (a non-loopback address exposes the queues to the network)
    #[arg(
        long,
        env = "SQSCTL_LOCAL_BIND",
        default_value = "127.0.0.1:9324",
        value_name = "ADDR:PORT"
    )]
    pub bind: SocketAddr,
    /// Host name in the queue URLs the server hands out (default: the bound address). On a
    /// loopback bind, requests must name a loopback host or this one in their Host header
    #[arg(long, env = "SQSCTL_LOCAL_HOSTNAME", value_name = "NAME")]
    pub hostname: Option<String>,
    /// Account id used in queue URLs and ARNs
    #[arg(
        long,
        env = "SQSCTL_LOCAL_ACCOUNT_ID",
        default_value = "000000000000",
        value_name = "ID"
    )]
    pub account_id: String,
    /// Behave as SQS does where it is not exact: short polls that sample, duplicate deliveries
    /// and best-effort order on standard queues, lagging Approximate* counts (the four flags
    /// below at their --like-sqs values). FIFO queues keep their guarantees; the inspection
    /// endpoints stay exact
    #[arg(long, env = "SQSCTL_LOCAL_LIKE_SQS", value_parser = BoolishValueParser::new())]
    pub like_sqs: bool,
    /// Keep queues and messages in DIR across restarts (created if missing). A request is
    /// answered once its changes are on disk, so an acknowledged send or delete survives a crash
    /// or kill -9. Without it, everything is gone when the server stops
    #[arg(long, env = "SQSCTL_LOCAL_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// With --data-dir: when the data directory is damaged (a start refuses it), set the damaged
    /// files aside (renamed *.damaged-<time>, never deleted), keep what can still be read, report
    /// on stderr what was dropped, then start. An undamaged directory is left as it is
    #[arg(long, env = "SQSCTL_LOCAL_RECOVER", value_parser = BoolishValueParser::new(), requires = "data_dir")]
    pub recover: bool,
    /// Create the queues declared in FILE (TOML, or JSON when it ends in .json) at start; queues
    /// already there with the same settings are left alone
    #[arg(long, env = "SQSCTL_LOCAL_INIT", value_name = "FILE")]
    pub init: Option<PathBuf>,
    #[arg(long, env = "SQSCTL_LOCAL_MAX_BYTES", value_parser = MAX_BYTES, value_name = "SIZE", help = max_bytes_help(), hide_short_help = true)]
    pub max_bytes: Option<u64>,
    /// Messages one queue may hold in flight (received, not yet deleted or visible again), as
    /// on SQS: past it a standard queue refuses short polls with OverLimit, and long polls and
    /// FIFO queues get no messages until some leave flight. Lower it to test what a client does
    /// at the limit
    #[arg(long, env = "SQSCTL_LOCAL_MAX_IN_FLIGHT", value_name = "N", default_value_t = sqsctl_local::MAX_IN_FLIGHT, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000_000), hide_short_help = true)]
    pub max_in_flight: usize,
    /// Answer requests from web pages of ORIGIN (e.g. http://localhost:3000), with the CORS
    /// headers they need; repeatable. Requests from any other page are refused, so that a web
    /// page cannot drive the server
    #[arg(
        long,
        env = "SQSCTL_LOCAL_ALLOW_ORIGIN",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    pub allow_origin: Vec<String>,
    /// Turn off the inspection endpoints (/_sqsctl/v1/): readers such as peek and diagnose then
    /// receive messages, raising their receive counts, as they must on SQS
    #[arg(long, env = "SQSCTL_LOCAL_NO_INSPECTION", value_parser = BoolishValueParser::new())]
    pub no_inspection: bool,
    /// Also answer as LocalStack does, for code and tests written against it
    ///
    /// Adds LocalStack's health check (/_localstack/health), its developer endpoint
    /// (/_aws/sqs/messages), its host names (*.localhost.localstack.cloud) and queue URL shapes
    /// (standard unless --url-strategy or SQS_ENDPOINT_STRATEGY says otherwise; built on
    /// LOCALSTACK_HOST, default localhost.localstack.cloud and the bound port), and takes
    /// /etc/localstack/init/ready.d as --init-dir when it exists
    #[arg(long, env = "SQSCTL_LOCAL_LOCALSTACK", value_parser = BoolishValueParser::new())]
    pub localstack: bool,
    /// Shape of the queue URLs handed out: plain (<endpoint>/<account>/<name>, the default),
    /// or LocalStack's standard, domain, path, off or dynamic (from each request's Host). Every
    /// shape is accepted in requests
    #[arg(long, env = "SQSCTL_LOCAL_URL_STRATEGY", value_parser = url_strategy, value_name = "STRATEGY", hide_short_help = true)]
    pub url_strategy: Option<UrlStrategy>,
    /// LocalStack's SQS_ENDPOINT_STRATEGY, read (and checked) in LocalStack mode only, when
    /// --url-strategy is not given.
    #[arg(long, env = "SQS_ENDPOINT_STRATEGY", hide = true)]
    pub sqs_endpoint_strategy: Option<String>,
    /// LocalStack's LOCALSTACK_HOST (host[:port] of queue URLs), read in LocalStack mode.
    #[arg(long, env = "LOCALSTACK_HOST", hide = true)]
    pub localstack_host: Option<String>,
    /// Once the server listens, run the entries of DIR once, in name order: queue files (*.toml,
    /// *.json, as --init) are applied, executable files run with AWS_ENDPOINT_URL,
    /// AWS_ENDPOINT_URL_SQS, the region and stand-in credentials pointing at the server. A
    /// failing entry is reported on stderr and the next one runs
    #[arg(
        long,
        env = "SQSCTL_LOCAL_INIT_DIR",
        value_name = "DIR",
        hide_short_help = true
    )]
    pub init_dir: Option<PathBuf>,
    /// Instead of serving: check the server on --bind and exit 0 if healthy, 1 if not
    ///
    /// It asks GET /_sqsctl/health of the server listening on --bind (a wildcard bind such as
    /// 0.0.0.0 asks loopback) and needs the server's own answer within 2 s; otherwise it says
    /// why. It needs no shell or curl, so a container image can run it as its health check
    // No environment variable: one set for the server would turn the server into this probe.
    #[arg(long)]
    pub health_check: bool,
    /// Last: the heading it sets would carry over to the flags after it.
    #[command(flatten)]
    pub faults: FaultArgs,
}

/// Injected faults and SQS's inexactness, shown by `--help` only.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Faults and realism")]
pub struct FaultArgs {
    #[arg(long, env = "SQSCTL_LOCAL_LATENCY", value_parser = LATENCY, value_name = "DURATION", help = latency_help(), hide_short_help = true)]
    pub latency: Option<Duration>,
    /// Share of requests (0 to 1) answered with an injected error: throttling, internal, or
    /// ambiguous (the action is applied, then a 500 returned, as a lost response looks)
    #[arg(long, env = "SQSCTL_LOCAL_FAULT_RATE", default_value_t = 0.0, value_parser = RATE, value_name = "RATE", hide_short_help = true)]
    pub fault_rate: f64,
    /// Share of batch entries (0 to 1) failed individually with InternalError
    #[arg(long, env = "SQSCTL_LOCAL_ENTRY_FAULT_RATE", default_value_t = 0.0, value_parser = RATE, value_name = "RATE", hide_short_help = true)]
    pub entry_fault_rate: f64,
    /// Seed of the fault injection and of --like-sqs's decisions, for reproducible runs
    #[arg(
        long,
        env = "SQSCTL_LOCAL_SEED",
        value_name = "N",
        hide_short_help = true
    )]
    pub seed: Option<u64>,
    /// Share of SQS's servers a short poll (WaitTimeSeconds 0) queries: each message it could
    /// return comes with this probability, and from a queue of fewer than 1,000 visible
    /// messages it may return none. Above 0, at most 1 (exact); 0.5 with --like-sqs. Long polls
    /// are exact
    #[arg(long, env = "SQSCTL_LOCAL_SHORT_POLL_SAMPLE", value_parser = SAMPLE, value_name = "SHARE", hide_short_help = true)]
    pub short_poll_sample: Option<f64>,
    /// Probability (0 to 1) that a message received from a standard queue is delivered once more,
    /// to a later receive, before its visibility timeout ends, even when the first delivery was
    /// deleted at once (either receipt handle deletes it); 0.01 with --like-sqs, 0 otherwise
    #[arg(long, env = "SQSCTL_LOCAL_DUPLICATE_RATE", value_parser = RATE, value_name = "RATE", hide_short_help = true)]
    pub duplicate_rate: Option<f64>,
    /// Best-effort order on standard queues: each delivery is chosen at random among the next N
    /// messages in send order (1, send order, to 10000); 10 with --like-sqs
    #[arg(long, env = "SQSCTL_LOCAL_REORDER_WINDOW", value_parser = reorder_window, value_name = "N", hide_short_help = true)]
    pub reorder_window: Option<usize>,
    /// How old the ApproximateNumberOfMessages* attributes may be (0 to 5m; e.g. 2s, 500ms);
    /// 2s with --like-sqs, 0 (exact) otherwise
    #[arg(long, env = "SQSCTL_LOCAL_COUNT_LAG", value_parser = COUNT_LAG, value_name = "DURATION", hide_short_help = true)]
    pub count_lag: Option<Duration>,
}

/// `--reorder-window`: 1 (send order) to the server's largest window.
fn reorder_window(text: &str) -> Result<usize, String> {
    let max = sqsctl_local::MAX_REORDER_WINDOW;
    text.trim()
        .parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("must be a whole number from 1 to {max}"))
}

/// `--url-strategy` and `SQS_ENDPOINT_STRATEGY`.
fn url_strategy(text: &str) -> Result<UrlStrategy, String> {
    text.parse()
}
