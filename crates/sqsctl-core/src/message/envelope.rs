//! Bodies that wrap another message: SNS notifications (a subscription without raw delivery),
//! EventBridge events, and the Amazon SQS Extended Client's pointers to a payload kept in S3.
//!
//! Detection is strict, by shape: every key the sender always writes must be there with its JSON
//! type, so a body that merely mentions `Notification`, or JSON of another shape, is a plain body.
//! It is cheap for plain bodies: a body is parsed only when its first character and a key only
//! these shapes have say it can be one. The body itself is never changed; what is decoded is
//! carried beside it (see [`Described`]), so moves and round-trips keep every byte.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{AttributeValue, MessageRecord};

/// The first element of an extended-client pointer, current and older clients.
const S3_POINTER_CLASSES: &[&str] = &[
    "software.amazon.payloadoffloading.PayloadS3Pointer",
    "com.amazon.sqs.javamessaging.MessageS3Pointer",
];

/// The message attributes in which extended clients record the payload's size in bytes.
pub const PAYLOAD_SIZE_ATTRIBUTES: &[&str] = &["ExtendedPayloadSize", "SQSLargePayloadSize"];

/// What wraps a message, as decoded from its body.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind")]
pub enum BodyEnvelope {
    /// An SNS notification: the published message is a string inside the body.
    #[serde(rename = "sns")]
    Sns {
        /// The topic's name (the last part of its ARN).
        topic: String,
        topic_arn: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subject: Option<String>,
        /// The SNS message id (not the SQS one).
        message_id: String,
        /// The published message's attributes, as the notification carries them.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        attributes: BTreeMap<String, AttributeValue>,
    },
    /// An EventBridge event delivered by a rule; its `detail` is the inner message.
    #[serde(rename = "eventbridge")]
    EventBridge {
        source: String,
        detail_type: String,
        id: String,
    },
    /// An extended-client pointer: the payload is the S3 object, not in the queue.
    #[serde(rename = "s3_pointer")]
    S3Pointer {
        bucket: String,
        key: String,
        /// The payload's size in bytes, from the size attribute when the message has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
    },
}

/// A body decoded: what wraps it and, where the envelope holds one, the inner message.
#[derive(Debug, Clone, PartialEq)]
pub struct Unwrapped {
    pub envelope: BodyEnvelope,
    /// The inner message as text (an SNS message; an EventBridge event's detail as JSON).
    pub inner_body: Option<String>,
    /// The inner message as a value: parsed when it is JSON, else its string.
    pub message: Option<Value>,
}

impl Unwrapped {
    /// A short marker for a table or a line of text: `[sns orders]`,
    /// `[s3 bucket/key 2.1 MB]`.
    pub fn marker(&self) -> String {
        match &self.envelope {
            BodyEnvelope::Sns { topic, .. } => format!("[sns {topic}]"),
            BodyEnvelope::EventBridge { source, .. } => format!("[eventbridge {source}]"),
            BodyEnvelope::S3Pointer { bucket, key, size } => match size {
                Some(size) => format!("[s3 {bucket}/{key} {}]", human_bytes(*size)),
                None => format!("[s3 {bucket}/{key}]"),
            },
        }
    }

    /// The marker followed by the inner message, as a table or `-o text` shows the message.
    pub fn shown(&self) -> String {
        match &self.inner_body {
            Some(inner) => format!("{} {inner}", self.marker()),
            None => self.marker(),
        }
    }
}

/// The envelope of a message, when its body is one of the known shapes.
pub fn unwrap(record: &MessageRecord) -> Option<Unwrapped> {
    let body = record.body.trim_start();
    if body.starts_with('{') {
        if body.contains("\"TopicArn\"") {
            return sns(body);
        }
        if body.contains("\"detail-type\"") {
            return eventbridge(body);
        }
        None
    } else if body.starts_with('[') && body.contains("S3Pointer") {
        s3_pointer(body, record)
    } else {
        None
    }
}

fn string(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key)?.as_str().map(str::to_string)
}

fn sns(body: &str) -> Option<Unwrapped> {
    let value: Value = serde_json::from_str(body).ok()?;
    let object = value.as_object()?;
    if object.get("Type")?.as_str()? != "Notification" {
        return None;
    }
    let message_id = string(object, "MessageId")?;
    let topic_arn = string(object, "TopicArn")?;
    let inner = string(object, "Message")?;
    string(object, "Timestamp")?;
    if !topic_arn.starts_with("arn:") {
        return None;
    }
    let subject = match object.get("Subject") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return None,
    };
    let mut attributes = BTreeMap::new();
    match object.get("MessageAttributes") {
        None | Some(Value::Null) => {}
        Some(Value::Object(attrs)) => {
            for (name, attr) in attrs {
                let attr = attr.as_object()?;
                attributes.insert(
                    name.clone(),
                    AttributeValue {
                        data_type: string(attr, "Type")?,
                        value: string(attr, "Value")?,
                    },
                );
            }
        }
        Some(_) => return None,
    }
    let topic = topic_arn.rsplit(':').next().unwrap_or_default().to_string();
    let message =
        Some(serde_json::from_str(&inner).unwrap_or_else(|_| Value::String(inner.clone())));
    Some(Unwrapped {
        envelope: BodyEnvelope::Sns {
            topic,
            topic_arn,
            subject,
            message_id,
            attributes,
        },
        inner_body: Some(inner),
        message,
    })
}

fn eventbridge(body: &str) -> Option<Unwrapped> {
    let value: Value = serde_json::from_str(body).ok()?;
    let object = value.as_object()?;
    for key in ["version", "account", "time", "region"] {
        string(object, key)?;
    }
    object.get("resources")?.as_array()?;
    let detail = object.get("detail")?.clone();
    Some(Unwrapped {
        envelope: BodyEnvelope::EventBridge {
            source: string(object, "source")?,
            detail_type: string(object, "detail-type")?,
            id: string(object, "id")?,
        },
        inner_body: Some(detail.to_string()),
        message: Some(detail),
    })
}

fn s3_pointer(body: &str, record: &MessageRecord) -> Option<Unwrapped> {
    let value: Value = serde_json::from_str(body).ok()?;
    let [class, pointer] = value.as_array()?.as_slice() else {
        return None;
    };
    if !S3_POINTER_CLASSES.contains(&class.as_str()?) {
        return None;
    }
    let pointer = pointer.as_object()?;
    let size = PAYLOAD_SIZE_ATTRIBUTES
        .iter()
        .find_map(|name| record.message_attributes.get(*name))
        .and_then(|attr| attr.value.trim().parse().ok());
    Some(Unwrapped {
        envelope: BodyEnvelope::S3Pointer {
            bucket: string(pointer, "s3BucketName")?,
            key: string(pointer, "s3Key")?,
            size,
        },
        inner_body: None,
        message: None,
    })
}

/// Bytes in the largest unit that keeps a number of at least 1: `512 B`, `2.1 MB` (powers of
/// 1000, as S3 shows sizes).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: &[&str] = &["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64;
    let mut unit = "B";
    for next in UNITS {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = next;
    }
    format!("{value:.1} {unit}")
}

/// A message record as JSON output and queries show it: the record's own fields (the body as
/// sent), then `envelope` and `message` when the body is a known envelope.
#[derive(Debug, Serialize)]
pub struct Described<'a> {
    #[serde(flatten)]
    pub record: &'a MessageRecord,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<BodyEnvelope>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Value>,
}

impl<'a> Described<'a> {
    pub fn of(record: &'a MessageRecord) -> Described<'a> {
        let (envelope, message) = match unwrap(record) {
            Some(unwrapped) => (Some(unwrapped.envelope), unwrapped.message),
            None => (None, None),
        };
        Described {
            record,
            envelope,
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SNS: &str = r#"{"Type":"Notification","MessageId":"5b2c","TopicArn":"arn:aws:sns:eu-west-1:123456789012:orders","Subject":"order","Message":"{\"order_id\":7,\"type\":\"created\"}","Timestamp":"2026-01-01T00:00:00.000Z","SignatureVersion":"1","Signature":"c2ln","SigningCertURL":"https://sns.example/cert.pem","UnsubscribeURL":"https://sns.example/unsub","MessageAttributes":{"tenant":{"Type":"String","Value":"acme"}}}"#;
    const EVENT: &str = r#"{"version":"0","id":"e-1","detail-type":"Order Placed","source":"com.shop.orders","account":"123456789012","time":"2026-01-01T00:00:00Z","region":"eu-west-1","resources":[],"detail":{"order_id":9}}"#;
    const POINTER: &str = r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"payloads","s3Key":"a/b.json"}]"#;

    fn record(body: &str) -> MessageRecord {
        MessageRecord::with_body(body)
    }

    #[test]
    fn an_sns_notification_gives_its_topic_message_and_attributes() {
        let unwrapped = unwrap(&record(SNS)).expect("an SNS envelope");
        let BodyEnvelope::Sns {
            topic,
            subject,
            attributes,
            ..
        } = &unwrapped.envelope
        else {
            panic!("{unwrapped:?}")
        };
        assert_eq!(topic, "orders");
        assert_eq!(subject.as_deref(), Some("order"));
        assert_eq!(attributes["tenant"], AttributeValue::string("acme"));
        assert_eq!(unwrapped.message.as_ref().unwrap()["order_id"], 7);
        assert_eq!(
            unwrapped.shown(),
            r#"[sns orders] {"order_id":7,"type":"created"}"#
        );
    }

    #[test]
    fn an_sns_message_that_is_not_json_is_kept_as_a_string() {
        let body = SNS.replace(r#""{\"order_id\":7,\"type\":\"created\"}""#, r#""hello""#);
        let unwrapped = unwrap(&record(&body)).expect("an SNS envelope");
        assert_eq!(unwrapped.message, Some(Value::String("hello".into())));
    }

    #[test]
    fn near_misses_are_plain_bodies() {
        for body in [
            "Notification from TopicArn",
            r#"{"Type":"Notification","TopicArn":"arn:aws:sns:r:1:t"}"#,
            &SNS.replace(
                r#""Type":"Notification""#,
                r#""Type":"SubscriptionConfirmation""#,
            ),
            &SNS.replace(
                r#""Message":"{\"order_id\":7,\"type\":\"created\"}""#,
                r#""Message":{"a":1}"#,
            ),
            &SNS.replace(r#""Value":"acme""#, r#""Value":7"#),
            &EVENT.replace(r#""resources":[],"#, ""),
            &EVENT.replace(r#""source":"com.shop.orders""#, r#""source":1"#),
            r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"b"}]"#,
            r#"["S3Pointer",{"s3BucketName":"b","s3Key":"k"}]"#,
            r#"["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"b","s3Key":"k"},1]"#,
            "{not json \"TopicArn\"",
        ] {
            assert_eq!(unwrap(&record(body)), None, "{body}");
        }
    }

    #[test]
    fn an_eventbridge_event_gives_its_source_and_detail() {
        let unwrapped = unwrap(&record(EVENT)).expect("an event");
        assert_eq!(
            unwrapped.envelope,
            BodyEnvelope::EventBridge {
                source: "com.shop.orders".into(),
                detail_type: "Order Placed".into(),
                id: "e-1".into()
            }
        );
        assert_eq!(unwrapped.inner_body.as_deref(), Some(r#"{"order_id":9}"#));
    }

    #[test]
    fn a_pointer_gives_its_location_and_the_size_attribute() {
        let mut message = record(POINTER);
        assert_eq!(unwrap(&message).unwrap().marker(), "[s3 payloads/a/b.json]");
        message.message_attributes.insert(
            "ExtendedPayloadSize".into(),
            AttributeValue {
                data_type: "Number".into(),
                value: "2100000".into(),
            },
        );
        let unwrapped = unwrap(&message).unwrap();
        assert_eq!(unwrapped.marker(), "[s3 payloads/a/b.json 2.1 MB]");
        assert_eq!(unwrapped.inner_body, None);
    }

    #[test]
    fn described_keeps_the_body_and_adds_the_envelope() {
        let message = record(SNS);
        let value = serde_json::to_value(Described::of(&message)).unwrap();
        assert_eq!(value["body"], SNS);
        assert_eq!(value["envelope"]["kind"], "sns");
        assert_eq!(value["envelope"]["topic"], "orders");
        assert_eq!(value["message"]["type"], "created");
        let plain = record("{\"a\":1}");
        let value = serde_json::to_value(Described::of(&plain)).unwrap();
        assert_eq!(value, serde_json::json!({"body": "{\"a\":1}"}));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(2_100_000), "2.1 MB");
        assert_eq!(human_bytes(1_000), "1.0 kB");
    }
}
