//! One queue: its identity, its attributes and its messages behind a single lock, and the rules of
//! sending into it (FIFO group and deduplication rules, sequence numbers, dead-letter arrivals).

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use tokio::sync::Notify;

use crate::engine::attrs::QueueAttributes;
use crate::engine::fifo::{DEDUP_WINDOW_MS, Dedup, Original};
use crate::engine::journal::{Journal, Op, QueueRecord};
use crate::engine::limits::Budget;
use crate::engine::md5;
use crate::engine::message::{
    FIRST_SEQUENCE, MessageAttribute, NewMessage, SendReceipt, State, StoredMessage, random_uuid,
};
use crate::engine::realism::Draw;
use crate::engine::store::{Ask, Counts, DeleteOutcome, Messages, Received, VisibilityChange};
use crate::engine::validate;
use crate::error::{SqsError, SqsResult};

#[derive(Debug)]
pub struct Queue {
    /// Distinguishes this queue from an earlier one of the same name (receipt handles carry it).
    pub id: u64,
    /// The queue's key in the data directory; it outlives restarts, unlike `id`.
    pub row: u64,
    /// The region the queue was created in: only requests of that region see it.
    pub region: String,
    pub name: String,
    pub arn: String,
    pub fifo: bool,
    pub created_at: u64,
    /// Woken whenever messages may have become receivable, for long polls.
    pub changed: Notify,
    pub state: Mutex<QueueState>,
}

#[derive(Debug)]
pub struct QueueState {
    pub attrs: QueueAttributes,
    pub tags: BTreeMap<String, String>,
    pub messages: Messages,
    pub dedup: Dedup,
    pub last_modified: u64,
    pub last_purge: Option<u64>,
    /// The deduplication scope before the last change of `DeduplicationScope`, and when it
    /// changed: SQS goes on deduplicating under the old scope for a deduplication window. Kept in
    /// memory only.
    scope_change: Option<(bool, u64)>,
    next_sequence: u64,
    /// The counts `GetQueueAttributes` last reported and when they were taken, under a count
    /// lag (see [`crate::Realism::count_lag`]).
    reported: Option<(u64, Counts)>,
    /// Where changes to this queue are recorded, and the queue's row there.
    journal: Journal,
    row: u64,
}

/// A message validated and digested outside the queue lock.
#[derive(Debug)]
pub struct Prepared {
    pub message: NewMessage,
    pub md5_of_body: [u8; 16],
    pub md5_of_attributes: Option<[u8; 16]>,
    pub md5_of_system_attributes: Option<[u8; 16]>,
}

impl Prepared {
    /// Checks what does not depend on the queue: characters, ids and the hard size limit.
    pub fn new(message: NewMessage) -> SqsResult<Prepared> {
        validate::message_body(&message.body)?;
        validate::message_size(
            &message.body,
            &message.attributes,
            validate::MAX_MESSAGE_BYTES,
        )?;
        if let Some(delay) = message.delay_seconds {
            validate::in_range(
                "DelaySeconds",
                i64::from(delay),
                0,
                i64::from(validate::MAX_DELAY_SECONDS),
            )?;
        }
        if let Some(group) = &message.group_id {
            validate::fifo_id("MessageGroupId", group)?;
        }
        if let Some(dedup) = &message.dedup_id {
            validate::fifo_id("MessageDeduplicationId", dedup)?;
        }
        let md5_of_system_attributes = message.trace_header.as_ref().and_then(|t| {
            md5::of_attributes(&[MessageAttribute {
                name: "AWSTraceHeader".into(),
                data_type: "String".into(),
                value: crate::engine::message::AttributeValue::String(t.clone()),
            }])
        });
        Ok(Prepared {
            md5_of_body: md5::of_body(&message.body),
            md5_of_attributes: md5::of_attributes(&message.attributes),
            md5_of_system_attributes,
            message,
        })
    }
}

impl Queue {
    pub fn new(
        id: u64,
        region: String,
        name: String,
        arn: String,
        fifo: bool,
        state: QueueState,
    ) -> Self {
        let created_at = state.last_modified;
        Queue {
            id,
            row: id,
            region,
            name,
            arn,
            fifo,
            created_at,
            changed: Notify::new(),
            state: Mutex::new(state),
        }
    }
}

impl QueueState {
    pub fn new(
        attrs: QueueAttributes,
        tags: BTreeMap<String, String>,
        fifo: bool,
        now: u64,
    ) -> Self {
        QueueState {
            attrs,
            tags,
            messages: Messages::new(fifo),
            dedup: Dedup::default(),
            last_modified: now,
            last_purge: None,
            scope_change: None,
            next_sequence: 0,
            reported: None,
            journal: Journal::off(),
            row: 0,
        }
    }

    /// Joins a server: charges the server's memory bound and records changes in its journal
    /// under the queue's row.
    pub fn attach(&mut self, journal: Journal, row: u64, budget: Arc<Budget>) {
        self.messages.attach(budget, journal.is_on());
        self.journal = journal;
        self.row = row;
    }

    /// Restores the counters of a queue read back from the data directory.
    pub fn restore_counters(&mut self, record: &QueueRecord) {
        self.last_modified = record.last_modified;
        self.last_purge = record.last_purge;
        self.next_sequence = self.next_sequence.max(record.next_sequence);
    }

    /// Restores a message read back from the data directory, in its stored state.
    pub fn restore_message(&mut self, message: StoredMessage) {
        self.next_sequence = self.next_sequence.max(message.sequence_offset());
        self.messages.insert(message);
    }

    /// Restores a deduplication entry read back from the data directory.
    pub fn restore_dedup(&mut self, key: String, original: Original, expires: u64) {
        self.dedup.remember_until(key, original, expires);
    }

    pub fn tick(&mut self, now: u64) {
        let retention_ms = u64::from(self.attrs.retention_seconds) * 1000;
        self.messages.tick(now, retention_ms);
        if self.journal.is_on() {
            for row in self.messages.take_expired_rows() {
                self.journal.record(Op::DeleteMessage { row });
            }
        }
    }

    /// What the data directory keeps of the queue itself.
    pub fn record(&self, queue: &Queue) -> QueueRecord {
        QueueRecord {
            row: queue.row,
            region: Some(queue.region.clone()),
            name: queue.name.clone(),
            fifo: queue.fifo,
            created_at: queue.created_at,
            attributes: self.attrs.clone(),
            tags: self.tags.clone(),
            last_modified: self.last_modified,
            last_purge: self.last_purge,
            next_sequence: self.next_sequence,
        }
    }

    /// Records the queue's attributes, tags and counters after a change to them.
    pub fn save(&self, queue: &Queue) {
        self.journal
            .record_with(|| Op::PutQueue(self.record(queue)));
    }

    fn save_message(&self, message: &StoredMessage) {
        self.journal.record_with(|| self.put_op(message));
    }

    fn put_op(&self, message: &StoredMessage) -> Op {
        Op::PutMessage {
            queue: self.row,
            message: message.clone(),
        }
    }

    fn save_state(&self, message: &StoredMessage) {
        self.journal.record_with(|| Op::MessageState {
            row: message.row,
            state: message.state,
            receive_count: message.receive_count,
            first_received_at: message.first_received_at(),
        });
    }

    /// Receives what `ask` asks for (see [`Messages::receive`]), recording the messages' new state.
    pub fn receive(&mut self, now: u64, ask: Ask, draw: Option<&mut Draw>) -> Received {
        let received = self.messages.receive(now, ask, draw);
        if self.journal.is_on() {
            for (key, message) in &received.messages {
                // A copy of a deleted message (a second delivery) has nothing left to record.
                if self.messages.get(*key).is_some() {
                    self.save_state(message);
                }
            }
        }
        received
    }

    /// The counts behind the `ApproximateNumberOfMessages*` attributes: exact without a lag,
    /// otherwise a snapshot no older than `lag_ms`, taken afresh once it is that old.
    pub fn reported_counts(&mut self, now: u64, lag_ms: u64) -> Counts {
        if lag_ms == 0 {
            return self.messages.counts();
        }
        match self.reported {
            Some((taken, counts)) if now < taken.saturating_add(lag_ms) => counts,
            _ => {
                let counts = self.messages.counts();
                self.reported = Some((now, counts));
                counts
            }
        }
    }

    pub fn delete(&mut self, key: u64, generation: u32, now: u64) -> DeleteOutcome {
        let row = self.messages.row_of(key);
        let outcome = self.messages.delete_at(key, generation, now);
        match (outcome, row) {
            (DeleteOutcome::Deleted, Some(row)) => {
                self.journal.record_with(|| Op::DeleteMessage { row });
            }
            // Answered as success: the delete that removed the message may still be on its way
            // to the disk.
            _ => self.journal.await_recorded(),
        }
        outcome
    }

    pub fn change_visibility(&mut self, change: VisibilityChange<'_>) -> SqsResult<()> {
        self.messages.change_visibility(change)?;
        if self.journal.is_on()
            && let Some(message) = self.messages.get(change.key)
        {
            self.save_state(message);
        }
        Ok(())
    }

    /// Deletes every message and the deduplication ids seen (SQS accepts a purged message sent
    /// again with its id), and remembers when, all in one commit.
    pub fn purge(&mut self, queue: &Queue, now: u64) {
        self.messages.purge();
        self.dedup = Dedup::default();
        self.last_purge = Some(now);
        if self.journal.is_on() {
            self.journal.record_all([
                Op::Purge { queue: self.row },
                Op::PutQueue(self.record(queue)),
            ]);
        }
    }

    /// Whether deduplication is per message group at `now`: the scope of the queue's attributes,
    /// or the one before its last change for the deduplication window after it.
    pub fn dedup_per_group(&self, now: u64) -> bool {
        match self.scope_change {
            Some((before, at)) if now < at.saturating_add(DEDUP_WINDOW_MS) => before,
            _ => self.attrs.dedup_per_group,
        }
    }

    /// Replaces the queue's attributes; a change of `DeduplicationScope` applies to deduplication
    /// only once a deduplication window has passed, as on SQS.
    pub fn set_attributes(&mut self, attrs: QueueAttributes, now: u64) {
        if attrs.dedup_per_group != self.attrs.dedup_per_group {
            self.scope_change = Some((self.dedup_per_group(now), now));
        }
        self.attrs = attrs;
    }

    /// The next sequence offset (see [`FIRST_SEQUENCE`]).
    fn sequence(&mut self) -> u64 {
        self.next_sequence += 1;
        self.next_sequence
    }

    /// Enqueues a message, or answers with the original on a FIFO duplicate.
    pub fn send(&mut self, prepared: Prepared, fifo: bool, now: u64) -> SqsResult<SendReceipt> {
        let Prepared {
            message,
            md5_of_body,
            md5_of_attributes,
            md5_of_system_attributes,
        } = prepared;
        validate::message_size(
            &message.body,
            &message.attributes,
            self.attrs.maximum_message_size as usize,
        )?;
        let attribute_bytes: usize = message.attributes.iter().map(MessageAttribute::size).sum();
        self.messages.budget().admit(
            (message.body.len() + attribute_bytes) as u64
                + crate::engine::message::BOOKKEEPING_BYTES,
        )?;
        let receipt = |message_id, sequence| SendReceipt {
            message_id,
            md5_of_body,
            md5_of_attributes,
            md5_of_system_attributes,
            sequence,
        };
        let mut dedup_key = None;
        let mut dedup_id = None;
        if fifo {
            if message.delay_seconds.is_some_and(|d| d > 0) {
                return Err(SqsError::invalid_value(
                    "DelaySeconds",
                    message.delay_seconds.unwrap_or(0),
                    "The request include parameter that is not valid for this queue type.",
                ));
            }
            let group = message
                .group_id
                .as_deref()
                .ok_or_else(|| SqsError::missing("MessageGroupId"))?;
            let id = match &message.dedup_id {
                Some(id) => id.clone(),
                None if self.attrs.content_based_dedup => {
                    hex::encode(Sha256::digest(message.body.as_bytes()))
                }
                None => {
                    return Err(SqsError::invalid_parameter(
                        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
                    ));
                }
            };
            let per_group = self.dedup_per_group(now);
            let key = Dedup::scoped_key(per_group, group, &id);
            // Ids seen while the scope was the whole queue still count, in any group, until
            // their window ends: SQS keeps them when the scope changes to messageGroup.
            let seen = match self.dedup.lookup(&key, now) {
                None if per_group => self.dedup.lookup(&id, now),
                seen => seen,
            };
            if let Some(original) = seen {
                // The original send may not be durable yet: this answer must not overtake it.
                self.journal.await_recorded();
                return Ok(receipt(original.message_id, original.sequence));
            }
            dedup_key = Some(key);
            dedup_id = Some(id);
        } else if message.dedup_id.is_some() {
            return Err(SqsError::invalid_parameter(
                "The request include parameter MessageDeduplicationId that is not valid for this queue type.",
            ));
        }
        let message_id = random_uuid();
        let offset = if fifo { self.sequence() } else { 0 };
        let sequence = fifo.then(|| FIRST_SEQUENCE + u128::from(offset));
        // The deduplication entry and the message are one change: committed apart, a crash
        // between them would leave an entry that answers retries with a message that is gone.
        let mut dedup_op = None;
        if let Some(key) = dedup_key {
            let original = Original {
                message_id,
                sequence,
            };
            if self.journal.is_on() {
                dedup_op = Some(Op::Dedup {
                    queue: self.row,
                    key: key.clone(),
                    original,
                    expires: now + DEDUP_WINDOW_MS,
                });
            }
            self.dedup.remember(key, original, now);
        }
        let delay = if fifo {
            self.attrs.delay_seconds
        } else {
            message.delay_seconds.unwrap_or(self.attrs.delay_seconds)
        };
        let state = if delay > 0 {
            State::Delayed {
                until: now + u64::from(delay) * 1000,
            }
        } else {
            State::Visible
        };
        let mut stored = StoredMessage::new(
            message_id,
            message.body,
            message.attributes,
            md5_of_body,
            md5_of_attributes,
            now,
            message.group_id,
            state,
        );
        stored.set_sequence(offset);
        stored.set_dedup_id(dedup_id.map(Into::into));
        stored.set_trace_header(message.trace_header.map(Into::into));
        stored.row = self.journal.next_row();
        if self.journal.is_on() {
            let put = self.put_op(&stored);
            self.journal.record_all(dedup_op.into_iter().chain([put]));
        }
        self.messages.insert(stored);
        Ok(receipt(message_id, sequence))
    }

    /// Takes in a message that exceeded its source's maxReceiveCount. It keeps its id and receive
    /// count; on a standard queue it keeps its enqueue time (retention counts from the original
    /// send), on a FIFO queue the time resets and its dedup id becomes its message id.
    pub fn accept_dead_letter(
        &mut self,
        mut message: StoredMessage,
        source_arn: &Arc<str>,
        fifo: bool,
        now: u64,
    ) {
        message.set_dead_letter_source(Some(source_arn.clone()));
        message.state = State::Visible;
        if fifo {
            message.sent_at = now;
            let offset = self.sequence();
            message.set_sequence(offset);
            message.set_dedup_id(Some(message.id.to_string().into()));
            if message.group_id.is_none() {
                message.group_id = Some(message.id.to_string().into());
            }
        } else {
            message.set_sequence(0);
        }
        self.save_message(&message);
        self.messages.insert(message);
    }

    /// Takes in messages redriven by a move task: new message ids and enqueue times, fresh
    /// receive counts. They are recorded in one commit with `progress`, the task's record that
    /// counts them, so a restarted task neither moves them twice nor misses its count.
    pub fn accept_moved(
        &mut self,
        messages: Vec<StoredMessage>,
        fifo: bool,
        now: u64,
        progress: impl FnOnce() -> Op,
    ) {
        let mut ops = Vec::new();
        for message in messages {
            let message = self.prepare_moved(message, fifo, now);
            if self.journal.is_on() {
                ops.push(self.put_op(&message));
            }
            self.messages.insert(message);
        }
        if self.journal.is_on() {
            ops.push(progress());
            self.journal.record_all(ops);
        }
    }

    fn prepare_moved(&mut self, mut message: StoredMessage, fifo: bool, now: u64) -> StoredMessage {
        message.id = random_uuid();
        message.sent_at = now;
        message.reset_receives();
        message.set_dead_letter_source(None);
        message.state = State::Visible;
        if fifo {
            let offset = self.sequence();
            message.set_sequence(offset);
            if message.group_id.is_none() {
                message.group_id = Some(message.id.to_string().into());
            }
            if message.dedup_id().is_none() {
                message.set_dedup_id(Some(message.id.to_string().into()));
            }
        } else {
            message.set_sequence(0);
            message.set_dedup_id(None);
        }
        message
    }
}

impl QueueState {
    /// Puts back a message taken by a move task that could not deliver it.
    pub fn restore(&mut self, mut message: StoredMessage) {
        message.state = State::Visible;
        self.save_message(&message);
        self.messages.insert(message);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::engine::journal::testing::{Kept, gated, recording, set_gate};
    use crate::engine::limits::Budget;

    fn fifo_queue(journal: &Journal) -> Arc<Queue> {
        let attrs = QueueAttributes::default();
        let mut state = QueueState::new(attrs, BTreeMap::new(), true, 0);
        state.attach(journal.clone(), 1, Budget::unlimited());
        Arc::new(Queue::new(
            1,
            "us-east-1".into(),
            "q.fifo".into(),
            "arn".into(),
            true,
            state,
        ))
    }

    fn prepared(group: usize, dedup: &str) -> Prepared {
        Prepared::new(NewMessage {
            body: "body".into(),
            attributes: Vec::new(),
            trace_header: None,
            delay_seconds: None,
            group_id: Some(format!("g{group}")),
            dedup_id: Some(dedup.into()),
        })
        .unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// Senders on several threads while the writer commits as fast as it can: no commit holds a
    /// deduplication entry without the message it points to.
    #[test]
    fn a_fifo_send_is_committed_whole() {
        let (journal, commits) = recording();
        let queue = fifo_queue(&journal);
        std::thread::scope(|scope| {
            for sender in 0..4 {
                let queue = queue.clone();
                scope.spawn(move || {
                    for i in 0..3_000 {
                        let dedup = format!("{sender}-{i}");
                        let sent = queue.state.lock().send(prepared(sender, &dedup), true, 0);
                        assert!(sent.is_ok(), "{sent:?}");
                    }
                });
            }
        });
        journal.flush().unwrap_or_else(|e| panic!("{e}"));
        journal.close();
        let commits = commits.lock();
        let mut puts = 0;
        for commit in commits.iter() {
            let put: HashSet<_> = commit
                .iter()
                .filter_map(|k| match k {
                    Kept::Put(id) => Some(*id),
                    _ => None,
                })
                .collect();
            puts += put.len();
            for kept in commit {
                if let Kept::Dedup(id) = kept {
                    assert!(put.contains(id), "a commit of {commit:?} splits a send");
                }
            }
        }
        assert_eq!(puts, 12_000);
        assert!(
            commits.len() > 1,
            "the writer never committed while senders ran"
        );
    }

    /// A retry answered from the deduplication cache is not answered before the send it repeats
    /// is on disk: a crash in between would otherwise leave the client with an id that is gone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dedup_hit_waits_for_the_original_to_be_durable() {
        let (journal, commits, gate) = gated();
        let queue = fifo_queue(&journal);
        set_gate(&gate, true);
        // The original send, whose request is still waiting for the disk.
        let original = queue.state.lock().send(prepared(0, "d"), true, 0);
        let retry = journal.durable(async { queue.state.lock().send(prepared(0, "d"), true, 0) });
        tokio::pin!(retry);
        let early = tokio::time::timeout(std::time::Duration::from_millis(200), &mut retry).await;
        assert!(
            early.is_err(),
            "the retry was answered before the original was durable"
        );
        set_gate(&gate, false);
        let retried = retry.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            retried.map(|r| r.message_id),
            original.map(|r| r.message_id)
        );
        assert!(
            commits
                .lock()
                .iter()
                .flatten()
                .any(|k| matches!(k, Kept::Put(_)))
        );
        journal.close();
    }
}
