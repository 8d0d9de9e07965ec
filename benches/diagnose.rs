//! How long `sqsctl diagnose` takes to read a deep FIFO queue, and how much memory it needs, against
//! a raw aws-sdk-sqs loop doing the same reads in the same run.
//!
//! The queue holds 100,000 messages in 1,000 groups on the local server. A scan that does not
//! consume sees each group's head (up to 10 messages per group) and infers the rest from the
//! queue's depth, so both sides receive with a visibility timeout until the queue has nothing more
//! to deliver, confirm with a 1 s long poll, and make every message visible again. The binary runs
//! as a child process; its peak RSS is read from /proc while it runs.
//!
//! A second run analyzes the same 100,000 messages from a JSON Lines export (`--input`), where
//! every message is seen, against parsing the file alone.
//!
//! Run with `cargo bench --bench diagnose`. `SQSCTL_BENCH_MESSAGES` and `SQSCTL_BENCH_GROUPS`
//! override the queue's shape.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::{
    ChangeMessageVisibilityBatchRequestEntry, MessageSystemAttributeName, QueueAttributeName,
    SendMessageBatchRequestEntry,
};
use sqsctl::local::ServerConfig;

mod support;

use support::{BenchResult, env_count, peak_rss_kib, runtime, send_batch, start_server};

const BIN: &str = env!("CARGO_BIN_EXE_sqsctl");
const SEND_CONCURRENCY: usize = 16;
const TARGET_SECONDS: f64 = 10.0;
const TARGET_RSS_MIB: f64 = 64.0;

/// Fills the queue: message `i` goes to group `i % groups`, so every group is equally deep.
async fn fill(sqs: &Client, url: &str, messages: usize, groups: usize) -> BenchResult<()> {
    let batches: Vec<usize> = (0..messages.div_ceil(10)).collect();
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..SEND_CONCURRENCY {
        let (sqs, url) = (sqs.clone(), url.to_string());
        let mine: Vec<usize> = batches
            .iter()
            .copied()
            .filter(|b| b % SEND_CONCURRENCY == worker)
            .collect();
        workers.spawn(async move {
            for batch in mine {
                let entries = (batch * 10..(batch * 10 + 10).min(messages))
                    .map(|i| {
                        SendMessageBatchRequestEntry::builder()
                            .id(format!("e{}", i % 10))
                            .message_body(format!("{{\"order\":{i},\"amount\":{}}}", i % 977))
                            .message_group_id(format!("customer-{}", i % groups))
                            .message_deduplication_id(format!("order-{i}-v1"))
                            .build()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                send_batch(&sqs, &url, entries).await?;
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(())
}

/// The baseline: receive with a hold until nothing more comes (short polls, then one 1 s long
/// poll), keep only the receipt handles, then release everything. Returns messages seen.
async fn raw_scan(sqs: &Client, url: &str) -> BenchResult<usize> {
    let mut handles: Vec<String> = Vec::new();
    let mut wait = 0;
    loop {
        let out = sqs
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .wait_time_seconds(wait)
            .visibility_timeout(60)
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .message_attribute_names("All")
            .send()
            .await?;
        let messages = out.messages.unwrap_or_default();
        if messages.is_empty() {
            if wait > 0 {
                break;
            }
            wait = 1;
            continue;
        }
        handles.extend(messages.into_iter().filter_map(|m| m.receipt_handle));
    }
    for chunk in handles.chunks(10) {
        let entries = chunk
            .iter()
            .enumerate()
            .map(|(i, handle)| {
                ChangeMessageVisibilityBatchRequestEntry::builder()
                    .id(i.to_string())
                    .receipt_handle(handle)
                    .visibility_timeout(0)
                    .build()
            })
            .collect::<Result<Vec<_>, _>>()?;
        sqs.change_message_visibility_batch()
            .queue_url(url)
            .set_entries(Some(entries))
            .send()
            .await?;
    }
    Ok(handles.len())
}

struct ChildRun {
    seconds: f64,
    peak_rss_mib: f64,
    stdout: String,
    code: Option<i32>,
}

/// Runs the binary against the server, polling its peak RSS until it exits.
fn run_binary(endpoint: &str, args: &[&str]) -> BenchResult<ChildRun> {
    // sqsctl records its scans under the state directory: keep that out of the user's home.
    let state = tempfile::tempdir()?;
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .env_clear()
        .env("HOME", state.path())
        .env("XDG_STATE_HOME", state.path())
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .env("AWS_ENDPOINT_URL_SQS", endpoint)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = child.id();
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut out) = stdout {
            let _ = std::io::Read::read_to_string(&mut out, &mut text);
        }
        text
    });
    let mut peak = 0;
    let status = loop {
        peak = peak.max(peak_rss_kib(pid).unwrap_or(0));
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = started.elapsed().as_secs_f64();
    Ok(ChildRun {
        seconds,
        peak_rss_mib: peak as f64 / 1024.0,
        stdout: reader.join().unwrap_or_default(),
        code: status.code(),
    })
}

async fn depth(sqs: &Client, url: &str) -> BenchResult<(String, String)> {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessagesNotVisible)
        .send()
        .await?;
    let attrs = out.attributes.unwrap_or_default();
    let get = |name: QueueAttributeName| attrs.get(&name).cloned().unwrap_or_default();
    Ok((
        get(QueueAttributeName::ApproximateNumberOfMessages),
        get(QueueAttributeName::ApproximateNumberOfMessagesNotVisible),
    ))
}

/// The queue's messages as `receive` would export them, one enveloped record per line.
fn export_file(messages: usize, groups: usize) -> BenchResult<tempfile::NamedTempFile> {
    use std::io::Write;
    let mut file = tempfile::NamedTempFile::new()?;
    let mut out = std::io::BufWriter::new(file.as_file_mut());
    let sent = 1_795_000_000_000u64;
    for i in 0..messages {
        let record = sqsctl::message::MessageRecord {
            message_id: Some(format!("{:08x}-0000-4000-8000-{i:012x}", i)),
            group_id: Some(format!("customer-{}", i % groups)),
            dedup_id: Some(format!("order-{i}-v1")),
            attributes: [
                ("SentTimestamp".to_string(), (sent + i as u64).to_string()),
                ("ApproximateReceiveCount".to_string(), "1".to_string()),
            ]
            .into_iter()
            .collect(),
            ..sqsctl::message::MessageRecord::with_body(format!(
                "{{\"order\":{i},\"amount\":{}}}",
                i % 977
            ))
        };
        serde_json::to_writer(
            &mut out,
            &serde_json::json!({"type": "message", "data": record}),
        )?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    drop(out);
    Ok(file)
}

/// The baseline for `--input`: read and parse every line, nothing else.
fn parse_only(path: &std::path::Path) -> BenchResult<usize> {
    use std::io::BufRead;
    let reader = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut count = 0;
    for line in reader.lines() {
        if let sqsctl::message::ParsedLine::Message(_) = sqsctl::message::parse_record_line(&line?)?
        {
            count += 1;
        }
    }
    Ok(count)
}

async fn run() -> BenchResult<()> {
    let messages = env_count("SQSCTL_BENCH_MESSAGES", 100_000);
    let groups = env_count("SQSCTL_BENCH_GROUPS", 1_000).max(1);
    let (server, sqs) = start_server(ServerConfig::default())?;
    let endpoint = server.endpoint().to_string();
    let url = sqs
        .create_queue()
        .queue_name("bench-diagnose.fifo")
        .attributes(QueueAttributeName::FifoQueue, "true")
        .send()
        .await?
        .queue_url
        .unwrap_or_default();
    let filling = Instant::now();
    fill(&sqs, &url, messages, groups).await?;
    println!(
        "diagnose benchmark: FIFO queue of {messages} messages in {groups} groups on the local server \
         (filled in {:.1} s), {} CPUs",
        filling.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let started = Instant::now();
    let raw_seen = raw_scan(&sqs, &url).await?;
    let raw_seconds = started.elapsed().as_secs_f64();
    println!(
        "baseline, raw aws-sdk-sqs scan and release: {raw_seen} messages seen in {raw_seconds:.2} s"
    );

    for (label, args) in [
        (
            "sqsctl diagnose",
            vec!["diagnose", url.as_str(), "-o", "json"],
        ),
        (
            "sqsctl fifo groups",
            vec!["fifo", "groups", url.as_str(), "-o", "json"],
        ),
    ] {
        let run = run_binary(&endpoint, &args)?;
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap_or_default();
        let seen = report["scan"]["seen"].as_u64().unwrap_or(0);
        let totals = if report["groups"]["totals"].is_object() {
            &report["groups"]["totals"]
        } else {
            &report["totals"]
        };
        println!(
            "{label}: {seen} messages seen, {} groups, effective parallelism {}, exit {:?}; \
             {:.2} s ({:.2}x the baseline; target < {TARGET_SECONDS} s: {}), peak RSS {:.1} MiB \
             (target < {TARGET_RSS_MIB} MiB: {})",
            totals["distinct_groups"],
            totals["effective_parallelism"],
            run.code,
            run.seconds,
            run.seconds / raw_seconds,
            if run.seconds < TARGET_SECONDS {
                "met"
            } else {
                "MISSED"
            },
            run.peak_rss_mib,
            if run.peak_rss_mib < TARGET_RSS_MIB {
                "met"
            } else {
                "MISSED"
            },
        );
    }
    let (visible, in_flight) = depth(&sqs, &url).await?;
    println!("afterwards: {visible} visible, {in_flight} in flight (nothing consumed)");

    // The whole queue as an export: every message analyzed, not only the group heads.
    let export = export_file(messages, groups)?;
    let path = export.path().to_string_lossy().to_string();
    let started = Instant::now();
    let parsed = parse_only(export.path())?;
    let parse_seconds = started.elapsed().as_secs_f64();
    let run = run_binary(&endpoint, &["diagnose", "--input", &path, "-o", "json"])?;
    println!(
        "sqsctl diagnose --input of a {parsed}-message export: {:.2} s ({:.2}x parsing the file \
         alone in {parse_seconds:.2} s), peak RSS {:.1} MiB, exit {:?}",
        run.seconds,
        run.seconds / parse_seconds,
        run.peak_rss_mib,
        run.code
    );
    server.shutdown().await;
    Ok(())
}

fn main() -> BenchResult<()> {
    runtime()?.block_on(run())
}
