//! What a container needs of `sqsctl local`: settings from `SQSCTL_LOCAL_*` variables, a health
//! check that runs without a shell, and a quick, clean stop on SIGTERM (what `docker stop` and
//! `podman stop` send) even while a long poll waits.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use super::Local;
use crate::support::{self, TestEnv};

/// `sqsctl local --health-check` with `vars` set, in a cleared environment.
fn health_check(vars: &[(&str, &str)], args: &[&str]) -> support::Run {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = support::cleared_cmd(home.path());
    cmd.args([&["local", "--health-check"][..], args].concat())
        .envs(vars.iter().copied())
        .stdin(std::process::Stdio::null());
    support::Run::from_output(cmd.output().unwrap())
}

#[test]
fn the_health_check_passes_on_a_running_server_found_from_the_bind_variable() {
    let env = TestEnv::start();
    let port = env.server().local_addr().port();
    let run = health_check(&[], &["--bind", &format!("127.0.0.1:{port}")]);
    run.assert_code(0);
    assert!(
        run.stdout.starts_with(&format!(
            "healthy: sqsctl local on 127.0.0.1:{port} answered in "
        )),
        "{}",
        run.stdout
    );
    // As in a container: bound to every address, asked on loopback.
    let wildcard = format!("0.0.0.0:{port}");
    health_check(&[("SQSCTL_LOCAL_BIND", &wildcard)], &[]).assert_code(0);
}

#[test]
fn the_health_check_fails_with_a_reason_when_nothing_or_something_else_listens() {
    let unused = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let run = health_check(&[], &["--bind", &unused.to_string()]);
    run.assert_code(1);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.starts_with(&format!(
            "error: unhealthy: no answer from a server on {unused}: "
        )),
        "{}",
        run.stderr
    );

    // Another web server on the port: it answers, but not as the server would.
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = other.local_addr().unwrap();
    let answering = std::thread::spawn(move || {
        let (mut stream, _) = other.accept().unwrap();
        // The whole request, so that closing with unread bytes cannot reset the answer away.
        let mut request = Vec::new();
        let mut byte = [0u8; 1];
        while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
            request.push(byte[0]);
        }
        stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .unwrap();
    });
    let run = health_check(&[], &["--bind", &addr.to_string()]);
    answering.join().unwrap();
    run.assert_code(1);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        format!(
            "error: unhealthy: {addr} answered GET /_sqsctl/health with HTTP 404, not sqsctl local's health answer"
        )
    );

    // A server that accepts but never answers: the check gives up within its bound.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = silent.local_addr().unwrap();
    let started = Instant::now();
    let run = health_check(&[], &["--bind", &addr.to_string()]);
    run.assert_code(1);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        run.stderr.contains("it did not answer within 2s"),
        "{}",
        run.stderr
    );
    drop(silent);
}

/// The realism line of a server started with `vars`, stopped at once.
fn realism_line(vars: &[(&str, &str)]) -> Option<String> {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = support::cleared_cmd(home.path());
    cmd.envs(vars.iter().copied());
    let (local, _) = Local::start(cmd, &[], 1);
    let (_, stderr) = local.stop();
    stderr
        .lines()
        .find(|l| l.starts_with("behaving like SQS"))
        .map(str::to_string)
}

#[test]
fn boolean_variables_read_false_as_off() {
    for off in ["false", "0", "no", "off"] {
        assert_eq!(
            realism_line(&[("SQSCTL_LOCAL_LIKE_SQS", off)]),
            None,
            "{off}"
        );
    }
    for on in ["true", "1", "yes"] {
        let line = realism_line(&[("SQSCTL_LOCAL_LIKE_SQS", on), ("SQSCTL_LOCAL_SEED", "7")]);
        assert!(
            line.as_deref()
                .is_some_and(|l| l.ends_with("--seed 7 repeats this run")),
            "{on}: {line:?}"
        );
    }
    let home = tempfile::tempdir().unwrap();
    let output = support::cleared_cmd(home.path())
        .args(["local", "--bind", "127.0.0.1:0"])
        .env("SQSCTL_LOCAL_LIKE_SQS", "sometimes")
        .output()
        .unwrap();
    let run = support::Run::from_output(output);
    run.assert_code(2);
    assert!(
        run.stderr
            .starts_with("error: invalid value 'sometimes' for '--like-sqs'"),
        "{}",
        run.stderr
    );
}

#[test]
fn sigterm_during_a_long_poll_stops_at_once_and_keeps_what_was_acknowledged() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    let data_arg = data.to_str().unwrap();
    let (local, printed) = Local::start(
        support::cleared_cmd(home.path()),
        &["--data-dir", data_arg],
        1,
    );
    let endpoint = printed
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap()
        .to_string();
    let client = |args: &[&str]| {
        let output = support::cmd_at(&endpoint, home.path())
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        support::Run::from_output(output)
    };
    client(&["queue", "create", "kept"]).assert_code(0);
    client(&["queue", "create", "waiting"]).assert_code(0);
    for n in 0..5 {
        client(&["send", "kept", &format!("m{n}")]).assert_code(0);
    }
    // A client long-polling an empty queue for 20 s.
    let before = requests(&endpoint);
    let poll = support::cmd_at(&endpoint, home.path())
        .args(["receive", "waiting", "--wait", "20"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_a_waiting_receive(&endpoint, before);

    let started = Instant::now();
    let (_, stderr) = local.stop_with("TERM", 143);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "stopping took {took:?}:\n{stderr}"
    );
    // The long poll was answered (empty), not cut off.
    let polled = poll.wait_with_output().unwrap();
    assert_eq!(
        polled.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&polled.stderr)
    );

    let (again, printed) = Local::start(
        support::cleared_cmd(home.path()),
        &["--data-dir", data_arg],
        1,
    );
    let endpoint = printed
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap();
    let info = support::Run::from_output(
        support::cmd_at(endpoint, home.path())
            .args(["queue", "info", "kept"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap(),
    );
    info.assert_code(0);
    assert_eq!(
        info.records_of("queue_info")[0]["attributes"]["ApproximateNumberOfMessages"],
        "5",
        "{}",
        info.stdout
    );
    again.stop();
}

/// Waits until a receive reached the server at `endpoint` (its request count grows past
/// `before`), then a moment more for it to be waiting rather than on its way in.
fn wait_for_a_waiting_receive(endpoint: &str, before: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while requests(endpoint) <= before {
        assert!(Instant::now() < deadline, "no receive reached the server");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
}

/// The server's request count, from its stats endpoint.
fn requests(endpoint: &str) -> u64 {
    let address = endpoint.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /_sqsctl/stats HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1;
    let stats: serde_json::Value = serde_json::from_str(body).unwrap();
    stats["requests"].as_u64().unwrap()
}

/// The region has no flag of `local`'s own (it is the global `--region`), so a container sets it
/// with SQSCTL_LOCAL_REGION; the flag wins, AWS_REGION (the clients') is never read, and a bad
/// value names the variable.
#[test]
fn the_servers_region_comes_from_its_variable_when_no_flag_gives_it() {
    let exported_region = |vars: &[(&str, &str)], args: &[&str]| {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = support::cleared_cmd(home.path());
        cmd.envs(vars.iter().copied());
        let (local, printed) = Local::start(cmd, args, 2);
        local.stop();
        printed
            .lines()
            .find_map(|l| l.strip_prefix("export AWS_REGION="))
            .map(str::to_string)
    };
    let variable = ("SQSCTL_LOCAL_REGION", "eu-west-1");
    assert_eq!(
        exported_region(&[variable], &[]).as_deref(),
        Some("eu-west-1")
    );
    assert_eq!(
        exported_region(&[variable], &["--region", "ap-south-1"]).as_deref(),
        Some("ap-south-1")
    );
    assert_eq!(
        exported_region(&[("AWS_REGION", "eu-north-1")], &[]).as_deref(),
        Some("us-east-1")
    );

    let home = tempfile::tempdir().unwrap();
    let output = support::cleared_cmd(home.path())
        .args(["local", "--bind", "127.0.0.1:0"])
        .env("SQSCTL_LOCAL_REGION", "Europe")
        .output()
        .unwrap();
    let run = support::Run::from_output(output);
    run.assert_code(2);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        r#"error: SQSCTL_LOCAL_REGION="Europe": must be a region name such as eu-west-1"#
    );
}
