//! The attributes a queue's owner sets: which they are, the values SQS accepts for each (checked
//! before any call, so a bad value changes nothing), and the difference between a queue's settings
//! and the ones wanted, where policies that differ only in spelling are no change.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use crate::client::{QueueAttributes, limits};
use crate::text::format_seconds;

/// The attributes a queue's owner may change.
pub const SETTABLE: &[&str] = &[
    "DelaySeconds",
    "KmsDataKeyReusePeriodSeconds",
    "KmsMasterKeyId",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "Policy",
    "ReceiveMessageWaitTimeSeconds",
    "RedriveAllowPolicy",
    "RedrivePolicy",
    "SqsManagedSseEnabled",
    "VisibilityTimeout",
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];

/// Attributes only a FIFO queue has.
pub const FIFO_ONLY: &[&str] = &[
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];

/// Most source queues a `byQueue` redrive allow policy may list.
pub const MAX_ALLOWED_SOURCES: usize = 10;

/// A value SQS would refuse, or an attribute that cannot be set.
#[derive(Debug, thiserror::Error)]
pub enum AttributeError {
    #[error(
        "{name} `{value}` is out of range: SQS takes {min} to {max} seconds ({} to {})",
        format_seconds(*min),
        format_seconds(*max)
    )]
    SecondsOutOfRange {
        name: String,
        value: String,
        min: u64,
        max: u64,
    },
    #[error(
        "MaximumMessageSize `{0}` is out of range: SQS takes 1024 to 1048576 bytes (1 KiB to 1 MiB)"
    )]
    SizeOutOfRange(String),
    #[error("{name} `{value}` is not valid: SQS takes {}", choices.join(" or "))]
    NotOneOf {
        name: String,
        value: String,
        choices: &'static [&'static str],
    },
    #[error("{name} `{value}` is not JSON")]
    NotJson { name: String, value: String },
    #[error(
        "FifoQueue cannot change after a queue is created: create a new queue of the other type"
    )]
    FifoQueue,
    /// Not one of [`SETTABLE`].
    #[error("`{0}` is not a queue attribute that can be set")]
    NotSettable(String),
}

/// Checks one attribute's name and value against what SQS accepts.
pub fn check_attribute(name: &str, value: &str) -> Result<(), AttributeError> {
    let seconds_range = |min: Duration, max: Duration| {
        let (min, max) = (min.as_secs(), max.as_secs());
        match value.trim().parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(()),
            _ => Err(AttributeError::SecondsOutOfRange {
                name: name.to_string(),
                value: value.to_string(),
                min,
                max,
            }),
        }
    };
    let one_of = |choices: &'static [&'static str]| {
        if choices.contains(&value) {
            Ok(())
        } else {
            Err(AttributeError::NotOneOf {
                name: name.to_string(),
                value: value.to_string(),
                choices,
            })
        }
    };
    let json = || {
        if value.is_empty() || serde_json::from_str::<serde_json::Value>(value).is_ok() {
            Ok(())
        } else {
            Err(AttributeError::NotJson {
                name: name.to_string(),
                value: value.to_string(),
            })
        }
    };
    match name {
        "DelaySeconds" => seconds_range(Duration::ZERO, limits::MAX_DELAY),
        "MessageRetentionPeriod" => seconds_range(limits::MIN_RETENTION, limits::MAX_RETENTION),
        "ReceiveMessageWaitTimeSeconds" => seconds_range(Duration::ZERO, limits::MAX_WAIT),
        "VisibilityTimeout" => seconds_range(Duration::ZERO, limits::MAX_VISIBILITY),
        "KmsDataKeyReusePeriodSeconds" => {
            seconds_range(limits::MIN_KMS_REUSE, limits::MAX_KMS_REUSE)
        }
        "MaximumMessageSize" => match value.trim().parse::<u64>() {
            Ok(n) if (1024..=1_048_576).contains(&n) => Ok(()),
            _ => Err(AttributeError::SizeOutOfRange(value.to_string())),
        },
        "SqsManagedSseEnabled" | "ContentBasedDeduplication" => one_of(&["true", "false"]),
        "DeduplicationScope" => one_of(&["queue", "messageGroup"]),
        "FifoThroughputLimit" => one_of(&["perQueue", "perMessageGroupId"]),
        "KmsMasterKeyId" => Ok(()),
        "Policy" | "RedrivePolicy" | "RedriveAllowPolicy" => json(),
        "FifoQueue" => Err(AttributeError::FifoQueue),
        _ => Err(AttributeError::NotSettable(name.to_string())),
    }
}

/// The attributes of a queue that a person sets (those [`SETTABLE`]).
pub fn settable(attrs: &QueueAttributes) -> BTreeMap<String, String> {
    attrs
        .0
        .iter()
        .filter(|(name, _)| SETTABLE.contains(&name.as_str()))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// One attribute that changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub attribute: String,
    /// The value before, `null` when the queue had none.
    pub before: Option<String>,
    /// The value after, `null` when the attribute is removed.
    pub after: Option<String>,
}

/// The attributes that would change. Policies compare as JSON, so a policy SQS renders with other
/// spacing or key order is not a change; an empty value removes the attribute.
pub fn diff(before: &QueueAttributes, wanted: &BTreeMap<String, String>) -> Vec<Change> {
    wanted
        .iter()
        .filter_map(|(name, value)| {
            let old = before.get(name).filter(|v| !v.is_empty());
            let new = (!value.is_empty()).then_some(value.as_str());
            let same = match (old, new) {
                (Some(a), Some(b)) => a == b || same_json(a, b),
                (None, None) => true,
                _ => false,
            };
            (!same).then(|| Change {
                attribute: name.clone(),
                before: old.map(str::to_string),
                after: new.map(str::to_string),
            })
        })
        .collect()
}

fn same_json(a: &str, b: &str) -> bool {
    match (
        serde_json::from_str::<serde_json::Value>(a),
        serde_json::from_str::<serde_json::Value>(b),
    ) {
        (Ok(a), Ok(b)) => normalize(a) == normalize(b),
        _ => false,
    }
}

/// `maxReceiveCount` may be a number or a numeric string; both mean the same.
fn normalize(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::String(s) if s.parse::<u64>().is_ok() => {
            serde_json::Value::from(s.parse::<u64>().unwrap_or_default())
        }
        serde_json::Value::Object(map) => {
            serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, normalize(v))).collect())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_values_are_checked_against_sqs_limits() {
        assert!(check_attribute("VisibilityTimeout", "43200").is_ok());
        let err = check_attribute("VisibilityTimeout", "43201").unwrap_err();
        assert!(err.to_string().contains("0 to 43200 seconds"), "{err}");
        assert!(check_attribute("MessageRetentionPeriod", "59").is_err());
        assert!(check_attribute("DeduplicationScope", "group").is_err());
        assert!(matches!(
            check_attribute("Visibility", "1"),
            Err(AttributeError::NotSettable(_))
        ));
        assert!(check_attribute("FifoQueue", "true").is_err());
    }

    #[test]
    fn policies_that_differ_only_in_spelling_are_no_change() {
        let before = QueueAttributes(BTreeMap::from([(
            "RedrivePolicy".to_string(),
            r#"{"deadLetterTargetArn":"arn:a","maxReceiveCount":"5"}"#.to_string(),
        )]));
        let same = BTreeMap::from([(
            "RedrivePolicy".to_string(),
            r#"{"maxReceiveCount": 5, "deadLetterTargetArn": "arn:a"}"#.to_string(),
        )]);
        assert!(diff(&before, &same).is_empty());
        let removed = BTreeMap::from([("RedrivePolicy".to_string(), String::new())]);
        assert_eq!(diff(&before, &removed)[0].after, None);
    }
}
