//! Start-up queues (`sqsctl local --init FILE`): a declared queue layout (queues, their
//! attributes and tags, dead-letter queues by name) that the server creates when it starts.
//!
//! Applying a layout is idempotent: a queue that already exists with the declared attributes and
//! tags is left alone, so the same file works on every start, with or without a data directory.
//! A queue that exists with other values is an error that lists each difference; nothing is
//! changed behind the user's back. Queues go through the same CreateQueue logic a client uses,
//! so the same validation applies. They are queues of the server's default region. Reading the
//! file (TOML or JSON) is the caller's business; this module takes the parsed [`InitSpec`].

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use crate::api::queues;
use crate::api::{Call, Protocol};
use crate::engine::attrs::QueueAttributes;
use crate::error::ErrorKind;
use crate::service::Service;

/// A queue layout.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitSpec {
    /// The queues, in any order: dead-letter queues are created before the queues that use them.
    #[serde(default, alias = "queue")]
    pub queues: Vec<QueueSpec>,
}

/// One declared queue.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueSpec {
    pub name: String,
    /// SQS attribute names and values (`VisibilityTimeout = 60`). A name ending in `.fifo` makes a
    /// FIFO queue without `FifoQueue` being given.
    #[serde(default)]
    pub attributes: BTreeMap<String, AttributeValue>,
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
    /// The name of this queue's dead-letter queue (declared in the same file, or already there).
    pub dead_letter_queue: Option<String>,
    /// Receives before a message moves to `dead_letter_queue`.
    pub max_receive_count: Option<u32>,
}

/// An attribute value as a file may write it: `60`, `"60"` or `true`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum AttributeValue {
    Text(String),
    Integer(i64),
    Bool(bool),
}

impl std::fmt::Display for AttributeValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttributeValue::Text(s) => f.write_str(s),
            AttributeValue::Integer(n) => write!(f, "{n}"),
            AttributeValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// What applying a layout did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InitReport {
    pub created: Vec<String>,
    pub unchanged: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitError {
    #[error("queue {0:?} is declared twice")]
    Duplicate(String),
    #[error("queue {queue:?}: {reason}")]
    Invalid { queue: String, reason: String },
    #[error(
        "queue {queue:?} names dead_letter_queue {target:?}, which is neither declared in the file nor on the server"
    )]
    UnknownDeadLetterQueue { queue: String, target: String },
    #[error("these queues name each other as dead-letter queues in a loop: {}", .0.join(", "))]
    Cycle(Vec<String>),
    #[error(
        "queue {queue:?} already exists with other settings than the file declares: {}; change the file to match, or delete the queue (with --data-dir, it was kept from an earlier run)",
        .differences.join("; ")
    )]
    Differs {
        queue: String,
        differences: Vec<String>,
    },
}

fn invalid(queue: &str, reason: impl Into<String>) -> InitError {
    InitError::Invalid {
        queue: queue.to_string(),
        reason: reason.into(),
    }
}

/// The attributes a declared queue asks for, as CreateQueue takes them.
fn wanted_attributes(
    svc: &Service,
    spec: &QueueSpec,
) -> Result<HashMap<String, String>, InitError> {
    let mut attributes: HashMap<String, String> = spec
        .attributes
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect();
    if spec.name.ends_with(".fifo") {
        attributes
            .entry("FifoQueue".into())
            .or_insert_with(|| "true".into());
    }
    match (&spec.dead_letter_queue, spec.max_receive_count) {
        (Some(_), _) if attributes.contains_key("RedrivePolicy") => {
            return Err(invalid(
                &spec.name,
                "give dead_letter_queue or a RedrivePolicy attribute, not both",
            ));
        }
        (Some(target), Some(count)) => {
            let policy = json!({
                "deadLetterTargetArn": svc.arn_of(&svc.region, target),
                "maxReceiveCount": count,
            });
            attributes.insert("RedrivePolicy".into(), policy.to_string());
        }
        (Some(_), None) => {
            return Err(invalid(
                &spec.name,
                "dead_letter_queue needs max_receive_count (the receives before a message moves)",
            ));
        }
        (None, Some(_)) => {
            return Err(invalid(
                &spec.name,
                "max_receive_count needs dead_letter_queue",
            ));
        }
        (None, None) => {}
    }
    Ok(attributes)
}

/// Creates the declared queues that are missing and checks those already there.
pub fn apply(svc: &Arc<Service>, spec: &InitSpec) -> Result<InitReport, InitError> {
    let mut seen = std::collections::HashSet::new();
    for queue in &spec.queues {
        if !seen.insert(queue.name.as_str()) {
            return Err(InitError::Duplicate(queue.name.clone()));
        }
    }
    let call = Call {
        svc,
        protocol: Protocol::Json,
        action: "CreateQueue",
        request_id: "",
        region: &svc.region,
        trace_header: None,
        host: None,
        max_messages_override: None,
        wait_seconds_override: None,
    };
    let mut report = InitReport::default();
    let mut pending: Vec<&QueueSpec> = spec.queues.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut waiting = Vec::new();
        for queue in pending {
            let target_ready = queue
                .dead_letter_queue
                .as_ref()
                .is_none_or(|target| svc.queue(&svc.region, target).is_some());
            if target_ready {
                apply_one(&call, queue, &mut report)?;
            } else {
                waiting.push(queue);
            }
        }
        if waiting.len() == before {
            return Err(stuck(&waiting, spec));
        }
        pending = waiting;
    }
    Ok(report)
}

fn stuck(waiting: &[&QueueSpec], spec: &InitSpec) -> InitError {
    for queue in waiting {
        if let Some(target) = &queue.dead_letter_queue
            && !spec.queues.iter().any(|q| &q.name == target)
        {
            return InitError::UnknownDeadLetterQueue {
                queue: queue.name.clone(),
                target: target.clone(),
            };
        }
    }
    InitError::Cycle(waiting.iter().map(|q| q.name.clone()).collect())
}

fn apply_one(call: &Call, spec: &QueueSpec, report: &mut InitReport) -> Result<(), InitError> {
    let attributes = wanted_attributes(call.svc, spec)?;
    let input = serde_json::from_value(json!({
        "QueueName": spec.name,
        "Attributes": attributes,
        "tags": spec.tags,
    }))
    .map_err(|e| invalid(&spec.name, e.to_string()))?;
    let existed = call.queue(&spec.name).is_some();
    match queues::create_queue(call, input) {
        Ok(_) => {}
        Err(err) if err.kind == ErrorKind::QueueNameExists => {
            return Err(differences(call.svc, spec, &attributes));
        }
        Err(err) => return Err(invalid(&spec.name, err.message)),
    }
    if !existed {
        report.created.push(spec.name.clone());
        return Ok(());
    }
    let tag_differences = tag_differences(call.svc, spec);
    if !tag_differences.is_empty() {
        return Err(InitError::Differs {
            queue: spec.name.clone(),
            differences: tag_differences,
        });
    }
    report.unchanged.push(spec.name.clone());
    Ok(())
}

/// Each attribute where the existing queue differs from the declaration, as `Name: the queue has
/// X, the file says Y`.
fn differences(svc: &Service, spec: &QueueSpec, wanted: &HashMap<String, String>) -> InitError {
    let Some(queue) = svc.queue(&svc.region, &spec.name) else {
        return invalid(&spec.name, "it was deleted while the server started");
    };
    let fifo = spec.name.ends_with(".fifo");
    let mut differences = Vec::new();
    if queue.fifo != fifo {
        differences.push(format!(
            "FifoQueue: the queue has {}, the file says {fifo}",
            queue.fifo
        ));
    }
    let current = queue.state.lock().attrs.render(queue.fifo);
    let mut declared = QueueAttributes::default();
    let mut names: Vec<&String> = wanted.keys().collect();
    names.sort();
    for name in names {
        if declared.apply(name, &wanted[name], fifo, true).is_err() {
            continue;
        }
        let now = current.get(name.as_str()).cloned().unwrap_or_default();
        let said = declared
            .render(fifo)
            .get(name.as_str())
            .cloned()
            .unwrap_or_default();
        if now != said {
            let shown = |v: &str| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.to_string()
                }
            };
            differences.push(format!(
                "{name}: the queue has {}, the file says {}",
                shown(&now),
                shown(&said)
            ));
        }
    }
    differences.extend(tag_differences(svc, spec));
    InitError::Differs {
        queue: spec.name.clone(),
        differences,
    }
}

fn tag_differences(svc: &Service, spec: &QueueSpec) -> Vec<String> {
    let Some(queue) = svc.queue(&svc.region, &spec.name) else {
        return Vec::new();
    };
    let state = queue.state.lock();
    spec.tags
        .iter()
        .filter(|(k, v)| state.tags.get(*k) != Some(*v))
        .map(|(k, v)| match state.tags.get(k) {
            Some(now) => format!("tag {k}: the queue has {now:?}, the file says {v:?}"),
            None => format!("tag {k}: the queue does not have it, the file says {v:?}"),
        })
        .collect()
}
