//! How a message appears to the command that processes it: environment variables named
//! `SQS_...`, one per fact, and `SQS_ATTR_<NAME>` per message attribute with the name reduced to
//! what a shell variable may hold.

use crate::message::MessageRecord;

/// The environment variable of a message attribute: `SQS_ATTR_` and the name in upper case, each
/// character other than a letter, a digit or `_` replaced by `_` (`trace-id` is
/// `SQS_ATTR_TRACE_ID`). Two names that reduce to the same variable share it; the later one in
/// name order wins.
pub fn env_name(attribute: &str) -> String {
    let mut name = String::from("SQS_ATTR_");
    name.extend(attribute.chars().map(|c| {
        if c.is_ascii_alphanumeric() {
            c.to_ascii_uppercase()
        } else {
            '_'
        }
    }));
    name
}

/// The variables describing `message`: `SQS_MESSAGE_ID`, `SQS_RECEIPT_HANDLE`,
/// `SQS_RECEIVE_COUNT`, `SQS_SENT_TIMESTAMP` (epoch milliseconds), `SQS_GROUP_ID` and
/// `SQS_DEDUPLICATION_ID` where the message has them, and `SQS_ATTR_<NAME>` per message attribute
/// (binary values in base64, as SQS returns them).
pub fn message_env(message: &MessageRecord) -> Vec<(String, String)> {
    let mut env = Vec::new();
    let mut put = |name: &str, value: Option<&str>| {
        if let Some(value) = value {
            env.push((name.to_string(), value.to_string()));
        }
    };
    put("SQS_MESSAGE_ID", message.message_id.as_deref());
    put("SQS_RECEIPT_HANDLE", message.receipt_handle.as_deref());
    let attribute = |name: &str| message.attributes.get(name).map(String::as_str);
    put("SQS_RECEIVE_COUNT", attribute("ApproximateReceiveCount"));
    put("SQS_SENT_TIMESTAMP", attribute("SentTimestamp"));
    put("SQS_GROUP_ID", message.effective_group_id());
    put("SQS_DEDUPLICATION_ID", message.effective_dedup_id());
    for (name, value) in &message.message_attributes {
        env.push((env_name(name), value.value.clone()));
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    #[test]
    fn attribute_names_become_shell_variable_names() {
        assert_eq!(env_name("tenant"), "SQS_ATTR_TENANT");
        assert_eq!(env_name("trace-id.v2"), "SQS_ATTR_TRACE_ID_V2");
        assert_eq!(env_name("Grüße"), "SQS_ATTR_GR__E");
    }

    #[test]
    fn a_message_is_described_by_its_ids_counts_and_attributes() {
        let mut m = MessageRecord::with_body("x");
        m.message_id = Some("id-1".into());
        m.receipt_handle = Some("rh".into());
        m.attributes
            .insert("ApproximateReceiveCount".into(), "3".into());
        m.attributes
            .insert("SentTimestamp".into(), "1700000000000".into());
        m.attributes.insert("MessageGroupId".into(), "g".into());
        m.message_attributes
            .insert("trace-id".into(), AttributeValue::string("t-9"));
        let env = message_env(&m);
        let get = |name: &str| env.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        assert_eq!(get("SQS_MESSAGE_ID"), Some("id-1"));
        assert_eq!(get("SQS_RECEIPT_HANDLE"), Some("rh"));
        assert_eq!(get("SQS_RECEIVE_COUNT"), Some("3"));
        assert_eq!(get("SQS_SENT_TIMESTAMP"), Some("1700000000000"));
        assert_eq!(get("SQS_GROUP_ID"), Some("g"));
        assert_eq!(get("SQS_DEDUPLICATION_ID"), None);
        assert_eq!(get("SQS_ATTR_TRACE_ID"), Some("t-9"));
    }
}
