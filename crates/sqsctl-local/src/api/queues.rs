//! Queue-level actions: create, delete, look up, list, attributes, tags, purge, and dead-letter
//! source listing.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::api::Call;
use crate::engine::attrs::{self, QueueAttributes, RedrivePolicy};
use crate::engine::queue::{Queue, QueueState};
use crate::engine::validate;
use crate::error::{ErrorKind, SqsError, SqsResult, excerpt};
use crate::service::Service;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CreateQueueInput {
    queue_name: Option<String>,
    attributes: Option<HashMap<String, String>>,
    #[serde(rename = "tags")]
    tags: Option<HashMap<String, String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct QueueUrlInput {
    queue_url: Option<String>,
    attributes: Option<HashMap<String, String>>,
    attribute_names: Option<Vec<String>>,
    tags: Option<HashMap<String, String>>,
    tag_keys: Option<Vec<String>>,
    max_results: Option<i64>,
    next_token: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct GetQueueUrlInput {
    queue_name: Option<String>,
    #[serde(rename = "QueueOwnerAWSAccountId")]
    owner: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ListQueuesInput {
    queue_name_prefix: Option<String>,
    max_results: Option<i64>,
    next_token: Option<String>,
}

/// Checks that a redrive policy points at an existing dead-letter queue of the same kind that lets
/// this source use it. Never called with the source queue locked: the target may be the source.
fn check_redrive(
    svc: &Service,
    policy: &RedrivePolicy,
    source_region: &str,
    source_arn: &str,
    fifo: bool,
) -> SqsResult<()> {
    let invalid = |reason: &str| {
        let value = json!({
            "deadLetterTargetArn": policy.dead_letter_arn,
            "maxReceiveCount": policy.max_receive_count,
        });
        SqsError::invalid_value("RedrivePolicy", value, reason)
    };
    let target = svc
        .queue_by_arn(&policy.dead_letter_arn)
        .ok_or_else(|| invalid("Dead letter target does not exist."))?;
    if target.region != source_region {
        return Err(invalid(
            "Dead-letter queue must be in the same region as the source queue.",
        ));
    }
    if target.fifo != fifo {
        return Err(invalid(
            "Dead-letter queue must be the same type of queue (standard or FIFO) as the source queue.",
        ));
    }
    let allow = target.state.lock().attrs.redrive_allow.clone();
    if allow.is_some_and(|a| !a.permits(source_arn)) {
        return Err(invalid(
            "The dead-letter queue's RedriveAllowPolicy does not allow this source queue.",
        ));
    }
    Ok(())
}

fn check_tags(tags: &HashMap<String, String>, existing: usize) -> SqsResult<()> {
    if tags.len() + existing > 50 {
        return Err(SqsError::invalid_parameter(
            "Too many tags added for queue. A queue can have at most 50 tags.",
        ));
    }
    for (key, value) in tags {
        if key.is_empty() || key.chars().count() > 128 || value.chars().count() > 256 {
            return Err(SqsError::invalid_parameter(format!(
                "Tag key must be 1 to 128 and value at most 256 characters: '{}'.",
                excerpt(key)
            )));
        }
    }
    Ok(())
}

pub fn create_queue(call: &Call, input: CreateQueueInput) -> SqsResult<Value> {
    let name = input
        .queue_name
        .ok_or_else(|| SqsError::missing("QueueName"))?;
    let given = input.attributes.unwrap_or_default();
    let fifo = given
        .get("FifoQueue")
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    validate::queue_name(&name, fifo)?;
    let mut attributes = QueueAttributes::default();
    let mut names: Vec<&String> = given.keys().collect();
    names.sort();
    for key in &names {
        attributes.apply(key, &given[*key], fifo, true)?;
    }
    attributes.check_combination()?;
    let arn = call.arn_of(&name);
    if let Some(policy) = &attributes.redrive_policy {
        check_redrive(call.svc, policy, call.region, &arn, fifo)?;
    }
    let tags = input.tags.unwrap_or_default();
    check_tags(&tags, 0)?;
    let now = call.svc.now();
    let state = QueueState::new(attributes.clone(), tags.into_iter().collect(), fifo, now);
    let queue = Queue::new(
        call.svc.next_id(),
        call.region.to_string(),
        name.clone(),
        arn,
        fifo,
        state,
    );
    if let Err(existing) = call.svc.insert_queue(queue)? {
        let current = existing.state.lock().attrs.clone();
        // SQS names one attribute: the first whose value differs.
        let mut differing = (existing.fifo != fifo).then_some("FifoQueue");
        for key in &names {
            let mut wanted = current.clone();
            wanted.apply(key, &given[*key], fifo, true)?;
            if wanted != current && differing.is_none() {
                differing = Some(key.as_str());
            }
        }
        if let Some(attribute) = differing {
            return Err(SqsError::new(
                ErrorKind::QueueNameExists,
                format!(
                    "A queue already exists with the same name and a different value for attribute {attribute}"
                ),
            ));
        }
        // The queue's creation may still be on its way to the disk.
        call.svc.journal.await_recorded();
    }
    Ok(json!({ "QueueUrl": call.url_of(&name) }))
}

pub fn get_queue_url(call: &Call, input: GetQueueUrlInput) -> SqsResult<Value> {
    let name = input
        .queue_name
        .ok_or_else(|| SqsError::missing("QueueName"))?;
    if input.owner.is_some_and(|o| o != call.svc.account) {
        return Err(SqsError::queue_does_not_exist());
    }
    let queue = call
        .queue(&name)
        .ok_or_else(SqsError::queue_does_not_exist)?;
    Ok(json!({ "QueueUrl": call.queue_url(&queue) }))
}

pub fn delete_queue(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    call.svc.remove_queue(&queue);
    Ok(json!({}))
}

fn page_token(name: &str) -> String {
    URL_SAFE_NO_PAD.encode(name.as_bytes())
}

fn parse_token(token: Option<&str>) -> SqsResult<Option<String>> {
    token
        .filter(|t| !t.is_empty())
        .map(|t| {
            URL_SAFE_NO_PAD
                .decode(t.as_bytes())
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .ok_or_else(|| SqsError::invalid_value("NextToken", t, "Invalid token."))
        })
        .transpose()
}

fn max_results(value: Option<i64>) -> SqsResult<Option<usize>> {
    value
        .map(|v| validate::in_range("MaxResults", v, 1, 1000).map(|v| v as usize))
        .transpose()
}

/// Renders one page of queue URLs, with a NextToken only when the caller asked for pages.
fn page(call: &Call, queues: Vec<Arc<Queue>>, limit: Option<usize>, key: &str) -> Value {
    let size = limit.unwrap_or(1000);
    let more = queues.len() > size;
    let shown: Vec<&Arc<Queue>> = queues.iter().take(size).collect();
    let urls: Vec<String> = shown.iter().map(|q| call.queue_url(q)).collect();
    let mut out = Map::new();
    if !urls.is_empty() {
        out.insert(key.into(), json!(urls));
    }
    if let (true, Some(_), Some(last)) = (more, limit, shown.last()) {
        out.insert("NextToken".into(), json!(page_token(&last.name)));
    }
    Value::Object(out)
}

pub fn list_queues(call: &Call, input: ListQueuesInput) -> SqsResult<Value> {
    let limit = max_results(input.max_results)?;
    let after = parse_token(input.next_token.as_deref())?;
    let prefix = input.queue_name_prefix.unwrap_or_default();
    let queues = call.list_queues(&prefix, after.as_deref());
    Ok(page(call, queues, limit, "QueueUrls"))
}

pub fn list_dead_letter_source_queues(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let target = call.queue_by_url(input.queue_url.as_deref())?;
    let limit = max_results(input.max_results)?;
    let after = parse_token(input.next_token.as_deref())?;
    let sources: Vec<Arc<Queue>> = call
        .list_queues("", after.as_deref())
        .into_iter()
        .filter(|q| {
            q.state
                .lock()
                .attrs
                .redrive_policy
                .as_ref()
                .is_some_and(|p| p.dead_letter_arn == target.arn)
        })
        .collect();
    Ok(page(call, sources, limit, "queueUrls"))
}

pub fn get_queue_attributes(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let names = input.attribute_names.unwrap_or_default();
    for name in &names {
        if name != "All" && !attrs::is_known(name, queue.fifo) {
            return Err(SqsError::invalid_attribute_name(name));
        }
    }
    let all = names.iter().any(|n| n == "All");
    let now = call.svc.now();
    let mut rendered = {
        let mut state = queue.state.lock();
        state.tick(now);
        let counts = state.reported_counts(now, call.svc.chance.realism.count_lag_ms());
        let mut map = state.attrs.render(queue.fifo);
        map.insert("ApproximateNumberOfMessages", counts.visible.to_string());
        map.insert(
            "ApproximateNumberOfMessagesNotVisible",
            counts.in_flight.to_string(),
        );
        map.insert(
            "ApproximateNumberOfMessagesDelayed",
            counts.delayed.to_string(),
        );
        map.insert("CreatedTimestamp", (queue.created_at / 1000).to_string());
        map.insert(
            "LastModifiedTimestamp",
            (state.last_modified / 1000).to_string(),
        );
        map
    };
    rendered.insert("QueueArn", queue.arn.clone());
    let selected: BTreeMap<&str, String> = rendered
        .into_iter()
        .filter(|(k, _)| all || names.iter().any(|n| n == k))
        .collect();
    if selected.is_empty() {
        return Ok(json!({}));
    }
    Ok(json!({ "Attributes": selected }))
}

pub fn set_queue_attributes(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let given = input
        .attributes
        .ok_or_else(|| SqsError::missing("Attributes"))?;
    let mut updated = queue.state.lock().attrs.clone();
    let mut names: Vec<&String> = given.keys().collect();
    names.sort();
    for name in names {
        updated.apply(name, &given[name], queue.fifo, false)?;
    }
    updated.check_combination()?;
    if given.contains_key("RedrivePolicy")
        && let Some(policy) = &updated.redrive_policy
    {
        check_redrive(call.svc, policy, &queue.region, &queue.arn, queue.fifo)?;
    }
    let now = call.svc.now();
    let mut state = queue.state.lock();
    // Only the attributes given change, so a concurrent update of others is not lost.
    let mut next = state.attrs.clone();
    for name in given.keys() {
        next.apply(name, &given[name], queue.fifo, false)?;
    }
    next.check_combination()?;
    state.set_attributes(next, now);
    state.last_modified = now;
    state.save(&queue);
    drop(state);
    queue.changed.notify_waiters();
    Ok(json!({}))
}

pub fn purge_queue(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let now = call.svc.now();
    let mut state = queue.state.lock();
    if let Some(last) = state.last_purge
        && now < last.saturating_add(call.svc.purge_cooldown_ms)
    {
        return Err(SqsError::new(
            ErrorKind::PurgeQueueInProgress,
            format!(
                "Only one PurgeQueue operation on {} is allowed every 60 seconds.",
                queue.name
            ),
        ));
    }
    state.purge(&queue, now);
    Ok(json!({}))
}

pub fn tag_queue(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let tags = input.tags.ok_or_else(|| SqsError::missing("Tags"))?;
    let mut state = queue.state.lock();
    let new_keys = tags.keys().filter(|k| !state.tags.contains_key(*k)).count();
    check_tags(&tags, 0)?;
    if state.tags.len() + new_keys > 50 {
        return Err(SqsError::invalid_parameter(
            "Too many tags added for queue. A queue can have at most 50 tags.",
        ));
    }
    state.tags.extend(tags);
    state.save(&queue);
    Ok(json!({}))
}

pub fn untag_queue(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let keys = input.tag_keys.ok_or_else(|| SqsError::missing("TagKeys"))?;
    let mut state = queue.state.lock();
    for key in keys {
        state.tags.remove(&key);
    }
    state.save(&queue);
    Ok(json!({}))
}

pub fn list_queue_tags(call: &Call, input: QueueUrlInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let state = queue.state.lock();
    if state.tags.is_empty() {
        return Ok(json!({}));
    }
    Ok(json!({ "Tags": state.tags }))
}
