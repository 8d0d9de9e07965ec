//! Queue settings that bite: short visibility timeouts (receive counts climbing), no long polling,
//! no redrive policy or a `maxReceiveCount` of 1, a dead-letter queue that keeps messages for less
//! time than its source, of the wrong type, or not empty, and high-throughput FIFO settings that do
//! not match the group layout.

use crate::client::QueueAttributes;
use crate::client::queue::name_from_arn;

use super::finding::{Finding, Severity, human_seconds, percent};
use super::groups::{Coverage, GroupTotals};
use super::observe::{Observations, ReceiveClock};
use super::words::{QueueChange, Tool, Words};
use crate::text::plural;

/// Another queue and its attributes: the DLQ of the queue diagnosed, or one of its sources.
#[derive(Debug, Clone)]
pub struct RelatedQueue {
    pub name: String,
    pub attrs: QueueAttributes,
}

/// What is known about the queue diagnosed and its neighbours.
#[derive(Debug, Clone)]
pub struct QueueFacts {
    pub name: String,
    pub attrs: QueueAttributes,
    /// The dead-letter queue of the redrive policy, or why it could not be read.
    pub dlq: Option<Result<RelatedQueue, String>>,
    /// Queues whose redrive policy targets this one: when not empty, this queue is a DLQ.
    pub sources: Vec<RelatedQueue>,
    /// How many queues use `dlq` as their dead-letter queue (0 when unknown).
    pub dlq_sources: usize,
}

impl QueueFacts {
    pub fn is_dead_letter_queue(&self) -> bool {
        !self.sources.is_empty()
    }

    /// A queue with default attributes, no dead-letter queue and no sources, for tests.
    #[cfg(test)]
    pub(crate) fn plain(name: &str) -> QueueFacts {
        QueueFacts {
            name: name.into(),
            attrs: QueueAttributes::default(),
            dlq: None,
            sources: Vec::new(),
            dlq_sources: 0,
        }
    }
}

/// Receive counts from this many earlier receives up count as climbing.
const CLIMBING_RECEIVES: u64 = 3;

/// Runs every settings check. `obs` are the messages read (if any), `groups` the FIFO group
/// totals, `clock` tells failed receives from reads that only looked.
pub fn check(
    facts: &QueueFacts,
    obs: Option<&Observations>,
    groups: Option<&GroupTotals>,
    clock: &ReceiveClock<'_>,
    coverage: Coverage,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if let Some(obs) = obs
        && !facts.is_dead_letter_queue()
    {
        findings.extend(climbing_receives(Some(facts), obs, clock, coverage));
    }
    findings.extend(long_polling(facts));
    if !facts.is_dead_letter_queue() {
        findings.extend(redrive(facts, obs, clock.now_ms));
    }
    for source in &facts.sources {
        // The depth of this queue is reported by the dead-letter view, with the messages' ages.
        findings.extend(dlq_pairing(
            &source.name,
            &source.attrs,
            &facts.name,
            &facts.attrs,
            false,
            facts.sources.len(),
        ));
    }
    if let Some(groups) = groups {
        findings.extend(fifo_throughput(facts, groups));
    }
    findings
}

/// Messages received again and again: the visibility timeout runs out before consumers finish.
/// Only receives that can have ended with a timeout count (see [`ReceiveClock`]).
pub fn climbing_receives(
    facts: Option<&QueueFacts>,
    obs: &Observations,
    clock: &ReceiveClock<'_>,
    coverage: Coverage,
) -> Option<Finding> {
    let timed: Vec<u64> = obs
        .retried
        .iter()
        .map(|(count, first)| clock.timed_out_receives(*count, *first))
        .filter(|n| *n >= CLIMBING_RECEIVES)
        .collect();
    let climbing = timed.len() as u64;
    let read = obs.receive_counts.values().sum::<u64>();
    if climbing == 0 || climbing * 10 < read {
        return None;
    }
    let most = timed.iter().max().copied().unwrap_or(0);
    let attrs = facts.map(|f| &f.attrs);
    let timeout = attrs.and_then(QueueAttributes::visibility_timeout);
    let idle = coverage.nothing_in_flight();
    let mut finding = Finding::new(
        "visibility-timeout-short",
        if idle {
            Severity::Info
        } else {
            Severity::Warning
        },
        match timeout {
            Some(t) => format!(
                "Messages are received again and again: the visibility timeout ({}) looks shorter \
                 than the processing time",
                human_seconds(t)
            ),
            None => "Messages are received again and again: the visibility timeout looks shorter \
                     than the processing time"
                .to_string(),
        },
    )
    .evidence(format!(
        "{climbing} of {} read ({}%) had come back {CLIMBING_RECEIVES} or more times \
         after their visibility timeout ran out (up to {most})",
        plural(read, "message"),
        percent(climbing, read)
    ));
    finding = finding.evidence(super::groups::own_reads_note());
    if idle {
        finding = finding.evidence(super::groups::IDLE_NOTE);
    }
    if let Some(policy) = attrs.and_then(QueueAttributes::redrive_policy) {
        finding = finding.evidence(format!(
            "after {} a message moves to the dead-letter queue, processed or not",
            plural(u64::from(policy.max_receive_count), "receive")
        ));
    }
    // A timeout well above the current one, as a starting point: the processing time is unknown.
    let suggested = timeout.map_or(300, |t| (t * 4).clamp(60, 43_200));
    Some(
        finding.advice(
            Words::from(
                "A message reappears when its visibility timeout runs out before the consumer \
                 deletes it, and is then processed twice. Set VisibilityTimeout above the \
                 longest processing time (e.g. ",
            )
            .then(Tool::SetQueue {
                queue: facts.map(|f| f.name.clone()),
                changes: vec![QueueChange::VisibilityTimeoutSeconds(suggested)],
            })
            .then(
                "), or have consumers extend it with ChangeMessageVisibility while they work. If \
                 the messages fail rather than time out, a redrive policy moves them aside.",
            ),
        ),
    )
}

fn long_polling(facts: &QueueFacts) -> Option<Finding> {
    (facts.attrs.receive_wait_seconds() == Some(0)).then(|| {
        Finding::new(
            "no-long-polling",
            Severity::Info,
            "Long polling is off (ReceiveMessageWaitTimeSeconds = 0)",
        )
        .evidence("receives that do not set WaitTimeSeconds return at once, often empty")
        .advice(
            Words::from("Set ReceiveMessageWaitTimeSeconds to 20 with ")
                .then(set_queue(
                    &facts.name,
                    [QueueChange::ReceiveWaitSeconds(20)],
                ))
                .then(
                    " (or have consumers pass WaitTimeSeconds): fewer empty receives, lower \
                     cost, and no messages missed by sampling a few servers.",
                ),
        )
    })
}

fn redrive(facts: &QueueFacts, obs: Option<&Observations>, now_ms: u64) -> Vec<Finding> {
    let mut findings = Vec::new();
    let Some(policy) = facts.attrs.redrive_policy() else {
        findings.push(
            Finding::new(
                "no-redrive-policy",
                Severity::Warning,
                "No redrive policy: a message that always fails is retried forever",
            )
            .evidence(format!("{} has no RedrivePolicy", facts.name))
            .advice(
                Words::from(
                    "Create a dead-letter queue (FIFO for a FIFO queue, with a longer retention) \
                     and set a RedrivePolicy with a maxReceiveCount of 3 to 10: ",
                )
                .then(set_queue(
                    &facts.name,
                    [dead_letter(dlq_name_for(&facts.name), 5, true)],
                ))
                .then(". On a FIFO queue a failing message otherwise blocks its whole group."),
            ),
        );
        return findings;
    };
    if policy.max_receive_count <= 1 {
        findings.push(
            Finding::new(
                "max-receive-count-one",
                Severity::Warning,
                "maxReceiveCount is 1: a single failed attempt moves a message to the DLQ",
            )
            .evidence(format!(
                "RedrivePolicy maxReceiveCount = {}",
                policy.max_receive_count
            ))
            .advice(
                Words::from(
                    "One timeout, one deploy or one crash sends a good message to the dead-letter \
                     queue, and so does any tool that peeks at the queue. Use 3 to 10: ",
                )
                .then(set_queue(
                    &facts.name,
                    [dead_letter(
                        dlq_of(&policy.dead_letter_target_arn),
                        5,
                        false,
                    )],
                ))
                .then("."),
            ),
        );
    }
    match &facts.dlq {
        Some(Ok(dlq)) => {
            let mut pairing = dlq_pairing(
                &facts.name,
                &facts.attrs,
                &dlq.name,
                &dlq.attrs,
                true,
                facts.dlq_sources,
            );
            if let (Some(short), Some(obs), Some(retention)) = (
                pairing.iter_mut().find(|f| f.id == "dlq-retention-short"),
                obs,
                dlq.attrs.retention_seconds(),
            ) && !facts.attrs.is_fifo()
            {
                // On a standard queue the age carries over: these would expire on arrival.
                let too_old = obs
                    .sent_ms
                    .iter()
                    .filter(|sent| now_ms.saturating_sub(**sent) / 1000 >= retention)
                    .count();
                if too_old > 0 {
                    short.evidence.push(
                        format!(
                            "{too_old} of {} read {} already older than that: {} now, {} in {}",
                            plural(obs.messages, "message"),
                            if too_old == 1 { "is" } else { "are" },
                            if too_old == 1 {
                                "if it fails"
                            } else {
                                "if they fail"
                            },
                            if too_old == 1 {
                                "it expires as it arrives"
                            } else {
                                "they expire as they arrive"
                            },
                            dlq.name
                        )
                        .into(),
                    );
                }
            }
            findings.extend(pairing);
        }
        Some(Err(reason)) => findings.push(
            Finding::new(
                "dlq-missing",
                Severity::Error,
                "The dead-letter queue of the redrive policy cannot be read",
            )
            .evidence(format!("{}: {reason}", policy.dead_letter_target_arn))
            .advice(
                Words::from(
                    "Create the dead-letter queue or point the RedrivePolicy at one that exists (",
                )
                .then(set_queue(
                    &facts.name,
                    [dead_letter(
                        dlq_of(&policy.dead_letter_target_arn),
                        policy.max_receive_count,
                        true,
                    )],
                ))
                .then("); until then failing messages have nowhere to go."),
            ),
        ),
        None => {}
    }
    findings
}

/// Checks a source queue against its dead-letter queue.
fn dlq_pairing(
    source: &str,
    source_attrs: &QueueAttributes,
    dlq: &str,
    dlq_attrs: &QueueAttributes,
    report_depth: bool,
    dlq_sources: usize,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let source_fifo = source_attrs.is_fifo() || source.ends_with(".fifo");
    let dlq_fifo = dlq_attrs.is_fifo() || dlq.ends_with(".fifo");
    if source_fifo != dlq_fifo {
        let kind = |fifo: bool| if fifo { "FIFO" } else { "standard" };
        findings.push(
            Finding::new(
                "dlq-type-mismatch",
                Severity::Error,
                "The dead-letter queue is not of the same type as its source",
            )
            .evidence(format!(
                "{source} is {} but its dead-letter queue {dlq} is {}",
                kind(source_fifo),
                kind(dlq_fifo)
            ))
            .advice(
                Words::from(
                    "A FIFO queue needs a FIFO dead-letter queue and a standard queue a standard \
                     one: ",
                )
                .then(set_queue(
                    source,
                    [dead_letter(dlq_name_for(source), 5, true)],
                ))
                .then("."),
            ),
        );
    }
    if let (Some(source_retention), Some(dlq_retention)) = (
        source_attrs.retention_seconds(),
        dlq_attrs.retention_seconds(),
    ) && dlq_retention <= source_retention
    {
        let longest = crate::client::limits::MAX_RETENTION.as_secs();
        let (severity, why) = if source_fifo {
            (
                Severity::Info,
                "on FIFO queues the retention restarts when a message moves, so this only \
                 shortens the time to act on a failed message",
            )
        } else {
            (
                Severity::Warning,
                "on standard queues a message's age counts from when it was first sent, so a \
                 message that fails late expires in the dead-letter queue almost at once",
            )
        };
        findings.push(
            Finding::new(
                "dlq-retention-short",
                severity,
                "The dead-letter queue does not keep messages longer than its source",
            )
            .evidence(format!(
                "{dlq} keeps messages {}, {source} keeps them {}",
                human_seconds(dlq_retention),
                human_seconds(source_retention)
            ))
            .evidence(why)
            .advice(
                Words::from(format!(
                    "Set MessageRetentionPeriod of {dlq} longer than {source}'s, e.g. the maximum \
                     of 14 days ({longest} seconds): "
                ))
                .then(set_queue(dlq, [QueueChange::RetentionSeconds(longest)]))
                .then("."),
            ),
        );
    }
    let waiting = dlq_attrs.total();
    if report_depth && waiting > 0 {
        findings.push(
            Finding::new(
                "dlq-not-empty",
                Severity::Warning,
                format!(
                    "The dead-letter queue {dlq} holds {}",
                    plural(waiting, "message")
                ),
            )
            .evidence(format!(
                "{dlq}: {} visible, {} in flight, {} delayed",
                dlq_attrs.visible(),
                dlq_attrs.in_flight(),
                dlq_attrs.delayed()
            ))
            .advice(
                Words::from("Look at them with ")
                    .then(Tool::Diagnose { queue: dlq.into() })
                    .then(" or ")
                    .then(Tool::Peek {
                        queue: Some(dlq.into()),
                    })
                    .then(", fix the cause, then move them back with ")
                    .then(Tool::Redrive {
                        dlq: dlq.into(),
                        sources: dlq_sources,
                        to: Some(source.into()),
                    })
                    .then("."),
            ),
        );
    }
    findings
}

fn fifo_throughput(facts: &QueueFacts, groups: &GroupTotals) -> Option<Finding> {
    let attrs = &facts.attrs;
    if !attrs.is_fifo() {
        return None;
    }
    let per_group_limit = attrs.get("FifoThroughputLimit") == Some("perMessageGroupId");
    let per_group_dedup = attrs.get("DeduplicationScope") == Some("messageGroup");
    if per_group_limit && per_group_dedup && groups.distinct_groups <= 2 && groups.messages_seen > 0
    {
        return Some(
            Finding::new(
                "fifo-throughput-mismatch",
                Severity::Warning,
                "High-throughput FIFO is on, but the messages use almost no groups",
            )
            .evidence(format!(
                "FifoThroughputLimit = perMessageGroupId, DeduplicationScope = messageGroup; {} \
                 seen",
                plural(groups.distinct_groups, "group")
            ))
            .advice(
                "High throughput is a quota per message group: with one or two groups the queue \
                 gets no more than a normal FIFO queue. Spread messages over many groups.",
            ),
        );
    }
    if per_group_limit != per_group_dedup {
        return Some(
            Finding::new(
                "fifo-throughput-mismatch",
                Severity::Info,
                "High-throughput FIFO is half configured",
            )
            .evidence(format!(
                "FifoThroughputLimit = {}, DeduplicationScope = {}",
                attrs.get("FifoThroughputLimit").unwrap_or("perQueue"),
                attrs.get("DeduplicationScope").unwrap_or("queue")
            ))
            .advice(
                Words::from(
                    "High-throughput mode needs both FifoThroughputLimit = perMessageGroupId and \
                     DeduplicationScope = messageGroup; otherwise the normal FIFO quota applies. \
                     Turn it on with ",
                )
                .then(set_queue(
                    &facts.name,
                    [
                        attribute("FifoThroughputLimit", "perMessageGroupId"),
                        attribute("DeduplicationScope", "messageGroup"),
                    ],
                ))
                .then("."),
            ),
        );
    }
    None
}

/// A change of `queue`'s settings, as advice names it.
fn set_queue(queue: &str, changes: impl IntoIterator<Item = QueueChange>) -> Tool {
    Tool::SetQueue {
        queue: Some(queue.to_string()),
        changes: changes.into_iter().collect(),
    }
}

fn dead_letter(dlq: impl Into<String>, max_receive_count: u32, create: bool) -> QueueChange {
    QueueChange::DeadLetter {
        dlq: dlq.into(),
        max_receive_count,
        create,
    }
}

fn attribute(name: &str, value: &str) -> QueueChange {
    QueueChange::Attribute {
        name: name.into(),
        value: value.into(),
    }
}

/// The dead-letter queue's name in a redrive policy's target ARN (the ARN when it has none).
fn dlq_of(target_arn: &str) -> &str {
    name_from_arn(target_arn).unwrap_or(target_arn)
}

/// The conventional dead-letter queue name of `source`: `orders-dlq`, `jobs-dlq.fifo`.
fn dlq_name_for(source: &str) -> String {
    match source.strip_suffix(".fifo") {
        Some(stem) => format!("{stem}-dlq.fifo"),
        None => format!("{source}-dlq"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::observe::tests::fifo;

    fn attrs(pairs: &[(&str, &str)]) -> QueueAttributes {
        QueueAttributes(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    const CLOCK: ReceiveClock<'static> = ReceiveClock {
        now_ms: 1_795_000_000_000,
        own_scans: &[],
        visibility_timeout: Some(30),
    };

    fn ids(findings: &[Finding]) -> Vec<&'static str> {
        findings.iter().map(|f| f.id).collect()
    }

    const POLICY: &str =
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:1:jobs-dlq","maxReceiveCount":5}"#;

    fn healthy() -> QueueFacts {
        QueueFacts {
            dlq_sources: 0,
            name: "jobs".into(),
            attrs: attrs(&[
                ("ReceiveMessageWaitTimeSeconds", "20"),
                ("MessageRetentionPeriod", "345600"),
                ("VisibilityTimeout", "30"),
                ("RedrivePolicy", POLICY),
            ]),
            dlq: Some(Ok(RelatedQueue {
                name: "jobs-dlq".into(),
                attrs: attrs(&[("MessageRetentionPeriod", "1209600")]),
            })),
            sources: Vec::new(),
        }
    }

    #[test]
    fn a_healthy_queue_has_no_findings() {
        assert!(check(&healthy(), None, None, &CLOCK, Coverage::Complete).is_empty());
    }

    #[test]
    fn defaults_miss_long_polling_and_a_redrive_policy() {
        let facts = QueueFacts {
            dlq_sources: 0,
            attrs: attrs(&[("ReceiveMessageWaitTimeSeconds", "0")]),
            dlq: None,
            ..healthy()
        };
        let findings = check(&facts, None, None, &CLOCK, Coverage::Complete);
        assert_eq!(ids(&findings), ["no-long-polling", "no-redrive-policy"]);
        assert_eq!(findings[0].severity, Severity::Info);
    }

    #[test]
    fn dlq_problems_are_each_reported() {
        let mut facts = healthy();
        facts.attrs.0.insert(
            "RedrivePolicy".into(),
            POLICY.replace("\"maxReceiveCount\":5", "\"maxReceiveCount\":1"),
        );
        facts.dlq = Some(Ok(RelatedQueue {
            name: "jobs-dlq.fifo".into(),
            attrs: attrs(&[
                ("MessageRetentionPeriod", "86400"),
                ("FifoQueue", "true"),
                ("ApproximateNumberOfMessages", "7"),
            ]),
        }));
        let findings = check(&facts, None, None, &CLOCK, Coverage::Complete);
        assert_eq!(
            ids(&findings),
            [
                "max-receive-count-one",
                "dlq-type-mismatch",
                "dlq-retention-short",
                "dlq-not-empty"
            ]
        );
        assert!(
            findings[2].evidence[0]
                .plain()
                .contains("keeps messages 24h, jobs keeps them 4d")
        );
        assert_eq!(findings[2].severity, Severity::Warning);
        let redrive = |sources| Tool::Redrive {
            dlq: "jobs-dlq.fifo".into(),
            sources,
            to: Some("jobs".into()),
        };
        assert_eq!(findings[3].advice.tools().last(), Some(&redrive(0)));
        // A DLQ shared by several queues: a plain redrive would refuse, so the advice says how
        // many feed it, and which queue to move the messages to.
        facts.dlq_sources = 3;
        let shared = check(&facts, None, None, &CLOCK, Coverage::Complete);
        assert_eq!(shared[3].advice.tools().last(), Some(&redrive(3)));
        facts.dlq = Some(Err("queue does not exist".into()));
        assert_eq!(
            ids(&check(&facts, None, None, &CLOCK, Coverage::Complete)),
            ["max-receive-count-one", "dlq-missing"]
        );
    }

    #[test]
    fn messages_older_than_a_short_dlq_retention_are_counted() {
        let mut facts = healthy();
        facts.dlq = Some(Ok(RelatedQueue {
            name: "jobs-dlq".into(),
            attrs: attrs(&[("MessageRetentionPeriod", "3600")]),
        }));
        let mut obs = Observations::new(false);
        for age_minutes in [10, 90, 120] {
            obs.add(&fifo("g", "d", "b", CLOCK.now_ms - age_minutes * 60_000, 1));
        }
        let findings = check(&facts, Some(&obs), None, &CLOCK, Coverage::Complete);
        let short = findings
            .iter()
            .find(|f| f.id == "dlq-retention-short")
            .expect("finding");
        assert!(
            short.evidence[2]
                .plain()
                .starts_with("2 of 3 messages read are already older")
        );
    }

    #[test]
    fn a_dlq_is_checked_against_its_sources() {
        let facts = QueueFacts {
            dlq_sources: 0,
            name: "jobs-dlq".into(),
            attrs: attrs(&[
                ("MessageRetentionPeriod", "345600"),
                ("ApproximateNumberOfMessages", "2"),
            ]),
            dlq: None,
            sources: vec![RelatedQueue {
                name: "jobs".into(),
                attrs: attrs(&[("MessageRetentionPeriod", "345600")]),
            }],
        };
        assert_eq!(
            ids(&check(&facts, None, None, &CLOCK, Coverage::Complete)),
            ["dlq-retention-short"]
        );
    }

    #[test]
    fn climbing_receive_counts_point_at_the_visibility_timeout() {
        let mut obs = Observations::new(false);
        for i in 0..10 {
            let receives = if i < 4 { 5 } else { 1 };
            let mut message = fifo("g", &format!("d{i}"), "b", 1, receives);
            // First received five minutes ago: ten 30 s timeouts fit.
            message.attributes.insert(
                "ApproximateFirstReceiveTimestamp".into(),
                (CLOCK.now_ms - 300_000).to_string(),
            );
            obs.add(&message);
        }
        let facts = healthy();
        let finding =
            climbing_receives(Some(&facts), &obs, &CLOCK, Coverage::Complete).expect("finding");
        assert!(finding.title.contains("(30s)"));
        assert!(
            finding.evidence[0]
                .plain()
                .starts_with("4 of 10 messages read (40%)")
        );
        assert!(finding.evidence[0].plain().contains("(up to 4)"));
        // Two earlier reads of our own explain the counts away.
        let scans = [CLOCK.now_ms - 20_000, CLOCK.now_ms - 10_000];
        let watched = ReceiveClock {
            own_scans: &scans,
            ..CLOCK
        };
        assert!(climbing_receives(Some(&facts), &obs, &watched, Coverage::Complete).is_none());
        // So do quick reads by other tools: a minute holds only two 30 s timeouts.
        let soon = ReceiveClock {
            now_ms: CLOCK.now_ms - 240_000,
            ..CLOCK
        };
        assert!(climbing_receives(Some(&facts), &obs, &soon, Coverage::Complete).is_none());
        // With nothing in flight no consumer is receiving now: only a note.
        let idle = Coverage::Scan {
            visible_at_start: 10,
            in_flight_at_start: 0,
            exhausted: true,
            counts_lagging: false,
        };
        let finding = climbing_receives(Some(&facts), &obs, &CLOCK, idle).expect("finding");
        assert_eq!(finding.severity, Severity::Info);
    }

    #[test]
    fn high_throughput_fifo_needs_groups_and_both_settings() {
        let totals = |groups| GroupTotals {
            distinct_groups: groups,
            messages_seen: 100,
            ungrouped: 0,
            visible_at_start: None,
            in_flight_at_start: None,
            not_delivered: None,
            largest_group: None,
            largest_group_share_percent: Some(0),
            effective_parallelism: groups as f64,
            exact: true,
            groups_with_more_behind: 0,
            messages_in_those_groups: 0,
            head_of_line_blocked: Vec::new(),
        };
        let facts = |attributes| QueueFacts {
            attrs: attributes,
            ..QueueFacts::plain("jobs.fifo")
        };
        let high = facts(attrs(&[
            ("FifoQueue", "true"),
            ("FifoThroughputLimit", "perMessageGroupId"),
            ("DeduplicationScope", "messageGroup"),
        ]));
        assert_eq!(
            fifo_throughput(&high, &totals(1)).map(|f| f.severity),
            Some(Severity::Warning)
        );
        assert!(fifo_throughput(&high, &totals(50)).is_none());
        let half = facts(attrs(&[
            ("FifoQueue", "true"),
            ("FifoThroughputLimit", "perMessageGroupId"),
        ]));
        let finding = fifo_throughput(&half, &totals(50)).expect("finding");
        assert_eq!(finding.severity, Severity::Info);
        assert!(finding.advice.tools().eq([&set_queue(
            "jobs.fifo",
            [
                attribute("FifoThroughputLimit", "perMessageGroupId"),
                attribute("DeduplicationScope", "messageGroup"),
            ]
        )]));
    }
}
