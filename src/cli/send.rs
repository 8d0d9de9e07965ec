//! Arguments of `sqsctl send`.

fn delay_help() -> String {
    format!(
        "Delay before the message can be received, {} (standard queues)",
        super::values::DELAY.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl send orders 'hello'
  sqsctl send orders --attr kind=refund --attr amount:Number=12 '{\"id\": 7}'
  sqsctl send jobs.fifo --group-id customer-7 --dedup-id auto 'job 1'
  seq 1 1000 | sqsctl send orders --lines
  tail -f app.log | sqsctl send logs --lines   # each line goes out as it arrives
  sqsctl send b --jsonl < a.jsonl              # records written by `sqsctl receive a > a.jsonl`

Without BODY and without --lines/--jsonl, all of stdin is one message body (less one final newline). \
--jsonl reads the records \
`sqsctl receive` writes (enveloped or bare, one per line): body, message_attributes, group_id, \
dedup_id, delay_seconds, trace_header; other fields are ignored, blank lines skipped. Options such as --group-id, \
--attr and --delay fill in what a record does not say itself.

Exit status 3 when some messages were not confirmed sent, each reported with its line number: a \
`failed` record when SQS did not take it, an `unknown` record when it may have (an attempt failed \
after SQS may have applied it, and no retry confirmed it). On a FIFO queue, re-sending the same \
records within 5 minutes is safe (the deduplication id drops what arrived); on a standard queue it \
may deliver them twice. A run that stops early (an invalid line, a request that failed after its \
retries, Ctrl-C) names the first line it did not send: `tail -n +N` resumes there.

A message confirmed only after an attempt that SQS may have applied (an error or a lost answer) \
may be in a standard queue twice: the summary counts these as `possible_duplicates`, an upper \
bound. They alone leave the exit status 0, since every message was sent and a second run would \
only add copies. On a FIFO queue SQS keeps one copy of a deduplication id within 5 minutes, so \
they are no duplicates there.")]
pub struct SendArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Message body (`-` reads it from stdin)
    #[arg(conflicts_with_all = ["lines", "jsonl"])]
    pub body: Option<String>,
    /// Read stdin and send each line as one message body
    #[arg(long, conflicts_with = "jsonl")]
    pub lines: bool,
    /// Read stdin as JSON Lines message records (what `receive` writes)
    #[arg(long)]
    pub jsonl: bool,
    /// With --lines/--jsonl: skip lines that are not valid messages (and report how many) instead of stopping (exit code 3 when every line was skipped)
    #[arg(long)]
    pub skip_invalid: bool,
    /// FIFO message group id (for records that carry none)
    #[arg(long, value_name = "ID")]
    pub group_id: Option<String>,
    /// FIFO deduplication id; `auto` derives a stable one from each record's content
    #[arg(long, value_name = "ID|auto")]
    pub dedup_id: Option<String>,
    /// Message attribute NAME=VALUE or NAME:TYPE=VALUE (String, Number, Binary as base64); repeatable
    #[arg(long = "attr", value_name = "NAME[:TYPE]=VALUE")]
    pub attrs: Vec<String>,
    #[arg(long, value_name = "DURATION", value_parser = super::values::DELAY, help = delay_help())]
    pub delay: Option<std::time::Duration>,
    /// X-Ray trace header (the AWSTraceHeader system attribute), e.g. Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1
    #[arg(long, value_name = "HEADER")]
    pub trace_header: Option<String>,
    /// Batches in flight at once (FIFO queues always send one at a time, to keep order)
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
}
