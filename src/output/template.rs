//! `--format TEMPLATE`: one line of text per message, kcat-style. The mini-language:
//!
//! | in the template | becomes |
//! | --- | --- |
//! | `{body}` | the message body |
//! | `{id}` | the message id |
//! | `{group}` | the message group id (empty on a standard queue without one) |
//! | `{attr.NAME}` | the value of the message attribute NAME (empty when absent; base64 for binary) |
//! | `{sent}` | when it was sent, RFC 3339 in UTC to the millisecond |
//! | `{age}` | how long ago it was sent, in the largest units (`1h2m3s`) |
//! | `{receives}` | `ApproximateReceiveCount` |
//! | `{message}` | the inner message of an SNS notification or EventBridge event (empty otherwise) |
//! | `{envelope}` | an envelope's marker, `[sns orders]` (empty for a plain body) |
//! | `\t`, `\n`, `\\` | a tab, a line break, a backslash |
//! | `{{`, `}}` | a literal brace |
//!
//! Anything else in braces, a brace left open, and any other backslash escape are errors, reported
//! when the template is parsed (a usage error, before anything is read). Each record ends with a
//! line break. Values come from the message and are untrusted: [`Template::render`] passes each one
//! through the caller's escaping (the printer's, which escapes control characters on a terminal and
//! leaves text raw in a pipe); the template's own text is the user's and is kept as written.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::message::MessageRecord;
use crate::message::envelope::unwrap;

/// A parsed `--format` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Body,
    Id,
    Group,
    Attribute(String),
    Sent,
    Age,
    Receives,
    Message,
    EnvelopeMarker,
}

/// The placeholders, as the error for an unknown one lists them.
const PLACEHOLDERS: &str =
    "{body}, {id}, {group}, {attr.NAME}, {sent}, {age}, {receives}, {message}, {envelope}";

impl Template {
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, 't')) => literal.push('\t'),
                    Some((_, 'n')) => literal.push('\n'),
                    Some((_, '\\')) => literal.push('\\'),
                    Some((_, other)) => {
                        return Err(format!(
                            "`\\{other}` at character {} is not an escape (\\t, \\n and \\\\ are)",
                            at + 1
                        ));
                    }
                    None => return Err("the template ends with a lone `\\`".into()),
                },
                '{' if chars.peek().is_some_and(|&(_, next)| next == '{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek().is_some_and(|&(_, next)| next == '}') => {
                    chars.next();
                    literal.push('}');
                }
                '}' => {
                    return Err(format!(
                        "`}}` at character {} closes nothing (write `}}}}` for a brace)",
                        at + 1
                    ));
                }
                '{' => {
                    let mut name = String::new();
                    let mut closed = false;
                    for (_, c) in chars.by_ref() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        name.push(c);
                    }
                    if !closed {
                        return Err(format!(
                            "`{{` at character {} is not closed (write `{{{{` for a brace)",
                            at + 1
                        ));
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut literal)));
                    }
                    parts.push(placeholder(&name)?);
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(Template { parts })
    }

    /// The message as the template says, with its line break; `escape` is applied to every value
    /// taken from the message, never to the template's own text.
    pub fn render(
        &self,
        message: &MessageRecord,
        now: SystemTime,
        escape: impl Fn(&str) -> String,
    ) -> String {
        let mut out = String::new();
        for part in &self.parts {
            let value: String = match part {
                Part::Text(text) => {
                    out.push_str(text);
                    continue;
                }
                Part::Body => message.body.clone(),
                Part::Id => message.message_id.clone().unwrap_or_default(),
                Part::Group => message.effective_group_id().unwrap_or_default().to_string(),
                Part::Attribute(name) => message
                    .message_attributes
                    .get(name)
                    .map(|a| a.value.clone())
                    .unwrap_or_default(),
                Part::Sent => sent(message)
                    .map(|at| humantime::format_rfc3339_millis(at).to_string())
                    .unwrap_or_default(),
                Part::Age => sent(message)
                    .map(|at| {
                        let age = now.duration_since(at).unwrap_or(Duration::ZERO);
                        crate::text::format_seconds(age.as_secs())
                    })
                    .unwrap_or_default(),
                Part::Receives => message
                    .attributes
                    .get("ApproximateReceiveCount")
                    .cloned()
                    .unwrap_or_default(),
                Part::Message => unwrap(message)
                    .and_then(|u| u.inner_body)
                    .unwrap_or_default(),
                Part::EnvelopeMarker => unwrap(message).map(|u| u.marker()).unwrap_or_default(),
            };
            out.push_str(&escape(&value));
        }
        out.push('\n');
        out
    }
}

fn sent(message: &MessageRecord) -> Option<SystemTime> {
    message
        .attribute_u64("SentTimestamp")
        .map(|ms| UNIX_EPOCH + Duration::from_millis(ms))
}

fn placeholder(name: &str) -> Result<Part, String> {
    Ok(match name {
        "body" => Part::Body,
        "id" => Part::Id,
        "group" => Part::Group,
        "sent" => Part::Sent,
        "age" => Part::Age,
        "receives" => Part::Receives,
        "message" => Part::Message,
        "envelope" => Part::EnvelopeMarker,
        _ => match name.strip_prefix("attr.") {
            Some(attribute) if !attribute.is_empty() => Part::Attribute(attribute.to_string()),
            _ => {
                return Err(format!(
                    "`{{{name}}}` is not a placeholder (the placeholders: {PLACEHOLDERS})"
                ));
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn message() -> MessageRecord {
        let mut m = MessageRecord::with_body("hello\tworld");
        m.message_id = Some("m-1".into());
        m.attributes
            .insert("SentTimestamp".into(), "1700000000123".into());
        m.attributes
            .insert("ApproximateReceiveCount".into(), "3".into());
        m.attributes.insert("MessageGroupId".into(), "g-7".into());
        m.message_attributes
            .insert("tenant".into(), AttributeValue::string("acme"));
        m
    }

    fn render(template: &str) -> String {
        let now = UNIX_EPOCH + Duration::from_millis(1_700_000_003_723);
        Template::parse(template)
            .expect("parses")
            .render(&message(), now, str::to_string)
    }

    #[test]
    fn every_placeholder_renders() {
        assert_eq!(
            render("{id} {group} {attr.tenant} {receives} {sent} {age}"),
            "m-1 g-7 acme 3 2023-11-14T22:13:20.123Z 3s\n"
        );
        assert_eq!(render("{body}"), "hello\tworld\n");
    }

    #[test]
    fn escapes_and_literal_braces() {
        assert_eq!(render(r"{id}\t{receives}\n--"), "m-1\t3\n--\n");
        assert_eq!(render(r"{{id}} \\ {{"), "{id} \\ {\n");
        assert_eq!(render("plain"), "plain\n");
    }

    #[test]
    fn missing_values_are_empty() {
        assert_eq!(render("[{attr.absent}]"), "[]\n");
        let bare = MessageRecord::with_body("x");
        let out = Template::parse("[{id}|{sent}|{age}|{receives}|{group}]")
            .expect("parses")
            .render(&bare, SystemTime::now(), str::to_string);
        assert_eq!(out, "[||||]\n");
    }

    #[test]
    fn values_are_escaped_but_the_template_is_not() {
        let out = Template::parse(r"{body}\t!").expect("parses").render(
            &message(),
            SystemTime::now(),
            |v| crate::output::sanitize::for_terminal(v).into_owned(),
        );
        assert_eq!(out, "hello\\tworld\t!\n");
    }

    #[test]
    fn mistakes_are_errors_that_say_where() {
        let err = Template::parse("{bodyy}").unwrap_err();
        assert!(err.contains("`{bodyy}` is not a placeholder"), "{err}");
        assert!(err.contains("{attr.NAME}"), "{err}");
        assert!(Template::parse("{attr.}").is_err());
        let err = Template::parse("ab{body").unwrap_err();
        assert!(err.contains("character 3"), "{err}");
        assert!(Template::parse("a}b").is_err());
        assert!(
            Template::parse(r"\x")
                .unwrap_err()
                .contains("not an escape")
        );
        assert!(Template::parse("tail\\").is_err());
        assert_eq!(Template::parse("").expect("empty").parts, vec![]);
    }

    proptest::proptest! {
        #[test]
        fn any_template_parses_or_is_refused_without_a_panic(text in "\\PC*") {
            let _ = Template::parse(&text);
        }

        #[test]
        fn text_without_braces_or_backslashes_is_kept_as_written(text in "[^{}\\\\]*") {
            let out = Template::parse(&text)
                .expect("plain text parses")
                .render(&message(), SystemTime::now(), str::to_string);
            proptest::prop_assert_eq!(out, format!("{text}\n"));
        }
    }
}
