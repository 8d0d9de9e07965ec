//! `sqsctl local --localstack` through the binary: the mode and the init directory from their
//! environment variables, and the directory's entries run once, in name order, past a failure.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::Local;
use crate::support;

/// A GET of `path` from the server at `endpoint`: the answer's body.
fn get(endpoint: &str, path: &str) -> String {
    let address = endpoint.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default()
}

fn script(dir: &std::path::Path, name: &str, text: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_init_directory_runs_once_in_name_order_past_a_failure() {
    let home = tempfile::tempdir().unwrap();
    let init = tempfile::tempdir().unwrap();
    let marks = init.path().join("marks.log");
    std::fs::write(
        init.path().join("10-queues.toml"),
        "[[queue]]\nname = \"made-by-file\"\n",
    )
    .unwrap();
    // Sees the queue of the file before it, and the server through its environment.
    script(
        init.path(),
        "20-list.sh",
        &format!(
            "#!/bin/sh\n\"{}\" queues -o text --query '[].name' >> \"{}\" && echo \"$AWS_REGION\" >> \"{}\"\n",
            support::BIN,
            marks.display(),
            marks.display()
        ),
    );
    script(init.path(), "30-fails.sh", "#!/bin/sh\nexit 3\n");
    script(
        init.path(),
        "40-after.sh",
        &format!("#!/bin/sh\necho after >> \"{}\"\n", marks.display()),
    );
    std::fs::write(init.path().join("50-notes.txt"), "not run").unwrap();
    let mut cmd = support::cleared_cmd(home.path());
    cmd.env("SQSCTL_LOCAL_LOCALSTACK", "true")
        .env("SQSCTL_LOCAL_INIT_DIR", init.path());
    let (local, printed) = Local::start(cmd, &["--region", "eu-west-1"], 1);
    let endpoint = printed
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap()
        .to_owned();
    let deadline = Instant::now() + Duration::from_secs(30);
    let ready = loop {
        let ready = get(&endpoint, "/_localstack/init/ready");
        if ready.contains(r#""completed":true"#) || Instant::now() > deadline {
            break ready;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let states: Vec<(&str, &str)> = ["10-queues.toml", "20-list.sh", "30-fails.sh", "40-after.sh"]
        .into_iter()
        .zip(["SUCCESSFUL", "SUCCESSFUL", "ERROR", "SUCCESSFUL"])
        .collect();
    for (name, state) in &states {
        assert!(
            ready.contains(&format!(
                r#""name":"{name}","stage":"READY","state":"{state}""#
            )),
            "{name} {state}: {ready}"
        );
    }
    assert!(!ready.contains("50-notes.txt"), "{ready}");
    assert!(
        get(&endpoint, "/_localstack/health").contains(r#""sqs":"running""#),
        "LocalStack mode from SQSCTL_LOCAL_LOCALSTACK"
    );
    let (_, stderr) = local.stop();
    assert_eq!(
        std::fs::read_to_string(&marks).unwrap(),
        "made-by-file\neu-west-1\nafter\n"
    );
    assert!(
        stderr.contains("init-dir: 30-fails.sh: exited with status 3; the server keeps serving"),
        "{stderr}"
    );
    assert!(
        stderr.contains("init-dir: 50-notes.txt is left out"),
        "{stderr}"
    );
}

#[test]
fn url_strategies_that_need_a_host_name_and_bad_localstack_settings_are_usage_errors() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = support::cleared_cmd(home.path());
        cmd.args([&["local", "--bind", "127.0.0.1:0"][..], args].concat());
        for (name, value) in env {
            cmd.env(name, value);
        }
        support::Run::from_output(cmd.stdin(std::process::Stdio::null()).output().unwrap())
    };
    let needs_host = run(&["--url-strategy", "domain"], &[]);
    needs_host.assert_code(2);
    assert!(
        needs_host
            .stderr
            .contains("--url-strategy domain puts the region in front of the host name"),
        "{}",
        needs_host.stderr
    );
    let bad = run(&["--localstack"], &[("SQS_ENDPOINT_STRATEGY", "sideways")]);
    bad.assert_code(2);
    assert!(
        bad.stderr
            .contains("SQS_ENDPOINT_STRATEGY: \"sideways\" is not a URL strategy"),
        "{}",
        bad.stderr
    );
    let unknown = run(&["--url-strategy", "sideways"], &[]);
    unknown.assert_code(2);
    assert!(unknown.stderr.contains("sideways"), "{}", unknown.stderr);
}

/// In LocalStack mode the queue URLs name LocalStack's host (`sqs.us-east-1.localhost.localstack.cloud`),
/// which need not resolve here; the readers still ask the inspection endpoint of the server they
/// send their requests to, so a peek receives nothing and raises no receive count.
#[test]
fn readers_inspect_the_server_at_the_endpoint_whatever_host_its_queue_urls_name() {
    let home = tempfile::tempdir().unwrap();
    let (local, printed) = Local::start(support::cleared_cmd(home.path()), &["--localstack"], 1);
    let endpoint = printed
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap()
        .to_owned();
    let run = |args: &[&str]| {
        let output = support::cmd_at(&endpoint, home.path())
            .args(args)
            .output()
            .unwrap();
        let run = support::Run::from_output(output);
        run.assert_code(0);
        run
    };
    let created = run(&["queue", "create", "orders"]);
    assert!(
        created.stdout.contains("localhost.localstack.cloud"),
        "{}",
        created.stdout
    );
    run(&["send", "orders", "hello"]);
    for _ in 0..2 {
        let peeked = run(&["peek", "orders", "-o", "jsonl"]);
        assert!(
            peeked.stdout.contains(r#""ApproximateReceiveCount":"0""#),
            "{}",
            peeked.stdout
        );
        assert!(
            peeked.stderr.contains("so nothing was received"),
            "{}",
            peeked.stderr
        );
    }
    local.stop();
}
