//! The Query protocol codec (API version 2012-11-05), which older SDKs speak: form parameters
//! (`Action=SendMessage&MessageAttribute.1.Name=...`, in the body or the URL) decoded into the same
//! JSON values the AWS JSON 1.0 path parses, and answers and errors encoded as the XML those SDKs
//! read.
//!
//! The codec knows names only (from [`super::query_shapes`]); what an action does is decided by the
//! one action table in [`super::protocol`], for both protocols.

use std::borrow::Cow;
use std::collections::BTreeMap;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use serde_json::{Map, Value};

use super::error::{ErrorKind, SqsError, SqsResult, excerpt};
use super::query_shapes::{Member, Shape};

pub const XML_NAMESPACE: &str = "http://queue.amazonaws.com/doc/2012-11-05/";
pub const XML_CONTENT_TYPE: &str = "text/xml";

/// Form parameters as a tree on the dots of their names: `Attribute.1.Name=x` is
/// `Attribute` → `1` → `Name` = `x`.
#[derive(Debug, Default)]
pub struct Params {
    value: Option<String>,
    children: BTreeMap<String, Params>,
}

impl Params {
    /// Reads the parameters of a URL query string and a form-encoded body, the body's last.
    pub fn parse(query: Option<&str>, body: &[u8]) -> Params {
        let mut root = Params::default();
        let pairs = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .chain(form_urlencoded::parse(body));
        for (name, value) in pairs {
            let mut node = &mut root;
            for part in name.split('.') {
                node = node.children.entry(part.to_string()).or_default();
            }
            node.value = Some(value.into_owned());
        }
        root
    }

    /// The value of a top-level parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.children.get(name).and_then(|p| p.value.as_deref())
    }

    pub fn set(&mut self, name: &str, value: String) {
        self.children.entry(name.to_string()).or_default().value = Some(value);
    }

    /// The numbered children (`1`, `2`, ...; also under `member`), in the order of their numbers.
    fn indexed(&self) -> Vec<&Params> {
        fn numbered(node: &Params) -> Vec<(u64, &Params)> {
            node.children
                .iter()
                .filter_map(|(key, child)| key.parse::<u64>().ok().map(|i| (i, child)))
                .collect()
        }
        let mut items = numbered(self);
        if let Some(member) = self.children.get("member") {
            items.extend(numbered(member));
        }
        items.sort_by_key(|(index, _)| *index);
        items.into_iter().map(|(_, child)| child).collect()
    }
}

/// Decodes the members of a structure into the JSON object the AWS JSON 1.0 path would have read.
pub fn decode(members: &[Member], params: &Params) -> SqsResult<Value> {
    let mut out = Map::new();
    for member in members {
        if let Some(node) = params.children.get(member.query)
            && let Some(value) = decode_value(member.query, &member.shape, node)?
        {
            out.insert(member.json.to_string(), value);
        }
    }
    Ok(Value::Object(out))
}

fn decode_value(name: &str, shape: &Shape, node: &Params) -> SqsResult<Option<Value>> {
    let value = match shape {
        Shape::Str => node.value.clone().map(Value::String),
        Shape::Int => match node.value.as_deref() {
            None => None,
            Some(text) => Some(Value::from(text.trim().parse::<i64>().map_err(|_| {
                SqsError::invalid_value(name, excerpt(text), "The value must be an integer.")
            })?)),
        },
        Shape::Bool => node
            .value
            .as_deref()
            .map(|text| Value::Bool(text.eq_ignore_ascii_case("true"))),
        Shape::Struct(members) => Some(decode(members, node)?),
        Shape::List(of) => {
            let mut items = Vec::new();
            for item in node.indexed() {
                if let Some(value) = decode_value(name, of, item)? {
                    items.push(value);
                }
            }
            Some(Value::Array(items))
        }
        Shape::Map { key, value, of } => {
            let mut map = Map::new();
            for entry in node.indexed() {
                let Some(entry_key) = entry.children.get(*key).and_then(|k| k.value.clone()) else {
                    return Err(SqsError::missing(&format!("{name}.N.{key}")));
                };
                let entry_value = match entry.children.get(*value) {
                    Some(v) => decode_value(name, of, v)?,
                    None => None,
                };
                map.insert(entry_key, entry_value.unwrap_or(Value::Null));
            }
            Some(Value::Object(map))
        }
    };
    Ok(value)
}

/// Escapes text content: markup characters as entities, carriage returns as `&#xD;` (an XML
/// parser turns a literal one into a line feed, which would change a body and its MD5), and
/// characters XML 1.0 cannot carry as U+FFFD.
fn escape_text(text: &str) -> Cow<'_, str> {
    let plain = |c: char| matches!(c, '\t' | '\n' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..);
    if text.chars().all(plain) {
        return quick_xml::escape::partial_escape(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\r' => out.push_str("&#xD;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if plain(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    Cow::Owned(out)
}

type Xml = Writer<Vec<u8>>;
type XmlResult = std::io::Result<()>;

fn start(xml: &mut Xml, name: &str) -> XmlResult {
    xml.write_event(Event::Start(BytesStart::new(name)))
}

fn end(xml: &mut Xml, name: &str) -> XmlResult {
    xml.write_event(Event::End(BytesEnd::new(name)))
}

fn text_element(xml: &mut Xml, name: &str, text: &str) -> XmlResult {
    start(xml, name)?;
    xml.write_event(Event::Text(BytesText::from_escaped(escape_text(text))))?;
    end(xml, name)
}

fn scalar_text(value: &Value) -> Option<Cow<'_, str>> {
    match value {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

fn encode_members(xml: &mut Xml, members: &[Member], value: &Value) -> XmlResult {
    let Value::Object(object) = value else {
        return Ok(());
    };
    for member in members {
        if let Some(value) = object.get(member.json) {
            encode_value(xml, member.query, &member.shape, value)?;
        }
    }
    Ok(())
}

fn encode_value(xml: &mut Xml, name: &str, shape: &Shape, value: &Value) -> XmlResult {
    match (shape, value) {
        (Shape::Struct(members), _) => {
            start(xml, name)?;
            encode_members(xml, members, value)?;
            end(xml, name)
        }
        (Shape::List(of), Value::Array(items)) => {
            for item in items {
                encode_value(xml, name, of, item)?;
            }
            Ok(())
        }
        (Shape::Map { key, value, of }, Value::Object(entries)) => {
            for (entry_key, entry_value) in entries {
                start(xml, name)?;
                text_element(xml, key, entry_key)?;
                encode_value(xml, value, of, entry_value)?;
                end(xml, name)?;
            }
            Ok(())
        }
        (_, value) => match scalar_text(value) {
            // Batch entries carry the error's JSON shape name; Query clients expect its Query code.
            Some(text) if name == "Code" => text_element(
                xml,
                name,
                ErrorKind::query_code_of_shape(&text).unwrap_or(&text),
            ),
            Some(text) => text_element(xml, name, &text),
            None => Ok(()),
        },
    }
}

fn declaration(xml: &mut Xml) -> XmlResult {
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
}

fn response_metadata(xml: &mut Xml, request_id: &str) -> XmlResult {
    start(xml, "ResponseMetadata")?;
    text_element(xml, "RequestId", request_id)?;
    end(xml, "ResponseMetadata")
}

/// `<{Action}Response><{Action}Result>...</{Action}Result><ResponseMetadata>...`; actions without
/// output have no Result element.
pub fn encode_reply(
    action: &str,
    output: &[Member],
    value: &Value,
    request_id: &str,
) -> SqsResult<Vec<u8>> {
    let write = || -> std::io::Result<Vec<u8>> {
        let mut xml = Writer::new(Vec::with_capacity(512));
        declaration(&mut xml)?;
        let response = format!("{action}Response");
        xml.write_event(Event::Start(
            BytesStart::new(response.as_str()).with_attributes([("xmlns", XML_NAMESPACE)]),
        ))?;
        if !output.is_empty() {
            let result = format!("{action}Result");
            start(&mut xml, &result)?;
            encode_members(&mut xml, output, value)?;
            end(&mut xml, &result)?;
        }
        response_metadata(&mut xml, request_id)?;
        end(&mut xml, &response)?;
        Ok(xml.into_inner())
    };
    write().map_err(|_| SqsError::internal())
}

/// `<ErrorResponse><Error><Type/><Code/><Message/><Detail/></Error><RequestId/></ErrorResponse>`.
pub fn encode_error(err: &SqsError, request_id: &str) -> Vec<u8> {
    let write = || -> std::io::Result<Vec<u8>> {
        let mut xml = Writer::new(Vec::with_capacity(512));
        declaration(&mut xml)?;
        xml.write_event(Event::Start(
            BytesStart::new("ErrorResponse").with_attributes([("xmlns", XML_NAMESPACE)]),
        ))?;
        start(&mut xml, "Error")?;
        let fault = if err.kind.sender_fault() {
            "Sender"
        } else {
            "Receiver"
        };
        text_element(&mut xml, "Type", fault)?;
        text_element(&mut xml, "Code", err.kind.query_code())?;
        text_element(&mut xml, "Message", &err.message)?;
        xml.write_event(Event::Empty(BytesStart::new("Detail")))?;
        end(&mut xml, "Error")?;
        text_element(&mut xml, "RequestId", request_id)?;
        end(&mut xml, "ErrorResponse")?;
        Ok(xml.into_inner())
    };
    write().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query_shapes;

    fn decoded(action: &str, form: &str) -> Value {
        let shapes = query_shapes::action(action).unwrap_or_else(|| unreachable!());
        decode(shapes.input, &Params::parse(None, form.as_bytes())).unwrap_or_else(|e| {
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
        let err = decode(
            shapes.input,
            &Params::parse(None, b"QueueUrl=u&WaitTimeSeconds=soon"),
        );
        assert_eq!(
            err.map_err(|e| e.kind),
            Err(ErrorKind::InvalidParameterValue)
        );
    }

    #[test]
    fn text_keeps_carriage_returns_and_drops_what_xml_cannot_carry() {
        assert_eq!(escape_text("a\r\n<b>&"), "a&#xD;\n&lt;b&gt;&amp;");
        assert_eq!(escape_text("nul\u{0}"), "nul\u{FFFD}");
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
        assert!(err.contains("<Error><Type>Sender</Type><Code>AWS.SimpleQueueService.NonExistentQueue</Code><Message>The specified queue does not exist.</Message><Detail/></Error><RequestId>rid</RequestId></ErrorResponse>"), "{err}");
    }
}
