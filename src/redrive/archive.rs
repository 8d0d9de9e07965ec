//! `--archive FILE`: a JSON Lines copy of every message moved, in the message record schema that
//! `sqsctl send --jsonl` reads back. Lines are written once the send is confirmed.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use parking_lot::Mutex;

use crate::message::{Envelope, MessageRecord};

#[derive(Debug)]
pub struct Archive {
    path: PathBuf,
    file: Mutex<BufWriter<File>>,
}

impl Archive {
    /// Opens (appending to) an archive file.
    pub fn open(path: &Path) -> io::Result<Archive> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Archive {
            path: path.to_path_buf(),
            file: Mutex::new(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn write(&self, messages: &[&MessageRecord]) -> io::Result<()> {
        let mut file = self.file.lock();
        for message in messages {
            let mut record = (*message).clone();
            record.receipt_handle = None;
            serde_json::to_writer(
                &mut *file,
                &Envelope {
                    kind: "message".to_string(),
                    data: record,
                },
            )?;
            file.write_all(b"\n")?;
        }
        file.flush()
    }

    pub fn close(&self) -> io::Result<()> {
        let mut file = self.file.lock();
        file.flush()?;
        file.get_ref().sync_all()
    }
}
