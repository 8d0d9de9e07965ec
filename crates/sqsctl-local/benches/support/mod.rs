//! What the workspace's benchmarks share: the SDK client they measure with, the local server's
//! start-up, their environment knobs and the memory figures read from /proc. It lives with the
//! server crate, the lowest layer that has benchmarks, so this crate's benchmark can use it on its
//! own; the root crate's benchmarks include this same file through `benches/support/mod.rs`.
#![allow(dead_code)]

use std::error::Error;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use aws_sdk_sqs::Client;
use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_sqs::types::SendMessageBatchRequestEntry;
use sqsctl_local::{Server, ServerConfig};

pub type BenchResult<T> = Result<T, Box<dyn Error + Send + Sync>>;

/// The runtime the benchmarks measure on: two worker threads, so that a figure does not depend on
/// how many cores the machine has.
pub fn runtime() -> BenchResult<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// Sends one batch through the SDK; an entry SQS refused is an error.
pub async fn send_batch(
    sqs: &Client,
    url: &str,
    entries: Vec<SendMessageBatchRequestEntry>,
) -> BenchResult<()> {
    let out = sqs
        .send_message_batch()
        .queue_url(url)
        .set_entries(Some(entries))
        .send()
        .await?;
    if !out.failed().is_empty() {
        return Err("a batch entry failed".into());
    }
    Ok(())
}

/// An SDK client for `endpoint`, configured in code only: fixed credentials and region, so the
/// environment running the benchmark does not matter.
pub fn client(endpoint: &str) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "bench"))
        .endpoint_url(endpoint)
        .build();
    Client::from_conf(config)
}

/// The local server in this process, on an ephemeral port, and a client for it.
pub fn start_server(config: ServerConfig) -> BenchResult<(Server, Client)> {
    let server = Server::start(config)?;
    let sqs = client(server.endpoint());
    Ok((server, sqs))
}

/// A count from the environment, `default` when unset or not a number; `_` separators are
/// allowed (`SQSCTL_BENCH_MESSAGES=1_000_000`).
pub fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// Peak resident set size of a running process so far, in KiB, from /proc (Linux); `None` once
/// it has exited or where there is no /proc.
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    proc_status_kib(&pid.to_string(), "VmHWM")
}

/// Resident set size of this process now, in KiB, from /proc (Linux).
pub fn rss_kib() -> Option<u64> {
    proc_status_kib("self", "VmRSS")
}

/// A `kB` field of `/proc/<process>/status`.
fn proc_status_kib(process: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
}

/// CPU seconds (user and system) this process has used so far: by the local server's threads, and
/// by everything else (the client side of a benchmark), from /proc (Linux; zeros elsewhere).
/// Threads that already ended (a journal's writer) count in the second figure: it is the process's
/// total less the server's threads, which live as long as the server.
pub fn cpu_seconds() -> (f64, f64) {
    let total = stat_ticks("self", 11);
    let server: u64 = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("stat")).ok())
        .filter_map(|stat| {
            ticks(&stat, 11).and_then(|(name, t)| name.starts_with("sqsctl-local").then_some(t))
        })
        .sum();
    (
        server as f64 / TICKS_PER_SECOND,
        total.saturating_sub(server) as f64 / TICKS_PER_SECOND,
    )
}

/// The two tick counts at `field` (see [`ticks`]) of `/proc/<process>/stat`, summed; 0 where
/// there is no such file.
fn stat_ticks(process: &str, field: usize) -> u64 {
    std::fs::read_to_string(format!("/proc/{process}/stat"))
        .ok()
        .and_then(|stat| ticks(&stat, field).map(|(_, t)| t))
        .unwrap_or(0)
}

/// CPU seconds (user and system) used by this process's children that have exited and were
/// waited for, from /proc (Linux; zero elsewhere): a child's cost is the difference across its run.
#[allow(dead_code)]
pub fn children_cpu_seconds() -> f64 {
    stat_ticks("self", 13) as f64 / TICKS_PER_SECOND
}

/// CPU seconds (user and system) process `pid` has used so far, from /proc (Linux; zero elsewhere
/// and once it has been waited for).
#[allow(dead_code)]
pub fn process_cpu_seconds(pid: u32) -> f64 {
    stat_ticks(&pid.to_string(), 11) as f64 / TICKS_PER_SECOND
}

const TICKS_PER_SECOND: f64 = 100.0;

/// The name in a `/proc/.../stat` line, and the sum of the two tick counts starting at `field`
/// after the name and state: 11 for utime + stime, 13 for the waited-for children's.
fn ticks(stat: &str, field: usize) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let fields: Vec<&str> = stat.get(close + 2..)?.split_whitespace().collect();
    let user: u64 = fields.get(field)?.parse().ok()?;
    let system: u64 = fields.get(field + 1)?.parse().ok()?;
    Some((stat.get(open + 1..close)?, user + system))
}

/// `n` entries carrying `body`, ids `m0`, `m1`, ...
pub fn batch(body: &str, n: usize) -> BenchResult<Vec<SendMessageBatchRequestEntry>> {
    (0..n)
        .map(|i| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("m{i}"))
                .message_body(body)
                .build()
                .map_err(Into::into)
        })
        .collect()
}

/// The raw SDK ceiling: sends `total` messages of `body_len` bytes in batches of 10 from
/// `concurrency` tasks; returns messages per second.
pub async fn send_batches(
    sqs: &Client,
    url: &str,
    total: usize,
    body_len: usize,
    concurrency: usize,
) -> BenchResult<f64> {
    let body: Arc<str> = "x".repeat(body_len).into();
    let batches = Arc::new(AtomicUsize::new(total.div_ceil(10)));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (sqs, url, body, batches) =
            (sqs.clone(), url.to_string(), body.clone(), batches.clone());
        workers.spawn(async move {
            let entries = batch(&body, 10)?;
            while batches
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok()
            {
                send_batch(&sqs, &url, entries.clone()).await?;
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}
