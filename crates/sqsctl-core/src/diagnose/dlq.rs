//! The dead-letter view: for a queue that is a DLQ, which sources feed it, how old its messages
//! are, and how many are about to expire.

use serde::Serialize;

use super::finding::{Finding, Severity, human_seconds};
use super::observe::Observations;
use super::settings::QueueFacts;
use super::words::{Tool, Words};
use crate::text::plural;

/// Messages this close to the end of their retention are reported as about to expire.
pub const EXPIRY_HORIZON_SECONDS: u64 = 86_400;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DlqView {
    /// Source queues: by their redrive policies, and by the messages' `DeadLetterQueueSourceArn`.
    pub sources: Vec<String>,
    /// Messages seen per source queue ARN (from `DeadLetterQueueSourceArn`).
    pub messages_by_source: Vec<(String, u64)>,
    /// Messages in the queue (visible, in flight and delayed).
    pub depth: u64,
    pub messages_seen: u64,
    pub retention_seconds: Option<u64>,
    pub oldest_age_seconds: Option<u64>,
    pub newest_age_seconds: Option<u64>,
    /// Messages seen that expire within [`EXPIRY_HORIZON_SECONDS`].
    pub expiring_within_24h: u64,
    /// Ages count from the first send (standard) or from the move (FIFO).
    pub ages_from_first_send: bool,
}

/// The view of a dead-letter queue, or `None` when the queue is not one.
pub fn view(facts: &QueueFacts, obs: Option<&Observations>, now_ms: u64) -> Option<DlqView> {
    let from_messages = obs.is_some_and(|o| !o.dead_letter_sources.is_empty());
    if !facts.is_dead_letter_queue() && !from_messages {
        return None;
    }
    let mut sources: Vec<String> = facts.sources.iter().map(|s| s.name.clone()).collect();
    let messages_by_source: Vec<(String, u64)> = obs
        .map(|o| {
            o.dead_letter_sources
                .iter()
                .map(|(arn, n)| (arn.clone(), *n))
                .collect()
        })
        .unwrap_or_default();
    for (arn, _) in &messages_by_source {
        let name = crate::client::queue::name_from_arn(arn)
            .unwrap_or(arn)
            .to_string();
        if !sources.contains(&name) {
            sources.push(name);
        }
    }
    let retention = facts.attrs.retention_seconds();
    let ages: Vec<u64> = obs
        .map(|o| {
            o.sent_ms
                .iter()
                .map(|sent| now_ms.saturating_sub(*sent) / 1000)
                .collect()
        })
        .unwrap_or_default();
    let expiring = match retention {
        Some(retention) => ages
            .iter()
            .filter(|age| **age + EXPIRY_HORIZON_SECONDS >= retention)
            .count() as u64,
        None => 0,
    };
    Some(DlqView {
        sources,
        messages_by_source,
        depth: facts.attrs.total(),
        messages_seen: obs.map_or(0, |o| o.messages),
        retention_seconds: retention,
        oldest_age_seconds: ages.iter().max().copied(),
        newest_age_seconds: ages.iter().min().copied(),
        expiring_within_24h: expiring,
        ages_from_first_send: !facts.attrs.is_fifo(),
    })
}

/// Findings of the dead-letter view: messages waiting, and messages about to expire.
pub fn check(view: &DlqView, queue: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    if view.depth == 0 && view.messages_seen == 0 {
        return findings;
    }
    let count = view.depth.max(view.messages_seen);
    let mut finding = Finding::new(
        "dlq-not-empty",
        Severity::Warning,
        format!("The dead-letter queue holds {}", plural(count, "message")),
    );
    if !view.sources.is_empty() {
        finding = finding.evidence(format!("fed by {}", view.sources.join(", ")));
    }
    if let (Some(oldest), Some(newest)) = (view.oldest_age_seconds, view.newest_age_seconds) {
        finding = finding.evidence(format!(
            "of {} read, the oldest was sent {} ago, the newest {} ago",
            plural(view.messages_seen, "message"),
            human_seconds(oldest),
            human_seconds(newest)
        ));
    }
    findings.push(
        finding.advice(
            Words::from("Find the cause in the messages (")
                .then(Tool::Peek {
                    queue: Some(queue.to_string()),
                })
                .then("), fix it, then move them back with ")
                .then(Tool::Redrive {
                    dlq: queue.to_string(),
                    sources: view.sources.len(),
                    to: None,
                })
                .then("."),
        ),
    );
    if view.expiring_within_24h > 0
        && let Some(retention) = view.retention_seconds
    {
        findings.push(
            Finding::new(
                "dlq-messages-expiring",
                Severity::Warning,
                format!(
                    "{} in the dead-letter queue expire within a day",
                    plural(view.expiring_within_24h, "message")
                ),
            )
            .evidence(format!(
                "retention is {}; ages count from {}",
                human_seconds(retention),
                if view.ages_from_first_send {
                    "the first send to the source queue"
                } else {
                    "the send time (retention itself restarted on the move)"
                }
            ))
            .advice(
                Words::from("Redrive or export them before they are gone (")
                    .then(Tool::Export {
                        queue: queue.to_string(),
                    })
                    .then(format!("), and raise the retention of {queue} to 14 days.")),
            ),
        );
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::QueueAttributes;
    use crate::diagnose::settings::RelatedQueue;
    use crate::message::MessageRecord;

    const NOW: u64 = 1_795_000_000_000;

    fn dead_letter(sent_ms: u64, source: &str) -> MessageRecord {
        let mut m = MessageRecord::with_body("x");
        m.attributes
            .insert("SentTimestamp".into(), sent_ms.to_string());
        m.attributes.insert(
            "DeadLetterQueueSourceArn".into(),
            format!("arn:aws:sqs:us-east-1:1:{source}"),
        );
        m
    }

    #[test]
    fn a_dlq_shows_sources_ages_and_what_expires_soon() {
        let attrs = QueueAttributes(
            [
                ("MessageRetentionPeriod", "345600"),
                ("ApproximateNumberOfMessages", "3"),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        );
        let facts = QueueFacts {
            dlq_sources: 0,
            name: "jobs-dlq".into(),
            attrs,
            dlq: None,
            sources: vec![RelatedQueue {
                name: "jobs".into(),
                attrs: QueueAttributes::default(),
            }],
        };
        let mut obs = Observations::new(false);
        obs.add(&dead_letter(NOW - 3_600_000, "jobs"));
        obs.add(&dead_letter(NOW - 3 * 86_400_000 - 3_600_000, "jobs"));
        obs.add(&dead_letter(NOW - 60_000, "billing"));
        let mut view = view(&facts, Some(&obs), NOW).expect("a DLQ");
        assert_eq!(view.sources, ["jobs", "billing"]);
        assert_eq!(view.oldest_age_seconds, Some(3 * 86_400 + 3_600));
        assert_eq!(view.newest_age_seconds, Some(60));
        assert_eq!(view.expiring_within_24h, 1);
        let findings = check(&view, "jobs-dlq");
        let ids: Vec<_> = findings.iter().map(|f| f.id).collect();
        assert_eq!(ids, ["dlq-not-empty", "dlq-messages-expiring"]);
        assert!(
            findings[0].evidence[1]
                .plain()
                .contains("oldest was sent 3d ago")
        );
        // Two sources: a plain redrive would refuse, so the advice says how many feed it.
        let redrive = |sources| Tool::Redrive {
            dlq: "jobs-dlq".into(),
            sources,
            to: None,
        };
        assert!(findings[0].advice.tools().any(|t| *t == redrive(2)));
        view.sources.truncate(1);
        assert!(
            check(&view, "jobs-dlq")[0]
                .advice
                .tools()
                .any(|t| *t == redrive(1))
        );
    }

    #[test]
    fn an_ordinary_queue_has_no_dlq_view() {
        let facts = QueueFacts::plain("jobs");
        assert!(view(&facts, Some(&Observations::new(false)), NOW).is_none());
    }
}
