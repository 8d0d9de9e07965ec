//! `sqsctl top`: the queues' depths and rates, refreshed. On a terminal a full-screen view
//! ([`screen`]); otherwise one JSON line per refresh. A [`Sampler`] reads a round every
//! `--interval` and hands over each queue's counts and rates; the view or the writer shows them.

mod screen;

use std::io::IsTerminal;
use std::time::Duration;

use serde::Serialize;

use crate::cli::top::TopArgs;
use crate::client::RetryPolicy;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::{Document, Series};
use crate::queues::rates::{QueueRates, Sampler, SortKey};

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

/// One refresh as a JSON line: `{"type": "sample", "data": ...}`.
#[derive(Debug, Serialize)]
struct SampleRecord {
    /// When the round started, RFC 3339.
    at: String,
    /// How long the round took, in milliseconds.
    took_ms: u64,
    /// Always true: the counts are SQS's approximate ones, which lag behind.
    approximate_counts: bool,
    queues: Vec<QueueRates>,
}

pub async fn run(ctx: &Context, settings: TopSettings) -> anyhow::Result<ExitStatus> {
    let retry = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let sampler = Sampler::start(
        ctx.sqs().await?,
        settings.prefix.clone(),
        settings.interval,
        retry,
    );
    // A full screen needs a real terminal on both ends (raw mode is set on it), not only one the
    // printer was told to assume.
    let full_screen = ctx.printer.may_take_screen()
        && std::io::stdout().is_terminal()
        && std::io::stdin().is_terminal();
    if full_screen {
        screen::run(ctx, &settings, sampler).await
    } else {
        refreshes(ctx, &settings, sampler).await
    }
}

/// Each refresh written as it comes, in the chosen format: a JSON line (`{"type": "sample", ...}`),
/// a table, a line per queue, or an element of one JSON array.
async fn refreshes(
    ctx: &Context,
    settings: &TopSettings,
    sampler: Sampler,
) -> anyhow::Result<ExitStatus> {
    let mut series = Series::new(&ctx.printer);
    let status = write_refreshes(ctx, settings, sampler, &mut series).await;
    series.finish()?;
    status
}

async fn write_refreshes(
    ctx: &Context,
    settings: &TopSettings,
    mut sampler: Sampler,
    series: &mut Series<'_>,
) -> anyhow::Result<ExitStatus> {
    let mut written = 0u64;
    loop {
        let mut refresh = tokio::select! {
            refresh = sampler.next() => match refresh {
                Some(refresh) => refresh?,
                None => return Ok(ExitStatus::Success),
            },
            () = ctx.interrupt.wait() => return Ok(ExitStatus::Interrupted),
        };
        settings.sort.sort(&mut refresh.queues, false);
        let record = SampleRecord {
            at: humantime::format_rfc3339_millis(refresh.at).to_string(),
            took_ms: u64::try_from(refresh.took.as_millis()).unwrap_or(u64::MAX),
            approximate_counts: true,
            queues: refresh.queues,
        };
        let document = Document::rows(&record.queues)
            .streamed()
            .json(&record)
            .record("sample", &record);
        series.push(&document)?;
        written += 1;
        if settings.count.is_some_and(|count| written >= count) {
            return Ok(ExitStatus::Success);
        }
    }
}
