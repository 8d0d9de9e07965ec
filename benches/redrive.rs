//! Throughput, rate accuracy and memory of the redrive engine against the local server with a
//! simulated network round trip, each compared with a baseline measured in the same run.
//!
//! Run with `cargo bench --bench redrive`. Environment:
//! - `SQSCTL_BENCH_REDRIVE_MESSAGES`: messages moved in each throughput run at 5 ms (default
//!   100,000; the runs at 20 ms move two fifths of it);
//! - `SQSCTL_BENCH_PROCESSES`: sqsctl processes sharing one DLQ in the multi-process run (default
//!   4; 0 skips);
//! - `SQSCTL_BENCH_RSS_MESSAGES`: messages moved by the binary whose peak RSS is measured, with
//!   the runtime threads it picks on this machine and with 4, the most it picks on any (default
//!   1,000,000; 0 skips);
//! - `SQSCTL_BENCH_RATE_SECONDS`: length of the `--rate` run (default 30);
//! - `SQSCTL_BENCH_PROCESS_MESSAGES`: messages moved in each process-level run (default 60,000;
//!   0 skips), and `SQSCTL_BENCH_PROCESS_ROUNDS` how many times that table is measured (default 2);
//!   that table runs the raw SDK loop twice, bare and doing a redrive's job (see `raw_loop`), and
//!   the second through sqsctl's client layer (see `client_layer_loop`);
//! - `SQSCTL_BENCH_ONLY`: `engine` or `raw` runs only that side of each comparison at 5 ms and
//!   skips everything else (to profile one side, e.g. under `perf record`); `process` runs only the
//!   process-level comparison;
//! - `SQSCTL_BENCH_LOCALSTACK`: a LocalStack endpoint, to time the native move task against the
//!   engine there.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::{
    DeleteMessageBatchRequestEntry, MessageSystemAttributeName, MessageSystemAttributeNameForSends,
    MessageSystemAttributeValue, SendMessageBatchRequestEntry,
};
use sqsctl::client::{QueueRef, Sqs};
use sqsctl::interrupt::Interrupt;
use sqsctl::local::ServerConfig;
use sqsctl::redrive::{
    self, Counters, DedupMode, Journal, Plan, ResumeState, RunOptions, Selection,
};

mod support;

// The engine runs in this process: with the allocator of the `sqsctl` binary, as users run it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use support::{BenchResult, client, env_count, start_server};

/// The simulated round trips of the throughput runs (the rest run at 5 ms).
const LATENCIES_MS: [u64; 2] = [5, 20];
/// The engine's default `--concurrency`, used by the rate and LocalStack runs.
const CONCURRENCY: usize = sqsctl::redrive::DEFAULT_CONCURRENCY;
/// The most workers an adaptive run grows to.
const ADAPTIVE_CAP: usize = sqsctl::redrive::ADAPTIVE_CAP;
/// The most `--concurrency` takes.
const MAX_CONCURRENCY: usize = sqsctl::redrive::MAX_CONCURRENCY;
/// The throughput runs compare the engine with the raw loop at each of these.
const CONCURRENCY_LEVELS: [usize; 2] = [32, 64];
/// The process-level comparison's worker counts (the last is the adaptive cap).
const PROCESS_CONCURRENCY_LEVELS: [usize; 3] = [32, 64, 128];
const RATE: f64 = 1_000.0;
const BODY: &str = "{\"order\":12345,\"error\":\"timeout calling payments\",\"attempt\":3,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}";

async fn create(sqs: &Sqs, name: &str) -> BenchResult<QueueRef> {
    Ok(sqs.create_queue(name, Default::default()).await?)
}

/// Fills a queue with `total` messages from 64 concurrent senders.
async fn fill(sdk: &Client, queue: &QueueRef, total: usize) -> BenchResult<()> {
    let batches = Arc::new(AtomicUsize::new(total.div_ceil(10)));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..64 {
        let (sdk, url, batches) = (sdk.clone(), queue.url.clone(), batches.clone());
        workers.spawn(async move {
            let entries: Vec<SendMessageBatchRequestEntry> = (0..10)
                .map(|i| {
                    SendMessageBatchRequestEntry::builder()
                        .id(i.to_string())
                        .message_body(BODY)
                        .build()
                })
                .collect::<Result<_, _>>()?;
            while batches
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok()
            {
                sdk.send_message_batch()
                    .queue_url(&url)
                    .set_entries(Some(entries.clone()))
                    .send()
                    .await?;
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(())
}

/// The loop most scripts use: receive 10, send 10, delete 10, one batch at a time. With
/// `workers` > 1 it is the raw SDK ceiling for that request mix at that concurrency.
///
/// `keep`: the same job as a redrive, not less: it asks for what a redrive of a standard queue
/// asks for (message attributes, the trace header and the group id), sends them on with each
/// body, and long-polls for 1 s as the engine does, so that its last, empty poll says the DLQ is
/// empty (a short poll's sample of SQS's servers cannot). Without it, the loop drops every
/// attribute and stops at its first empty short poll.
async fn raw_loop(
    sdk: &Client,
    from: &QueueRef,
    to: &QueueRef,
    workers: usize,
    total: usize,
    keep: bool,
) -> BenchResult<f64> {
    let moved = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..workers {
        let (sdk, from, to, moved) = (sdk.clone(), from.url.clone(), to.url.clone(), moved.clone());
        tasks.spawn(async move {
            while moved.load(Ordering::SeqCst) < total {
                let mut receive = sdk
                    .receive_message()
                    .queue_url(&from)
                    .max_number_of_messages(10)
                    .visibility_timeout(60);
                if keep {
                    receive = receive
                        .message_attribute_names("All")
                        .message_system_attribute_names(MessageSystemAttributeName::AwsTraceHeader)
                        .message_system_attribute_names(MessageSystemAttributeName::MessageGroupId)
                        .wait_time_seconds(1);
                }
                let got = receive.send().await?;
                let messages = got.messages();
                if messages.is_empty() {
                    break;
                }
                let entries = messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let mut entry = SendMessageBatchRequestEntry::builder()
                            .id(i.to_string())
                            .message_body(m.body().unwrap_or_default());
                        if keep {
                            let system = m.attributes();
                            let trace = system
                                .and_then(|a| a.get(&MessageSystemAttributeName::AwsTraceHeader));
                            if let Some(trace) = trace {
                                let value = MessageSystemAttributeValue::builder()
                                    .data_type("String")
                                    .string_value(trace)
                                    .build()?;
                                entry = entry.message_system_attributes(
                                    MessageSystemAttributeNameForSends::AwsTraceHeader,
                                    value,
                                );
                            }
                            let group = system
                                .and_then(|a| a.get(&MessageSystemAttributeName::MessageGroupId));
                            entry = entry
                                .set_message_attributes(m.message_attributes().cloned())
                                .set_message_group_id(group.cloned());
                        }
                        entry.build()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                sdk.send_message_batch()
                    .queue_url(&to)
                    .set_entries(Some(entries))
                    .send()
                    .await?;
                let deletes = messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        DeleteMessageBatchRequestEntry::builder()
                            .id(i.to_string())
                            .receipt_handle(m.receipt_handle().unwrap_or_default())
                            .build()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                sdk.delete_message_batch()
                    .queue_url(&from)
                    .set_entries(Some(deletes))
                    .send()
                    .await?;
                moved.fetch_add(messages.len(), Ordering::SeqCst);
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = tasks.join_next().await {
        joined??;
    }
    Ok(moved.load(Ordering::SeqCst) as f64 / started.elapsed().as_secs_f64())
}

/// The keeping loop of [`raw_loop`] made through sqsctl's client layer, as the engine makes its
/// calls: `receive_retrying` with the system attributes a redrive of a standard queue asks for,
/// `send_batch_retrying` of the records it would send, `batch_retrying(Delete)`, each under the
/// default retry policy, on a client that `Sqs::connect` built from the environment. Set against
/// the SDK loop and `sqsctl redrive`, it splits redrive's extra CPU into what the client layer
/// costs per call and what the engine adds (journal, bookkeeping, visibility, tasks).
async fn client_layer_loop(
    sqs: Sqs,
    from: &QueueRef,
    to: &QueueRef,
    workers: usize,
    total: usize,
) -> BenchResult<()> {
    use sqsctl::client::{Delete, ReceiveOptions, RetryPolicy, SystemAttributes};
    let moved = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..workers {
        let (sqs, from, to, moved) = (sqs.clone(), from.clone(), to.clone(), moved.clone());
        tasks.spawn(async move {
            let policy = RetryPolicy::default();
            while moved.load(Ordering::SeqCst) < total {
                let options = ReceiveOptions {
                    max_messages: 10,
                    wait_seconds: Some(1),
                    visibility_timeout: Some(60),
                };
                let got = sqs
                    .receive_retrying(
                        &from,
                        options,
                        SystemAttributes::Only(&["AWSTraceHeader", "MessageGroupId"]),
                        &policy,
                    )
                    .await
                    .result?;
                if got.is_empty() {
                    break;
                }
                let out: Vec<sqsctl::message::MessageRecord> = got
                    .iter()
                    .map(|m| sqsctl::message::MessageRecord {
                        message_id: None,
                        body: m.body.clone(),
                        message_attributes: m.message_attributes.clone(),
                        group_id: m.group_id.clone(),
                        dedup_id: None,
                        trace_header: m.trace_header.clone(),
                        delay_seconds: None,
                        attributes: Default::default(),
                        receipt_handle: None,
                    })
                    .collect();
                let sent = sqs.send_batch_retrying(&to, &out, &policy).await;
                if sent.entries.iter().any(|e| e.reason().is_some()) {
                    return Err("a send failed".into());
                }
                let handles: Vec<&str> = got
                    .iter()
                    .map(|m| m.receipt_handle.as_deref().unwrap_or_default())
                    .collect();
                let deleted = sqs.batch_retrying(Delete, &from, &handles, &policy).await;
                if deleted.entries.iter().any(|e| e.reason().is_some()) {
                    return Err("a delete failed".into());
                }
                moved.fetch_add(got.len(), Ordering::SeqCst);
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = tasks.join_next().await {
        joined??;
    }
    Ok(())
}

fn plan(from: &QueueRef, to: &QueueRef, rate: Option<f64>, limit: Option<u64>) -> Plan {
    Plan {
        source: from.clone(),
        destination: to.clone(),
        fifo: false,
        dedup: DedupMode::MessageId,
        delay_seconds: None,
        selection: Selection::default(),
        limit,
        rate,
        concurrency: CONCURRENCY,
        adaptive: false,
        visibility_timeout: 60,
        archive: None,
        started_at_ms: None,
        dlq_depth_at_start: None,
        copy: false,
        destination_access: None,
        rewrite: Default::default(),
    }
}

struct EngineRun {
    summary: redrive::Summary,
    /// Seconds until the last message moved (the run then confirms that the DLQ is empty).
    to_last_move: f64,
    /// Most messages moved in any one-second window (sampled every 50 ms).
    max_per_second: u64,
}

async fn engine(
    sqs: &Sqs,
    plan: &Plan,
    dir: &std::path::Path,
    name: &str,
) -> BenchResult<EngineRun> {
    let journal = Journal::create(&dir.join(format!("{name}.jsonl")), plan)?;
    let counters = Arc::new(Counters::default());
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (counters, done) = (counters.clone(), done.clone());
        tokio::spawn(async move {
            let started = Instant::now();
            let mut samples: Vec<(f64, u64)> = vec![(0.0, 0)];
            let mut last_change = 0.0;
            while !done.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let moved = Counters::get(&counters.moved);
                let now = started.elapsed().as_secs_f64();
                if samples.last().is_some_and(|s| s.1 != moved) {
                    last_change = now;
                }
                samples.push((now, moved));
            }
            (last_change, max_window(&samples))
        })
    };
    let options = RunOptions {
        journal: Some(journal),
        archive: None,
        resume: ResumeState::default(),
        sent_before_ms: None,
        counters,
        interrupt: Interrupt::default(),
        destination: None,
    };
    let summary = redrive::run(sqs, plan, options).await?;
    done.store(true, Ordering::SeqCst);
    let (to_last_move, max_per_second) = watcher.await?;
    Ok(EngineRun {
        summary,
        to_last_move,
        max_per_second,
    })
}

fn max_window(samples: &[(f64, u64)]) -> u64 {
    let mut best = 0;
    let mut start = 0;
    for end in 0..samples.len() {
        while samples[end].0 - samples[start].0 > 1.0 {
            start += 1;
        }
        best = best.max(samples[end].1 - samples[start].1);
    }
    best
}

/// Peak RSS of the `sqsctl` binary moving `total` messages, read from /proc while it runs.
async fn binary_peak_rss(
    endpoint: &str,
    sqs: &Sqs,
    sdk: &Client,
    total: usize,
    dir: &std::path::Path,
    threads: Option<usize>,
    concurrency: Option<usize>,
) -> BenchResult<(u64, f64)> {
    let name = format!("rss-{}-{}", threads.unwrap_or(0), concurrency.unwrap_or(0));
    let from = create(sqs, &format!("{name}-dlq")).await?;
    create(sqs, &name).await?;
    fill(sdk, &from, total).await?;
    let started = Instant::now();
    let mut command = support::sqsctl(endpoint, dir);
    command
        .args(["redrive", &format!("{name}-dlq"), "--to", &name])
        .args(["--yes", "-q", "-o", "json", "--journal"])
        .arg(dir.join(format!("{name}.jsonl")))
        .args(concurrency.map(|n| format!("--concurrency={n}")))
        .envs(threads.map(|n| ("TOKIO_WORKER_THREADS", n.to_string())))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = tokio::process::Command::from(command).spawn()?;
    let pid = child.id().unwrap_or_default();
    let mut peak_kib = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if let Some(kib) = support::peak_rss_kib(pid) {
            peak_kib = peak_kib.max(kib);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let output = child.wait_with_output().await?;
    if !status.success() {
        return Err(format!(
            "the binary exited with {status}: {}",
            String::from_utf8_lossy(&output.stdout)
        )
        .into());
    }
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let moved = summary["moved"].as_u64().unwrap_or(0);
    if moved != total as u64 {
        return Err(format!("the binary moved {moved} of {total}").into());
    }
    Ok((
        peak_kib * 1024,
        total as f64 / started.elapsed().as_secs_f64(),
    ))
}

/// The native move task against the engine on LocalStack, with a few thousand messages.
async fn localstack(endpoint: &str, dir: &std::path::Path) -> BenchResult<()> {
    const MESSAGES: usize = 2_000;
    let sdk = client(endpoint);
    let sqs = Sqs::from_sdk(sdk.clone(), "us-east-1");
    let stamp = std::process::id();
    let dlq = create(&sqs, &format!("bench-native-dlq-{stamp}")).await?;
    let dlq_arn = sqs
        .attributes(&dlq)
        .await?
        .arn()
        .unwrap_or_default()
        .to_string();
    let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"3"}}"#);
    let source = sqs
        .create_queue(
            &format!("bench-native-{stamp}"),
            [("RedrivePolicy".to_string(), policy)]
                .into_iter()
                .collect(),
        )
        .await?;
    let source_arn = sqs
        .attributes(&source)
        .await?
        .arn()
        .unwrap_or_default()
        .to_string();
    fill(&sdk, &dlq, MESSAGES).await?;
    let started = Instant::now();
    let handle = sqs
        .start_move_task(&dlq_arn, Some(&source_arn), None)
        .await?;
    loop {
        let tasks = sqs.list_move_tasks(&dlq_arn).await?;
        let running = tasks
            .iter()
            .any(|t| t.task_handle.as_deref() == Some(handle.as_str()) && t.status == "RUNNING");
        if !running {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let native = MESSAGES as f64 / started.elapsed().as_secs_f64();
    let moved_native = sqs.attributes(&source).await?.total();
    sqs.purge(&source).await.ok();
    fill(&sdk, &dlq, MESSAGES).await?;
    let run = engine(&sqs, &plan(&dlq, &source, None, None), dir, "localstack").await?;
    let ours = run.summary.moved as f64 / run.to_last_move.max(1e-3);
    println!(
        "LocalStack, {MESSAGES} messages: native move task {native:.0} msg/s ({moved_native} arrived), engine {ours:.0} msg/s; engine/native {:.2}x",
        ours / native
    );
    sqs.delete_queue(&source).await.ok();
    sqs.delete_queue(&dlq).await.ok();
    Ok(())
}

/// Fills the DLQ, moves it with the raw loop, fills it again and moves it with the engine: the
/// engine's rate (to its last message) and the raw loop's.
/// One side of a comparison: messages per second, and client CPU per message in microseconds.
#[derive(Clone, Copy)]
struct Side {
    rate: f64,
    cpu_us: f64,
    /// The engine's workers (the raw loop's are the concurrency asked for).
    workers: sqsctl::redrive::Workers,
}

impl Side {
    /// The table cells comparing this side with `raw`: both rates, their ratio, and the CPU per
    /// message of each with theirs.
    fn against(&self, raw: &Side) -> String {
        format!(
            "{:.0} msg/s | {:.0} msg/s | {:.2} | {:.0} / {:.0} µs = {:.2}",
            self.rate,
            raw.rate,
            self.rate / raw.rate,
            self.cpu_us,
            raw.cpu_us,
            self.cpu_us / raw.cpu_us
        )
    }

    /// A side that did not run (`SQSCTL_BENCH_ONLY`): its figures print as NaN.
    fn not_run() -> Side {
        Side {
            rate: f64::NAN,
            cpu_us: f64::NAN,
            workers: Default::default(),
        }
    }
}

/// Client CPU per message, in microseconds, over a run of `messages` that started when the client
/// had used `since` seconds.
fn cpu_per_message(since: f64, messages: usize) -> f64 {
    (support::cpu_seconds().1 - since) * 1e6 / messages.max(1) as f64
}

/// A local server with a DLQ and a destination, and clients for it.
struct Lab {
    server: sqsctl::local::Server,
    sdk: Client,
    sqs: Sqs,
    dlq: QueueRef,
    dest: QueueRef,
}

impl Lab {
    async fn start(latency: Duration, threads: usize) -> BenchResult<Lab> {
        let (server, sdk) = start_server(ServerConfig {
            latency,
            worker_threads: threads,
            ..ServerConfig::default()
        })?;
        let sqs = Sqs::from_sdk(sdk.clone(), "us-east-1");
        let dlq = create(&sqs, "bench-dlq").await?;
        let dest = create(&sqs, "bench").await?;
        Ok(Lab {
            server,
            sdk,
            sqs,
            dlq,
            dest,
        })
    }

    /// Fills the DLQ, moves it with the raw loop of `raw_workers` tasks when asked, fills it
    /// again and moves it with the engine: the engine's rate (to its last message) and the raw
    /// loop's.
    async fn compare(
        &self,
        engine_plan: &Plan,
        total: usize,
        dir: &std::path::Path,
        raw_workers: Option<usize>,
    ) -> BenchResult<(Side, Option<Side>)> {
        let only = std::env::var("SQSCTL_BENCH_ONLY").unwrap_or_default();
        let raw_workers = raw_workers.filter(|_| only != "engine");
        let raw = match raw_workers {
            Some(workers) => {
                fill(&self.sdk, &self.dlq, total).await?;
                let since = support::cpu_seconds().1;
                let rate =
                    raw_loop(&self.sdk, &self.dlq, &self.dest, workers, total, false).await?;
                let cpu_us = cpu_per_message(since, total);
                self.reset().await?;
                Some(Side {
                    rate,
                    cpu_us,
                    workers: Default::default(),
                })
            }
            None => None,
        };
        if only == "raw" {
            return Ok((Side::not_run(), raw));
        }
        fill(&self.sdk, &self.dlq, total).await?;
        let name = format!("engine-{}", dir.read_dir()?.count());
        let since = support::cpu_seconds().1;
        let run = engine(&self.sqs, engine_plan, dir, &name).await?;
        let cpu_us = cpu_per_message(since, total);
        if run.summary.moved != total as u64 {
            return Err(format!("the engine moved {} of {total}", run.summary.moved).into());
        }
        self.reset().await?;
        let rate = run.summary.moved as f64 / run.to_last_move.max(1e-3);
        Ok((
            Side {
                rate,
                cpu_us,
                workers: run.summary.workers,
            },
            raw,
        ))
    }

    /// Empties both queues for the next run.
    async fn reset(&self) -> BenchResult<()> {
        self.server.clock().advance(Duration::from_secs(61));
        self.sqs.purge(&self.dest).await?;
        self.server.clock().advance(Duration::from_secs(61));
        self.sqs.purge(&self.dlq).await?;
        Ok(())
    }
}

/// `processes` sqsctl processes redriving one DLQ of `total` messages at once, each with its own
/// journal: their rate together, and whether every message arrived exactly once.
async fn processes(
    lab: &Lab,
    processes: usize,
    total: usize,
    dir: &std::path::Path,
) -> BenchResult<(f64, Vec<u64>, u64)> {
    let (sqs, dlq, dest) = (&lab.sqs, &lab.dlq, &lab.dest);
    fill(&lab.sdk, dlq, total).await?;
    let started = Instant::now();
    let mut children = Vec::new();
    for index in 0..processes {
        let mut command = support::sqsctl(lab.server.endpoint(), dir);
        command
            .args([
                "redrive", &dlq.name, "--to", &dest.name, "--yes", "-q", "-o", "json",
            ])
            .arg("--journal")
            .arg(dir.join(format!("process-{index}.jsonl")))
            .stdout(Stdio::piped());
        children.push(tokio::process::Command::from(command).spawn()?);
    }
    let mut shares = Vec::new();
    for child in children {
        let output = child.wait_with_output().await?;
        if !output.status.success() {
            return Err(format!(
                "a redrive process exited with {}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        shares.push(summary["moved"].as_u64().unwrap_or(0));
    }
    let rate = total as f64 / started.elapsed().as_secs_f64();
    let arrived = sqs.attributes(dest).await?.total();
    Ok((rate, shares, arrived))
}

async fn run() -> BenchResult<()> {
    let total = env_count("SQSCTL_BENCH_REDRIVE_MESSAGES", 100_000);
    let rss_total = env_count("SQSCTL_BENCH_RSS_MESSAGES", 1_000_000);
    let rate_seconds = env_count("SQSCTL_BENCH_RATE_SECONDS", 30);
    let process_count = env_count("SQSCTL_BENCH_PROCESSES", 4);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let process_total = env_count("SQSCTL_BENCH_PROCESS_MESSAGES", 60_000);
    let process_rounds = env_count("SQSCTL_BENCH_PROCESS_ROUNDS", 2);
    let dir = tempfile::tempdir()?;
    println!(
        "redrive benchmark: {total} messages at 5 ms per request ({} at 20 ms), {cpus} CPUs",
        total * 2 / 5
    );
    println!();
    let only = std::env::var("SQSCTL_BENCH_ONLY").unwrap_or_default();
    if process_total > 0 && (only.is_empty() || only == "process") {
        process_table(process_total, process_rounds, dir.path()).await?;
        if only == "process" {
            return Ok(());
        }
    }
    println!(
        "| latency | concurrency | sqsctl redrive | raw loop | ratio | client CPU per message: redrive / raw loop |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut adaptive_at_5 = 0.0;
    let mut lab_5 = None;
    let profiling = std::env::var("SQSCTL_BENCH_ONLY").is_ok_and(|v| !v.is_empty());
    for latency_ms in LATENCIES_MS {
        if profiling && latency_ms != 5 {
            continue;
        }
        let lab = Lab::start(Duration::from_millis(latency_ms), (cpus / 2).max(2)).await?;
        let messages = if latency_ms == 5 {
            total
        } else {
            total * 2 / 5
        };
        let mut fixed_32 = 0.0;
        for concurrency in CONCURRENCY_LEVELS {
            let mut engine_plan = plan(&lab.dlq, &lab.dest, None, None);
            engine_plan.concurrency = concurrency;
            let (ours, raw) = lab
                .compare(&engine_plan, messages, dir.path(), Some(concurrency))
                .await?;
            let raw = raw.unwrap_or_else(Side::not_run);
            if concurrency == 32 {
                fixed_32 = ours.rate;
            }
            println!(
                "| {latency_ms} ms | {concurrency} | {} |",
                ours.against(&raw)
            );
        }
        if profiling {
            return Ok(());
        }
        // The engine fixed at the adaptive cap: what that many workers give at this latency, the
        // ceiling the adaptive run is measured against.
        let mut engine_plan = plan(&lab.dlq, &lab.dest, None, None);
        engine_plan.concurrency = ADAPTIVE_CAP;
        let (capped, _) = lab
            .compare(&engine_plan, messages, dir.path(), None)
            .await?;
        println!(
            "| {latency_ms} ms | {ADAPTIVE_CAP} (the cap) | {:.0} msg/s | | {:.2}x fixed 32 | {:.0} µs |",
            capped.rate,
            capped.rate / fixed_32,
            capped.cpu_us
        );
        let mut engine_plan = plan(&lab.dlq, &lab.dest, None, None);
        engine_plan.adaptive = true;
        let (ours, _) = lab
            .compare(&engine_plan, messages, dir.path(), None)
            .await?;
        println!(
            "| {latency_ms} ms | adaptive ({}) | {:.0} msg/s | | {:.2}x fixed 32, {:.2}x fixed {ADAPTIVE_CAP} | {:.0} µs |",
            ours.workers,
            ours.rate,
            ours.rate / fixed_32,
            ours.rate / capped.rate,
            ours.cpu_us
        );
        if latency_ms == 5 {
            adaptive_at_5 = ours.rate;
            lab_5 = Some(lab);
        } else {
            lab.server.shutdown().await;
        }
    }
    println!();
    let Some(lab) = lab_5 else {
        return Err("no server at 5 ms".into());
    };
    if process_count > 0 {
        let (together, shares, arrived) = processes(&lab, process_count, total, dir.path()).await?;
        let moved: u64 = shares.iter().sum();
        println!(
            "{process_count} processes on one DLQ at 5 ms: {together:.0} msg/s together ({:.2}x one adaptive process), moved {shares:?} = {moved} of {total}; {arrived} arrived (exactly once: {})",
            together / adaptive_at_5,
            arrived == total as u64 && moved == total as u64
        );
        lab.reset().await?;
    }
    let Lab {
        server,
        sdk,
        sqs,
        dlq,
        dest,
    } = lab;

    if rate_seconds > 0 {
        server.clock().advance(Duration::from_secs(61));
        sqs.purge(&dest).await?;
        let wanted = (RATE * rate_seconds as f64) as usize;
        fill(&sdk, &dlq, wanted + 2_000).await?;
        let run = engine(
            &sqs,
            &plan(&dlq, &dest, Some(RATE), Some(wanted as u64)),
            dir.path(),
            "rate",
        )
        .await?;
        let achieved = run.summary.moved as f64 / run.to_last_move.max(1e-3);
        println!(
            "--rate {RATE:.0} over {rate_seconds} s: achieved {achieved:.1} msg/s ({:+.2}% off); busiest second {} messages (rate + one batch = {})",
            (achieved / RATE - 1.0) * 100.0,
            run.max_per_second,
            RATE as u64 + 10
        );
    }

    if rate_seconds > 0 {
        // A short run: the rate must hold from the first second, and the run must end when the
        // DLQ is empty (not when the workers' reservations are paid off).
        server.clock().advance(Duration::from_secs(61));
        sqs.purge(&dest).await?;
        // The limited run above left messages behind.
        sqs.purge(&dlq).await?;
        fill(&sdk, &dlq, 20).await?;
        let run = engine(
            &sqs,
            &plan(&dlq, &dest, Some(5.0), None),
            dir.path(),
            "rate-short",
        )
        .await?;
        let achieved = run.summary.moved as f64 / run.to_last_move.max(1e-3);
        println!(
            "--rate 5 on 20 messages with {CONCURRENCY} workers: achieved {achieved:.2} msg/s ({:+.1}% off); last message at {:.2} s, run ended at {:.2} s (ideal 4 s)",
            (achieved / 5.0 - 1.0) * 100.0,
            run.to_last_move,
            run.summary.seconds
        );
    }

    if rss_total > 0 {
        let (fast, fast_sdk) = start_server(ServerConfig::default())?;
        let fast_sqs = Sqs::from_sdk(fast_sdk.clone(), "us-east-1");
        // Client commands run at most 4 runtime threads, whatever the machine: 4 is what a machine
        // of 4 cores or more (16 included) gets.
        // The default (adaptive) mode, then fixed at the adaptive cap and at the most
        // `--concurrency` takes: memory grows with the workers.
        let runs = [
            (None, None),
            (Some(4), None),
            (Some(4), Some(ADAPTIVE_CAP)),
            (Some(4), Some(MAX_CONCURRENCY)),
        ];
        for (threads, concurrency) in runs {
            let (peak, rate) = binary_peak_rss(
                fast.endpoint(),
                &fast_sqs,
                &fast_sdk,
                rss_total,
                dir.path(),
                threads,
                concurrency,
            )
            .await?;
            let workers = concurrency.map_or("adaptive".to_string(), |n| format!("{n} workers"));
            println!(
                "peak RSS of `sqsctl redrive` moving {rss_total} messages with {} runtime threads, {workers}: {:.1} MiB (target < 64 MiB), at {rate:.0} msg/s without added latency",
                threads.unwrap_or(cpus.min(4)),
                peak as f64 / (1024.0 * 1024.0)
            );
        }
        fast.shutdown().await;
    }

    if let Some(endpoint) = std::env::var("SQSCTL_BENCH_LOCALSTACK")
        .ok()
        .filter(|e| !e.is_empty())
    {
        localstack(&endpoint, dir.path()).await?;
    }
    server.shutdown().await;
    Ok(())
}

/// Set in the environment of this benchmark re-executed as the raw loop's process.
const RAW_CHILD_ENV: &str = "SQSCTL_BENCH_RAW_REDRIVE";

/// `sqsctl local --latency 5ms` as a user starts it: a process of its own, on an ephemeral port.
struct LocalProcess {
    child: std::process::Child,
    endpoint: String,
    sdk: Client,
    sqs: Sqs,
    queues: AtomicUsize,
}

impl LocalProcess {
    fn start(dir: &std::path::Path) -> BenchResult<LocalProcess> {
        use std::io::BufRead;
        let mut command = support::sqsctl("http://unused", dir);
        command
            .args(["local", "--bind", "127.0.0.1:0", "--latency", "5ms"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn()?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut first = String::new();
        std::io::BufReader::new(stdout).read_line(&mut first)?;
        let endpoint = first
            .trim()
            .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
            .ok_or_else(|| format!("sqsctl local printed {first:?}"))?
            .to_string();
        let sdk = client(&endpoint);
        let sqs = Sqs::from_sdk(sdk.clone(), "us-east-1");
        Ok(LocalProcess {
            child,
            endpoint,
            sdk,
            sqs,
            queues: AtomicUsize::new(0),
        })
    }

    /// The server's CPU seconds so far.
    fn cpu(&self) -> f64 {
        support::process_cpu_seconds(self.child.id())
    }

    /// A new DLQ filled with `total` messages, and a new empty destination.
    async fn fresh_pair(&self, total: usize) -> BenchResult<(QueueRef, QueueRef)> {
        let n = self.queues.fetch_add(1, Ordering::SeqCst);
        let dlq = create(&self.sqs, &format!("bench-dlq-{n}")).await?;
        let dest = create(&self.sqs, &format!("bench-{n}")).await?;
        fill(&self.sdk, &dlq, total).await?;
        Ok((dlq, dest))
    }
}

impl Drop for LocalProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One process's run: its rate from start to exit, its CPU and the server's per message, and
/// (for sqsctl) the workers it used.
struct ProcessRun {
    rate: f64,
    cpu_us: f64,
    server_us: f64,
    /// sqsctl's workers: the most at once and at the end (from its summary).
    workers: Option<(u64, u64)>,
    /// Why an adaptive run stopped adding workers (its `-v` line).
    why: Option<String>,
}

/// Runs `command` on a fresh DLQ of `total` messages (the command gets the DLQ's and the
/// destination's names and URLs), checks every message arrived, and times it.
async fn process_run(
    local: &LocalProcess,
    total: usize,
    command: impl FnOnce(&QueueRef, &QueueRef) -> std::process::Command,
) -> BenchResult<ProcessRun> {
    let (dlq, dest) = local.fresh_pair(total).await?;
    let command = command(&dlq, &dest);
    let cpu_before = support::children_cpu_seconds();
    let server_before = local.cpu();
    let started = Instant::now();
    let output = tokio::process::Command::from(command).output().await?;
    let seconds = started.elapsed().as_secs_f64();
    let server = local.cpu() - server_before;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("a process exited with {}: {stderr}", output.status).into());
    }
    let cpu = support::children_cpu_seconds() - cpu_before;
    let moved = local.sqs.attributes(&dest).await?.total();
    if moved != total as u64 {
        return Err(format!("a process moved {moved} of {total}").into());
    }
    let workers = serde_json::from_slice::<serde_json::Value>(&output.stdout)
        .ok()
        .and_then(|summary| {
            let workers = &summary["workers"];
            Some((workers["most"].as_u64()?, workers["at_end"].as_u64()?))
        });
    // `-v` prints two `workers:` lines for an adaptive run: the count, then why it settled there
    // (whatever the reason's wording).
    let why = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter_map(|line| line.strip_prefix("debug: workers: "))
        .nth(1)
        .map(str::to_string);
    local.sqs.delete_queue(&dlq).await?;
    local.sqs.delete_queue(&dest).await?;
    Ok(ProcessRun {
        why,
        rate: total as f64 / seconds,
        cpu_us: cpu * 1e6 / total as f64,
        server_us: server * 1e6 / total as f64,
        workers,
    })
}

/// `sqsctl redrive` as a user runs it on a fresh DLQ: `--concurrency` when given, else adaptive.
async fn redrive_process(
    local: &LocalProcess,
    concurrency: Option<usize>,
    total: usize,
    dir: &std::path::Path,
) -> BenchResult<ProcessRun> {
    process_run(local, total, |dlq, dest| {
        let mut redrive = support::sqsctl(&local.endpoint, dir);
        redrive
            .args([
                "redrive", &dlq.name, "--to", &dest.name, "--yes", "-o", "json",
            ])
            .arg("--journal")
            .arg(dir.join(format!("{}.jsonl", dlq.name)))
            .stdout(Stdio::piped());
        match concurrency {
            Some(concurrency) => redrive.arg(format!("--concurrency={concurrency}")),
            // `-v` says why the workers settled where they did.
            None => redrive.arg("-v"),
        };
        redrive
    })
    .await
}

/// The raw loop as a process of its own (this benchmark re-executed) on a fresh DLQ; `keep`: the
/// loop that does a redrive's job (see [`raw_loop`]).
async fn raw_process(
    local: &LocalProcess,
    concurrency: usize,
    total: usize,
    loop_kind: RawLoop,
    dir: &std::path::Path,
) -> BenchResult<ProcessRun> {
    let exe = std::env::current_exe()?;
    process_run(local, total, |dlq, dest| {
        let mut raw = std::process::Command::new(exe);
        if loop_kind == RawLoop::ClientLayer {
            // sqsctl's environment, which `Sqs::connect` reads as `sqsctl redrive` does.
            let sqsctl = support::sqsctl(&local.endpoint, dir);
            raw.env_clear();
            for (key, value) in sqsctl.get_envs() {
                if let Some(value) = value {
                    raw.env(key, value);
                }
            }
            raw.env(CLIENT_LAYER_ENV, "1");
        }
        raw.env(RAW_CHILD_ENV, &local.endpoint)
            .env("SQSCTL_BENCH_RAW_FROM", &dlq.url)
            .env("SQSCTL_BENCH_RAW_TO", &dest.url)
            .env("SQSCTL_BENCH_RAW_WORKERS", concurrency.to_string())
            .env("SQSCTL_BENCH_RAW_TOTAL", total.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if loop_kind == RawLoop::Keeping {
            raw.env("SQSCTL_BENCH_RAW_KEEP", "1");
        }
        raw
    })
    .await
}

/// Which loop a raw process runs: [`raw_loop`] bare or keeping, or [`client_layer_loop`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RawLoop {
    Bare,
    Keeping,
    ClientLayer,
}

/// Set (with [`RAW_CHILD_ENV`]) for the raw process that runs [`client_layer_loop`].
const CLIENT_LAYER_ENV: &str = "SQSCTL_BENCH_RAW_CLIENT_LAYER";

/// The raw loop's process of [`process_compare`]: a runtime like sqsctl's.
fn raw_child_main(endpoint: &str) -> BenchResult<()> {
    let var = |name: &str| std::env::var(name).map_err(|_| format!("{name} is not set"));
    let from = QueueRef::from_url(var("SQSCTL_BENCH_RAW_FROM")?);
    let to = QueueRef::from_url(var("SQSCTL_BENCH_RAW_TO")?);
    let workers: usize = var("SQSCTL_BENCH_RAW_WORKERS")?.parse()?;
    let total: usize = var("SQSCTL_BENCH_RAW_TOTAL")?.parse()?;
    let keep = std::env::var_os("SQSCTL_BENCH_RAW_KEEP").is_some();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    if std::env::var_os(CLIENT_LAYER_ENV).is_some() {
        // Configured from the environment as `sqsctl` is (the parent gives it sqsctl's).
        return runtime.block_on(async {
            let settings = sqsctl::client::AwsSettings {
                environment: sqsctl::client::AwsEnvironment::read(),
                ..Default::default()
            };
            let sqs = Sqs::connect(&settings).await?;
            client_layer_loop(sqs, &from, &to, workers, total).await
        });
    }
    runtime.block_on(raw_loop(
        &client(endpoint),
        &from,
        &to,
        workers,
        total,
        keep,
    ))?;
    Ok(())
}

/// The process-level table: what a user sees, `sqsctl redrive` against a raw loop process, both
/// against `sqsctl local --latency 5ms` as a process of its own, `rounds` times.
async fn process_table(total: usize, rounds: usize, dir: &std::path::Path) -> BenchResult<()> {
    let local = LocalProcess::start(dir)?;
    println!(
        "processes against `sqsctl local --latency 5ms` (a process too), {total} messages, each timed from its start to its exit (sqsctl's end-of-run poll included):"
    );
    println!();
    println!(
        "The raw SDK loop twice: bare (drops every attribute, stops at its first empty short poll) and keeping what a redrive keeps (message attributes, trace header, group id; 1 s long polls, so that its last poll says the DLQ is empty); then the keeping loop through sqsctl's client layer (the calls made as the engine makes them, no engine)."
    );
    println!();
    println!(
        "| round | workers | `sqsctl redrive` | SDK loop: bare / keeping; client-layer loop | ratio to each (target at least 0.95) | client CPU per message: redrive / bare / keeping / client layer | redrive's CPU ratio to each (target at most 1.15) | server CPU per message: redrive / bare / keeping / client layer |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for round in 1..=rounds {
        let mut best_fixed: f64 = 0.0;
        for concurrency in PROCESS_CONCURRENCY_LEVELS {
            let ours = redrive_process(&local, Some(concurrency), total, dir).await?;
            let bare = raw_process(&local, concurrency, total, RawLoop::Bare, dir).await?;
            let keeping = raw_process(&local, concurrency, total, RawLoop::Keeping, dir).await?;
            let layer = raw_process(&local, concurrency, total, RawLoop::ClientLayer, dir).await?;
            best_fixed = best_fixed.max(ours.rate);
            println!(
                "| {round} | {concurrency} | {:.0} msg/s | {:.0} / {:.0}; {:.0} msg/s | **{:.2}** / **{:.2}**; {:.2} | {:.0} / {:.0} / {:.0} / {:.0} µs | **{:.2}** / **{:.2}** / {:.2} | {:.0} / {:.0} / {:.0} / {:.0} µs |",
                ours.rate,
                bare.rate,
                keeping.rate,
                layer.rate,
                ours.rate / bare.rate,
                ours.rate / keeping.rate,
                ours.rate / layer.rate,
                ours.cpu_us,
                bare.cpu_us,
                keeping.cpu_us,
                layer.cpu_us,
                ours.cpu_us / bare.cpu_us,
                ours.cpu_us / keeping.cpu_us,
                ours.cpu_us / layer.cpu_us,
                ours.server_us,
                bare.server_us,
                keeping.server_us,
                layer.server_us,
            );
        }
        let adaptive = redrive_process(&local, None, total, dir).await?;
        let workers = adaptive
            .workers
            .map(|(most, at_end)| format!("adaptive (most {most}, at the end {at_end})"))
            .unwrap_or_else(|| "adaptive".into());
        println!(
            "| {round} | {workers} | {:.0} msg/s | best fixed: {best_fixed:.0} msg/s | **{:.2}** | {:.0} µs | | {:.0} µs |",
            adaptive.rate,
            adaptive.rate / best_fixed,
            adaptive.cpu_us,
            adaptive.server_us,
        );
        if let Some(why) = &adaptive.why {
            println!("|   | ({why}) | | | | | | |");
        }
    }
    println!();
    Ok(())
}

fn main() -> BenchResult<()> {
    if let Ok(endpoint) = std::env::var(RAW_CHILD_ENV) {
        return raw_child_main(&endpoint);
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run())
}
