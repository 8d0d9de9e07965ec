//! The data directory (`--data-dir`): one SQLite database in WAL mode, written by the journal's
//! writer thread and read once at start-up.
//!
//! SQLite does the hard parts (atomic commits, recovery after a crash or `kill -9`, fsync on
//! commit with `synchronous=FULL`); this module maps ops to statements and rows back to queues,
//! messages, deduplication entries and move tasks. Messages are keyed by a row number that only
//! grows, so new messages append at the end of the table and a commit touches few pages. The
//! database is locked for the server's lifetime (`locking_mode=EXCLUSIVE`): a second server on
//! the same directory is refused instead of corrupting what the first one keeps.
//!
//! Opening refuses damage instead of starting with less than was kept: a database file that is
//! empty or not SQLite, a write-ahead log SQLite would drop (see [`crate::storage::wal`]), a log missing
//! after a stop that was not clean (the `clean` flag in `meta`, cleared at start and set at a clean
//! stop), and whatever SQLite's `quick_check` finds; loading then checks every queue, message and
//! deduplication row against its checksum ([`crate::storage::rows`]) and each queue's message
//! count against the messages read. Deleted rows are zeroed (`secure_delete`), so that recovery,
//! which reads pages, finds none. Nothing is written before the opening checks pass,
//! and SQLite never checkpoints on close, so a refused directory is left as it was for
//! [`crate::storage::recover`]. The directory is created owner-only (0700) and its files are made 0600.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use crate::engine::attrs::QueueAttributes;
use crate::engine::fifo::Original;
use crate::engine::journal::{Op, QueueRecord, Sink, TaskRecord};
use crate::engine::message::{AttributeValue, MessageAttribute, State, StoredMessage};
use crate::storage::rows;
use crate::storage::wal::{self, Damage};

pub const FILE_NAME: &str = "sqsctl-local.db";
pub const WAL_NAME: &str = "sqsctl-local.db-wal";
/// Where a new database is set up before it is renamed into place, so that a database file that
/// exists is never legitimately empty.
const NEW_NAME: &str = "sqsctl-local.db.new";
/// 2: queues have a region (a version-1 queue is of the server's default region).
/// 3: queue and message rows carry checksums ([`crate::storage::rows`]) and `counts` keeps each
/// queue's number of messages, in the same transactions, so that a lost row is noticed.
pub const SCHEMA_VERSION: i64 = 3;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS queues (
    row INTEGER PRIMARY KEY, name TEXT NOT NULL, fifo INTEGER NOT NULL, created_at INTEGER NOT NULL,
    attributes TEXT NOT NULL, tags TEXT NOT NULL, last_modified INTEGER NOT NULL,
    last_purge INTEGER, next_sequence INTEGER NOT NULL, region TEXT, sum INTEGER);
CREATE TABLE IF NOT EXISTS messages (
    row INTEGER PRIMARY KEY, queue INTEGER NOT NULL, id BLOB NOT NULL, body TEXT NOT NULL,
    attributes TEXT, md5_body BLOB NOT NULL, md5_attributes BLOB, sent_at INTEGER NOT NULL,
    first_received_at INTEGER, receive_count INTEGER NOT NULL, group_id TEXT,
    sequence INTEGER NOT NULL, dedup_id TEXT, trace_header TEXT, dead_letter_source TEXT,
    state INTEGER NOT NULL, until INTEGER NOT NULL, received_at INTEGER NOT NULL,
    sum INTEGER, state_sum INTEGER);
CREATE TABLE IF NOT EXISTS counts (queue INTEGER PRIMARY KEY, messages INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS count_put AFTER INSERT ON messages BEGIN
    INSERT INTO counts (queue, messages) VALUES (NEW.queue, 1)
        ON CONFLICT(queue) DO UPDATE SET messages = messages + 1;
END;
CREATE TRIGGER IF NOT EXISTS count_delete AFTER DELETE ON messages BEGIN
    UPDATE counts SET messages = messages - 1 WHERE queue = OLD.queue;
END;
CREATE TRIGGER IF NOT EXISTS count_move AFTER UPDATE OF queue ON messages
    WHEN OLD.queue <> NEW.queue BEGIN
    UPDATE counts SET messages = messages - 1 WHERE queue = OLD.queue;
    INSERT INTO counts (queue, messages) VALUES (NEW.queue, 1)
        ON CONFLICT(queue) DO UPDATE SET messages = messages + 1;
END;
CREATE TABLE IF NOT EXISTS dedup (
    expires INTEGER NOT NULL, queue INTEGER NOT NULL, key TEXT NOT NULL, message_id BLOB NOT NULL,
    sequence TEXT, sum INTEGER, PRIMARY KEY (expires, queue, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (
    handle TEXT NOT NULL UNIQUE, source_arn TEXT NOT NULL, destination_arn TEXT, rate INTEGER,
    started_at INTEGER NOT NULL, to_move INTEGER NOT NULL, moved INTEGER NOT NULL,
    status TEXT NOT NULL, reason TEXT);
";

#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    #[error("could not create the data directory {0}")]
    CreateDir(PathBuf, #[source] std::io::Error),
    #[error(
        "the data directory {0} is in use by another server (stop it first, or give this one another --data-dir)"
    )]
    InUse(PathBuf),
    #[error(
        "the data directory {0} was written by a newer sqsctl (format {1}; this one reads {SCHEMA_VERSION})"
    )]
    NewerFormat(PathBuf, i64),
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("a stored {what} is damaged: {detail}")]
    Damaged { what: &'static str, detail: String },
    #[error("{} is damaged: {problem}", file.display())]
    DamagedFile { file: PathBuf, problem: String },
    #[error("could not set up {}", .0.display())]
    Io(PathBuf, #[source] std::io::Error),
}

impl DiskError {
    /// Whether the data directory holds something it should not, as opposed to not being
    /// reachable or usable.
    pub fn is_damage(&self) -> bool {
        match self {
            DiskError::Damaged { .. } | DiskError::DamagedFile { .. } => true,
            DiskError::Sqlite(e) => is_damage_reading(e),
            _ => false,
        }
    }
}

pub fn damaged_file(file: &Path, damage: Damage) -> DiskError {
    DiskError::DamagedFile {
        file: file.to_path_buf(),
        problem: damage.0,
    }
}

/// An open data directory.
#[derive(Debug)]
pub struct Disk {
    dir: PathBuf,
    conn: Connection,
    /// The mode of a directory the user made that others can read, to warn about.
    exposed_mode: Option<u32>,
}

/// Everything a data directory holds, read back at start-up.
#[derive(Debug, Default)]
pub struct Loaded {
    pub next_queue_id: u64,
    pub queues: Vec<QueueRecord>,
    pub dedup: Vec<(u64, String, Original, u64)>,
    pub tasks: Vec<TaskRecord>,
    pub last_row: u64,
}

fn damaged(what: &'static str, detail: impl ToString) -> DiskError {
    DiskError::Damaged {
        what,
        detail: detail.to_string(),
    }
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

impl Disk {
    /// Opens (creating if needed) the database in `dir` and takes its lock, refusing damage.
    pub fn open(dir: &Path) -> Result<Disk, DiskError> {
        let exposed_mode = prepare_dir(dir)?;
        let db = dir.join(FILE_NAME);
        let wal_path = dir.join(WAL_NAME);
        let page_size = if exists(&db)? {
            Some(wal::database_page_size(&db).map_err(|d| damaged_file(&db, d))?)
        } else if exists(&wal_path)? {
            return Err(damaged_file(
                &db,
                Damage("it is missing, but its write-ahead log is there".into()),
            ));
        } else {
            create(dir)?;
            None
        };
        owner_only(&db)?;
        let wal_existed = exists(&wal_path)?;
        if wal_existed {
            owner_only(&wal_path)?;
        }
        let conn = Self::open_checked(dir, &db, &wal_path, page_size, wal_existed)
            .map_err(|err| of_file(&db, err))?;
        owner_only(&wal_path)?;
        Ok(Disk {
            dir: dir.to_path_buf(),
            conn,
            exposed_mode,
        })
    }

    /// Opens the database once its file looks like one, takes the lock, and checks it.
    fn open_checked(
        dir: &Path,
        db: &Path,
        wal_path: &Path,
        page_size: Option<u32>,
        wal_existed: bool,
    ) -> Result<Connection, DiskError> {
        let conn = Connection::open(db)?;
        // A refused directory must stay as it is: closing would otherwise checkpoint what SQLite
        // could read of the log into the database and delete the log.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        // EXCLUSIVE locking before WAL: the WAL index then lives in memory, not in a shared file.
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
        let locked = conn.execute_batch("BEGIN EXCLUSIVE; COMMIT;");
        if let Err(rusqlite::Error::SqliteFailure(e, _)) = &locked
            && matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            )
        {
            return Err(DiskError::InUse(dir.to_path_buf()));
        }
        let checked = locked
            .map_err(DiskError::from)
            .and_then(|()| Self::check(&conn, dir, db, wal_path, page_size, wal_existed));
        if let Err(err) = &checked
            && err.is_damage()
            && !wal_existed
        {
            // SQLite made an empty log when it read the database: a refused directory is left as
            // it was found, so that the next start finds the log missing too. Removed while the
            // lock is held, so it cannot be the log of a server that starts meanwhile.
            let made = std::fs::metadata(wal_path).is_ok_and(|m| m.len() == 0);
            if made {
                let _ = std::fs::remove_file(wal_path);
            }
        }
        checked.map(|()| conn)
    }

    /// Checks, under the lock and before writing anything, the log, the database's integrity and
    /// the clean flag; then prepares the database for the server.
    fn check(
        conn: &Connection,
        dir: &Path,
        db: &Path,
        wal_path: &Path,
        page_size: Option<u32>,
        wal_existed: bool,
    ) -> Result<(), DiskError> {
        // Read under the lock, so a log another server is writing is never taken for damage.
        if wal_existed {
            wal::scan(wal_path, page_size).map_err(|d| damaged_file(wal_path, d))?;
        }
        check_integrity(conn, db)?;
        let clean: Option<i64> = conn
            .query_row("SELECT value FROM meta WHERE key = 'clean'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if clean == Some(0) && !wal_existed {
            return Err(damaged_file(
                wal_path,
                Damage(
                    "it is missing, and the server did not stop cleanly: the changes it held are lost".into(),
                ),
            ));
        }
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: a commit returns after the WAL is fsynced, so an acknowledged change survives a
        // power cut, not only a crash of the process.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "cache_size", -65_536)?;
        // Deleted rows are overwritten with zeros, so that recovery, which reads pages, never
        // finds a deleted message in a freed page or a free block.
        conn.pragma_update(None, "secure_delete", true)?;
        // Fewer, larger checkpoints: each one holds up the commits behind it.
        conn.pragma_update(None, "wal_autocheckpoint", 10_000)?;
        conn.execute_batch(SCHEMA)?;
        let version: Option<i64> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        match version {
            Some(v) if v > SCHEMA_VERSION => {
                return Err(DiskError::NewerFormat(dir.to_path_buf(), v));
            }
            other => migrate(conn, other)?,
        }
        // Not clean until a clean stop says so; checkpointed into the database file itself, so
        // that a log deleted from now on is noticed at the next start.
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('clean', 0) ON CONFLICT(key) DO UPDATE SET value = 0",
            [],
        )?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Records a clean stop, once every change is committed, and empties the log into the
    /// database.
    pub fn mark_clean(&mut self) -> Result<(), DiskError> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('clean', 1) ON CONFLICT(key) DO UPDATE SET value = 1",
            [],
        )?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// The mode of the data directory when the user made it readable by others.
    pub fn exposed_mode(&self) -> Option<u32> {
        self.exposed_mode
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads queues, deduplication entries and tasks; messages come through `each_message`, in
    /// row order, with the row of their queue.
    pub fn load(
        &self,
        now: u64,
        each_message: impl FnMut(u64, StoredMessage),
    ) -> Result<Loaded, DiskError> {
        let db = self.dir.join(FILE_NAME);
        self.load_checked(now, each_message)
            .map_err(|err| of_file(&db, err))
    }

    fn load_checked(
        &self,
        now: u64,
        mut each_message: impl FnMut(u64, StoredMessage),
    ) -> Result<Loaded, DiskError> {
        let mut loaded = Loaded {
            next_queue_id: self
                .conn
                .query_row(
                    "SELECT value FROM meta WHERE key = 'next_queue_id'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?
                .map_or(1, to_u64),
            ..Loaded::default()
        };
        let mut queues = self.conn.prepare(
            "SELECT row, name, fifo, created_at, attributes, tags, last_modified, last_purge, next_sequence, region, sum FROM queues ORDER BY row",
        )?;
        let mut rows = queues.query([])?;
        while let Some(r) = rows.next()? {
            let values: Vec<ValueRef<'_>> =
                (0..11).map(|i| r.get_ref(i)).collect::<Result<_, _>>()?;
            if !rows::queue_verifies(&values) {
                return Err(damaged(
                    "queue",
                    format!(
                        "queue row {} does not match its checksum",
                        r.get::<_, i64>(0)?
                    ),
                ));
            }
            let fifo: bool = r.get(2)?;
            let attributes: String = r.get(4)?;
            let tags: String = r.get(5)?;
            loaded.queues.push(QueueRecord {
                row: to_u64(r.get(0)?),
                region: r.get(9)?,
                name: r.get(1)?,
                fifo,
                created_at: to_u64(r.get(3)?),
                attributes: decode_queue_attributes(&attributes, fifo)?,
                tags: serde_json::from_str(&tags).map_err(|e| damaged("queue's tags", e))?,
                last_modified: to_u64(r.get(6)?),
                last_purge: r.get::<_, Option<i64>>(7)?.map(to_u64),
                next_sequence: to_u64(r.get(8)?),
            });
        }
        let mut messages = self.conn.prepare(
            "SELECT row, queue, id, body, attributes, md5_body, md5_attributes, sent_at, first_received_at, receive_count, group_id, sequence, dedup_id, trace_header, dead_letter_source, state, until, received_at, sum, state_sum FROM messages",
        )?;
        let mut rows = messages.query([])?;
        let mut per_queue: BTreeMap<u64, i64> = BTreeMap::new();
        while let Some(r) = rows.next()? {
            let values: Vec<ValueRef<'_>> =
                (0..20).map(|i| r.get_ref(i)).collect::<Result<_, _>>()?;
            if !rows::message_verifies(&values) {
                return Err(damaged(
                    "message",
                    format!(
                        "message row {} does not match its checksum",
                        r.get::<_, i64>(0)?
                    ),
                ));
            }
            let row = to_u64(r.get(0)?);
            loaded.last_row = loaded.last_row.max(row);
            let queue = to_u64(r.get(1)?);
            *per_queue.entry(queue).or_default() += 1;
            each_message(queue, decode_message(r)?);
        }
        self.check_counts(&loaded.queues, &per_queue)?;
        let mut dedup = self.conn.prepare(
            "SELECT expires, queue, key, message_id, sequence, sum FROM dedup WHERE expires > ?1 ORDER BY expires",
        )?;
        let mut rows = dedup.query([to_i64(now)])?;
        while let Some(r) = rows.next()? {
            if !dedup_verifies(r) {
                return Err(damaged(
                    "deduplication id",
                    "a deduplication entry does not match its checksum",
                ));
            }
            let id: Vec<u8> = r.get(3)?;
            let sequence: Option<String> = r.get(4)?;
            let original = Original {
                message_id: Uuid::from_slice(&id).map_err(|e| damaged("deduplication id", e))?,
                sequence: sequence
                    .map(|s| s.parse::<u128>())
                    .transpose()
                    .map_err(|e| damaged("deduplication id", e))?,
            };
            loaded
                .dedup
                .push((to_u64(r.get(1)?), r.get(2)?, original, to_u64(r.get(0)?)));
        }
        let mut tasks = self.conn.prepare(
            "SELECT handle, source_arn, destination_arn, rate, started_at, to_move, moved, status, reason FROM tasks ORDER BY rowid",
        )?;
        let mut rows = tasks.query([])?;
        while let Some(r) = rows.next()? {
            loaded.tasks.push(TaskRecord {
                handle: r.get(0)?,
                source_arn: r.get(1)?,
                destination_arn: r.get(2)?,
                rate: r.get(3)?,
                started_at: to_u64(r.get(4)?),
                to_move: to_u64(r.get(5)?),
                moved: to_u64(r.get(6)?),
                status: r.get(7)?,
                reason: r.get(8)?,
            });
        }
        Ok(loaded)
    }

    /// Compares the messages read per queue with the counts kept beside them, and the queues with
    /// the queues those counts name: a row SQLite no longer finds is noticed here.
    fn check_counts(
        &self,
        queues: &[QueueRecord],
        read: &BTreeMap<u64, i64>,
    ) -> Result<(), DiskError> {
        let kept: BTreeMap<u64, i64> = self
            .conn
            .prepare("SELECT queue, messages FROM counts")?
            .query_map([], |r| Ok((to_u64(r.get(0)?), r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for queue in queues {
            let expected = kept.get(&queue.row).copied().unwrap_or(0);
            let found = read.get(&queue.row).copied().unwrap_or(0);
            if expected != found {
                return Err(damaged(
                    "message count",
                    format!(
                        "queue {} should hold {expected} messages, {found} were read",
                        queue.name
                    ),
                ));
            }
        }
        let known: std::collections::BTreeSet<u64> = queues.iter().map(|q| q.row).collect();
        if let Some(queue) = kept.keys().chain(read.keys()).find(|q| !known.contains(q)) {
            return Err(damaged(
                "queue",
                format!(
                    "queue row {queue} is missing: {} of its messages were read, {} were kept",
                    read.get(queue).copied().unwrap_or(0),
                    kept.get(queue).copied().unwrap_or(0)
                ),
            ));
        }
        Ok(())
    }

    /// Drops deduplication entries that expired, remembers the next queue id, and gives queues
    /// kept from before queues had regions the server's default region for good (a later start
    /// with another default region finds them where they were).
    pub fn after_load(
        &mut self,
        now: u64,
        next_queue_id: u64,
        default_region: &str,
    ) -> Result<(), DiskError> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM dedup WHERE expires <= ?1", [to_i64(now)])?;
        let regionless: Vec<i64> = tx
            .prepare("SELECT row FROM queues WHERE region IS NULL")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for row in regionless {
            rewrite_queue(&tx, row, |values| {
                values[9] = Value::Text(default_region.to_owned());
            })?;
        }
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('next_queue_id', ?1) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
            [to_i64(next_queue_id)],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Applies `ops` in one transaction: all of them are durable when this returns, or none.
    pub fn apply(&mut self, ops: &[Op]) -> Result<(), DiskError> {
        let tx = self.conn.transaction()?;
        for op in ops {
            apply_one(&tx, op)?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// Brings a database of an older format to this one and records the format: version 1 kept no
/// region of queues, versions 1 and 2 no checksums or counts. A database recovered from an older
/// one has the columns already.
fn migrate(conn: &Connection, from: Option<i64>) -> Result<(), DiskError> {
    let has = |table: &str, column: &str| -> Result<bool, DiskError> {
        Ok(conn
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{table}') WHERE name = '{column}'"
            ))?
            .exists([])?)
    };
    let tx = conn.unchecked_transaction()?;
    for (table, column, kind) in [
        ("queues", "region", "TEXT"),
        ("queues", "sum", "INTEGER"),
        ("messages", "sum", "INTEGER"),
        ("messages", "state_sum", "INTEGER"),
        ("dedup", "sum", "INTEGER"),
    ] {
        if !has(table, column)? {
            tx.execute(
                &format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"),
                [],
            )?;
        }
    }
    if from.is_some_and(|v| v < 3) {
        reseal(&tx)?;
    }
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('schema', ?1) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [SCHEMA_VERSION],
    )?;
    tx.commit()?;
    Ok(())
}

fn apply_one(tx: &rusqlite::Transaction<'_>, op: &Op) -> Result<(), DiskError> {
    match op {
        Op::PutQueue(q) => {
            let attributes = encode_queue_attributes(&q.attributes, q.fifo);
            let tags = serde_json::to_string(&q.tags).map_err(|e| damaged("queue's tags", e))?;
            let row = to_i64(q.row);
            let written = rewrite_queue(tx, row, |values| {
                // A queue's name, type, creation time and region never change; its sequence
                // numbers only grow.
                values[4] = Value::Text(attributes.clone());
                values[5] = Value::Text(tags.clone());
                values[6] = Value::Integer(to_i64(q.last_modified));
                values[7] = q
                    .last_purge
                    .map_or(Value::Null, |p| Value::Integer(to_i64(p)));
                grow_sequence(values, to_i64(q.next_sequence));
            })?;
            if !written {
                let values = vec![
                    Value::Integer(row),
                    Value::Text(q.name.clone()),
                    Value::Integer(i64::from(q.fifo)),
                    Value::Integer(to_i64(q.created_at)),
                    Value::Text(attributes),
                    Value::Text(tags),
                    Value::Integer(to_i64(q.last_modified)),
                    q.last_purge
                        .map_or(Value::Null, |p| Value::Integer(to_i64(p))),
                    Value::Integer(to_i64(q.next_sequence)),
                    q.region.clone().map_or(Value::Null, Value::Text),
                ];
                write_queue(tx, values)?;
                tx.prepare_cached("INSERT OR IGNORE INTO counts (queue, messages) VALUES (?1, 0)")?
                    .execute([row])?;
            }
            tx.prepare_cached(
                "INSERT INTO meta (key, value) VALUES ('next_queue_id', ?1) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
            )?
            .execute([to_i64(q.row + 1)])?;
        }
        Op::DeleteQueue { queue } => {
            tx.prepare_cached("DELETE FROM queues WHERE row = ?1")?
                .execute([to_i64(*queue)])?;
            tx.prepare_cached("DELETE FROM messages WHERE queue = ?1")?
                .execute([to_i64(*queue)])?;
            tx.prepare_cached("DELETE FROM dedup WHERE queue = ?1")?
                .execute([to_i64(*queue)])?;
            tx.prepare_cached("DELETE FROM counts WHERE queue = ?1")?
                .execute([to_i64(*queue)])?;
        }
        Op::PutMessage { queue, message } => {
            put_message(tx, *queue, message)?;
            if message.sequence_offset() > 0 {
                // FIFO sequence numbers only grow, even once every message is deleted.
                let next = to_i64(message.sequence_offset());
                rewrite_queue(tx, to_i64(*queue), |values| grow_sequence(values, next))?;
            }
        }
        Op::MessageState {
            row,
            state,
            receive_count,
            first_received_at,
        } => {
            let (code, until, received_at) = encode_state(*state);
            let first = first_received_at.map_or(ValueRef::Null, |t| ValueRef::Integer(to_i64(t)));
            let state_sum = rows::digest(
                "message state",
                [
                    ValueRef::Integer(to_i64(*row)),
                    first,
                    ValueRef::Integer(i64::from(*receive_count)),
                    ValueRef::Integer(code),
                    ValueRef::Integer(to_i64(until)),
                    ValueRef::Integer(to_i64(received_at)),
                ],
            );
            tx.prepare_cached(
                "UPDATE messages SET state = ?2, until = ?3, received_at = ?4, receive_count = ?5, first_received_at = ?6, state_sum = ?7 WHERE row = ?1",
            )?
            .execute(params![
                to_i64(*row),
                code,
                to_i64(until),
                to_i64(received_at),
                receive_count,
                first_received_at.map(to_i64),
                state_sum,
            ])?;
        }
        Op::DeleteMessage { row } => {
            tx.prepare_cached("DELETE FROM messages WHERE row = ?1")?
                .execute([to_i64(*row)])?;
        }
        Op::Purge { queue } => {
            tx.prepare_cached("DELETE FROM messages WHERE queue = ?1")?
                .execute([to_i64(*queue)])?;
            // A purge ends the deduplication window too.
            tx.prepare_cached("DELETE FROM dedup WHERE queue = ?1")?
                .execute([to_i64(*queue)])?;
        }
        Op::Dedup {
            queue,
            key,
            original,
            expires,
        } => {
            let values = [
                Value::Integer(to_i64(*expires)),
                Value::Integer(to_i64(*queue)),
                Value::Text(key.to_string()),
                Value::Blob(original.message_id.as_bytes().to_vec()),
                original
                    .sequence
                    .map_or(Value::Null, |s| Value::Text(s.to_string())),
            ];
            let sum = rows::digest("dedup", values.iter().map(ValueRef::from));
            tx.prepare_cached(
                "INSERT OR REPLACE INTO dedup (expires, queue, key, message_id, sequence, sum) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(rusqlite::params_from_iter(
                values.into_iter().chain([Value::Integer(sum)]),
            ))?;
        }
        Op::PutTask(t) => {
            tx.prepare_cached(
                "INSERT INTO tasks (handle, source_arn, destination_arn, rate, started_at, to_move, moved, status, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                 ON CONFLICT(handle) DO UPDATE SET moved = excluded.moved, status = excluded.status, reason = excluded.reason",
            )?
            .execute(params![
                t.handle,
                t.source_arn,
                t.destination_arn,
                t.rate,
                to_i64(t.started_at),
                to_i64(t.to_move),
                to_i64(t.moved),
                t.status,
                t.reason,
            ])?;
        }
    }
    Ok(())
}

fn encode_state(state: State) -> (i64, u64, u64) {
    match state {
        State::Visible => (0, 0, 0),
        State::Delayed { until } => (1, until, 0),
        State::InFlight { until, received_at } => (2, until, received_at),
    }
}

fn decode_state(code: i64, until: u64, received_at: u64) -> Result<State, DiskError> {
    match code {
        0 => Ok(State::Visible),
        1 => Ok(State::Delayed { until }),
        2 => Ok(State::InFlight { until, received_at }),
        other => Err(damaged("message state", other)),
    }
}

fn put_message(
    tx: &rusqlite::Transaction<'_>,
    queue: u64,
    m: &StoredMessage,
) -> Result<(), DiskError> {
    let (state, until, received_at) = encode_state(m.state);
    let text = |t: Option<&str>| t.map_or(Value::Null, |t| Value::Text(t.to_owned()));
    let mut values = vec![
        Value::Integer(to_i64(m.row)),
        Value::Integer(to_i64(queue)),
        Value::Blob(m.id.as_bytes().to_vec()),
        Value::Text(m.body.to_string()),
        text(encode_attributes(m.attributes()).as_deref()),
        Value::Blob(m.md5_of_body.to_vec()),
        m.md5_of_attributes
            .as_ref()
            .map_or(Value::Null, |d| Value::Blob(d.to_vec())),
        Value::Integer(to_i64(m.sent_at)),
        m.first_received_at()
            .map_or(Value::Null, |t| Value::Integer(to_i64(t))),
        Value::Integer(i64::from(m.receive_count)),
        text(m.group_id.as_deref()),
        Value::Integer(to_i64(m.sequence_offset())),
        text(m.dedup_id()),
        text(m.trace_header()),
        text(m.dead_letter_source()),
        Value::Integer(state),
        Value::Integer(to_i64(until)),
        Value::Integer(to_i64(received_at)),
    ];
    let refs: Vec<ValueRef<'_>> = values.iter().map(ValueRef::from).collect();
    let (sum, state_sum) = rows::message_sums(&refs);
    values.push(Value::Integer(sum));
    values.push(Value::Integer(state_sum));
    // An upsert, not a replace: a replaced row would not pass through the counting triggers.
    tx.prepare_cached(
        "INSERT INTO messages (row, queue, id, body, attributes, md5_body, md5_attributes, sent_at, first_received_at, receive_count, group_id, sequence, dedup_id, trace_header, dead_letter_source, state, until, received_at, sum, state_sum)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
         ON CONFLICT(row) DO UPDATE SET queue = excluded.queue, id = excluded.id, body = excluded.body,
           attributes = excluded.attributes, md5_body = excluded.md5_body, md5_attributes = excluded.md5_attributes,
           sent_at = excluded.sent_at, first_received_at = excluded.first_received_at,
           receive_count = excluded.receive_count, group_id = excluded.group_id, sequence = excluded.sequence,
           dedup_id = excluded.dedup_id, trace_header = excluded.trace_header,
           dead_letter_source = excluded.dead_letter_source, state = excluded.state, until = excluded.until,
           received_at = excluded.received_at, sum = excluded.sum, state_sum = excluded.state_sum",
    )?
    .execute(rusqlite::params_from_iter(values))?;
    Ok(())
}

/// Writes a queue row (its first ten columns) with its checksum.
fn write_queue(conn: &Connection, mut values: Vec<Value>) -> Result<(), DiskError> {
    let refs: Vec<ValueRef<'_>> = values.iter().map(ValueRef::from).collect();
    let sum = rows::queue_sum(&refs);
    values.push(Value::Integer(sum));
    conn.prepare_cached(
        "INSERT OR REPLACE INTO queues (row, name, fifo, created_at, attributes, tags, last_modified, last_purge, next_sequence, region, sum)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(rusqlite::params_from_iter(values))?;
    Ok(())
}

/// Reads queue `row`, changes it and writes it back with its new checksum; `false` when there
/// is no such queue.
fn rewrite_queue(
    conn: &Connection,
    row: i64,
    change: impl FnOnce(&mut Vec<Value>),
) -> Result<bool, DiskError> {
    let found: Option<Vec<Value>> = conn
        .prepare_cached(
            "SELECT row, name, fifo, created_at, attributes, tags, last_modified, last_purge, next_sequence, region FROM queues WHERE row = ?1",
        )?
        .query_row([row], |r| (0..10).map(|i| r.get::<_, Value>(i)).collect())
        .optional()?;
    let Some(mut values) = found else {
        return Ok(false);
    };
    change(&mut values);
    write_queue(conn, values)?;
    Ok(true)
}

/// Raises a queue row's next sequence number to `next` (it never goes down).
fn grow_sequence(values: &mut [Value], next: i64) {
    if let Value::Integer(current) = values[8]
        && current >= next
    {
        return;
    }
    values[8] = Value::Integer(next);
}

/// Gives every queue and message row its checksums and rebuilds the message counts: for a
/// database of a format before 3, whose rows are taken as they are.
pub fn reseal(conn: &Connection) -> Result<(), DiskError> {
    let queues: Vec<Vec<Value>> = conn
        .prepare(
            "SELECT row, name, fifo, created_at, attributes, tags, last_modified, last_purge, next_sequence, region FROM queues",
        )?
        .query_map([], |r| (0..10).map(|i| r.get::<_, Value>(i)).collect())?
        .collect::<Result<_, _>>()?;
    for values in queues {
        write_queue(conn, values)?;
    }
    let mut select = conn.prepare(
        "SELECT row, queue, id, body, attributes, md5_body, md5_attributes, sent_at, first_received_at, receive_count, group_id, sequence, dedup_id, trace_header, dead_letter_source, state, until, received_at FROM messages",
    )?;
    let mut update = conn.prepare("UPDATE messages SET sum = ?2, state_sum = ?3 WHERE row = ?1")?;
    let mut rows = select.query([])?;
    while let Some(r) = rows.next()? {
        let values: Vec<ValueRef<'_>> = (0..18).map(|i| r.get_ref(i)).collect::<Result<_, _>>()?;
        let (sum, state_sum) = rows::message_sums(&values);
        let key = r.get::<_, i64>(0)?;
        update.execute(params![key, sum, state_sum])?;
    }
    let entries: Vec<(i64, i64, String, i64)> = conn
        .prepare("SELECT expires, queue, key, message_id, sequence FROM dedup")?
        .query_map([], |r| {
            let values: Vec<ValueRef<'_>> =
                (0..5).map(|i| r.get_ref(i)).collect::<Result<_, _>>()?;
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                rows::digest("dedup", values),
            ))
        })?
        .collect::<Result<_, _>>()?;
    for (expires, queue, key, sum) in entries {
        conn.execute(
            "UPDATE dedup SET sum = ?4 WHERE expires = ?1 AND queue = ?2 AND key = ?3",
            params![expires, queue, key, sum],
        )?;
    }
    conn.execute_batch(
        "DELETE FROM counts;
         INSERT INTO counts (queue, messages) SELECT queue, count(*) FROM messages GROUP BY queue;
         INSERT OR IGNORE INTO counts (queue, messages) SELECT row, 0 FROM queues;",
    )?;
    Ok(())
}

pub fn decode_message(r: &rusqlite::Row<'_>) -> Result<StoredMessage, DiskError> {
    let id: Vec<u8> = r.get(2)?;
    let attributes: Option<String> = r.get(4)?;
    let md5_body: Vec<u8> = r.get(5)?;
    let md5_attributes: Option<Vec<u8>> = r.get(6)?;
    let digest = |bytes: Vec<u8>| -> Result<[u8; 16], DiskError> {
        bytes
            .try_into()
            .map_err(|_| damaged("message digest", "not 16 bytes"))
    };
    let state = decode_state(r.get(15)?, to_u64(r.get(16)?), to_u64(r.get(17)?))?;
    let mut message = StoredMessage::new(
        Uuid::from_slice(&id).map_err(|e| damaged("message id", e))?,
        r.get(3)?,
        attributes
            .as_deref()
            .map(decode_attributes)
            .transpose()?
            .unwrap_or_default(),
        digest(md5_body)?,
        md5_attributes.map(digest).transpose()?,
        to_u64(r.get(7)?),
        r.get(10)?,
        state,
    );
    message.row = to_u64(r.get(0)?);
    message.restore_first_received(r.get::<_, Option<i64>>(8)?.map(to_u64));
    message.receive_count = r.get(9)?;
    message.set_sequence(to_u64(r.get(11)?));
    message.set_dedup_id(r.get::<_, Option<String>>(12)?.map(Into::into));
    message.set_trace_header(r.get::<_, Option<String>>(13)?.map(Into::into));
    message.set_dead_letter_source(r.get::<_, Option<String>>(14)?.map(Into::into));
    Ok(message)
}

/// Message attributes as a JSON array of `[name, type, value]`, binary values in base64 under a
/// `B` tag: `[["k","String","S","v"], ["b","Binary","B","AAE="]]`.
fn encode_attributes(attributes: &[MessageAttribute]) -> Option<String> {
    if attributes.is_empty() {
        return None;
    }
    let list: Vec<serde_json::Value> = attributes
        .iter()
        .map(|a| {
            let (tag, value) = match &a.value {
                AttributeValue::String(s) => ("S", s.clone()),
                AttributeValue::Binary(b) => ("B", STANDARD.encode(b)),
            };
            serde_json::json!([a.name, a.data_type, tag, value])
        })
        .collect();
    Some(serde_json::Value::Array(list).to_string())
}

fn decode_attributes(text: &str) -> Result<Vec<MessageAttribute>, DiskError> {
    let list: Vec<(String, String, String, String)> =
        serde_json::from_str(text).map_err(|e| damaged("message attribute", e))?;
    list.into_iter()
        .map(|(name, data_type, tag, value)| {
            let value = match tag.as_str() {
                "S" => AttributeValue::String(value),
                "B" => AttributeValue::Binary(
                    STANDARD
                        .decode(value)
                        .map_err(|e| damaged("message attribute", e))?,
                ),
                other => return Err(damaged("message attribute", other)),
            };
            Ok(MessageAttribute {
                name,
                data_type,
                value,
            })
        })
        .collect()
}

/// Queue attributes as the JSON object of their rendered values, read back through the same
/// validation CreateQueue uses.
fn encode_queue_attributes(attributes: &QueueAttributes, fifo: bool) -> String {
    let rendered: BTreeMap<&str, String> = attributes.render(fifo);
    serde_json::to_string(&rendered).unwrap_or_else(|_| "{}".into())
}

fn decode_queue_attributes(text: &str, fifo: bool) -> Result<QueueAttributes, DiskError> {
    let map: BTreeMap<String, String> =
        serde_json::from_str(text).map_err(|e| damaged("queue's attributes", e))?;
    let mut attributes = QueueAttributes::default();
    for (name, value) in &map {
        attributes
            .apply(name, value, fifo, true)
            .map_err(|e| damaged("queue's attributes", e))?;
    }
    Ok(attributes)
}

/// Whether a deduplication row, read in the table's column order, is as it was written.
pub fn dedup_verifies(r: &rusqlite::Row<'_>) -> bool {
    let values: rusqlite::Result<Vec<ValueRef<'_>>> = (0..6).map(|i| r.get_ref(i)).collect();
    values.is_ok_and(|v| v[5] == ValueRef::Integer(rows::digest("dedup", v[..5].iter().copied())))
}

/// Damage met while opening or reading the database, as damage of its file.
fn of_file(db: &Path, err: DiskError) -> DiskError {
    match err {
        DiskError::Damaged { what, detail } => DiskError::DamagedFile {
            file: db.to_path_buf(),
            problem: format!("a stored {what} is damaged: {detail}"),
        },
        DiskError::Sqlite(e) if is_damage_reading(&e) => DiskError::DamagedFile {
            file: db.to_path_buf(),
            problem: format!("a stored row cannot be read: {e}"),
        },
        other => other,
    }
}

/// Whether an error reading a row means the row is not as it was written.
fn is_damage_reading(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::InvalidColumnType(..)
            | rusqlite::Error::IntegralValueOutOfRange(..)
            | rusqlite::Error::Utf8Error(..)
    ) || matches!(e, rusqlite::Error::SqliteFailure(f, _) if matches!(
        f.code,
        rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase
    ))
}

/// Runs SQLite's `quick_check` (every page and record well formed; indexes are not compared with
/// their tables), a damaged database being refused with what it found.
pub fn check_integrity(conn: &Connection, db: &Path) -> Result<(), DiskError> {
    let mut statement = conn.prepare("PRAGMA quick_check(5)")?;
    let found: Vec<String> = statement
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<_, _>>()
        .or_else(|err| match err {
            rusqlite::Error::SqliteFailure(e, _)
                if matches!(
                    e.code,
                    rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase
                ) =>
            {
                Ok(vec![err.to_string()])
            }
            other => Err(other),
        })?;
    if found.len() == 1 && found[0] == "ok" {
        return Ok(());
    }
    Err(damaged_file(
        db,
        Damage(format!(
            "SQLite's integrity check found: {}",
            found.join("; ")
        )),
    ))
}

fn exists(path: &Path) -> Result<bool, DiskError> {
    path.try_exists()
        .map_err(|e| DiskError::Io(path.to_path_buf(), e))
}

/// Creates the data directory owner-only (0700) when it does not exist. One the user made is
/// left as it is: its mode is returned when others can read it, to warn about.
fn prepare_dir(dir: &Path) -> Result<Option<u32>, DiskError> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(exposed(&meta)),
        Ok(_) => Err(DiskError::CreateDir(
            dir.to_path_buf(),
            std::io::Error::other("it exists and is not a directory"),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder
                .create(dir)
                .map_err(|e| DiskError::CreateDir(dir.to_path_buf(), e))?;
            // The umask may have taken bits from 0700; what it cannot add, nothing else needs.
            set_mode(dir, 0o700).map_err(|e| DiskError::CreateDir(dir.to_path_buf(), e))?;
            Ok(None)
        }
        Err(e) => Err(DiskError::CreateDir(dir.to_path_buf(), e)),
    }
}

#[cfg(unix)]
fn exposed(meta: &std::fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    (mode & 0o077 != 0).then_some(mode)
}

#[cfg(not(unix))]
fn exposed(_: &std::fs::Metadata) -> Option<u32> {
    None
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) -> std::io::Result<()> {
    Ok(())
}

/// Makes one of the data directory's files 0600, whatever the umask was when it was created
/// (SQLite gives its log the database file's mode).
pub fn owner_only(path: &Path) -> Result<(), DiskError> {
    match set_mode(path, 0o600) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(DiskError::Io(path.to_path_buf(), e))
        }
        _ => Ok(()),
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DiskError {
    let path = path.to_path_buf();
    move |e| DiskError::Io(path, e)
}

/// Creates an empty database with its schema under a temporary name, then renames it into place.
fn create(dir: &Path) -> Result<(), DiskError> {
    let new = dir.join(NEW_NAME);
    create_at(&new)?;
    install(&new, dir)
}

/// Renames a database built at `new` into place in `dir`, durably.
pub fn install(new: &Path, dir: &Path) -> Result<(), DiskError> {
    std::fs::File::open(new)
        .and_then(|f| f.sync_all())
        .map_err(io_error(new))?;
    let db = dir.join(FILE_NAME);
    std::fs::rename(new, &db).map_err(io_error(&db))?;
    sync_dir(dir);
    Ok(())
}

/// Removes a file the server made for itself and that holds nothing of the user's (a database
/// being set up, a working copy), with its log, if it is there.
pub fn remove_scratch(path: &Path) -> Result<(), DiskError> {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    for file in [path.to_path_buf(), PathBuf::from(log)] {
        if exists(&file)? {
            std::fs::remove_file(&file).map_err(io_error(&file))?;
        }
    }
    Ok(())
}

/// Creates an empty database with its schema, marked clean, at `new` (0600).
pub fn create_at(new: &Path) -> Result<(), DiskError> {
    let io = io_error;
    // A leftover of a start killed while creating: it never held anything.
    remove_scratch(new)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    drop(options.open(new).map_err(io(new))?);
    owner_only(new)?;
    {
        let conn = Connection::open(new)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(SCHEMA)?;
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('schema', ?1), ('clean', 1)",
            [SCHEMA_VERSION],
        )?;
        // Closing checkpoints the log into the file and deletes the log.
    }
    Ok(())
}

/// Makes a rename in `dir` durable. Not every platform can open a directory; a rename there is
/// as durable as the platform makes it.
pub fn sync_dir(dir: &Path) {
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// The journal's writer commits to the data directory.
impl Sink for Disk {
    type Error = DiskError;

    fn apply(&mut self, ops: &[Op]) -> Result<(), DiskError> {
        Disk::apply(self, ops)
    }

    fn finish(&mut self) -> Result<(), DiskError> {
        self.mark_clean()
    }
}

impl From<DiskError> for std::io::Error {
    fn from(err: DiskError) -> Self {
        // Damage is told apart by its kind, so the command line can say how to recover.
        if err.is_damage() {
            std::io::Error::new(std::io::ErrorKind::InvalidData, err)
        } else {
            std::io::Error::other(err)
        }
    }
}
