//! The input rules of SQS: names, ranges, characters, sizes and message attributes.
//!
//! Each check returns the error code SQS returns for the same mistake, so a client tested here
//! meets the same error against AWS.

use std::collections::HashMap;

use base64::Engine as _;
use serde::Deserialize;

use crate::engine::message::{AttributeValue, MessageAttribute};
use crate::error::{ErrorKind, SqsError, SqsResult, excerpt};

pub const MAX_MESSAGE_BYTES: usize = 1_048_576;
pub const MAX_BATCH_ENTRIES: usize = 10;
pub const MAX_MESSAGE_ATTRIBUTES: usize = 10;
pub const MAX_VISIBILITY_TIMEOUT: u32 = 43_200;
pub const MAX_DELAY_SECONDS: u32 = 900;
pub const MAX_WAIT_SECONDS: u32 = 20;

/// A message attribute value as it arrives in JSON.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AttributeValueInput {
    pub data_type: Option<String>,
    pub string_value: Option<String>,
    pub binary_value: Option<String>,
    pub string_list_values: Option<serde_json::Value>,
    pub binary_list_values: Option<serde_json::Value>,
}

/// Queue names: 1..80 of `[A-Za-z0-9_-]`, plus the `.fifo` suffix exactly on FIFO queues.
pub fn queue_name(name: &str, fifo: bool) -> SqsResult<()> {
    let stem = if fifo {
        name.strip_suffix(".fifo").ok_or_else(|| {
            SqsError::invalid_parameter("The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.")
        })?
    } else {
        name
    };
    let ok_chars = stem
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if stem.is_empty() || name.len() > 80 || !ok_chars {
        let message = if fifo {
            "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length."
        } else {
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length"
        };
        return Err(SqsError::invalid_parameter(message));
    }
    Ok(())
}

/// The characters SQS accepts in bodies and string attributes. A Rust `str` cannot hold
/// surrogates, so what remains to reject are control characters and U+FFFE/U+FFFF.
pub fn allowed_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// SQS's answer to a body or string attribute value with a character outside [`allowed_char`].
const INVALID_CHARACTERS: &str = "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF";

pub fn message_body(body: &str) -> SqsResult<()> {
    if body.is_empty() {
        return Err(SqsError::missing("MessageBody"));
    }
    // Most bodies are printable ASCII; check those bytewise before decoding characters.
    let plain_ascii = body
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r'));
    if !plain_ascii && !body.chars().all(allowed_char) {
        return Err(SqsError::new(
            ErrorKind::InvalidMessageContents,
            INVALID_CHARACTERS,
        ));
    }
    Ok(())
}

/// An integer parameter within bounds, in SQS's phrasing.
pub fn in_range(parameter: &str, value: i64, min: i64, max: i64) -> SqsResult<u32> {
    if value < min || value > max {
        return Err(SqsError::invalid_value(
            parameter,
            value,
            &format!("Must be between {min} and {max}, if provided."),
        ));
    }
    u32::try_from(value).map_err(|_| SqsError::invalid_value(parameter, value, "Out of range."))
}

/// MessageGroupId and MessageDeduplicationId: 1..128 printable ASCII characters.
pub fn fifo_id(parameter: &str, value: &str) -> SqsResult<()> {
    let printable = value.bytes().all(|b| (0x21..=0x7e).contains(&b));
    if value.is_empty() || value.len() > 128 || !printable {
        return Err(SqsError::invalid_value(
            parameter,
            value,
            &format!(
                "{parameter} can only include alphanumeric and punctuation characters. 1 to 128 in length."
            ),
        ));
    }
    Ok(())
}

/// Batch entry ids: up to 80 of `[A-Za-z0-9_-]`.
pub fn batch_entry_id(id: &str) -> SqsResult<()> {
    let ok = !id.is_empty()
        && id.len() <= 80
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok {
        return Err(SqsError::new(
            ErrorKind::InvalidBatchEntryId,
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
        ));
    }
    Ok(())
}

/// Common checks of batch requests, in the order SQS applies them.
pub fn batch_ids<'a>(
    entry_shape: &str,
    ids: impl ExactSizeIterator<Item = Option<&'a str>>,
) -> SqsResult<()> {
    let count = ids.len();
    if count == 0 {
        return Err(SqsError::new(
            ErrorKind::EmptyBatchRequest,
            format!("There should be at least one {entry_shape} in the request."),
        ));
    }
    if count > MAX_BATCH_ENTRIES {
        return Err(SqsError::new(
            ErrorKind::TooManyEntriesInBatchRequest,
            format!("Maximum number of entries per request are 10. You have sent {count}."),
        ));
    }
    let mut seen = std::collections::HashSet::with_capacity(count);
    for id in ids {
        let id = id.ok_or_else(|| SqsError::missing("Id"))?;
        batch_entry_id(id)?;
        if !seen.insert(id) {
            return Err(SqsError::new(
                ErrorKind::BatchEntryIdsNotDistinct,
                format!("Id {id} repeated."),
            ));
        }
    }
    Ok(())
}

fn attribute_name(name: &str) -> SqsResult<()> {
    let lower = name.to_ascii_lowercase();
    // Letters beyond ASCII count as alphanumerics: SQS accepted `attr.1øßä`.
    let chars_ok = name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let ok = !name.is_empty()
        && name.len() <= 256
        && chars_ok
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..")
        && !lower.starts_with("aws.")
        && !lower.starts_with("amazon.");
    if !ok {
        return Err(SqsError::invalid_parameter(format!(
            "Message attribute name '{}' is invalid. Names can contain alphanumerics, hyphens, underscores and periods, must not start or end with a period, have consecutive periods, or start with AWS. or Amazon., and be at most 256 characters long.",
            excerpt(name)
        )));
    }
    Ok(())
}

/// SQS numbers: up to 38 significant digits, between -10^128 and 10^126.
fn valid_number(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_ok = !(int_part.is_empty() && frac_part.is_empty())
        && int_part.bytes().all(|b| b.is_ascii_digit())
        && frac_part.bytes().all(|b| b.is_ascii_digit());
    if !digits_ok {
        return false;
    }
    let exp: i64 = match exponent {
        Some(e) => match e.parse() {
            Ok(v) => v,
            Err(_) => return false,
        },
        None => 0,
    };
    let all_digits = format!("{int_part}{frac_part}");
    let significant = all_digits.trim_start_matches('0');
    if significant.is_empty() {
        return true;
    }
    if significant.trim_end_matches('0').len() > 38 {
        return false;
    }
    let leading_zeros = all_digits.len() - significant.len();
    let magnitude = int_part.len() as i64 - leading_zeros as i64 + exp;
    magnitude <= 127
}

/// Turns the JSON attribute map of a send into validated attributes.
pub fn message_attributes(
    input: Option<HashMap<String, AttributeValueInput>>,
) -> SqsResult<Vec<MessageAttribute>> {
    let Some(input) = input else {
        return Ok(Vec::new());
    };
    if input.len() > MAX_MESSAGE_ATTRIBUTES {
        return Err(SqsError::invalid_parameter(format!(
            "Number of message attributes [{}] exceeds the allowed maximum [{MAX_MESSAGE_ATTRIBUTES}].",
            input.len()
        )));
    }
    let mut out = Vec::with_capacity(input.len());
    for (name, value) in input {
        attribute_name(&name)?;
        out.push(attribute_value(name, value)?);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// One attribute value; also used for the `AWSTraceHeader` system attribute.
pub fn attribute_value(name: String, value: AttributeValueInput) -> SqsResult<MessageAttribute> {
    let data_type = value.data_type.unwrap_or_default();
    if data_type.is_empty() {
        return Err(SqsError::invalid_parameter(format!(
            "The message attribute '{name}' must contain non-empty message attribute type."
        )));
    }
    if value.string_list_values.is_some() || value.binary_list_values.is_some() {
        return Err(SqsError::invalid_parameter(format!(
            "Message attribute list values in '{name}' are not supported."
        )));
    }
    let base = data_type.split('.').next().unwrap_or("");
    let custom_ok = data_type.len() <= 256 && data_type.chars().all(allowed_char);
    let value = match (base, custom_ok) {
        ("String" | "Number", true) => {
            let text = value.string_value.unwrap_or_default();
            if text.is_empty() {
                return Err(SqsError::invalid_parameter(format!(
                    "Message (user) attribute '{name}' must contain a non-empty value of type '{base}'."
                )));
            }
            // The body's rule, but SQS answers InvalidParameterValue here, not
            // InvalidMessageContents.
            if !text.chars().all(allowed_char) {
                return Err(SqsError::invalid_parameter(INVALID_CHARACTERS));
            }
            if base == "Number" && !valid_number(&text) {
                return Err(SqsError::invalid_parameter(format!(
                    "Can't cast the value of message (user) attribute '{name}' to a number."
                )));
            }
            AttributeValue::String(text)
        }
        ("Binary", true) => {
            let encoded = value.binary_value.unwrap_or_default();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(encoded.as_bytes())
                .map_err(|_| {
                    SqsError::invalid_parameter(format!(
                        "The message attribute '{name}' has an invalid binary value."
                    ))
                })?;
            if bytes.is_empty() {
                return Err(SqsError::invalid_parameter(format!(
                    "Message (user) attribute '{name}' must contain a non-empty value of type 'Binary'."
                )));
            }
            AttributeValue::Binary(bytes)
        }
        _ => {
            return Err(SqsError::invalid_parameter(format!(
                "The type of message (user) attribute '{name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String."
            )));
        }
    };
    Ok(MessageAttribute {
        name,
        data_type,
        value,
    })
}

const TOO_LARGE: &str = "One or more parameters are invalid. Reason: Message must be shorter than";

/// A batch entry's error in the words SQS uses for one: a message too large "cannot be
/// validated" there, where a SendMessage's "is invalid".
pub fn in_batch(mut err: SqsError) -> SqsError {
    if let Some(rest) = err.message.strip_prefix(TOO_LARGE) {
        err.message = format!(
            "One or more parameters cannot be validated. Reason: Message must be shorter than{rest}"
        );
    }
    err
}

/// The size check of a message: body plus every attribute's name, type and value.
pub fn message_size(body: &str, attributes: &[MessageAttribute], limit: usize) -> SqsResult<()> {
    let total = body.len() + attributes.iter().map(MessageAttribute::size).sum::<usize>();
    if total > limit {
        return Err(SqsError::invalid_parameter(format!(
            "{TOO_LARGE} {limit} bytes."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_names() {
        assert!(queue_name("orders", false).is_ok());
        assert!(queue_name("orders-1_a", false).is_ok());
        assert!(queue_name("orders.fifo", true).is_ok());
        assert!(queue_name("orders.fifo", false).is_err());
        assert!(queue_name("orders", true).is_err());
        assert!(queue_name("", false).is_err());
        assert!(queue_name(".fifo", true).is_err());
        assert!(queue_name(&"a".repeat(80), false).is_ok());
        assert!(queue_name(&"a".repeat(81), false).is_err());
        assert!(queue_name(&format!("{}.fifo", "a".repeat(75)), true).is_ok());
        assert!(queue_name(&format!("{}.fifo", "a".repeat(76)), true).is_err());
        assert!(queue_name("sp ace", false).is_err());
    }

    #[test]
    fn body_characters() {
        assert!(message_body("hello\tworld\n").is_ok());
        assert!(message_body("emoji \u{1F600}").is_ok());
        let err = message_body("bell \u{7}").err().map(|e| e.kind);
        assert_eq!(err, Some(ErrorKind::InvalidMessageContents));
        assert!(message_body("\u{FFFF}").is_err());
        assert!(message_body("").is_err());
    }

    #[test]
    fn batch_rules_in_order() {
        let kind = |ids: Vec<Option<&str>>| {
            batch_ids("SendMessageBatchRequestEntry", ids.into_iter())
                .err()
                .map(|e| e.kind)
        };
        assert_eq!(kind(vec![]), Some(ErrorKind::EmptyBatchRequest));
        assert_eq!(
            kind(vec![Some("a"); 11]),
            Some(ErrorKind::TooManyEntriesInBatchRequest)
        );
        assert_eq!(
            kind(vec![Some("a"), Some("a")]),
            Some(ErrorKind::BatchEntryIdsNotDistinct)
        );
        assert_eq!(
            kind(vec![Some("a b")]),
            Some(ErrorKind::InvalidBatchEntryId)
        );
        assert_eq!(kind(vec![Some("a"), Some("b-1_")]), None);
    }

    #[test]
    fn numbers() {
        for ok in ["1", "-1.5", "0", "1e10", "3.14E-2", ".5", "+7"] {
            assert!(valid_number(ok), "{ok}");
        }
        for bad in ["", "abc", "1e", "1.2.3", "--1", &"9".repeat(39), "1e200"] {
            assert!(!valid_number(bad), "{bad}");
        }
    }

    #[test]
    fn attributes() {
        let mut input = HashMap::new();
        input.insert(
            "n".to_string(),
            AttributeValueInput {
                data_type: Some("Number.int".into()),
                string_value: Some("42".into()),
                ..Default::default()
            },
        );
        input.insert(
            "b".to_string(),
            AttributeValueInput {
                data_type: Some("Binary".into()),
                binary_value: Some("AQID".into()),
                ..Default::default()
            },
        );
        let attrs = message_attributes(Some(input)).unwrap_or_default();
        assert_eq!(attrs.len(), 2);
        assert_eq!(attrs[0].value, AttributeValue::Binary(vec![1, 2, 3]));

        let bad_type = AttributeValueInput {
            data_type: Some("Float".into()),
            string_value: Some("1".into()),
            ..Default::default()
        };
        assert!(attribute_value("x".into(), bad_type).is_err());
        assert!(attribute_name("AWS.thing").is_err());
        assert!(attribute_name("a..b").is_err());
        assert!(attribute_name("ok.name-1").is_ok());
        assert!(attribute_name("attr.1øßä").is_ok());
        for refused in [
            "Invalid-§-attr",
            "Invalid-!-attr",
            "Invalid-(-attr",
            "Invalid-?-attr",
        ] {
            assert!(attribute_name(refused).is_err(), "{refused}");
        }
        let control = AttributeValueInput {
            data_type: Some("String".into()),
            string_value: Some("Invalid-\u{8},\u{b}".into()),
            ..Default::default()
        };
        let err = attribute_value("attr1".into(), control).err();
        assert_eq!(
            err.map(|e| (e.kind, e.message)),
            Some((ErrorKind::InvalidParameterValue, INVALID_CHARACTERS.into()))
        );
    }

    #[test]
    fn ids_of_fifo_messages() {
        assert!(fifo_id("MessageGroupId", "g-1!").is_ok());
        assert!(fifo_id("MessageGroupId", "").is_err());
        assert!(fifo_id("MessageGroupId", "has space").is_err());
        assert!(fifo_id("MessageGroupId", &"x".repeat(129)).is_err());
    }
}
