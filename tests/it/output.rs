//! Output people read, in each format: tab-separated `-o text` (real tabs, each field escaped on
//! its own), the JSON and tables of `diagnose`, `fifo groups`, `peek` and the redrive summary, no
//! report from a scan Ctrl-C cut short, what `-v` and `-q` add and take away, and the small wording
//! of the everyday commands.

use crate::support;

use crate::receive::sorted;
use sqsctl::message::{AttributeValue, MessageRecord};
use support::TestEnv;
use support::snapshot::assert_snapshot;

/// `count` messages in each of `groups` groups, numbered, each with a `failure` attribute.
pub(crate) fn fifo_orders(groups: usize, count: usize) -> Vec<MessageRecord> {
    (0..groups * count)
        .map(|i| {
            let mut record = MessageRecord {
                group_id: Some(format!("customer-{}", i % groups)),
                dedup_id: Some(format!("order-{i}")),
                ..MessageRecord::with_body(format!(
                    "{{\"order\":{i},\"note\":\"a body long enough that a narrow terminal cannot show all of it\"}}"
                ))
            };
            let failure = if i % 2 == 0 { "timeout" } else { "poison" };
            record
                .message_attributes
                .insert("failure".into(), AttributeValue::string(failure));
            record
        })
        .collect()
}

#[test]
fn text_output_has_real_tabs_on_a_terminal_and_in_a_pipe() {
    let env = TestEnv::exact(
        "snapshots `fifo groups` counts, which are lower bounds when SQS's short polls sample",
    );
    let queue = env.create_queue("tabs.fifo", &[("FifoQueue", "true")]);
    env.send(&queue, fifo_orders(3, 2));

    for args in [
        &["fifo", "groups", "tabs.fifo", "-o", "text"][..],
        &["diagnose", "tabs.fifo", "-o", "text"][..],
        &["queues", "-o", "text"][..],
    ] {
        for run in [env.run_tty(args, ""), env.run(args)] {
            assert!(
                run.stdout.lines().count() > 0,
                "{args:?}: {}{}",
                run.stdout,
                run.stderr
            );
            for line in run.stdout.lines() {
                assert!(line.contains('\t'), "{args:?}: no tab in {line:?}");
                assert!(
                    !line.contains("\\t"),
                    "{args:?}: an escaped tab in {line:?}"
                );
            }
        }
    }
    let groups = env.run_tty(&["fifo", "groups", "tabs.fifo", "-o", "text"], "");
    groups.assert_code(0);
    // Columns: group, seen, visible, oldest age in seconds (which depends on the clock).
    assert_snapshot!(name: "fifo_groups", groups.stdout, r"\t\d+\n" => "\t[age]\n");
    let diagnose = env.run_tty(&["diagnose", "tabs.fifo", "-o", "text"], "");
    assert_snapshot!(name: "diagnose", diagnose.stdout);
}

#[test]
fn json_and_tables_of_diagnose_fifo_groups_peek_and_the_redrive_summary() {
    let env = TestEnv::exact(
        "snapshots what diagnose and fifo groups counted, which SQS's short polls sample",
    );
    let queue = env.create_queue(
        "report.fifo",
        &[
            ("FifoQueue", "true"),
            ("ReceiveMessageWaitTimeSeconds", "20"),
        ],
    );
    env.send(&queue, fifo_orders(3, 2));
    // Epoch milliseconds, and ages that depend on how fast the test runs, are replaced.
    let diagnose = env.run(&["diagnose", "report.fifo", "-o", "json"]);
    diagnose.assert_code(4);
    assert_snapshot!(name: "diagnose_json", diagnose.stdout, r"\b1[6-9]\d{11}\b" => "[epoch-ms]", r#""(oldest_age_seconds|age_seconds|seconds)": \d+"# => r#""$1": [s]"#);
    let groups = env.run(&["fifo", "groups", "report.fifo", "-o", "json"]);
    groups.assert_code(0);
    assert_snapshot!(name: "fifo_groups_json", groups.stdout, r"\b1[6-9]\d{11}\b" => "[epoch-ms]", r#""(oldest_age_seconds|age_seconds|seconds)": \d+"# => r#""$1": [s]"#);
    let table = env.run_tty(&["fifo", "groups", "report.fifo"], "");
    table.assert_code(0);
    // The OLDEST column is as wide as its header: each age cell is 8 characters.
    assert_snapshot!(name: "fifo_groups_table", table.stdout, r"┆ \d+s +┆" => "┆ [age]  ┆");
    let text = env.run(&["peek", "report.fifo", "-o", "text"]);
    text.assert_code(0);
    assert_snapshot!(name: "peek_text", text.stdout);
    let peek = env.run(&["peek", "report.fifo", "-o", "json"]);
    peek.assert_code(0);
    assert_snapshot!(name: "peek_json", peek.stdout, r"\b1[6-9]\d{11}\b" => "[epoch-ms]");

    let dlq = env.create_queue("report-dlq", &[]);
    let target = env.create_queue("report-target", &[]);
    env.send(
        &dlq,
        (0..3)
            .map(|i| MessageRecord::with_body(format!("dead {i}")))
            .collect(),
    );
    let redrive = env.run(&[
        "redrive",
        "report-dlq",
        "--to",
        "report-target",
        "--yes",
        "-o",
        "json",
    ]);
    redrive.assert_code(0);
    assert_eq!(env.depth(&target), 3);
    assert_snapshot!(name: "redrive_summary_json", redrive.stdout, r#""(seconds|messages_per_second)": [\d.]+"# => r#""$1": [n]"#, r"report-dlq-\d{8}T\d{6}Z" => "report-dlq-[time]");
}

#[test]
fn ctrl_c_during_a_watch_scan_prints_no_report_from_the_partial_scan() {
    // Each request takes 150 ms, so a scan of 300 messages in 30 groups takes about 10 s: a
    // Ctrl-C 3 s after the start lands inside it.
    let env = TestEnv::start_with(sqsctl::local::ServerConfig {
        inspection: false,
        latency: std::time::Duration::from_millis(150),
        ..sqsctl::local::ServerConfig::default()
    });
    let queue = env.create_queue("watched.fifo", &[("FifoQueue", "true")]);
    env.send(&queue, fifo_orders(30, 10));
    let mut pty = env.pty(&["diagnose", "watched.fifo", "--watch", "60"], &[]);
    std::thread::sleep(std::time::Duration::from_secs(3));
    pty.send("\x03");
    let code = pty.wait(20);
    let screen = pty.screen();
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("stopped during a scan; nothing is reported from the partial scan"),
        "{screen}"
    );
    for reported in ["severity", "finding", "resolved:", "new:"] {
        assert!(!screen.contains(reported), "a report was printed: {screen}");
    }
}

#[test]
fn verbose_names_the_resolved_queue_and_quiet_silences_summaries() {
    let env = TestEnv::start();
    env.create_queue("talk", &[]);
    let run = env.run(&["send", "talk", "hi", "-v"]);
    run.assert_code(0);
    assert_snapshot!(name: "verbose", run.stderr);
    assert!(
        !run.stderr.contains("test"),
        "no credentials on stderr: {}",
        run.stderr
    );
    let run = env.run(&["receive", "talk", "-q"]);
    run.assert_code(0);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert_eq!(run.records_of("message").len(), 1);
}

#[test]
fn small_wording_and_input_details_of_everyday_commands() {
    let env = TestEnv::start();
    let queue = env.create_queue("small", &[]);
    let run = env.run(&["delete", "small", "--message-id", "a", "b", "--dry-run"]);
    assert_snapshot!(name: "delete_ids_not_found", run.stderr);
    let run = env.run(&["purge", "small", "--yes"]);
    run.assert_code(0);
    assert_snapshot!(name: "purge_empty", run.stderr);
    for command in ["receive", "peek"] {
        let run = env.run(&[command, "small", "--max", "0"]);
        run.assert_code(2);
        assert_snapshot!(name: format!("max_0_{command}"), run.stderr);
    }
    // A body piped from `echo` loses the newline `echo` added, and only that.
    env.run_stdin(&["send", "small"], "x\n").assert_code(0);
    env.run_stdin(&["send", "small"], "y\n\n").assert_code(0);
    assert_eq!(sorted(env.drain_bodies(&queue)), vec!["x", "y\n"]);
}
