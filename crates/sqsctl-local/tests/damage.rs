//! Damage to a data directory, at random: byte flips and cuts of the database file and of its
//! write-ahead log. A start either restores exactly what was kept or refuses, naming the file;
//! `--recover` keeps every row outside the damaged pages and never brings back a deleted message.
//! The seed is printed; `SQSCTL_DAMAGE_SEED=<seed>` repeats a run's damage (where it falls and
//! what it writes; the directory's bytes differ with its random message ids).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::SystemTime;

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::SendMessageBatchRequestEntry;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::types::Value;
use sqsctl_local::{Clock, Server, ServerConfig};

#[path = "support/mod.rs"]
mod support;

use support::{delete, receive_up_to, send_batch};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PAGE: usize = 4096;
const FRAME: usize = 24 + PAGE;
const CASES: usize = 200;

fn config(dir: &Path) -> ServerConfig {
    ServerConfig {
        clock: Clock::manual(
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000),
        ),
        data_dir: Some(dir.to_path_buf()),
        ..ServerConfig::default()
    }
}

/// A marker unique to each message, repeated through its body, so that any page holding part
/// of the message holds the marker whole.
fn body(queue: &str, n: usize) -> String {
    let marker = format!("<{queue}-{n:05}>");
    let len = if n % 11 == 3 { 6_000 } else { 60 + n % 50 };
    marker.repeat(len / marker.len() + 1)
}

fn marker_of(body: &str) -> &str {
    body.split_inclusive('>').next().unwrap_or(body)
}

async fn send_all(
    sqs: &Client,
    url: &str,
    queue: &str,
    range: std::ops::Range<usize>,
) -> TestResult {
    let fifo = queue.ends_with(".fifo");
    let ids: Vec<usize> = range.collect();
    for chunk in ids.chunks(10) {
        let entries = chunk
            .iter()
            .map(|&n| {
                let mut entry = SendMessageBatchRequestEntry::builder()
                    .id(format!("e{n}"))
                    .message_body(body(queue, n));
                if fifo {
                    entry = entry
                        .message_group_id(format!("g{}", n % 3))
                        .message_deduplication_id(format!("d{n}"));
                }
                entry.build()
            })
            .collect::<Result<Vec<_>, _>>()?;
        send_batch(sqs, url, entries).await?;
    }
    Ok(())
}

/// Receives up to `n` messages, deleting them when `remove`; returns their bodies.
async fn take(
    sqs: &Client,
    url: &str,
    n: usize,
    remove: bool,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut bodies = Vec::new();
    while bodies.len() < n {
        let got = receive_up_to(sqs, url, 10).await?;
        let messages = got.messages.unwrap_or_default();
        if messages.is_empty() {
            break;
        }
        for m in messages {
            if remove {
                delete(sqs, url, m.receipt_handle.unwrap_or_default()).await?;
            }
            bodies.push(m.body.unwrap_or_default());
        }
    }
    Ok(bodies)
}

/// Fills `dir` with three queues (one FIFO), deleted and in-flight messages, part checkpointed
/// into the database file and part in the log, and returns the deleted messages' bodies.
async fn populate(dir: &Path, copy_to: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut deleted = Vec::new();
    let queues = ["alpha", "beta", "gamma.fifo"];
    {
        let server = Server::start(config(dir))?;
        let sqs = support::client_at(&server, "us-east-1", 3);
        for q in queues {
            let mut create = sqs.create_queue().queue_name(q);
            if q.ends_with(".fifo") {
                create =
                    create.attributes(aws_sdk_sqs::types::QueueAttributeName::FifoQueue, "true");
            }
            let url = create.send().await?.queue_url.unwrap_or_default();
            send_all(&sqs, &url, q, 0..100).await?;
        }
        let alpha = server.queue_url("alpha");
        deleted.extend(take(&sqs, &alpha, 40, true).await?);
        server.shutdown().await;
    }
    let server = Server::start(config(dir))?;
    let sqs = support::client_at(&server, "us-east-1", 3);
    for q in queues {
        send_all(&sqs, &server.queue_url(q), q, 100..150).await?;
    }
    take(&sqs, &server.queue_url("beta"), 15, false).await?;
    deleted.extend(take(&sqs, &server.queue_url("gamma.fifo"), 20, true).await?);
    deleted.extend(take(&sqs, &server.queue_url("alpha"), 20, true).await?);
    // Every change is committed when its call returns: the files are copied as a crash would
    // leave them, the log holding what came after the restart.
    std::fs::create_dir_all(copy_to)?;
    for name in ["sqsctl-local.db", "sqsctl-local.db-wal"] {
        std::fs::copy(dir.join(name), copy_to.join(name))?;
    }
    server.shutdown().await;
    Ok(deleted)
}

type Rows = BTreeMap<i64, Vec<Value>>;

/// The message rows of the database in `dir`, read through SQLite from a scratch copy.
fn message_rows(dir: &Path) -> Result<Rows, Box<dyn std::error::Error>> {
    let scratch = tempfile::tempdir()?;
    for name in ["sqsctl-local.db", "sqsctl-local.db-wal"] {
        if dir.join(name).exists() {
            std::fs::copy(dir.join(name), scratch.path().join(name))?;
        }
    }
    let conn = rusqlite::Connection::open(scratch.path().join("sqsctl-local.db"))?;
    let mut statement = conn.prepare("SELECT * FROM messages")?;
    let columns = statement.column_count();
    let rows = statement
        .query_map([], |r| {
            let values: Vec<Value> = (0..columns).map(|i| r.get(i)).collect::<Result<_, _>>()?;
            Ok((r.get::<_, i64>(0)?, values))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

fn body_of(values: &[Value]) -> &str {
    match &values[3] {
        Value::Text(t) => t,
        _ => "",
    }
}

/// The byte ranges of the original file whose pages a damage makes unreadable: the pages a flip
/// touches, or every page after a cut (for the log, every frame after the last commit before
/// the cut).
fn damaged_ranges(
    file: &[u8],
    is_log: bool,
    flip: Option<usize>,
    cut: Option<usize>,
) -> Vec<std::ops::Range<usize>> {
    let unit = if is_log { FRAME } else { PAGE };
    let base = if is_log { 32 } else { 0 };
    let of = |at: usize| (at.max(base) - base) / unit;
    let range = |index: usize| base + index * unit..(base + (index + 1) * unit).min(file.len());
    match (flip, cut) {
        (Some(at), _) => (of(at)..=of(at + 15)).map(range).collect(),
        (_, Some(cut)) if is_log => {
            let whole = cut.saturating_sub(32) / FRAME;
            let commit = (0..whole)
                .rev()
                .find(|&i| file[32 + i * FRAME + 4..32 + i * FRAME + 8] != [0; 4])
                .map_or(0, |i| i + 1);
            std::iter::once(32 + commit * FRAME..file.len()).collect()
        }
        (_, Some(cut)) => std::iter::once(cut / PAGE * PAGE..file.len()).collect(),
        _ => Vec::new(),
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_damage_is_refused_at_start_and_recover_keeps_every_undamaged_row() -> TestResult {
    let seed: u64 = std::env::var("SQSCTL_DAMAGE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::rng().random());
    println!("damage seed {seed} (SQSCTL_DAMAGE_SEED={seed} repeats this run's damage)");
    let mut rng = StdRng::seed_from_u64(seed);
    // In memory where the system has it: the cases' fsyncs are not what is tested.
    let shm = Path::new("/dev/shm");
    let work = if shm.is_dir() {
        tempfile::tempdir_in(shm)?
    } else {
        tempfile::tempdir()?
    };
    let base = work.path().join("base");
    let deleted = populate(&work.path().join("live"), &base).await?;
    let truth = message_rows(&base)?;
    let deleted_markers: HashSet<&str> = deleted.iter().map(|b| marker_of(b)).collect();
    assert!(truth.len() > 300, "{} rows", truth.len());
    assert!(deleted.len() >= 70, "{} deleted", deleted.len());
    assert!(
        truth
            .values()
            .all(|v| !deleted_markers.contains(marker_of(body_of(v))))
    );
    let db = std::fs::read(base.join("sqsctl-local.db"))?;
    let log = std::fs::read(base.join("sqsctl-local.db-wal"))?;
    assert!(
        db.len() > 40 * PAGE && log.len() > 20 * FRAME,
        "db {} log {}",
        db.len(),
        log.len()
    );

    let (mut refused, mut started, mut lost_rows) = (0, 0, 0usize);
    for case in 0..CASES {
        let dir = work.path().join(format!("case{case}"));
        std::fs::create_dir_all(&dir)?;
        // The first cases hit the headers and cut the database in half; the rest fall anywhere.
        let is_log = match case {
            0..=2 => false,
            3 => true,
            _ => rng.random_bool(0.4),
        };
        let (name, original) = if is_log {
            ("sqsctl-local.db-wal", &log)
        } else {
            ("sqsctl-local.db", &db)
        };
        let other = if is_log {
            "sqsctl-local.db"
        } else {
            "sqsctl-local.db-wal"
        };
        std::fs::copy(base.join(other), dir.join(other))?;
        let mut bytes = original.clone();
        let (flip, cut) = if case == 2 {
            let cut = bytes.len() / 2;
            bytes.truncate(cut);
            (None, Some(cut))
        } else if case < 4 || rng.random_bool(0.8) {
            let at = match case {
                0 | 3 => 0,
                1 => 12,
                _ => rng.random_range(0..bytes.len() - 16),
            };
            for b in &mut bytes[at..at + 16] {
                *b ^= rng.random_range(1..=255u8);
            }
            (Some(at), None)
        } else {
            let cut = rng.random_range(0..bytes.len());
            bytes.truncate(cut);
            (None, Some(cut))
        };
        std::fs::write(dir.join(name), &bytes)?;
        let what = format!(
            "case {case} (seed {seed}): {name} {}",
            match (flip, cut) {
                (Some(at), _) => format!("16 bytes flipped at {at}"),
                (_, Some(cut)) => format!("cut to {cut} bytes"),
                _ => String::new(),
            }
        );

        match Server::start(config(&dir)) {
            Ok(server) => {
                server.shutdown().await;
                started += 1;
                // A start is only right with exactly the rows that were kept.
                assert_eq!(
                    message_rows(&dir)?,
                    truth,
                    "{what}: a start restored other messages"
                );
                continue;
            }
            Err(err) => {
                refused += 1;
                let text = err.to_string();
                assert_eq!(
                    err.kind(),
                    std::io::ErrorKind::InvalidData,
                    "{what}: {text}"
                );
                assert!(
                    text.contains(&dir.join("sqsctl-local.db").display().to_string()),
                    "{what}: the refusal names no file: {text}"
                );
            }
        }
        // A cut log loses the transactions after its last whole commit, the deletions among
        // them too: recovery can only keep what SQLite reads of the log up to there.
        let reference = match cut {
            Some(cut) if is_log => {
                let whole = damaged_ranges(original, true, None, Some(cut))[0]
                    .start
                    .min(cut);
                let at_cut = work.path().join("at_cut");
                std::fs::create_dir_all(&at_cut)?;
                std::fs::copy(base.join("sqsctl-local.db"), at_cut.join("sqsctl-local.db"))?;
                std::fs::write(at_cut.join("sqsctl-local.db-wal"), &original[..whole])?;
                let rows = message_rows(&at_cut)?;
                std::fs::remove_dir_all(&at_cut)?;
                rows
            }
            _ => truth.clone(),
        };
        let recovery = sqsctl_local::recover(&dir)?;
        assert!(recovery.damaged, "{what}");
        let kept = message_rows(&dir)?;
        for (row, values) in &kept {
            let marker = marker_of(body_of(values));
            assert!(
                !deleted_markers.contains(marker) || reference.contains_key(row),
                "{what}: recover brought back deleted message {marker} (row {row})"
            );
            assert_eq!(
                reference.get(row),
                Some(values),
                "{what}: recover kept a row that was not stored so"
            );
        }
        let ranges = if reference == truth {
            damaged_ranges(original, is_log, flip, cut)
        } else {
            Vec::new()
        };
        for (row, values) in &reference {
            if kept.contains_key(row) {
                continue;
            }
            lost_rows += 1;
            // A message whose queue row was lost goes with it, and is reported so.
            if let Value::Integer(queue) = values[1]
                && recovery
                    .dropped
                    .iter()
                    .any(|d| d.starts_with(&format!("queue row {queue} could not be read")))
            {
                continue;
            }
            let marker = marker_of(body_of(values)).as_bytes();
            assert!(
                ranges
                    .iter()
                    .any(|r| contains(&original[r.clone()], marker)),
                "{what}: recover dropped row {row} ({}), which is on no damaged page; {recovery:?}",
                String::from_utf8_lossy(marker)
            );
        }
        assert_eq!(recovery.messages as usize, kept.len(), "{what}");
        if kept.len() < reference.len() || reference != truth {
            assert!(
                !recovery.dropped.is_empty(),
                "{what}: rows were dropped silently"
            );
        }
        std::fs::remove_dir_all(&dir)?;
    }
    println!(
        "{CASES} cases: {refused} refused, {started} started with every row; recover dropped {lost_rows} rows on damaged pages in all"
    );
    Ok(())
}
