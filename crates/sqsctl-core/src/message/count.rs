//! `--count-by`: how many messages hold each value of one or more JMESPath expressions, over the
//! record `--where` sees ([`record_for_query`]: attributes, a parsed body, an envelope's inner
//! `message` and `envelope`, `age` in seconds). The caller reads the messages and hands each to
//! [`Counter::add`]; [`Counter::counts`] gives the values, most frequent first.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::MessageRecord;
use crate::select::record_for_query;

/// The compiled expressions and what they counted so far (a clone counts on its own).
#[derive(Clone)]
pub struct Counter {
    keys: Vec<Key>,
    counted: u64,
}

#[derive(Clone)]
struct Key {
    text: String,
    expression: Arc<jmespath::Expression<'static>>,
    /// By the value's JSON text: the value and how many messages gave it.
    values: HashMap<String, (Value, u64)>,
    failed: u64,
    /// For `attributes.NAME` that found nothing where a message has a message attribute NAME: the
    /// expression that reads it.
    instead: Option<String>,
}

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Counter")
            .field("counted", &self.counted)
            .finish_non_exhaustive()
    }
}

/// The counts of one expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyCounts {
    /// The expression as given.
    pub expr: String,
    /// Each value with its count, most frequent first (ties in the order of the values' JSON).
    pub values: Vec<ValueCount>,
    /// Messages the expression could not be evaluated on (a function given the wrong type).
    #[serde(skip_serializing_if = "is_zero")]
    pub failed: u64,
    /// When the expression was null in every message and another one reads what it probably
    /// meant (`attributes.error` for the message attribute `error`): that expression.
    #[serde(skip)]
    pub instead: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An expression to count by that is not valid JMESPath.
#[derive(Debug, thiserror::Error)]
#[error("`{text}` is not a valid JMESPath expression: {reason} (at character {at})")]
pub struct BadExpression {
    pub text: String,
    pub reason: String,
    /// The 1-based character where parsing failed.
    pub at: usize,
}

/// One value and how many messages gave it (`null` where the expression found nothing).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueCount {
    pub value: Value,
    pub count: u64,
}

impl Counter {
    /// Compiles the expressions; an invalid one is an error that names it.
    pub fn compile(expressions: &[String]) -> Result<Counter, BadExpression> {
        let keys = expressions
            .iter()
            .map(|text| {
                let expression = crate::expression::compile(text).map_err(|e| BadExpression {
                    text: text.clone(),
                    reason: crate::text::jmespath_parse_reason(&e),
                    at: e.offset + 1,
                })?;
                Ok(Key {
                    text: text.clone(),
                    expression: Arc::new(expression),
                    values: HashMap::new(),
                    failed: 0,
                    instead: None,
                })
            })
            .collect::<Result<Vec<_>, BadExpression>>()?;
        Ok(Counter { keys, counted: 0 })
    }

    pub fn add(&mut self, message: &MessageRecord) {
        self.counted += 1;
        let record = record_for_query(message);
        for key in &mut self.keys {
            match key.expression.search(record.clone()) {
                Ok(result) => {
                    let value = serde_json::to_value(&*result).unwrap_or(Value::Null);
                    if value.is_null() && key.instead.is_none() {
                        key.instead = message_attribute_meant(&key.text, message);
                    }
                    let text = value.to_string();
                    key.values.entry(text).or_insert((value, 0)).1 += 1;
                }
                Err(_) => key.failed += 1,
            }
        }
    }

    /// How many messages were counted.
    pub fn counted(&self) -> u64 {
        self.counted
    }

    /// Each expression's values, most frequent first.
    pub fn counts(&self) -> Vec<KeyCounts> {
        self.keys
            .iter()
            .map(|key| {
                let mut values: Vec<(&String, &(Value, u64))> = key.values.iter().collect();
                values.sort_by(|a, b| b.1.1.cmp(&a.1.1).then_with(|| a.0.cmp(b.0)));
                let found_nothing = values.iter().all(|(_, (value, _))| value.is_null());
                KeyCounts {
                    expr: key.text.clone(),
                    values: values
                        .into_iter()
                        .map(|(_, (value, count))| ValueCount {
                            value: value.clone(),
                            count: *count,
                        })
                        .collect(),
                    failed: key.failed,
                    instead: key.instead.clone().filter(|_| found_nothing),
                }
            })
            .collect()
    }
}

/// `attributes.NAME` reads SQS's system attributes; where the message has no such system attribute
/// but a message attribute NAME, the expression that reads the message attribute's value.
fn message_attribute_meant(text: &str, message: &MessageRecord) -> Option<String> {
    let name = text.trim().strip_prefix("attributes.")?;
    let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (identifier && message.message_attributes.contains_key(name))
        .then(|| format!("message_attributes.{name}.value"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn message(error: &str, body: &str) -> MessageRecord {
        let mut m = MessageRecord::with_body(body);
        m.message_attributes
            .insert("error".into(), AttributeValue::string(error));
        m
    }

    #[test]
    fn values_are_counted_most_frequent_first() {
        let mut counter = Counter::compile(&[
            "message_attributes.error.value".to_string(),
            "body.type".to_string(),
        ])
        .unwrap();
        for (error, body) in [
            ("timeout", r#"{"type":"a"}"#),
            ("declined", r#"{"type":"a"}"#),
            ("declined", "not json"),
        ] {
            counter.add(&message(error, body));
        }
        assert_eq!(counter.counted(), 3);
        let counts = counter.counts();
        let values = |i: usize| {
            counts[i]
                .values
                .iter()
                .map(|v| (v.value.clone(), v.count))
                .collect::<Vec<_>>()
        };
        assert_eq!(values(0), [("declined".into(), 2), ("timeout".into(), 1)]);
        assert_eq!(values(1), [("a".into(), 2), (Value::Null, 1)]);
    }

    #[test]
    fn a_system_attribute_path_to_a_message_attribute_gets_the_right_expression() {
        let mut counter = Counter::compile(&[
            "attributes.error".to_string(),
            "attributes.other".to_string(),
        ])
        .unwrap();
        counter.add(&message("timeout", "{}"));
        let counts = counter.counts();
        assert_eq!(
            counts[0].values,
            [ValueCount {
                value: Value::Null,
                count: 1
            }]
        );
        assert_eq!(
            counts[0].instead.as_deref(),
            Some("message_attributes.error.value")
        );
        assert_eq!(counts[1].instead, None);
    }

    #[test]
    fn failures_are_counted_and_bad_expressions_refused() {
        let mut counter = Counter::compile(&["length(body.items)".to_string()]).unwrap();
        counter.add(&message("x", r#"{"items":1}"#));
        assert_eq!(counter.counts()[0].failed, 1);
        let bad = Counter::compile(&["body.[".to_string()]).unwrap_err();
        assert_eq!(bad.text, "body.[");
        assert!(
            bad.to_string()
                .starts_with("`body.[` is not a valid JMESPath expression")
        );
    }
}
