//! The AWS JSON 1.0 protocol: routing `X-Amz-Target: AmazonSQS.<Action>` requests to handlers,
//! decoding their bodies, encoding answers and errors, and injecting faults and latency.
//!
//! [`dispatch`] is independent of HTTP so it can be driven directly (the property tests feed it
//! arbitrary input); the server module only moves bytes between hyper and here.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::{ErrorKind, SqsError, SqsResult};
use super::faults::Fault;
use super::service::Service;
use super::{api_messages as messages, api_queues as queues, api_receive as receive, tasks};

pub const JSON_CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// A successful action's JSON body.
pub type Reply = SqsResult<Vec<u8>>;

/// What a handler needs from the request besides its input.
pub struct Call<'a> {
    pub svc: &'a Arc<Service>,
    /// Scheme and host the client used, for the queue URLs we hand out.
    pub base: String,
}

impl Call<'_> {
    pub fn url_of(&self, name: &str) -> String {
        self.svc.url_of(&self.base, name)
    }

    pub fn json<T: Serialize>(&self, value: &T) -> Reply {
        serde_json::to_vec(value).map_err(|_| SqsError::internal())
    }
}

/// An HTTP request reduced to what the protocol looks at.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub content_type: Option<String>,
    pub target: Option<String>,
    pub host: Option<String>,
    pub body: bytes::Bytes,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    fn ok(body: Vec<u8>) -> Self {
        Response {
            status: 200,
            content_type: JSON_CONTENT_TYPE,
            headers: Vec::new(),
            body,
        }
    }

    pub fn error(err: &SqsError) -> Self {
        Response {
            status: err.kind.http_status(),
            content_type: JSON_CONTENT_TYPE,
            headers: vec![("x-amzn-query-error", err.query_header())],
            body: err.body().into_bytes(),
        }
    }

    /// An error for clients of the legacy query protocol, in the XML they can parse.
    fn query_protocol_error() -> Self {
        let body = "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>This server speaks only the AWS JSON 1.0 protocol (X-Amz-Target: AmazonSQS.&lt;Action&gt;); query-protocol requests (Action=...) are not served. Use a current SDK (aws-sdk-sqs, boto3 1.34 or later, AWS CLI v2).</Message></Error><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ErrorResponse>";
        Response {
            status: 400,
            content_type: "text/xml",
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }
    }
}

/// Actions that change state: an injected "ambiguous" failure applies them, then answers 500.
fn is_mutating(action: &str) -> bool {
    !matches!(
        action,
        "GetQueueUrl"
            | "ListQueues"
            | "GetQueueAttributes"
            | "ListQueueTags"
            | "ListDeadLetterSourceQueues"
            | "ListMessageMoveTasks"
    )
}

/// How many messages a successful answer says were sent (for the ambiguous-send counter).
fn sent_messages(action: &str, body: &[u8]) -> u64 {
    match action {
        "SendMessage" => 1,
        "SendMessageBatch" => serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.get("Successful").and_then(|s| s.as_array()).map(Vec::len))
            .map_or(0, |n| n as u64),
        _ => 0,
    }
}

fn parse<T: DeserializeOwned>(body: &[u8]) -> SqsResult<T> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body).map_err(|e| {
        SqsError::new(
            ErrorKind::SerializationError,
            format!("The request body could not be read: {e}"),
        )
    })
}

fn reply(value: SqsResult<serde_json::Value>) -> Reply {
    value.and_then(|v| serde_json::to_vec(&v).map_err(|_| SqsError::internal()))
}

async fn run(call: &Call<'_>, action: &str, body: &[u8]) -> Reply {
    match action {
        "CreateQueue" => reply(queues::create_queue(call, parse(body)?)),
        "DeleteQueue" => reply(queues::delete_queue(call, parse(body)?)),
        "GetQueueUrl" => reply(queues::get_queue_url(call, parse(body)?)),
        "ListQueues" => reply(queues::list_queues(call, parse(body)?)),
        "GetQueueAttributes" => reply(queues::get_queue_attributes(call, parse(body)?)),
        "SetQueueAttributes" => reply(queues::set_queue_attributes(call, parse(body)?)),
        "TagQueue" => reply(queues::tag_queue(call, parse(body)?)),
        "UntagQueue" => reply(queues::untag_queue(call, parse(body)?)),
        "ListQueueTags" => reply(queues::list_queue_tags(call, parse(body)?)),
        "PurgeQueue" => reply(queues::purge_queue(call, parse(body)?)),
        "ListDeadLetterSourceQueues" => {
            reply(queues::list_dead_letter_source_queues(call, parse(body)?))
        }
        "SendMessage" => messages::send_message(call, parse(body)?),
        "SendMessageBatch" => messages::send_message_batch(call, parse(body)?),
        "ReceiveMessage" => receive::receive_message(call, parse(body)?).await,
        "DeleteMessage" => messages::delete_message(call, parse(body)?),
        "DeleteMessageBatch" => messages::delete_message_batch(call, parse(body)?),
        "ChangeMessageVisibility" => messages::change_message_visibility(call, parse(body)?),
        "ChangeMessageVisibilityBatch" => {
            messages::change_message_visibility_batch(call, parse(body)?)
        }
        "StartMessageMoveTask" => reply(tasks::start(call, parse(body)?)),
        "ListMessageMoveTasks" => reply(tasks::list(call, parse(body)?)),
        "CancelMessageMoveTask" => reply(tasks::cancel(call, parse(body)?)),
        "AddPermission" | "RemovePermission" => Err(SqsError::new(
            ErrorKind::UnsupportedOperation,
            format!(
                "{action} is not supported by the local server; set the Policy attribute instead."
            ),
        )),
        _ => Err(SqsError::new(
            ErrorKind::InvalidAction,
            format!("The action {action} is not valid for this endpoint."),
        )),
    }
}

fn is_query_protocol(req: &Request) -> bool {
    let form = req
        .content_type
        .as_deref()
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"));
    let action_in_query = req
        .query
        .as_deref()
        .is_some_and(|q| q.split('&').any(|p| p.starts_with("Action=")));
    form || action_in_query || req.body.starts_with(b"Action=")
}

/// Answers one request. Never panics, whatever the input.
pub async fn dispatch(svc: &Arc<Service>, req: Request) -> Response {
    if req.method == "GET" && req.path == "/_sqsctl/stats" {
        let body = serde_json::to_vec(&svc.faults.stats()).unwrap_or_default();
        return Response {
            status: 200,
            content_type: "application/json",
            headers: Vec::new(),
            body,
        };
    }
    if req.method == "GET" && req.path == "/_sqsctl/health" {
        return Response {
            status: 200,
            content_type: "application/json",
            headers: Vec::new(),
            body: br#"{"status":"ok"}"#.to_vec(),
        };
    }
    let action = req
        .target
        .as_deref()
        .and_then(|t| t.strip_prefix("AmazonSQS."));
    let Some(action) = action else {
        if is_query_protocol(&req) {
            return Response::query_protocol_error();
        }
        let err = SqsError::new(
            ErrorKind::InvalidAction,
            "Missing or unknown X-Amz-Target header: expected AmazonSQS.<Action> with Content-Type application/x-amz-json-1.0.",
        );
        return Response::error(&err);
    };
    let latency = svc.faults.latency;
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let fault = svc.faults.decide(is_mutating(action));
    match fault {
        Fault::Throttle => {
            svc.faults.count_injected(fault);
            return Response::error(&SqsError::new(ErrorKind::RequestThrottled, "Rate exceeded"));
        }
        Fault::Internal => {
            svc.faults.count_injected(fault);
            return Response::error(&SqsError::internal());
        }
        Fault::Ambiguous | Fault::None => {}
    }
    let host = req.host.as_deref().filter(|h| !h.is_empty());
    let base = match host {
        Some(host) => format!("http://{host}"),
        None => svc.endpoint.clone(),
    };
    let call = Call { svc, base };
    match run(&call, action, &req.body).await {
        Ok(body) if fault == Fault::Ambiguous => {
            svc.faults.count_injected(fault);
            svc.faults
                .count_ambiguous_sends(sent_messages(action, &body));
            Response::error(&SqsError::internal())
        }
        Ok(body) => Response::ok(body),
        Err(err) => Response::error(&err),
    }
}
