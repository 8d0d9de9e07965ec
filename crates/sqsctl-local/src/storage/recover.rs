//! Recovering a damaged data directory (`sqsctl local --recover`): keeps what can be read, sets
//! the damaged files aside and says what was dropped.
//!
//! A directory that opens cleanly is left alone. Otherwise the database, its write-ahead log and
//! its shared-memory file are renamed with a `.damaged-<unix seconds>` suffix (never deleted) and
//! a new database is built from them, then renamed into place. Queue and message rows are read
//! page by page ([`crate::storage::salvage`]), so a damaged header, b-tree page or cut file loses
//! only the rows on the pages that are damaged; each kept row verifies against its checksum. The
//! small tables (settings, move tasks, deduplication ids) are read through SQLite from a working
//! copy (the log cut after its last readable commit), and a database of a format before row
//! checksums is read that way too. What could not be kept is reported by queue, from the message
//! counts the damaged database still holds, never dropped silently. It runs before the server
//! starts and knows nothing of requests.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;
use rusqlite::types::Value;

use crate::storage::disk::{self, Disk, DiskError, FILE_NAME, WAL_NAME};
use crate::storage::{rows, salvage, wal};

const SOURCE_NAME: &str = "sqsctl-local.db.recovering-source";
const TARGET_NAME: &str = "sqsctl-local.db.recovering";

/// What a recovery did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Whether damage was found; `false` when the directory was left as it is.
    pub damaged: bool,
    /// What was wrong, as the refused start would have said it.
    pub damage: Vec<String>,
    /// The damaged files, under their new names.
    pub set_aside: Vec<PathBuf>,
    /// What could not be kept, one line each.
    pub dropped: Vec<String>,
    /// What the recovered database holds.
    pub queues: u64,
    pub messages: u64,
}

/// Checks `dir` as a start would and, when it is damaged, rebuilds its database from what can
/// be read. An error means nothing was changed, or (for an I/O error while rebuilding) that the
/// damaged files are set aside and the directory holds no database yet.
pub fn recover(dir: &Path) -> std::io::Result<Recovery> {
    Ok(rebuild(dir)?)
}

fn rebuild(dir: &Path) -> Result<Recovery, DiskError> {
    let mut recovery = Recovery::default();
    match dir.try_exists() {
        Ok(false) => return Ok(recovery),
        Ok(true) => {}
        Err(e) => return Err(DiskError::Io(dir.to_path_buf(), e)),
    }
    match check(dir) {
        Ok(()) => return Ok(recovery),
        Err(err) if err.is_damage() => recovery.damage.push(err.to_string()),
        Err(err) => return Err(err),
    }
    recovery.damaged = true;
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let db = dir.join(FILE_NAME);
    let wal_path = dir.join(WAL_NAME);
    let shm = dir.join("sqsctl-local.db-shm");
    let mut aside = |path: &Path| -> Result<Option<PathBuf>, DiskError> {
        if !path.try_exists().map_err(io(path))? {
            return Ok(None);
        }
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".damaged-{stamp}"));
        let to = PathBuf::from(name);
        std::fs::rename(path, &to).map_err(io(path))?;
        recovery.set_aside.push(to.clone());
        Ok(Some(to))
    };
    let old_db = aside(&db)?;
    let old_wal = aside(&wal_path)?;
    aside(&shm)?;
    disk::sync_dir(dir);

    let source = dir.join(SOURCE_NAME);
    disk::remove_scratch(&source)?;
    let readable = prepare_source(
        old_db.as_deref(),
        old_wal.as_deref(),
        &source,
        &mut recovery,
    )?;
    let target = dir.join(TARGET_NAME);
    disk::create_at(&target)?;
    {
        let mut to = Connection::open(&target)?;
        let tx = to.transaction()?;
        let from = if readable {
            match Connection::open(&source) {
                Ok(from) => Some(from),
                Err(e) => {
                    recovery
                        .dropped
                        .push(format!("the database could not be opened: {e}"));
                    None
                }
            }
        } else {
            None
        };
        let format: Option<i64> = from.as_ref().and_then(|from| {
            from.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .ok()
        });
        if let Some(from) = &from {
            for table in ["meta", "tasks"] {
                let copied = copy_rows(from, &tx, table, false, |_| true)?;
                report(&mut recovery, table, &copied);
            }
            // Deduplication entries of a format with checksums are kept when they verify.
            let checked = format.is_some_and(|v| v >= disk::SCHEMA_VERSION);
            let copied = copy_rows(from, &tx, "dedup", false, |row| {
                !checked || disk::dedup_verifies(row)
            })?;
            report(&mut recovery, "dedup", &copied);
        }
        match (&from, format) {
            (Some(from), Some(version)) if version < disk::SCHEMA_VERSION => {
                // Rows of a format without checksums: what SQLite can read is all there is.
                copy_readable(from, &tx, &mut recovery)?;
                disk::reseal(&tx)?;
            }
            _ => {
                let read = |path: Option<&Path>| -> Result<Option<Vec<u8>>, DiskError> {
                    path.map(|p| std::fs::read(p).map_err(io(p))).transpose()
                };
                let db_bytes = read(old_db.as_deref())?;
                let wal_bytes = read(old_wal.as_deref())?;
                let kept = from.as_ref().map(kept_counts).unwrap_or_default();
                let pages = salvage::salvage(db_bytes.as_deref(), wal_bytes.as_deref());
                restore_pages(&tx, pages, &kept, &mut recovery)?;
            }
        }
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('schema', ?1) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [disk::SCHEMA_VERSION],
        )?;
        // The recovered database starts as after a clean stop: it has no log to replay.
        tx.execute("UPDATE meta SET value = 1 WHERE key = 'clean'", [])?;
        tx.commit()?;
    }
    disk::remove_scratch(&source)?;
    disk::install(&target, dir)?;
    Ok(recovery)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DiskError {
    let path = path.to_path_buf();
    move |e| DiskError::Io(path, e)
}

/// Opens `dir` as a start does, reading every row, and closes it cleanly.
fn check(dir: &Path) -> Result<(), DiskError> {
    let mut disk = Disk::open(dir)?;
    disk.load(0, |_, _| {})?;
    disk.mark_clean()
}

/// Copies what can be read of the damaged database and its log to `source`; `false` when
/// nothing of them can be read.
fn prepare_source(
    old_db: Option<&Path>,
    old_wal: Option<&Path>,
    source: &Path,
    recovery: &mut Recovery,
) -> Result<bool, DiskError> {
    let Some(old_db) = old_db else {
        recovery
            .dropped
            .push("there was no database file: nothing could be kept".into());
        return Ok(false);
    };
    let page_size = match wal::database_page_size(old_db) {
        Ok(size) => size,
        Err(damage) => {
            recovery.dropped.push(format!(
                "the database file held nothing readable ({}); its log cannot be applied without it",
                damage.0
            ));
            return Ok(false);
        }
    };
    std::fs::copy(old_db, source).map_err(io(source))?;
    disk::owner_only(source)?;
    let Some(old_wal) = old_wal else {
        recovery.dropped.push(
            "there was no write-ahead log: the changes since the database's last checkpoint, if any, are lost and cannot be counted".into(),
        );
        return Ok(true);
    };
    let mut source_wal = source.as_os_str().to_owned();
    source_wal.push("-wal");
    let source_wal = PathBuf::from(source_wal);
    match wal::scan_frames(old_wal, Some(page_size)) {
        Ok((scan, damage)) => {
            let mut bytes = std::fs::read(old_wal).map_err(io(old_wal))?;
            if damage.is_some() {
                recovery.dropped.push(format!(
                    "the write-ahead log: kept its first {} transactions ({} frames), dropped the {} bytes after them",
                    scan.transactions,
                    scan.committed_frames,
                    bytes.len() as u64 - scan.committed_len
                ));
                bytes.truncate(usize::try_from(scan.committed_len).unwrap_or(usize::MAX));
            }
            std::fs::write(&source_wal, &bytes).map_err(io(&source_wal))?;
            disk::owner_only(&source_wal)?;
        }
        Err(damage) => {
            let len = std::fs::metadata(old_wal).map_or(0, |m| m.len());
            recovery.dropped.push(format!(
                "the write-ahead log is unreadable ({}): none of its {len} bytes of changes could be applied",
                damage.0
            ));
        }
    }
    Ok(true)
}

/// How many rows of a table were copied, and how many could not be.
#[derive(Debug, Default)]
struct Copied {
    kept: u64,
    undecodable: u64,
    /// The parts that could not be read, in words.
    gaps: Vec<String>,
}

/// Copies every row that can be read (and, for messages, decoded) from `from` into `to`.
fn copy_readable(
    from: &Connection,
    to: &rusqlite::Transaction<'_>,
    recovery: &mut Recovery,
) -> Result<(), DiskError> {
    let queues = copy_rows(from, to, "queues", true, |_| true)?;
    report(recovery, "queues", &queues);
    recovery.queues = queues.kept;
    let kept_queues: HashSet<i64> = {
        let mut statement = to.prepare("SELECT row FROM queues")?;
        statement
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    let messages = copy_rows(from, to, "messages", true, |row| {
        disk::decode_message(row).is_ok()
            && row
                .get::<_, i64>(1)
                .is_ok_and(|queue| kept_queues.contains(&queue))
    })?;
    report(recovery, "messages", &messages);
    recovery.messages = messages.kept;
    Ok(())
}

/// The number of messages each queue held, as far as the damaged database can still tell.
fn kept_counts(from: &Connection) -> BTreeMap<i64, i64> {
    let read = || -> rusqlite::Result<BTreeMap<i64, i64>> {
        from.prepare("SELECT queue, messages FROM counts")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect()
    };
    read().unwrap_or_default()
}

/// Writes the rows read from the pages into the new database and says, by queue, what could
/// not be kept.
fn restore_pages(
    to: &rusqlite::Transaction<'_>,
    pages: salvage::Salvaged,
    kept: &BTreeMap<i64, i64>,
    recovery: &mut Recovery,
) -> Result<(), DiskError> {
    let columns = |names: &[&str]| (names.join(", "), vec!["?"; names.len()].join(", "));
    let (names, marks) = columns(&rows::QUEUE_COLUMNS);
    let mut insert = to.prepare(&format!(
        "INSERT OR REPLACE INTO queues ({names}) VALUES ({marks})"
    ))?;
    let mut queue_names = BTreeMap::new();
    for (row, values) in &pages.queues {
        if let Value::Text(name) = &values[1] {
            queue_names.insert(*row, name.clone());
        }
        insert.execute(rusqlite::params_from_iter(values))?;
    }
    let (names, marks) = columns(&rows::MESSAGE_COLUMNS);
    let mut insert = to.prepare(&format!(
        "INSERT OR REPLACE INTO messages ({names}) VALUES ({marks})"
    ))?;
    let mut restored: BTreeMap<i64, i64> = BTreeMap::new();
    let mut orphans: BTreeMap<i64, u64> = BTreeMap::new();
    for values in pages.messages.values() {
        let Value::Integer(queue) = values[1] else {
            continue;
        };
        if !queue_names.contains_key(&queue) {
            *orphans.entry(queue).or_default() += 1;
            continue;
        }
        insert.execute(rusqlite::params_from_iter(values))?;
        *restored.entry(queue).or_default() += 1;
    }
    to.execute_batch(
        "DELETE FROM counts;
         INSERT INTO counts (queue, messages) SELECT queue, count(*) FROM messages GROUP BY queue;
         INSERT OR IGNORE INTO counts (queue, messages) SELECT row, 0 FROM queues;",
    )?;
    recovery.queues = pages.queues.len() as u64;
    recovery.messages = restored.values().sum::<i64>().unsigned_abs();
    let name = |queue: i64| {
        queue_names
            .get(&queue)
            .map_or_else(|| format!("queue row {queue}"), |n| format!("queue {n}"))
    };
    for line in &pages.lost_pages {
        recovery.dropped.push(line.clone());
    }
    let rows = |n: u64| if n == 1 { "row" } else { "rows" };
    // A queue whose count was read gets one line, the damaged rows found named in it; the
    // damaged rows of other queues get their own.
    let mut reported = std::collections::HashSet::new();
    for (queue, count) in kept {
        let have = restored.get(queue).copied().unwrap_or(0);
        if have < *count && queue_names.contains_key(queue) {
            let damaged = pages
                .damaged_messages
                .get(&Some(*queue))
                .copied()
                .unwrap_or(0);
            let found = if damaged > 0 {
                format!(" ({damaged} damaged {} among them)", rows(damaged))
            } else {
                String::new()
            };
            recovery.dropped.push(format!(
                "{}: kept {have} of its {count} messages, {} could not be read{found}",
                name(*queue),
                count - have
            ));
            reported.insert(Some(*queue));
        }
    }
    if kept.is_empty() && !pages.damaged_messages.is_empty() {
        recovery.dropped.push(
            "the message counts could not be read: how many messages were lost is not known beyond the damaged rows below".into(),
        );
    }
    for (queue, count) in &pages.damaged_messages {
        if reported.contains(queue) {
            continue;
        }
        recovery.dropped.push(match queue {
            Some(queue) => format!(
                "{}: {count} damaged message {} dropped",
                name(*queue),
                rows(*count)
            ),
            None => format!(
                "{count} damaged message {} of an unknown queue dropped",
                rows(*count)
            ),
        });
    }
    for (queue, count) in &orphans {
        recovery.dropped.push(format!(
            "queue row {queue} could not be read: its {count} readable messages were dropped with it"
        ));
    }
    if pages.damaged_queues > 0 {
        recovery.dropped.push(format!(
            "{} damaged queue rows were dropped",
            pages.damaged_queues
        ));
    }
    for (queue, count) in kept {
        if !queue_names.contains_key(queue) && *count > 0 && !orphans.contains_key(queue) {
            recovery.dropped.push(format!(
                "queue row {queue} and its {count} messages could not be read"
            ));
        }
    }
    Ok(())
}

fn report(recovery: &mut Recovery, table: &str, copied: &Copied) {
    if copied.undecodable > 0 {
        recovery.dropped.push(format!(
            "{table}: {} rows were readable but damaged, or belonged to a queue that could not be read",
            copied.undecodable
        ));
    }
    for gap in &copied.gaps {
        recovery
            .dropped
            .push(format!("{table}: could not read {gap}"));
    }
}

/// Copies rows of `table` for which `keep` holds. With `keyed` (the first column is the row key,
/// from 1 up), reading goes on past an unreadable part by seeking ahead in growing steps.
fn copy_rows(
    from: &Connection,
    to: &rusqlite::Transaction<'_>,
    table: &str,
    keyed: bool,
    keep: impl Fn(&rusqlite::Row<'_>) -> bool,
) -> Result<Copied, DiskError> {
    let mut copied = Copied::default();
    let target_columns: Vec<String> = to
        .prepare(&format!("SELECT * FROM {table} LIMIT 0"))?
        .column_names()
        .into_iter()
        .map(String::from)
        .collect();
    let query = if keyed {
        format!("SELECT * FROM {table} WHERE rowid > ?1 ORDER BY rowid")
    } else {
        format!("SELECT * FROM {table}")
    };
    let mut after = 0i64;
    let mut skip = 1i64;
    let mut gap_from: Option<i64> = None;
    loop {
        let outcome = (|| -> rusqlite::Result<()> {
            let mut statement = from.prepare(&query)?;
            // Columns by name: a database of an older format lacks columns added since (left
            // empty, as opening such a database leaves them).
            let (indexes, names): (Vec<usize>, Vec<&str>) = statement
                .column_names()
                .into_iter()
                .enumerate()
                .filter(|(_, name)| target_columns.iter().any(|t| t == name))
                .unzip();
            let mut insert = to.prepare_cached(&format!(
                "INSERT OR REPLACE INTO {table} ({}) VALUES ({})",
                names.join(", "),
                vec!["?"; names.len()].join(", ")
            ))?;
            let mut rows = if keyed {
                statement.query([after])?
            } else {
                statement.query([])?
            };
            while let Some(row) = rows.next()? {
                if keyed {
                    let key: i64 = row.get(0)?;
                    if let Some(first) = gap_from.take() {
                        copied
                            .gaps
                            .push(format!("the rows keyed {first} to {}", key - 1));
                    }
                    after = key;
                    skip = 1;
                }
                if !keep(row) {
                    copied.undecodable += 1;
                    continue;
                }
                let values = indexes
                    .iter()
                    .map(|&i| row.get::<_, Value>(i))
                    .collect::<Result<Vec<_>, _>>()?;
                insert.execute(rusqlite::params_from_iter(values))?;
                copied.kept += 1;
            }
            Ok(())
        })();
        match outcome {
            Ok(()) => {
                if let Some(first) = gap_from {
                    copied
                        .gaps
                        .push(format!("the rows keyed {first} and after"));
                }
                return Ok(copied);
            }
            Err(err) if !keyed || skip > 1 << 40 => {
                let first = gap_from.unwrap_or(after.saturating_add(1));
                copied.gaps.push(if keyed {
                    format!("the rows keyed {first} and after ({err})")
                } else {
                    format!("the rows after the first {} ({err})", copied.kept)
                });
                return Ok(copied);
            }
            Err(_) => {
                gap_from.get_or_insert(after.saturating_add(1));
                after = after.saturating_add(skip);
                skip = skip.saturating_mul(4);
            }
        }
    }
}
