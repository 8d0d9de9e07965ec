//! Conversions between the SDK's message types and [`MessageRecord`].

use std::collections::{BTreeMap, HashMap};

use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{
    Message, MessageAttributeValue, MessageSystemAttributeNameForSends,
    MessageSystemAttributeValue, SendMessageBatchRequestEntry,
};
use base64::Engine as _;

use super::ClientError;
use crate::message::{AttributeValue, MessageRecord};

const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

pub(crate) fn record_from_sdk(message: Message) -> MessageRecord {
    let attributes: BTreeMap<String, String> = message
        .attributes
        .unwrap_or_default()
        .into_iter()
        .map(|(name, value)| (name.as_str().to_string(), value))
        .collect();
    let message_attributes = message
        .message_attributes
        .unwrap_or_default()
        .into_iter()
        .map(|(name, value)| (name, attribute_from_sdk(value)))
        .collect();
    MessageRecord::received(
        message.message_id,
        message.body.unwrap_or_default(),
        message_attributes,
        attributes,
        message.receipt_handle,
    )
}

fn attribute_from_sdk(value: MessageAttributeValue) -> AttributeValue {
    let value_text = match (&value.string_value, &value.binary_value) {
        (Some(text), _) => text.clone(),
        (None, Some(blob)) => BASE64.encode(blob.as_ref()),
        (None, None) => String::new(),
    };
    AttributeValue {
        data_type: value.data_type,
        value: value_text,
    }
}

pub(crate) fn attributes_to_sdk(
    attributes: &BTreeMap<String, AttributeValue>,
) -> Result<Option<std::collections::HashMap<String, MessageAttributeValue>>, ClientError> {
    if attributes.is_empty() {
        return Ok(None);
    }
    let mut out = std::collections::HashMap::with_capacity(attributes.len());
    for (name, attr) in attributes {
        let builder = MessageAttributeValue::builder().data_type(&attr.data_type);
        let builder = if attr.is_binary() {
            let bytes = BASE64.decode(attr.value.as_bytes()).map_err(|e| {
                ClientError::InvalidInput(format!(
                    "binary message attribute `{name}` is not valid base64: {e}"
                ))
            })?;
            builder.binary_value(Blob::new(bytes))
        } else {
            builder.string_value(&attr.value)
        };
        let value = builder
            .build()
            .map_err(|e| ClientError::InvalidInput(format!("message attribute `{name}`: {e}")))?;
        out.insert(name.clone(), value);
    }
    Ok(Some(out))
}

pub(crate) fn batch_entry(
    id: usize,
    record: &MessageRecord,
) -> Result<SendMessageBatchRequestEntry, ClientError> {
    SendMessageBatchRequestEntry::builder()
        .id(id.to_string())
        .message_body(&record.body)
        .set_message_attributes(attributes_to_sdk(&record.message_attributes)?)
        .set_message_group_id(record.group_id.clone())
        .set_message_deduplication_id(record.dedup_id.clone())
        .set_delay_seconds(record.delay_seconds)
        .set_message_system_attributes(trace_header_to_sdk(record.trace_header.as_deref())?)
        .build()
        .map_err(|e| ClientError::InvalidInput(e.to_string()))
}

/// The `AWSTraceHeader` system attribute, the only one a sender may set.
fn trace_header_to_sdk(
    header: Option<&str>,
) -> Result<
    Option<HashMap<MessageSystemAttributeNameForSends, MessageSystemAttributeValue>>,
    ClientError,
> {
    let Some(header) = header else {
        return Ok(None);
    };
    let value = MessageSystemAttributeValue::builder()
        .data_type("String")
        .string_value(header)
        .build()
        .map_err(|e| ClientError::InvalidInput(format!("trace header: {e}")))?;
    Ok(Some(HashMap::from([(
        MessageSystemAttributeNameForSends::AwsTraceHeader,
        value,
    )])))
}
