//! `sqsctl top`: its JSON lines without a terminal, and its full-screen view on a pseudo-terminal
//! (it renders, refreshes, a key changes the sort, `q` and Ctrl-C put the terminal back).

use sqsctl::message::MessageRecord;

use crate::support::snapshot::assert_snapshot;
use crate::support::{TestEnv, unique_name};

/// A source queue whose DLQ holds `dlq_depth` messages, and the source `depth`.
fn source_and_dlq(env: &TestEnv, prefix: &str, depth: usize, dlq_depth: usize) -> (String, String) {
    let dlq = env.create_queue(&format!("{prefix}-dlq"), &[]);
    let policy = format!(
        r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":"5"}}"#,
        env.server().queue_arn(&dlq.name)
    );
    let source = env.create_queue(&format!("{prefix}-src"), &[("RedrivePolicy", &policy)]);
    let bodies = |n: usize| {
        (0..n)
            .map(|i| MessageRecord::with_body(format!("m{i}")))
            .collect()
    };
    env.send(&source, bodies(depth));
    env.send(&dlq, bodies(dlq_depth));
    (source.name, dlq.name)
}

#[test]
fn without_a_terminal_each_refresh_is_a_json_line_with_rates_from_the_second_on() {
    let env = TestEnv::start();
    let prefix = unique_name("top");
    let (source, dlq) = source_and_dlq(&env, &prefix, 3, 1);
    let run = env.run(&["top", &prefix, "--count", "2", "--interval", "0.2"]);
    run.assert_code(0);
    let samples = run.records_of("sample");
    assert_eq!(samples.len(), 2, "{}", run.stdout);
    let first = &samples[0]["queues"];
    // Sorted by visible messages, largest first.
    assert_eq!(first[0]["name"], source.as_str());
    assert_eq!(first[0]["visible"], 3);
    assert_eq!(first[0]["dlq"], false);
    assert_eq!(first[1]["name"], dlq.as_str());
    assert_eq!(first[1]["dlq"], true);
    assert!(
        first[0]["in_per_s"].is_null(),
        "no rate in the first sample"
    );
    assert_eq!(samples[1]["queues"][0]["in_per_s"], 0.0);
    assert!(samples[1]["took_ms"].is_u64());
}

#[test]
fn a_growing_dlq_shows_a_rate_and_is_flagged() {
    let env = TestEnv::start();
    let prefix = unique_name("top");
    let (_, dlq) = source_and_dlq(&env, &prefix, 0, 0);
    // On a --like-sqs server the counts lag (up to 2 s): more refreshes see them catch up.
    let count = if env.is_like_sqs() { "10" } else { "3" };
    let mut child = env
        .cmd()
        .args(["top", &prefix, "--count", count, "--interval", "0.5"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let _first = lines.next().unwrap().unwrap();
    let queue = env.block_on(env.sqs().resolve(&dlq)).unwrap();
    env.send(
        &queue,
        (0..5)
            .map(|i| MessageRecord::with_body(format!("d{i}")))
            .collect(),
    );
    let rest: Vec<serde_json::Value> = lines
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    assert!(child.wait().unwrap().success());
    let grew = rest.iter().any(|sample| {
        sample["data"]["queues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| {
                q["name"] == dlq.as_str()
                    && q["growing"] == true
                    && q["in_per_s"].as_f64() > Some(0.0)
            })
    });
    assert!(grew, "{rest:?}");
    assert!(
        rest.iter()
            .all(|sample| sample["data"]["approximate_counts"] == true),
        "{rest:?}"
    );
}

#[test]
fn on_a_terminal_it_renders_refreshes_resorts_and_restores_the_terminal() {
    let env = TestEnv::start();
    let prefix = unique_name("top");
    let (source, dlq) = source_and_dlq(&env, &prefix, 2, 1);
    let mut top = env.pty(&["top", &prefix, "--interval", "0.3"], &[]);
    top.expect_rendered(&dlq, 15);
    top.expect_rendered("sorted by visible", 5);
    top.expect_rendered("~in flight", 5);
    let screen = top.rendered();
    let (source_at, dlq_at) = (screen.find(&source).unwrap(), screen.find(&dlq).unwrap());
    assert!(source_at < dlq_at, "the deeper queue first:\n{screen}");
    assert!(screen.contains("DLQ"), "{screen}");
    // Refreshes keep coming.
    top.expect_rendered("refresh 3", 15);
    top.send("s");
    top.expect_rendered("sorted by in flight", 5);
    top.send("s");
    top.send("s");
    top.send("s");
    top.send("s");
    top.expect_rendered("sorted by name", 5);
    let screen = top.rendered();
    assert!(
        screen.find(&dlq).unwrap() < screen.find(&source).unwrap(),
        "by name, `-dlq` before `-src`:\n{screen}"
    );
    top.send("q");
    assert_eq!(top.wait(10), 0);
    let screen = top.screen();
    // The alternate screen was entered and left again, and raw mode is off (the shell's own
    // line discipline is back: nothing to check from here but the sequence).
    let entered = screen
        .find("\u{1b}[?1049h")
        .expect("the alternate screen was used");
    let left = screen
        .rfind("\u{1b}[?1049l")
        .expect("the terminal was restored");
    assert!(left > entered);
}

#[test]
fn ctrl_c_on_the_full_screen_view_exits_130_with_the_terminal_restored() {
    let env = TestEnv::start();
    let prefix = unique_name("top");
    source_and_dlq(&env, &prefix, 1, 0);
    let mut top = env.pty(&["top", &prefix], &[]);
    top.expect_rendered("refresh 1", 15);
    top.send("\x03");
    assert_eq!(top.wait(10), 130);
    assert!(top.screen().contains("\u{1b}[?1049l"));
}

#[test]
fn a_bad_prefix_is_a_usage_error() {
    let env = TestEnv::start();
    let run = env.run(&["top", "no/slash"]);
    run.assert_code(2);
    assert_snapshot!(run.stderr);
}

/// A fair queue on `sqsctl local` (inspection on): tenant `A` floods, a consumer holds 60 in
/// flight, and the server's fair delivery made `A` noisy with `B` and `C` quiet beside it.
fn fair_queue_with_a_noisy_tenant(env: &TestEnv, name: &str) {
    let queue = env.create_queue(name, &[]);
    let record = |tenant: &str, i: usize| MessageRecord {
        group_id: Some(tenant.into()),
        ..MessageRecord::with_body(format!("{tenant} {i}"))
    };
    env.send(&queue, (0..200).map(|i| record("A", i)).collect());
    for tenant in ["B", "C"] {
        env.send(&queue, (0..20).map(|i| record(tenant, i)).collect());
    }
    env.block_on(async {
        for _ in 0..6 {
            let options = sqsctl::client::ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(600),
            };
            env.sqs().receive(&queue, options).await.unwrap();
        }
    });
}

#[test]
fn on_sqsctl_local_a_fair_queue_shows_its_tenants_and_the_noisy_one() {
    let env = TestEnv::with_inspection();
    // A server of its own: a fixed name keeps the tables' widths.
    let prefix = "shop";
    let fair = format!("{prefix}-fair");
    fair_queue_with_a_noisy_tenant(&env, &fair);
    env.create_queue(&format!("{prefix}-plain"), &[]);
    let run = env.run(&["top", prefix, "--count", "1", "-o", "jsonl"]);
    run.assert_code(0);
    let queues = &run.records_of("sample")[0]["queues"];
    assert_eq!(queues[0]["name"], fair.as_str());
    assert_eq!(
        queues[0]["tenants"],
        serde_json::json!({"tenants": 3, "truncated": false, "noisy": ["A"]})
    );
    assert!(
        queues[1]["tenants"].is_null(),
        "no group ids: not a fair queue"
    );
    let run = env.run(&["top", prefix, "--count", "1", "-o", "text"]);
    assert!(
        run.stdout.lines().next().unwrap().ends_with("\t3"),
        "{}",
        run.stdout
    );
    for columns in [100, 80, 60] {
        let mut cmd = env.cmd();
        cmd.args(["top", prefix, "--count", "1", "-o", "table"])
            .env("SQSCTL_ASSUME_TTY", "1")
            .env("COLUMNS", columns.to_string());
        let run = crate::support::run_with_stdin(cmd, "");
        run.assert_code(0);
        assert_snapshot!(name: &format!("table_{columns}"), run.stdout);
    }

    let mut top = env.pty(&["top", prefix, "--interval", "0.3"], &[]);
    top.expect_rendered("3, noisy A", 15);
    top.send("q");
    assert_eq!(top.wait(10), 0);
}
