//! The rewrite stage of a redrive: what each selected message becomes between its receive from
//! the DLQ and its send to the destination, so that fixing a message and moving it back is one
//! journaled run (resumable, deleted only after the confirmed send) instead of
//! `receive --delete | jq | send`.
//!
//! A [`Rewrite`] is data: it goes into the plan, and so into the journal, so that `--resume` applies
//! the same rewrite again. Its steps run in a fixed order on the message as it would be sent
//! (body, message attributes, group id, deduplication id): [`unwrap`] (the message an SNS or
//! EventBridge envelope carries), then either a jq filter ([`transform`]) or a command
//! ([`exec`]), then replacement bodies chosen per DLQ message id ([`Rewrite::replace`]); the
//! result is checked as SQS would check it. A [`Rewriter`] is a rewrite made ready to run (the
//! filter compiled). A step that fails on a message leaves that message in the DLQ, with the
//! reason; the run goes on with the others.
//! Each rewritten message has a [`digest`], written to the journal, by which a resumed run checks
//! that it would send what the interrupted run may already have sent.
//!
//! The archive (`--archive`) keeps the original message, not the rewritten one.

pub mod exec;
pub mod transform;
pub mod unwrap;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::message::MessageRecord;
pub use exec::{DEFAULT_EXEC_TIMEOUT, Exec};
pub use transform::{FILTER_TIMEOUT, Transform};

/// What the messages of a run become before they are sent. The default changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewrite {
    /// Replace an SNS notification or EventBridge event by the message it carries (first).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unwrap: bool,
    /// A jq filter over the message record (see [`transform`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<String>,
    /// A command that turns each body into the new body (see [`exec`]); not with `transform`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<Exec>,
    /// New bodies by DLQ message id: the message with that id is sent with this body (its
    /// attributes, group id and deduplication id as they would be otherwise). Applied last.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub replace: BTreeMap<String, String>,
}

impl Rewrite {
    /// A rewrite that sends the message of each DLQ message id in `bodies` with the new body given
    /// for it, and every other message unchanged (as the `browse` view's edit does).
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use sqsctl_core::redrive::Rewrite;
    ///
    /// let edited = HashMap::from([("5fea7756-0ea4-451a".to_string(), r#"{"qty":1}"#.to_string())]);
    /// let rewrite = Rewrite::replace(edited);
    /// assert!(!rewrite.is_none());
    /// ```
    pub fn replace(bodies: HashMap<String, String>) -> Rewrite {
        Rewrite {
            replace: bodies.into_iter().collect(),
            ..Rewrite::default()
        }
    }

    /// Whether the rewrite changes nothing (a plain redrive).
    pub fn is_none(&self) -> bool {
        !self.unwrap && self.transform.is_none() && self.exec.is_none() && self.replace.is_empty()
    }
}

/// A rewrite that cannot run at all (checked before anything is received).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteError {
    #[error("the --transform filter does not compile: {0}")]
    Filter(String),
    #[error("a rewrite takes a filter or a command, not both")]
    FilterAndCommand,
    #[error("the --exec command is empty")]
    EmptyCommand,
    #[error("the --exec timeout must be at least 1 second")]
    ZeroTimeout,
}

/// What the rewrite of a run did, as its summary reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RewriteSummary {
    /// Messages the rewrite refused (a filter or command that failed, an invalid result): left in
    /// the DLQ, counted in `failed` too, with their reasons among the `failures`.
    pub failed: u64,
    /// Messages a resumed run rewrote differently from what the journal shows the interrupted run
    /// made of them (a filter or command that does not give the same result twice): not sent,
    /// left in the DLQ, counted in `failed` too.
    pub changed_since_journal: u64,
    /// With `--unwrap`: messages that were not an envelope with a message inside, sent unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_envelope: Option<u64>,
}

/// Why a rewrite refused a message. The message stays in the DLQ.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteFailure {
    /// The filter failed, gave no value, more than one, or a value that is not a message.
    #[error("{0}")]
    Filter(String),
    /// The command failed, timed out or gave no valid body.
    #[error("{0}")]
    Command(String),
    /// The message the rewrite made is not one SQS would accept.
    #[error("the rewritten message is not valid: {0}")]
    Invalid(String),
}

/// What a rewrite did to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The message to send.
    pub message: MessageRecord,
    /// Its [`digest`], to journal (`None` when the run rewrites nothing).
    pub digest: Option<String>,
}

/// A [`Rewrite`] ready to apply: built once per run, used by every worker, which also counts
/// what it did.
#[derive(Debug)]
pub struct Rewriter {
    rewrite: Rewrite,
    transform: Option<Transform>,
    fifo: bool,
    /// Whether the deduplication id is the same on every run (not a fresh one per run), and so
    /// part of the digest.
    stable_dedup: bool,
    /// Messages `--unwrap` found no envelope with a message in (sent unchanged).
    not_envelope: AtomicU64,
}

impl Rewriter {
    /// Prepares `rewrite` (compiles its filter) for messages sent to a destination that is FIFO or
    /// not; `stable_dedup` says whether the deduplication id the engine gives a message is the
    /// same on `--resume`.
    pub fn new(
        rewrite: &Rewrite,
        fifo: bool,
        stable_dedup: bool,
    ) -> Result<Rewriter, RewriteError> {
        if rewrite.transform.is_some() && rewrite.exec.is_some() {
            return Err(RewriteError::FilterAndCommand);
        }
        if let Some(exec) = &rewrite.exec {
            if exec.command.trim().is_empty() {
                return Err(RewriteError::EmptyCommand);
            }
            if exec.timeout_secs == 0 {
                return Err(RewriteError::ZeroTimeout);
            }
        }
        let transform = rewrite
            .transform
            .as_deref()
            .map(Transform::compile)
            .transpose()
            .map_err(RewriteError::Filter)?;
        Ok(Rewriter {
            rewrite: rewrite.clone(),
            transform,
            fifo,
            stable_dedup,
            not_envelope: AtomicU64::new(0),
        })
    }

    /// Whether the run rewrites anything.
    pub fn is_active(&self) -> bool {
        !self.rewrite.is_none()
    }

    /// How many messages `--unwrap` sent unchanged, for not being an envelope with a message
    /// inside (`None` without `--unwrap`).
    pub fn not_envelope(&self) -> Option<u64> {
        self.rewrite
            .unwrap
            .then(|| self.not_envelope.load(Ordering::Relaxed))
    }

    /// Applies the rewrite to `outgoing`, the message as it would be sent, of the DLQ message
    /// `original` (as received). Without a rewrite `outgoing` is returned as it is, with no digest.
    /// A filter and a command run off the async workers.
    pub async fn apply(
        &self,
        original: &MessageRecord,
        outgoing: MessageRecord,
    ) -> Result<Rewritten, RewriteFailure> {
        if !self.is_active() {
            return Ok(Rewritten {
                message: outgoing,
                digest: None,
            });
        }
        let mut message = self.unwrapped(outgoing);
        if let Some(transform) = &self.transform {
            let (record, body) = self.filter_input(original, &mut message);
            transform
                .apply(record, &body, &mut message)
                .await
                .map_err(RewriteFailure::Filter)?;
        }
        if let Some(exec) = &self.rewrite.exec {
            message.body = exec
                .run(&message.body, id_of(original), message.group_id.as_deref())
                .await
                .map_err(RewriteFailure::Command)?;
        }
        self.finish(original, message)
    }

    /// [`Rewriter::apply`] on this thread, for a dry run's preview (one message at a time): the
    /// same steps, the same answers.
    pub fn apply_blocking(
        &self,
        original: &MessageRecord,
        outgoing: MessageRecord,
    ) -> Result<Rewritten, RewriteFailure> {
        if !self.is_active() {
            return Ok(Rewritten {
                message: outgoing,
                digest: None,
            });
        }
        let mut message = self.unwrapped(outgoing);
        if let Some(transform) = &self.transform {
            let (record, body) = self.filter_input(original, &mut message);
            transform
                .apply_now(record, &body, &mut message)
                .map_err(RewriteFailure::Filter)?;
        }
        if let Some(exec) = &self.rewrite.exec {
            message.body = exec
                .run_blocking(&message.body, id_of(original), message.group_id.as_deref())
                .map_err(RewriteFailure::Command)?;
        }
        self.finish(original, message)
    }

    /// The first step: with `--unwrap`, the message an envelope carries.
    fn unwrapped(&self, mut message: MessageRecord) -> MessageRecord {
        if self.rewrite.unwrap && unwrap::unwrap(&mut message) == unwrap::Unwrapped::NotEnvelope {
            self.not_envelope.fetch_add(1, Ordering::Relaxed);
        }
        message
    }

    /// What the filter sees (the record as `--where` sees it, of the message as it stands, with
    /// the DLQ message's id and system attributes), and the body taken out of `message`.
    fn filter_input(
        &self,
        original: &MessageRecord,
        message: &mut MessageRecord,
    ) -> (serde_json::Value, String) {
        let view = MessageRecord {
            message_id: original.message_id.clone(),
            attributes: original.attributes.clone(),
            trace_header: original.trace_header.clone(),
            ..message.clone()
        };
        (
            crate::select::record_for_query(&view),
            std::mem::take(&mut message.body),
        )
    }

    /// The last steps: a replaced body, the checks SQS would make, the digest.
    fn finish(
        &self,
        original: &MessageRecord,
        mut message: MessageRecord,
    ) -> Result<Rewritten, RewriteFailure> {
        if let Some(body) = self.rewrite.replace.get(id_of(original)) {
            message.body = body.clone();
        }
        crate::client::validate_outgoing(&message, self.fifo).map_err(RewriteFailure::Invalid)?;
        let digest = digest(&message, self.stable_dedup);
        Ok(Rewritten {
            message,
            digest: Some(digest),
        })
    }
}

fn id_of(message: &MessageRecord) -> &str {
    message.message_id.as_deref().unwrap_or_default()
}

/// The SHA-256 (lowercase hex) of what a message is sent as: its body, its message attributes,
/// its group id and, when `with_dedup`, its deduplication id. Each part is length-prefixed, so no
/// two different messages share the input.
pub fn digest(message: &MessageRecord, with_dedup: bool) -> String {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    };
    part(message.body.as_bytes());
    part(&(message.message_attributes.len() as u64).to_be_bytes());
    for (name, value) in &message.message_attributes {
        part(name.as_bytes());
        part(value.data_type.as_bytes());
        part(value.value.as_bytes());
    }
    part(message.group_id.as_deref().unwrap_or_default().as_bytes());
    part(&[u8::from(message.group_id.is_some())]);
    let dedup = message.dedup_id.as_deref().filter(|_| with_dedup);
    part(dedup.unwrap_or_default().as_bytes());
    part(&[u8::from(dedup.is_some())]);
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::AttributeValue;

    fn received(id: &str, body: &str) -> MessageRecord {
        let mut m = MessageRecord::with_body(body);
        m.message_id = Some(id.into());
        m
    }

    #[tokio::test]
    async fn replace_changes_only_the_bodies_it_names() {
        let rewriter = Rewriter::new(
            &Rewrite::replace(HashMap::from([("a".into(), "fixed".into())])),
            false,
            true,
        )
        .unwrap();
        let a = rewriter
            .apply(&received("a", "broken"), MessageRecord::with_body("broken"))
            .await
            .unwrap();
        assert_eq!(a.message.body, "fixed");
        let b = rewriter
            .apply(&received("b", "fine"), MessageRecord::with_body("fine"))
            .await
            .unwrap();
        assert_eq!(b.message.body, "fine");
        assert_ne!(a.digest, b.digest);
        assert!(a.digest.is_some());
    }

    #[tokio::test]
    async fn an_empty_replacement_is_refused_and_no_rewrite_has_no_digest() {
        let rewriter = Rewriter::new(
            &Rewrite::replace(HashMap::from([("a".into(), String::new())])),
            false,
            true,
        )
        .unwrap();
        let err = rewriter
            .apply(&received("a", "x"), MessageRecord::with_body("x"))
            .await
            .unwrap_err();
        assert!(matches!(err, RewriteFailure::Invalid(_)), "{err}");
        let plain = Rewriter::new(&Rewrite::default(), false, true).unwrap();
        let same = plain
            .apply(&received("a", "x"), MessageRecord::with_body("x"))
            .await
            .unwrap();
        assert_eq!(same.digest, None);
        assert_eq!(same.message.body, "x");
    }

    #[tokio::test]
    async fn the_filter_sees_the_unwrapped_message_and_the_dlq_message_id() {
        let rewrite = Rewrite {
            unwrap: true,
            transform: Some(r#".body.from = .message_id"#.into()),
            ..Rewrite::default()
        };
        let rewriter = Rewriter::new(&rewrite, false, true).unwrap();
        let event = serde_json::json!({
            "version": "0", "id": "e", "detail-type": "T", "source": "s", "account": "1",
            "time": "t", "region": "r", "resources": [], "detail": {"order": 7}
        })
        .to_string();
        let done = rewriter
            .apply(
                &received("dlq-1", &event),
                MessageRecord::with_body(event.clone()),
            )
            .await
            .unwrap();
        assert_eq!(done.message.body, r#"{"order":7,"from":"dlq-1"}"#);
        let plain = rewriter
            .apply(&received("dlq-2", "{}"), MessageRecord::with_body("{}"))
            .await
            .unwrap();
        assert_eq!(plain.message.body, r#"{"from":"dlq-2"}"#);
        assert_eq!(rewriter.not_envelope(), Some(1));
    }

    #[test]
    fn a_filter_and_a_command_together_or_a_bad_filter_are_refused() {
        let both = Rewrite {
            transform: Some(".".into()),
            exec: Some(Exec {
                command: "cat".into(),
                timeout_secs: 1,
            }),
            ..Rewrite::default()
        };
        assert_eq!(
            Rewriter::new(&both, false, true).unwrap_err(),
            RewriteError::FilterAndCommand
        );
        let bad = Rewrite {
            transform: Some(".body |".into()),
            ..Rewrite::default()
        };
        assert!(matches!(
            Rewriter::new(&bad, false, true),
            Err(RewriteError::Filter(_))
        ));
    }

    #[test]
    fn the_digest_covers_each_part_and_the_dedup_id_only_when_stable() {
        let base = MessageRecord::with_body("b");
        let mut attr = base.clone();
        attr.message_attributes
            .insert("k".into(), AttributeValue::string("v"));
        let mut group = base.clone();
        group.group_id = Some("g".into());
        let mut dedup = base.clone();
        dedup.dedup_id = Some("d".into());
        let digests = [&base, &attr, &group, &dedup].map(|m| digest(m, true));
        for (i, a) in digests.iter().enumerate() {
            for b in &digests[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(digest(&dedup, false), digest(&base, false));
        assert_eq!(digest(&base, true).len(), 64);
    }

    #[test]
    fn a_plan_without_a_rewrite_reads_and_writes_as_before() {
        let json = serde_json::to_string(&Rewrite::default()).unwrap();
        assert_eq!(json, "{}");
        let back: Rewrite = serde_json::from_str("{}").unwrap();
        assert!(back.is_none());
    }
}
