//! `sqsctl local --data-dir`: what a `kill -9` of the real server process keeps, and `--init`
//! files as users write them.

use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::{
    DeleteMessageBatchRequestEntry, MessageSystemAttributeName, QueueAttributeName,
    SendMessageBatchRequestEntry,
};

use crate::support::{self, TestEnv, snapshot::assert_snapshot};

const WORKERS: usize = 8;

/// Spawns `sqsctl local` on a free port with `args` and `stderr`; returns it and the first line it
/// printed (its endpoint, or nothing when it exited first).
fn spawn_local(env: &TestEnv, args: &[&str], stderr: Stdio) -> (Child, String) {
    let mut child = env
        .cmd()
        .args(["local", "--bind", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

/// Starts `sqsctl local` on a free port with `args`; returns it and its endpoint.
fn start_local(env: &TestEnv, args: &[&str]) -> (Child, String) {
    let (child, line) = spawn_local(env, args, Stdio::null());
    let endpoint = line
        .trim()
        .strip_prefix("export AWS_ENDPOINT_URL_SQS=")
        .unwrap_or_else(|| panic!("no endpoint line: {line:?}"))
        .to_string();
    (child, endpoint)
}

async fn create(sqs: &Client, name: &str) -> String {
    let mut request = sqs.create_queue().queue_name(name);
    if name.ends_with(".fifo") {
        request = request.attributes(QueueAttributeName::FifoQueue, "true");
    }
    request.send().await.unwrap().queue_url.unwrap()
}

fn entries(bodies: &[String], delay: i32) -> Vec<SendMessageBatchRequestEntry> {
    bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("e{i}"))
                .message_body(body)
                .delay_seconds(delay)
                .build()
                .unwrap()
        })
        .collect()
}

/// Sends `bodies` in batches of 10 from several workers, each entry confirmed.
async fn send_all(sqs: &Client, url: &str, bodies: Vec<String>, delay: i32) {
    let chunks: Vec<Vec<String>> = bodies.chunks(10).map(<[String]>::to_vec).collect();
    let queue = Arc::new(Mutex::new(chunks));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..WORKERS {
        let (sqs, url, queue) = (sqs.clone(), url.to_string(), queue.clone());
        workers.spawn(async move {
            loop {
                let Some(chunk) = queue.lock().unwrap().pop() else {
                    return;
                };
                let out = sqs
                    .send_message_batch()
                    .queue_url(&url)
                    .set_entries(Some(entries(&chunk, delay)))
                    .send()
                    .await
                    .unwrap();
                assert!(out.failed().is_empty(), "{:?}", out.failed());
            }
        });
    }
    while workers.join_next().await.is_some() {}
}

/// Receives up to `n` messages with `visibility` seconds; returns their bodies and handles.
async fn receive(sqs: &Client, url: &str, n: usize, visibility: i32) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while out.len() < n {
        let got = sqs
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10.min((n - out.len()) as i32))
            .visibility_timeout(visibility)
            .send()
            .await
            .unwrap();
        assert!(!got.messages().is_empty(), "ran out after {}", out.len());
        out.extend(got.messages().iter().map(|m| {
            (
                m.body().unwrap().to_string(),
                m.receipt_handle().unwrap().to_string(),
            )
        }));
    }
    out
}

async fn delete(sqs: &Client, url: &str, handles: &[String]) {
    for chunk in handles.chunks(10) {
        let entries = chunk
            .iter()
            .enumerate()
            .map(|(i, h)| {
                DeleteMessageBatchRequestEntry::builder()
                    .id(format!("d{i}"))
                    .receipt_handle(h)
                    .build()
                    .unwrap()
            })
            .collect();
        let out = sqs
            .delete_message_batch()
            .queue_url(url)
            .set_entries(Some(entries))
            .send()
            .await
            .unwrap();
        assert!(out.failed().is_empty(), "{:?}", out.failed());
    }
}

/// Receives everything visible, from several workers, with a visibility timeout that outlasts the
/// test (fewer calls than deleting too); returns each body with its receive count.
async fn receive_all(sqs: &Client, url: &str) -> Vec<(String, u32)> {
    let found = Arc::new(Mutex::new(Vec::new()));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..WORKERS {
        let (sqs, url, found) = (sqs.clone(), url.to_string(), found.clone());
        workers.spawn(async move {
            loop {
                let got = sqs
                    .receive_message()
                    .queue_url(&url)
                    .max_number_of_messages(10)
                    .visibility_timeout(600)
                    .message_system_attribute_names(
                        MessageSystemAttributeName::ApproximateReceiveCount,
                    )
                    .send()
                    .await
                    .unwrap();
                if got.messages().is_empty() {
                    return;
                }
                let mut found = found.lock().unwrap();
                for m in got.messages() {
                    let count = m
                        .attributes()
                        .and_then(|a| a.get(&MessageSystemAttributeName::ApproximateReceiveCount))
                        .and_then(|c| c.parse().ok())
                        .unwrap_or(0);
                    found.push((m.body().unwrap().to_string(), count));
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    std::mem::take(&mut *found.lock().unwrap())
}

/// Visible, in flight, delayed.
async fn counts(sqs: &Client, url: &str) -> (u64, u64, u64) {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await
        .unwrap();
    let attrs = out.attributes().unwrap();
    let get = |name| attrs[&name].parse::<u64>().unwrap();
    (
        get(QueueAttributeName::ApproximateNumberOfMessages),
        get(QueueAttributeName::ApproximateNumberOfMessagesNotVisible),
        get(QueueAttributeName::ApproximateNumberOfMessagesDelayed),
    )
}

/// Sends batches from several workers until the server dies; returns every body it acknowledged.
async fn send_until_killed(sqs: &Client, url: &str) -> Vec<String> {
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..WORKERS {
        let (sqs, url, acknowledged) = (sqs.clone(), url.to_string(), acknowledged.clone());
        workers.spawn(async move {
            for round in 0.. {
                let bodies: Vec<String> = (0..10)
                    .map(|i| format!("burst-{worker}-{round}-{i}"))
                    .collect();
                let Ok(out) = sqs
                    .send_message_batch()
                    .queue_url(&url)
                    .set_entries(Some(entries(&bodies, 0)))
                    .send()
                    .await
                else {
                    return;
                };
                let ok: BTreeSet<&str> = out.successful().iter().map(|s| s.id()).collect();
                let mut acknowledged = acknowledged.lock().unwrap();
                for (i, body) in bodies.into_iter().enumerate() {
                    if ok.contains(format!("e{i}").as_str()) {
                        acknowledged.push(body);
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    std::mem::take(&mut *acknowledged.lock().unwrap())
}

#[test]
fn kill_9_loses_no_acknowledged_change() {
    let env = TestEnv::start();
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().to_str().unwrap();
    let (mut server, endpoint) = start_local(&env, &["--data-dir", data_dir]);
    let sqs = support::sdk_client(&endpoint);
    let all: Vec<String> = (0..10_000).map(|i| format!("m{i:05}")).collect();
    let (state, fifo, burst, long, short, deleted, original_id, acknowledged) =
        env.block_on(async {
            let state = create(&sqs, "state").await;
            let fifo = create(&sqs, "dedup.fifo").await;
            let burst = create(&sqs, "burst").await;
            send_all(&sqs, &state, all[..1_000].to_vec(), 900).await;
            send_all(&sqs, &state, all[1_000..].to_vec(), 0).await;
            let long = receive(&sqs, &state, 500, 43_200).await;
            let short = receive(&sqs, &state, 300, 2).await;
            let gone = receive(&sqs, &state, 200, 600).await;
            let handles: Vec<String> = gone.iter().map(|(_, h)| h.clone()).collect();
            delete(&sqs, &state, &handles).await;
            let original_id = sqs
                .send_message()
                .queue_url(&fifo)
                .message_body("once")
                .message_group_id("g")
                .message_deduplication_id("d-1")
                .send()
                .await
                .unwrap()
                .message_id
                .unwrap();
            // Senders in full flight when the process is killed.
            let killer = {
                let pid = server.id();
                tokio::spawn(async move {
                    tokio::time::sleep(support::random_delay(200, 300)).await;
                    let status = std::process::Command::new("kill")
                        .args(["-9", &pid.to_string()])
                        .status()
                        .unwrap();
                    assert!(status.success());
                })
            };
            let acknowledged = send_until_killed(&sqs, &burst).await;
            killer.await.unwrap();
            let bodies = |list: &[(String, String)]| -> BTreeSet<String> {
                list.iter().map(|(b, _)| b.clone()).collect()
            };
            (
                state,
                fifo,
                burst,
                bodies(&long),
                bodies(&short),
                bodies(&gone),
                original_id,
                acknowledged,
            )
        });
    server.wait().unwrap();
    assert!(
        acknowledged.len() >= 10,
        "the server was killed before it acknowledged any burst"
    );

    let (mut server, endpoint) = start_local(&env, &["--data-dir", data_dir]);
    let sqs = support::sdk_client(&endpoint);
    // Queue URLs carry the port: the restarted server has a new one.
    let url = |old: &str| {
        format!(
            "{endpoint}/000000000000/{}",
            old.rsplit('/').next().unwrap()
        )
    };
    env.block_on(async {
        let state = url(&state);
        let (visible, in_flight, delayed) = counts(&sqs, &state).await;
        assert_eq!(delayed, 1_000);
        assert_eq!(
            visible + in_flight,
            8_800,
            "{visible} visible, {in_flight} in flight"
        );
        // The short visibility timeouts run out; the long ones hold.
        let deadline = Instant::now() + Duration::from_secs(20);
        while counts(&sqs, &state).await.1 > 500 {
            assert!(
                Instant::now() < deadline,
                "in-flight messages never reappeared"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let drained = receive_all(&sqs, &state).await;
        let expected: BTreeSet<String> = all[1_000..]
            .iter()
            .filter(|b| !long.contains(*b) && !deleted.contains(*b))
            .cloned()
            .collect();
        let got: BTreeSet<String> = drained.iter().map(|(b, _)| b.clone()).collect();
        assert_eq!(drained.len(), got.len(), "a message came back twice");
        assert_eq!(got, expected);
        for (body, count) in &drained {
            let expected = if short.contains(body) { 2 } else { 1 };
            assert_eq!(*count, expected, "receive count of {body}");
        }
        assert_eq!(counts(&sqs, &state).await, (0, 8_800, 1_000));

        let fifo = url(&fifo);
        let again = sqs
            .send_message()
            .queue_url(&fifo)
            .message_body("twice")
            .message_group_id("g")
            .message_deduplication_id("d-1")
            .send()
            .await
            .unwrap();
        assert_eq!(again.message_id(), Some(original_id.as_str()));
        assert_eq!(counts(&sqs, &fifo).await, (1, 0, 0));

        let kept: BTreeSet<String> = receive_all(&sqs, &url(&burst))
            .await
            .into_iter()
            .map(|(b, _)| b)
            .collect();
        let lost: Vec<&String> = acknowledged.iter().filter(|b| !kept.contains(*b)).collect();
        assert!(
            lost.is_empty(),
            "{} of {} acknowledged sends lost, e.g. {:?}",
            lost.len(),
            acknowledged.len(),
            lost.first()
        );
    });
    server.kill().unwrap();
    server.wait().unwrap();
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `sqsctl local` with `args` until it prints its endpoint (then stops it with Ctrl-C) or
/// exits; returns its exit code and stderr.
fn local_run(env: &TestEnv, args: &[&str]) -> (i32, String) {
    let (child, line) = spawn_local(env, args, Stdio::piped());
    if !line.is_empty() {
        support::sigint(child.id());
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const LAYOUT: &str = r#"
[[queue]]
name = "orders"
dead_letter_queue = "orders-dlq"
max_receive_count = 5
attributes = { VisibilityTimeout = 60, DelaySeconds = "5" }
tags = { team = "checkout" }

[[queue]]
name = "orders-dlq"
attributes = { MessageRetentionPeriod = 1209600 }
"#;

#[test]
fn init_files_create_queues_once_and_refuse_changed_settings() {
    let env = TestEnv::start();
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let data_dir = data_dir.to_str().unwrap();
    let layout = write(dir.path(), "queues.toml", LAYOUT);
    let (code, first) = local_run(&env, &["--data-dir", data_dir, "--init", &layout]);
    assert_eq!(code, 130, "{first}");
    assert!(
        first.contains("queues.toml: created orders-dlq, orders\n"),
        "{first}"
    );
    let (code, second) = local_run(&env, &["--data-dir", data_dir, "--init", &layout]);
    assert_eq!(code, 130, "{second}");
    assert!(
        second.contains("restored 2 queues and 0 messages")
            && second.contains("queues.toml: already there: orders, orders-dlq\n"),
        "{second}"
    );
    // The same layout as JSON, with a changed timeout and tag.
    let json = write(
        dir.path(),
        "queues.json",
        r#"{"queues": [
            {"name": "orders-dlq", "attributes": {"MessageRetentionPeriod": 1209600}},
            {"name": "orders", "dead_letter_queue": "orders-dlq", "max_receive_count": 5,
             "attributes": {"VisibilityTimeout": 90, "DelaySeconds": 5}, "tags": {"team": "billing"}}
        ]}"#,
    );
    let (code, changed) = local_run(&env, &["--data-dir", data_dir, "--init", &json]);
    assert_eq!(code, 1, "{changed}");
    let broken = write(dir.path(), "broken.toml", "[[queue]]\nnmae = \"x\"\n");
    let (code, unreadable) = local_run(&env, &["--init", &broken]);
    assert_eq!(code, 1, "{unreadable}");
    let shown = format!(
        "changed settings:\n{changed}\nunknown field:\n{unreadable}",
        changed = changed.replace(dir.path().to_str().unwrap(), "[dir]"),
        unreadable = unreadable.replace(dir.path().to_str().unwrap(), "[dir]")
    );
    assert_snapshot!(shown);
}

/// Copies the files of a data directory into a new one.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The names and sizes of the files in a directory.
fn files(dir: &Path) -> Vec<(String, u64)> {
    let mut files: Vec<(String, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, e.metadata().unwrap().len())
        })
        .collect();
    files.sort();
    files
}

/// The number in `text` right before `what`, e.g. 12 in "kept 1 queue and 12 messages".
fn number_before(text: &str, what: &str) -> u64 {
    let at = text
        .find(what)
        .unwrap_or_else(|| panic!("no {what:?} in {text}"));
    let digits: String = text[..at]
        .trim_end()
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn a_damaged_data_directory_is_refused_and_recover_keeps_what_it_can() {
    let env = TestEnv::start();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    let (mut server, endpoint) = start_local(&env, &["--data-dir", base.to_str().unwrap()]);
    let sqs = support::sdk_client(&endpoint);
    let bodies: Vec<String> = (0..2_000).map(|i| format!("m{i:04}")).collect();
    env.block_on(async {
        let url = create(&sqs, "jobs").await;
        send_all(&sqs, &url, bodies, 0).await;
    });
    // Killed: everything since the start is in the write-ahead log.
    server.kill().unwrap();
    server.wait().unwrap();
    let wal_len = std::fs::metadata(base.join("sqsctl-local.db-wal"))
        .unwrap()
        .len();
    let frame = 24 + 4096;
    assert!(wal_len > 32 + 4 * frame, "the log holds {wal_len} bytes");

    type Damage = fn(&Path);
    let cases: [(&str, Damage); 4] = [
        ("deleted log", |d| {
            std::fs::remove_file(d.join("sqsctl-local.db-wal")).unwrap();
        }),
        ("garbage in the log's header", |d| {
            let path = d.join("sqsctl-local.db-wal");
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[..32].fill(0xab);
            std::fs::write(&path, bytes).unwrap();
        }),
        ("database cut to 0 bytes", |d| {
            std::fs::File::create(d.join("sqsctl-local.db")).unwrap();
        }),
        ("log cut in the middle of a frame", |d| {
            let path = d.join("sqsctl-local.db-wal");
            let len = std::fs::metadata(&path).unwrap().len();
            let cut = 32 + (len - 32) / (24 + 4096) / 2 * (24 + 4096) + 1_000;
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(cut)
                .unwrap();
        }),
    ];
    let mut refusals = String::new();
    for (i, (name, damage)) in cases.iter().enumerate() {
        let case = dir.path().join(format!("case{i}"));
        copy_dir(&base, &case);
        damage(&case);
        let before = files(&case);
        let (code, stderr) = local_run(&env, &["--data-dir", case.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {stderr}");
        let after = files(&case);
        assert_eq!(before, after, "{name}: a refused start changed the files");
        let stderr = stderr.replace(dir.path().to_str().unwrap(), "[dir]");
        if name.starts_with("log cut") {
            // How many frames the cut leaves depends on how the sends were batched.
            assert!(
                stderr.contains("sqsctl-local.db-wal is damaged: it ends in the middle of a frame"),
                "{stderr}"
            );
        } else {
            refusals.push_str(&format!("{name}:\n{stderr}\n"));
        }

        let (code, recovered) =
            local_run(&env, &["--data-dir", case.to_str().unwrap(), "--recover"]);
        assert_eq!(code, 130, "{name}: {recovered}");
        assert!(
            recovered.contains("--recover: set aside"),
            "{name}: {recovered}"
        );
        assert!(
            recovered.contains("--recover: dropped: "),
            "{name}: {recovered}"
        );
        let kept = number_before(&recovered, "messages; the files set aside");
        let restored = number_before(&recovered, "messages\n");
        assert_eq!(kept, restored, "{name}: {recovered}");
        if name.starts_with("log cut") {
            assert!(0 < kept && kept < 2_000, "{name}: {recovered}");
        }
        let aside = std::fs::read_dir(&case)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".damaged-")
            })
            .count();
        assert!(aside >= 1, "{name}: nothing set aside");
        // Recovered for good: a plain start takes the directory as it is now.
        let (code, again) = local_run(&env, &["--data-dir", case.to_str().unwrap()]);
        assert_eq!(code, 130, "{name}: {again}");
        assert!(
            again.contains(&format!("and {kept} messages")),
            "{name}: {again}"
        );
    }
    assert_snapshot!(refusals);
}

/// `scripts/crash_loop.sh`, short: 10 `kill -9` of the real server during FIFO sends retried with
/// their dedup ids; the full run (100 kills) is the script's default.
#[cfg(unix)]
#[test]
fn crash_loop_loses_no_acknowledged_fifo_send() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/crash_loop.sh");
    let output = std::process::Command::new("bash")
        .arg(script)
        .env("SQSCTL", support::BIN)
        .env("KILLS", "10")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.ends_with("10 passed, 0 failed\n"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A row that reads back differently is refused as damage of the database file, with what
/// `--recover` does; a busy address stays an address error, with the directory healthy.
#[test]
fn a_damaged_row_names_the_file_and_a_busy_address_stays_an_address_error() {
    let env = TestEnv::start();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data_arg = data.to_str().unwrap();
    let (server, endpoint) = start_local(&env, &["--data-dir", data_arg]);
    let sqs = support::sdk_client(&endpoint);
    let bodies: Vec<String> = (0..20).map(|i| format!("needle-{i:04}")).collect();
    env.block_on(async {
        let url = create(&sqs, "jobs").await;
        send_all(&sqs, &url, bodies, 0).await;
    });
    // A clean stop: the rows are in the database file itself.
    support::sigint(server.id());
    assert!(server.wait_with_output().unwrap().status.code() == Some(130));

    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = busy.local_addr().unwrap().to_string();
    let output = env
        .cmd()
        .args(["local", "--bind", &address, "--data-dir", data_arg])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("could not start the server on {address}")),
        "{stderr}"
    );
    assert!(!stderr.contains("damaged"), "{stderr}");
    drop(busy);

    let db = data.join("sqsctl-local.db");
    let mut bytes = std::fs::read(&db).unwrap();
    let at = bytes
        .windows(11)
        .position(|w| w == b"needle-0007")
        .expect("the body is in the database file");
    bytes[at + 10] ^= 0x01;
    std::fs::write(&db, bytes).unwrap();
    let (code, stderr) = local_run(&env, &["--data-dir", data_arg]);
    assert_eq!(code, 1, "{stderr}");
    let mut stderr = stderr.replace(dir.path().to_str().unwrap(), "[dir]");
    assert!(
        !stderr.contains("could not start the server on"),
        "{stderr}"
    );
    // Concurrent sends number their rows in the order they arrive.
    if let Some(at) = stderr.find("message row ") {
        let digits = stderr[at + 12..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(0);
        stderr.replace_range(at + 12..at + 12 + digits, "[n]");
    }
    assert_snapshot!(stderr);

    let (code, recovered) = local_run(&env, &["--data-dir", data_arg, "--recover"]);
    assert_eq!(code, 130, "{recovered}");
    // One line for the one message lost, which says why.
    assert!(
        recovered.contains(
            "queue jobs: kept 19 of its 20 messages, 1 could not be read (1 damaged row among them)"
        ),
        "{recovered}"
    );
    assert!(!recovered.contains("damaged message row"), "{recovered}");
}
