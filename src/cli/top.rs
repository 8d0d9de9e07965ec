//! Arguments of `sqsctl top`.

use super::values::{self, Choice};
use crate::queues::rates::SortKey;

fn interval_help() -> String {
    format!(
        "Time between refreshes, {}: seconds (2, 0.5) or a duration (500ms, 1m)",
        values::INTERVAL.text()
    )
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl top                         # every queue, refreshed every 2 s
  sqsctl top orders --interval 5     # queues whose name starts with `orders`
  sqsctl top --count 30 | jq -c '.data.queues[] | select(.dlq and .growing)'

On a terminal, top takes the whole screen: visible, in flight and delayed messages of each queue,
and the rates since the last refresh (in/s and out/s: the growth or shrinking of the queue's depth
per second, so a lower bound of what was sent and deleted). A dead-letter queue (a queue some
queue's redrive policy names) is marked `DLQ`, and shown in red while it grows. Keys: s changes the
sort key (visible, in flight, delayed, in/s, out/s, name), r reverses it, q or Ctrl-C quits; the
terminal is restored however top ends.

For a fair queue (a standard queue whose messages carry group ids), tenants shows how many tenants
it holds and the noisy ones, on `sqsctl local` only: SQS offers no count of them that leaves the
messages alone, so elsewhere it shows -.

Without a terminal (or with -o jsonl), top writes one JSON line per refresh,
{\"type\":\"sample\",\"data\":{...}}, with each queue's counts and rates (null in the first).
-o json writes the refreshes as one JSON array, -o table a table per refresh, and -o text a line
per queue: name, visible, in flight, delayed, in/s, out/s, dlq or -, and the tenants or -.

Each refresh is one ListQueues and at most one GetQueueAttributes per queue, 32 at a time (and on \
`sqsctl local` one tenant count per standard queue).

Exit codes: 0 quit with q or after --count refreshes; 130 Ctrl-C; 1 error; 2 usage.")]
pub struct TopArgs {
    /// Only queues whose name starts with this
    pub prefix: Option<String>,
    #[arg(long, default_value = "2s", value_name = "DURATION", value_parser = values::INTERVAL, help = interval_help())]
    pub interval: std::time::Duration,
    /// Stop after this many refreshes
    #[arg(long, short = 'n', value_name = "N", value_parser = super::parse_count)]
    pub count: Option<u64>,
    /// What to sort by at the start
    #[arg(long, default_value = "visible", value_name = "KEY", value_parser = values::choice::<SortKey>())]
    pub sort: SortKey,
}

impl Choice for SortKey {
    const ALL: &'static [(SortKey, &'static str, &'static str)] = &[
        (SortKey::Visible, "visible", "Most visible messages first"),
        (
            SortKey::InFlight,
            "in-flight",
            "Most messages in flight first",
        ),
        (SortKey::Delayed, "delayed", "Most delayed messages first"),
        (SortKey::In, "in", "Fastest growing first (in/s)"),
        (SortKey::Out, "out", "Fastest shrinking first (out/s)"),
        (SortKey::Name, "name", "By name, A to Z"),
    ];
}
