//! The redrive engine under injected faults and a `kill -9`, through the binary against the local
//! server: no message is ever lost, and the duplicates it may create are bounded.
//!
//! The bounds asserted here (standard queues; FIFO queues deduplicate re-sends, so none):
//! - under faults, duplicates <= the messages the server sent in requests it then failed
//!   ("ambiguous" failures: applied, then answered with a 500, as a lost response looks; the server
//!   counts the messages they sent). The client cannot tell such a send from a failed one, so a
//!   retry sends each of those messages once more; ambiguous receives, deletes and visibility
//!   changes create no duplicate (a lost receive only hides messages until their visibility
//!   timeout ends);
//! - after `kill -9`, duplicates <= the messages the journal shows as received without an outcome
//!   (their send may have happened without being journaled): a worker holds at most one batch
//!   whose sends are not journaled yet (beside one being deleted), so at most 10 x the workers;
//! - with several processes on one DLQ, add the messages a process sent and could not delete:
//!   another process may take them when they come back and send them again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use sqsctl_core::client::Delete;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use sqsctl::client::{QueueRef, ReceiveOptions, Sqs};
use sqsctl::local::ServerConfig;
use sqsctl::message::MessageRecord;
use support::TestEnv;

const VISIBILITY: &str = "10";

/// A client that never retries by itself, so every attempt of the setup is visible to the test.
fn one_shot_client(endpoint: &str) -> Sqs {
    let config = support::sdk_config(endpoint)
        .to_builder()
        .retry_config(aws_sdk_sqs::config::retry::RetryConfig::disabled())
        .build();
    Sqs::from_sdk(aws_sdk_sqs::Client::from_conf(config), "us-east-1")
}

fn faulty(seed: u64) -> TestEnv {
    TestEnv::start_with(ServerConfig {
        inspection: false,
        fault_rate: 0.10,
        entry_fault_rate: 0.05,
        seed: Some(seed),
        ..ServerConfig::default()
    })
}

/// Sends `make(i, attempt)` for each i until SQS confirms it, retrying what failed (each attempt a
/// distinct body on standard queues, so an ambiguous setup failure cannot pass for a duplicate the
/// redrive made). Returns the confirmed body of each i. Batches go out from `parallel` tasks, each
/// with a contiguous range (so per-group order holds within a range on FIFO queues only with 1).
fn fill(
    env: &TestEnv,
    queue: &QueueRef,
    count: usize,
    parallel: usize,
    make: impl Fn(usize, usize) -> MessageRecord + Send + Sync + 'static,
) -> Vec<String> {
    let sqs = one_shot_client(env.endpoint());
    let make = std::sync::Arc::new(make);
    let per_task = count.div_ceil(parallel);
    env.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for task in 0..parallel {
            let (sqs, queue, make) = (sqs.clone(), queue.clone(), make.clone());
            let range = (task * per_task)..((task + 1) * per_task).min(count);
            tasks.spawn(async move {
                let mut confirmed = Vec::new();
                for start in range.clone().step_by(10) {
                    let mut pending: Vec<usize> = (start..(start + 10).min(range.end)).collect();
                    let mut attempt = 0;
                    while !pending.is_empty() {
                        let records: Vec<MessageRecord> =
                            pending.iter().map(|&i| make(i, attempt)).collect();
                        if let Ok(outcomes) = sqs.send_batch(&queue, &records).await {
                            let mut still = Vec::new();
                            for ((i, record), outcome) in pending.iter().zip(&records).zip(outcomes)
                            {
                                if outcome.is_ok() {
                                    confirmed.push((*i, record.body.clone()));
                                } else {
                                    still.push(*i);
                                }
                            }
                            pending = still;
                        }
                        attempt += 1;
                        assert!(attempt < 50, "the setup cannot get through");
                    }
                }
                confirmed
            });
        }
        let mut bodies = vec![String::new(); count];
        while let Some(done) = tasks.join_next().await {
            for (i, body) in done.unwrap() {
                bodies[i] = body;
            }
        }
        bodies
    })
}

/// Every message in a queue, each counted once by its message id however often a lost delete
/// makes it come back, in delivery order (per group, on FIFO queues: a consumer records a message
/// before deleting it, and SQS delivers nothing more of its group until then). Advances the server
/// clock to bring back messages that a lost receive hid.
pub(crate) fn drain_unique(env: &TestEnv, queue: &QueueRef, parallel: usize) -> Vec<MessageRecord> {
    use std::sync::{Arc, Mutex};
    let found: Arc<Mutex<(HashSet<String>, Vec<MessageRecord>)>> = Arc::default();
    env.block_on(async {
        let mut idle = 0;
        loop {
            let mut tasks = tokio::task::JoinSet::new();
            for _ in 0..parallel {
                let (sqs, queue, found) = (env.sqs().clone(), queue.clone(), found.clone());
                tasks.spawn(async move {
                    let mut empty = 0;
                    while empty < 3 {
                        let options = ReceiveOptions {
                            max_messages: 10,
                            wait_seconds: Some(0),
                            visibility_timeout: Some(600),
                        };
                        let Ok(batch) = sqs.receive(&queue, options).await else {
                            continue;
                        };
                        if batch.is_empty() {
                            empty += 1;
                            continue;
                        }
                        let handles: Vec<String> = batch
                            .iter()
                            .filter_map(|m| m.receipt_handle.clone())
                            .collect();
                        {
                            let mut found = found.lock().unwrap();
                            for message in batch {
                                if found.0.insert(message.message_id.clone().unwrap()) {
                                    found.1.push(message);
                                }
                            }
                        }
                        let handles: Vec<&str> = handles.iter().map(String::as_str).collect();
                        let _ = sqs.batch(Delete, &queue, &handles).await;
                    }
                });
            }
            while tasks.join_next().await.is_some() {}
            let Ok(attrs) = env.sqs().attributes(queue).await else {
                continue;
            };
            if attrs.total() == 0 {
                break;
            }
            idle += 1;
            assert!(idle < 20, "{queue:?} does not drain");
            env.server().clock().advance(Duration::from_secs(700));
        }
    });
    let mut found = found.lock().unwrap();
    std::mem::take(&mut found.1)
}

fn depth(env: &TestEnv, queue: &QueueRef) -> u64 {
    loop {
        if let Ok(attrs) = env.block_on(env.sqs().attributes(queue)) {
            return attrs.total();
        }
    }
}

/// Runs the redrive, then `--resume` until the DLQ is empty (bringing back, between runs, the
/// messages a lost receive hid). Returns the exit codes.
fn redrive_until_empty(env: &TestEnv, dlq: &QueueRef, first: &[&str], journal: &str) -> Vec<i32> {
    let mut codes = vec![env.run(first).code];
    for _ in 0..4 {
        if depth(env, dlq) == 0 {
            break;
        }
        env.server()
            .clock()
            .advance(Duration::from_secs(VISIBILITY.parse::<u64>().unwrap() * 2));
        let run = env.run(&["redrive", "--resume", journal, "--yes", "-o", "json"]);
        assert!(matches!(run.code, 0 | 3), "{}", run.stderr);
        codes.push(run.code);
    }
    assert_eq!(depth(env, dlq), 0, "the DLQ is empty in the end");
    codes
}

/// Counts per body over both queues; asserts that every confirmed body is there and returns the
/// number of extra copies.
fn lost_and_duplicates(
    env: &TestEnv,
    queues: &[&QueueRef],
    confirmed: &[String],
) -> (usize, usize) {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for queue in queues {
        for message in drain_unique(env, queue, 8) {
            *counts.entry(message.body).or_default() += 1;
        }
    }
    let lost = confirmed
        .iter()
        .filter(|b| !counts.contains_key(*b))
        .count();
    let duplicates = counts.values().map(|&n| n - 1).sum();
    (lost, duplicates)
}

/// Creates a queue through a faulty server, trying again until it exists.
fn create(env: &TestEnv, name: &str, attributes: &[(&str, &str)]) -> QueueRef {
    let attributes: BTreeMap<String, String> = attributes
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for _ in 0..20 {
        if let Ok(queue) = env.block_on(env.sqs().create_queue(name, attributes.clone())) {
            return queue;
        }
    }
    panic!("could not create {name}");
}

fn journal_path(env: &TestEnv, name: &str) -> String {
    env.home().join(name).display().to_string()
}

#[test]
fn under_request_and_entry_faults_nothing_is_lost_and_duplicates_stay_bounded() {
    let env = faulty(20261123);
    let dlq = create(&env, "faults-dlq", &[]);
    let dest = create(&env, "faults", &[]);
    let confirmed = fill(&env, &dlq, 10_000, 8, |i, attempt| {
        MessageRecord::with_body(format!("m{i}:{attempt}"))
    });
    let before = env.server().stats();
    let journal = journal_path(&env, "faults.jsonl");
    let codes = redrive_until_empty(
        &env,
        &dlq,
        &[
            "redrive",
            "faults-dlq",
            "--to",
            "faults",
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--visibility-timeout",
            VISIBILITY,
        ],
        &journal,
    );
    let after = env.server().stats();
    let ambiguous = after.ambiguous_failures - before.ambiguous_failures;
    let ambiguous_sends = after.ambiguous_sends - before.ambiguous_sends;
    let (lost, duplicates) = lost_and_duplicates(&env, &[&dest, &dlq], &confirmed);
    eprintln!(
        "faults: runs {codes:?}, injected {} errors ({} ambiguous, sending {} messages) and {} entry failures; duplicates {duplicates}",
        after.injected_errors - before.injected_errors,
        ambiguous,
        ambiguous_sends,
        after.entry_failures - before.entry_failures
    );
    assert!(
        after.entry_failures > before.entry_failures + 100,
        "faults were injected"
    );
    assert!(ambiguous_sends > 0, "ambiguous sends were injected");
    assert_eq!(lost, 0, "no message lost");
    assert!(
        duplicates as u64 <= ambiguous_sends,
        "{duplicates} duplicates > {ambiguous_sends} messages sent by ambiguously failed requests"
    );
}

#[test]
fn kill_9_then_resume_loses_nothing_and_resends_only_unresolved_messages() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(3),
        ..ServerConfig::default()
    });
    let dlq = env.create_queue("kill-dlq", &[]);
    let dest = env.create_queue("kill", &[]);
    let confirmed = fill(&env, &dlq, 10_000, 8, |i, _| {
        MessageRecord::with_body(format!("m{i}"))
    });
    let journal = journal_path(&env, "kill.jsonl");
    let concurrency = 8;
    // A random moment once moving has started, well before it can end.
    let delay = support::random_delay(300, 900);
    env.kill_9_after(
        &[
            "redrive",
            "kill-dlq",
            "--to",
            "kill",
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--concurrency",
            &concurrency.to_string(),
            "--visibility-timeout",
            VISIBILITY,
        ],
        delay,
    );
    let (_plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    let unresolved = state.unresolved;
    let moved_before = state.moved_before;
    eprintln!(
        "kill -9 after {delay:?}: {moved_before} moved, {} sent not deleted, {unresolved} unresolved",
        state.sent_not_deleted
    );
    assert!(
        moved_before < 10_000,
        "killed before the end (after {delay:?})"
    );
    // The dead run's messages come back when their visibility timeout ends.
    env.server().clock().advance(Duration::from_secs(61));
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let (lost, duplicates) = lost_and_duplicates(&env, &[&dest, &dlq], &confirmed);
    eprintln!("resumed: duplicates {duplicates}");
    assert_eq!(lost, 0, "no message lost");
    assert!(
        duplicates as u64 <= unresolved,
        "{duplicates} duplicates > {unresolved} messages without a journaled outcome"
    );
    assert!(unresolved <= 10 * concurrency as u64, "{unresolved}");
}

#[test]
fn fifo_under_faults_keeps_every_message_once_and_in_group_order() {
    let env = faulty(7);
    let dlq = create(&env, "ffaults-dlq.fifo", &[("FifoQueue", "true")]);
    let dest = create(&env, "ffaults.fifo", &[("FifoQueue", "true")]);
    let count = 1_000;
    let confirmed = fill(&env, &dlq, count, 1, |i, _| MessageRecord {
        group_id: Some(format!("g{:02}", i % 20)),
        dedup_id: Some(format!("setup-{i}")),
        ..MessageRecord::with_body(format!("g{:02}-{:05}", i % 20, i / 20))
    });
    assert_eq!(
        depth(&env, &dlq),
        count as u64,
        "the DLQ deduplicated the setup"
    );
    let journal = journal_path(&env, "ffaults.jsonl");
    redrive_until_empty(
        &env,
        &dlq,
        &[
            "redrive",
            "ffaults-dlq.fifo",
            "--to",
            "ffaults.fifo",
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--visibility-timeout",
            VISIBILITY,
        ],
        &journal,
    );
    let moved = drain_unique(&env, &dest, 1);
    let bodies: Vec<&str> = moved.iter().map(|m| m.body.as_str()).collect();
    let distinct: HashSet<&str> = bodies.iter().copied().collect();
    assert_eq!(distinct.len(), count, "none lost");
    assert_eq!(bodies.len(), count, "none twice");
    assert!(confirmed.iter().all(|b| distinct.contains(b.as_str())));
    let mut per_group: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for m in &moved {
        let group = m.effective_group_id().unwrap();
        assert!(m.body.starts_with(group), "group id kept");
        per_group.entry(group).or_default().push(&m.body);
    }
    for (group, list) in per_group {
        let mut sorted = list.clone();
        sorted.sort();
        assert_eq!(list, sorted, "order within {group}");
    }
}

/// The DLQ message id and body of every line of an archive.
fn archived(path: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            let data = &v["data"];
            (
                data["message_id"].as_str().unwrap().to_string(),
                data["body"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn kill_9_then_resume_archives_every_moved_message_exactly_once() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(3),
        ..ServerConfig::default()
    });
    let dlq = env.create_queue("karch-dlq", &[]);
    let dest = env.create_queue("karch", &[]);
    let count = 2_000;
    let confirmed = fill(&env, &dlq, count, 8, |i, _| {
        MessageRecord::with_body(format!("m{i}"))
    });
    let journal = journal_path(&env, "karch.jsonl");
    let archive = journal_path(&env, "karch-archive.jsonl");
    let delay = support::random_delay(200, 300);
    env.kill_9_after(
        &[
            "redrive",
            "karch-dlq",
            "--to",
            "karch",
            "--yes",
            "--journal",
            &journal,
            "--archive",
            &archive,
            "--concurrency",
            "8",
            "--visibility-timeout",
            VISIBILITY,
        ],
        delay,
    );
    let (plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert!(
        state.moved_before < count as u64,
        "killed before the end (after {delay:?})"
    );
    assert_eq!(
        plan.archive.as_deref(),
        Some(std::path::Path::new(&archive)),
        "the plan keeps the archive"
    );
    env.server().clock().advance(Duration::from_secs(61));
    // No --archive: the resumed run archives because the journal says so.
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    let copies = archived(&archive);
    let ids: HashSet<&str> = copies.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids.len(), copies.len(), "no message archived twice");
    let archived_bodies: HashSet<&str> = copies.iter().map(|(_, b)| b.as_str()).collect();
    let moved = drain_unique(&env, &dest, 8);
    let moved_bodies: HashSet<&str> = moved.iter().map(|m| m.body.as_str()).collect();
    assert_eq!(depth(&env, &dlq), 0, "the DLQ is empty");
    assert_eq!(
        archived_bodies, moved_bodies,
        "every moved message has its copy, and only those"
    );
    assert!(confirmed.iter().all(|b| moved_bodies.contains(b.as_str())));
    assert_eq!(copies.len(), count, "none lost");
}

/// A TCP proxy to the local server that holds every request of `action` (e.g. `SendMessageBatch`)
/// unanswered (the connection stays open, as with a server that never replies); other requests
/// pass through. Returns the proxy's endpoint.
pub(crate) fn stalling_proxy(upstream: &str, action: &'static str) -> String {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    let upstream = upstream
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { return };
            let Ok(mut server) = TcpStream::connect(&upstream) else {
                return;
            };
            let (mut client_reader, mut server_writer) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut server, &mut client);
            });
            std::thread::spawn(move || {
                let mut buffer = vec![0u8; 1 << 16];
                loop {
                    let n = match client_reader.read(&mut buffer) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    let chunk = &buffer[..n];
                    let target = format!("AmazonSQS.{action}\r\n");
                    if chunk
                        .windows(target.len())
                        .any(|w| w.eq_ignore_ascii_case(target.as_bytes()))
                    {
                        // Never forwarded, never answered; the connection stays open.
                        std::thread::sleep(Duration::from_secs(3600));
                        return;
                    }
                    if server_writer.write_all(chunk).is_err() {
                        return;
                    }
                }
            });
        }
    });
    endpoint
}

/// Starts the binary with `args`, talking to SQS through `proxy`, its output piped.
pub(crate) fn spawn_through(env: &TestEnv, proxy: &str, args: &[&str]) -> std::process::Child {
    env.cmd()
        .env("AWS_ENDPOINT_URL_SQS", proxy)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn after_the_grace_period_unanswered_sends_are_journaled_as_unknown_and_resumed() {
    let env = TestEnv::start();
    let dlq = env.create_queue("grace-dlq", &[]);
    let dest = env.create_queue("grace", &[]);
    let count = 100;
    let confirmed = fill(&env, &dlq, count, 1, |i, _| {
        MessageRecord::with_body(format!("m{i}"))
    });
    let journal = journal_path(&env, "grace.jsonl");
    let proxy = stalling_proxy(env.endpoint(), "SendMessageBatch");
    let concurrency = 3;
    let child = spawn_through(
        &env,
        &proxy,
        &[
            "redrive",
            "grace-dlq",
            "--to",
            "grace",
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--concurrency",
            &concurrency.to_string(),
            "--visibility-timeout",
            "2",
        ],
    );
    // Every worker is soon waiting on a send that never answers.
    std::thread::sleep(Duration::from_millis(1500));
    let interrupted = std::time::Instant::now();
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    let waited = interrupted.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        waited >= sqsctl::interrupt::DEFAULT_GRACE && waited < Duration::from_secs(15),
        "stopped {waited:?} after Ctrl-C"
    );
    let s: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let unknown = s["outcome_unknown"].as_u64().unwrap();
    assert_eq!(unknown, 10 * concurrency, "{s}");
    assert_eq!(s["moved"], 0, "{s}");
    assert!(
        stderr.contains(&format!("{unknown} messages were abandoned"))
            && stderr.contains(&format!("--resume {journal}`")),
        "{stderr}"
    );
    for line in stderr.lines().filter(|l| l.contains("--resume")) {
        assert!(!line.contains("--yes"), "{line}");
    }
    let (_plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    assert_eq!(state.unknown, unknown, "journaled as unknown");
    assert_eq!(state.unresolved, unknown);
    // The abandoned messages are still hidden: the resumed run waits for them.
    let run = env.run(&["redrive", "--resume", &journal, "--yes", "-o", "json"]);
    run.assert_code(0);
    assert!(run.stderr.contains("waiting up to"), "{}", run.stderr);
    assert_eq!(depth(&env, &dlq), 0);
    let (lost, duplicates) = lost_and_duplicates(&env, &[&dest, &dlq], &confirmed);
    assert_eq!(lost, 0, "none lost");
    assert!(duplicates as u64 <= unknown, "{duplicates}");
}

#[test]
fn after_a_second_ctrl_c_resume_waits_for_the_held_messages_and_moves_each_once() {
    let env = TestEnv::start();
    let dlq = env.create_queue("abort-dlq", &[]);
    let dest = env.create_queue("abort", &[]);
    let count = 60;
    let confirmed = fill(&env, &dlq, count, 1, |i, _| {
        MessageRecord::with_body(format!("m{i}"))
    });
    let journal = journal_path(&env, "abort.jsonl");
    // The run's releases are never answered, so the second Ctrl-C comes before SQS confirmed any:
    // as on a slow network, or with a second Ctrl-C pressed at once.
    let proxy = stalling_proxy(env.endpoint(), "ChangeMessageVisibilityBatch");
    // Long enough that the held messages are still in flight once the server's counts have
    // caught up with the abort (on a `--like-sqs` server they lag).
    let lag = env.count_lag();
    let visibility = if lag.is_zero() {
        4
    } else {
        4 + lag.as_secs() + 1
    };
    let child = spawn_through(
        &env,
        &proxy,
        &[
            "redrive",
            "abort-dlq",
            "--to",
            "abort",
            "--yes",
            "-o",
            "json",
            "--journal",
            &journal,
            "--concurrency",
            "3",
            "--rate",
            "10",
            "--visibility-timeout",
            &visibility.to_string(),
        ],
    );
    // One batch of 10 per second: the workers hold batches waiting for tokens.
    std::thread::sleep(Duration::from_millis(1500));
    support::sigint(child.id());
    std::thread::sleep(Duration::from_millis(300));
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    let aborted_at = std::time::SystemTime::now();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "stay hidden in abort-dlq until their visibility timeout ends, at most {visibility} s from now; `sqsctl redrive --resume {journal}` waits until then"
        )),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(
        !text.contains("\"released\""),
        "no release was confirmed, so none is journaled: {text}"
    );
    let (_plan, state) = sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
    let held_in_dlq = env.settled_attributes(&dlq).in_flight();
    assert!(state.held > 0, "{text}");
    assert_eq!(
        state.held, held_in_dlq,
        "the journal knows what is in flight"
    );
    let until = std::time::UNIX_EPOCH + Duration::from_millis(state.held_until_ms.unwrap());
    assert!(
        until <= aborted_at + Duration::from_secs(visibility),
        "in flight until at most one visibility timeout after the abort"
    );

    let run = env.run(&[
        "redrive", "--resume", &journal, "--yes", "-o", "json", "--rate", "1000",
    ]);
    let resumed_at = std::time::SystemTime::now();
    run.assert_code(0);
    assert!(
        run.stderr.contains(&format!(
            "for the {held_in_dlq} messages the interrupted run left in flight in abort-dlq"
        )),
        "{}",
        run.stderr
    );
    assert!(
        resumed_at >= until,
        "the resumed run waited for the deadline"
    );
    let s: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        state.moved_before + s["moved"].as_u64().unwrap(),
        count as u64,
        "{s}"
    );
    assert_eq!(depth(&env, &dlq), 0, "the DLQ is empty");
    assert_eq!(
        lost_and_duplicates(&env, &[&dest], &confirmed),
        (0, 0),
        "every message moved exactly once"
    );
}

/// Several processes (or hosts) may share one DLQ: SQS's visibility timeout keeps each message
/// with one of them at a time. Under faults nothing is lost, and a duplicate needs an ambiguous
/// send (as for one process), a hold that lapsed (an extension that failed or came late, after
/// which another process took the message), or a message one process sent and could not delete,
/// which came back and another process, not knowing it was sent, sent again: the summaries count
/// each, and their sum bounds the duplicates.
#[test]
fn three_processes_on_one_dlq_under_faults_lose_nothing_and_duplicate_within_the_bound() {
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        fault_rate: 0.05,
        entry_fault_rate: 0.05,
        seed: Some(20261124),
        ..ServerConfig::default()
    });
    let dlq = create(&env, "shared-dlq", &[]);
    let dest = create(&env, "shared", &[]);
    let confirmed = fill(&env, &dlq, 6_000, 8, |i, attempt| {
        MessageRecord::with_body(format!("m{i}:{attempt}"))
    });
    let before = env.server().stats();
    let journals: Vec<String> = (0..3)
        .map(|i| journal_path(&env, &format!("shared-{i}.jsonl")))
        .collect();
    let children: Vec<std::process::Child> = journals
        .iter()
        .map(|journal| {
            env.spawn_piped(&[
                "redrive",
                "shared-dlq",
                "--to",
                "shared",
                "--yes",
                "-o",
                "json",
                "--journal",
                journal,
                "--visibility-timeout",
                VISIBILITY,
            ])
        })
        .collect();
    let mut shares = Vec::new();
    let mut delete_failed = 0;
    let mut counted = 0;
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(0 | 3)),
            "{:?}: {stderr}",
            output.status
        );
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        shares.push(summary["moved"].as_u64().unwrap());
        delete_failed += summary["delete_failed"].as_u64().unwrap();
        counted += summary["possible_duplicates"].as_u64().unwrap();
    }
    assert!(
        shares.iter().filter(|&&moved| moved > 0).count() >= 2,
        "the processes shared the work: {shares:?}"
    );
    // What a process left (failed sends, messages a lost receive hid) is completed from its own
    // journal, as a user would.
    for _ in 0..4 {
        if depth(&env, &dlq) == 0 {
            break;
        }
        for journal in &journals {
            env.server()
                .clock()
                .advance(Duration::from_secs(VISIBILITY.parse::<u64>().unwrap() * 2));
            let run = env.run(&["redrive", "--resume", journal, "--yes", "-o", "json"]);
            assert!(matches!(run.code, 0 | 3), "{}", run.stderr);
            if let Ok(summary) = serde_json::from_str::<serde_json::Value>(&run.stdout) {
                delete_failed += summary["delete_failed"].as_u64().unwrap_or(0);
                counted += summary["possible_duplicates"].as_u64().unwrap_or(0);
            }
        }
    }
    assert_eq!(depth(&env, &dlq), 0, "the DLQ is empty in the end");
    let after = env.server().stats();
    let ambiguous_sends = after.ambiguous_sends - before.ambiguous_sends;
    let (lost, duplicates) = lost_and_duplicates(&env, &[&dest, &dlq], &confirmed);
    eprintln!(
        "three processes: moved {shares:?}; {ambiguous_sends} messages in ambiguous sends, {delete_failed} sent and not deleted, {counted} possible duplicates counted by the summaries; duplicates {duplicates}"
    );
    assert!(
        after.injected_errors > before.injected_errors + 50,
        "faults were injected"
    );
    assert_eq!(lost, 0, "no message lost");
    // What the summaries count is the bound the docs give: each process's possible duplicates
    // (ambiguous sends, holds that may have lapsed) and the messages it sent and could not delete.
    let bound = counted + delete_failed;
    assert!(
        duplicates as u64 <= bound,
        "{duplicates} duplicates > {bound} (possible duplicates and undeleted sends the summaries counted)"
    );
}

#[test]
fn an_adaptive_redrive_grows_while_more_workers_pay() {
    // A server 800 ms away: 32 workers move about 200 messages a second, and twice as many move
    // twice as much (little CPU either way, so that the tests running beside it, on a busy
    // machine, do not decide the outcome).
    let env = TestEnv::start_with(ServerConfig {
        inspection: false,
        latency: Duration::from_millis(800),
        ..ServerConfig::default()
    });
    let dlq = create(&env, "far-dlq", &[]);
    let dest = create(&env, "far", &[]);
    fill(&env, &dlq, 1_500, 50, |i, _| {
        MessageRecord::with_body(format!("m{i}"))
    });
    let run = env.run(&[
        "redrive", "far-dlq", "--to", "far", "--yes", "-o", "json", "-v",
    ]);
    run.assert_code(0);
    // `-v` says why the workers stopped where they did.
    let why = run
        .stderr
        .lines()
        .find(|line| {
            line.starts_with("debug: workers: it ") || line.starts_with("debug: workers: the run")
        })
        .unwrap_or_else(|| panic!("no reason for the workers in -v: {}", run.stderr));
    assert!(
        why.contains("stopped adding workers because") || why.contains("still adding"),
        "{why}"
    );
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["moved"], 1_500);
    let workers = &summary["workers"];
    assert_eq!(workers["adaptive"], true);
    // 32 workers double to 64 when 64 pay; whether 128 pay too depends on how much CPU the
    // machine leaves the client and the server beside the other tests, so only the first
    // doubling is asserted here (the controller's own tests cover the rest on a simulated clock).
    assert!(
        workers["most"].as_u64().unwrap() >= 64,
        "doubled at least once: {workers}"
    );
    assert_eq!(depth(&env, &dest), 1_500);
}

/// A run that ends with messages of its selection still in the DLQ never calls itself complete.
/// Under faults, some receives lose their answer: SQS hid the messages they got until the
/// visibility timeout ends, and a run waits for them at its end, and one that ended before (killed) did not see them. A run
/// killed and resumed several times, then stopped by two Ctrl-C, is resumed until it says it
/// completed: every run that exits 0 or journals `completed` leaves the DLQ empty, and every
/// other run exits 3 and names the resume.
#[test]
fn killed_and_resumed_under_faults_a_run_is_complete_only_when_the_dlq_is_empty() {
    let env = faulty(20261201);
    let dlq = create(&env, "again-dlq", &[]);
    let dest = create(&env, "again", &[]);
    let total = 20_000;
    let confirmed = fill(&env, &dlq, total, 8, |i, attempt| {
        MessageRecord::with_body(format!("m{i}:{attempt}"))
    });
    let journal = journal_path(&env, "again.jsonl");
    // A short hold, so that the resumes' waits for held messages stay short in real time (the
    // server's clock is moved on between runs; the client waits by its own).
    let visibility = 5;
    let first = [
        "redrive",
        "again-dlq",
        "--to",
        "again",
        "--yes",
        "-o",
        "json",
        "--journal",
        &journal,
        "--visibility-timeout",
        &visibility.to_string(),
    ];
    let resume = ["redrive", "--resume", &journal, "--yes", "-o", "json"];
    let hold_over = || {
        env.server()
            .clock()
            .advance(Duration::from_secs(2 * visibility + 1));
    };
    env.kill_9_after(&first, support::random_delay(300, 900));
    for _ in 0..3 {
        hold_over();
        env.kill_9_after(&resume, support::random_delay(300, 900));
    }
    hold_over();
    let child = env.spawn_piped(&resume);
    std::thread::sleep(support::random_delay(500, 700));
    support::sigint(child.id());
    std::thread::sleep(Duration::from_millis(100));
    support::sigint(child.id());
    let output = child.wait_with_output().unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 3 | 130)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut runs = Vec::new();
    let mut completed = false;
    for _ in 0..6 {
        let run = env.run(&resume);
        let (_plan, state) =
            sqsctl::redrive::journal::load(std::path::Path::new(&journal)).unwrap();
        let left = depth(&env, &dlq);
        runs.push((run.code, left));
        if run.code == 0 || state.completed.is_some() {
            assert_eq!(
                left,
                0,
                "a run that calls itself complete leaves nothing of its selection (exit {}, journal completed: {}): {}",
                run.code,
                state.completed.is_some(),
                run.stderr
            );
            completed = true;
            break;
        }
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("sqsctl redrive --resume {journal}")),
            "an incomplete run names the resume: {}",
            run.stderr
        );
        hold_over();
    }
    eprintln!("resumes (exit code, left in the DLQ): {runs:?}");
    // The end of a run waits for what its lost receives hid and looks again, so one completes.
    assert!(completed, "a resume completed the run: {runs:?}");
    assert_eq!(
        depth(&env, &dlq),
        0,
        "the DLQ is empty in the end: {runs:?}"
    );
    let (lost, _duplicates) = lost_and_duplicates(&env, &[&dest, &dlq], &confirmed);
    assert_eq!(lost, 0, "no message lost");
}
