//! The everyday commands, timed end to end as a user runs them: the `sqsctl` binary as a child
//! process against the local server, which runs in this process.
//!
//! Run with `cargo bench --bench cli` (`SQSCTL_BENCH_ONLY=startup` for the start-up part alone). It
//! measures:
//! - start-up: `sqsctl --help`, `sqsctl --version` and one `sqsctl send` by queue URL and by name
//!   (wall and CPU time), against the SDK alone (this benchmark re-executed doing nothing, and
//!   sending one message from a client made in code) and `aws sqs send-message` from the AWS CLI
//!   (`.venv-awscli/bin/aws`, `SQSCTL_BENCH_AWS_CLI`, or `aws` on PATH; skipped with a note when
//!   there is none: `python3 -m venv .venv-awscli && .venv-awscli/bin/pip install awscli`);
//! - throughput: `send --jsonl` of `SQSCTL_BENCH_MESSAGES` records (default 100,000) and
//!   `receive --until-empty --delete` of as many, each as a share of the server's capacity for the
//!   same calls, measured with a raw concurrent aws-sdk-sqs loop in this run, in a process of its
//!   own like sqsctl's (and, for reference, inside this process next to the server);
//! - memory: peak RSS of both processes of `receive --delete | send --jsonl` moving
//!   `SQSCTL_BENCH_PIPE_MESSAGES` messages (default 1,000,000) between two queues;
//! - the server as a user starts it: `sqsctl local` as a process of its own, in memory and with
//!   `--data-dir`, sent `SQSCTL_BENCH_SERVER_MESSAGES` (default 300,000) 100-byte messages and
//!   drained of them by the raw loop in another process (`SQSCTL_BENCH_ONLY=server` runs this part
//!   alone; targets: sends at least 80,000 a second, 40,000 with `--data-dir`, receive + delete at
//!   least 40,000).
//!
//! Figures are printed as ratios against baselines measured in the same run, since the machine's
//! speed varies; the targets: one send at most 5 ms, --version at most 3 ms, --help under 5 ms,
//! throughput at least 80% of capacity, peak RSS under 64 MiB.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::DeleteMessageBatchRequestEntry;
use sqsctl::local::ServerConfig;

mod support;

#[path = "cli/server.rs"]
mod server;

use support::{
    BenchResult, children_cpu_seconds, client, env_count, peak_rss_kib, runtime, send_batches,
    sqsctl, start_server,
};

// The same allocator as the binary, so the server and the raw loop are not slowed by a slower one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const STARTUP_RUNS: usize = 30;
const AWS_CLI_RUNS: usize = 5;
const BODY_LEN: usize = 200;
/// Set in the environment of a raw loop run as a child process: "send" or "drain".
const RAW_CHILD_ENV: &str = "SQSCTL_BENCH_RAW_CHILD";
/// Alternating rounds of the raw loop and sqsctl in the throughput part.
const ROUNDS: usize = 2;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs a command `runs` times (after one warm-up run) and returns the median wall time.
fn time_runs(runs: usize, make: impl FnMut() -> Command) -> BenchResult<Duration> {
    Ok(time_runs_cpu(runs, make)?.0)
}

/// [`time_runs`] with the children's CPU time (user + system) per run beside it: the mean of the
/// runs, from the kernel's account of waited-for children (in clock ticks, so a mean over many
/// runs is finer than one run).
fn time_runs_cpu(
    runs: usize,
    mut make: impl FnMut() -> Command,
) -> BenchResult<(Duration, Option<Duration>)> {
    let mut samples = Vec::with_capacity(runs);
    let mut cpu_before = None;
    for i in 0..=runs {
        if i == 1 {
            // Where there is no /proc there is no figure (not a zero).
            cpu_before = Path::new("/proc/self/stat")
                .exists()
                .then(children_cpu_seconds);
        }
        let started = Instant::now();
        let output = make().output()?;
        let elapsed = started.elapsed();
        if !output.status.success() {
            return Err(format!(
                "command failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        if i > 0 {
            samples.push(elapsed);
        }
    }
    let cpu = cpu_before.map(|before| {
        Duration::from_secs_f64((children_cpu_seconds() - before).max(0.0)) / runs as u32
    });
    Ok((median(samples), cpu))
}

fn cpu_ms(cpu: Option<Duration>) -> String {
    cpu.map_or("n/a".to_string(), |cpu| format!("{:.2} ms", ms(cpu)))
}

fn aws_cli() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SQSCTL_BENCH_AWS_CLI") {
        return Some(PathBuf::from(path));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv-awscli/bin/aws");
    if venv.exists() {
        return Some(venv);
    }
    let found = Command::new("aws")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then(|| PathBuf::from("aws"))
}

fn startup(endpoint: &str, queue_url: &str, home: &Path) -> BenchResult<()> {
    println!(
        "\n== start-up (median wall of {STARTUP_RUNS} runs; CPU = user + system, mean per run) =="
    );
    let help = time_runs(STARTUP_RUNS, || {
        let mut cmd = sqsctl(endpoint, home);
        cmd.arg("--help");
        cmd
    })?;
    let (version, version_cpu) = time_runs_cpu(STARTUP_RUNS, || {
        let mut cmd = sqsctl(endpoint, home);
        cmd.arg("--version");
        cmd
    })?;
    let (by_url, by_url_cpu) = time_runs_cpu(STARTUP_RUNS, || {
        let mut cmd = sqsctl(endpoint, home);
        cmd.args(["send", queue_url, "hello"]);
        cmd
    })?;
    // The warm-up run looks the name up; the measured ones find its URL remembered.
    let (send, send_cpu) = time_runs_cpu(STARTUP_RUNS, || {
        let mut cmd = sqsctl(endpoint, home);
        cmd.args(["send", "bench-startup", "hello"]);
        cmd
    })?;
    println!(
        "sqsctl --help         {:>8.2} ms   (target < 5 ms: {})",
        ms(help),
        verdict(ms(help) < 5.0)
    );
    println!(
        "sqsctl --version      {:>8.2} ms   CPU {}   (target <= 3 ms: {})",
        ms(version),
        cpu_ms(version_cpu),
        verdict(ms(version) <= 3.0)
    );
    println!(
        "sqsctl send URL       {:>8.2} ms   CPU {}   ({:.1}x --version)",
        ms(by_url),
        cpu_ms(by_url_cpu),
        by_url.as_secs_f64() / version.as_secs_f64()
    );
    println!(
        "sqsctl send NAME      {:>8.2} ms   CPU {}   ({:.1}x --version; target <= 5 ms: {})",
        ms(send),
        cpu_ms(send_cpu),
        send.as_secs_f64() / version.as_secs_f64(),
        verdict(ms(send) <= 5.0)
    );
    // What the SDK alone costs for one send, above the start of a process that links it: the
    // least a send through the SDK adds to a start.
    let (start, start_cpu) = time_runs_cpu(STARTUP_RUNS, || {
        sdk_child("start", endpoint, queue_url, home).expect("this benchmark's path")
    })?;
    let (sdk_send, sdk_send_cpu) = time_runs_cpu(STARTUP_RUNS, || {
        sdk_child("sdk-send", endpoint, queue_url, home).expect("this benchmark's path")
    })?;
    let sdk_cost = sdk_send.saturating_sub(start);
    let ours = send.saturating_sub(version);
    println!(
        "SDK alone: start      {:>8.2} ms   CPU {}   (this benchmark's binary, doing nothing)",
        ms(start),
        cpu_ms(start_cpu)
    );
    println!(
        "SDK alone: send URL   {:>8.2} ms   CPU {}   ({:.2} ms above its start: a client made in code, one send_message)",
        ms(sdk_send),
        cpu_ms(sdk_send_cpu),
        ms(sdk_cost)
    );
    println!(
        "sqsctl send NAME is {:.2} ms above --version, {:.2}x the SDK's own; --version plus the SDK's cost would be {:.2}x --version (target for sqsctl: 1.3x)",
        ms(ours),
        ours.as_secs_f64() / sdk_cost.as_secs_f64().max(1e-6),
        (version + sdk_cost).as_secs_f64() / version.as_secs_f64()
    );
    let Some(aws) = aws_cli() else {
        println!(
            "aws sqs send-message  skipped: no AWS CLI found (python3 -m venv .venv-awscli && .venv-awscli/bin/pip install awscli, or set SQSCTL_BENCH_AWS_CLI)"
        );
        return Ok(());
    };
    let aws_help = time_runs(AWS_CLI_RUNS, || {
        let mut cmd = Command::new(&aws);
        cmd.args(["sqs", "send-message", "help"])
            .env("PAGER", "cat")
            .env("AWS_PAGER", "")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        cmd
    });
    let aws_send = time_runs(AWS_CLI_RUNS, || {
        let mut cmd = Command::new(&aws);
        cmd.args([
            "sqs",
            "send-message",
            "--endpoint-url",
            endpoint,
            "--queue-url",
            queue_url,
            "--message-body",
            "hello",
        ])
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_PAGER", "")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        cmd
    })?;
    if let Ok(aws_help) = aws_help {
        println!(
            "aws sqs send-message help {:>8.2} ms   (sqsctl --help is {:.0}x faster)",
            ms(aws_help),
            aws_help.as_secs_f64() / help.as_secs_f64()
        );
    }
    println!(
        "aws sqs send-message  {:>8.2} ms   (sqsctl send NAME is {:.1}x faster; median of {AWS_CLI_RUNS})",
        ms(aws_send),
        aws_send.as_secs_f64() / send.as_secs_f64()
    );
    Ok(())
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

/// Receives and batch-deletes until `total` messages are gone, from `concurrency` tasks; returns
/// messages per second.
async fn raw_drain(sqs: &Client, url: &str, total: usize, concurrency: usize) -> BenchResult<f64> {
    let left = Arc::new(AtomicUsize::new(total));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (sqs, url, left) = (sqs.clone(), url.to_string(), left.clone());
        workers.spawn(async move {
            while left.load(Ordering::SeqCst) > 0 {
                // The same request sqsctl makes: every system and message attribute, since a
                // message record carries them.
                let got = sqs
                    .receive_message()
                    .queue_url(&url)
                    .max_number_of_messages(10)
                    .visibility_timeout(300)
                    .message_system_attribute_names(
                        aws_sdk_sqs::types::MessageSystemAttributeName::All,
                    )
                    .message_attribute_names("All")
                    .send()
                    .await?;
                let messages = got.messages();
                if messages.is_empty() {
                    break;
                }
                let entries = messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        DeleteMessageBatchRequestEntry::builder()
                            .id(i.to_string())
                            .receipt_handle(m.receipt_handle().unwrap_or_default())
                            .build()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let out = sqs
                    .delete_message_batch()
                    .queue_url(&url)
                    .set_entries(Some(entries))
                    .send()
                    .await?;
                let n = out.successful().len();
                let _ = left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |l| {
                    Some(l.saturating_sub(n))
                });
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(total as f64 / started.elapsed().as_secs_f64())
}

async fn create(sqs: &Client, name: &str) -> BenchResult<String> {
    let out = sqs.create_queue().queue_name(name).send().await?;
    Ok(out.queue_url.unwrap_or_default())
}

async fn depth(sqs: &Client, url: &str) -> BenchResult<usize> {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
        .send()
        .await?;
    let attrs = out.attributes.unwrap_or_default();
    let get = |name: &str| -> usize {
        attrs
            .get(&aws_sdk_sqs::types::QueueAttributeName::from(name))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    Ok(get("ApproximateNumberOfMessages") + get("ApproximateNumberOfMessagesNotVisible"))
}

fn run_timed(mut cmd: Command) -> BenchResult<Duration> {
    let started = Instant::now();
    let output = cmd.output()?;
    let elapsed = started.elapsed();
    if !output.status.success() {
        return Err(format!(
            "sqsctl failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(elapsed)
}

fn throughput(
    runtime: &tokio::runtime::Runtime,
    sqs: &Client,
    endpoint: &str,
    home: &Path,
) -> BenchResult<()> {
    let total = env_count("SQSCTL_BENCH_MESSAGES", 100_000);
    println!("\n== throughput: {total} messages of {BODY_LEN} bytes ==");
    let raw_queue = runtime.block_on(create(sqs, "bench-raw"))?;
    let cli_queue = runtime.block_on(create(sqs, "bench-cli"))?;

    let input = home.join("records.jsonl");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&input)?);
        let body = "x".repeat(BODY_LEN - 8);
        for i in 0..total {
            writeln!(file, "{{\"body\":\"{i:08}{body}\"}}")?;
        }
        file.flush()?;
    }
    // Capacity is the best of a few concurrency levels of a raw SDK loop, run as its own process
    // (this benchmark re-executed), as sqsctl is: both pay for the same process boundary and
    // compete with the server for the same CPUs. The same loop inside this process, next to the
    // server, is printed for reference. The machine is shared, so the loops and sqsctl run in
    // alternating rounds and each keeps its best round.
    let mut send_capacity: f64 = 0.0;
    let mut drain_capacity: f64 = 0.0;
    let mut send_rate: f64 = 0.0;
    let mut drain_rate: f64 = 0.0;
    for round in 1..=ROUNDS {
        for concurrency in [8, 16, 32] {
            let sent = raw_child("send", endpoint, &raw_queue, total, concurrency, BODY_LEN)?;
            let drained = raw_child("drain", endpoint, &raw_queue, total, concurrency, BODY_LEN)?;
            let sent_here =
                runtime.block_on(send_batches(sqs, &raw_queue, total, BODY_LEN, concurrency))?;
            let drained_here = runtime.block_on(raw_drain(sqs, &raw_queue, total, concurrency))?;
            println!(
                "round {round}: raw SDK loop, {concurrency:>2} in flight: send {sent:>7.0} msg/s, receive+delete {drained:>7.0} msg/s (inside the server's process: {sent_here:>7.0}, {drained_here:>7.0})"
            );
            send_capacity = send_capacity.max(sent);
            drain_capacity = drain_capacity.max(drained);
        }
        let mut cmd = sqsctl(endpoint, home);
        cmd.args(["send", "bench-cli", "--jsonl"])
            .stdin(std::fs::File::open(&input)?);
        let send_time = run_timed(cmd)?;
        let sent = runtime.block_on(depth(sqs, &cli_queue))?;
        if sent != total {
            return Err(format!("send --jsonl left {sent} messages, expected {total}").into());
        }
        let mut cmd = sqsctl(endpoint, home);
        cmd.args(["receive", "bench-cli", "--until-empty", "--delete", "--yes"]);
        let drain_time = run_timed(cmd)?;
        let left = runtime.block_on(depth(sqs, &cli_queue))?;
        if left != 0 {
            return Err(format!("receive --until-empty --delete left {left} messages").into());
        }
        let (sent, drained) = (
            total as f64 / send_time.as_secs_f64(),
            total as f64 / drain_time.as_secs_f64(),
        );
        println!(
            "round {round}: sqsctl:                    send {sent:>7.0} msg/s, receive+delete {drained:>7.0} msg/s"
        );
        send_rate = send_rate.max(sent);
        drain_rate = drain_rate.max(drained);
    }
    let send_ratio = send_rate / send_capacity;
    let drain_ratio = drain_rate / drain_capacity;
    println!(
        "sqsctl send --jsonl:                   {send_rate:>9.0} msg/s = {:>5.1}% of capacity ({send_capacity:.0}) (target >= 80%: {})",
        send_ratio * 100.0,
        verdict(send_ratio >= 0.8)
    );
    println!(
        "sqsctl receive --until-empty --delete: {drain_rate:>9.0} msg/s = {:>5.1}% of capacity ({drain_capacity:.0}) (target >= 80%: {})",
        drain_ratio * 100.0,
        verdict(drain_ratio >= 0.8)
    );
    Ok(())
}

fn memory(
    runtime: &tokio::runtime::Runtime,
    sqs: &Client,
    endpoint: &str,
    home: &Path,
) -> BenchResult<()> {
    let total = env_count("SQSCTL_BENCH_PIPE_MESSAGES", 1_000_000);
    println!("\n== memory: receive --delete | send --jsonl of {total} messages ==");
    let from = runtime.block_on(create(sqs, "bench-pipe-from"))?;
    let to = runtime.block_on(create(sqs, "bench-pipe-to"))?;
    let fill_started = Instant::now();
    runtime.block_on(send_batches(sqs, &from, total, BODY_LEN, 32))?;
    println!(
        "filled the source queue in {:.1} s",
        fill_started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let mut receiver = sqsctl(endpoint, home);
    receiver
        .args([
            "receive",
            "bench-pipe-from",
            "--until-empty",
            "--delete",
            "--yes",
        ])
        .stdout(Stdio::piped());
    let mut receiver = receiver.spawn()?;
    let pipe = receiver.stdout.take().ok_or("no stdout")?;
    let mut sender = sqsctl(endpoint, home);
    sender
        .args(["send", "bench-pipe-to", "--jsonl"])
        .stdin(pipe);
    let mut sender = sender.spawn()?;
    let (receiver_pid, sender_pid) = (receiver.id(), sender.id());
    let (mut receiver_peak, mut sender_peak) = (0u64, 0u64);
    loop {
        receiver_peak = receiver_peak.max(peak_rss_kib(receiver_pid).unwrap_or(0));
        sender_peak = sender_peak.max(peak_rss_kib(sender_pid).unwrap_or(0));
        if let Some(status) = sender.try_wait()? {
            if !status.success() {
                return Err(format!("send --jsonl failed: {status}").into());
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = receiver.wait()?;
    if !status.success() {
        return Err(format!("receive failed: {status}").into());
    }
    let elapsed = started.elapsed();
    let moved = runtime.block_on(depth(sqs, &to))?;
    let left = runtime.block_on(depth(sqs, &from))?;
    let peak = receiver_peak.max(sender_peak) as f64 / 1024.0;
    println!(
        "moved {moved} of {total} in {:.1} s ({:.0} msg/s), {left} left in the source",
        elapsed.as_secs_f64(),
        moved as f64 / elapsed.as_secs_f64()
    );
    println!(
        "peak RSS: receive {:.1} MiB, send {:.1} MiB (target < 64 MiB: {})",
        receiver_peak as f64 / 1024.0,
        sender_peak as f64 / 1024.0,
        verdict(peak < 64.0)
    );
    Ok(())
}

/// This benchmark re-executed as a baseline of one send ([`raw_child_main`]'s `start` or
/// `sdk-send`), in the environment sqsctl gets.
fn sdk_child(mode: &str, endpoint: &str, url: &str, home: &Path) -> BenchResult<Command> {
    let cmd = sqsctl(endpoint, home);
    let mut child = Command::new(std::env::current_exe()?);
    child.env_clear();
    for (name, value) in cmd.get_envs() {
        if let Some(value) = value {
            child.env(name, value);
        }
    }
    child
        .env(RAW_CHILD_ENV, mode)
        .env("SQSCTL_BENCH_RAW_ENDPOINT", endpoint)
        .env("SQSCTL_BENCH_RAW_URL", url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    Ok(child)
}

/// Runs a raw loop in a child process (this benchmark, re-executed) and returns its messages per
/// second, timed from the spawn to the exit as sqsctl is.
fn raw_child(
    mode: &str,
    endpoint: &str,
    url: &str,
    total: usize,
    concurrency: usize,
    body_len: usize,
) -> BenchResult<f64> {
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.env(RAW_CHILD_ENV, mode)
        .env("SQSCTL_BENCH_RAW_ENDPOINT", endpoint)
        .env("SQSCTL_BENCH_RAW_URL", url)
        .env("SQSCTL_BENCH_RAW_TOTAL", total.to_string())
        .env("SQSCTL_BENCH_RAW_CONCURRENCY", concurrency.to_string())
        .env("SQSCTL_BENCH_RAW_BODY", body_len.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let elapsed = run_timed(cmd)?;
    Ok(total as f64 / elapsed.as_secs_f64())
}

/// The child side of [`raw_child`]: a runtime like sqsctl's (multi-threaded, one worker per CPU).
/// Also the two baselines of a one-message send ([`sdk_child`]): `start` (nothing) and `sdk-send`.
fn raw_child_main(mode: &str) -> BenchResult<()> {
    let var = |name: &str| std::env::var(name).map_err(|_| format!("{name} is not set"));
    match mode {
        "start" => return Ok(()),
        "sdk-send" => {
            // As the SDK's own examples send one message: a client made in code (key, region,
            // endpoint, the HTTP client without TLS), a runtime on the main thread.
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let sqs = client(&var("SQSCTL_BENCH_RAW_ENDPOINT")?);
            let url = var("SQSCTL_BENCH_RAW_URL")?;
            runtime.block_on(
                sqs.send_message()
                    .queue_url(url)
                    .message_body("hello")
                    .send(),
            )?;
            return Ok(());
        }
        _ => {}
    }
    let endpoint = var("SQSCTL_BENCH_RAW_ENDPOINT")?;
    let url = var("SQSCTL_BENCH_RAW_URL")?;
    let total: usize = var("SQSCTL_BENCH_RAW_TOTAL")?.parse()?;
    let concurrency: usize = var("SQSCTL_BENCH_RAW_CONCURRENCY")?.parse()?;
    let body_len: usize = var("SQSCTL_BENCH_RAW_BODY")?.parse()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let sqs = client(&endpoint);
    match mode {
        "send" => runtime.block_on(send_batches(&sqs, &url, total, body_len, concurrency))?,
        _ => runtime.block_on(raw_drain(&sqs, &url, total, concurrency))?,
    };
    Ok(())
}

fn main() -> BenchResult<()> {
    if let Ok(mode) = std::env::var(RAW_CHILD_ENV) {
        return raw_child_main(&mode);
    }
    // `cargo bench` passes --bench; a filter argument is not supported.
    let runtime = runtime()?;
    let home = tempfile::tempdir()?;
    let only = std::env::var("SQSCTL_BENCH_ONLY").ok();
    if only.as_deref() == Some("server") {
        return server::server_process(&runtime, home.path());
    }
    let (server, sqs) = start_server(ServerConfig::default())?;
    let endpoint = server.endpoint().to_string();
    let startup_url = runtime.block_on(create(&sqs, "bench-startup"))?;
    println!("sqsctl CLI benchmark against the local server at {endpoint}");
    startup(&endpoint, &startup_url, home.path())?;
    // `SQSCTL_BENCH_ONLY=startup` stops here.
    if only.as_deref() != Some("startup") {
        throughput(&runtime, &sqs, &endpoint, home.path())?;
        memory(&runtime, &sqs, &endpoint, home.path())?;
    }
    runtime.block_on(server.shutdown());
    if only.is_none() {
        server::server_process(&runtime, home.path())?;
    }
    Ok(())
}
