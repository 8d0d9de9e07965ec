//! ReceiveMessage: long polling, dead-letter moves, and the selection of system and message
//! attributes in the answer; under [`crate::Realism`], short polls that sample and standard
//! queues that deliver out of order and some messages twice.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::api::{Call, Reply};
use crate::engine::md5;
use crate::engine::message::{AttributeValue, MessageAttribute, State, StoredMessage};
use crate::engine::queue::Queue;
use crate::engine::receipt::Receipt;
use crate::engine::store::{Ask, VisibilityChange};
use crate::engine::validate;
use crate::error::{ErrorKind, SqsError, SqsResult};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ReceiveInput {
    queue_url: Option<String>,
    attribute_names: Option<Vec<String>>,
    message_system_attribute_names: Option<Vec<String>>,
    message_attribute_names: Option<Vec<String>>,
    max_number_of_messages: Option<i64>,
    visibility_timeout: Option<i64>,
    wait_time_seconds: Option<i64>,
    receive_request_attempt_id: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct AttributeOut {
    data_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    string_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary_value: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct MessageOut {
    message_id: String,
    /// Only received messages have one; inspected ones do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    receipt_handle: Option<String>,
    #[serde(rename = "MD5OfBody")]
    md5_of_body: String,
    body: Arc<str>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    attributes: BTreeMap<&'static str, String>,
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_attributes: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    message_attributes: BTreeMap<String, AttributeOut>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReceiveOutput {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    messages: Vec<MessageOut>,
}

/// Which attributes the caller asked for.
struct Selection {
    system: Vec<String>,
    message: Vec<String>,
}

impl Selection {
    fn wants_system(&self, name: &str) -> bool {
        self.system.iter().any(|n| n == "All" || n == name)
    }

    /// `All`, `*` and `.*` ask for every attribute; `prefix.*` for the names that start with the
    /// prefix (SQS answered `Hel.*` with `Hello` and `Help.Me`); any other name for itself.
    fn wants_message(&self, name: &str) -> bool {
        self.message.iter().any(|pattern| {
            matches!(pattern.as_str(), "All" | "*" | ".*")
                || pattern == name
                || pattern
                    .strip_suffix(".*")
                    .is_some_and(|prefix| name.starts_with(prefix))
        })
    }
}

fn system_attributes(
    message: &StoredMessage,
    selection: &Selection,
    account: &str,
) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    if selection.system.is_empty() {
        return out;
    }
    // Values are computed only for the names asked for.
    let mut put = |name: &'static str, value: &dyn Fn() -> Option<String>| {
        if selection.wants_system(name)
            && let Some(value) = value()
        {
            out.insert(name, value);
        }
    };
    put("SenderId", &|| Some(account.to_string()));
    put("SentTimestamp", &|| Some(message.sent_at.to_string()));
    put("ApproximateReceiveCount", &|| {
        Some(message.receive_count.to_string())
    });
    put("ApproximateFirstReceiveTimestamp", &|| {
        message.first_received_at().map(|t| t.to_string())
    });
    put("SequenceNumber", &|| {
        message.sequence().map(|s| s.to_string())
    });
    put("MessageDeduplicationId", &|| {
        message.dedup_id().map(String::from)
    });
    put("MessageGroupId", &|| {
        message.group_id.as_deref().map(String::from)
    });
    put("DeadLetterQueueSourceArn", &|| {
        message.dead_letter_source().map(String::from)
    });
    put("AWSTraceHeader", &|| {
        message.trace_header().map(String::from)
    });
    out
}

fn render(
    call: &Call,
    queue: &Queue,
    key: u64,
    message: &StoredMessage,
    selection: &Selection,
) -> MessageOut {
    let receipt = Receipt {
        queue_id: queue.id,
        key,
        generation: message.receive_count,
    };
    MessageOut {
        receipt_handle: Some(receipt.encode()),
        ..describe(message, selection, &call.svc.account)
    }
}

impl MessageOut {
    /// The message under a stand-in receipt handle, with `marks` among its system attributes:
    /// how LocalStack's developer endpoint shows what it lists.
    pub fn marked(
        mut self,
        receipt_handle: &str,
        marks: impl IntoIterator<Item = (&'static str, String)>,
    ) -> Self {
        self.receipt_handle = Some(receipt_handle.to_string());
        self.attributes.extend(marks);
        self
    }
}

/// A message as a receive asking for every system and message attribute shows it, without a
/// receipt handle: what the inspection endpoint lists. Changes nothing.
pub fn inspected(message: &StoredMessage, account: &str) -> MessageOut {
    let all = Selection {
        system: vec!["All".into()],
        message: vec!["All".into()],
    };
    describe(message, &all, account)
}

/// A message with the attributes `selection` asks for, without a receipt handle.
fn describe(message: &StoredMessage, selection: &Selection, account: &str) -> MessageOut {
    let chosen: Vec<&MessageAttribute> = message
        .attributes()
        .iter()
        .filter(|a| selection.wants_message(&a.name))
        .collect();
    let md5_of_attributes = if chosen.is_empty() {
        None
    } else if chosen.len() == message.attributes().len() {
        message.md5_of_attributes
    } else {
        let subset: Vec<MessageAttribute> = chosen.iter().map(|a| (*a).clone()).collect();
        md5::of_attributes(&subset)
    };
    let message_attributes = chosen
        .into_iter()
        .map(|a| {
            let (string_value, binary_value) = match &a.value {
                AttributeValue::String(s) => (Some(s.clone()), None),
                AttributeValue::Binary(b) => (
                    None,
                    Some(base64::engine::general_purpose::STANDARD.encode(b)),
                ),
            };
            let out = AttributeOut {
                data_type: a.data_type.clone(),
                string_value,
                binary_value,
            };
            (a.name.clone(), out)
        })
        .collect();
    MessageOut {
        message_id: message.id.to_string(),
        receipt_handle: None,
        md5_of_body: md5::hex(&message.md5_of_body),
        body: message.body.clone(),
        attributes: system_attributes(message, selection, account),
        md5_of_attributes: md5_of_attributes.as_ref().map(md5::hex),
        message_attributes,
    }
}

/// One receive attempt; moves messages past their source's maxReceiveCount to the dead-letter
/// queue. A `short` poll (`WaitTimeSeconds` 0) may see fewer messages than there are, or none,
/// when the server samples short polls.
fn attempt(
    call: &Call,
    queue: &Arc<Queue>,
    max: usize,
    visibility: Option<u32>,
    short: bool,
) -> SqsResult<Vec<(u64, StoredMessage)>> {
    let now = call.svc.now();
    let chance = &call.svc.chance;
    let mut state = queue.state.lock();
    state.tick(now);
    let max = if short && chance.realism.short_poll_sample < 1.0 {
        chance.short_poll(max, state.messages.counts().visible)
    } else {
        max
    };
    if max == 0 {
        return Ok(Vec::new());
    }
    let visibility_ms = u64::from(visibility.unwrap_or(state.attrs.visibility_timeout)) * 1000;
    // A policy whose target is gone moves nothing, as SQS keeps such messages in the source.
    let policy = state.attrs.redrive_policy.clone();
    let limit = call.svc.max_in_flight;
    let in_flight = state.messages.counts().in_flight;
    if in_flight >= limit {
        // As SQS documents it: a standard queue refuses a short poll with OverLimit; a long poll
        // and a FIFO queue return nothing until messages leave flight.
        if queue.fifo || !short {
            return Ok(Vec::new());
        }
        return Err(SqsError::new(
            ErrorKind::OverLimit,
            format!(
                "The queue has its limit of {limit} messages in flight (received and not yet deleted or visible again): delete messages or let their visibility timeout end."
            ),
        ));
    }
    // One receive takes no more than the room left under the limit.
    let max = max.min(limit - in_flight);
    let target = policy
        .as_ref()
        .and_then(|p| call.queue_by_arn(&p.dead_letter_arn))
        .filter(|t| !Arc::ptr_eq(t, queue));
    let limit = target
        .as_ref()
        .and(policy.as_ref())
        .map(|p| p.max_receive_count);
    let ask = Ask::new(max, visibility_ms).dead_lettering_after(limit);
    let received = match chance.for_receive() {
        None => state.receive(now, ask, None),
        Some(mut draw) => state.receive(now, ask, Some(&mut draw)),
    };
    drop(state);
    if received.twins_delivered > 0 {
        chance.count_duplicates(received.twins_delivered);
    }
    if received.twins_owed > 0 {
        queue.changed.notify_waiters();
    }
    if let Some(target) = target
        && !received.to_dead_letter.is_empty()
    {
        let source: Arc<str> = queue.arn.as_str().into();
        let mut dlq = target.state.lock();
        for message in received.to_dead_letter {
            dlq.accept_dead_letter(message, &source, target.fifo, now);
        }
        drop(dlq);
        target.changed.notify_waiters();
    }
    Ok(received.messages)
}

pub async fn receive_message(call: &Call<'_>, input: ReceiveInput) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let max = match (call.max_messages_override, input.max_number_of_messages) {
        (Some(n), _) => n,
        (None, Some(n)) => validate::in_range("MaxNumberOfMessages", n, 1, 10)? as usize,
        (None, None) => 1,
    };
    let visibility = input
        .visibility_timeout
        .map(|v| {
            validate::in_range(
                "VisibilityTimeout",
                v,
                0,
                i64::from(validate::MAX_VISIBILITY_TIMEOUT),
            )
        })
        .transpose()?;
    let wait = match (call.wait_seconds_override, input.wait_time_seconds) {
        (Some(w), _) => w,
        (None, Some(w)) if (0..=i64::from(validate::MAX_WAIT_SECONDS)).contains(&w) => w as u32,
        (None, Some(w)) => {
            return Err(SqsError::invalid_value(
                "WaitTimeSeconds",
                w,
                "Must be >= 0 and <= 20, if provided.",
            ));
        }
        (None, None) => queue.state.lock().attrs.receive_wait_seconds,
    };
    let mut system = input.attribute_names.unwrap_or_default();
    system.extend(input.message_system_attribute_names.unwrap_or_default());
    let selection = Selection {
        system,
        message: input.message_attribute_names.unwrap_or_default(),
    };
    let attempt_id = receive_attempt_id(&queue, input.receive_request_attempt_id)?;
    if let Some(id) = &attempt_id
        && let Some(messages) = call.svc.attempts.recall(queue.id, id, call.svc.now())
        && renew(call, &queue, &messages, visibility)
    {
        return answer(call, &queue, &messages, &selection);
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(u64::from(wait));
    // LocalStack's wait override collects until the batch is full; a receive returns as soon as
    // it has any message otherwise.
    let full_batch = call.wait_seconds_override.is_some();
    let mut messages = Vec::new();
    let messages = loop {
        let changed = queue.changed.notified();
        let advanced = call.svc.clock.advanced();
        let stopping = call.svc.stop.notified();
        tokio::pin!(changed, advanced, stopping);
        changed.as_mut().enable();
        advanced.as_mut().enable();
        stopping.as_mut().enable();
        messages.extend(attempt(
            call,
            &queue,
            max - messages.len(),
            visibility,
            wait == 0,
        )?);
        let done = if full_batch {
            messages.len() >= max
        } else {
            !messages.is_empty()
        };
        let now = tokio::time::Instant::now();
        if done || now >= deadline || call.svc.is_stopping() {
            break messages;
        }
        // On a real clock, wake when the next delay or visibility timeout runs out.
        let mut wake = deadline;
        if !call.svc.clock.is_manual()
            && let Some(next) = queue.state.lock().messages.next_deadline()
        {
            let wait_ms = next.saturating_sub(call.svc.now()) + 1;
            wake = wake.min(now + Duration::from_millis(wait_ms));
        }
        tokio::select! {
            _ = &mut changed => {}
            _ = &mut advanced => {}
            _ = &mut stopping => {}
            _ = tokio::time::sleep_until(wake) => {}
        }
    };
    if let Some(id) = &attempt_id
        && !messages.is_empty()
    {
        call.svc
            .attempts
            .remember(queue.id, id, call.svc.now(), messages.clone());
    }
    answer(call, &queue, &messages, &selection)
}

fn answer(
    call: &Call,
    queue: &Queue,
    messages: &[(u64, StoredMessage)],
    selection: &Selection,
) -> Reply {
    let rendered: Vec<MessageOut> = messages
        .iter()
        .map(|(key, message)| render(call, queue, *key, message, selection))
        .collect();
    call.encode(&ReceiveOutput { messages: rendered })
}

/// The attempt id of a FIFO receive (standard queues ignore it), checked as SQS does.
fn receive_attempt_id(queue: &Queue, id: Option<String>) -> SqsResult<Option<String>> {
    let Some(id) = id.filter(|_| queue.fifo) else {
        return Ok(None);
    };
    let valid = !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_graphic());
    if !valid {
        return Err(SqsError::invalid_value(
            "ReceiveRequestAttemptId",
            &id,
            "It must be 1 to 128 alphanumeric or punctuation characters.",
        ));
    }
    Ok(Some(id))
}

/// A retried attempt starts the visibility timeout of its messages over; `false` when any of them
/// is no longer in flight under the same receipt handle (deleted, or visible and received again).
fn renew(
    call: &Call,
    queue: &Queue,
    messages: &[(u64, StoredMessage)],
    visibility: Option<u32>,
) -> bool {
    let now = call.svc.now();
    let mut state = queue.state.lock();
    state.tick(now);
    let timeout = visibility.unwrap_or(state.attrs.visibility_timeout);
    // Through the queue state, not its messages, so that the new deadline reaches the data
    // directory too.
    messages.iter().all(|(key, message)| {
        // A visibility change accepts older handles too; a retried attempt must not.
        let held = state.messages.get(*key).is_some_and(|m| {
            m.receive_count == message.receive_count && matches!(m.state, State::InFlight { .. })
        });
        held && state
            .change_visibility(VisibilityChange {
                key: *key,
                generation: message.receive_count,
                timeout_secs: timeout,
                now,
                handle: "",
            })
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_attribute_selection() {
        let selection = Selection {
            system: vec![],
            message: vec!["order.*".into(), "exact".into()],
        };
        assert!(selection.wants_message("order.id"));
        assert!(selection.wants_message("orders"));
        assert!(selection.wants_message("exact"));
        assert!(!selection.wants_message("exactly"));
        assert!(!selection.wants_message("other"));
        let all = Selection {
            system: vec!["All".into()],
            message: vec![".*".into()],
        };
        assert!(all.wants_message("anything") && all.wants_system("SentTimestamp"));
        for every in ["All", "*", ".*"] {
            let selection = Selection {
                system: vec![],
                message: vec![every.into()],
            };
            assert!(selection.wants_message("Help.Me"), "{every}");
        }
    }
}
