//! Which attributes a read shows (`receive`/`peek --attributes` and `--message-attributes`).
//!
//! Reads always ask SQS for every attribute, because sqsctl itself needs some of them (the receive
//! count for the read guard, the group id for FIFO order); the choice then decides what each
//! written record carries.

use std::borrow::Cow;

use super::MessageRecord;

/// The system attributes SQS returns on a received message.
pub const SYSTEM_ATTRIBUTES: &[&str] = &[
    "ApproximateFirstReceiveTimestamp",
    "ApproximateReceiveCount",
    "AWSTraceHeader",
    "DeadLetterQueueSourceArn",
    "MessageDeduplicationId",
    "MessageGroupId",
    "SenderId",
    "SentTimestamp",
    "SequenceNumber",
];

/// An attribute name a read cannot show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShownError {
    #[error("`{name}` is not a system attribute; SQS has {} (or All)", SYSTEM_ATTRIBUTES.join(", "))]
    NotASystemAttribute { name: String },
    #[error(
        "`{name}` is not a message attribute name (letters, digits, _ - and ., up to 256 characters; `prefix.*` for a prefix)"
    )]
    NotAMessageAttributeName { name: String },
}

/// Every attribute, or the ones named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Choice {
    #[default]
    All,
    /// Names; for message attributes, `prefix.*` names every attribute that starts with `prefix.`.
    Names(Vec<String>),
}

impl Choice {
    /// System attribute names, as `--attributes` takes them: `All`, or names SQS knows (in any
    /// letter case; an unknown one is an error that lists the known ones).
    pub fn system(names: &[String]) -> Result<Choice, ShownError> {
        if names.is_empty() || names.iter().any(|n| n.eq_ignore_ascii_case("all")) {
            return Ok(Choice::All);
        }
        let mut known = Vec::new();
        for name in names {
            let name = name.trim();
            match SYSTEM_ATTRIBUTES
                .iter()
                .find(|k| k.eq_ignore_ascii_case(name))
            {
                Some(k) => known.push(k.to_string()),
                None => {
                    return Err(ShownError::NotASystemAttribute {
                        name: name.to_string(),
                    });
                }
            }
        }
        Ok(Choice::Names(known))
    }

    /// Message attribute names, as `--message-attributes` takes them: `All` (or `.*`), names, or
    /// `prefix.*`. Names follow SQS's rules: letters, digits, `_`, `-` and `.`, up to 256
    /// characters.
    pub fn message(names: &[String]) -> Result<Choice, ShownError> {
        if names.is_empty() || names.iter().any(|n| n == "All" || n == ".*") {
            return Ok(Choice::All);
        }
        let mut out = Vec::new();
        for name in names {
            let name = name.trim();
            let base = name.strip_suffix(".*").unwrap_or(name);
            let valid = !base.is_empty()
                && name.len() <= 256
                && base
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
            if !valid {
                return Err(ShownError::NotAMessageAttributeName {
                    name: name.to_string(),
                });
            }
            out.push(name.to_string());
        }
        Ok(Choice::Names(out))
    }

    fn shows(&self, name: &str) -> bool {
        match self {
            Choice::All => true,
            Choice::Names(names) => names.iter().any(|n| match n.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => n == name,
            }),
        }
    }
}

/// What a read shows of each message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    pub system: Choice,
    pub message: Choice,
}

impl Shown {
    /// The choice of `--attributes` and `--message-attributes`.
    pub fn parse(system: &[String], message: &[String]) -> Result<Shown, ShownError> {
        Ok(Shown {
            system: Choice::system(system)?,
            message: Choice::message(message)?,
        })
    }

    pub fn is_all(&self) -> bool {
        self.system == Choice::All && self.message == Choice::All
    }

    /// The record as shown: the attributes not chosen left out. A group id, deduplication id or
    /// trace header is a system attribute too and goes with it.
    pub fn apply<'r>(&self, record: &'r MessageRecord) -> Cow<'r, MessageRecord> {
        if self.is_all() {
            return Cow::Borrowed(record);
        }
        let mut shown = record.clone();
        shown.attributes.retain(|name, _| self.system.shows(name));
        shown
            .message_attributes
            .retain(|name, _| self.message.shows(name));
        if !self.system.shows("MessageGroupId") {
            shown.group_id = None;
        }
        if !self.system.shows("MessageDeduplicationId") {
            shown.dedup_id = None;
        }
        if !self.system.shows("AWSTraceHeader") {
            shown.trace_header = None;
        }
        Cow::Owned(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn names(text: &[&str]) -> Vec<String> {
        text.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn system_names_are_checked_and_spelled_as_sqs_does() {
        assert_eq!(Choice::system(&[]).unwrap(), Choice::All);
        assert_eq!(Choice::system(&names(&["all"])).unwrap(), Choice::All);
        assert_eq!(
            Choice::system(&names(&["senttimestamp"])).unwrap(),
            Choice::Names(names(&["SentTimestamp"]))
        );
        let err = Choice::system(&names(&["SentTime"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`SentTime`") && err.contains("SentTimestamp"),
            "{err}"
        );
        assert!(Choice::message(&names(&["bad name"])).is_err());
        assert!(Choice::message(&names(&[".*"])).unwrap() == Choice::All);
    }

    #[test]
    fn the_record_keeps_only_what_was_chosen() {
        let mut record = MessageRecord::with_body("b");
        record.group_id = Some("g".into());
        record
            .attributes
            .insert("MessageGroupId".into(), "g".into());
        record.attributes.insert("SentTimestamp".into(), "1".into());
        for name in ["trace.id", "trace.span", "tenant"] {
            record
                .message_attributes
                .insert(name.into(), AttributeValue::string("v"));
        }
        let shown = Shown {
            system: Choice::system(&names(&["SentTimestamp"])).unwrap(),
            message: Choice::message(&names(&["trace.*"])).unwrap(),
        };
        let out = shown.apply(&record);
        assert_eq!(out.attributes.keys().collect::<Vec<_>>(), ["SentTimestamp"]);
        assert_eq!(
            out.message_attributes.keys().collect::<Vec<_>>(),
            ["trace.id", "trace.span"]
        );
        assert_eq!(out.group_id, None);
        assert_eq!(out.body, "b");
    }
}
