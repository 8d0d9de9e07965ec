//! Start-up from a data directory: reads back what [`crate::storage::disk`] keeps, rebuilds the queues in
//! memory with their messages in their stored states, then hands the directory to the journal's
//! writer so every later change is recorded. Messages in flight stay in flight until their
//! deadline; delayed ones stay delayed; expired ones are dropped.

use std::collections::HashMap;
use std::path::Path;

use crate::engine::journal::{Journal, Op, TaskRecord};
use crate::engine::message::StoredMessage;
use crate::engine::queue::{Queue, QueueState};
use crate::service::Service;
use crate::storage::disk::{Disk, DiskError};

/// What was restored, for the start-up line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Restored {
    pub queues: usize,
    pub messages: usize,
    /// The data directory's mode, when the user made it and others may read it.
    pub exposed_dir_mode: Option<u32>,
}

/// Opens `dir`, restores its queues into `svc` and starts recording there. Returns the move tasks
/// to resume once a runtime runs, and what was restored.
pub fn open(svc: &mut Service, dir: &Path) -> Result<(Vec<TaskRecord>, Restored), DiskError> {
    let mut disk = Disk::open(dir)?;
    let now = svc.now();
    let mut by_queue: HashMap<u64, Vec<StoredMessage>> = HashMap::new();
    let loaded = disk.load(now, |queue, message| {
        by_queue.entry(queue).or_default().push(message);
    })?;
    let max_row = loaded.queues.iter().map(|q| q.row).max().unwrap_or(0);
    let first_id = loaded.next_queue_id.max(max_row + 1);
    disk.after_load(now, first_id + loaded.queues.len() as u64, &svc.region)?;
    svc.reserve_ids_below(first_id);
    let exposed_dir_mode = disk.exposed_mode();
    let written = disk.dir().to_path_buf();
    let journal = Journal::start(disk, written, loaded.last_row)
        .map_err(|e| DiskError::Io(dir.to_path_buf(), e))?;
    svc.journal = journal.clone();

    let mut dedup: HashMap<u64, Vec<_>> = HashMap::new();
    for (queue, key, original, expires) in loaded.dedup {
        dedup
            .entry(queue)
            .or_default()
            .push((key, original, expires));
    }
    let mut restored = Restored {
        exposed_dir_mode,
        ..Restored::default()
    };
    for record in &loaded.queues {
        let state = QueueState::new(
            record.attributes.clone(),
            record.tags.clone(),
            record.fifo,
            record.created_at,
        );
        let region = record.region.as_deref().unwrap_or(&svc.region);
        let mut queue = Queue::new(
            svc.next_id(),
            region.to_string(),
            record.name.clone(),
            svc.arn_of(region, &record.name),
            record.fifo,
            state,
        );
        queue.row = record.row;
        {
            let state = queue.state.get_mut();
            state.restore_counters(record);
            state.attach(journal.clone(), record.row, svc.budget.clone());
            let mut messages = by_queue.remove(&record.row).unwrap_or_default();
            if record.fifo {
                // Send order within a group is sequence order; a message that moved in from
                // another queue keeps its older row but got a new sequence number.
                messages.sort_by_key(StoredMessage::sequence_offset);
            }
            restored.messages += messages.len();
            for message in messages {
                state.restore_message(message);
            }
            for (key, original, expires) in dedup.remove(&record.row).unwrap_or_default() {
                state.restore_dedup(key, original, expires);
            }
            state.tick(now);
        }
        svc.restore_queue(queue);
        restored.queues += 1;
    }
    // Messages of a queue deleted while a send into it was being recorded.
    for message in by_queue.into_values().flatten() {
        journal.record(Op::DeleteMessage { row: message.row });
    }
    Ok((loaded.tasks, restored))
}
