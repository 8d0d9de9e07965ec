//! `sqsctl top`: the queues' depths and rates, refreshed. On a terminal a full-screen view
//! ([`screen`]); otherwise one JSON line per refresh. A sampler task reads a round every
//! `--interval` ([`sample`]) and hands it over; the view or the writer derives the rates.

mod sample;
mod screen;

use std::io::IsTerminal;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::mpsc;

use crate::cli::top::TopArgs;
use crate::client::{ClientError, RetryPolicy};
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::{Column, Document, Series};
use sample::{Row, Sample, SortKey};

#[derive(Debug)]
pub struct TopSettings {
    pub prefix: Option<String>,
    pub interval: Duration,
    pub count: Option<u64>,
    pub sort: SortKey,
}

impl TopSettings {
    /// Checks the command line's values (an error here is a usage error).
    pub fn resolve(args: TopArgs) -> anyhow::Result<TopSettings> {
        if let Some(prefix) = &args.prefix {
            crate::commands::common::check_prefix(prefix)?;
        }
        Ok(TopSettings {
            prefix: args.prefix.filter(|p| !p.is_empty()),
            interval: args.interval,
            count: args.count,
            sort: args.sort,
        })
    }
}

/// The rounds, as the sampler task reads them; it stops after an error.
type Samples = mpsc::Receiver<Result<Sample, ClientError>>;

/// One refresh as a JSON line: `{"type": "sample", "data": ...}`.
#[derive(Debug, Serialize)]
struct SampleRecord {
    /// When the round started, RFC 3339.
    at: String,
    /// How long the round took, in milliseconds.
    took_ms: u64,
    queues: Vec<Row>,
}

pub async fn run(ctx: &Context, settings: TopSettings) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?.clone();
    let retry = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let (tx, samples) = mpsc::channel(1);
    let prefix = settings.prefix.clone();
    let interval = settings.interval;
    let sampler = tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let sample = sample::take(&sqs, prefix.as_deref(), &retry).await;
            let failed = sample.is_err();
            if tx.send(sample).await.is_err() || failed {
                return;
            }
        }
    });
    // A full screen needs a real terminal on both ends (raw mode is set on it), not only one the
    // printer was told to assume.
    let full_screen = ctx.printer.may_take_screen()
        && std::io::stdout().is_terminal()
        && std::io::stdin().is_terminal();
    let status = if full_screen {
        screen::run(ctx, &settings, samples).await
    } else {
        refreshes(ctx, &settings, samples).await
    };
    sampler.abort();
    status
}

/// Each refresh written as it comes, in the chosen format: a JSON line (`{"type": "sample", ...}`),
/// a table, a line per queue, or an element of one JSON array.
async fn refreshes(
    ctx: &Context,
    settings: &TopSettings,
    samples: Samples,
) -> anyhow::Result<ExitStatus> {
    let mut series = Series::new(&ctx.printer);
    let status = write_refreshes(ctx, settings, samples, &mut series).await;
    series.finish()?;
    status
}

async fn write_refreshes(
    ctx: &Context,
    settings: &TopSettings,
    mut samples: Samples,
    series: &mut Series<'_>,
) -> anyhow::Result<ExitStatus> {
    let mut previous: Option<Sample> = None;
    let mut written = 0u64;
    loop {
        let sample = tokio::select! {
            sample = samples.recv() => match sample {
                Some(sample) => sample?,
                None => return Ok(ExitStatus::Success),
            },
            () = ctx.interrupt.wait() => return Ok(ExitStatus::Interrupted),
        };
        let mut queues = sample::rows(previous.as_ref(), &sample);
        settings.sort.sort(&mut queues, false);
        let record = SampleRecord {
            at: humantime::format_rfc3339_millis(sample.at).to_string(),
            took_ms: u64::try_from(sample.took.as_millis()).unwrap_or(u64::MAX),
            queues,
        };
        let document = Document::rows(&record.queues)
            .streamed()
            .json(&record)
            .record("sample", &record);
        series.push(&document)?;
        previous = Some(sample);
        written += 1;
        if settings.count.is_some_and(|count| written >= count) {
            return Ok(ExitStatus::Success);
        }
    }
}

/// A queue in a refresh: with `-o table` a row (a dead-letter queue marked `DLQ`, kept however
/// narrow the terminal), with `-o text` a line: name, visible, in flight, delayed, in/s, out/s
/// (`-` before the second refresh), and `dlq` or `-`.
impl crate::output::Row for Row {
    const KIND: &'static str = "queue";

    fn columns() -> Vec<Column> {
        vec![
            Column::id("queue"),
            Column::whole(""),
            Column::whole("visible"),
            Column::whole("in flight").droppable(4),
            Column::whole("delayed").droppable(1),
            Column::whole("in/s").droppable(2),
            Column::whole("out/s").droppable(3),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let mark = match (self.dlq, self.growing) {
            (true, true) => "DLQ growing",
            (true, false) => "DLQ",
            _ => "",
        };
        vec![
            self.name.clone(),
            mark.to_string(),
            self.visible.to_string(),
            self.in_flight.to_string(),
            self.delayed.to_string(),
            rate(self.in_per_s),
            rate(self.out_per_s),
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.visible.to_string(),
            self.in_flight.to_string(),
            self.delayed.to_string(),
            rate(self.in_per_s),
            rate(self.out_per_s),
            if self.dlq { "dlq" } else { "-" }.to_string(),
        ]
    }
}

fn rate(per_s: Option<f64>) -> String {
    per_s.map_or_else(|| "-".to_string(), |r| format!("{r:.1}"))
}
