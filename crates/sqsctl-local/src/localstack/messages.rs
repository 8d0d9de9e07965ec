//! LocalStack's developer endpoint: `GET|POST /_aws/sqs/messages?QueueUrl=...` or
//! `/_aws/sqs/messages/<region>/<account>/<name>` lists a queue's messages as a `ReceiveMessage`
//! answer, without receiving them: no receive count, visibility, first-receive time or FIFO group
//! changes. Every message carries the stand-in receipt handle `SQS/BACKDOOR/ACCESS` and all its
//! attributes. `ShowInvisible=true` adds messages in flight (and FIFO messages held behind a group
//! in flight) with the attribute `IsVisible`; `ShowDelayed=true` adds delayed ones with
//! `IsDelayed`.
//!
//! The answer is in AWS JSON 1.0 when the request's `Content-Type` is
//! `application/x-amz-json-1.0`, and otherwise in the Query protocol: XML, or, when the request
//! accepts `application/json`, that XML's document as JSON the way LocalStack writes it
//! (`ReceiveMessageResponse.ReceiveMessageResult.Message`, a list, or one object for one message;
//! attributes as `Attribute` entries of `Name` and `Value`), which scripts written for LocalStack
//! read.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Value, json};

use crate::api::receive::MessageOut;
use crate::api::{
    Call, JSON_CONTENT_TYPE, Protocol, Request, Response, accepts_json, new_request_id, receive,
};
use crate::engine::message::StoredMessage;
use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::http::queue_urls::region_of_host;
use crate::inspect::{Seen, delivery_order, seen_at};
use crate::service::Service;

pub const PATH: &str = "/_aws/sqs/messages";
pub const PATH_PREFIX: &str = "/_aws/sqs/messages/";

/// The receipt handle of every listed message: it names no receive, so nothing can delete or
/// hide a message through it.
pub const RECEIPT_HANDLE: &str = "SQS/BACKDOOR/ACCESS";

/// Where the queue is and what to show.
#[derive(Debug, Default)]
struct Asked {
    queue_url: Option<String>,
    show_invisible: bool,
    show_delayed: bool,
    /// An `Action` (or `X-Amz-Target`) other than ReceiveMessage.
    other_action: Option<String>,
}

/// The protocol of the answer, as LocalStack decides it.
fn protocol(req: &Request) -> Protocol {
    let mime = req
        .content_type
        .as_deref()
        .and_then(|c| c.split(';').next())
        .map(str::trim);
    if mime.is_some_and(|m| m.eq_ignore_ascii_case(JSON_CONTENT_TYPE)) {
        return Protocol::Json;
    }
    if accepts_json(req.accept.as_deref()) {
        // Answered as LocalStack's JSON form of the XML document, by `answer`.
        Protocol::QueryJson
    } else {
        Protocol::Query
    }
}

fn is_true(value: &str) -> bool {
    value.eq_ignore_ascii_case("true") || value == "1"
}

fn read(req: &Request, protocol: Protocol) -> SqsResult<Asked> {
    let mut asked = Asked::default();
    let form = req
        .content_type
        .as_deref()
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"));
    let mut pairs: Vec<(String, String)> =
        form_urlencoded::parse(req.query.as_deref().unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    if form {
        pairs.extend(form_urlencoded::parse(&req.body).into_owned());
    }
    for (name, value) in pairs {
        match name.as_str() {
            "QueueUrl" if asked.queue_url.is_none() => asked.queue_url = Some(value),
            "ShowInvisible" => asked.show_invisible = is_true(&value),
            "ShowDelayed" => asked.show_delayed = is_true(&value),
            "Action" if value != "ReceiveMessage" => asked.other_action = Some(value),
            _ => {}
        }
    }
    if protocol == Protocol::Json {
        if let Some(target) = req.target.as_deref()
            && target != "AmazonSQS.ReceiveMessage"
        {
            asked.other_action = Some(target.to_string());
        }
        if !req.body.iter().all(u8::is_ascii_whitespace) {
            let body: Value = serde_json::from_slice(&req.body).map_err(|e| {
                SqsError::new(
                    ErrorKind::SerializationError,
                    format!("The request body could not be read: {e}"),
                )
            })?;
            if let Some(url) = body.get("QueueUrl").and_then(Value::as_str) {
                asked.queue_url = Some(url.to_string());
            }
        }
    }
    Ok(asked)
}

/// Region, account and name of a queue URL in any shape the server hands out; `None` for a URL
/// that is none of them.
fn parse_url<'u>(
    url: &'u str,
    default_region: Option<&'u str>,
) -> Option<(&'u str, &'u str, &'u str)> {
    let url = url.trim_end_matches('/');
    let (host, path) = match url.split_once("://") {
        Some((_, rest)) => rest.split_once('/').unwrap_or((rest, "")),
        None => ("", url.trim_start_matches('/')),
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').collect();
    match segments.as_slice() {
        [account, name] => Some((region_of_host(host).or(default_region)?, account, name)),
        [region, account, name] => Some((region, account, name)),
        ["queue", region, account, name] => Some((region, account, name)),
        _ => None,
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Listing {
    messages: Vec<MessageOut>,
}

fn list(
    svc: &Arc<Service>,
    req: &Request,
    protocol: Protocol,
    request_id: &str,
) -> SqsResult<Vec<u8>> {
    let asked = read(req, protocol)?;
    if asked.other_action.is_some() {
        // LocalStack's words, which its clients compare.
        return Err(SqsError::new(
            ErrorKind::InvalidRequest,
            "This endpoint only accepts ReceiveMessage calls",
        ));
    }
    let signed = crate::http::region::signed_region(req.authorization.as_deref(), None)?;
    let fallback = signed.as_deref().unwrap_or(&svc.region);
    let from_path;
    let (region, account, name) = match req.path.strip_prefix(PATH_PREFIX) {
        Some(rest) => {
            from_path = rest.to_string();
            match from_path.split('/').collect::<Vec<_>>().as_slice() {
                [region, account, name] => (*region, *account, *name),
                _ => return Err(invalid_address()),
            }
        }
        None => {
            let url = asked
                .queue_url
                .as_deref()
                .filter(|u| !u.is_empty())
                .ok_or_else(SqsError::queue_does_not_exist)?;
            parse_url(url, Some(fallback)).ok_or_else(invalid_address)?
        }
    };
    if account != svc.account {
        return Err(SqsError::queue_does_not_exist());
    }
    let queue = svc
        .queue(region, name)
        .ok_or_else(SqsError::queue_does_not_exist)?;
    let now = svc.now();
    let mut shown: Vec<(u64, StoredMessage, Seen, bool)> = {
        let state = queue.state.lock();
        let retention_ms = u64::from(state.attrs.retention_seconds) * 1000;
        let seen: Vec<(u64, &StoredMessage, Seen)> = state
            .messages
            .iter()
            .filter_map(|(key, message)| Some((key, message, seen_at(message, now, retention_ms)?)))
            .collect();
        // FIFO messages behind a message of their group in flight are not receivable.
        let held_groups: HashSet<&str> = if queue.fifo {
            seen.iter()
                .filter(|(_, _, s)| *s == Seen::InFlight)
                .filter_map(|(_, m, _)| m.group_id.as_deref())
                .collect()
        } else {
            HashSet::new()
        };
        seen.iter()
            .filter_map(|&(key, message, seen)| {
                let held = seen == Seen::Visible
                    && message
                        .group_id
                        .as_deref()
                        .is_some_and(|g| held_groups.contains(g));
                let wanted = match seen {
                    Seen::Visible => !held || asked.show_invisible,
                    Seen::InFlight => asked.show_invisible,
                    Seen::Delayed => asked.show_delayed,
                };
                wanted.then(|| (key, message.clone(), seen, held))
            })
            .collect()
    };
    // LocalStack's order: in flight, then held, then receivable, then delayed; each in delivery
    // order.
    let rank = |seen: Seen, held: bool| match (seen, held) {
        (Seen::InFlight, _) => 0,
        (Seen::Visible, true) => 1,
        (Seen::Visible, false) => 2,
        (Seen::Delayed, _) => 3,
    };
    let order = delivery_order(queue.fifo);
    shown.sort_by(|a, b| {
        rank(a.2, a.3)
            .cmp(&rank(b.2, b.3))
            .then_with(|| order(&(a.0, &a.1, a.2), &(b.0, &b.1, b.2)))
    });
    let messages = shown
        .iter()
        .map(|(_, message, seen, _)| {
            let mut marks = Vec::new();
            if message.first_received_at().is_none() {
                // LocalStack shows a message never received with a first receive at 0.
                marks.push(("ApproximateFirstReceiveTimestamp", "0".to_string()));
            }
            if asked.show_invisible {
                marks.push(("IsVisible", (*seen != Seen::InFlight).to_string()));
            }
            if asked.show_delayed {
                marks.push(("IsDelayed", (*seen == Seen::Delayed).to_string()));
            }
            receive::inspected(message, &svc.account).marked(RECEIPT_HANDLE, marks)
        })
        .collect();
    if protocol == Protocol::QueryJson {
        return Ok(localstack_json(messages, request_id));
    }
    let call = Call {
        svc,
        protocol,
        action: "ReceiveMessage",
        request_id,
        region,
        trace_header: None,
        host: None,
        max_messages_override: None,
        wait_seconds_override: None,
    };
    call.encode(&Listing { messages })
}

/// One element, or a list of several, as an XML document read into JSON shows repeated elements.
fn one_or_many(mut items: Vec<Value>) -> Value {
    if items.len() == 1 {
        items.remove(0)
    } else {
        Value::Array(items)
    }
}

/// Replaces the map `from` of `message` by its `Name` and `Value` entries under `to`, as XML lists
/// them.
fn as_entries(message: &mut Value, from: &str, to: &str) {
    let Some(Value::Object(map)) = message.as_object_mut().and_then(|m| m.remove(from)) else {
        return;
    };
    let entries = map
        .into_iter()
        .map(|(name, value)| json!({ "Name": name, "Value": value }))
        .collect();
    message[to] = one_or_many(entries);
}

/// The messages as LocalStack writes the Query protocol's XML answer in JSON.
fn localstack_json(messages: Vec<MessageOut>, request_id: &str) -> Vec<u8> {
    let messages: Vec<Value> = messages
        .into_iter()
        .filter_map(|message| serde_json::to_value(message).ok())
        .map(|mut message| {
            as_entries(&mut message, "Attributes", "Attribute");
            as_entries(&mut message, "MessageAttributes", "MessageAttribute");
            message
        })
        .collect();
    let result = if messages.is_empty() {
        Value::Null
    } else {
        json!({ "Message": one_or_many(messages) })
    };
    json!({
        "ReceiveMessageResponse": {
            "ReceiveMessageResult": result,
            "ResponseMetadata": { "RequestId": request_id },
        }
    })
    .to_string()
    .into_bytes()
}

/// An error as LocalStack writes the Query protocol's XML error in JSON.
fn localstack_json_error(err: &SqsError, request_id: &str) -> Response {
    let fault = if err.kind.sender_fault() {
        "Sender"
    } else {
        "Receiver"
    };
    let body = json!({
        "ErrorResponse": {
            "Error": { "Code": err.kind.query_code(), "Message": err.message, "Type": fault },
            "RequestId": request_id,
        }
    });
    Response {
        status: err.kind.http_status(),
        content_type: "application/json",
        headers: vec![("x-amzn-query-error", err.query_header())],
        request_id: request_id.to_string(),
        body: body.to_string().into_bytes(),
    }
}

fn invalid_address() -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAddress,
        "The address is not a queue URL this endpoint can read: expected <endpoint>/<account>/<name>, sqs.<region>.<host>/<account>/<name>, <endpoint>/queue/<region>/<account>/<name> or /_aws/sqs/messages/<region>/<account>/<name>.",
    )
}

/// Answers a request to the developer endpoint in the caller's protocol.
pub fn answer(svc: &Arc<Service>, req: &Request) -> Response {
    let protocol = protocol(req);
    let request_id = new_request_id();
    match list(svc, req, protocol, &request_id) {
        Ok(body) if protocol == Protocol::QueryJson => {
            let mut response = Response::plain_json(body);
            response.request_id = request_id;
            response
        }
        Ok(body) => Response::ok(protocol, body, request_id),
        Err(err) if protocol == Protocol::QueryJson => localstack_json_error(&err, &request_id),
        Err(err) => Response::error(protocol, &err, request_id),
    }
}
