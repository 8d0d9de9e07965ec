//! Counts by key over the messages a diagnosis reads: how many distinct messages (a copy of a
//! message already read is left out, see [`super::observe`]) hold each value of the expressions
//! given, with the [`Counter`] that `peek` and `receive` count with. A dead-letter queue is counted
//! by default by what wraps its messages ([`DEAD_LETTER_KEYS`]), and those counts are kept only when
//! some message read had an envelope: counts that put every message under "none" say nothing.

use serde::Serialize;

use crate::message::count::{Counter, KeyCounts};

/// What a dead-letter queue is counted by when no expression is given: the kind of envelope, and
/// the SNS topic, EventBridge source or S3 bucket it names.
pub const DEAD_LETTER_KEYS: &[&str] = &[
    "envelope.kind",
    "envelope.topic || envelope.source || envelope.bucket",
];

/// What to count the messages read by.
#[derive(Debug, Clone, Default)]
pub enum Counting {
    /// Nothing.
    #[default]
    Off,
    /// These expressions, on any queue or file.
    By(Counter),
    /// [`DEAD_LETTER_KEYS`] when the queue read is a dead-letter queue; nothing otherwise.
    DeadLetterDefault,
}

impl Counting {
    /// The counter for a queue that is (or is not) a dead-letter queue, and whether its keys are
    /// the default ones.
    pub fn counter(&self, dead_letter_queue: bool) -> Option<(Counter, bool)> {
        match self {
            Counting::Off => None,
            Counting::By(counter) => Some((counter.clone(), false)),
            Counting::DeadLetterDefault => dead_letter_queue.then(|| {
                let keys: Vec<String> = DEAD_LETTER_KEYS.iter().map(|k| k.to_string()).collect();
                let counter = Counter::compile(&keys).expect("the default keys are valid JMESPath");
                (counter, true)
            }),
        }
    }
}

/// The counts, with what they cover.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Counts {
    pub counted: Counted,
    /// Per expression, its values, most frequent first.
    pub counts: Vec<KeyCounts>,
}

/// What the counts cover.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Counted {
    /// Distinct messages counted: every message read, copies of one already read left out.
    pub read: u64,
    /// About how many messages the queue held visible when the scan began; none for a file.
    pub visible: Option<u64>,
    /// The expressions are [`DEAD_LETTER_KEYS`], not ones given.
    pub default: bool,
}

impl Counts {
    /// The counts of `counter`, or `None` for default counts that found no envelope.
    pub fn of(counter: &Counter, visible: Option<u64>, default: bool) -> Option<Counts> {
        let counts = counter.counts();
        let found_envelopes = counts
            .first()
            .is_some_and(|kind| kind.values.iter().any(|v| !v.value.is_null()));
        if default && !found_envelopes {
            return None;
        }
        Some(Counts {
            counted: Counted {
                read: counter.counted(),
                visible,
                default,
            },
            counts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::MessageRecord;

    const SNS: &str = r#"{"Type":"Notification","MessageId":"n-1","TopicArn":"arn:aws:sns:eu-west-1:1:orders","Message":"{}","Timestamp":"2026-01-01T00:00:00.000Z","SignatureVersion":"1","Signature":"x","SigningCertURL":"https://sns/c.pem","UnsubscribeURL":"https://sns/u"}"#;

    fn counted(counting: &Counting, dead_letter_queue: bool, bodies: &[&str]) -> Option<Counts> {
        let (mut counter, default) = counting.counter(dead_letter_queue)?;
        for body in bodies {
            counter.add(&MessageRecord::with_body(*body));
        }
        Counts::of(&counter, Some(bodies.len() as u64), default)
    }

    #[test]
    fn a_dead_letter_queue_is_counted_by_envelope_when_some_message_has_one() {
        let counts =
            counted(&Counting::DeadLetterDefault, true, &[SNS, SNS, "plain"]).expect("counts");
        assert!(counts.counted.default);
        assert_eq!(counts.counted.read, 3);
        let kinds: Vec<_> = counts.counts[0]
            .values
            .iter()
            .map(|v| (v.value.clone(), v.count))
            .collect();
        assert_eq!(kinds, [("sns".into(), 2), (serde_json::Value::Null, 1)]);
        assert_eq!(counts.counts[1].values[0].value, "orders");
    }

    #[test]
    fn default_counts_say_nothing_without_envelopes_or_off_a_dead_letter_queue() {
        assert!(counted(&Counting::DeadLetterDefault, true, &["a", "b"]).is_none());
        assert!(counted(&Counting::DeadLetterDefault, false, &[SNS]).is_none());
        let given = Counter::compile(&["body".to_string()]).unwrap();
        let counts = counted(&Counting::By(given), false, &["a"]).expect("counts");
        assert!(!counts.counted.default);
    }
}
