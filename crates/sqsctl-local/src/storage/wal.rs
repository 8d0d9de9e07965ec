//! Reading the data directory's files the way SQLite will, before SQLite does: the database
//! file's header and the write-ahead log (WAL) with its frames and checksums.
//!
//! SQLite treats a WAL it cannot read as if it were not there, and a database file of 0 bytes
//! as a new, empty database: both would start the server with less than it kept, silently, and
//! the next commit would write over what is left. This module finds such damage so that
//! [`crate::storage::disk`] can refuse it, and tells [`crate::storage::recover`] how much of a log can be kept. It
//! knows the file formats (<https://www.sqlite.org/fileformat2.html#walformat>), nothing of
//! queues.
//!
//! What it cannot see: a WAL cut exactly at the end of a frame looks like a log whose last
//! transaction was never committed, and loses that transaction.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

const WAL_MAGIC: u32 = 0x377f_0682;
const WAL_VERSION: u32 = 3_007_000;
const WAL_HEADER: u64 = 32;
const FRAME_HEADER: u64 = 24;
const DB_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// What is wrong with one of the files, in words for an error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage(pub String);

/// The database file's page size, or why the file is not a database.
pub fn database_page_size(path: &Path) -> Result<u32, Damage> {
    let mut header = [0u8; 100];
    let mut file = File::open(path).map_err(|e| Damage(format!("it cannot be read: {e}")))?;
    let len = file
        .metadata()
        .map_err(|e| Damage(format!("it cannot be read: {e}")))?
        .len();
    if len == 0 {
        return Err(Damage("it is empty (0 bytes)".into()));
    }
    if len < header.len() as u64 || file.read_exact(&mut header).is_err() {
        return Err(Damage(format!(
            "it is {len} bytes, shorter than an SQLite database's header"
        )));
    }
    if &header[..16] != DB_MAGIC {
        return Err(Damage("it is not an SQLite database".into()));
    }
    // The page size is stored big-endian; 1 stands for 65536.
    let size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536,
        n => u32::from(n),
    };
    if !valid_page_size(size) {
        return Err(Damage(format!(
            "its header gives a page size of {size} bytes"
        )));
    }
    Ok(size)
}

fn valid_page_size(size: u32) -> bool {
    (512..=65_536).contains(&size) && size.is_power_of_two()
}

/// What a WAL holds, read frame by frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalScan {
    pub page_size: u32,
    /// Complete frames in the file.
    pub frames: u64,
    /// Frames SQLite will apply: those up to the last valid commit frame.
    pub committed_frames: u64,
    /// Transactions among them.
    pub transactions: u64,
    /// Bytes after the last complete frame.
    pub tail_bytes: u64,
    /// Where the frames SQLite will apply end, in bytes: a log cut here keeps all of them.
    pub committed_len: u64,
}

/// Reads the WAL at `path`; `page_size` is the database's. Returns what it holds, or the damage
/// that would make SQLite drop committed transactions. Frames after the last commit frame are an
/// unfinished transaction (normal after `kill -9`), as are stale frames of an earlier round of
/// the log (their salts differ) and one frame header without its page (a write cut by the kill).
pub fn scan(path: &Path, page_size: Option<u32>) -> Result<WalScan, Damage> {
    let (scan, damage) = scan_frames(path, page_size)?;
    match damage {
        Some(damage) => Err(damage),
        None => Ok(scan),
    }
}

/// As [`scan`], but damage after a readable header comes with what can be kept of the log: its
/// first [`WalScan::committed_len`] bytes.
pub fn scan_frames(
    path: &Path,
    page_size: Option<u32>,
) -> Result<(WalScan, Option<Damage>), Damage> {
    let file = File::open(path).map_err(|e| Damage(format!("it cannot be read: {e}")))?;
    let len = file
        .metadata()
        .map_err(|e| Damage(format!("it cannot be read: {e}")))?
        .len();
    if len == 0 {
        return Ok((
            WalScan {
                page_size: page_size.unwrap_or(0),
                ..WalScan::default()
            },
            None,
        ));
    }
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut header = [0u8; WAL_HEADER as usize];
    if len < WAL_HEADER || reader.read_exact(&mut header).is_err() {
        return Err(Damage(format!(
            "it is {len} bytes, shorter than its 32-byte header"
        )));
    }
    let word = |bytes: &[u8], at: usize| {
        u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let magic = word(&header, 0);
    if magic & !1 != WAL_MAGIC {
        return Err(Damage(format!(
            "its header does not start with the WAL magic number (found {magic:#010x})"
        )));
    }
    let big_endian = magic & 1 == 1;
    if word(&header, 4) != WAL_VERSION {
        return Err(Damage(format!(
            "its header gives format version {}, not {WAL_VERSION}",
            word(&header, 4)
        )));
    }
    let stored = (word(&header, 24), word(&header, 28));
    if checksum(big_endian, (0, 0), &header[..24]) != stored {
        return Err(Damage("its header checksum does not match".into()));
    }
    let size = word(&header, 8);
    if !valid_page_size(size) {
        return Err(Damage(format!(
            "its header gives a page size of {size} bytes"
        )));
    }
    if let Some(db) = page_size
        && db != size
    {
        return Err(Damage(format!(
            "its pages are {size} bytes but the database's are {db}: it is not this database's log"
        )));
    }
    let salts = (word(&header, 16), word(&header, 20));
    let frame_len = FRAME_HEADER + u64::from(size);
    let mut out = WalScan {
        page_size: size,
        frames: (len - WAL_HEADER) / frame_len,
        tail_bytes: (len - WAL_HEADER) % frame_len,
        ..WalScan::default()
    };
    let mut frame = vec![0u8; frame_len as usize];
    let mut damage = None;
    let mut running = stored;
    // The valid frames form a prefix; after it, only frames of an earlier round may follow.
    let mut valid = 0u64;
    let mut broken_at = None;
    for index in 0..out.frames {
        reader
            .read_exact(&mut frame)
            .map_err(|e| Damage(format!("it cannot be read: {e}")))?;
        let ours = (word(&frame, 8), word(&frame, 12)) == salts;
        let sum = (word(&frame, 16), word(&frame, 20));
        let computed = checksum(
            big_endian,
            checksum(big_endian, running, &frame[..8]),
            &frame[FRAME_HEADER as usize..],
        );
        match broken_at {
            None if ours && computed == sum => {
                valid += 1;
                if word(&frame, 4) != 0 {
                    out.committed_frames = valid;
                    out.transactions += 1;
                }
            }
            None => broken_at = Some(index),
            Some(_) => {}
        }
        // Past the frames SQLite applies, a whole frame can only be a stale one of an earlier
        // round of the log (its first salt is smaller by the number of rounds since): a frame of
        // this round is written whole with its checksum, or not at all, even by a process killed
        // while writing (which leaves at most a frame header), so one that fails is damage.
        let stale = word(&frame, 8) < salts.0 && salts.0 - word(&frame, 8) <= 1 << 16;
        if broken_at.is_some() && !stale && damage.is_none() {
            let at = broken_at.unwrap_or(index);
            damage = Some(Damage(format!(
                "frame {} of {} is damaged: the changes from there on would be dropped",
                at + 1,
                out.frames
            )));
        }
        running = sum;
    }
    out.committed_len = WAL_HEADER + out.committed_frames * frame_len;
    if out.tail_bytes > 0 {
        // A kill between the two writes of a frame (its header, then its page) leaves exactly
        // one frame header of this round at the end; any other remainder is a cut file.
        let mut tail = vec![0u8; out.tail_bytes as usize];
        let torn_write = out.tail_bytes == FRAME_HEADER
            && broken_at.is_none()
            && reader.read_exact(&mut tail).is_ok()
            && (word(&tail, 8), word(&tail, 12)) == salts;
        if !torn_write && damage.is_none() {
            damage = Some(Damage(format!(
                "it ends in the middle of a frame, {} bytes after its {} whole frames: the file was cut, and what followed is lost",
                out.tail_bytes, out.frames
            )));
        }
    }
    Ok((out, damage))
}

/// SQLite's WAL checksum: two running sums over 32-bit words, in the byte order the magic names.
pub(crate) fn checksum(big_endian: bool, seed: (u32, u32), data: &[u8]) -> (u32, u32) {
    let (mut s0, mut s1) = seed;
    for pair in data.chunks_exact(8) {
        let read = |b: &[u8]| {
            let bytes = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(bytes)
            } else {
                u32::from_le_bytes(bytes)
            }
        };
        s0 = s0.wrapping_add(read(&pair[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(read(&pair[4..])).wrapping_add(s0);
    }
    (s0, s1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_matches_sqlites_definition() {
        // Two words: s0 = 1 + 0, s1 = 2 + s0 = 3.
        let data = [0, 0, 0, 1, 0, 0, 0, 2];
        assert_eq!(checksum(true, (0, 0), &data), (1, 3));
        assert_eq!(checksum(false, (0, 0), &data), (0x0100_0000, 0x0300_0000));
    }

    #[test]
    fn an_empty_log_is_no_damage_and_a_short_one_is() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("wal");
        std::fs::write(&path, b"").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scan(&path, Some(4096)).map(|s| s.frames), Ok(0));
        std::fs::write(&path, [0u8; 20]).unwrap_or_else(|e| panic!("{e}"));
        assert!(scan(&path, Some(4096)).is_err());
        std::fs::write(&path, [0u8; 32]).unwrap_or_else(|e| panic!("{e}"));
        let err = scan(&path, Some(4096))
            .err()
            .map(|d| d.0)
            .unwrap_or_default();
        assert!(err.contains("magic"), "{err}");
    }
}
