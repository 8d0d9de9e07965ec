//! `--unwrap`: the message an envelope carries, as it would have arrived without the envelope.
//!
//! An SNS notification (a subscription without raw message delivery) becomes its `Message` string,
//! with its `MessageAttributes` as SNS's raw message delivery maps them to SQS message attributes:
//! `String` and `Number` keep their type (and a custom `.suffix`), `String.Array` becomes a
//! `String` holding the JSON array, `Binary` stays `Binary` (its value is base64 in the envelope, as
//! it is in sqsctl's message records, and SQS receives the decoded bytes). Attributes the DLQ
//! message had itself are kept, unless the notification has one of the same name. An EventBridge
//! event becomes its `detail`, as compact JSON. Anything else (a plain body, an extended-client
//! pointer to S3, whose payload is not in the queue) is sent unchanged and counted as not an
//! envelope.

use crate::message::envelope::{self, BodyEnvelope};
use crate::message::{AttributeValue, MessageRecord};

/// What unwrapping did to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unwrapped {
    /// The envelope's inner message replaced it.
    Inner,
    /// It was not an envelope with a message inside: unchanged.
    NotEnvelope,
}

/// Replaces `out` (body and message attributes) with the message its body's envelope carries.
pub fn unwrap(out: &mut MessageRecord) -> Unwrapped {
    let Some(decoded) = envelope::unwrap(out) else {
        return Unwrapped::NotEnvelope;
    };
    let Some(inner) = decoded.inner_body else {
        return Unwrapped::NotEnvelope;
    };
    match decoded.envelope {
        BodyEnvelope::Sns { attributes, .. } => {
            for (name, attr) in attributes {
                out.message_attributes.insert(name, raw_delivery(attr));
            }
        }
        BodyEnvelope::EventBridge { .. } => {}
        BodyEnvelope::S3Pointer { .. } => return Unwrapped::NotEnvelope,
    }
    out.body = inner;
    Unwrapped::Inner
}

/// An SNS message attribute as raw message delivery gives it to SQS.
fn raw_delivery(attr: AttributeValue) -> AttributeValue {
    if attr.data_type == "String.Array" {
        AttributeValue::string(attr.value)
    } else {
        attr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sns_notification_gives_its_message_and_attributes() {
        let body = serde_json::json!({
            "Type": "Notification", "MessageId": "sns-1",
            "TopicArn": "arn:aws:sns:us-east-1:000000000000:orders",
            "Message": "{\"order\":7}", "Timestamp": "2026-01-01T00:00:00.000Z",
            "SignatureVersion": "1", "Signature": "x", "SigningCertURL": "u", "UnsubscribeURL": "u",
            "MessageAttributes": {
                "s": {"Type": "String", "Value": "v"},
                "n": {"Type": "Number", "Value": "1.5"},
                "b": {"Type": "Binary", "Value": "AQID"},
                "a": {"Type": "String.Array", "Value": "[\"x\",1]"}
            }
        })
        .to_string();
        let mut out = MessageRecord::with_body(body);
        out.message_attributes
            .insert("own".into(), AttributeValue::string("kept"));
        assert_eq!(unwrap(&mut out), Unwrapped::Inner);
        assert_eq!(out.body, r#"{"order":7}"#);
        let types: Vec<(&str, &str, &str)> = out
            .message_attributes
            .iter()
            .map(|(k, v)| (k.as_str(), v.data_type.as_str(), v.value.as_str()))
            .collect();
        assert_eq!(
            types,
            [
                ("a", "String", "[\"x\",1]"),
                ("b", "Binary", "AQID"),
                ("n", "Number", "1.5"),
                ("own", "String", "kept"),
                ("s", "String", "v"),
            ]
        );
    }

    #[test]
    fn an_eventbridge_event_gives_its_detail_and_a_plain_body_stays() {
        let body = serde_json::json!({
            "version": "0", "id": "e-1", "detail-type": "OrderPlaced", "source": "shop",
            "account": "000000000000", "time": "2026-01-01T00:00:00Z", "region": "us-east-1",
            "resources": [], "detail": {"order": 7}
        })
        .to_string();
        let mut out = MessageRecord::with_body(body);
        assert_eq!(unwrap(&mut out), Unwrapped::Inner);
        assert_eq!(out.body, r#"{"order":7}"#);
        let mut plain = MessageRecord::with_body(r#"{"order":7}"#);
        assert_eq!(unwrap(&mut plain), Unwrapped::NotEnvelope);
        assert_eq!(plain.body, r#"{"order":7}"#);
    }
}
