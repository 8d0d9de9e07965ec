//! Every command example in the README and in `docs/` runs against the local server, so the
//! documentation cannot drift from the behaviour again; and the README stays a front door.
//!
//! The convention (also stated in docs/testing.md): each line of a ```sh block (and each `$ ` line
//! of a ```console block) whose command is `sqsctl ...` is an example. Lines joined by `&&` run one
//! after the other; `< FILE` feeds the file on stdin and `> FILE` keeps stdout for a later example;
//! `# ...` is a comment. Each document's examples run in its order, as on a terminal whose user
//! answers `y`, in a directory holding the files the documents name (`payload.json`,
//! `messages.jsonl`, ...) and against a fresh server holding the queues they name (`orders` with
//! its DLQ `orders-dlq`, `payments` with `maxReceiveCount` 2, `payments.fifo`...). An example passes
//! when it exits 0, 3 (partially done) or 4 (problems found): never 2 (usage) nor 1. The examples
//! that cannot run here are skipped by the rules in [`SKIPS`], counted and listed, and each
//! document's count is pinned so that a new skip is a decision.

use std::path::Path;

use sqsctl::client::{QueueRef, ReceiveOptions};
use sqsctl::message::{AttributeValue, MessageRecord};

use crate::support::{Run, TestEnv, repo_path, run_with_stdin};

/// Why an example is not run: the first rule whose text the example contains.
const SKIPS: &[(&str, &str)] = &[
    ("sqsctl local", "runs a server until Ctrl-C"),
    ("sqsctl demo", "tests/it/demo.rs runs it"),
    ("--watch", "runs until Ctrl-C"),
    ("--follow", "runs until Ctrl-C"),
    ("until q", "a full-screen view that runs until q or Ctrl-C"),
    ("/home/you/", "a placeholder path"),
    (
        "./worker.sh",
        "the worker script docs/workers.md shows, not written here",
    ),
    (
        "summary-$i.json",
        "one of several processes started in the background by a shell loop",
    ),
    (
        "sqsctl purge orders-dlq --yes",
        "the purge of the line before, without the question: SQS allows one purge a minute",
    ),
];

/// The most lines the README may have: what it is, install, the two commands, a tour, configuration,
/// exit codes and links. The reference lives in `docs/`.
const README_MAX_LINES: usize = 400;

/// A document's examples, each as the line number where it starts and its text.
fn examples(document: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in document.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(fence) = trimmed.strip_prefix("```") {
            block = if block.is_some() { None } else { Some(fence) };
            continue;
        }
        let command = match block {
            Some("sh") => trimmed.strip_prefix("$ ").unwrap_or(trimmed),
            Some("console") => match trimmed.strip_prefix("$ ") {
                Some(command) => command,
                None => continue,
            },
            _ => continue,
        };
        let (start, text) = match pending.take() {
            Some((start, text)) => (start, format!("{text} {command}")),
            None => (index + 1, command.to_string()),
        };
        let words = words(&text);
        if let Some(continued) = text.strip_suffix('\\') {
            pending = Some((start, continued.to_string()));
        } else if words.last().is_some_and(|w| w == "&&")
            && let Some(end) = text.rfind("&&")
        {
            // Continued on the next line; the comment after `&&`, if any, is dropped.
            pending = Some((start, text[..end + 2].to_string()));
        } else if words.iter().any(|w| w == "sqsctl") {
            out.push((start, text));
        }
    }
    out
}

/// Splits a shell line into words: single and double quotes, backslash escapes, `#` comments.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '#' if word.is_none() => break,
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// One `sqsctl` invocation: its arguments and where its stdin and stdout go.
struct Invocation {
    args: Vec<String>,
    stdin: Option<String>,
    stdout: Option<String>,
}

/// The invocations of an example, or why it is skipped.
fn plan(example: &str) -> Result<Vec<Invocation>, String> {
    if let Some((_, why)) = SKIPS.iter().find(|(text, _)| example.contains(text)) {
        return Err((*why).to_string());
    }
    let mut invocations = Vec::new();
    for part in words(example).split(|w| w == "&&") {
        if part.iter().any(|w| w == "|" || w == "&")
            || part.first().map(String::as_str) != Some("sqsctl")
        {
            return Err("a shell pipeline".into());
        }
        let mut invocation = Invocation {
            args: Vec::new(),
            stdin: None,
            stdout: None,
        };
        let mut rest = part[1..].iter();
        while let Some(word) = rest.next() {
            match word.as_str() {
                "<" => invocation.stdin = rest.next().cloned(),
                ">" => invocation.stdout = rest.next().cloned(),
                _ => invocation.args.push(word.clone()),
            }
        }
        invocations.push(invocation);
    }
    Ok(invocations)
}

fn run(env: &TestEnv, dir: &Path, invocation: &Invocation) -> Run {
    let mut cmd = env.cmd();
    cmd.current_dir(dir).args(&invocation.args);
    let input = match &invocation.stdin {
        Some(file) => {
            std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
        }
        None => "y\n".to_string(),
    };
    if invocation.stdin.is_none() && invocation.stdout.is_none() {
        // A terminal whose user answers the confirmation.
        cmd.env("SQSCTL_ASSUME_TTY", "1");
    }
    let run = run_with_stdin(cmd, &input);
    if let Some(file) = &invocation.stdout {
        std::fs::write(dir.join(file), &run.stdout).unwrap();
    }
    run
}

/// The queues and messages the documents' examples name.
fn fixture(env: &TestEnv) {
    let dlq_of = |name: &str, max_receive: &str, fifo: bool| {
        let attrs: Vec<(&str, &str)> = if fifo {
            vec![("FifoQueue", "true")]
        } else {
            vec![]
        };
        let suffix = if fifo { ".fifo" } else { "" };
        let dlq = env.create_queue(&format!("{name}-dlq{suffix}"), &attrs);
        let policy = format!(
            r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":"{max_receive}"}}"#,
            env.server().queue_arn(&dlq.name)
        );
        let mut attrs = attrs.clone();
        attrs.push(("RedrivePolicy", &policy));
        env.create_queue(&format!("{name}{suffix}"), &attrs)
    };
    // Reads without a delete put messages back where they were, as on SQS, so the examples read
    // the same first messages again and again: a maxReceiveCount of 5 (as docs/commands.md
    // creates `orders`) leaves them receives to spare under the read guard.
    let orders = dlq_of("orders", "5", false);
    dlq_of("payments", "2", false);
    dlq_of("payments", "5", true);
    for name in ["inbox", "logs", "a", "b", "orders-replay"] {
        env.create_queue(name, &[]);
    }
    // `orders` in another region too, for the examples of a redrive across regions.
    let west = sqsctl::client::Sqs::for_endpoint(env.endpoint(), "eu-west-1");
    env.block_on(west.create_queue("orders", Default::default()))
        .unwrap();
    env.create_queue(
        "orders.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    );
    // Failed orders: received past maxReceiveCount, so the DLQ holds them with their source.
    let failed: Vec<MessageRecord> = (0..12)
        .map(|i| {
            let mut m = MessageRecord::with_body(format!(r#"{{"id":{i},"tenant":"acme"}}"#));
            m.message_attributes
                .insert("failure".into(), AttributeValue::string("timeout"));
            m
        })
        .collect();
    send(env, &orders, &failed);
    env.block_on(async {
        // Ten at a time, each back at once: past maxReceiveCount, all twelve move to the DLQ.
        for _ in 0..24 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(0),
                visibility_timeout: Some(0),
            };
            env.sqs().receive(&orders, options).await.unwrap();
        }
    });
    let fresh: Vec<MessageRecord> = (0..150)
        .map(|i| MessageRecord::with_body(format!("order {i}")))
        .collect();
    send(env, &orders, &fresh);
}

fn send(env: &TestEnv, queue: &QueueRef, records: &[MessageRecord]) {
    env.block_on(async {
        for chunk in records.chunks(10) {
            env.sqs().send_batch(queue, chunk).await.unwrap();
        }
    });
}

/// The files the documents' examples read.
fn files(dir: &Path) {
    let record = |i: usize| format!(r#"{{"body":"record {i}","group_id":"g{}"}}"#, i % 3);
    let jsonl: String = (0..5).map(|i| record(i) + "\n").collect();
    for (name, text) in [
        ("payload.json", r#"{"id": 7}"#.to_string()),
        ("messages.jsonl", jsonl.clone()),
        ("export.jsonl", jsonl.clone()),
        ("sent.jsonl", jsonl.clone()),
        ("dlq-dump.jsonl", jsonl),
        ("jobs.txt", "job 1\njob 2\n".to_string()),
        ("orders.txt", "order a\norder b\n".to_string()),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// Runs every example of the document at `path` (relative to the repository) on a server and in
/// a directory of its own, and checks that `expected_skips` of them were skipped.
fn run_examples_of(path: &str, expected_skips: usize) {
    let document =
        std::fs::read_to_string(repo_path(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let examples = examples(&document);
    let env = TestEnv::with_inspection();
    fixture(&env);
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (line, example) in &examples {
        let invocations = match plan(example) {
            Ok(invocations) => invocations,
            Err(why) => {
                skipped.push(format!("{path}:{line}: {example} ({why})"));
                continue;
            }
        };
        for invocation in &invocations {
            let run = run(&env, dir.path(), invocation);
            ran += 1;
            if !matches!(run.code, 0 | 3 | 4) {
                failures.push(format!(
                    "{path}:{line}: `sqsctl {}` exited {}:\n{}",
                    invocation.args.join(" "),
                    run.code,
                    run.stderr
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "examples failed:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        skipped.len(),
        expected_skips,
        "{path}: {ran} examples ran; the skipped ones:\n{}",
        skipped.join("\n")
    );
}

/// One test per document, so that they run side by side; `documents_with_examples_are_all_tested`
/// keeps the list complete.
macro_rules! document_tests {
    ($($test:ident: $path:literal, $skips:literal;)*) => {
        const TESTED: &[&str] = &[$($path),*];
        $(
            #[test]
            fn $test() {
                run_examples_of($path, $skips);
            }
        )*
    };
}

document_tests! {
    readme_examples_run: "README.md", 5;
    commands_examples_run: "docs/commands.md", 14;
    diagnose_examples_run: "docs/diagnose.md", 1;
    install_examples_run: "docs/install.md", 0;
    local_server_examples_run: "docs/local-server.md", 8;
    output_examples_run: "docs/output.md", 0;
    redrive_examples_run: "docs/redrive.md", 2;
    workers_examples_run: "docs/workers.md", 1;
}

#[test]
fn documents_with_examples_are_all_tested() {
    let mut untested = Vec::new();
    let mut paths: Vec<String> = vec!["README.md".into()];
    for entry in std::fs::read_dir(repo_path("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            paths.push(format!("docs/{name}"));
        }
    }
    for path in paths {
        let document = std::fs::read_to_string(repo_path(&path)).unwrap();
        if !examples(&document).is_empty() && !TESTED.contains(&path.as_str()) {
            untested.push(path);
        }
    }
    assert!(
        untested.is_empty(),
        "documents with sqsctl examples that no test runs (add them to document_tests!): {untested:?}"
    );
    let readme = std::fs::read_to_string(repo_path("README.md")).unwrap();
    assert!(
        examples(&readme).len() >= 15,
        "the README's tour should show every command"
    );
}

#[test]
fn the_readme_is_a_front_door_not_the_reference() {
    let readme = std::fs::read_to_string(repo_path("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the reference to docs/"
    );
}
