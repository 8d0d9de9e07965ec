//! The core paths of the everyday commands (send, receive, peek, purge, queue create) through the
//! real binary against LocalStack, an independent SQS implementation, with `AWS_ENDPOINT_URL_SQS`
//! pointing at it the way a user's environment would.
//!
//! Ignored unless asked for (`-- --ignored`, with `SQSCTL_LOCALSTACK_ENDPOINT` set). Queue names carry a
//! random suffix and every queue is deleted at the end, passed or not.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use support::Run;

/// The binary in a cleared environment aimed at LocalStack; deletes its queues when dropped.
struct Cli {
    endpoint: String,
    home: tempfile::TempDir,
    queues: std::sync::Mutex<Vec<String>>,
}

impl Cli {
    fn new() -> Cli {
        Cli {
            endpoint: support::localstack(),
            home: tempfile::tempdir().unwrap(),
            queues: Default::default(),
        }
    }

    fn queue_name(&self, prefix: &str) -> String {
        let name = support::unique_name(prefix);
        self.queues.lock().unwrap().push(name.clone());
        name
    }

    fn run(&self, args: &[&str], stdin: &str) -> Run {
        let mut cmd = support::cmd_at(&self.endpoint, self.home.path());
        cmd.args(args);
        support::run_with_stdin(cmd, stdin)
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        let names: Vec<String> = self.queues.lock().unwrap().clone();
        for name in names {
            for queue in [name.clone(), format!("{name}-dlq")] {
                let _ = self.run(&["queue", "delete", &queue, "--yes"], "");
            }
        }
    }
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn send_then_receive_with_delete_round_trips_bodies_and_attributes() {
    let cli = Cli::new();
    let queue = cli.queue_name("cli-roundtrip");
    cli.run(&["queue", "create", &queue], "").assert_code(0);
    cli.run(&["send", &queue, "--attr", "kind=refund", "first"], "")
        .assert_code(0);
    let lines: String = (0..24).map(|i| format!("line {i}\n")).collect();
    let run = cli.run(&["send", &queue, "--lines"], &lines);
    run.assert_code(0);
    assert_eq!(run.records_of("summary")[0]["sent"], 24);

    let run = cli.run(
        &[
            "receive", &queue, "--max", "25", "--wait", "2", "--delete", "--yes",
        ],
        "",
    );
    run.assert_code(0);
    let messages = run.records_of("message");
    assert_eq!(messages.len(), 25, "{}", run.stderr);
    let first = messages.iter().find(|m| m["body"] == "first").unwrap();
    assert_eq!(first["message_attributes"]["kind"]["value"], "refund");

    // Records written by receive are what send --jsonl reads.
    let jsonl: String = run.stdout.clone();
    let run = cli.run(&["send", &queue, "--jsonl"], &jsonl);
    run.assert_code(0);
    assert_eq!(run.records_of("summary")[0]["sent"], 25);
    let run = cli.run(
        &[
            "receive", &queue, "--max", "25", "--wait", "2", "--delete", "--yes",
        ],
        "",
    );
    assert_eq!(run.records_of("message").len(), 25);
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn fifo_send_and_receive_keep_group_order() {
    let cli = Cli::new();
    let queue = format!("{}.fifo", cli.queue_name("cli-fifo"));
    cli.queues.lock().unwrap().push(queue.clone());
    cli.run(&["queue", "create", &queue], "").assert_code(0);
    let run = cli.run(&["send", &queue, "x"], "");
    run.assert_code(1);
    assert!(run.stderr.contains("--group-id"), "{}", run.stderr);
    cli.run(
        &[
            "send",
            &queue,
            "--lines",
            "--group-id",
            "g",
            "--dedup-id",
            "auto",
        ],
        "a\nb\nc\n",
    )
    .assert_code(0);
    let run = cli.run(
        &[
            "receive", &queue, "--max", "3", "--wait", "2", "--delete", "--yes",
        ],
        "",
    );
    run.assert_code(0);
    let bodies: Vec<String> = run
        .records_of("message")
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(bodies, vec!["a", "b", "c"]);
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn peek_leaves_messages_and_refuses_queues_with_a_redrive_policy() {
    let cli = Cli::new();
    let queue = cli.queue_name("cli-peek");
    let dlq = format!("{queue}-dlq");
    cli.run(
        &[
            "queue",
            "create",
            &queue,
            "--dlq",
            &dlq,
            "--max-receive",
            "2",
        ],
        "",
    )
    .assert_code(0);
    cli.run(&["send", &queue, "--lines"], "p1\np2\np3\n")
        .assert_code(0);
    let run = cli.run(&["peek", &queue], "");
    run.assert_code(1);
    assert!(run.stderr.contains("maxReceiveCount 2"), "{}", run.stderr);

    let run = cli.run(&["peek", &queue, "--force"], "");
    run.assert_code(0);
    assert_eq!(run.records_of("message").len(), 3, "{}", run.stderr);
    // Still there: the peek released what it held.
    let run = cli.run(
        &[
            "receive", &queue, "--max", "3", "--wait", "5", "--delete", "--yes",
        ],
        "",
    );
    assert_eq!(run.records_of("message").len(), 3, "{}", run.stderr);
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn purge_removes_everything_and_reports_the_depth() {
    let cli = Cli::new();
    let queue = cli.queue_name("cli-purge");
    cli.run(&["queue", "create", &queue], "").assert_code(0);
    cli.run(&["send", &queue, "--lines"], "1\n2\n3\n4\n5\n")
        .assert_code(0);
    let run = cli.run(&["purge", &queue], "");
    run.assert_code(2);
    let run = cli.run(&["purge", &queue, "--yes"], "");
    run.assert_code(0);
    assert_eq!(run.records_of("purge")[0]["messages"], 5);
    let run = cli.run(&["receive", &queue, "--wait", "1"], "");
    run.assert_code(0);
    assert!(run.records_of("message").is_empty());
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn settings_tags_and_visibility_on_localstack() {
    let cli = Cli::new();
    let queue = cli.queue_name("cli-settings");
    let run = cli.run(
        &[
            "queue",
            "create",
            &queue,
            "--tag",
            "team=payments",
            "-o",
            "json",
        ],
        "",
    );
    run.assert_code(0);
    let created: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(created["tags"]["team"], "payments", "{}", run.stdout);

    cli.run(&["queue", "tag", &queue, "env=prod", "owner=ana"], "")
        .assert_code(0);
    cli.run(&["queue", "untag", &queue, "owner"], "")
        .assert_code(0);
    let run = cli.run(
        &[
            "queue",
            "set",
            &queue,
            "--visibility",
            "2m",
            "--retention",
            "1d",
            "--yes",
        ],
        "",
    );
    run.assert_code(0);
    let run = cli.run(&["queue", "info", &queue, "-o", "json"], "");
    run.assert_code(0);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        info["tags"],
        serde_json::json!({"team": "payments", "env": "prod"})
    );
    assert_eq!(info["attributes"]["VisibilityTimeout"], "120");
    let run = cli.run(&["queue", "url", &queue, "-o", "text"], "");
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), info["url"].as_str().unwrap());
    assert_eq!(info["attributes"]["MessageRetentionPeriod"], "86400");
    let dlq = format!("{queue}-dlq");
    cli.run(
        &[
            "queue",
            "set",
            &queue,
            "--dlq",
            &dlq,
            "--max-receive",
            "4",
            "--create-dlq",
            "--yes",
        ],
        "",
    )
    .assert_code(0);
    let run = cli.run(&["queue", "info", &queue, "-o", "json"], "");
    let info: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        info["redrive_policy"]["max_receive_count"], 4,
        "{}",
        run.stdout
    );
    assert_eq!(
        info["redrive_policy"]["dead_letter_queue"]["name"],
        dlq.as_str()
    );

    let header = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1";
    cli.run(
        &[
            "send",
            &queue,
            "--trace-header",
            header,
            "--attr",
            "trace.id=7",
            "hi",
        ],
        "",
    )
    .assert_code(0);
    let run = cli.run(
        &[
            "receive",
            &queue,
            "--wait",
            "2",
            "--attributes",
            "AWSTraceHeader",
            "--message-attributes",
            "trace.*",
        ],
        "",
    );
    run.assert_code(0);
    let message = &run.records_of("message")[0];
    assert_eq!(
        message["attributes"],
        serde_json::json!({"AWSTraceHeader": header})
    );
    assert_eq!(message["message_attributes"]["trace.id"]["value"], "7");
    // Held for the queue's 2 minutes; `visibility --timeout 0` gives it back at once.
    let handle = message["receipt_handle"].as_str().unwrap();
    let run = cli.run(&["visibility", &queue, "--timeout", "0", handle], "");
    run.assert_code(0);
    let run = cli.run(&["receive", &queue, "--wait", "2", "--delete", "--yes"], "");
    assert_eq!(run.records_of("message").len(), 1, "{}", run.stderr);
}
