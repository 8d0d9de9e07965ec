//! `sqsctl local` through the real binary: what it refuses on its command line, what it prints,
//! the browser checks and the regions of the server it starts, and the faults it names (the
//! server's own behaviour is tested in its crate). `--data-dir` and `--init` are in `persist`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

mod container;
mod localstack_mode;
mod persist;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use support::TestEnv;
use support::snapshot::assert_snapshot;

#[test]
fn absurd_limits_and_origins_are_usage_errors() {
    let env = TestEnv::start();
    let mut errors = String::new();
    for args in [
        &["--latency", "99999999999999d"][..],
        &["--latency", "301s"],
        &["--max-bytes", "0"],
        &["--max-in-flight", "0"],
        &["--allow-origin", "localhost:3000"],
        &["--allow-origin", "http://localhost:3000/app"],
        &["--region", "mars"],
        &["--like-sqs", "--short-poll-sample", "0"],
        &["--duplicate-rate", "1.5"],
        &["--fault-rate=-0.1"],
        &["--entry-fault-rate", "often"],
        &["--reorder-window", "0"],
        &["--count-lag", "6m"],
    ] {
        let run = env.run(&[&["local", "--bind", "127.0.0.1:0"], args].concat());
        run.assert_code(2);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        errors.push_str(&format!(
            "$ sqsctl local {}\n{}",
            args.join(" "),
            run.stderr
        ));
    }
    assert_snapshot!(errors);
}

/// One HTTP/1.1 exchange with the server at `endpoint` (`http://host:port`).
fn exchange(endpoint: &str, headers: &str) -> String {
    let address = endpoint.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let body = "{}";
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn allowed_origins_are_answered_and_other_pages_refused() {
    let env = TestEnv::start();
    let mut child = env.spawn_piped(&[
        "local",
        "--bind",
        "127.0.0.1:0",
        "--allow-origin",
        "http://localhost:3000/",
        "--allow-origin",
        "https://app.example",
    ]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let endpoint = line
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();

    let sdk = exchange(&endpoint, "");
    assert!(sdk.starts_with("HTTP/1.1 200"), "{sdk}");
    let allowed = exchange(&endpoint, "Origin: http://localhost:3000\r\n");
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    assert!(allowed.contains("access-control-allow-origin: http://localhost:3000"));
    let second = exchange(&endpoint, "Origin: https://app.example\r\n");
    assert!(second.starts_with("HTTP/1.1 200"), "{second}");
    let other = exchange(&endpoint, "Origin: http://localhost:8080\r\n");
    assert!(other.starts_with("HTTP/1.1 403"), "{other}");
    assert!(
        other.contains("--allow-origin http://localhost:8080"),
        "{other}"
    );

    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("answering web pages of http://localhost:3000, https://app.example\n"),
        "{stderr}"
    );
}

/// A `sqsctl local` started for a test, and its stdout.
struct Local {
    child: std::process::Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Local {
    /// `sqsctl local` on a free port, started by `cmd` (an environment of the caller's choosing),
    /// and the first `lines` lines of its stdout once it is ready.
    fn start(mut cmd: Command, args: &[&str], lines: usize) -> (Local, String) {
        let mut child = cmd
            .args([&["local", "--bind", "127.0.0.1:0"][..], args].concat())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut printed = String::new();
        for _ in 0..lines {
            stdout.read_line(&mut printed).unwrap();
        }
        (Local { child, stdout }, printed)
    }

    /// Stops it with Ctrl-C: the rest of its stdout, and its stderr.
    fn stop(self) -> (String, String) {
        self.stop_with("INT", 130)
    }

    /// Stops it with the signal `name` (`INT`, `TERM`), expecting the exit code `code`: the
    /// rest of its stdout, and its stderr.
    fn stop_with(mut self, name: &str, code: i32) -> (String, String) {
        support::signal(self.child.id(), name);
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let output = self.child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(code), "{stderr}");
        (rest, stderr)
    }
}

#[test]
fn the_printed_environment_is_all_a_shell_needs() {
    let home = tempfile::tempdir().unwrap();
    let (local, printed) = Local::start(support::cleared_cmd(home.path()), &[], 5);
    assert_snapshot!(printed);

    // A shell with nothing of AWS: no variables, an empty home.
    let env_file = home.path().join("local.env");
    std::fs::write(&env_file, &printed).unwrap();
    let empty_home = tempfile::tempdir().unwrap();
    let shell = Command::new("sh")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", empty_home.path())
        .args([
            "-c",
            r#"eval "$(cat "$1")" && "$0" queue create from-shell >/dev/null && "$0" queues -o text --query '[].name'"#,
            support::BIN,
        ])
        .arg(&env_file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let run = support::Run::from_output(shell);
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), "from-shell", "{}", run.stderr);
    let (rest, _) = local.stop();
    assert!(rest.is_empty(), "{rest}");
}

#[test]
fn credentials_of_the_environment_are_left_alone_and_never_printed() {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = support::cleared_cmd(home.path());
    cmd.env("AWS_ACCESS_KEY_ID", "AKIAREALKEYEXAMPLE")
        .env("AWS_SECRET_ACCESS_KEY", "real-secret-example");
    let (local, first) = Local::start(cmd, &["--region", "eu-west-1"], 1);
    let (rest, stderr) = local.stop();
    let printed = first + &rest;
    assert!(
        !printed.contains("AKIA") && !stderr.contains("AKIA") && !printed.contains("real-secret"),
        "{printed}{stderr}"
    );
    assert_snapshot!(printed);
    assert!(
        stderr.contains("(default region eu-west-1, account 000000000000)"),
        "{stderr}"
    );
}

#[test]
fn like_sqs_says_what_it_does_and_how_to_repeat_it() {
    let home = tempfile::tempdir().unwrap();
    let args = ["--like-sqs", "--seed", "7", "--duplicate-rate", "0"];
    let (local, _) = Local::start(support::cleared_cmd(home.path()), &args, 5);
    let (_, stderr) = local.stop();
    let line = stderr
        .lines()
        .find(|l| l.starts_with("behaving like SQS"))
        .unwrap_or_else(|| panic!("no realism line in:\n{stderr}"));
    assert_snapshot!(line);
}

#[test]
fn the_local_server_keeps_regions_apart() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let eu = ["--region", "eu-west-1"];
    env.run(&[&eu[..], &["queue", "create", "orders"]].concat())
        .assert_code(0);
    env.run(&[&eu[..], &["queue", "create", "refunds"]].concat())
        .assert_code(0);
    env.run(&[&eu[..], &["send", "refunds", "r1"]].concat())
        .assert_code(0);
    let names = |run: &support::Run| -> Vec<String> {
        run.assert_code(0);
        run.records_of("queue")
            .iter()
            .map(|r| format!("{} {}", r["name"].as_str().unwrap(), r["visible"]))
            .collect()
    };
    assert_eq!(names(&env.run(&["queues"])), ["orders 0"]);
    assert_eq!(
        names(&env.run(&[&eu[..], &["queues"]].concat())),
        ["orders 0", "refunds 1"]
    );
    let info = env.run(&[&eu[..], &["queue", "info", "refunds"]].concat());
    info.assert_code(0);
    assert_eq!(
        info.records_of("queue_info")[0]["attributes"]["QueueArn"],
        "arn:aws:sqs:eu-west-1:000000000000:refunds"
    );
    // The wrong-region mistake, rehearsed locally.
    let run = env.run(&["queue", "info", "refunds"]);
    run.assert_code(1);
    assert_snapshot!(name: "queue_of_another_region_on_the_local_server", run.stderr);
}

#[test]
fn the_in_flight_limit_is_set_from_the_environment() {
    let env = TestEnv::exact("asserts the answer of a short poll at the limit");
    let mut child = env
        .cmd()
        .args(["local", "--bind", "127.0.0.1:0"])
        .env("SQSCTL_LOCAL_MAX_IN_FLIGHT", "2")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let endpoint = line
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap_or_else(|| panic!("{line}"))
        .trim_matches(|c| c == '\'' || c == '"')
        .to_string();
    let at = |args: &[&str]| {
        let output = support::cmd_at(&endpoint, env.home())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("binary runs");
        support::Run::from_output(output)
    };
    at(&["queue", "create", "held"]).assert_code(0);
    for body in ["a", "b", "c"] {
        at(&["send", "held", body]).assert_code(0);
    }
    // Two received and kept in flight; the third is out of reach while they are.
    let run = at(&[
        "receive",
        "held",
        "--max",
        "3",
        "--visibility",
        "60s",
        "--wait",
        "0s",
    ]);
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    assert_eq!(run.records_of("message").len(), 2, "{}", run.stdout);
    run.assert_code(1);
    assert!(
        run.stderr
            .contains("OverLimit: The queue has its limit of 2 messages in flight"),
        "{}",
        run.stderr
    );
}

/// Runs `sqsctl local` with `args`, stops it with Ctrl-C once it listens, and returns its stderr.
fn local_server_stderr(env: &TestEnv, args: &[&str]) -> String {
    use std::io::BufRead;
    let mut child = env.spawn_piped(&[&["local", "--bind", "127.0.0.1:0"], args].concat());
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut endpoint = String::new();
    stdout.read_line(&mut endpoint).unwrap();
    assert!(
        endpoint.starts_with("export AWS_ENDPOINT_URL_SQS="),
        "{endpoint}"
    );
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn local_names_only_the_faults_it_injects() {
    let env = TestEnv::start();
    let plain = local_server_stderr(&env, &[]);
    assert!(!plain.contains("injecting"), "{plain}");
    assert!(plain.contains("stopped after 0 requests\n"), "{plain}");
    let faulty = local_server_stderr(&env, &["--fault-rate", "0.5"]);
    assert!(faulty.contains("injecting fault rate 0.5\n"), "{faulty}");
    assert!(!faulty.contains("latency"), "{faulty}");
    assert!(faulty.contains("0 injected errors"), "{faulty}");
}

#[test]
fn local_counts_the_duplicate_deliveries_it_made() {
    use std::io::BufRead;
    let env = TestEnv::start();
    let mut child = env.spawn_piped(&[
        "local",
        "--bind",
        "127.0.0.1:0",
        "--duplicate-rate",
        "1",
        "--seed",
        "7",
    ]);
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let endpoint = line
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap()
        .to_string();
    let at = |args: &[&str]| {
        let output = support::cmd_at(&endpoint, env.home())
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    at(&["queue", "create", "twice"]);
    at(&["send", "twice", "one"]);
    // Every delivery is made twice: the first receive takes the message, a later one gets it
    // again before its visibility timeout ends.
    let sqs = support::sdk_client(&endpoint);
    let url = at(&["queue", "url", "twice"]).trim().to_string();
    let ids: Vec<String> = env.block_on(async {
        let mut ids = Vec::new();
        for _ in 0..2 {
            let answer = sqs.receive_message().queue_url(&url).send().await.unwrap();
            ids.extend(
                answer
                    .messages()
                    .iter()
                    .filter_map(|m| m.message_id.clone()),
            );
        }
        ids
    });
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(ids[0], ids[1], "the same message twice");
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("; delivered 1 message twice (--duplicate-rate)"),
        "{stderr}"
    );
}

/// On a loopback bind, a request that names no host is refused as one naming an unknown host
/// would be: nothing says which name it came through.
#[test]
fn a_request_without_a_host_header_is_refused_on_a_loopback_bind() {
    let env = TestEnv::start();
    let address = env.endpoint().trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let body = "{}";
    write!(
        stream,
        "POST / HTTP/1.0\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.0 403"), "{answer}");
    assert!(
        answer.contains("A request without a Host header is not served"),
        "{answer}"
    );
    // The same request naming a loopback host is answered.
    let named = exchange(env.endpoint(), "");
    assert!(named.starts_with("HTTP/1.1 200"), "{named}");
}

/// Bound to every address, the warning names what was bound, not the loopback URL printed for
/// this machine's clients.
#[test]
fn a_bind_to_every_address_is_named_in_its_warning() {
    use std::io::BufRead;
    let env = TestEnv::start();
    let mut child = env.spawn_piped(&["local", "--bind", "0.0.0.0:0"]);
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut endpoint = String::new();
    stdout.read_line(&mut endpoint).unwrap();
    assert!(
        endpoint.starts_with("export AWS_ENDPOINT_URL_SQS=http://127.0.0.1:"),
        "{endpoint}"
    );
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let port = endpoint.trim().rsplit(':').next().unwrap_or_default();
    assert!(
        stderr.contains(&format!(
            "listening on 0.0.0.0:{port}, which is not a loopback address"
        )),
        "{stderr}"
    );
}

/// The binary as [`TestEnv::cmd`] has it, run through a shell that applies `ulimit {limit}`
/// first (`exec`, so the process is the binary's own).
#[cfg(target_os = "linux")]
fn under_ulimit(env: &TestEnv, limit: &str) -> Command {
    let plain = env.cmd();
    let mut cmd = Command::new("sh");
    cmd.env_clear();
    for (name, value) in plain.get_envs() {
        if let Some(value) = value {
            cmd.env(name, value);
        }
    }
    cmd.arg("-c")
        .arg(format!("ulimit {limit} && exec \"$0\" \"$@\""))
        .arg(plain.get_program());
    cmd
}

/// The soft and hard limits on open files of a process, as /proc writes them.
#[cfg(target_os = "linux")]
fn open_file_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .unwrap();
    let mut values = line.split_whitespace().skip(3).map(String::from);
    (values.next().unwrap(), values.next().unwrap())
}

/// Each connection is an open file: the server raises its soft limit to the hard limit, and
/// with `-v` says when even the hard limit is below what its connections need.
#[cfg(target_os = "linux")]
#[test]
fn the_local_server_raises_its_open_file_limit_and_says_when_it_falls_short() {
    let env = TestEnv::start();
    let (local, _) = Local::start(under_ulimit(&env, "-Sn 256"), &["-v"], 1);
    let (soft, hard) = open_file_limits(local.child.id());
    let (_, stderr) = local.stop();
    assert_eq!(soft, hard, "{stderr}");
    assert!(!stderr.contains("open-file limit"), "{stderr}");

    let (local, _) = Local::start(under_ulimit(&env, "-n 256"), &["-v"], 1);
    let limits = open_file_limits(local.child.id());
    let (_, stderr) = local.stop();
    assert_eq!(limits, ("256".into(), "256".into()));
    assert!(
        stderr.contains(
            "debug: the open-file limit is 256 (the hard limit), below the 1088 that 1024 connections need"
        ),
        "{stderr}"
    );
}

/// Out of file descriptors before the connection cap, the server closes a connection that can
/// spare its descriptor (here, silent ones) for each new client rather than leaving new clients
/// unaccepted.
#[cfg(target_os = "linux")]
#[test]
fn out_of_open_files_a_new_client_is_still_served() {
    let env = TestEnv::start();
    let (local, printed) = Local::start(under_ulimit(&env, "-n 64"), &[], 1);
    let endpoint = printed
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap_or_else(|| panic!("{printed}"));
    let address = endpoint.trim_start_matches("http://");
    let silent: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(address).unwrap())
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let answer = exchange(endpoint, "");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(1),
            "answered after {took:?}"
        );
    }
    drop(silent);
    local.stop();
}
