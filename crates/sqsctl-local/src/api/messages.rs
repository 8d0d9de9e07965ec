//! Message actions other than receive: sends, deletes and visibility changes, single and batched.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::api::{Call, Reply};
use crate::engine::md5;
use crate::engine::message::{NewMessage, SendReceipt};
use crate::engine::queue::{Prepared, Queue};
use crate::engine::receipt::Receipt;
use crate::engine::store::{DeleteOutcome, VisibilityChange};
use crate::engine::validate::{self, AttributeValueInput};
use crate::error::{SqsError, SqsResult, excerpt};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct SendInput {
    queue_url: Option<String>,
    id: Option<String>,
    message_body: Option<String>,
    delay_seconds: Option<i64>,
    message_attributes: Option<HashMap<String, AttributeValueInput>>,
    message_system_attributes: Option<HashMap<String, AttributeValueInput>>,
    message_deduplication_id: Option<String>,
    message_group_id: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct BatchInput<E> {
    queue_url: Option<String>,
    entries: Option<Vec<E>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct HandleInput {
    queue_url: Option<String>,
    id: Option<String>,
    receipt_handle: Option<String>,
    visibility_timeout: Option<i64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Failure {
    id: String,
    sender_fault: bool,
    code: &'static str,
    message: String,
}

impl Failure {
    fn new(id: &str, error: &SqsError) -> Self {
        let error = crate::engine::validate::in_batch(error.clone());
        Failure {
            id: id.to_string(),
            sender_fault: error.kind.sender_fault(),
            code: error.kind.entry_code(),
            message: error.message,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SendResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    message_id: String,
    #[serde(rename = "MD5OfMessageBody")]
    md5_of_body: String,
    #[serde(
        rename = "MD5OfMessageAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_attributes: Option<String>,
    #[serde(
        rename = "MD5OfMessageSystemAttributes",
        skip_serializing_if = "Option::is_none"
    )]
    md5_of_system_attributes: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence_number: Option<String>,
}

impl SendResult {
    fn new(id: Option<String>, receipt: SendReceipt) -> Self {
        SendResult {
            id,
            message_id: receipt.message_id.to_string(),
            md5_of_body: md5::hex(&receipt.md5_of_body),
            md5_of_attributes: receipt.md5_of_attributes.as_ref().map(md5::hex),
            md5_of_system_attributes: receipt.md5_of_system_attributes.as_ref().map(md5::hex),
            sequence_number: receipt.sequence.map(|s| s.to_string()),
        }
    }
}

fn to_new_message(input: SendInput) -> SqsResult<NewMessage> {
    let body = input
        .message_body
        .ok_or_else(|| SqsError::missing("MessageBody"))?;
    let delay_seconds = input
        .delay_seconds
        .map(|d| validate::in_range("DelaySeconds", d, 0, i64::from(validate::MAX_DELAY_SECONDS)))
        .transpose()?;
    let attributes = validate::message_attributes(input.message_attributes)?;
    let mut trace_header = None;
    for (name, value) in input.message_system_attributes.unwrap_or_default() {
        if name != "AWSTraceHeader" {
            return Err(SqsError::invalid_parameter(format!(
                "Message system attribute name '{}' is invalid.",
                excerpt(&name)
            )));
        }
        let attribute = validate::attribute_value(name, value)?;
        match (attribute.data_type.as_str(), attribute.value) {
            ("String", crate::engine::message::AttributeValue::String(text)) => {
                trace_header = Some(text)
            }
            _ => {
                return Err(SqsError::invalid_parameter(
                    "The message system attribute AWSTraceHeader must be of type String.",
                ));
            }
        }
    }
    Ok(NewMessage {
        body,
        attributes,
        trace_header,
        delay_seconds,
        group_id: input.message_group_id,
        dedup_id: input.message_deduplication_id,
    })
}

/// A send's message, checked and digested. Without an `AWSTraceHeader` system attribute of its
/// own it carries the request's `X-Amzn-Trace-Id` header: SQS documents that the attribute
/// overrides the header. The digest of system attributes covers only what the client sent.
fn prepare(call: &Call, input: SendInput) -> SqsResult<Prepared> {
    let mut prepared = Prepared::new(to_new_message(input)?)?;
    if prepared.message.trace_header.is_none() {
        prepared.message.trace_header = call.trace_header.map(String::from);
    }
    Ok(prepared)
}

fn send_one(call: &Call, queue: &Queue, input: SendInput) -> SqsResult<SendReceipt> {
    let prepared = prepare(call, input)?;
    let now = call.svc.now();
    let receipt = queue.state.lock().send(prepared, queue.fifo, now)?;
    Ok(receipt)
}

pub fn send_message(call: &Call, input: SendInput) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let receipt = send_one(call, &queue, input)?;
    queue.changed.notify_waiters();
    call.encode(&SendResult::new(None, receipt))
}

/// A batch's answer. SQS leaves an empty list out of a JSON answer (a batch without failures has
/// no `Failed`), so code that reads a key it did not check breaks here as it would on SQS.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct BatchOutput<T> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    successful: Vec<T>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    failed: Vec<Failure>,
}

impl<T> BatchOutput<T> {
    fn new() -> Self {
        BatchOutput {
            successful: Vec::new(),
            failed: Vec::new(),
        }
    }
}

pub fn send_message_batch(call: &Call, input: BatchInput<SendInput>) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let entries = input.entries.unwrap_or_default();
    validate::batch_ids(
        "SendMessageBatchRequestEntry",
        entries.iter().map(|e| e.id.as_deref()),
    )?;
    let total: usize = entries
        .iter()
        .map(|e| {
            e.message_body.as_ref().map_or(0, String::len)
                + e.message_attributes.as_ref().map_or(0, |attrs| {
                    attrs
                        .iter()
                        .map(|(k, v)| {
                            k.len()
                                + v.data_type.as_ref().map_or(0, String::len)
                                + v.string_value.as_ref().map_or(0, String::len)
                                + v.binary_value.as_ref().map_or(0, |b| b.len() * 3 / 4)
                        })
                        .sum()
                })
        })
        .sum();
    if total > validate::MAX_MESSAGE_BYTES {
        return Err(SqsError::new(
            crate::error::ErrorKind::BatchRequestTooLong,
            format!(
                "Batch requests cannot be longer than 1048576 bytes. You have sent {total} bytes."
            ),
        ));
    }
    if queue.fifo {
        fifo_ids_given(&queue, &entries)?;
    }
    let mut output = BatchOutput::new();
    let mut ready = Vec::with_capacity(entries.len());
    for mut entry in entries {
        let id = entry.id.take().unwrap_or_default();
        if call.svc.faults.fail_entry() {
            output.failed.push(Failure::new(&id, &SqsError::internal()));
            continue;
        }
        match prepare(call, entry) {
            Ok(prepared) => ready.push((id, prepared)),
            Err(err) => output.failed.push(Failure::new(&id, &err)),
        }
    }
    if !ready.is_empty() {
        let now = call.svc.now();
        let mut state = queue.state.lock();
        for (id, prepared) in ready {
            match state.send(prepared, queue.fifo, now) {
                Ok(receipt) => output.successful.push(SendResult::new(Some(id), receipt)),
                Err(err) => output.failed.push(Failure::new(&id, &err)),
            }
        }
        drop(state);
        queue.changed.notify_waiters();
    }
    call.encode(&output)
}

/// On a FIFO queue, an entry without a group id, or without a deduplication id where the queue
/// does not derive one from the body, fails the whole batch (SQS answers 400 and sends none).
fn fifo_ids_given(queue: &Queue, entries: &[SendInput]) -> SqsResult<()> {
    let content_based = queue.state.lock().attrs.content_based_dedup;
    for entry in entries {
        if entry.message_group_id.is_none() {
            return Err(SqsError::invalid_parameter(
                "The request must contain the parameter MessageGroupId.",
            ));
        }
        if entry.message_deduplication_id.is_none() && !content_based {
            return Err(SqsError::invalid_parameter(
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
            ));
        }
    }
    Ok(())
}

/// Decodes a handle and checks it belongs to this queue.
fn receipt_of(queue: &Queue, handle: Option<&str>) -> SqsResult<Receipt> {
    let handle = handle.ok_or_else(|| SqsError::missing("ReceiptHandle"))?;
    Receipt::decode(handle)
        .filter(|r| r.queue_id == queue.id)
        .ok_or_else(|| SqsError::receipt_handle_invalid(handle))
}

fn delete_one(call: &Call, queue: &Queue, input: &HandleInput) -> SqsResult<DeleteOutcome> {
    let receipt = receipt_of(queue, input.receipt_handle.as_deref())?;
    let now = call.svc.now();
    match queue
        .state
        .lock()
        .delete(receipt.key, receipt.generation, now)
    {
        DeleteOutcome::Expired => Err(SqsError::invalid_value(
            "ReceiptHandle",
            input.receipt_handle.as_deref().unwrap_or_default(),
            "The receipt handle has expired.",
        )),
        outcome => Ok(outcome),
    }
}

pub fn delete_message(call: &Call, input: HandleInput) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    if delete_one(call, &queue, &input)? == DeleteOutcome::Deleted {
        // A FIFO group the message held back may deliver now, to a receive already waiting.
        queue.changed.notify_waiters();
    }
    call.encode(&json!({}))
}

fn change_one(call: &Call, queue: &Queue, input: &HandleInput) -> SqsResult<()> {
    let timeout = input
        .visibility_timeout
        .ok_or_else(|| SqsError::missing("VisibilityTimeout"))?;
    let timeout = validate::in_range(
        "VisibilityTimeout",
        timeout,
        0,
        i64::from(validate::MAX_VISIBILITY_TIMEOUT),
    )?;
    let receipt = receipt_of(queue, input.receipt_handle.as_deref())?;
    let now = call.svc.now();
    let mut state = queue.state.lock();
    state.tick(now);
    state.change_visibility(VisibilityChange {
        key: receipt.key,
        generation: receipt.generation,
        timeout_secs: timeout,
        now,
        handle: input.receipt_handle.as_deref().unwrap_or_default(),
    })
}

pub fn change_message_visibility(call: &Call, input: HandleInput) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    change_one(call, &queue, &input)?;
    queue.changed.notify_waiters();
    call.encode(&json!({}))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct IdOnly {
    id: String,
}

/// Shared shape of DeleteMessageBatch and ChangeMessageVisibilityBatch.
fn handle_batch(
    call: &Call,
    input: BatchInput<HandleInput>,
    entry_shape: &str,
    apply: impl Fn(&Queue, &HandleInput) -> SqsResult<()>,
) -> Reply {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let entries = input.entries.unwrap_or_default();
    validate::batch_ids(entry_shape, entries.iter().map(|e| e.id.as_deref()))?;
    let mut output = BatchOutput::new();
    for entry in &entries {
        let id = entry.id.clone().unwrap_or_default();
        if call.svc.faults.fail_entry() {
            output.failed.push(Failure::new(&id, &SqsError::internal()));
            continue;
        }
        match apply(&queue, entry) {
            Ok(()) => output.successful.push(IdOnly { id }),
            Err(err) => output.failed.push(Failure::new(&id, &err)),
        }
    }
    queue.changed.notify_waiters();
    call.encode(&output)
}

pub fn delete_message_batch(call: &Call, input: BatchInput<HandleInput>) -> Reply {
    handle_batch(
        call,
        input,
        "DeleteMessageBatchRequestEntry",
        |queue, entry| delete_one(call, queue, entry).map(|_| ()),
    )
}

pub fn change_message_visibility_batch(call: &Call, input: BatchInput<HandleInput>) -> Reply {
    handle_batch(
        call,
        input,
        "ChangeMessageVisibilityBatchRequestEntry",
        |queue, entry| change_one(call, queue, entry),
    )
}
