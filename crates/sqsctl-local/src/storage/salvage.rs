//! Reading queue and message rows straight out of the pages of a damaged database and its
//! write-ahead log, for [`crate::storage::recover`], where SQLite itself stops at the first
//! damaged page of a b-tree, a damaged header or a cut file.
//!
//! Every page is looked at on its own: the database file's, overlaid by the log's committed
//! frames (the latest frame of a page wins, as SQLite would read it). Each table-leaf page's
//! cells are decoded (record format, varints, overflow chains), and a row is kept only when its
//! checksum ([`crate::storage::rows`]) verifies, which also tells queue rows from message rows
//! and both from rows of other tables. Deleted rows are never brought back: the database zeroes
//! what it deletes (`secure_delete`), pages on the free list are skipped when the header can
//! tell them, stale frames of the log (before the latest of their page, after its last commit,
//! or of an earlier round) are never read, and a page whose latest frame is damaged is read in
//! that frame (its rows the damage missed still verify), never in an older version. Format: <https://www.sqlite.org/fileformat2.html>.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::types::{Value, ValueRef};

use crate::storage::rows;
use crate::storage::wal::checksum;

/// What the pages gave.
#[derive(Debug, Default)]
pub struct Salvaged {
    /// Queue rows that verify, by row key: the eleven columns, checksum last.
    pub queues: BTreeMap<i64, Vec<Value>>,
    /// Message rows that verify, by row key: the twenty columns, checksums last.
    pub messages: BTreeMap<i64, Vec<Value>>,
    /// Rows shaped as messages that do not verify, by the queue they name (when readable).
    pub damaged_messages: BTreeMap<Option<i64>, u64>,
    /// Rows shaped as queues that do not verify.
    pub damaged_queues: u64,
    /// Pages that could not be read, in words.
    pub lost_pages: Vec<String>,
}

const WAL_MAGIC: u32 = 0x377f_0682;
const TABLE_LEAF: u8 = 0x0d;

/// Reads what it can of the database file `db` and its log `wal` (either may be damaged, cut or
/// missing).
pub fn salvage(db: Option<&[u8]>, wal: Option<&[u8]>) -> Salvaged {
    let mut out = Salvaged::default();
    let db = db.unwrap_or_default();
    let header_size = (db.len() >= 100 && &db[..16] == b"SQLite format 3\0").then(|| {
        match u16::from_be_bytes([db[16], db[17]]) {
            1 => 65_536,
            n => usize::from(n),
        }
    });
    // The log's header has a checksum, the database's none: a log header that verifies says
    // the page size first.
    let wal_size = wal.and_then(wal_page_size);
    let page_size = wal_size
        .or(header_size.filter(|s| valid_page_size(*s)))
        .unwrap_or(4096);
    let mut pages: HashMap<u32, &[u8]> = HashMap::new();
    for (index, page) in db.chunks_exact(page_size).enumerate() {
        if let Ok(number) = u32::try_from(index + 1) {
            pages.insert(number, page);
        }
    }
    if db.len() % page_size != 0 {
        out.lost_pages.push(format!(
            "the database file ends {} bytes into page {}",
            db.len() % page_size,
            db.len() / page_size + 1
        ));
    }
    if let Some(wal) = wal {
        overlay_wal(wal, page_size, &mut pages, &mut out);
    }
    for page in free_pages(&pages, page_size) {
        pages.remove(&page);
    }
    let usable = page_size;
    let mut numbers: Vec<u32> = pages.keys().copied().collect();
    numbers.sort_unstable();
    for number in numbers {
        let page = pages[&number];
        let start = if number == 1 { 100 } else { 0 };
        if page.get(start) != Some(&TABLE_LEAF) {
            continue;
        }
        let cells = u16::from_be_bytes([page[start + 3], page[start + 4]]) as usize;
        // Cells lie in the content area, after the pointer array: the gap between them may
        // still hold a stale cell, which a damaged pointer must not lead to.
        let content = match u16::from_be_bytes([page[start + 5], page[start + 6]]) {
            0 => 65_536,
            n => usize::from(n),
        };
        let content = content.max(start + 8 + 2 * cells);
        for i in 0..cells {
            let at = start + 8 + 2 * i;
            let Some(pointer) = page.get(at..at + 2) else {
                break;
            };
            let offset = u16::from_be_bytes([pointer[0], pointer[1]]) as usize;
            if offset < content {
                continue;
            }
            if let Some((rowid, payload)) = read_cell(page, offset, usable, &pages) {
                take_row(rowid, &payload, &mut out);
            }
        }
    }
    out
}

fn valid_page_size(size: usize) -> bool {
    (512..=65_536).contains(&size) && size.is_power_of_two()
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The page size a log's header gives, when the header verifies.
fn wal_page_size(wal: &[u8]) -> Option<usize> {
    let header = wal.get(..32)?;
    let big_endian = word(header, 0) & 1 == 1;
    if checksum(big_endian, (0, 0), &header[..24]) != (word(header, 24), word(header, 28)) {
        return None;
    }
    let size = word(header, 8) as usize;
    valid_page_size(size).then_some(size)
}

/// Puts the log's committed frames over the database's pages, the latest of each page winning;
/// a page whose committed frame is damaged is dropped, so that no older version of it is read.
fn overlay_wal<'a>(
    wal: &'a [u8],
    page_size: usize,
    pages: &mut HashMap<u32, &'a [u8]>,
    out: &mut Salvaged,
) {
    if wal.len() < 32 {
        return;
    }
    let magic = word(wal, 0);
    // A damaged magic number: the byte order of the machine that wrote it, little-endian on
    // the platforms the server runs on.
    let big_endian = magic & !1 == WAL_MAGIC && magic & 1 == 1;
    let frame_len = 24 + page_size;
    let frames: Vec<&[u8]> = wal[32..].chunks_exact(frame_len).collect();
    let header_ok = checksum(big_endian, (0, 0), &wal[..24]) == (word(wal, 24), word(wal, 28));
    // The salts of this round of the log: the header's, or the first frame's when the header is
    // damaged.
    let salts = if header_ok || frames.is_empty() {
        (word(wal, 16), word(wal, 20))
    } else {
        (word(frames[0], 8), word(frames[0], 12))
    };
    // Each frame's checksum chains on the one stored in the frame before it, so a frame after a
    // damaged one still verifies on its own.
    let mut previous = (word(wal, 24), word(wal, 28));
    let mut valid = Vec::with_capacity(frames.len());
    let mut ours = Vec::with_capacity(frames.len());
    for frame in &frames {
        let stored = (word(frame, 16), word(frame, 20));
        let computed = checksum(
            big_endian,
            checksum(big_endian, previous, &frame[..8]),
            &frame[24..],
        );
        ours.push((word(frame, 8), word(frame, 12)) == salts);
        valid.push(computed == stored);
        previous = stored;
    }
    let valid: Vec<bool> = valid.iter().zip(&ours).map(|(v, o)| *v && *o).collect();
    if !valid.contains(&true) {
        // Not one frame verifies: nothing says what of this is a log.
        return;
    }
    // A commit frame of this round whose page is damaged still ends its transaction: without
    // it, the transaction's deletions would be undone.
    let last_commit = (0..frames.len())
        .rev()
        .find(|&i| ours[i] && word(frames[i], 4) != 0);
    // After the last commit, a process killed while writing leaves whole frames that verify (an
    // unfinished transaction) and at most a frame header, never a whole frame that fails: such a
    // frame, unless it is a stale one of an earlier round, is damage, its transaction was
    // committed, and the log is read to its end, lest the transaction's deletions be undone.
    let stale = |frame: &[u8]| word(frame, 8) < salts.0 && salts.0 - word(frame, 8) <= 1 << 16;
    let after = last_commit.map_or(0, |i| i + 1);
    let damaged_tail = (after..frames.len()).any(|i| !valid[i] && !stale(frames[i]));
    let last_commit = if damaged_tail {
        frames.len() - 1
    } else {
        match last_commit {
            Some(i) => i,
            None => return,
        }
    };
    // The database's size in pages, as the file and the verified commits give it: a page number
    // past it is damaged.
    let size = (0..frames.len())
        .filter(|&i| valid[i])
        .map(|i| word(frames[i], 4))
        .chain(pages.keys().copied())
        .max()
        .unwrap_or(0);
    let mut unknown = 0;
    for (i, frame) in frames.iter().enumerate().take(last_commit + 1) {
        let number = word(frame, 0);
        if valid[i] {
            pages.insert(number, &frame[24..]);
        } else if number == 0 || number > size {
            unknown += 1;
        } else {
            // Still the latest version of its page: the rows the damage missed verify on their
            // own, and an older version of the page must not be read instead.
            pages.insert(number, &frame[24..]);
            out.lost_pages.push(format!(
                "frame {} of the write-ahead log (page {number}) is damaged: its rows that no longer verify are dropped",
                i + 1
            ));
        }
    }
    if unknown > 0 {
        out.lost_pages.push(format!(
            "{unknown} frames of the write-ahead log are damaged and do not say which page they held"
        ));
    }
}

/// The pages on the free list, as far as the header and the trunk pages can tell.
fn free_pages(pages: &HashMap<u32, &[u8]>, page_size: usize) -> HashSet<u32> {
    let mut free = HashSet::new();
    let Some(first) = pages.get(&1) else {
        return free;
    };
    let mut trunk = word(first, 32);
    let expected = word(first, 36) as usize;
    let limit = pages.len();
    while trunk != 0 && free.len() <= limit && free.insert(trunk) {
        let Some(page) = pages.get(&trunk) else {
            break;
        };
        let leaves = (word(page, 4) as usize).min(page_size / 4 - 2);
        for i in 0..leaves {
            free.insert(word(page, 8 + 4 * i));
        }
        trunk = word(page, 0);
    }
    // A list that does not add up to the header's count was read through a damaged pointer: it
    // would hide pages in use. Freed pages hold zeros anyway.
    if free.len() != expected {
        free.clear();
    }
    free
}

/// A varint at `at`: its value and length.
fn varint(bytes: &[u8], at: usize) -> Option<(i64, usize)> {
    let mut value: u64 = 0;
    for i in 0..9 {
        let byte = *bytes.get(at + i)?;
        if i == 8 {
            return Some(((value << 8 | u64::from(byte)) as i64, 9));
        }
        value = value << 7 | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some((value as i64, i + 1));
        }
    }
    None
}

/// A table-leaf cell's row key and payload, following its overflow chain.
fn read_cell(
    page: &[u8],
    offset: usize,
    usable: usize,
    pages: &HashMap<u32, &[u8]>,
) -> Option<(i64, Vec<u8>)> {
    let (length, a) = varint(page, offset)?;
    let (rowid, b) = varint(page, offset + a)?;
    let length = usize::try_from(length).ok()?;
    if length > 1 << 30 {
        return None;
    }
    let start = offset + a + b;
    let max_local = usable - 35;
    let min_local = (usable - 12) * 32 / 255 - 23;
    let local = if length <= max_local {
        length
    } else {
        let k = min_local + (length - min_local) % (usable - 4);
        if k <= max_local { k } else { min_local }
    };
    let mut payload = page.get(start..start + local)?.to_vec();
    if local < length {
        let mut next = word(page.get(start + local..start + local + 4)?, 0);
        let mut seen = 0;
        while payload.len() < length {
            seen += 1;
            if next == 0 || seen > pages.len() {
                return None;
            }
            let overflow = pages.get(&next)?;
            let take = (length - payload.len()).min(usable - 4);
            payload.extend_from_slice(overflow.get(4..4 + take)?);
            next = word(overflow, 0);
        }
    }
    Some((rowid, payload))
}

/// A record's values, or `None` when it is not a well-formed record.
fn decode_record(payload: &[u8]) -> Option<Vec<Value>> {
    let (header_len, mut at) = varint(payload, 0)?;
    let header_len = usize::try_from(header_len).ok()?;
    if header_len > payload.len() {
        return None;
    }
    let mut types = Vec::new();
    while at < header_len {
        let (serial, n) = varint(payload, at)?;
        types.push(serial);
        at += n;
    }
    let mut body = header_len;
    let mut values = Vec::with_capacity(types.len());
    for serial in types {
        let int = |len: usize| -> Option<i64> {
            let bytes = payload.get(body..body + len)?;
            let mut v: i64 = if bytes[0] & 0x80 != 0 { -1 } else { 0 };
            for b in bytes {
                v = v << 8 | i64::from(*b);
            }
            Some(v)
        };
        let (value, len) = match serial {
            0 => (Value::Null, 0),
            1..=4 => {
                let len = serial as usize;
                (Value::Integer(int(len)?), len)
            }
            5 => (Value::Integer(int(6)?), 6),
            6 => (Value::Integer(int(8)?), 8),
            7 => (Value::Real(f64::from_bits(int(8)? as u64)), 8),
            8 => (Value::Integer(0), 0),
            9 => (Value::Integer(1), 0),
            10 | 11 => return None,
            n => {
                let len = usize::try_from((n - 12) / 2).ok()?;
                let bytes = payload.get(body..body + len)?.to_vec();
                if n % 2 == 0 {
                    (Value::Blob(bytes), len)
                } else {
                    (Value::Text(String::from_utf8(bytes).ok()?), len)
                }
            }
        };
        values.push(value);
        body += len;
    }
    Some(values)
}

/// Keeps a row that verifies as a queue or a message; counts one that has their shape but not
/// their checksum.
fn take_row(rowid: i64, payload: &[u8], out: &mut Salvaged) {
    let decoded = decode_record(payload);
    let Some(mut values) = decoded else {
        // Not a record at all: a message row whose bytes were damaged is counted by the count
        // check, not here, since nothing tells which table it was of.
        return;
    };
    // The row key is kept in the cell, the record holds NULL in its place.
    if values.first() == Some(&Value::Null) {
        values[0] = Value::Integer(rowid);
    }
    let refs: Vec<ValueRef<'_>> = values.iter().map(ValueRef::from).collect();
    match values.len() {
        20 if rows::message_verifies(&refs) => {
            out.messages.insert(rowid, values);
        }
        20 => {
            let queue = match values[1] {
                Value::Integer(q) => Some(q),
                _ => None,
            };
            *out.damaged_messages.entry(queue).or_default() += 1;
        }
        11 if rows::queue_verifies(&refs) => {
            out.queues.insert(rowid, values);
        }
        11 => out.damaged_queues += 1,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_read_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x05], 0), Some((5, 1)));
        assert_eq!(varint(&[0x81, 0x00], 0), Some((128, 2)));
        // Nine bytes: the last one gives all eight of its bits.
        assert_eq!(varint(&[0xff; 9], 0), Some((-1, 9)));
        assert_eq!(varint(&[0x81], 0), None);
    }

    #[test]
    fn a_record_decodes_to_its_values() {
        // Header of 5 bytes: NULL, a 1-byte integer, the constant 1, text of 2 bytes.
        let record = [5, 0, 1, 9, 17, 0xfe, b'o', b'k'];
        assert_eq!(
            decode_record(&record),
            Some(vec![
                Value::Null,
                Value::Integer(-2),
                Value::Integer(1),
                Value::Text("ok".into()),
            ])
        );
        // A header that claims more than the record holds is not a record.
        assert_eq!(decode_record(&[9, 0, 1]), None);
    }

    #[test]
    fn nothing_readable_gives_nothing() {
        let out = salvage(Some(&[0u8; 8192]), Some(&[0xabu8; 100]));
        assert!(out.queues.is_empty() && out.messages.is_empty());
        let out = salvage(None, None);
        assert!(out.queues.is_empty() && out.messages.is_empty());
    }
}
