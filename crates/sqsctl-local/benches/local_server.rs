//! Throughput and memory of the local server, measured from a concurrent aws-sdk-sqs client in the
//! same process (both share the machine's cores, as in the project's tests).
//!
//! Run with `cargo bench --bench local_server`. It also compares the Query protocol with AWS JSON
//! 1.0 through one raw HTTP client (see `local_server/protocols.rs`). Set
//! `SQSCTL_BENCH_LOCALSTACK` and/or `SQSCTL_BENCH_MOTO` to an endpoint URL to run a smaller send
//! and receive workload against that server too and print how it compares. `SQSCTL_BENCH_DEEP`
//! overrides the deep queue's depth (default 1,000,000), `SQSCTL_BENCH_RESTART` the number of
//! stored messages a restart with `--data-dir` reads back (default 1,000,000).
//! `SQSCTL_BENCH_ONLY=protocols` runs the protocol comparison alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::DeleteMessageBatchRequestEntry;
use sqsctl_local::{Server, ServerConfig};

mod support;

#[path = "local_server/protocols.rs"]
mod protocols;

use support::{
    BenchResult, batch, client, env_count, rss_kib, runtime, send_batches, start_server,
};

/// Requests in flight at once.
const CONCURRENCY: usize = 32;
const SHALLOW_DEPTH: usize = 1_000;
const STEADY_WINDOW: Duration = Duration::from_secs(5);
const FLOW_MESSAGES: usize = 300_000;
const COMPARISON_MESSAGES: usize = 5_000;
const PROTOCOL_WINDOW: Duration = Duration::from_secs(3);

async fn create(sqs: &Client, name: &str) -> BenchResult<String> {
    let out = sqs.create_queue().queue_name(name).send().await?;
    Ok(out.queue_url.unwrap_or_default())
}

/// One receive of up to 10 and a batch delete of what came back; returns how many were deleted.
async fn receive_and_delete(sqs: &Client, url: &str) -> BenchResult<usize> {
    let got = sqs
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .visibility_timeout(300)
        .send()
        .await?;
    let messages = got.messages();
    if messages.is_empty() {
        return Ok(0);
    }
    let entries = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            DeleteMessageBatchRequestEntry::builder()
                .id(format!("d{i}"))
                .receipt_handle(m.receipt_handle().unwrap_or_default())
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let out = sqs
        .delete_message_batch()
        .queue_url(url)
        .set_entries(Some(entries))
        .send()
        .await?;
    Ok(out.successful().len())
}

/// Receives and deletes until `total` messages are gone; returns messages per second.
async fn drain(sqs: &Client, url: &str, total: usize) -> BenchResult<f64> {
    let deleted = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (sqs, url, deleted) = (sqs.clone(), url.to_string(), deleted.clone());
        workers.spawn(async move {
            let mut empty_in_a_row = 0;
            while deleted.load(Ordering::SeqCst) < total && empty_in_a_row < 20 {
                let n = receive_and_delete(&sqs, &url).await?;
                empty_in_a_row = if n == 0 { empty_in_a_row + 1 } else { 0 };
                deleted.fetch_add(n, Ordering::SeqCst);
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(deleted.load(Ordering::SeqCst) as f64 / started.elapsed().as_secs_f64())
}

/// Receive, delete and send back as many as were deleted, for `window`: the depth stays where it
/// was. Returns deleted messages per second.
async fn steady(sqs: &Client, url: &str, body_len: usize, window: Duration) -> BenchResult<f64> {
    let body: Arc<str> = "x".repeat(body_len).into();
    let deleted = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (sqs, url, body, deleted) =
            (sqs.clone(), url.to_string(), body.clone(), deleted.clone());
        workers.spawn(async move {
            while started.elapsed() < window {
                let n = receive_and_delete(&sqs, &url).await?;
                deleted.fetch_add(n, Ordering::SeqCst);
                if n > 0 {
                    sqs.send_message_batch()
                        .queue_url(&url)
                        .set_entries(Some(batch(&body, n)?))
                        .send()
                        .await?;
                }
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(deleted.load(Ordering::SeqCst) as f64 / started.elapsed().as_secs_f64())
}

/// Runs a phase and reports CPU microseconds per message on each side.
struct CpuMeter {
    start: (f64, f64),
}

impl CpuMeter {
    fn start() -> Self {
        CpuMeter {
            start: support::cpu_seconds(),
        }
    }

    fn per_message(&self, messages: f64) -> String {
        let (server, client) = support::cpu_seconds();
        let server_us = (server - self.start.0) * 1e6 / messages;
        let client_us = (client - self.start.1) * 1e6 / messages;
        // What the two cores would carry if nothing else ran on them.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        let ceiling = cores * 1e6 / (server_us + client_us);
        format!(
            "CPU per message: server {server_us:.1} us, client {client_us:.1} us; {} msgs/s with all cores to ourselves",
            thousands(ceiling)
        )
    }
}

/// A rate with thousands separated, to the unit.
fn thousands(value: f64) -> String {
    sqsctl_core::text::thousands(value.max(0.0).round() as u64)
}

/// The small send-then-drain workload used to compare with another server.
async fn comparison_workload(endpoint: &str, name: &str) -> BenchResult<(f64, f64)> {
    let sqs = client(endpoint);
    let url = create(&sqs, name).await?;
    let send = send_batches(&sqs, &url, COMPARISON_MESSAGES, 100, CONCURRENCY).await?;
    let receive = drain(&sqs, &url, COMPARISON_MESSAGES).await?;
    let _ = sqs.delete_queue().queue_url(&url).send().await;
    Ok((send, receive))
}

async fn run() -> BenchResult<()> {
    let deep_depth = env_count("SQSCTL_BENCH_DEEP", 1_000_000);
    let (server, sqs) = start_server(ServerConfig::default())?;
    println!(
        "local server benchmark: aws-sdk-sqs client in the same process, {CONCURRENCY} requests in flight, {} CPUs",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    if std::env::var("SQSCTL_BENCH_ONLY").as_deref() == Ok("protocols") {
        protocol_comparison(&server, &sqs).await?;
        server.shutdown().await;
        return Ok(());
    }

    // Memory first, before other phases leave freed memory in the allocator.
    let deep = create(&sqs, "bench-deep").await?;
    let before = rss_kib().map_or(0, |kib| kib * 1024);
    let meter = CpuMeter::start();
    let fill_rate = send_batches(&sqs, &deep, deep_depth, 1024, CONCURRENCY).await?;
    let after = rss_kib().map_or(0, |kib| kib * 1024);
    println!(
        "send-batch, 1 KiB bodies, filling {} messages: {} msgs/s ({})",
        thousands(deep_depth as f64),
        thousands(fill_rate),
        meter.per_message(deep_depth as f64)
    );
    println!(
        "memory: {} bytes of RSS per stored 1 KiB message ({} MiB for {} messages)",
        thousands(after.saturating_sub(before) as f64 / deep_depth as f64),
        after.saturating_sub(before) / (1024 * 1024),
        thousands(deep_depth as f64)
    );

    let shallow = create(&sqs, "bench-shallow").await?;
    send_batches(&sqs, &shallow, SHALLOW_DEPTH, 1024, CONCURRENCY).await?;
    let meter = CpuMeter::start();
    let at_shallow = steady(&sqs, &shallow, 1024, STEADY_WINDOW).await?;
    let shallow_cpu = meter.per_message(at_shallow * STEADY_WINDOW.as_secs_f64());
    let meter = CpuMeter::start();
    let at_deep = steady(&sqs, &deep, 1024, STEADY_WINDOW).await?;
    let deep_cpu = meter.per_message(at_deep * STEADY_WINDOW.as_secs_f64());
    println!(
        "receive+delete (+ send back, depth held), depth {}: {} msgs/s ({shallow_cpu})",
        thousands(SHALLOW_DEPTH as f64),
        thousands(at_shallow)
    );
    println!(
        "receive+delete (+ send back, depth held), depth {}: {} msgs/s ({deep_cpu}); ratio deep/shallow {:.2}",
        thousands(deep_depth as f64),
        thousands(at_deep),
        at_deep / at_shallow
    );
    let _ = sqs.delete_queue().queue_url(&deep).send().await;

    let flow = create(&sqs, "bench-flow").await?;
    let meter = CpuMeter::start();
    let send_rate = send_batches(&sqs, &flow, FLOW_MESSAGES, 100, CONCURRENCY).await?;
    println!(
        "send-batch, 100 B bodies, {} messages: {} msgs/s ({})",
        thousands(FLOW_MESSAGES as f64),
        thousands(send_rate),
        meter.per_message(FLOW_MESSAGES as f64)
    );
    let meter = CpuMeter::start();
    let drain_rate = drain(&sqs, &flow, FLOW_MESSAGES).await?;
    println!(
        "receive+delete, 100 B bodies, draining {} messages: {} msgs/s ({})",
        thousands(FLOW_MESSAGES as f64),
        thousands(drain_rate),
        meter.per_message(FLOW_MESSAGES as f64)
    );

    protocol_comparison(&server, &sqs).await?;

    with_data_dir(send_rate, drain_rate).await?;

    let others = [
        ("LocalStack", "SQSCTL_BENCH_LOCALSTACK"),
        ("moto", "SQSCTL_BENCH_MOTO"),
    ];
    let wanted: Vec<(&str, String)> = others
        .iter()
        .filter_map(|(name, var)| std::env::var(var).ok().map(|url| (*name, url)))
        .collect();
    if !wanted.is_empty() {
        let (our_send, our_receive) =
            comparison_workload(server.endpoint(), "bench-compare").await?;
        println!(
            "comparison workload ({} messages): local server send {} msgs/s, receive+delete {} msgs/s",
            thousands(COMPARISON_MESSAGES as f64),
            thousands(our_send),
            thousands(our_receive)
        );
        for (name, endpoint) in wanted {
            match comparison_workload(&endpoint, "sqsctl-bench-compare").await {
                Ok((send, receive)) => println!(
                    "  {name} ({endpoint}): send {} msgs/s, receive+delete {} msgs/s; local server is {:.1}x / {:.1}x faster",
                    thousands(send),
                    thousands(receive),
                    our_send / send,
                    our_receive / receive
                ),
                Err(err) => println!("  {name} ({endpoint}): failed: {err}"),
            }
        }
    }
    server.shutdown().await;
    Ok(())
}

/// The two protocols through one raw client, alternated so drift on a shared machine hits both.
async fn protocol_comparison(server: &Server, sqs: &Client) -> BenchResult<()> {
    let mut rates = [0.0f64; 2];
    // Server CPU seconds and messages per protocol: the ratio of these is the codecs' cost
    // without the noise of other work on the machine.
    let mut server_cpu = [0.0f64; 2];
    let mut client_cpu = [0.0f64; 2];
    let mut messages = [0.0f64; 2];
    for (i, protocol) in [
        protocols::Protocol::Json,
        protocols::Protocol::Query,
        protocols::Protocol::Json,
        protocols::Protocol::Query,
    ]
    .into_iter()
    .enumerate()
    {
        let url = create(sqs, &format!("bench-protocol-{i}")).await?;
        let (server_before, client_before) = support::cpu_seconds();
        let started = Instant::now();
        let rate = protocols::throughput(
            server.local_addr(),
            protocol,
            &url,
            CONCURRENCY,
            PROTOCOL_WINDOW,
        )
        .await?;
        messages[i % 2] += rate * started.elapsed().as_secs_f64();
        let (server_after, client_after) = support::cpu_seconds();
        server_cpu[i % 2] += server_after - server_before;
        client_cpu[i % 2] += client_after - client_before;
        rates[i % 2] += rate / 2.0;
        let _ = sqs.delete_queue().queue_url(&url).send().await;
    }
    let cpu_us = |cpu: [f64; 2], i: usize| cpu[i] * 1e6 / messages[i].max(1.0);
    println!(
        "protocols, raw HTTP client, send-batch + receive + delete-batch of 100 B bodies: JSON {} msgs/s, Query {} msgs/s; ratio Query/JSON {:.2} (CPU per message: server JSON {:.1} us, Query {:.1} us; client JSON {:.1} us, Query {:.1} us)",
        thousands(rates[0]),
        thousands(rates[1]),
        rates[1] / rates[0],
        cpu_us(server_cpu, 0),
        cpu_us(server_cpu, 1),
        cpu_us(client_cpu, 0),
        cpu_us(client_cpu, 1)
    );
    Ok(())
}

/// The same send and drain workloads with a data directory (every answer waits for its commit),
/// as ratios to the in-memory figures of this run, and the time a restart takes to read back
/// `SQSCTL_BENCH_RESTART` stored messages.
async fn with_data_dir(memory_send: f64, memory_drain: f64) -> BenchResult<()> {
    let dir = tempfile::tempdir()?;
    let config = ServerConfig {
        data_dir: Some(dir.path().join("data")),
        ..ServerConfig::default()
    };
    let (server, sqs) = start_server(config.clone())?;
    let flow = create(&sqs, "bench-disk-flow").await?;
    let meter = CpuMeter::start();
    let send_rate = send_batches(&sqs, &flow, FLOW_MESSAGES, 100, CONCURRENCY).await?;
    println!(
        "with --data-dir: send-batch, 100 B bodies, {} messages: {} msgs/s, {:.2}x in memory ({})",
        thousands(FLOW_MESSAGES as f64),
        thousands(send_rate),
        send_rate / memory_send,
        meter.per_message(FLOW_MESSAGES as f64)
    );
    let meter = CpuMeter::start();
    let drain_rate = drain(&sqs, &flow, FLOW_MESSAGES).await?;
    println!(
        "with --data-dir: receive+delete, 100 B bodies, draining {} messages: {} msgs/s, {:.2}x in memory ({})",
        thousands(FLOW_MESSAGES as f64),
        thousands(drain_rate),
        drain_rate / memory_drain,
        meter.per_message(FLOW_MESSAGES as f64)
    );
    let stored = env_count("SQSCTL_BENCH_RESTART", 1_000_000);
    let deep = create(&sqs, "bench-disk-restart").await?;
    send_batches(&sqs, &deep, stored, 100, CONCURRENCY).await?;
    server.shutdown().await;
    let started = Instant::now();
    let restarted = Server::start(config)?;
    let took = started.elapsed();
    let restored = restarted.ready().restored.map_or(0, |r| r.messages);
    println!(
        "with --data-dir: restart with {} stored 100 B messages: {:.2} s ({} restored)",
        thousands(stored as f64),
        took.as_secs_f64(),
        thousands(restored as f64)
    );
    restarted.shutdown().await;
    Ok(())
}

fn main() -> BenchResult<()> {
    runtime()?.block_on(run())
}
