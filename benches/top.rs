//! `sqsctl top` against many queues: the time of one refresh, and the requests it makes.
//!
//! Run with `cargo bench --bench top`. It creates `SQSCTL_BENCH_QUEUES` queues (default 1,000) on
//! the local server in this process, runs `sqsctl top --count N` as a child process in its
//! JSON-lines mode, and reads each refresh's `took_ms` and the server's request counter. The
//! baseline, measured in the same run, is a raw aws-sdk-sqs round in this process: one ListQueues
//! and one GetQueueAttributes per queue, 32 at a time (what a refresh needs at the least). The
//! targets are in the issue: a refresh under 1 s, at most one GetQueueAttributes per queue.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::QueueAttributeName;
use sqsctl::local::ServerConfig;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

mod support;

use support::{BenchResult, env_count, runtime, start_server};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const BIN: &str = env!("CARGO_BIN_EXE_sqsctl");
const REFRESHES: usize = 8;
const BASELINE_ROUNDS: usize = 8;
const CONCURRENCY: usize = 32;

/// One raw round: ListQueues, then GetQueueAttributes of each queue, `CONCURRENCY` at a time.
async fn raw_round(sqs: &Client, prefix: &str) -> BenchResult<Duration> {
    let started = Instant::now();
    let urls = sqs
        .list_queues()
        .queue_name_prefix(prefix)
        .max_results(1000)
        .send()
        .await?
        .queue_urls
        .unwrap_or_default();
    let permits = Arc::new(Semaphore::new(CONCURRENCY));
    let mut tasks = JoinSet::new();
    for url in urls {
        let sqs = sqs.clone();
        let permits = permits.clone();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            sqs.get_queue_attributes()
                .queue_url(url)
                .attribute_names(QueueAttributeName::All)
                .send()
                .await
        });
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(started.elapsed())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

async fn run() -> BenchResult<()> {
    let queues = env_count("SQSCTL_BENCH_QUEUES", 1000);
    let (server, sqs) = start_server(ServerConfig::default())?;
    let prefix = "topbench";
    let permits = Arc::new(Semaphore::new(CONCURRENCY));
    let mut creates = JoinSet::new();
    for i in 0..queues {
        let sqs = sqs.clone();
        let permits = permits.clone();
        creates.spawn(async move {
            let _permit = permits.acquire_owned().await;
            sqs.create_queue()
                .queue_name(format!("{prefix}-{i:05}"))
                .send()
                .await
        });
    }
    while let Some(done) = creates.join_next().await {
        done??;
    }

    let mut baseline = Vec::new();
    for _ in 0..BASELINE_ROUNDS {
        baseline.push(raw_round(&sqs, prefix).await?.as_secs_f64() * 1000.0);
    }

    let home = tempfile::tempdir()?;
    let before = server.stats().requests;
    let output = Command::new(BIN)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("AWS_CONFIG_FILE", home.path().join("aws-config"))
        .env(
            "AWS_SHARED_CREDENTIALS_FILE",
            home.path().join("aws-credentials"),
        )
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ENDPOINT_URL_SQS", server.endpoint())
        .args(["top", prefix, "--interval", "0.01"])
        .args(["--count", &REFRESHES.to_string()])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()?;
    if !output.status.success() {
        return Err(format!("sqsctl top failed: {}", output.status).into());
    }
    let requests = server.stats().requests - before;
    let mut took = Vec::new();
    for line in String::from_utf8(output.stdout)?.lines() {
        let record: serde_json::Value = serde_json::from_str(line)?;
        let shown = record["data"]["queues"].as_array().map_or(0, Vec::len);
        if shown != queues {
            return Err(format!("a refresh showed {shown} of {queues} queues").into());
        }
        took.push(record["data"]["took_ms"].as_f64().unwrap_or(f64::NAN));
    }
    if took.len() != REFRESHES {
        return Err(format!("{} refreshes, not {REFRESHES}", took.len()).into());
    }
    let (top_ms, raw_ms) = (median(took.clone()), median(baseline));
    let worst = took.iter().copied().fold(0.0, f64::max);
    let per_refresh = requests as f64 / REFRESHES as f64;
    println!(
        "top, {queues} queues, {REFRESHES} refreshes (median; baseline: a raw SDK round in this process)"
    );
    println!(
        "  refresh: {top_ms:.1} ms (worst {worst:.1} ms) = {:.2}x the raw round ({raw_ms:.1} ms); target under 1000 ms",
        top_ms / raw_ms
    );
    println!(
        "  requests per refresh: {per_refresh:.1} = 1 ListQueues + {:.2} GetQueueAttributes per queue; target at most 1",
        (per_refresh - 1.0) / queues as f64
    );
    server.shutdown().await;
    Ok(())
}

fn main() -> BenchResult<()> {
    runtime()?.block_on(run())
}
