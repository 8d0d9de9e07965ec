//! What a stored message is made of, independent of any wire format.

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

/// A message as the server keeps it.
#[derive(Debug, Clone)]
pub struct StoredMessage {
    pub id: Uuid,
    /// Shared so a receive can hand the message to the response writer without copying the body
    /// while the queue is locked.
    pub body: Arc<str>,
    pub attributes: Arc<[MessageAttribute]>,
    pub md5_of_body: [u8; 16],
    pub md5_of_attributes: Option<[u8; 16]>,
    pub trace_header: Option<Arc<str>>,
    /// Enqueue time in clock milliseconds; retention counts from here.
    pub sent_at: u64,
    pub first_received_at: Option<u64>,
    pub receive_count: u32,
    /// Shared with the FIFO group table, so a million messages of one group hold one copy.
    pub group_id: Option<Arc<str>>,
    pub dedup_id: Option<Arc<str>>,
    pub sequence: Option<u128>,
    pub dead_letter_source: Option<Arc<str>>,
    pub state: State,
}

impl StoredMessage {
    pub fn deadline(&self) -> Option<u64> {
        match self.state {
            State::Delayed { until } | State::InFlight { until, .. } => Some(until),
            State::Visible => None,
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
