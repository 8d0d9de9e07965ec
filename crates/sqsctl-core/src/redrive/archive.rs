//! `--archive FILE`: a JSON Lines copy of every message moved, in the message record schema that
//! `sqsctl send --jsonl` reads back, each with its DLQ message id. A copy is written and synced to
//! disk before the message is deleted from the DLQ, and each message is archived once: a resumed
//! run reads the ids already in the file and adds only the others.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use parking_lot::Mutex;

use super::ids::IdSet;
use crate::message::{Envelope, MessageRecord};
use crate::state_file;

#[derive(Debug)]
pub struct Archive {
    path: PathBuf,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    file: BufWriter<File>,
    /// DLQ message ids in the file.
    archived: IdSet,
}

impl Archive {
    /// Opens (appending to) an archive file, created with mode 0600 if it is new. With `resume`,
    /// the ids already in the file are read, so that a message an earlier run archived is not
    /// archived again, and a last line cut short by a crash is removed.
    pub fn open(path: &Path, resume: bool) -> io::Result<Archive> {
        state_file::create_parent(path)?;
        let mut file = state_file::open(
            path,
            OpenOptions::new().read(true).append(true).create(true),
        )?;
        let archived = if resume {
            read_ids(&mut file)?
        } else {
            IdSet::default()
        };
        Ok(Archive {
            path: path.to_path_buf(),
            inner: Mutex::new(Inner {
                file: BufWriter::with_capacity(1 << 16, file),
                archived,
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the message with this DLQ id has its copy in the archive.
    pub fn contains(&self, id: &str) -> bool {
        self.inner.lock().archived.contains(id)
    }

    /// Appends the messages not archived yet and syncs the file: when this returns `Ok`, every
    /// message given has its copy on disk. On an error, none of them counts as archived.
    pub fn write(&self, messages: &[&MessageRecord]) -> io::Result<()> {
        let mut inner = self.inner.lock();
        let mut added = Vec::new();
        for message in messages {
            let id = message.message_id.as_deref().unwrap_or_default();
            if inner.archived.contains(id) || added.contains(&id) {
                continue;
            }
            let mut record = (*message).clone();
            record.receipt_handle = None;
            serde_json::to_writer(
                &mut inner.file,
                &Envelope {
                    kind: "message".to_string(),
                    data: record,
                },
            )?;
            inner.file.write_all(b"\n")?;
            added.push(id);
        }
        if added.is_empty() {
            return Ok(());
        }
        inner.file.flush()?;
        inner.file.get_ref().sync_data()?;
        for id in added {
            inner.archived.insert(id);
        }
        Ok(())
    }

    pub fn close(&self) -> io::Result<()> {
        let mut inner = self.inner.lock();
        inner.file.flush()?;
        inner.file.get_ref().sync_all()
    }
}

/// The DLQ ids of the messages in an archive. A last line without its newline (a write cut short)
/// is cut off, so that the next line starts on a line of its own.
fn read_ids(file: &mut File) -> io::Result<IdSet> {
    let mut ids = IdSet::default();
    // A device or a pipe has no lines to read back (and `/dev/full` would read zeros forever).
    if !file.metadata()?.is_file() {
        return Ok(ids);
    }
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::new(&mut *file);
    let mut complete = 0u64;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)?;
        if read == 0 || line.last() != Some(&b'\n') {
            break;
        }
        complete += read as u64;
        if let Ok(envelope) = serde_json::from_slice::<Envelope<MessageRecord>>(&line)
            && let Some(id) = envelope.data.message_id.as_deref()
        {
            ids.insert(id);
        }
    }
    if file.metadata()?.len() > complete {
        file.set_len(complete)?;
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: &str) -> MessageRecord {
        MessageRecord {
            message_id: Some(id.into()),
            receipt_handle: Some("h".into()),
            ..MessageRecord::with_body(format!("body of {id}"))
        }
    }

    #[test]
    fn each_message_is_archived_once_across_a_resume_and_a_torn_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("archive.jsonl");
        let archive = Archive::open(&path, false).expect("open");
        archive
            .write(&[&message("a"), &message("b"), &message("a")])
            .expect("write");
        archive.write(&[&message("b")]).expect("write");
        archive.close().expect("close");
        drop(archive);
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(b"{\"type\":\"message\",\"data\":{\"message_id\":\"c\"")
            .expect("torn");
        let archive = Archive::open(&path, true).expect("reopen");
        assert!(archive.contains("a") && archive.contains("b"));
        assert!(!archive.contains("c"), "a torn line is no copy");
        archive
            .write(&[&message("b"), &message("c")])
            .expect("write");
        archive.close().expect("close");
        let text = std::fs::read_to_string(&path).expect("read");
        let ids: Vec<String> = text
            .lines()
            .map(|l| {
                let e: Envelope<MessageRecord> = serde_json::from_str(l).expect("a whole line");
                assert!(e.data.receipt_handle.is_none());
                e.data.message_id.expect("id")
            })
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
    }
}
