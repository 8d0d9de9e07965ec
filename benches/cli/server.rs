//! `sqsctl local` as a user starts it: the binary as a process of its own, driven by the raw SDK
//! loop as another process (this benchmark re-executed), the two sharing the machine's CPUs as a
//! service and its tests do. Sends, then receive + delete, of 100-byte bodies, in memory and with
//! `--data-dir`; each side's CPU per message is read from the kernel's account of the processes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::support::{BenchResult, children_cpu_seconds, client, env_count, process_cpu_seconds};
use super::{create, raw_child, verdict};

/// Body length of this part: the size the targets are set for.
const BODY: usize = 100;
/// Requests in flight from the raw loop, as in the server's own benchmark.
const IN_FLIGHT: usize = 32;

/// A `sqsctl local` process on an ephemeral port; stopped when dropped.
struct LocalProcess {
    child: Child,
    endpoint: String,
}

impl LocalProcess {
    fn start(extra: &[&str]) -> BenchResult<Self> {
        // Another build (one with another allocator, say) can be measured in its place.
        let binary = std::env::var_os("SQSCTL_BENCH_SERVER_BINARY")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_sqsctl").into());
        let mut child = Command::new(binary)
            .args(["local", "--bind", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        // Its first line is `export AWS_ENDPOINT_URL_SQS=<endpoint>`.
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            BufReader::new(stdout).read_line(&mut line)?;
        }
        let endpoint = line
            .trim()
            .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
            .map(str::to_string);
        let Some(endpoint) = endpoint else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("sqsctl local did not print its endpoint: {line:?}").into());
        };
        Ok(LocalProcess { child, endpoint })
    }

    fn cpu_seconds(&self) -> f64 {
        process_cpu_seconds(self.child.id())
    }
}

impl Drop for LocalProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One workload of the raw loop against `server`: messages per second, and what each side's CPU
/// per message says.
fn measure(
    server: &LocalProcess,
    mode: &str,
    url: &str,
    total: usize,
) -> BenchResult<(f64, String)> {
    let (server_before, client_before) = (server.cpu_seconds(), children_cpu_seconds());
    let rate = raw_child(mode, &server.endpoint, url, total, IN_FLIGHT, BODY)?;
    let per_message = |seconds: f64| seconds * 1e6 / total as f64;
    let server_us = per_message(server.cpu_seconds() - server_before);
    let client_us = per_message(children_cpu_seconds() - client_before);
    // The two processes share the CPUs: the server's own ceiling is what one CPU gives it alone.
    Ok((
        rate,
        format!(
            "CPU per message: server {server_us:.1} us ({:.0} msg/s per CPU), client {client_us:.1} us",
            1e6 / server_us.max(0.01)
        ),
    ))
}

pub(super) fn server_process(runtime: &tokio::runtime::Runtime, home: &Path) -> BenchResult<()> {
    let total = env_count("SQSCTL_BENCH_SERVER_MESSAGES", 300_000);
    println!(
        "\n== sqsctl local as its own process: {total} messages of {BODY} bytes, raw SDK loop in another process, {IN_FLIGHT} requests in flight =="
    );
    let data_dir = home.join("server-data");
    let data_dir = data_dir.to_string_lossy();
    let setups: [(&str, Vec<&str>, f64, Option<f64>); 2] = [
        ("in memory", vec![], 80_000.0, Some(40_000.0)),
        ("--data-dir", vec!["--data-dir", &data_dir], 40_000.0, None),
    ];
    for (name, args, send_target, drain_target) in setups {
        let server = LocalProcess::start(&args)?;
        let sqs = client(&server.endpoint);
        let url = runtime.block_on(create(&sqs, "bench-server"))?;
        let (sent, cpu) = measure(&server, "send", &url, total)?;
        println!(
            "{name:<10} send-batch:     {sent:>8.0} msg/s (target >= {send_target:.0}: {}); {cpu}",
            verdict(sent >= send_target)
        );
        let (drained, cpu) = measure(&server, "drain", &url, total)?;
        let target = drain_target.map_or(String::new(), |target| {
            format!(" (target >= {target:.0}: {})", verdict(drained >= target))
        });
        println!("{name:<10} receive+delete: {drained:>8.0} msg/s{target}; {cpu}");
    }
    Ok(())
}
