//! `sqsctl redrive journals` through the binary: the runs of real redrives (completed, stopped by
//! Ctrl-C, killed) listed with their state and the command that resumes them, a corrupt file shown
//! as unreadable, and `--prune` removing only what it may.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::support::snapshot::assert_snapshot;
use crate::support::{self, Run, TestEnv};

/// A DLQ holding `n` messages and the queue to move them to.
fn dlq_with(env: &TestEnv, name: &str, n: usize) {
    let dlq = env.create_queue(&format!("{name}-dlq"), &[]);
    env.create_queue(name, &[]);
    env.send(
        &dlq,
        (0..n)
            .map(|i| sqsctl::message::MessageRecord::with_body(format!("m{i}")))
            .collect(),
    );
}

/// Where redrive writes its journals in this test's home (`XDG_STATE_HOME`).
fn journal_dir(env: &TestEnv) -> PathBuf {
    env.home().join("state").join("sqsctl").join("redrive")
}

fn moves(name: &str) -> Vec<String> {
    ["redrive", &format!("{name}-dlq"), "--to", name, "--yes"]
        .map(String::from)
        .to_vec()
}

/// A run that moves every message of `name-dlq`.
fn completed_run(env: &TestEnv, name: &str) {
    dlq_with(env, name, 3);
    let args = moves(name);
    env.run(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .assert_code(0);
}

/// A run at one message a second stopped by Ctrl-C once its journal is there.
fn ctrl_c_run(env: &TestEnv, name: &str, journal: &Path) {
    dlq_with(env, name, 50);
    let mut args = moves(name);
    args.extend(["--rate", "1", "--journal"].map(String::from));
    args.push(journal.display().to_string());
    let mut child = env.spawn_piped(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !journal.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(1500));
    support::sigint(child.id());
    assert_eq!(child.wait().unwrap().code(), Some(130));
}

fn json(run: &Run) -> Vec<Value> {
    run.assert_code(0);
    serde_json::from_str::<Value>(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON: {e}\n{}\n{}", run.stdout, run.stderr))
        .as_array()
        .unwrap()
        .clone()
}

fn find<'a>(journals: &'a [Value], name: &str) -> &'a Value {
    journals
        .iter()
        .find(|j| j["file"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no {name} in {journals:#?}"))
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn completed_interrupted_and_killed_runs_are_listed_and_only_completed_ones_pruned() {
    let env = TestEnv::start();
    let dir = journal_dir(&env);
    completed_run(&env, "done");
    let done = files(&dir).pop().unwrap();
    let ctrl_c = dir.join("ctrl-c.jsonl");
    ctrl_c_run(&env, "slow", &ctrl_c);
    let killed = dir.join("killed.jsonl");
    dlq_with(&env, "dead", 200);
    let mut args = moves("dead");
    args.extend(["--rate", "100", "--concurrency", "8", "--journal"].map(String::from));
    args.push(killed.display().to_string());
    env.kill_9_after(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        Duration::from_millis(800),
    );
    std::fs::write(dir.join("broken.jsonl"), "{\"type\": \"plan\", \"da\n").unwrap();

    let journals = json(&env.run(&["redrive", "journals", "-o", "json"]));
    assert_eq!(journals.len(), 4, "{journals:#?}");
    let started: Vec<&str> = journals
        .iter()
        .filter_map(|j| j["started_at"].as_str())
        .collect();
    assert!(started.windows(2).all(|w| w[0] >= w[1]), "newest first");

    let completed = find(&journals, &done);
    assert_eq!(completed["state"], "completed");
    assert_eq!(
        (&completed["source"], &completed["destination"]),
        (&Value::from("done-dlq"), &Value::from("done"))
    );
    assert_eq!(completed["moved"], 3);
    assert_eq!(completed["resumable"], false);
    assert_eq!(completed["resume"], Value::Null);

    let interrupted = find(&journals, "ctrl-c.jsonl");
    assert_eq!(interrupted["state"], "interrupted");
    assert_eq!(interrupted["resumable"], true);
    assert_eq!(
        interrupted["outcome_unknown"], 0,
        "Ctrl-C finished the batches"
    );
    assert!(interrupted["moved"].as_u64().unwrap() < 50);
    assert_eq!(
        interrupted["resume"],
        format!("sqsctl redrive --resume {}", ctrl_c.display())
    );

    let dead = find(&journals, "killed.jsonl");
    assert_eq!(dead["state"], "interrupted");
    assert_eq!(dead["resumable"], true);
    assert!(dead["outcome_unknown"].as_u64().unwrap() > 0, "{dead:#}");
    assert!(dead["ended_at"].is_null(), "no closing line: {dead:#}");

    let broken = find(&journals, "broken.jsonl");
    assert_eq!(broken["state"], "unreadable");
    assert_eq!(broken["resumable"], false);

    // The resume command it shows is the one that completes the run (faster than it started).
    let resume = interrupted["resume"].as_str().unwrap();
    let mut args: Vec<&str> = resume.split(' ').skip(1).collect();
    args.extend(["--yes", "--rate", "500"]);
    let run = env.run(&args);
    run.assert_code(0);
    let journals = json(&env.run(&["redrive", "journals", "-o", "json"]));
    assert_eq!(find(&journals, "ctrl-c.jsonl")["state"], "completed");
    assert_eq!(find(&journals, "ctrl-c.jsonl")["moved"], 50);

    // A dry run lists what it would remove and removes nothing.
    let before = files(&dir);
    let prune = ["redrive", "journals", "--prune", "--older-than", "0s"];
    let run = env.run(&[&prune[..], &["--dry-run", "-o", "json"]].concat());
    let mut listed: Vec<String> = json(&run)
        .iter()
        .map(|j| {
            j["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    listed.sort();
    let mut expected = vec!["ctrl-c.jsonl".to_string(), done.clone()];
    expected.sort();
    assert_eq!(listed, expected, "{}", run.stdout);
    assert!(
        run.stderr.contains("dry run: nothing removed"),
        "{}",
        run.stderr
    );
    assert_eq!(files(&dir), before);

    // The prune removes the completed runs and keeps the killed one and the unreadable file.
    let run = env.run(&prune);
    run.assert_code(0);
    assert_eq!(files(&dir), ["broken.jsonl", "killed.jsonl"]);
    assert!(
        run.stderr.contains("--include-interrupted"),
        "{}",
        run.stderr
    );

    // Removing a resumable run's journal asks first: without a terminal, it needs --yes.
    let all = [&prune[..], &["--include-interrupted"]].concat();
    env.run(&all).assert_code(2);
    assert_eq!(files(&dir), ["broken.jsonl", "killed.jsonl"]);
    // On a terminal the question names the journal; "n" removes nothing.
    let run = env.run_tty(&all, "n\n");
    run.assert_code(6);
    assert!(
        run.stderr.contains(&killed.display().to_string()),
        "{}",
        run.stderr
    );
    assert_eq!(files(&dir), ["broken.jsonl", "killed.jsonl"]);
    env.run(&[&all[..], &["--yes"]].concat()).assert_code(0);
    assert_eq!(
        files(&dir),
        ["broken.jsonl"],
        "an unreadable file is never removed"
    );
}

#[test]
fn the_table_and_the_text_people_read() {
    let env = TestEnv::start();
    let dir = journal_dir(&env);
    let run = env.run(&["redrive", "journals"]);
    run.assert_code(0);
    assert_snapshot!(name: "none", run.stderr);

    completed_run(&env, "orders");
    // A run killed after its first message was received: the completed journal cut there.
    let done = dir.join(files(&dir).pop().unwrap());
    let text = std::fs::read_to_string(&done).unwrap();
    let first_received = text.find("\"received\"").unwrap();
    let cut = text[first_received..].find('\n').unwrap() + first_received + 1;
    std::fs::write(dir.join("killed.jsonl"), &text[..cut]).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a journal\n").unwrap();

    for columns in [80, 60] {
        let mut cmd = env.cmd();
        cmd.args(["redrive", "journals"])
            .env("SQSCTL_ASSUME_TTY", "1")
            .env("COLUMNS", columns.to_string());
        let run = support::run_with_stdin(cmd, "");
        run.assert_code(0);
        let table = run
            .stdout
            .lines()
            .filter(|l| !l.contains(':') || l.starts_with('│'));
        for line in table {
            assert!(line.chars().count() <= columns, "{}", run.stdout);
        }
        let shown = format!("{}\n{}", run.stdout, run.stderr);
        assert_snapshot!(name: &format!("table_{columns}"), shown, r"\d{8}T\d{6}Z" => "YYYYMMDDTHHMMSSZ");
    }
    let run = env.run(&["redrive", "journals", "-o", "text"]);
    run.assert_code(0);
    assert_snapshot!(name: "text", run.stdout, r"\d{8}T\d{6}Z" => "YYYYMMDDTHHMMSSZ");

    let run = env.run(&[
        "redrive",
        "journals",
        "--prune",
        "--older-than",
        "0s",
        "--dry-run",
    ]);
    run.assert_code(0);
    assert_snapshot!(name: "dry_run", run.stderr, r"\d{8}T\d{6}Z" => "YYYYMMDDTHHMMSSZ");
}
