//! The words of `diagnose`'s findings as users read them: each [`Tool`] the analyzers name, spelled
//! as the sqsctl command line (in backticks) or the flag that does it; and the finding and
//! skipped-check records, in every format, that carry those words.

use serde::Serialize;

use crate::diagnose::{Finding, QueueChange, Severity, Skipped, Tool, Words};
use crate::text::format_seconds;

/// The words with each tool spelled out.
pub fn spell(words: &Words) -> String {
    words.render(tool)
}

fn tool(tool: &Tool) -> String {
    match tool {
        Tool::Peek { queue: None } => "`sqsctl peek`".into(),
        Tool::Peek { queue: Some(queue) } => format!("`sqsctl peek {queue}`"),
        Tool::Diagnose { queue } => format!("`sqsctl diagnose {queue}`"),
        Tool::DiagnoseExport { queue } => format!("`sqsctl diagnose {queue} --input FILE`"),
        Tool::Export { queue } => format!("`sqsctl receive {queue} > dump.jsonl`"),
        Tool::SetQueue { queue, changes } => {
            let mut line = format!("`sqsctl queue set {}", queue.as_deref().unwrap_or("QUEUE"));
            for change in changes {
                line.push(' ');
                line.push_str(&queue_change(change));
            }
            line + "`"
        }
        // A redrive without --to returns the messages to the one source queue, and refuses a
        // dead-letter queue of several: then it is --native (each to its own) or --to.
        Tool::Redrive { dlq, sources, to } if *sources > 1 => format!(
            "`sqsctl redrive {dlq} --native` ({dlq} serves {sources} queues: it returns each \
             message to its own) or `sqsctl redrive {dlq} --to {}` (all of them to one queue)",
            to.as_deref().unwrap_or("QUEUE")
        ),
        Tool::Redrive { dlq, .. } => format!("`sqsctl redrive {dlq}`"),
        Tool::LookingReads => "`sqsctl peek`, `fifo groups` or `diagnose`".into(),
        Tool::ForceRead => "--force".into(),
        Tool::SampleSize => "--sample".into(),
    }
}

/// A change as `queue set` takes it.
fn queue_change(change: &QueueChange) -> String {
    match change {
        QueueChange::VisibilityTimeoutSeconds(seconds) => {
            format!("--visibility {}", format_seconds(*seconds))
        }
        QueueChange::ReceiveWaitSeconds(seconds) => format!("--wait {}", format_seconds(*seconds)),
        QueueChange::RetentionSeconds(seconds) => {
            format!("--retention {}", format_seconds(*seconds))
        }
        QueueChange::DeadLetter {
            dlq,
            max_receive_count,
            create,
        } => format!(
            "--dlq {dlq} --max-receive {max_receive_count}{}",
            if *create { " --create-dlq" } else { "" }
        ),
        QueueChange::Attribute { name, value } => format!("--attr {name}={value}"),
    }
}

/// A finding as users read it (a `finding` record; a table row, see [`super::diagnose`]).
#[derive(Serialize)]
pub struct FindingRecord<'a> {
    pub id: &'a str,
    pub severity: Severity,
    pub title: &'a str,
    pub evidence: Vec<String>,
    pub advice: String,
}

impl<'a> From<&'a Finding> for FindingRecord<'a> {
    fn from(finding: &'a Finding) -> FindingRecord<'a> {
        FindingRecord {
            id: finding.id,
            severity: finding.severity,
            title: &finding.title,
            evidence: finding.evidence.iter().map(spell).collect(),
            advice: spell(&finding.advice),
        }
    }
}

/// A check that did not run, or ran over part of the queue only, as users read it.
#[derive(Serialize)]
pub struct SkippedRecord<'a> {
    pub check: &'a str,
    pub reason: String,
}

impl<'a> From<&'a Skipped> for SkippedRecord<'a> {
    fn from(skipped: &'a Skipped) -> SkippedRecord<'a> {
        SkippedRecord {
            check: skipped.check,
            reason: spell(&skipped.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redrive(sources: usize, to: Option<&str>) -> String {
        spell(&Words::from(Tool::Redrive {
            dlq: "jobs-dlq".into(),
            sources,
            to: to.map(String::from),
        }))
    }

    #[test]
    fn a_redrive_of_a_dlq_with_several_sources_names_what_works() {
        assert_eq!(redrive(1, Some("jobs")), "`sqsctl redrive jobs-dlq`");
        let shared = redrive(3, Some("jobs"));
        assert!(shared.starts_with("`sqsctl redrive jobs-dlq --native` (jobs-dlq serves 3 queues"));
        assert!(
            shared.contains("`sqsctl redrive jobs-dlq --to jobs`"),
            "{shared}"
        );
        assert!(redrive(2, None).contains("--to QUEUE`"));
    }

    #[test]
    fn queue_changes_read_as_the_queue_set_command_line() {
        let set = |queue: Option<&str>, changes| {
            spell(&Words::from(Tool::SetQueue {
                queue: queue.map(String::from),
                changes,
            }))
        };
        assert_eq!(
            set(
                Some("jobs"),
                vec![
                    QueueChange::VisibilityTimeoutSeconds(300),
                    QueueChange::ReceiveWaitSeconds(20),
                    QueueChange::RetentionSeconds(1_209_600),
                ]
            ),
            "`sqsctl queue set jobs --visibility 5m --wait 20s --retention 14d`"
        );
        assert_eq!(
            set(
                None,
                vec![QueueChange::DeadLetter {
                    dlq: "jobs-dlq".into(),
                    max_receive_count: 5,
                    create: true,
                }]
            ),
            "`sqsctl queue set QUEUE --dlq jobs-dlq --max-receive 5 --create-dlq`"
        );
        assert_eq!(
            set(
                Some("jobs.fifo"),
                vec![QueueChange::Attribute {
                    name: "FifoThroughputLimit".into(),
                    value: "perMessageGroupId".into(),
                }]
            ),
            "`sqsctl queue set jobs.fifo --attr FifoThroughputLimit=perMessageGroupId`"
        );
    }

    #[test]
    fn settings_advice_reads_with_the_command_that_fixes_it() {
        use crate::client::QueueAttributes;
        use crate::diagnose::groups::Coverage;
        use crate::diagnose::{QueueFacts, ReceiveClock, RelatedQueue};
        let attrs = |pairs: &[(&str, &str)]| {
            QueueAttributes(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            )
        };
        let policy =
            r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:1:jobs-dlq","maxReceiveCount":5}"#;
        let facts = QueueFacts {
            name: "jobs.fifo".into(),
            attrs: attrs(&[
                ("FifoQueue", "true"),
                ("ReceiveMessageWaitTimeSeconds", "20"),
                ("RedrivePolicy", policy),
            ]),
            dlq: Some(Ok(RelatedQueue {
                name: "jobs-dlq".into(),
                attrs: QueueAttributes::default(),
            })),
            sources: Vec::new(),
            dlq_sources: 1,
        };
        let clock = ReceiveClock {
            now_ms: 0,
            own_scans: &[],
            visibility_timeout: None,
        };
        let findings =
            crate::diagnose::settings::check(&facts, None, None, &clock, Coverage::Complete);
        let advice: Vec<String> = findings.iter().map(|f| spell(&f.advice)).collect();
        assert_eq!(
            advice,
            [
                "A FIFO queue needs a FIFO dead-letter queue and a standard queue a standard one: \
              `sqsctl queue set jobs.fifo --dlq jobs-dlq.fifo --max-receive 5 --create-dlq`."
            ]
        );
        let missing = QueueFacts {
            dlq: Some(Err("does not exist".into())),
            ..facts
        };
        let findings =
            crate::diagnose::settings::check(&missing, None, None, &clock, Coverage::Complete);
        assert_eq!(
            spell(&findings[0].advice),
            "Create the dead-letter queue or point the RedrivePolicy at one that exists \
             (`sqsctl queue set jobs.fifo --dlq jobs-dlq --max-receive 5 --create-dlq`); until \
             then failing messages have nowhere to go."
        );
    }

    #[test]
    fn options_of_the_run_are_named_by_their_flags() {
        let words = Words::from("pass ")
            .then(Tool::ForceRead)
            .then(" or a larger ")
            .then(Tool::SampleSize);
        assert_eq!(spell(&words), "pass --force or a larger --sample");
    }
}
