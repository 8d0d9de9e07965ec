//! The message record: one JSON schema shared by every command that reads or writes messages.
//!
//! `receive`, `peek` and the redrive archive write [`MessageRecord`]s; `send --jsonl`, `diagnose
//! --input` and `redrive --resume` read them back, so `sqsctl receive a | sqsctl send b --jsonl`
//! round-trips body, message attributes, group id and deduplication id. On the wire each record is
//! one line of JSON Lines, wrapped in the envelope `{"type": "message", "data": {...}}`; readers
//! also accept a bare record and skip envelopes of other types (such as the closing summary).

pub mod count;
pub mod envelope;
pub mod shown;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One message attribute as SQS models it: a data type (`String`, `Number`, `Binary`, optionally
/// with a `.custom` suffix) and a value. Binary values are base64 in JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributeValue {
    #[serde(rename = "type")]
    pub data_type: String,
    pub value: String,
}

impl AttributeValue {
    pub fn string(value: impl Into<String>) -> Self {
        AttributeValue {
            data_type: "String".into(),
            value: value.into(),
        }
    }

    pub fn is_binary(&self) -> bool {
        self.data_type == "Binary" || self.data_type.starts_with("Binary.")
    }
}

/// A message as read from or written to a queue.
///
/// Fields that only exist on received messages (`message_id`, `receipt_handle`, `attributes`) are
/// optional so that a hand-written record with just a `body` is valid input to `send --jsonl`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub body: String,
    /// User message attributes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub message_attributes: BTreeMap<String, AttributeValue>,
    /// FIFO (and fair-queue) message group id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    /// FIFO deduplication id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dedup_id: Option<String>,
    /// X-Ray trace header, sent as the `AWSTraceHeader` system attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_header: Option<String>,
    /// Per-message delay for `send` (standard queues only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_seconds: Option<i32>,
    /// System attributes as SQS names them (`SentTimestamp`, `ApproximateReceiveCount`, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt_handle: Option<String>,
}

impl MessageRecord {
    /// A message as a receive (or a listing) returned it: the group id, dedup id and trace header
    /// are read from its system attributes.
    pub fn received(
        message_id: Option<String>,
        body: String,
        message_attributes: BTreeMap<String, AttributeValue>,
        attributes: BTreeMap<String, String>,
        receipt_handle: Option<String>,
    ) -> Self {
        MessageRecord {
            message_id,
            body,
            message_attributes,
            group_id: attributes.get("MessageGroupId").cloned(),
            dedup_id: attributes.get("MessageDeduplicationId").cloned(),
            trace_header: attributes.get("AWSTraceHeader").cloned(),
            delay_seconds: None,
            attributes,
            receipt_handle,
        }
    }

    /// A record with only a body, as `send BODY` or `send --lines` build.
    pub fn with_body(body: impl Into<String>) -> Self {
        MessageRecord {
            body: body.into(),
            ..Default::default()
        }
    }

    /// The group id, from the record field or, for received messages, the system attribute.
    pub fn effective_group_id(&self) -> Option<&str> {
        self.group_id
            .as_deref()
            .or_else(|| self.attributes.get("MessageGroupId").map(String::as_str))
    }

    /// The deduplication id, from the record field or the system attribute.
    pub fn effective_dedup_id(&self) -> Option<&str> {
        self.dedup_id.as_deref().or_else(|| {
            self.attributes
                .get("MessageDeduplicationId")
                .map(String::as_str)
        })
    }

    /// A system attribute parsed as an integer (`SentTimestamp`, `ApproximateReceiveCount`, ...).
    pub fn attribute_u64(&self, name: &str) -> Option<u64> {
        self.attributes.get(name).and_then(|v| v.parse().ok())
    }

    /// Size as SQS counts it against the message size limit: body plus each attribute's name,
    /// data type and value.
    pub fn wire_size(&self) -> usize {
        self.body.len()
            + self
                .message_attributes
                .iter()
                .map(|(name, attr)| name.len() + attr.data_type.len() + attr.value.len())
                .sum::<usize>()
    }
}

/// A line of JSON Lines output: `{"type": ..., "data": ...}`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Envelope<T> {
    #[serde(rename = "type")]
    pub kind: String,
    pub data: T,
}

/// What one JSON line held, as readers of message streams see it.
#[derive(Debug)]
pub enum ParsedLine {
    Message(Box<MessageRecord>),
    /// An envelope of another type (a summary, a finding): not a message, skipped by readers.
    Other,
}

/// A message envelope; `body` is read only to tell a bare record that happens to have `type` and
/// `data` fields from an envelope.
#[derive(Deserialize)]
struct MessageEnvelope {
    data: MessageRecord,
    #[serde(default)]
    body: Option<serde::de::IgnoredAny>,
}

/// How every message line that `receive` and `peek` write starts.
const MESSAGE_ENVELOPE_START: &str = r#"{"type":"message","data":"#;

/// Parses one line of a message stream: an enveloped record, a bare record, or another envelope.
pub fn parse_record_line(line: &str) -> Result<ParsedLine, serde_json::Error> {
    // The two shapes sqsctl writes are read in one pass: the envelope `receive` prints and a bare
    // record with a body. Anything else (other envelopes, spacing, errors) takes the general path.
    if line.starts_with(MESSAGE_ENVELOPE_START) {
        if let Ok(envelope) = serde_json::from_str::<MessageEnvelope>(line)
            && envelope.body.is_none()
        {
            return Ok(ParsedLine::Message(Box::new(envelope.data)));
        }
    } else if let Ok(record) = serde_json::from_str::<MessageRecord>(line) {
        // A record with a body is a bare record even when it also has `type` and `data` fields.
        return Ok(ParsedLine::Message(Box::new(record)));
    }
    let value: serde_json::Value = serde_json::from_str(line)?;
    if let Some(kind) = value.get("type").and_then(|t| t.as_str())
        && value.get("data").is_some()
        && value.get("body").is_none()
    {
        if kind != "message" {
            return Ok(ParsedLine::Other);
        }
        let data = value.get("data").cloned().unwrap_or_default();
        return Ok(ParsedLine::Message(Box::new(serde_json::from_value(data)?)));
    }
    Ok(ParsedLine::Message(Box::new(serde_json::from_value(
        value,
    )?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_and_enveloped_records_parse_alike() {
        let bare = r#"{"body":"hi","group_id":"g"}"#;
        let wrapped = r#"{"type":"message","data":{"body":"hi","group_id":"g"}}"#;
        for line in [bare, wrapped] {
            match parse_record_line(line).expect("valid line") {
                ParsedLine::Message(m) => {
                    assert_eq!(m.body, "hi");
                    assert_eq!(m.effective_group_id(), Some("g"));
                }
                ParsedLine::Other => panic!("expected a message from {line}"),
            }
        }
    }

    #[test]
    fn spacing_and_odd_shapes_parse_as_before() {
        let spaced = r#"{ "type": "message", "data": { "body": "hi" } }"#;
        let reordered = r#"{"data":{"body":"hi"},"type":"message"}"#;
        for line in [spaced, reordered] {
            assert!(
                matches!(parse_record_line(line), Ok(ParsedLine::Message(m)) if m.body == "hi"),
                "{line}"
            );
        }
        // A body makes a line a bare record, whatever else it holds.
        let both = r#"{"type":"message","data":{"body":"inner"},"body":"outer"}"#;
        assert!(matches!(parse_record_line(both), Ok(ParsedLine::Message(m)) if m.body == "outer"));
        // An envelope whose data is not a record is an error, as is a bare record without a body.
        assert!(parse_record_line(r#"{"type":"message","data":{"bodyx":"a"}}"#).is_err());
        assert!(parse_record_line(r#"{"group_id":"g"}"#).is_err());
    }

    #[test]
    fn summary_envelopes_are_skipped_and_bad_json_is_an_error() {
        let summary = r#"{"type":"summary","data":{"received":3}}"#;
        assert!(matches!(parse_record_line(summary), Ok(ParsedLine::Other)));
        assert!(parse_record_line("{not json").is_err());
        assert!(parse_record_line(r#"{"no_body":1}"#).is_err());
    }

    #[test]
    fn received_attributes_supply_group_and_dedup_ids() {
        let mut record = MessageRecord::with_body("x");
        record
            .attributes
            .insert("MessageGroupId".into(), "g1".into());
        record
            .attributes
            .insert("MessageDeduplicationId".into(), "d1".into());
        assert_eq!(record.effective_group_id(), Some("g1"));
        assert_eq!(record.effective_dedup_id(), Some("d1"));
        record.group_id = Some("override".into());
        assert_eq!(record.effective_group_id(), Some("override"));
    }
}
