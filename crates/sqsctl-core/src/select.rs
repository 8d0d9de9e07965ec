//! Which messages move: `--grep` on the body (and on the inner message of an envelope), `--grep-v`
//! its inverse, `--attr NAME=VALUE` on message attributes, `--where` (a JMESPath expression over
//! the message record, with a JSON body parsed and an envelope decoded), a SentTimestamp window and
//! a list of message ids. All given criteria must hold. [`Selection`] is the serializable form
//! kept in the journal; [`Selector`] the compiled one.

use std::collections::HashSet;

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::message::MessageRecord;
use crate::message::envelope::{Described, unwrap};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grep: Option<String>,
    /// Messages whose body (or inner message) matches this are left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grep_v: Option<String>,
    /// `(name, value)` pairs; each must be present with that value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "where")]
    pub where_expr: Option<String>,
    /// Only messages sent before this time (epoch milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_before_ms: Option<u64>,
    /// Only messages sent after this time (epoch milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_after_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub message_ids: Vec<String>,
}

impl Selection {
    /// True when every message is selected.
    pub fn is_all(&self) -> bool {
        *self == Selection::default()
    }

    /// The criteria given, in the order the command line lists them, for messages and refusals.
    pub fn criteria(&self) -> Vec<Criterion<'_>> {
        let mut out = Vec::new();
        if let Some(grep) = &self.grep {
            out.push(Criterion::Grep(grep));
        }
        if let Some(grep_v) = &self.grep_v {
            out.push(Criterion::GrepV(grep_v));
        }
        for (name, value) in &self.attributes {
            out.push(Criterion::Attribute { name, value });
        }
        if let Some(expr) = &self.where_expr {
            out.push(Criterion::Where(expr));
        }
        if self.sent_before_ms.is_some() {
            out.push(Criterion::SentBefore);
        }
        if self.sent_after_ms.is_some() {
            out.push(Criterion::SentAfter);
        }
        if !self.message_ids.is_empty() {
            out.push(Criterion::MessageIds);
        }
        out
    }
}

/// One criterion of a [`Selection`], with what was given for it (a time window and a list of
/// ids only say that they are there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion<'a> {
    /// A pattern the body (or inner message) must match.
    Grep(&'a str),
    /// A pattern the body (or inner message) must not match.
    GrepV(&'a str),
    /// A message attribute that must have this value.
    Attribute { name: &'a str, value: &'a str },
    /// A JMESPath expression that must hold.
    Where(&'a str),
    /// Only messages sent before a time.
    SentBefore,
    /// Only messages sent after a time.
    SentAfter,
    /// Only the messages with the given ids.
    MessageIds,
}

/// A criterion that does not compile: which one, the text given, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("`{pattern}` is not a valid regular expression: {reason}")]
    Pattern {
        /// Whether it was the pattern to leave out ([`Criterion::GrepV`]) or to keep.
        inverted: bool,
        pattern: String,
        reason: String,
    },
    #[error("`{expr}` is not a valid JMESPath expression: {reason} (at character {at})")]
    Where {
        expr: String,
        reason: String,
        /// The 1-based character where parsing failed.
        at: usize,
    },
}

/// Parses `NAME=VALUE`.
pub fn parse_attribute_filter(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// A compiled [`Selection`].
pub struct Selector {
    grep: Option<regex::Regex>,
    grep_v: Option<regex::Regex>,
    attributes: Vec<(String, String)>,
    where_expr: Option<jmespath::Expression<'static>>,
    sent_before_ms: Option<u64>,
    sent_after_ms: Option<u64>,
    message_ids: HashSet<String>,
    where_failures: Mutex<WhereFailureLog>,
}

/// Messages `--where` could not be evaluated on (a function given a value of the wrong type, such
/// as `length(body.items)` on a body without `items`). They do not match, so they stay where they
/// are, and the run reports them: a typo must not pass for "no message matched".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WhereFailures {
    /// Distinct messages the expression failed on.
    pub messages: u64,
    /// The first error, as JMESPath words it.
    pub first_error: String,
}

#[derive(Default)]
struct WhereFailureLog {
    ids: HashSet<String>,
    anonymous: u64,
    first_error: Option<String>,
}

impl std::fmt::Debug for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selector").finish_non_exhaustive()
    }
}

impl Selector {
    pub fn compile(selection: &Selection) -> Result<Selector, SelectionError> {
        let regex = |inverted: bool, pattern: Option<&str>| {
            pattern
                .map(|pattern| {
                    regex::Regex::new(pattern).map_err(|e| SelectionError::Pattern {
                        inverted,
                        pattern: pattern.to_string(),
                        reason: e.to_string(),
                    })
                })
                .transpose()
        };
        let grep = regex(false, selection.grep.as_deref())?;
        let grep_v = regex(true, selection.grep_v.as_deref())?;
        let where_expr = selection
            .where_expr
            .as_deref()
            .map(|expr| {
                crate::expression::compile(expr).map_err(|e| SelectionError::Where {
                    expr: expr.to_string(),
                    reason: crate::text::jmespath_parse_reason(&e),
                    at: e.offset + 1,
                })
            })
            .transpose()?;
        Ok(Selector {
            grep,
            grep_v,
            attributes: selection.attributes.clone(),
            where_expr,
            sent_before_ms: selection.sent_before_ms,
            sent_after_ms: selection.sent_after_ms,
            message_ids: selection.message_ids.iter().cloned().collect(),
            where_failures: Mutex::default(),
        })
    }

    /// The message ids asked for, when the selection names them (lets the engine stop early).
    pub fn wanted_ids(&self) -> Option<usize> {
        (!self.message_ids.is_empty()).then_some(self.message_ids.len())
    }

    /// True when `--message-id` names this id.
    pub fn names_id(&self, id: &str) -> bool {
        self.message_ids.contains(id)
    }

    pub fn matches(&self, message: &MessageRecord) -> bool {
        if !self.message_ids.is_empty()
            && !message
                .message_id
                .as_ref()
                .is_some_and(|id| self.message_ids.contains(id))
        {
            return false;
        }
        if let Some(grep) = &self.grep
            && !body_matches(grep, message)
        {
            return false;
        }
        if let Some(grep_v) = &self.grep_v
            && body_matches(grep_v, message)
        {
            return false;
        }
        for (name, value) in &self.attributes {
            if message.message_attributes.get(name).map(|a| &a.value) != Some(value) {
                return false;
            }
        }
        if self.sent_before_ms.is_some() || self.sent_after_ms.is_some() {
            let Some(sent) = message.attribute_u64("SentTimestamp") else {
                return false;
            };
            if self.sent_before_ms.is_some_and(|t| sent >= t)
                || self.sent_after_ms.is_some_and(|t| sent <= t)
            {
                return false;
            }
        }
        if let Some(expr) = &self.where_expr {
            return match expr.search(record_for_query(message)) {
                Ok(result) => result.is_truthy(),
                Err(err) => {
                    self.note_where_failure(message, &err);
                    false
                }
            };
        }
        true
    }

    fn note_where_failure(&self, message: &MessageRecord, err: &jmespath::JmespathError) {
        let mut log = self.where_failures.lock();
        // A message read twice (a retry, a second pass) counts once.
        match &message.message_id {
            Some(id) => {
                log.ids.insert(id.clone());
            }
            None => log.anonymous += 1,
        }
        log.first_error.get_or_insert_with(|| {
            let reason = err.reason.to_string();
            reason
                .strip_prefix("Runtime error: ")
                .unwrap_or(&reason)
                .to_string()
        });
    }

    /// The messages `--where` failed on so far, if any.
    pub fn where_failures(&self) -> Option<WhereFailures> {
        let log = self.where_failures.lock();
        log.first_error.as_ref().map(|first| WhereFailures {
            messages: log.ids.len() as u64 + log.anonymous,
            first_error: first.clone(),
        })
    }
}

/// Whether a pattern matches the body as sent or, for an envelope, the inner message.
fn body_matches(pattern: &regex::Regex, message: &MessageRecord) -> bool {
    pattern.is_match(&message.body)
        || unwrap(message)
            .and_then(|unwrapped| unwrapped.inner_body)
            .is_some_and(|inner| pattern.is_match(&inner))
}

/// The message record as `--where` and `--count-by` see it: the JSON schema of
/// `receive` (the decoded `envelope` and inner `message` included), with a body that parses as
/// JSON replaced by its value, `age` (seconds since it was sent), and no receipt handle.
pub fn record_for_query(message: &MessageRecord) -> serde_json::Value {
    let mut value = serde_json::to_value(Described::of(message)).unwrap_or_default();
    if let Some(object) = value.as_object_mut() {
        object.remove("receipt_handle");
        if let Ok(parsed) = serde_json::from_str::<serde_json::Value>(&message.body) {
            object.insert("body".into(), parsed);
        }
        if let Some(sent) = message.attribute_u64("SentTimestamp") {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_millis() as u64;
            object.insert("age".into(), (now.saturating_sub(sent) / 1000).into());
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn message(body: &str) -> MessageRecord {
        let mut m = MessageRecord::with_body(body);
        m.message_id = Some("id-1".into());
        m.attributes
            .insert("SentTimestamp".into(), "1700000000000".into());
        m.message_attributes
            .insert("tenant".into(), AttributeValue::string("acme"));
        m
    }

    fn select(selection: Selection) -> Selector {
        Selector::compile(&selection).expect("compiles")
    }

    #[test]
    fn empty_selection_selects_everything() {
        assert!(Selection::default().is_all());
        assert!(select(Selection::default()).matches(&message("x")));
    }

    #[test]
    fn grep_and_attributes_must_all_hold() {
        let s = select(Selection {
            grep: Some("^order-\\d+$".into()),
            attributes: vec![("tenant".into(), "acme".into())],
            ..Selection::default()
        });
        assert!(s.matches(&message("order-42")));
        assert!(!s.matches(&message("refund-42")));
        let mut other = message("order-42");
        other
            .message_attributes
            .insert("tenant".into(), AttributeValue::string("globex"));
        assert!(!s.matches(&other));
    }

    #[test]
    fn where_sees_a_parsed_json_body_and_the_record() {
        let s = select(Selection {
            where_expr: Some(
                "body.amount > `100` && message_attributes.tenant.value == 'acme'".into(),
            ),
            ..Selection::default()
        });
        assert!(s.matches(&message(r#"{"amount": 250}"#)));
        assert!(!s.matches(&message(r#"{"amount": 5}"#)));
        assert!(!s.matches(&message("not json")));
        let s = select(Selection {
            where_expr: Some("contains(body, 'boom')".into()),
            ..Selection::default()
        });
        assert!(s.matches(&message("it went boom")));
    }

    #[test]
    fn time_window_and_ids() {
        let s = select(Selection {
            sent_before_ms: Some(1_700_000_000_001),
            sent_after_ms: Some(1_699_999_999_999),
            ..Selection::default()
        });
        assert!(s.matches(&message("x")));
        let s = select(Selection {
            sent_before_ms: Some(1_700_000_000_000),
            ..Selection::default()
        });
        assert!(!s.matches(&message("x")), "strictly older");
        let s = select(Selection {
            message_ids: vec!["id-2".into()],
            ..Selection::default()
        });
        assert!(!s.matches(&message("x")));
        assert_eq!(s.wanted_ids(), Some(1));
    }

    #[test]
    fn where_failures_do_not_match_and_are_counted_once_per_message() {
        let s = select(Selection {
            where_expr: Some("length(body.items) > `1`".into()),
            ..Selection::default()
        });
        assert!(s.matches(&message(r#"{"items": [1, 2]}"#)));
        assert_eq!(s.where_failures(), None);
        let broken = message(r#"{"other": 1}"#);
        assert!(!s.matches(&broken));
        assert!(!s.matches(&broken));
        let failures = s.where_failures().expect("a failure is kept");
        assert_eq!(failures.messages, 1);
        assert!(
            failures.first_error.contains("expects type"),
            "{}",
            failures.first_error
        );
    }

    const SNS: &str = r#"{"Type":"Notification","MessageId":"m","TopicArn":"arn:aws:sns:r:1:orders","Message":"{\"order_id\":7}","Timestamp":"t"}"#;

    #[test]
    fn where_and_grep_see_the_inner_message_of_an_envelope() {
        let s = select(Selection {
            where_expr: Some("message.order_id == `7` && envelope.topic == 'orders'".into()),
            ..Selection::default()
        });
        assert!(s.matches(&message(SNS)));
        assert!(!s.matches(&message(r#"{"order_id":7}"#)));
        let s = select(Selection {
            grep: Some(r#""order_id":7"#.into()),
            ..Selection::default()
        });
        assert!(s.matches(&message(SNS)), "the inner message, unescaped");
        assert!(s.matches(&message(r#"{"order_id":7}"#)));
    }

    #[test]
    fn grep_v_leaves_out_what_matches() {
        let s = select(Selection {
            grep_v: Some("malformed".into()),
            ..Selection::default()
        });
        assert!(s.matches(&message("timeout")));
        assert!(!s.matches(&message("malformed input")));
        assert_eq!(
            Selection {
                grep_v: Some("x".into()),
                ..Selection::default()
            }
            .criteria(),
            [Criterion::GrepV("x")]
        );
        let old_journal: Selection = serde_json::from_str(r#"{"grep":"a"}"#).unwrap();
        assert_eq!(old_journal.grep_v, None);
        assert!(
            !serde_json::to_string(&old_journal)
                .unwrap()
                .contains("grep_v")
        );
    }

    #[test]
    fn bad_patterns_are_reported() {
        let err = Selector::compile(&Selection {
            grep: Some("(".into()),
            ..Selection::default()
        })
        .unwrap_err();
        assert!(
            matches!(&err, SelectionError::Pattern { inverted: false, pattern, .. } if pattern == "("),
            "{err}"
        );
        let err = Selector::compile(&Selection {
            where_expr: Some("body.[".into()),
            ..Selection::default()
        })
        .unwrap_err();
        assert!(matches!(err, SelectionError::Where { at: 7, .. }), "{err}");
        assert!(parse_attribute_filter("novalue").is_err());
        assert_eq!(
            parse_attribute_filter("a=b=c").unwrap(),
            ("a".to_string(), "b=c".to_string())
        );
    }
}
