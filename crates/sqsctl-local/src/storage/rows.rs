//! Row checksums: every stored queue and message row carries a digest of all its fields, so that
//! a start notices a row SQLite reads back differently from how it was written, and recovery can
//! tell a row it found in a damaged file from garbage or from a row of another table.
//!
//! A message has two: `sum` over the fields fixed at send time, `state_sum` over those a receive
//! or a visibility change rewrites, so that such a change need not read the row back. Both cover
//! the row key, which SQLite keeps apart from the record, and name their table, so a row of one
//! table never verifies as a row of another.

use rusqlite::types::ValueRef;
use sha2::{Digest, Sha256};

/// The queues table's columns, in stored order; the last is the checksum.
pub const QUEUE_COLUMNS: [&str; 11] = [
    "row",
    "name",
    "fifo",
    "created_at",
    "attributes",
    "tags",
    "last_modified",
    "last_purge",
    "next_sequence",
    "region",
    "sum",
];

/// The messages table's columns, in stored order; the last two are the checksums.
pub const MESSAGE_COLUMNS: [&str; 20] = [
    "row",
    "queue",
    "id",
    "body",
    "attributes",
    "md5_body",
    "md5_attributes",
    "sent_at",
    "first_received_at",
    "receive_count",
    "group_id",
    "sequence",
    "dedup_id",
    "trace_header",
    "dead_letter_source",
    "state",
    "until",
    "received_at",
    "sum",
    "state_sum",
];

/// The message columns `state_sum` covers besides the row key.
pub const MESSAGE_STATE: [usize; 5] = [8, 9, 15, 16, 17];

/// The digest of `values` as one row of `table`, as SQLite stores them.
pub fn digest<'a>(table: &str, values: impl IntoIterator<Item = ValueRef<'a>>) -> i64 {
    let mut hasher = Sha256::new();
    hasher.update(table.as_bytes());
    hasher.update([0]);
    for value in values {
        match value {
            ValueRef::Null => hasher.update([0]),
            ValueRef::Integer(i) => {
                hasher.update([1]);
                hasher.update(i.to_be_bytes());
            }
            ValueRef::Real(f) => {
                hasher.update([2]);
                hasher.update(f.to_bits().to_be_bytes());
            }
            ValueRef::Text(t) => {
                hasher.update([3]);
                hasher.update((t.len() as u64).to_be_bytes());
                hasher.update(t);
            }
            ValueRef::Blob(b) => {
                hasher.update([4]);
                hasher.update((b.len() as u64).to_be_bytes());
                hasher.update(b);
            }
        }
    }
    let out = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&out[..8]);
    i64::from_be_bytes(first)
}

/// A queue row's checksum over its first ten columns.
pub fn queue_sum(values: &[ValueRef<'_>]) -> i64 {
    digest("queues", values[..10].iter().copied())
}

/// A message row's two checksums over its first eighteen columns.
pub fn message_sums(values: &[ValueRef<'_>]) -> (i64, i64) {
    let fixed = (0..18)
        .filter(|i| !MESSAGE_STATE.contains(i))
        .map(|i| values[i]);
    let state = std::iter::once(values[0]).chain(MESSAGE_STATE.iter().map(|&i| values[i]));
    (digest("messages", fixed), digest("message state", state))
}

/// Whether a full queue row (checksum last) is as it was written.
pub fn queue_verifies(values: &[ValueRef<'_>]) -> bool {
    values.len() == QUEUE_COLUMNS.len() && values[10] == ValueRef::Integer(queue_sum(values))
}

/// Whether a full message row (checksums last) is as it was written.
pub fn message_verifies(values: &[ValueRef<'_>]) -> bool {
    if values.len() != MESSAGE_COLUMNS.len() {
        return false;
    }
    let (fixed, state) = message_sums(values);
    values[18] == ValueRef::Integer(fixed) && values[19] == ValueRef::Integer(state)
}
