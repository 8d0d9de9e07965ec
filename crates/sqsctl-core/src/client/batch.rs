//! Batching and client-side validation of outgoing messages.
//!
//! SQS takes at most 10 entries and 1 MiB per batch; a message over 1 MiB or with characters outside
//! the allowed set is rejected. Checking before sending gives a precise error per record (with its
//! line number) instead of a failed batch, and splitting here keeps every caller within the caps.

use crate::message::MessageRecord;

pub const MAX_BATCH_ENTRIES: usize = 10;
/// Largest message, and largest batch payload, SQS accepts.
pub const MAX_PAYLOAD_BYTES: usize = 1024 * 1024;
pub const MAX_MESSAGE_ATTRIBUTES: usize = 10;
const MAX_ID_CHARS: usize = 128;
const MAX_DELAY_SECONDS: i32 = 900;

/// Splits records into batches of at most 10 entries and at most `max_bytes` of payload, keeping
/// their order. Returns index ranges into `records`. A record larger than `max_bytes` gets a batch of
/// its own (validation rejects it before it is sent).
pub fn plan_batches(records: &[MessageRecord], max_bytes: usize) -> Vec<std::ops::Range<usize>> {
    let mut batches = Vec::new();
    let mut start = 0;
    let mut bytes = 0;
    for (index, record) in records.iter().enumerate() {
        let size = record.wire_size();
        let count = index - start;
        if count > 0 && (count == MAX_BATCH_ENTRIES || bytes + size > max_bytes) {
            batches.push(start..index);
            start = index;
            bytes = 0;
        }
        bytes += size;
    }
    if start < records.len() {
        batches.push(start..records.len());
    }
    batches
}

/// True for characters SQS accepts in bodies and attribute values:
/// `#x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000-#x10FFFF`.
pub fn is_allowed_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// The first character SQS does not accept, with its byte offset. Text that is all printable
/// ASCII, tab, newline or carriage return (the usual case) is accepted after a check of its bytes.
pub fn first_disallowed_char(text: &str) -> Option<(usize, char)> {
    let plain = text
        .bytes()
        .all(|b| (0x20..0x80).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'));
    if plain {
        return None;
    }
    text.char_indices().find(|(_, c)| !is_allowed_char(*c))
}

/// Checks a record against the limits SQS enforces, so a bad record is reported before any batch
/// is sent. `fifo` is whether the destination is a FIFO queue.
pub fn validate_outgoing(record: &MessageRecord, fifo: bool) -> Result<(), String> {
    if record.body.is_empty() {
        return Err("the message body is empty (SQS requires at least one character)".into());
    }
    let size = record.wire_size();
    if size > MAX_PAYLOAD_BYTES {
        return Err(format!(
            "the message is {size} bytes (body plus attributes); SQS accepts at most {MAX_PAYLOAD_BYTES} bytes (1 MiB)"
        ));
    }
    if let Some((offset, c)) = first_disallowed_char(&record.body) {
        return Err(format!(
            "the body has a character SQS does not accept (U+{:04X} at byte {offset})",
            c as u32
        ));
    }
    // A system attribute: it does not count toward the message size.
    if let Some(header) = &record.trace_header {
        if header.is_empty() {
            return Err("the trace header is empty".into());
        }
        if let Some((offset, c)) = first_disallowed_char(header) {
            return Err(format!(
                "the trace header has a character SQS does not accept (U+{:04X} at byte {offset})",
                c as u32
            ));
        }
    }
    if record.message_attributes.len() > MAX_MESSAGE_ATTRIBUTES {
        return Err(format!(
            "the message has {} message attributes; SQS accepts at most {MAX_MESSAGE_ATTRIBUTES}",
            record.message_attributes.len()
        ));
    }
    for (name, attr) in &record.message_attributes {
        let base = attr.data_type.split('.').next().unwrap_or_default();
        if !matches!(base, "String" | "Number" | "Binary") {
            return Err(format!(
                "message attribute `{name}` has type `{}`; use String, Number or Binary (optionally with a .suffix)",
                attr.data_type
            ));
        }
        if attr.value.is_empty() {
            return Err(format!("message attribute `{name}` has an empty value"));
        }
        if base == "Number" && attr.value.trim().parse::<f64>().is_err() {
            return Err(format!(
                "message attribute `{name}` is a Number but `{}` is not a number",
                attr.value
            ));
        }
        if base != "Binary" && first_disallowed_char(&attr.value).is_some() {
            return Err(format!(
                "message attribute `{name}` has a character SQS does not accept"
            ));
        }
    }
    for (label, value) in [
        ("group id", &record.group_id),
        ("deduplication id", &record.dedup_id),
    ] {
        if let Some(value) = value {
            if value.is_empty() || value.chars().count() > MAX_ID_CHARS {
                return Err(format!(
                    "the message {label} must be 1 to {MAX_ID_CHARS} characters"
                ));
            }
            if !value.chars().all(|c| c.is_ascii_graphic()) {
                return Err(format!(
                    "the message {label} `{value}` may only hold letters, digits and punctuation"
                ));
            }
        }
    }
    if fifo {
        if record.group_id.is_none() {
            return Err("FIFO queues need a message group id for every message".into());
        }
        if record.delay_seconds.is_some_and(|d| d != 0) {
            return Err("FIFO queues do not accept a per-message delay (set DelaySeconds on the queue instead)".into());
        }
    } else if record.dedup_id.is_some() {
        return Err("a deduplication id is only valid on FIFO queues".into());
    }
    if let Some(delay) = record.delay_seconds
        && !(0..=MAX_DELAY_SECONDS).contains(&delay)
    {
        return Err(format!(
            "the delay must be 0 to {MAX_DELAY_SECONDS} seconds, not {delay}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn sized(n: usize) -> MessageRecord {
        MessageRecord::with_body("x".repeat(n))
    }

    #[test]
    fn batches_hold_at_most_ten_entries_in_order() {
        let records: Vec<_> = (0..23).map(|_| sized(10)).collect();
        let batches = plan_batches(&records, MAX_PAYLOAD_BYTES);
        assert_eq!(batches, vec![0..10, 10..20, 20..23]);
    }

    #[test]
    fn batches_stay_under_the_byte_cap() {
        let records: Vec<_> = (0..5).map(|_| sized(400_000)).collect();
        let batches = plan_batches(&records, MAX_PAYLOAD_BYTES);
        assert_eq!(batches, vec![0..2, 2..4, 4..5]);
        for range in batches {
            let total: usize = records[range].iter().map(MessageRecord::wire_size).sum();
            assert!(total <= MAX_PAYLOAD_BYTES);
        }
    }

    #[test]
    fn oversized_and_invalid_records_are_rejected_with_reasons() {
        assert!(validate_outgoing(&sized(MAX_PAYLOAD_BYTES), false).is_ok());
        let err = validate_outgoing(&sized(MAX_PAYLOAD_BYTES + 1), false).unwrap_err();
        assert!(err.contains("1 MiB"), "{err}");
        let err = validate_outgoing(&MessageRecord::with_body("a\u{1}b"), false).unwrap_err();
        assert!(err.contains("U+0001"), "{err}");
        let err = validate_outgoing(&MessageRecord::with_body("\u{FFFE}"), false).unwrap_err();
        assert!(err.contains("U+FFFE"), "{err}");
        let err = validate_outgoing(&MessageRecord::with_body("x"), true).unwrap_err();
        assert!(err.contains("group id"), "{err}");
    }

    #[test]
    fn attribute_rules_match_sqs() {
        let mut record = MessageRecord::with_body("x");
        for i in 0..11 {
            record
                .message_attributes
                .insert(format!("a{i}"), AttributeValue::string("v"));
        }
        assert!(
            validate_outgoing(&record, false)
                .unwrap_err()
                .contains("at most 10")
        );
        let mut record = MessageRecord::with_body("x");
        record.message_attributes.insert(
            "n".into(),
            AttributeValue {
                data_type: "Number".into(),
                value: "abc".into(),
            },
        );
        assert!(
            validate_outgoing(&record, false)
                .unwrap_err()
                .contains("not a number")
        );
    }

    #[test]
    fn allowed_characters_follow_the_documented_ranges() {
        for c in [
            '\t',
            '\n',
            '\r',
            ' ',
            'é',
            '\u{D7FF}',
            '\u{E000}',
            '\u{FFFD}',
            '\u{10000}',
            '\u{10FFFF}',
        ] {
            assert!(is_allowed_char(c), "{:?}", c);
        }
        for c in ['\u{0}', '\u{8}', '\u{B}', '\u{1F}', '\u{FFFE}', '\u{FFFF}'] {
            assert!(!is_allowed_char(c), "{:?}", c);
        }
    }

    #[test]
    fn the_byte_check_agrees_with_the_character_ranges() {
        // Every ASCII byte, alone and inside text, and non-ASCII text on either side of it.
        for b in 0u8..0x80 {
            let c = char::from(b);
            for text in [
                format!("{c}"),
                format!("ab{c}cd"),
                format!("é{c}"),
                format!("{c}\u{FFFE}"),
            ] {
                let expected = text.char_indices().find(|(_, c)| !is_allowed_char(*c));
                assert_eq!(first_disallowed_char(&text), expected, "{text:?}");
            }
        }
        assert_eq!(first_disallowed_char("plain text\r\n"), None);
        assert_eq!(first_disallowed_char("x\u{7F}"), None);
    }
}
