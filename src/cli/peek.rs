//! Arguments of `sqsctl peek`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl peek orders
  sqsctl peek orders --max 100 | jq -r .data.body
  sqsctl peek orders-dlq --where \"body.tenant == 'acme'\" --newer-than 1h
  sqsctl peek orders-dlq --count-by message_attributes.error.value --count-by message.type
  sqsctl peek orders-dlq --where 'message.order_id == `7`' --unwrap

SQS has no real peek: peek receives the messages with a short visibility timeout and makes them \
visible again at once. Each peek therefore counts as a receive (ApproximateReceiveCount grows). On \
a queue with a redrive policy peek reads each message once and says what it cost (\"each message \
read used 1 of its 5 receives\") and how many messages are now one receive from the dead-letter \
queue; with a maxReceiveCount of 1 or 2 it refuses unless --force. It keeps a ledger of its reads \
per queue (under the state directory): while the last read left messages at their maxReceiveCount, \
where one more receive moves them to the dead-letter queue, it refuses unless --force. It measures \
the dead-letter queue's depth before and after, and when messages arrived there while it read, it \
says so and exits with 5 (SQS's counts lag by up to a minute, so on SQS itself a move can go \
unnoticed). While a peek runs, other consumers do not get the messages it holds. With \
filters (as in redrive), --max counts the messages that match, and peek reads on until it found that \
many, saw every message, or read --scan-limit messages (1000 unless set; a larger limit on a queue \
that holds more is announced before the read, with its cost). With --count-by, peek reads every \
visible message (or --max), under the same guard and announcement, and writes counts instead of \
messages.

SNS notifications, EventBridge events and Amazon SQS Extended Client pointers to S3 are shown as a \
marker and their inner message (`[sns orders] {...}`, `[s3 bucket/key 2.1 MB]`); JSON keeps the \
body as sent and adds `envelope` and `message`. Payloads in S3 are not fetched.

On `sqsctl local`, peek reads through the server's inspection endpoint instead: nothing is received, \
no receive count grows, and the ledger is not needed.")]
pub struct PeekArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Show at most this many messages (default 10; with --count-by, count every message)
    #[arg(long, short = 'n', value_name = "N", value_parser = super::parse_count)]
    pub max: Option<u64>,
    /// Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read
    /// left at their maxReceiveCount) anyway; each read counts toward it
    #[arg(long)]
    pub force: bool,
    /// With filters, read at most this many messages looking for matches
    #[arg(long, value_name = "N", default_value_t = crate::client::peek::DEFAULT_SCAN_LIMIT, value_parser = super::parse_count)]
    pub scan_limit: u64,
    #[command(flatten)]
    pub shown: super::receive::ShownArgs,
    /// Count messages per value of EXPR instead of writing them
    ///
    /// Repeatable; each EXPR is a JMESPath expression over the record --where sees, e.g.
    /// message_attributes.error.value, message.type, envelope.topic,
    /// attributes.ApproximateReceiveCount, "age > `3600`". Most frequent first, with how many
    /// messages were read and how many the queue held.
    #[arg(long, value_name = "EXPR", conflicts_with_all = ["format", "unwrap"])]
    pub count_by: Vec<String>,
    /// Refused: peek cannot follow a queue (see `receive --follow`)
    #[arg(long, hide = true)]
    pub follow: bool,
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
