//! The two wire protocols of SQS and the one action table behind them: AWS JSON 1.0
//! (`X-Amz-Target: AmazonSQS.<Action>`) and the Query protocol (`Action=<Action>` form parameters,
//! XML answers; see [`crate::wire::query`]). Each request is decoded by its protocol's codec into the
//! same input structs, runs through the same handler, and is answered in its own protocol.

pub mod messages;
pub mod permissions;
pub mod queues;
pub mod receive;

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::service::Service;
use crate::service::tasks;
use crate::wire::query;
use crate::wire::query_decode::{self, Params};
use crate::wire::query_shapes;

pub const JSON_CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// A successful action's encoded body.
pub type Reply = SqsResult<Vec<u8>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Json,
    Query,
    /// The Query protocol answered in JSON: what SQS does for a GET that asks for
    /// `Accept: application/json`.
    QueryJson,
}

/// What a handler needs from the request besides its input.
pub struct Call<'a> {
    pub svc: &'a Arc<Service>,
    pub protocol: Protocol,
    pub action: &'a str,
    pub request_id: &'a str,
    /// The region the request was signed for, or the server's default region.
    pub region: &'a str,
    /// The `X-Amzn-Trace-Id` header: the X-Ray trace header of the messages a send carries.
    pub trace_header: Option<&'a str>,
    /// The `Host` header, which the `dynamic` URL strategy builds queue URLs on.
    pub host: Option<&'a str>,
    /// In LocalStack mode, the number of messages a receive may return in place of its
    /// `MaxNumberOfMessages` (LocalStack's override header).
    pub max_messages_override: Option<usize>,
    /// In LocalStack mode, the seconds a receive waits in place of its `WaitTimeSeconds`; such a
    /// receive returns once it has `MaxNumberOfMessages` messages or the time is up (LocalStack's
    /// override header, which its Lambda pollers use for a batching window).
    pub wait_seconds_override: Option<u32>,
}

impl Call<'_> {
    /// The URL of the queue `name` of the request's region.
    pub fn url_of(&self, name: &str) -> String {
        self.svc.url_for(self.region, name, self.host)
    }

    /// A queue's URL as this request is answered it.
    pub fn queue_url(&self, queue: &crate::engine::queue::Queue) -> String {
        self.svc.url_for(&queue.region, &queue.name, self.host)
    }

    pub fn arn_of(&self, name: &str) -> String {
        self.svc.arn_of(self.region, name)
    }

    pub fn queue(&self, name: &str) -> Option<Arc<crate::engine::queue::Queue>> {
        self.svc.queue(self.region, name)
    }

    /// The queue a URL names, if it is of the request's region.
    pub fn queue_by_url(&self, url: Option<&str>) -> SqsResult<Arc<crate::engine::queue::Queue>> {
        self.svc.queue_by_url(Some(self.region), url)
    }

    /// The queue an ARN names, if it is of the request's region.
    pub fn queue_by_arn(&self, arn: &str) -> Option<Arc<crate::engine::queue::Queue>> {
        self.svc.queue_by_arn_in(self.region, arn)
    }

    pub fn list_queues(
        &self,
        prefix: &str,
        after: Option<&str>,
    ) -> Vec<Arc<crate::engine::queue::Queue>> {
        self.svc.list_queues(self.region, prefix, after)
    }

    /// Encodes an action's answer in the caller's protocol.
    pub fn encode<T: Serialize>(&self, value: &T) -> Reply {
        match self.protocol {
            Protocol::Json => serde_json::to_vec(value).map_err(|_| SqsError::internal()),
            Protocol::Query => {
                let output = query_shapes::action(self.action).map_or(&[][..], |a| a.output);
                query::encode_reply(self.action, output, value, self.request_id)
            }
            Protocol::QueryJson => {
                let output = query_shapes::action(self.action).map_or(&[][..], |a| a.output);
                query::encode_json_reply(self.action, output, value, self.request_id)
            }
        }
    }
}

/// An action's input, as its protocol's codec read it.
pub enum Input<'a> {
    /// The raw JSON body.
    Json(bytes::Bytes),
    /// Query parameters and the members of the action's input they stand for.
    Query(Params<'a>, &'static [query_shapes::Member]),
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
    /// The `Authorization` header, whose SigV4 credential scope names the request's region.
    pub authorization: Option<String>,
    /// `Origin` and the `Sec-Fetch-*` headers: what says a request comes from a web page, and
    /// what the browser fetches it for.
    pub origin: Option<String>,
    pub fetch_site: Option<String>,
    pub fetch_mode: Option<String>,
    pub fetch_dest: Option<String>,
    /// The `Accept` header: a Query-protocol GET may ask for JSON.
    pub accept: Option<String>,
    /// `X-Amzn-Trace-Id`, which a send keeps as its messages' `AWSTraceHeader`.
    pub trace_header: Option<String>,
    /// LocalStack's `x-localstack-sqs-override-message-count`: how many messages a receive may
    /// return, past SQS's 10 (read in LocalStack mode only).
    pub message_count_override: Option<String>,
    /// LocalStack's `x-localstack-sqs-override-wait-time-seconds`: how long a receive may wait,
    /// past SQS's 20 seconds, collecting until it has its full batch (LocalStack mode only).
    pub wait_time_override: Option<String>,
    pub body: bytes::Bytes,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub request_id: String,
    pub body: Vec<u8>,
}

impl Response {
    pub fn ok(protocol: Protocol, body: Vec<u8>, request_id: String) -> Self {
        Response {
            status: 200,
            content_type: match protocol {
                Protocol::Json => JSON_CONTENT_TYPE,
                Protocol::Query => query::XML_CONTENT_TYPE,
                Protocol::QueryJson => query::JSON_CONTENT_TYPE,
            },
            headers: Vec::new(),
            request_id,
            body,
        }
    }

    /// An error in the caller's protocol: JSON with the `x-amzn-query-error` header, or the
    /// Query protocol's `<ErrorResponse>`.
    pub fn error(protocol: Protocol, err: &SqsError, request_id: String) -> Self {
        let (content_type, body) = match protocol {
            Protocol::Json => (JSON_CONTENT_TYPE, err.body().into_bytes()),
            Protocol::Query => (
                query::XML_CONTENT_TYPE,
                query::encode_error(err, &request_id),
            ),
            Protocol::QueryJson => (
                query::JSON_CONTENT_TYPE,
                query::encode_json_error(err, &request_id),
            ),
        };
        Response {
            status: err.kind.http_status(),
            content_type,
            headers: vec![("x-amzn-query-error", err.query_header())],
            request_id,
            body,
        }
    }

    /// SQS's answer to a GET that names no action (a queue URL opened in a browser): 404 with
    /// `<UnknownOperationException/>`, whatever the `Accept` header asks for.
    pub fn unknown_operation() -> Self {
        Response {
            status: 404,
            content_type: query::XML_CONTENT_TYPE,
            headers: Vec::new(),
            request_id: new_request_id(),
            body: b"<UnknownOperationException/>".to_vec(),
        }
    }

    /// A 200 answer with a JSON body of the server's own endpoints (not an SQS action's).
    pub fn plain_json(body: Vec<u8>) -> Self {
        Response {
            status: 200,
            content_type: "application/json",
            headers: Vec::new(),
            request_id: new_request_id(),
            body,
        }
    }
}

pub fn new_request_id() -> String {
    crate::engine::message::random_uuid().to_string()
}

/// Actions that change state: an injected "ambiguous" failure applies them, then answers 500, and
/// a browser's navigations and fetches for a page's content cannot send them through GET.
/// ReceiveMessage is one: it changes visibility and receive counts.
pub fn is_mutating(action: &str) -> bool {
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

/// How many messages a successful answer says were sent and received (for the ambiguous-failure
/// counters).
pub fn answered_messages(protocol: Protocol, action: &str, body: &[u8]) -> (u64, u64) {
    let entries = |json_key: &str, xml_tag: &[u8]| match protocol {
        Protocol::Json => serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|v| v.get(json_key).and_then(|s| s.as_array()).map(Vec::len))
            .map_or(0, |n| n as u64),
        Protocol::QueryJson => serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|v| {
                let result = v
                    .get(format!("{action}Response"))?
                    .get(format!("{action}Result"))?;
                let list = result.get(json_key).or_else(|| result.get("messages"))?;
                list.as_array().map(Vec::len)
            })
            .map_or(0, |n| n as u64),
        Protocol::Query => body
            .windows(xml_tag.len())
            .filter(|w| w == &xml_tag)
            .count() as u64,
    };
    match action {
        "SendMessage" => (1, 0),
        "SendMessageBatch" => (entries("Successful", b"<SendMessageBatchResultEntry>"), 0),
        "ReceiveMessage" => (0, entries("Messages", b"<Message>")),
        _ => (0, 0),
    }
}

/// Reads an action's input; by value, so that decoded Query strings move into it.
fn parse<T: DeserializeOwned>(input: Input) -> SqsResult<T> {
    let body = match input {
        Input::Json(body) => body,
        Input::Query(params, members) => return query_decode::decode(members, params),
    };
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        &body
    };
    serde_json::from_slice(body).map_err(|e| {
        SqsError::new(
            ErrorKind::SerializationError,
            format!("The request body could not be read: {e}"),
        )
    })
}

fn reply(call: &Call, value: SqsResult<Value>) -> Reply {
    call.encode(&value?)
}

/// The one action table, for both protocols.
pub async fn run(call: &Call<'_>, body: Input<'_>) -> Reply {
    let action = call.action;
    match action {
        "CreateQueue" => reply(call, queues::create_queue(call, parse(body)?)),
        "DeleteQueue" => reply(call, queues::delete_queue(call, parse(body)?)),
        "GetQueueUrl" => reply(call, queues::get_queue_url(call, parse(body)?)),
        "ListQueues" => reply(call, queues::list_queues(call, parse(body)?)),
        "GetQueueAttributes" => reply(call, queues::get_queue_attributes(call, parse(body)?)),
        "SetQueueAttributes" => reply(call, queues::set_queue_attributes(call, parse(body)?)),
        "TagQueue" => reply(call, queues::tag_queue(call, parse(body)?)),
        "UntagQueue" => reply(call, queues::untag_queue(call, parse(body)?)),
        "ListQueueTags" => reply(call, queues::list_queue_tags(call, parse(body)?)),
        "PurgeQueue" => reply(call, queues::purge_queue(call, parse(body)?)),
        "ListDeadLetterSourceQueues" => reply(
            call,
            queues::list_dead_letter_source_queues(call, parse(body)?),
        ),
        "SendMessage" => messages::send_message(call, parse(body)?),
        "SendMessageBatch" => messages::send_message_batch(call, parse(body)?),
        "ReceiveMessage" => receive::receive_message(call, parse(body)?).await,
        "DeleteMessage" => messages::delete_message(call, parse(body)?),
        "DeleteMessageBatch" => messages::delete_message_batch(call, parse(body)?),
        "ChangeMessageVisibility" => messages::change_message_visibility(call, parse(body)?),
        "ChangeMessageVisibilityBatch" => {
            messages::change_message_visibility_batch(call, parse(body)?)
        }
        "StartMessageMoveTask" => reply(call, tasks::start(call.svc, call.region, parse(body)?)),
        "ListMessageMoveTasks" => reply(call, tasks::list(call.svc, call.region, parse(body)?)),
        "CancelMessageMoveTask" => reply(call, tasks::cancel(call.svc, call.region, parse(body)?)),
        "AddPermission" => reply(call, permissions::add_permission(call, parse(body)?)),
        "RemovePermission" => reply(call, permissions::remove_permission(call, parse(body)?)),
        _ => Err(unknown_action(action)),
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

/// Reads a Query-protocol request: its action and its parameters as the JSON input value.
fn read_query(req: &Request) -> SqsResult<(String, Input<'_>)> {
    let mut params = Params::parse(req.query.as_deref(), &req.body)?;
    let action = params
        .get("Action")
        .ok_or_else(|| SqsError::missing("Action"))?
        .to_string();
    let shapes = query_shapes::action(&action).ok_or_else(|| unknown_action(&action))?;
    // Older SDKs post to the queue's URL; its path (`[region/]account/name`) then names the
    // queue.
    let path = req.path.trim_matches('/');
    let segments = path.split('/').count();
    // LocalStack's `path` strategy: `/queue/<region>/<account>/<name>`.
    let queue_path = !path.is_empty()
        && (matches!(segments, 2 | 3) || (segments == 4 && path.starts_with("queue/")));
    if queue_path && matches!(action.as_str(), "ListQueues" | "CreateQueue") {
        // SQS lists and creates queues at its endpoint only.
        return Err(unknown_action(&action));
    }
    if params.get("QueueUrl").is_none() && queue_path {
        // With the host, whose name may carry the region (LocalStack's URL shapes).
        let url = match req.host.as_deref() {
            Some(host) if !host.contains(['/', '?', '#']) => format!("http://{host}/{path}"),
            _ => format!("/{path}"),
        };
        params.set("QueueUrl", url);
    }
    Ok((action, Input::Query(params, shapes.input)))
}

fn unknown_action(action: &str) -> SqsError {
    SqsError::new(
        ErrorKind::InvalidAction,
        format!(
            "The action {} is not valid for this endpoint.",
            crate::error::excerpt(action)
        ),
    )
}

/// Which protocol a request speaks, its action and its input.
pub fn read_call(req: &Request) -> Result<(Protocol, String, Input<'_>), (Protocol, SqsError)> {
    if let Some(target) = req.target.as_deref() {
        return match target.strip_prefix("AmazonSQS.") {
            Some(action) => Ok((
                Protocol::Json,
                action.to_string(),
                Input::Json(req.body.clone()),
            )),
            None => Err((
                Protocol::Json,
                SqsError::new(
                    ErrorKind::InvalidAction,
                    format!(
                        "Unknown X-Amz-Target {}: expected AmazonSQS.<Action>.",
                        crate::error::excerpt(target)
                    ),
                ),
            )),
        };
    }
    if is_query_protocol(req) {
        let protocol = query_protocol(req);
        return read_query(req)
            .map(|(action, input)| (protocol, action, input))
            .map_err(|err| (protocol, err));
    }
    Err((
        Protocol::Json,
        SqsError::new(
            ErrorKind::InvalidAction,
            "No action given: send X-Amz-Target: AmazonSQS.<Action> with Content-Type application/x-amz-json-1.0 (AWS JSON 1.0), or Action=<Action> as form parameters (the Query protocol).",
        ),
    ))
}

/// A Query-protocol request is answered in XML, or in JSON when it is a GET that accepts
/// `application/json` (as SQS answers such GETs).
fn query_protocol(req: &Request) -> Protocol {
    if req.method == "GET" && accepts_json(req.accept.as_deref()) {
        Protocol::QueryJson
    } else {
        Protocol::Query
    }
}

/// Whether an `Accept` header names `application/json`.
pub fn accepts_json(accept: Option<&str>) -> bool {
    accept.is_some_and(|accept| {
        accept.split(',').any(|t| {
            t.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        })
    })
}

/// Whether a request names no action in either protocol: no `X-Amz-Target` and no `Action`.
pub fn names_no_action(req: &Request) -> bool {
    req.target.is_none() && !is_query_protocol(req)
}

/// The protocol a request seems to speak, for answering it before it is read.
pub fn protocol_of(content_type: Option<&str>, target: Option<&str>) -> Protocol {
    let form = content_type.is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"));
    if target.is_none() && form {
        Protocol::Query
    } else {
        Protocol::Json
    }
}

/// The protocol to refuse a request in before its action is read.
pub fn apparent_protocol(req: &Request) -> Protocol {
    if req.target.is_none() && is_query_protocol(req) {
        query_protocol(req)
    } else {
        Protocol::Json
    }
}
