//! Queue attributes: their defaults, their validation on CreateQueue and SetQueueAttributes, and
//! how GetQueueAttributes renders them.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{SqsError, SqsResult};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedrivePolicy {
    pub dead_letter_arn: String,
    pub max_receive_count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedriveAllow {
    AllowAll,
    DenyAll,
    ByQueue(Vec<String>),
}

impl RedriveAllow {
    pub fn permits(&self, source_arn: &str) -> bool {
        match self {
            RedriveAllow::AllowAll => true,
            RedriveAllow::DenyAll => false,
            RedriveAllow::ByQueue(arns) => arns.iter().any(|a| a == source_arn),
        }
    }
}

/// The settable attributes of a queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueAttributes {
    pub delay_seconds: u32,
    pub maximum_message_size: u32,
    pub retention_seconds: u32,
    pub receive_wait_seconds: u32,
    pub visibility_timeout: u32,
    pub redrive_policy: Option<RedrivePolicy>,
    pub redrive_allow: Option<RedriveAllow>,
    pub content_based_dedup: bool,
    pub dedup_per_group: bool,
    pub throughput_per_group: bool,
    pub policy: Option<String>,
    pub kms_master_key_id: Option<String>,
    pub kms_reuse_seconds: u32,
    pub sqs_managed_sse: bool,
}

impl Default for QueueAttributes {
    fn default() -> Self {
        QueueAttributes {
            delay_seconds: 0,
            maximum_message_size: 1_048_576,
            retention_seconds: 345_600,
            receive_wait_seconds: 0,
            visibility_timeout: 30,
            redrive_policy: None,
            redrive_allow: None,
            content_based_dedup: false,
            dedup_per_group: false,
            throughput_per_group: false,
            policy: None,
            kms_master_key_id: None,
            kms_reuse_seconds: 300,
            sqs_managed_sse: true,
        }
    }
}

/// Attributes computed by the server; readable, never settable.
pub const COMPUTED: &[&str] = &[
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
];

const FIFO_ONLY: &[&str] = &[
    "FifoQueue",
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "FifoThroughputLimit",
];

const SETTABLE: &[&str] = &[
    "DelaySeconds",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "Policy",
    "ReceiveMessageWaitTimeSeconds",
    "VisibilityTimeout",
    "RedrivePolicy",
    "RedriveAllowPolicy",
    "KmsMasterKeyId",
    "KmsDataKeyReusePeriodSeconds",
    "SqsManagedSseEnabled",
];

/// Whether `name` is an attribute a queue of this kind has (settable or computed).
pub fn is_known(name: &str, fifo: bool) -> bool {
    SETTABLE.contains(&name) || COMPUTED.contains(&name) || (fifo && FIFO_ONLY.contains(&name))
}

fn number(name: &str, value: &str, min: u32, max: u32) -> SqsResult<u32> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| SqsError::invalid_attribute_value(name))
}

fn boolean(name: &str, value: &str) -> SqsResult<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(SqsError::invalid_attribute_value(name)),
    }
}

/// Parses a `RedrivePolicy` value; `maxReceiveCount` may be a number or a numeric string.
pub fn parse_redrive_policy(value: &str) -> SqsResult<Option<RedrivePolicy>> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    let invalid = |reason: &str| SqsError::invalid_value("RedrivePolicy", value, reason);
    let json: Value = serde_json::from_str(value).map_err(|_| invalid("Invalid JSON."))?;
    let arn = json
        .get("deadLetterTargetArn")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            invalid("Redrive policy does not contain mandatory attribute: deadLetterTargetArn.")
        })?;
    let count = match json.get("maxReceiveCount") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
    .ok_or_else(|| {
        invalid("Redrive policy does not contain mandatory attribute: maxReceiveCount.")
    })?;
    if !(1..=1000).contains(&count) {
        return Err(invalid(
            "Invalid value for maxReceiveCount: must be between 1 and 1000",
        ));
    }
    Ok(Some(RedrivePolicy {
        dead_letter_arn: arn.to_string(),
        max_receive_count: u32::try_from(count).unwrap_or(1000),
    }))
}

pub fn parse_redrive_allow(value: &str) -> SqsResult<Option<RedriveAllow>> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    let invalid = |reason: &str| SqsError::invalid_value("RedriveAllowPolicy", value, reason);
    let json: Value = serde_json::from_str(value).map_err(|_| invalid("Invalid JSON."))?;
    let permission = json
        .get("redrivePermission")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("Missing redrivePermission."))?;
    let arns: Option<Vec<String>> = json.get("sourceQueueArns").map(|v| {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    });
    match (permission, arns) {
        ("allowAll", None) => Ok(Some(RedriveAllow::AllowAll)),
        ("denyAll", None) => Ok(Some(RedriveAllow::DenyAll)),
        ("byQueue", Some(arns)) if !arns.is_empty() && arns.len() <= 10 => {
            Ok(Some(RedriveAllow::ByQueue(arns)))
        }
        ("byQueue", _) => Err(invalid(
            "sourceQueueArns must list 1 to 10 queue ARNs when redrivePermission is byQueue.",
        )),
        ("allowAll" | "denyAll", Some(_)) => Err(invalid(
            "sourceQueueArns is only allowed when redrivePermission is byQueue.",
        )),
        _ => Err(invalid(
            "redrivePermission must be allowAll, denyAll or byQueue.",
        )),
    }
}

impl QueueAttributes {
    /// Applies one attribute. `creating` allows `FifoQueue`, which cannot change afterwards.
    pub fn apply(&mut self, name: &str, value: &str, fifo: bool, creating: bool) -> SqsResult<()> {
        match name {
            "DelaySeconds" => self.delay_seconds = number(name, value, 0, 900)?,
            "MaximumMessageSize" => {
                self.maximum_message_size = number(name, value, 1024, 1_048_576)?
            }
            "MessageRetentionPeriod" => {
                self.retention_seconds = number(name, value, 60, 1_209_600)?
            }
            "ReceiveMessageWaitTimeSeconds" => {
                self.receive_wait_seconds = number(name, value, 0, 20)?
            }
            "VisibilityTimeout" => self.visibility_timeout = number(name, value, 0, 43_200)?,
            "KmsDataKeyReusePeriodSeconds" => {
                self.kms_reuse_seconds = number(name, value, 60, 86_400)?
            }
            "SqsManagedSseEnabled" => self.sqs_managed_sse = boolean(name, value)?,
            "KmsMasterKeyId" => {
                self.kms_master_key_id = (!value.is_empty()).then(|| value.to_string())
            }
            "Policy" => {
                if !value.is_empty() && serde_json::from_str::<Value>(value).is_err() {
                    return Err(SqsError::invalid_attribute_value(name));
                }
                self.policy = (!value.is_empty()).then(|| value.to_string());
            }
            "RedrivePolicy" => self.redrive_policy = parse_redrive_policy(value)?,
            "RedriveAllowPolicy" => self.redrive_allow = parse_redrive_allow(value)?,
            // "true" again is accepted and changes nothing, at creation or later.
            "FifoQueue" if fifo => match boolean(name, value)? {
                true => {}
                false if creating => return Err(SqsError::invalid_attribute_value(name)),
                false => {
                    return Err(SqsError::new(
                        crate::error::ErrorKind::InvalidAttributeValue,
                        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
                    ));
                }
            },
            // SQS refuses the attribute on standard queues, even as "false".
            "FifoQueue" if creating => return Err(SqsError::invalid_attribute_name(name)),
            "ContentBasedDeduplication" if fifo => self.content_based_dedup = boolean(name, value)?,
            "DeduplicationScope" if fifo => {
                self.dedup_per_group = match value {
                    "messageGroup" => true,
                    "queue" => false,
                    _ => return Err(SqsError::invalid_attribute_value(name)),
                }
            }
            "FifoThroughputLimit" if fifo => {
                self.throughput_per_group = match value {
                    "perMessageGroupId" => true,
                    "perQueue" => false,
                    _ => return Err(SqsError::invalid_attribute_value(name)),
                }
            }
            "DeduplicationScope" | "FifoThroughputLimit" if creating => {
                return Err(SqsError::new(
                    crate::error::ErrorKind::InvalidAttributeName,
                    format!("You can specify the {name} only when FifoQueue is set to true."),
                ));
            }
            _ => return Err(SqsError::invalid_attribute_name(name)),
        }
        Ok(())
    }

    /// Rules between attributes, checked once all of a request's are applied: high-throughput
    /// FIFO (`FifoThroughputLimit=perMessageGroupId`) needs `DeduplicationScope=messageGroup`.
    pub fn check_combination(&self) -> SqsResult<()> {
        if self.throughput_per_group && !self.dedup_per_group {
            return Err(SqsError::new(
                crate::error::ErrorKind::InvalidAttributeValue,
                "Invalid value for the parameter FifoThroughputLimit. Reason: perMessageGroupId is allowed only when DeduplicationScope is messageGroup.",
            ));
        }
        Ok(())
    }

    /// The settable attributes as SQS renders them.
    pub fn render(&self, fifo: bool) -> BTreeMap<&'static str, String> {
        let mut out = BTreeMap::new();
        out.insert("DelaySeconds", self.delay_seconds.to_string());
        out.insert("MaximumMessageSize", self.maximum_message_size.to_string());
        out.insert("MessageRetentionPeriod", self.retention_seconds.to_string());
        out.insert(
            "ReceiveMessageWaitTimeSeconds",
            self.receive_wait_seconds.to_string(),
        );
        out.insert("VisibilityTimeout", self.visibility_timeout.to_string());
        out.insert("SqsManagedSseEnabled", self.sqs_managed_sse.to_string());
        if let Some(key) = &self.kms_master_key_id {
            out.insert("KmsMasterKeyId", key.clone());
            out.insert(
                "KmsDataKeyReusePeriodSeconds",
                self.kms_reuse_seconds.to_string(),
            );
        }
        if let Some(policy) = &self.policy {
            out.insert("Policy", policy.clone());
        }
        if let Some(p) = &self.redrive_policy {
            let json = serde_json::json!({
                "deadLetterTargetArn": p.dead_letter_arn,
                "maxReceiveCount": p.max_receive_count,
            });
            out.insert("RedrivePolicy", json.to_string());
        }
        if let Some(allow) = &self.redrive_allow {
            let json = match allow {
                RedriveAllow::AllowAll => serde_json::json!({"redrivePermission": "allowAll"}),
                RedriveAllow::DenyAll => serde_json::json!({"redrivePermission": "denyAll"}),
                RedriveAllow::ByQueue(arns) => serde_json::json!({
                    "redrivePermission": "byQueue",
                    "sourceQueueArns": arns,
                }),
            };
            out.insert("RedriveAllowPolicy", json.to_string());
        }
        if fifo {
            out.insert("FifoQueue", "true".into());
            out.insert(
                "ContentBasedDeduplication",
                self.content_based_dedup.to_string(),
            );
            let scope = if self.dedup_per_group {
                "messageGroup"
            } else {
                "queue"
            };
            out.insert("DeduplicationScope", scope.into());
            let limit = if self.throughput_per_group {
                "perMessageGroupId"
            } else {
                "perQueue"
            };
            out.insert("FifoThroughputLimit", limit.into());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redrive_policy_accepts_number_or_string() {
        let a = parse_redrive_policy(r#"{"deadLetterTargetArn":"arn:x","maxReceiveCount":3}"#);
        let b = parse_redrive_policy(r#"{"deadLetterTargetArn":"arn:x","maxReceiveCount":"3"}"#);
        assert_eq!(a, b);
        assert_eq!(a.ok().flatten().map(|p| p.max_receive_count), Some(3));
        assert!(parse_redrive_policy(r#"{"deadLetterTargetArn":"arn:x"}"#).is_err());
        assert!(
            parse_redrive_policy(r#"{"deadLetterTargetArn":"a","maxReceiveCount":0}"#).is_err()
        );
        assert_eq!(parse_redrive_policy("").ok(), Some(None));
    }

    #[test]
    fn redrive_allow_policies() {
        let by = parse_redrive_allow(r#"{"redrivePermission":"byQueue","sourceQueueArns":["a"]}"#);
        let by = by.ok().flatten();
        assert!(
            by.as_ref()
                .is_some_and(|p| p.permits("a") && !p.permits("b"))
        );
        assert!(parse_redrive_allow(r#"{"redrivePermission":"byQueue"}"#).is_err());
        assert!(parse_redrive_allow(r#"{"redrivePermission":"nope"}"#).is_err());
    }

    #[test]
    fn ranges_and_names() {
        let mut attrs = QueueAttributes::default();
        assert!(
            attrs
                .apply("VisibilityTimeout", "43200", false, true)
                .is_ok()
        );
        assert!(
            attrs
                .apply("VisibilityTimeout", "43201", false, true)
                .is_err()
        );
        assert!(
            attrs
                .apply("MessageRetentionPeriod", "59", false, true)
                .is_err()
        );
        assert!(
            attrs
                .apply("ContentBasedDeduplication", "true", false, true)
                .is_err()
        );
        assert!(
            attrs
                .apply("ContentBasedDeduplication", "true", true, true)
                .is_ok()
        );
        assert!(attrs.apply("FifoQueue", "true", true, false).is_ok());
        assert!(attrs.apply("FifoQueue", "false", true, false).is_err());
        assert!(attrs.apply("FifoQueue", "true", false, false).is_err());
        assert!(attrs.apply("Bogus", "1", false, true).is_err());
    }
}
