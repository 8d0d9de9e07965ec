//! Reading `send`'s stdin: lines or JSON Lines records, each checked against SQS's limits and
//! grouped into batches (10 entries, 1 MiB) on a thread of its own, so reading, parsing and
//! sending overlap and memory stays bounded by the channel.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::os::fd::{AsFd, OwnedFd};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use crate::client::batch::{MAX_BATCH_ENTRIES, MAX_PAYLOAD_BYTES, validate_outgoing};
use crate::message::{AttributeValue, MessageRecord, ParsedLine, parse_record_line};

/// How a deduplication id is chosen for records that carry none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DedupId {
    Fixed(String),
    /// A SHA-256 of the record's body, group id and message attributes: the same record always
    /// gets the same id, so re-sending a file within five minutes does not duplicate messages.
    Auto,
}

/// What `send`'s options fill in for records that do not say it themselves.
#[derive(Debug, Clone, Default)]
pub struct RecordDefaults {
    pub group_id: Option<String>,
    pub dedup: Option<DedupId>,
    pub attributes: BTreeMap<String, AttributeValue>,
    pub delay_seconds: Option<i32>,
    pub trace_header: Option<String>,
    pub fifo: bool,
}

impl RecordDefaults {
    /// Applies the defaults to a record and checks it against SQS's rules.
    pub fn prepare(&self, mut record: MessageRecord) -> Result<MessageRecord, String> {
        // A record received from a FIFO queue carries its dedup id as a system attribute; it means
        // nothing to a standard queue (which would reject it), so it is dropped there.
        if !self.fifo
            && record.dedup_id.is_some()
            && record.dedup_id.as_deref()
                == record
                    .attributes
                    .get("MessageDeduplicationId")
                    .map(String::as_str)
        {
            record.dedup_id = None;
        }
        // Receive-side fields are not sent.
        record.attributes.clear();
        record.receipt_handle = None;
        record.message_id = None;
        if record.group_id.is_none() {
            record.group_id.clone_from(&self.group_id);
        }
        for (name, value) in &self.attributes {
            record
                .message_attributes
                .entry(name.clone())
                .or_insert_with(|| value.clone());
        }
        if record.delay_seconds.is_none() {
            record.delay_seconds = self.delay_seconds;
        }
        if record.trace_header.is_none() {
            record.trace_header.clone_from(&self.trace_header);
        }
        if record.dedup_id.is_none() {
            record.dedup_id = match &self.dedup {
                Some(DedupId::Fixed(id)) => Some(id.clone()),
                Some(DedupId::Auto) => Some(auto_dedup_id(&record)),
                None => None,
            };
        }
        validate_outgoing(&record, self.fifo)?;
        Ok(record)
    }
}

/// The stable content hash `--dedup-id auto` uses.
pub fn auto_dedup_id(record: &MessageRecord) -> String {
    let mut hash = Sha256::new();
    hash.update(record.body.as_bytes());
    hash.update([0]);
    hash.update(record.group_id.as_deref().unwrap_or("").as_bytes());
    for (name, attr) in &record.message_attributes {
        hash.update([0]);
        hash.update(name.as_bytes());
        hash.update([0]);
        hash.update(attr.data_type.as_bytes());
        hash.update([0]);
        hash.update(attr.value.as_bytes());
    }
    hex::encode(hash.finalize())
}

/// A batch ready to send, with the input line of each record.
#[derive(Debug)]
pub struct Batch {
    pub lines: Vec<u64>,
    pub records: Vec<MessageRecord>,
}

/// What the reader thread hands over.
#[derive(Debug)]
pub enum Item {
    Batch(Batch),
    /// A line that is not a valid message; without --skip-invalid it is the last item.
    Invalid {
        line: u64,
        reason: String,
    },
    /// Reading stdin failed; the last item.
    ReadError(std::io::Error),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    Lines,
    Jsonl,
}

/// Starts the reader thread. It stops after an invalid line unless `skip_invalid`, and when the
/// receiving side is dropped.
pub fn spawn_reader<R: Read + AsFd + Send + 'static>(
    input: R,
    format: LineFormat,
    defaults: RecordDefaults,
    skip_invalid: bool,
    capacity: usize,
) -> mpsc::Receiver<Item> {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    // A second descriptor for the same input, to ask whether a read would wait; without one,
    // batches are sent only when full (or at the end), as for a file.
    let probe = input.as_fd().try_clone_to_owned().ok();
    std::thread::spawn(move || {
        let ready = || probe.as_ref().is_none_or(has_input);
        read_all(input, ready, format, &defaults, skip_invalid, &tx);
    });
    rx
}

/// Whether reading `input` would return at once. An error counts as ready: the read reports it.
fn has_input(input: &OwnedFd) -> bool {
    let mut fds = [PollFd::new(input, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    !matches!(poll(&mut fds, Some(&now)), Ok(0))
}

/// Reads `input` to its end, sending batches as they fill. A partly filled batch is sent when the
/// next line has not arrived yet (`ready` says whether a read would return at once), so a slow
/// producer such as `tail -f` sees each line sent promptly, while a file or a fast pipe still
/// fills every batch.
fn read_all<R: Read>(
    input: R,
    ready: impl Fn() -> bool,
    format: LineFormat,
    defaults: &RecordDefaults,
    skip_invalid: bool,
    tx: &mpsc::Sender<Item>,
) {
    let mut reader = BufReader::with_capacity(256 * 1024, input);
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    let mut batch = Batch {
        lines: Vec::new(),
        records: Vec::new(),
    };
    let mut batch_bytes = 0usize;
    let flush = |batch: &mut Batch, bytes: &mut usize| -> bool {
        *bytes = 0;
        if batch.records.is_empty() {
            return true;
        }
        let full = std::mem::replace(
            batch,
            Batch {
                lines: Vec::with_capacity(MAX_BATCH_ENTRIES),
                records: Vec::with_capacity(MAX_BATCH_ENTRIES),
            },
        );
        tx.blocking_send(Item::Batch(full)).is_ok()
    };
    loop {
        buf.clear();
        if !batch.records.is_empty()
            && !reader.buffer().contains(&b'\n')
            && !ready()
            && !flush(&mut batch, &mut batch_bytes)
        {
            return;
        }
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(err) => {
                let _ = flush(&mut batch, &mut batch_bytes);
                let _ = tx.blocking_send(Item::ReadError(err));
                return;
            }
        }
        line_no += 1;
        let parsed = parse_line(&buf, format).and_then(|record| match record {
            Some(record) => defaults.prepare(record).map(Some),
            None => Ok(None),
        });
        let record = match parsed {
            Ok(Some(record)) => record,
            Ok(None) => continue,
            Err(reason) => {
                // The lines before a bad one are sent, so the error can say exactly what went out.
                if !flush(&mut batch, &mut batch_bytes) {
                    return;
                }
                let stop = !skip_invalid;
                if tx
                    .blocking_send(Item::Invalid {
                        line: line_no,
                        reason,
                    })
                    .is_err()
                    || stop
                {
                    return;
                }
                continue;
            }
        };
        let size = record.wire_size();
        let full =
            batch.records.len() == MAX_BATCH_ENTRIES || batch_bytes + size > MAX_PAYLOAD_BYTES;
        if full && !flush(&mut batch, &mut batch_bytes) {
            return;
        }
        batch_bytes += size;
        batch.lines.push(line_no);
        batch.records.push(record);
    }
    let _ = flush(&mut batch, &mut batch_bytes);
}

/// One input line as a record; `None` for lines that carry no message (blank lines, envelopes of
/// other types such as a summary).
fn parse_line(raw: &[u8], format: LineFormat) -> Result<Option<MessageRecord>, String> {
    let mut bytes = raw;
    if let Some(rest) = bytes.strip_suffix(b"\n") {
        bytes = rest;
    }
    if let Some(rest) = bytes.strip_suffix(b"\r") {
        bytes = rest;
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("the line is not valid UTF-8 (at byte {})", e.valid_up_to()))?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    match format {
        LineFormat::Lines => Ok(Some(MessageRecord::with_body(text))),
        LineFormat::Jsonl => parse_json_record(text),
    }
}

/// A JSON line as a record (envelopes of other types are skipped), with the error worded for the
/// user.
fn parse_json_record(text: &str) -> Result<Option<MessageRecord>, String> {
    match parse_record_line(text) {
        Ok(ParsedLine::Message(record)) => Ok(Some(*record)),
        Ok(ParsedLine::Other) => Ok(None),
        Err(err) => Err(format!(
            "not a valid message record: {}",
            json_reason(text, &err)
        )),
    }
}

/// A JSON error in the words of the input line: serde's own "at line 1 column N" counts lines of
/// the one-line text (the caller names the input line) and its "expected struct" names a Rust type.
fn json_reason(text: &str, err: &serde_json::Error) -> String {
    let kind = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => None,
        Ok(serde_json::Value::Array(_)) => Some("an array"),
        Ok(serde_json::Value::String(_)) => Some("a string"),
        Ok(serde_json::Value::Number(_)) => Some("a number"),
        Ok(serde_json::Value::Bool(_)) => Some("a boolean"),
        Ok(serde_json::Value::Null) => Some("null"),
        Err(_) => None,
    };
    if let Some(kind) = kind {
        return format!("expected a JSON object such as {{\"body\":\"...\"}}, found {kind}");
    }
    let full = err.to_string();
    let message = in_json_words(
        full.rsplit_once(" at line ")
            .map_or(full.as_str(), |(message, _)| message),
    );
    if err.is_syntax() || err.is_eof() {
        return format!("{message} (column {})", err.column());
    }
    match serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .as_ref()
        .and_then(offending_field)
    {
        Some(field) => format!("field `{field}`: {message}"),
        None => message,
    }
}

/// serde's words for types, said in JSON's: a record's reader knows objects and numbers, not
/// `i32` or `struct AttributeValue`.
fn in_json_words(message: &str) -> String {
    let mut message = message
        .replace(
            "struct AttributeValue",
            "an attribute such as {\"type\":\"String\",\"value\":\"...\"}",
        )
        .replace("struct MessageRecord", "a message record")
        .replace("invalid type: ", "found ")
        .replace("found sequence", "found an array")
        .replace("found map", "found an object")
        .replace("expected a map", "expected an object");
    for integer in ["i32", "u32", "i64", "u64", "u16", "u8"] {
        message = message.replace(&format!("expected {integer}"), "expected a whole number");
    }
    message
}

/// The field of a record (or of its `data`, for an envelope) whose value does not fit, found by
/// trying each field alone beside a valid body; `message_attributes.NAME` for one attribute.
fn offending_field(value: &serde_json::Value) -> Option<String> {
    let record = match value.get("data") {
        Some(data) if value.get("body").is_none() => data,
        _ => value,
    };
    let fields = record.as_object()?;
    for (key, field) in fields {
        let mut alone = serde_json::Map::new();
        if key != "body" {
            alone.insert("body".into(), serde_json::Value::from("x"));
        }
        alone.insert(key.clone(), field.clone());
        if serde_json::from_value::<MessageRecord>(serde_json::Value::Object(alone)).is_ok() {
            continue;
        }
        if key == "message_attributes"
            && let Some(attributes) = field.as_object()
            && let Some(name) = attributes.iter().find_map(|(name, attribute)| {
                serde_json::from_value::<AttributeValue>(attribute.clone())
                    .is_err()
                    .then_some(name)
            })
        {
            return Some(format!("message_attributes.{name}"));
        }
        return Some(key.clone());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_errors_name_the_field_in_json_words() {
        let cases = [
            (
                r#"{"body":5}"#,
                "field `body`: found integer `5`, expected a string",
            ),
            (
                r#"{"body":"x","delay_seconds":"x"}"#,
                "field `delay_seconds`: found string \"x\", expected a whole number",
            ),
            (
                r#"{"body":"x","attributes":[]}"#,
                "field `attributes`: found an array, expected an object",
            ),
            (
                r#"{"body":"x","message_attributes":{"ok":{"type":"String","value":"v"},"a":"x"}}"#,
                "field `message_attributes.a`: found string \"x\", expected an attribute such as {\"type\":\"String\",\"value\":\"...\"}",
            ),
            (
                r#"{"type":"message","data":{"body":"x","group_id":3}}"#,
                "field `group_id`: found integer `3`, expected a string",
            ),
        ];
        for (line, want) in cases {
            let reason = parse_json_record(line).unwrap_err();
            assert_eq!(
                reason,
                format!("not a valid message record: {want}"),
                "{line}"
            );
        }
    }

    #[test]
    fn json_errors_name_the_column_and_not_serde_lines_or_rust_types() {
        let reason = parse_json_record("{\"body\": x}").unwrap_err();
        assert!(reason.ends_with("expected value (column 10)"), "{reason}");
        assert!(!reason.contains("line"), "{reason}");
        let reason = parse_json_record("\"s\"").unwrap_err();
        assert!(reason.contains("expected a JSON object"), "{reason}");
        assert!(reason.contains("found a string"), "{reason}");
        let reason = parse_json_record("{\"bdy\":\"x\"}").unwrap_err();
        assert!(reason.contains("missing field `body`"), "{reason}");
        assert!(!reason.contains("MessageRecord"), "{reason}");
    }

    #[test]
    fn auto_dedup_ids_are_stable_and_content_sensitive() {
        let a = MessageRecord::with_body("x");
        let mut b = MessageRecord::with_body("x");
        assert_eq!(auto_dedup_id(&a), auto_dedup_id(&b));
        b.group_id = Some("g".into());
        assert_ne!(auto_dedup_id(&a), auto_dedup_id(&b));
        assert_eq!(auto_dedup_id(&a).len(), 64);
    }

    #[test]
    fn received_fifo_records_lose_their_dedup_id_on_standard_queues() {
        let mut record = MessageRecord::with_body("x");
        record.dedup_id = Some("d".into());
        record
            .attributes
            .insert("MessageDeduplicationId".into(), "d".into());
        let defaults = RecordDefaults::default();
        let prepared = defaults.prepare(record.clone()).unwrap();
        assert_eq!(prepared.dedup_id, None);
        let fifo = RecordDefaults {
            fifo: true,
            group_id: Some("g".into()),
            ..RecordDefaults::default()
        };
        assert_eq!(fifo.prepare(record).unwrap().dedup_id.as_deref(), Some("d"));
    }

    #[test]
    fn lines_parse_with_crlf_and_blank_lines_are_skipped() {
        let record = parse_line(b"hello\r\n", LineFormat::Lines)
            .unwrap()
            .unwrap();
        assert_eq!(record.body, "hello");
        assert!(parse_line(b"  \n", LineFormat::Jsonl).unwrap().is_none());
        assert!(parse_line(b"{bad\n", LineFormat::Jsonl).is_err());
        let wrapped = parse_line(
            b"{\"type\":\"message\",\"data\":{\"body\":\"w\"}}",
            LineFormat::Jsonl,
        );
        assert_eq!(wrapped.unwrap().unwrap().body, "w");
        let summary = parse_line(
            b"{\"type\":\"summary\",\"data\":{\"sent\":1}}",
            LineFormat::Jsonl,
        );
        assert!(summary.unwrap().is_none());
        assert!(parse_line(b"{\"type\":\"message\",\"data\":{}}", LineFormat::Jsonl).is_err());
        assert!(parse_line(b"\xff\n", LineFormat::Lines).is_err());
    }
}
