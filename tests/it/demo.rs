//! `sqsctl demo` end to end, through the binary, in a cleared environment: the demo starts its own
//! local server, so nothing points the binary anywhere. Asserted: exit code 0, the diagnose
//! findings in the output, the DLQ left with only the poison messages after the redrive (from the
//! final `queues` step, which prints JSON Lines because stdout is a pipe), and the server's port
//! closed afterwards. `--keep` is run too: the server stays up and usable until Ctrl-C.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

use support::Run;

const TRANSIENT: u64 = 60;
const POISON: u64 = 12;
const PAYMENTS: u64 = 300;

/// The binary with nothing from the developer's environment and no endpoint: the demo brings its
/// own server.
fn demo_cmd(home: &std::path::Path) -> Command {
    let mut cmd = support::cleared_cmd(home);
    cmd.stdin(Stdio::null());
    cmd
}

fn run_demo(args: &[&str]) -> Run {
    let home = tempfile::tempdir().unwrap();
    let output = demo_cmd(home.path())
        .arg("demo")
        .args(args)
        .output()
        .expect("binary runs");
    Run::from_output(output)
}

/// The endpoint the demo announced on its first line.
fn announced_endpoint(stdout: &str) -> SocketAddr {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Local SQS server: "))
        .expect("endpoint announced");
    let url = line["Local SQS server: ".len()..]
        .split_whitespace()
        .next()
        .unwrap();
    url.trim_start_matches("http://")
        .parse()
        .unwrap_or_else(|e| panic!("not an address: {url}: {e}"))
}

fn is_listening(addr: SocketAddr) -> bool {
    TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok()
}

/// The JSON Lines records printed by each run of the step whose command line is `command`, in order.
fn step_records(stdout: &str, command: &str) -> Vec<Vec<serde_json::Value>> {
    let marker = format!("$ sqsctl {command}");
    let lines: Vec<&str> = stdout.lines().collect();
    let runs: Vec<Vec<serde_json::Value>> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| **line == marker)
        .map(|(index, _)| {
            lines[index + 1..]
                .iter()
                .take_while(|l| !l.starts_with("$ sqsctl") && !l.starts_with("# "))
                .filter(|l| l.starts_with('{'))
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
                .collect()
        })
        .collect();
    assert!(!runs.is_empty(), "step `{command}` not shown:\n{stdout}");
    runs
}

/// Messages in a queue (visible + in flight + delayed) from a `queues` record.
fn depth_of(records: &[serde_json::Value], name: &str) -> u64 {
    let data = records
        .iter()
        .filter(|r| r["type"] == "queue")
        .map(|r| &r["data"])
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no `queue` record for {name} in {records:?}"));
    ["visible", "in_flight", "delayed"]
        .iter()
        .map(|k| data[*k].as_u64().unwrap_or_else(|| panic!("{k} of {data}")))
        .sum()
}

#[test]
fn demo_runs_the_main_job_end_to_end_and_leaves_nothing_listening() {
    let run = run_demo(&[]);
    run.assert_code(0);
    let addr = announced_endpoint(&run.stdout);

    // Both queues were diagnosed; the FIFO one shows the pinned group.
    assert!(
        run.stdout.contains("$ sqsctl diagnose orders\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("serialized-groups"),
        "no serialized-groups finding:\n{}",
        run.stdout
    );

    let diagnosed = step_records(&run.stdout, "diagnose payments.fifo");
    let findings: Vec<&serde_json::Value> = diagnosed[0]
        .iter()
        .filter(|r| r["type"] == "finding")
        .map(|r| &r["data"]["id"])
        .collect();
    for expected in ["serialized-groups", "dedup-id-counter"] {
        assert!(
            findings.iter().any(|id| *id == expected),
            "no {expected} finding in {findings:?}"
        );
    }

    // The scene before the redrive: every failed order in the DLQ.
    let queues = step_records(&run.stdout, "queues");
    assert_eq!(queues.len(), 2, "queues is shown first and last");
    assert_eq!(depth_of(&queues[0], "orders-dlq"), TRANSIENT + POISON);
    assert_eq!(depth_of(&queues[0], "orders"), 0);

    // After it: the transient failures went back to orders, the poison ones stayed.
    let last = &queues[1];
    assert_eq!(depth_of(last, "orders-dlq"), POISON, "{}", run.stdout);
    assert_eq!(depth_of(last, "orders"), TRANSIENT);
    assert_eq!(
        depth_of(last, "payments.fifo"),
        PAYMENTS,
        "diagnose must not consume"
    );
    let redrive = step_records(
        &run.stdout,
        "redrive orders-dlq --attr failure=timeout --rate 40 --yes",
    );
    let summary = redrive[0]
        .iter()
        .find(|r| r["type"] == "summary")
        .expect("redrive summary");
    assert_eq!(summary["data"]["moved"], TRANSIENT, "{summary}");

    assert!(
        !is_listening(addr),
        "the demo's server still accepts connections on {addr}"
    );
}

#[test]
fn demo_keep_leaves_a_usable_server_until_ctrl_c() {
    let home = tempfile::tempdir().unwrap();
    let mut child = demo_cmd(home.path())
        .args(["demo", "--keep"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let export = loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            let status = child.wait().unwrap();
            panic!("demo --keep ended ({status}) before printing the export line:\n{seen}");
        }
        seen.push_str(&line);
        if let Some(rest) = line.strip_prefix("export ") {
            break rest.trim().to_string();
        }
    };
    let addr = announced_endpoint(&seen);

    // The export line is enough for a shell to go on by hand with the same queues.
    let mut by_hand = demo_cmd(home.path());
    for pair in export.split_whitespace() {
        let (name, value) = pair.split_once('=').expect("NAME=value");
        by_hand.env(name, value);
    }
    let queues = by_hand.args(["queues", "-o", "jsonl"]).output().unwrap();
    assert!(
        queues.status.success(),
        "{}",
        String::from_utf8_lossy(&queues.stderr)
    );
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&queues.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(depth_of(&records, "orders-dlq"), POISON);

    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "demo --keep after Ctrl-C");
    assert!(
        !is_listening(addr),
        "the server still accepts connections on {addr}"
    );
}

#[test]
fn demo_on_a_busy_port_fails_clearly() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let run = run_demo(&["--bind", &addr]);
    run.assert_code(1);
    assert!(
        run.stderr.contains(&format!(
            "error: could not start the local server on {addr}"
        )),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}
