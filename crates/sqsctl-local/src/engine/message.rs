//! What a stored message is made of, independent of any wire format.

use std::num::NonZeroU64;
use std::sync::Arc;

use uuid::Uuid;

/// A message attribute after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageAttribute {
    pub name: String,
    pub data_type: String,
    pub value: AttributeValue,
}

/// String and Number attributes travel as text; Binary ones as raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttributeValue {
    String(String),
    Binary(Vec<u8>),
}

impl MessageAttribute {
    /// The bytes this attribute counts toward the message size limit.
    pub fn size(&self) -> usize {
        let value = match &self.value {
            AttributeValue::String(s) => s.len(),
            AttributeValue::Binary(b) => b.len(),
        };
        self.name.len() + self.data_type.len() + value
    }
}

/// Where a message is in its life. Deadlines are clock milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Delayed { until: u64 },
    Visible,
    InFlight { until: u64, received_at: u64 },
}

/// Memory a stored message costs beyond its body and attributes (the message record, its slot and
/// index entries), counted by the memory bound so that many small messages are bounded too.
pub const BOOKKEEPING_BYTES: u64 = 200;

/// SQS sequence numbers are 20-digit decimal strings that only grow; messages store the offset
/// from this base, a number of the size SQS gives (without runs of zeros, which could read as other
/// values, such as the account id, inside it). A u64 offset keeps it at 20 digits.
pub const FIRST_SEQUENCE: u128 = 18_849_496_460_467_696_128;

/// Fields most messages do not have, kept behind one pointer so the common message stays small.
#[derive(Debug, Clone, Default)]
pub struct Extra {
    pub dedup_id: Option<Arc<str>>,
    pub trace_header: Option<Arc<str>>,
    pub dead_letter_source: Option<Arc<str>>,
}

/// A message as the server keeps it. Its size matters: a queue can hold millions.
#[derive(Debug, Clone)]
pub struct StoredMessage {
    pub id: Uuid,
    /// Shared so a receive can hand the message to the response writer without copying the body
    /// while the queue is locked.
    pub body: Arc<str>,
    attributes: Option<Arc<[MessageAttribute]>>,
    pub md5_of_body: [u8; 16],
    pub md5_of_attributes: Option<[u8; 16]>,
    /// Enqueue time in clock milliseconds; retention counts from here.
    pub sent_at: u64,
    first_received_at: Option<NonZeroU64>,
    pub receive_count: u32,
    /// Shared with the FIFO group table, so a million messages of one group hold one copy.
    pub group_id: Option<Arc<str>>,
    /// Offset from [`FIRST_SEQUENCE`]; 0 on standard queues.
    sequence: u64,
    extra: Option<Box<Extra>>,
    pub state: State,
    /// The message's row in the data directory (0 when the server keeps nothing on disk). It stays
    /// with the message when it moves to another queue, so a move is one write.
    pub row: u64,
}

impl StoredMessage {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: Uuid,
        body: String,
        attributes: Vec<MessageAttribute>,
        md5_of_body: [u8; 16],
        md5_of_attributes: Option<[u8; 16]>,
        sent_at: u64,
        group_id: Option<String>,
        state: State,
    ) -> Self {
        StoredMessage {
            id,
            body: body.into(),
            attributes: (!attributes.is_empty()).then(|| attributes.into()),
            md5_of_body,
            md5_of_attributes,
            sent_at,
            first_received_at: None,
            receive_count: 0,
            group_id: group_id.map(Into::into),
            sequence: 0,
            extra: None,
            state,
            row: 0,
        }
    }

    /// A visible message with a fresh id, no attributes and no checksums, sent at `sent_at` in
    /// `group`: what the store's and schedulers' unit tests fill queues with.
    #[cfg(test)]
    pub fn visible(body: impl Into<String>, sent_at: u64, group: Option<&str>) -> Self {
        StoredMessage::new(
            Uuid::new_v4(),
            body.into(),
            Vec::new(),
            [0; 16],
            None,
            sent_at,
            group.map(String::from),
            State::Visible,
        )
    }

    /// What the message counts against the server's memory bound: body and attributes, as SQS
    /// counts a message's size, plus the bookkeeping every stored message costs.
    pub fn stored_bytes(&self) -> u64 {
        let attributes: usize = self.attributes().iter().map(MessageAttribute::size).sum();
        (self.body.len() + attributes) as u64 + BOOKKEEPING_BYTES
    }

    pub fn deadline(&self) -> Option<u64> {
        match self.state {
            State::Delayed { until } | State::InFlight { until, .. } => Some(until),
            State::Visible => None,
        }
    }

    pub fn attributes(&self) -> &[MessageAttribute] {
        self.attributes.as_deref().unwrap_or(&[])
    }

    pub fn first_received_at(&self) -> Option<u64> {
        self.first_received_at.map(NonZeroU64::get)
    }

    /// Records a receive; the first one sets ApproximateFirstReceiveTimestamp.
    pub fn mark_received(&mut self, now: u64) {
        self.receive_count += 1;
        if self.first_received_at.is_none() {
            self.first_received_at = NonZeroU64::new(now.max(1));
        }
    }

    /// Sets the first-receive time of a message read back from disk.
    pub fn restore_first_received(&mut self, at: Option<u64>) {
        self.first_received_at = at.and_then(NonZeroU64::new);
    }

    /// The sequence offset as stored (see [`FIRST_SEQUENCE`]).
    pub fn sequence_offset(&self) -> u64 {
        self.sequence
    }

    pub fn reset_receives(&mut self) {
        self.receive_count = 0;
        self.first_received_at = None;
    }

    pub fn sequence(&self) -> Option<u128> {
        (self.sequence > 0).then(|| FIRST_SEQUENCE + u128::from(self.sequence))
    }

    pub fn set_sequence(&mut self, offset: u64) {
        self.sequence = offset;
    }

    fn extra(&self) -> Option<&Extra> {
        self.extra.as_deref()
    }

    fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    pub fn dedup_id(&self) -> Option<&str> {
        self.extra().and_then(|e| e.dedup_id.as_deref())
    }

    pub fn trace_header(&self) -> Option<&str> {
        self.extra().and_then(|e| e.trace_header.as_deref())
    }

    pub fn dead_letter_source(&self) -> Option<&str> {
        self.extra().and_then(|e| e.dead_letter_source.as_deref())
    }

    pub fn set_dedup_id(&mut self, id: Option<Arc<str>>) {
        if id.is_some() || self.extra.is_some() {
            self.extra_mut().dedup_id = id;
        }
    }

    pub fn set_trace_header(&mut self, header: Option<Arc<str>>) {
        if header.is_some() || self.extra.is_some() {
            self.extra_mut().trace_header = header;
        }
    }

    pub fn set_dead_letter_source(&mut self, arn: Option<Arc<str>>) {
        if arn.is_some() || self.extra.is_some() {
            self.extra_mut().dead_letter_source = arn;
        }
    }
}

/// A validated message on its way into a queue.
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub body: String,
    pub attributes: Vec<MessageAttribute>,
    pub trace_header: Option<String>,
    pub delay_seconds: Option<u32>,
    pub group_id: Option<String>,
    pub dedup_id: Option<String>,
}

/// What a send answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendReceipt {
    pub message_id: Uuid,
    pub md5_of_body: [u8; 16],
    pub md5_of_attributes: Option<[u8; 16]>,
    pub md5_of_system_attributes: Option<[u8; 16]>,
    pub sequence: Option<u128>,
}

/// A random (version 4) UUID from the thread's generator, without a system call per id.
pub fn random_uuid() -> Uuid {
    use rand::Rng as _;
    let bytes: [u8; 16] = rand::rng().random();
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}
