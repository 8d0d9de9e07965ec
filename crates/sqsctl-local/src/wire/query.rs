//! The Query protocol codec (API version 2012-11-05), which older SDKs speak: the envelopes of
//! answers and errors (`<{Action}Response>`, `<ErrorResponse>`) in the XML those SDKs read. Requests
//! are read by [`crate::wire::query_decode`] and answers' contents written by [`crate::wire::query_encode`].
//!
//! The codec knows names only (from [`crate::wire::query_shapes`]); what an action does is decided by the
//! one action table in [`crate::api`], for both protocols.

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::wire::query_encode::{self, close, open, text_element};
use crate::wire::query_shapes::{Member, Shape};

pub const XML_NAMESPACE: &str = "http://queue.amazonaws.com/doc/2012-11-05/";
pub const XML_CONTENT_TYPE: &str = "text/xml";
/// The content type of Query-protocol answers given in JSON.
pub const JSON_CONTENT_TYPE: &str = "application/json";

const DECLARATION: &str = r#"<?xml version="1.0" encoding="UTF-8"?>"#;

fn open_root(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(DECLARATION.as_bytes());
    out.push(b'<');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(br#" xmlns=""#);
    out.extend_from_slice(XML_NAMESPACE.as_bytes());
    out.extend_from_slice(br#"">"#);
}

/// `<{Action}Response><{Action}Result>...</{Action}Result><ResponseMetadata>...`; actions without
/// output have no Result element.
pub fn encode_reply<T: Serialize + ?Sized>(
    action: &str,
    output: &'static [Member],
    value: &T,
    request_id: &str,
) -> SqsResult<Vec<u8>> {
    let mut out = Vec::with_capacity(512);
    let response = [action, "Response"].concat();
    open_root(&mut out, &response);
    if !output.is_empty() {
        let result = [action, "Result"].concat();
        let start = out.len();
        query_encode::write(&mut out, &result, &Shape::Struct(output), value)
            .map_err(|_| SqsError::internal())?;
        // An empty result is one empty-element tag on SQS (`<ReceiveMessageResult/>`).
        if out[start..] == *format!("<{result}></{result}>").as_bytes() {
            out.truncate(start);
            out.extend_from_slice(format!("<{result}/>").as_bytes());
        }
    }
    open(&mut out, "ResponseMetadata");
    text_element(&mut out, "RequestId", request_id);
    close(&mut out, "ResponseMetadata");
    close(&mut out, &response);
    Ok(out)
}

/// An error's message in the Query protocol, where SQS words a missing queue its own way.
fn query_message(err: &SqsError) -> &str {
    match err.kind {
        ErrorKind::QueueDoesNotExist if err.message == SqsError::queue_does_not_exist().message => {
            "The specified queue does not exist for this wsdl version."
        }
        _ => &err.message,
    }
}

/// `<ErrorResponse><Error><Type/><Code/><Message/><Detail/></Error><RequestId/></ErrorResponse>`.
pub fn encode_error(err: &SqsError, request_id: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    open_root(&mut out, "ErrorResponse");
    open(&mut out, "Error");
    let fault = if err.kind.sender_fault() {
        "Sender"
    } else {
        "Receiver"
    };
    text_element(&mut out, "Type", fault);
    text_element(&mut out, "Code", err.kind.query_code());
    text_element(&mut out, "Message", query_message(err));
    out.extend_from_slice(b"<Detail/>");
    close(&mut out, "Error");
    text_element(&mut out, "RequestId", request_id);
    close(&mut out, "ErrorResponse");
    out
}

/// The JSON form of a Query answer, which SQS gives a GET that accepts `application/json`:
/// `{"{Action}Response": {"{Action}Result": {...}, "ResponseMetadata": {"RequestId": ...}}}`.
/// The result is the AWS JSON 1.0 answer under the names SQS was recorded using there: the list
/// of received messages is `messages`, and queue attributes are a list of `Name`/`Value` pairs,
/// as in the XML.
pub fn encode_json_reply<T: Serialize + ?Sized>(
    action: &str,
    output: &'static [Member],
    value: &T,
    request_id: &str,
) -> SqsResult<Vec<u8>> {
    let mut response = Map::new();
    if !output.is_empty() {
        let mut result = serde_json::to_value(value).map_err(|_| SqsError::internal())?;
        if let Value::Object(members) = &mut result {
            if let Some(messages) = members.remove("Messages") {
                members.insert("messages".into(), messages);
            }
            if let (Some(Value::Object(attributes)), "GetQueueAttributes") =
                (members.remove("Attributes"), action)
            {
                let pairs = attributes
                    .into_iter()
                    .map(|(name, value)| json!({"Name": name, "Value": value}))
                    .collect();
                members.insert("Attributes".into(), Value::Array(pairs));
            }
        }
        response.insert(format!("{action}Result"), result);
    }
    response.insert(
        "ResponseMetadata".into(),
        json!({ "RequestId": request_id }),
    );
    let mut root = Map::new();
    root.insert(format!("{action}Response"), Value::Object(response));
    serde_json::to_vec(&root).map_err(|_| SqsError::internal())
}

/// The JSON form of `<ErrorResponse>`: `{"Error": {"Type", "Code", "Message"}, "RequestId"}`.
pub fn encode_json_error(err: &SqsError, request_id: &str) -> Vec<u8> {
    let fault = if err.kind.sender_fault() {
        "Sender"
    } else {
        "Receiver"
    };
    json!({
        "Error": {"Type": fault, "Code": err.kind.query_code(), "Message": query_message(err)},
        "RequestId": request_id,
    })
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::error::ErrorKind;
    use crate::wire::query_decode::{Params, decode};
    use crate::wire::query_shapes;

    fn decoded(action: &str, form: &str) -> Value {
        let shapes = query_shapes::action(action).unwrap_or_else(|| unreachable!());
        Params::parse(None, form.as_bytes())
            .and_then(|params| decode::<Value>(shapes.input, params))
            .unwrap_or_else(|e| {
                panic!("{action}: {e}");
            })
    }

    #[test]
    fn flattened_maps_lists_and_nested_attribute_values() {
        let value = decoded(
            "SendMessageBatch",
            "QueueUrl=u&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=two\
             &SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=one%20%26\
             &SendMessageBatchRequestEntry.1.DelaySeconds=5\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=k\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=Binary\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.BinaryValue=AAE%3D",
        );
        assert_eq!(
            value,
            serde_json::json!({
                "QueueUrl": "u",
                "Entries": [
                    {"Id": "a", "MessageBody": "one &", "DelaySeconds": 5,
                     "MessageAttributes": {"k": {"DataType": "Binary", "BinaryValue": "AAE="}}},
                    {"Id": "b", "MessageBody": "two"},
                ]
            })
        );
    }

    #[test]
    fn member_lists_and_numbers_are_read() {
        let value = decoded(
            "GetQueueAttributes",
            "QueueUrl=u&AttributeName.member.1=All&AttributeName.member.2=QueueArn",
        );
        assert_eq!(
            value["AttributeNames"],
            serde_json::json!(["All", "QueueArn"])
        );
        let shapes = query_shapes::action("ReceiveMessage").unwrap_or_else(|| unreachable!());
        let err = Params::parse(None, b"QueueUrl=u&WaitTimeSeconds=soon")
            .and_then(|params| decode::<Value>(shapes.input, params));
        assert_eq!(
            err.map_err(|e| e.kind),
            Err(ErrorKind::InvalidParameterValue)
        );
    }

    #[test]
    fn text_keeps_carriage_returns_and_drops_what_xml_cannot_carry() {
        let escaped = |text: &str| {
            let mut out = Vec::new();
            query_encode::push_text(&mut out, text);
            String::from_utf8(out).unwrap_or_default()
        };
        assert_eq!(escaped("a\r\n<b>&"), "a&#xD;\n&lt;b&gt;&amp;");
        assert_eq!(escaped("nul\u{0}é\u{FFFE}"), "nul\u{FFFD}é\u{FFFD}");
        assert_eq!(
            escaped("\t\u{1F}\u{7F}\u{F000}\u{FFFD}\u{FFFF}\u{1F600}"),
            "\t\u{FFFD}\u{7F}\u{F000}\u{FFFD}\u{FFFD}\u{1F600}"
        );
    }

    #[test]
    fn replies_and_errors_have_the_2012_11_05_shapes() {
        let shapes = query_shapes::action("GetQueueAttributes").unwrap_or_else(|| unreachable!());
        let xml = encode_reply(
            "GetQueueAttributes",
            shapes.output,
            &serde_json::json!({"Attributes": {"DelaySeconds": "0"}}),
            "rid",
        )
        .unwrap_or_default();
        let xml = String::from_utf8(xml).unwrap_or_default();
        assert!(xml.contains("<GetQueueAttributesResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><GetQueueAttributesResult><Attribute><Name>DelaySeconds</Name><Value>0</Value></Attribute></GetQueueAttributesResult><ResponseMetadata><RequestId>rid</RequestId></ResponseMetadata></GetQueueAttributesResponse>"), "{xml}");
        let err = String::from_utf8(encode_error(&SqsError::queue_does_not_exist(), "rid"))
            .unwrap_or_default();
        assert!(err.contains("<Error><Type>Sender</Type><Code>AWS.SimpleQueueService.NonExistentQueue</Code><Message>The specified queue does not exist for this wsdl version.</Message><Detail/></Error><RequestId>rid</RequestId></ErrorResponse>"), "{err}");
    }
}
