//! What every integration test stands on: a hermetic test environment (an in-process local server
//! on an ephemeral port, a client for setup and assertions, and the real `sqsctl` binary run in a
//! cleared environment that points at the server), the SDK client configured in code, the
//! LocalStack switch ([`localstack`]), the pseudo-terminal runner ([`pty`]) and snapshots of
//! what people read ([`snapshot`]). Nothing from the developer's own AWS configuration can leak
//! in.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use sqsctl_core::client::Delete;
use std::collections::BTreeMap;
use std::future::Future;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use sqsctl::client::{QueueRef, Sqs};
use sqsctl::local::{Realism, Server, ServerConfig};

pub const BIN: &str = env!("CARGO_BIN_EXE_sqsctl");

pub struct TestEnv {
    runtime: tokio::runtime::Runtime,
    server: Option<Server>,
    sqs: Sqs,
    home: tempfile::TempDir,
    /// The server is `--like-sqs`: the test's own reads wait out lagging counts and sampled
    /// short polls.
    like_sqs: bool,
    count_lag: std::time::Duration,
}

/// What a run of the binary gave.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn from_output(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// The stdout JSON Lines records as values.
    pub fn records(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
            .collect()
    }

    /// The `data` of every record of the given type.
    pub fn records_of(&self, kind: &str) -> Vec<serde_json::Value> {
        self.records()
            .into_iter()
            .filter(|r| r["type"] == kind)
            .map(|r| r["data"].clone())
            .collect()
    }

    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

impl TestEnv {
    /// A server whose inspection endpoints are off: sqsctl's readers receive, raising receive
    /// counts, as they must on SQS. Most tests are about how sqsctl behaves on SQS, so with
    /// [`LIKE_SQS_VAR`] set this server is also like SQS where SQS is not exact (see
    /// [`like_sqs_seed`]); a test that needs the exact server says why with [`TestEnv::exact`].
    pub fn start() -> TestEnv {
        match like_sqs_seed() {
            Some(seed) => TestEnv::like_sqs(seed),
            None => TestEnv::exact_server(),
        }
    }

    /// The exact server whatever [`LIKE_SQS_VAR`] says, for a test that by nature needs it (it
    /// asserts send order, the exact answer of a short poll, an exact count at once...): `why`
    /// names that need, so that no test leaves the like-SQS pass silently.
    pub fn exact(why: &str) -> TestEnv {
        assert!(
            !why.trim().is_empty(),
            "say why the test needs the exact server"
        );
        TestEnv::exact_server()
    }

    /// As [`TestEnv::start`], except that a `--like-sqs` server delivers each message once: for a
    /// test that asserts each run of a message by the receive count it was delivered with (`why`),
    /// which a second delivery by SQS changes. Short polls still sample, order and counts are still
    /// approximate.
    pub fn delivered_once(why: &str) -> TestEnv {
        assert!(
            !why.trim().is_empty(),
            "say why the test needs each message delivered once"
        );
        match like_sqs_seed() {
            Some(seed) => {
                eprintln!(
                    "local server: --like-sqs --duplicate-rate 0 --seed {seed} (repeat with \
                     {LIKE_SQS_VAR}={seed})"
                );
                TestEnv::start_with(ServerConfig {
                    inspection: false,
                    realism: Realism {
                        duplicate_rate: 0.0,
                        ..Realism::LIKE_SQS
                    },
                    seed: Some(seed),
                    ..ServerConfig::default()
                })
            }
            None => TestEnv::exact_server(),
        }
    }

    fn exact_server() -> TestEnv {
        TestEnv::start_with(ServerConfig {
            inspection: false,
            ..ServerConfig::default()
        })
    }

    /// A server as `sqsctl local` starts by default, inspection endpoints on.
    pub fn with_inspection() -> TestEnv {
        TestEnv::start_with(ServerConfig::default())
    }

    /// A server as `sqsctl local --like-sqs --seed SEED --no-inspection` starts: short polls
    /// sample, standard queues deliver some messages twice and out of order, counts lag.
    pub fn like_sqs(seed: u64) -> TestEnv {
        // Captured by the test harness and shown with a failure, so that it can be repeated.
        eprintln!("local server: --like-sqs --seed {seed} (repeat with {LIKE_SQS_VAR}={seed})");
        TestEnv::start_with(ServerConfig {
            inspection: false,
            realism: Realism::LIKE_SQS,
            seed: Some(seed),
            ..ServerConfig::default()
        })
    }

    pub fn start_with(config: ServerConfig) -> TestEnv {
        let like_sqs = !config.realism.is_exact();
        let count_lag = config.realism.count_lag;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = Server::start(config).expect("local server starts");
        let sqs = Sqs::from_sdk(sdk_client(server.endpoint()), "us-east-1");
        TestEnv {
            runtime,
            server: Some(server),
            sqs,
            home: tempfile::tempdir().unwrap(),
            like_sqs,
            count_lag,
        }
    }

    pub fn endpoint(&self) -> &str {
        self.server().endpoint()
    }

    pub fn server(&self) -> &Server {
        self.server.as_ref().expect("server running")
    }

    pub fn sqs(&self) -> &Sqs {
        &self.sqs
    }

    /// A private home directory for the binary (state files such as redrive journals land here).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// The queue's ARN, from its attributes.
    pub fn arn(&self, queue: &QueueRef) -> String {
        self.block_on(self.sqs().attributes(queue))
            .unwrap()
            .arn()
            .unwrap()
            .to_string()
    }

    pub fn create_queue(&self, name: &str, attributes: &[(&str, &str)]) -> QueueRef {
        let attributes: BTreeMap<String, String> = attributes
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.block_on(self.sqs.create_queue(name, attributes))
            .expect("queue created")
    }

    /// The binary with a cleared environment that points at the local server with test credentials.
    pub fn cmd(&self) -> Command {
        cmd_at(self.endpoint(), self.home())
    }

    pub fn run(&self, args: &[&str]) -> Run {
        let output = self
            .cmd()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("binary runs");
        Run::from_output(output)
    }

    pub fn run_stdin(&self, args: &[&str], stdin: &str) -> Run {
        let mut cmd = self.cmd();
        cmd.args(args);
        run_with_stdin(cmd, stdin)
    }

    /// Starts the binary with `args`, stdin empty and stdout and stderr piped to the caller.
    pub fn spawn_piped(&self, args: &[&str]) -> std::process::Child {
        self.cmd()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("binary starts")
    }

    /// Runs the binary as if on a terminal (tables, prompts), with `stdin` as the typed answers.
    pub fn run_tty(&self, args: &[&str], stdin: &str) -> Run {
        let mut cmd = self.cmd();
        cmd.env("SQSCTL_ASSUME_TTY", "1").args(args);
        run_with_stdin(cmd, stdin)
    }

    /// Runs the binary with `args` (output discarded) and kills it with SIGKILL, as `kill -9`
    /// would, after `after`. With `--journal FILE` among `args`, `after` counts from when the
    /// journal appears, not from the start of the process: on a busy machine (tests run side by
    /// side) starting up can take longer than `after`, and a run killed before it began is not
    /// the run these tests mean to interrupt.
    pub fn kill_9_after(&self, args: &[&str], after: std::time::Duration) {
        let journal = args
            .windows(2)
            .find(|pair| pair[0] == "--journal")
            .map(|pair| PathBuf::from(pair[1]));
        let mut child = self
            .cmd()
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary runs");
        if let Some(journal) = journal {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while !journal.exists()
                && std::time::Instant::now() < deadline
                && child.try_wait().expect("child status").is_none()
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        std::thread::sleep(after);
        child.kill().expect("SIGKILL");
        child.wait().expect("killed");
    }

    /// Whether the server is `--like-sqs`.
    pub fn is_like_sqs(&self) -> bool {
        self.like_sqs
    }

    /// Every message body in a queue, drained (received and deleted) through the client.
    pub fn drain_bodies(&self, queue: &QueueRef) -> Vec<String> {
        self.drain(queue).into_iter().map(|m| m.body).collect()
    }

    /// Every message in a queue, drained (received and deleted) through the client, once per
    /// message id: on a `--like-sqs` server a message delivered twice is counted once, and only a
    /// long poll that brings nothing ends the drain (a short poll samples).
    pub fn drain(&self, queue: &QueueRef) -> Vec<sqsctl::message::MessageRecord> {
        self.block_on(async {
            let mut messages = Vec::new();
            let mut seen = std::collections::HashSet::new();
            loop {
                let options = sqsctl::client::ReceiveOptions {
                    max_messages: 10,
                    wait_seconds: Some(if self.like_sqs { 1 } else { 0 }),
                    visibility_timeout: Some(60),
                };
                let batch = self.sqs.receive(queue, options).await.expect("receive");
                if batch.is_empty() {
                    break;
                }
                let handles: Vec<&str> = batch
                    .iter()
                    .filter_map(|m| m.receipt_handle.as_deref())
                    .collect();
                self.sqs
                    .batch(Delete, queue, &handles)
                    .await
                    .expect("delete");
                messages.extend(batch.into_iter().filter(|m| {
                    m.message_id
                        .as_ref()
                        .is_none_or(|id| seen.insert(id.clone()))
                }));
            }
            messages
        })
    }

    /// Sends `records` through the client in batches of 10, each entry confirmed.
    pub fn send(&self, queue: &QueueRef, records: Vec<sqsctl::message::MessageRecord>) {
        self.block_on(async {
            for chunk in records.chunks(10) {
                let outcomes = self.sqs.send_batch(queue, chunk).await.unwrap();
                assert!(outcomes.iter().all(|o| o.is_ok()), "{outcomes:?}");
            }
        });
    }

    /// Visible + in flight + delayed, as the queue's attributes report it; on a `--like-sqs`
    /// server once the counts have caught up (they lag by up to its count lag).
    pub fn depth(&self, queue: &QueueRef) -> u64 {
        self.settle_counts();
        self.block_on(self.sqs.attributes(queue))
            .expect("attributes")
            .total()
    }
}

impl TestEnv {
    /// The queue's attributes, on a `--like-sqs` server once its counts have caught up.
    pub fn settled_attributes(&self, queue: &QueueRef) -> sqsctl::client::QueueAttributes {
        self.settle_counts();
        self.block_on(self.sqs.attributes(queue))
            .expect("attributes")
    }

    /// How far the server's `Approximate*` counts lag behind (zero on the exact server).
    pub fn count_lag(&self) -> std::time::Duration {
        self.count_lag
    }

    /// On a `--like-sqs` server, waits until the next `GetQueueAttributes` reads counts taken
    /// afresh.
    pub fn settle_counts(&self) {
        if !self.count_lag.is_zero() {
            std::thread::sleep(self.count_lag + std::time::Duration::from_millis(100));
        }
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }
}

/// Set to a seed (`SQSCTL_TEST_LIKE_SQS=7`) or to `random`, it makes [`TestEnv::start`] start a
/// `--like-sqs` server with that seed (a random one is drawn per test and printed with its
/// output). Unset or empty, the server is exact.
pub const LIKE_SQS_VAR: &str = "SQSCTL_TEST_LIKE_SQS";

/// The seed [`LIKE_SQS_VAR`] asks for, if any.
pub fn like_sqs_seed() -> Option<u64> {
    let value = std::env::var(LIKE_SQS_VAR).ok()?;
    match value.trim() {
        "" => None,
        "random" => {
            // A fresh seed per test: std's hasher keys are random per process and per instance.
            use std::hash::BuildHasher;
            Some(
                std::collections::hash_map::RandomState::new()
                    .hash_one(std::thread::current().id()),
            )
        }
        seed => Some(seed.parse().unwrap_or_else(|_| {
            panic!("{LIKE_SQS_VAR} must be a seed (an unsigned integer) or `random`, got {seed:?}")
        })),
    }
}

/// The SDK configuration for `endpoint`, in code only: fixed test credentials and region.
pub fn sdk_config(endpoint: &str) -> aws_sdk_sqs::Config {
    aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(sqsctl::client::http_client(endpoint.starts_with("http://")))
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(endpoint)
        .build()
}

/// An SDK client for `endpoint` (see [`sdk_config`]).
pub fn sdk_client(endpoint: &str) -> aws_sdk_sqs::Client {
    aws_sdk_sqs::Client::from_conf(sdk_config(endpoint))
}

/// `prefix` plus a random suffix, a valid queue name as long as `prefix` is one and is at most
/// 60 characters.
pub fn unique_name(prefix: &str) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("{prefix}-{}", &id[..12])
}

/// The binary in an environment cleared of everything but `PATH`, with `home` as its home and
/// configuration directories: no credentials, no region, no endpoint.
pub fn cleared_cmd(home: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("AWS_CONFIG_FILE", home.join("aws-config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", home.join("aws-credentials"))
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("NO_COLOR", "1");
    cmd
}

/// [`cleared_cmd`] pointed at `endpoint` with test credentials and region, as a user's environment
/// would point it.
pub fn cmd_at(endpoint: &str, home: &Path) -> Command {
    let mut cmd = cleared_cmd(home);
    cmd.env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ENDPOINT_URL_SQS", endpoint);
    cmd
}

/// Presses Ctrl-C for a process: sends it SIGINT.
pub fn sigint(pid: u32) {
    signal(pid, "INT");
}

/// Sends a process the signal `name` (`TERM`, `HUP`, `INT`), as `kill -NAME PID` does.
pub fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "SIG{name} to {pid}");
}

/// A duration from `min` up to `min + spread`, different on each call: a random moment.
pub fn random_delay(min_ms: u64, spread_ms: u64) -> std::time::Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::time::Duration::from_millis(min_ms + u64::from(nanos) % spread_ms.max(1))
}

/// A path inside the repository.
pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Runs `cmd` with `stdin` written to it from another thread, so a large input cannot deadlock.
pub fn run_with_stdin(mut cmd: Command, stdin: &str) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("binary finishes");
    let _ = writer.join();
    Run::from_output(output)
}

pub mod localstack;
pub mod pty;
pub mod snapshot;

pub use localstack::localstack;
