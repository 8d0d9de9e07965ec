//! The tenant-key check: on a standard queue whose messages carry no group id, which value of a
//! field the user names (a JMESPath expression over the record `--where` reads,
//! [`record_for_query`]) the backlog read is made of, and whether one value dominates it so that a
//! fair queue keyed on that field (each message sent with the value as its `MessageGroupId`)
//! would keep the other tenants' messages flowing while it floods. The values are tallied as the
//! messages are observed ([`KeyTally::add`]); [`check`] turns the tally into a finding.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::finding::{Finding, Severity};
use super::{Observations, QueueFacts};
use crate::message::MessageRecord;
use crate::select::record_for_query;
use crate::text::plural;

/// A value dominates the backlog read when it holds more than this share of the messages read...
pub const DOMINANT_SHARE: f64 = 0.5;
/// ...and at least this many of them (SQS's own noisy-tenant rule counts 30 in flight).
pub const DOMINANT_MIN: u64 = 30;

/// The values of a tenant key over the messages observed.
#[derive(Clone)]
pub struct KeyTally {
    text: String,
    expression: Arc<jmespath::Expression<'static>>,
    /// By the value's text (a string as it is, anything else as JSON).
    values: HashMap<String, u64>,
    /// Messages where the expression found nothing (each would be a tenant of its own).
    without: u64,
    read: u64,
}

impl std::fmt::Debug for KeyTally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyTally")
            .field("text", &self.text)
            .field("read", &self.read)
            .finish_non_exhaustive()
    }
}

impl KeyTally {
    /// Compiles the expression; the error says why it is not valid JMESPath.
    pub fn compile(text: &str) -> Result<KeyTally, String> {
        let expression = crate::expression::compile(text).map_err(|e| {
            format!(
                "`{text}` is not a valid JMESPath expression: {} (at character {})",
                crate::text::jmespath_parse_reason(&e),
                e.offset + 1
            )
        })?;
        Ok(KeyTally {
            text: text.to_string(),
            expression: Arc::new(expression),
            values: HashMap::new(),
            without: 0,
            read: 0,
        })
    }

    pub fn add(&mut self, message: &MessageRecord) {
        self.read += 1;
        let value = self
            .expression
            .search(record_for_query(message))
            .ok()
            .and_then(|found| serde_json::to_value(&*found).ok())
            .unwrap_or(Value::Null);
        match value {
            Value::Null => self.without += 1,
            Value::String(text) => *self.values.entry(text).or_default() += 1,
            other => *self.values.entry(other.to_string()).or_default() += 1,
        }
    }

    /// The values, most frequent first (ties by value).
    fn ranked(&self) -> Vec<(&str, u64)> {
        let mut ranked: Vec<(&str, u64)> =
            self.values.iter().map(|(v, n)| (v.as_str(), *n)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        ranked
    }
}

fn percent(part: u64, whole: u64) -> u64 {
    (part * 100).checked_div(whole).unwrap_or(0)
}

/// A warning when one value of the key holds more than half the messages read, and at least 30,
/// while other messages (another value, or none) wait behind it.
pub fn check(tally: &KeyTally) -> Option<Finding> {
    let ranked = tally.ranked();
    let (value, count) = *ranked.first()?;
    let dominant = count as f64 > DOMINANT_SHARE * tally.read as f64 && count >= DOMINANT_MIN;
    if !dominant || count == tally.read {
        return None;
    }
    let share = percent(count, tally.read);
    let others = ranked
        .iter()
        .skip(1)
        .take(3)
        .map(|(v, n)| format!("\"{v}\" {n} ({}%)", percent(*n, tally.read)))
        .collect::<Vec<_>>();
    let mut finding = Finding::new(
        "tenant-dominates-backlog",
        Severity::Warning,
        format!(
            "\"{value}\" holds {share}% of the messages read by `{}`: the other tenants' messages wait behind it",
            tally.text
        ),
    )
    .evidence(format!(
        "`{}` is \"{value}\" on {} of the {} read ({share}%)",
        tally.text,
        count,
        plural(tally.read, "message"),
    ))
    .evidence(format!(
        "{} in all{}",
        plural(ranked.len() as u64, "distinct value"),
        if others.is_empty() {
            String::new()
        } else {
            format!("; next: {}", others.join(", "))
        }
    ));
    if tally.without > 0 {
        finding = finding.evidence(format!(
            "{} without a value (each would be a tenant of its own)",
            plural(tally.without, "message")
        ));
    }
    Some(finding.advice(format!(
        "Make it a fair queue keyed on this field: send each message with its value of `{}` as MessageGroupId; SQS then delivers the quiet tenants' messages first while \"{value}\" floods, without dropping any",
        tally.text
    )))
}

/// The tally to check, when the key applies: the messages read carry no group id (their tenants
/// would be their group ids) and the queue is not a FIFO queue (a file alone may be either).
pub fn applies<'a>(facts: Option<&QueueFacts>, obs: &'a Observations) -> Option<&'a KeyTally> {
    let fifo = facts.is_some_and(|f| f.attrs.is_fifo() || f.name.ends_with(".fifo"));
    obs.tenant_key
        .as_ref()
        .filter(|_| !fifo && obs.groups.is_empty())
}

/// Why a tenant key given was not checked, when it was not and messages were read.
pub fn unused_because(facts: Option<&QueueFacts>, obs: &Observations) -> Option<&'static str> {
    obs.tenant_key.as_ref()?;
    if facts.is_some_and(|f| f.attrs.is_fifo() || f.name.ends_with(".fifo")) {
        Some("a FIFO queue's message groups already say how its work is spread")
    } else if !obs.groups.is_empty() {
        Some("the messages carry group ids already: those are the queue's tenants")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(bodies: &[(&str, usize)]) -> KeyTally {
        let mut tally = KeyTally::compile("body.customer").unwrap();
        for (customer, n) in bodies {
            for _ in 0..*n {
                let body = format!(r#"{{"customer":"{customer}"}}"#);
                tally.add(&MessageRecord::with_body(body));
            }
        }
        tally
    }

    #[test]
    fn one_value_over_half_and_at_least_thirty_dominates() {
        let finding = check(&tally(&[("acme", 30), ("globex", 29)])).unwrap();
        assert_eq!(finding.id, "tenant-dominates-backlog");
        assert!(
            finding.title.contains("\"acme\" holds 50%"),
            "{}",
            finding.title
        );
        assert!(
            check(&tally(&[("acme", 30), ("globex", 30)])).is_none(),
            "half is not more"
        );
        assert!(
            check(&tally(&[("acme", 29), ("globex", 1)])).is_none(),
            "fewer than 30"
        );
        assert!(
            check(&tally(&[("acme", 40)])).is_none(),
            "no one else waits"
        );
    }

    #[test]
    fn an_invalid_expression_says_why() {
        let err = KeyTally::compile("body.[").unwrap_err();
        assert!(
            err.starts_with("`body.[` is not a valid JMESPath expression"),
            "{err}"
        );
    }
}
