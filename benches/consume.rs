//! `sqsctl consume` running a trivial command, against `xargs -P` running the same command over the
//! same bodies read from a file: process spawning dominates both, so the ratio says what the SQS
//! side (receive, heartbeat book-keeping, batched deletes) costs on top.
//!
//! Run with `cargo bench --bench consume`. `SQSCTL_BENCH_CONSUME_MESSAGES` (default 10,000) sets
//! the number of messages, `SQSCTL_BENCH_CONSUME_CONCURRENCY` (default 16) the commands at once.
//! Both runs go twice, alternating, in the same process run; the local server runs in this
//! process. Target (from the issue): consume at no less than 50% of xargs's rate.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use sqsctl::local::ServerConfig;

mod support;

use support::{BenchResult, env_count, send_batches, sqsctl, start_server};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const BODY_LEN: usize = 32;
const ROUNDS: usize = 2;

fn main() -> BenchResult<()> {
    let messages = env_count("SQSCTL_BENCH_CONSUME_MESSAGES", 10_000);
    let concurrency = env_count("SQSCTL_BENCH_CONSUME_CONCURRENCY", 16);
    let runtime = tokio::runtime::Runtime::new()?;
    let (server, sqs) = start_server(ServerConfig::default())?;
    let home = tempfile::tempdir()?;
    let bodies = home.path().join("bodies.txt");
    let body = "x".repeat(BODY_LEN);
    std::fs::write(&bodies, format!("{body}\n").repeat(messages))?;
    let url = runtime.block_on(async {
        let out = sqs.create_queue().queue_name("bench").send().await?;
        BenchResult::Ok(out.queue_url.unwrap_or_default())
    })?;
    println!(
        "consume: {messages} messages running `true`, {concurrency} at once, against `xargs -P {concurrency}` over the same bodies from a file"
    );
    let mut xargs_rates = Vec::new();
    let mut consume_rates = Vec::new();
    for round in 1..=ROUNDS {
        let rate = xargs(&bodies, messages, concurrency)?;
        println!("  round {round}: xargs -P {concurrency} -n 1 true: {rate:>8.0} msg/s");
        xargs_rates.push(rate);

        runtime.block_on(send_batches(&sqs, &url, messages, BODY_LEN, 32))?;
        let rate = consume(server.endpoint(), home.path(), messages, concurrency)?;
        let left = runtime.block_on(async {
            let out = sqs
                .get_queue_attributes()
                .queue_url(&url)
                .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
                .send()
                .await?;
            let attrs = out.attributes.unwrap_or_default();
            let count = |name: aws_sdk_sqs::types::QueueAttributeName| {
                attrs
                    .get(&name)
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            BenchResult::Ok(
                count(aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessages)
                    + count(
                        aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessagesNotVisible,
                    ),
            )
        })?;
        if left != 0 {
            return Err(format!("consume left {left} messages in the queue").into());
        }
        println!("  round {round}: sqsctl consume -c {concurrency} -- true: {rate:>8.0} msg/s");
        consume_rates.push(rate);
    }
    let best = |rates: &[f64]| rates.iter().copied().fold(0.0, f64::max);
    let (x, c) = (best(&xargs_rates), best(&consume_rates));
    println!(
        "best of {ROUNDS}: consume {c:.0} msg/s, xargs {x:.0} msg/s: consume at {:.0}% of xargs (target: at least 50%)",
        c / x * 100.0
    );
    for (round, (c, x)) in consume_rates.iter().zip(&xargs_rates).enumerate() {
        println!("  round {}: {:.0}%", round + 1, c / x * 100.0);
    }
    Ok(())
}

/// `xargs -P N -n 1 true` over the bodies, one per line; messages per second.
fn xargs(bodies: &Path, messages: usize, concurrency: usize) -> BenchResult<f64> {
    let input = std::fs::File::open(bodies)?;
    let started = Instant::now();
    let status = Command::new("xargs")
        .args(["-P", &concurrency.to_string(), "-n", "1", "true"])
        .stdin(input)
        .stdout(Stdio::null())
        .status()?;
    let took = started.elapsed();
    if !status.success() {
        return Err(format!("xargs failed: {status}").into());
    }
    Ok(messages as f64 / took.as_secs_f64())
}

/// `sqsctl consume bench --max N -c C -- true`; messages per second, start to exit.
fn consume(endpoint: &str, home: &Path, messages: usize, concurrency: usize) -> BenchResult<f64> {
    let started = Instant::now();
    let output = sqsctl(endpoint, home)
        .args([
            "consume",
            "bench",
            "--max",
            &messages.to_string(),
            "--concurrency",
            &concurrency.to_string(),
            "--",
            "true",
        ])
        .output()?;
    let took = started.elapsed();
    if !output.status.success() {
        return Err(format!(
            "consume failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(messages as f64 / took.as_secs_f64())
}
