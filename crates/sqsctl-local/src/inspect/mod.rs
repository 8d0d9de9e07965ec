//! The inspection endpoints under `/_sqsctl/v1/`, for readers that must not disturb a queue
//! (sqsctl's peek, diagnose and group views against this server): they list a queue's messages
//! as a receive would show them, without receiving them, and count them per message group
//! ([`crate::inspect::groups`]). Nothing changes: no receive count,
//! visibility or first-receive time, no journal write; deadlines and retention are applied to what
//! is shown, not to the store. The contract (paths, parameters, shapes) is documented in
//! `docs/local-server.md`; version 1 only ever grows.

pub mod groups;

use std::cmp::Ordering;
use std::sync::Arc;

use serde::Serialize;

use crate::api::receive::{self, MessageOut};
use crate::api::{Protocol, Response, new_request_id};
use crate::engine::message::{State, StoredMessage};
use crate::error::{ErrorKind, SqsError, SqsResult, excerpt};
use crate::service::Service;

pub const INFO_PATH: &str = "/_sqsctl/v1/info";
pub const MESSAGES_PATH: &str = "/_sqsctl/v1/messages";
pub const GROUPS_PATH: &str = "/_sqsctl/v1/groups";

/// The version of the inspection contract this server speaks.
const INSPECT_VERSION: u32 = 1;
const DEFAULT_MAX: usize = 1000;
const MAX_MAX: usize = 100_000;

#[derive(Debug, Serialize)]
struct Info {
    server: &'static str,
    version: &'static str,
    inspect: u32,
}

pub fn info() -> Response {
    let info = Info {
        server: "sqsctl-local",
        version: env!("CARGO_PKG_VERSION"),
        inspect: INSPECT_VERSION,
    };
    Response::plain_json(serde_json::to_vec(&info).unwrap_or_default())
}

/// Where a message is, as a receive would see it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    Visible,
    InFlight,
    Delayed,
}

#[derive(Debug, Serialize)]
struct Listed {
    #[serde(flatten)]
    message: MessageOut,
    #[serde(rename = "State")]
    state: Seen,
}

#[derive(Debug, Serialize)]
struct Listing {
    #[serde(rename = "Messages")]
    messages: Vec<Listed>,
    #[serde(rename = "Truncated")]
    truncated: bool,
}

/// What a listing asks for.
pub(super) struct Request {
    pub queue_url: Option<String>,
    pub max: usize,
    all: bool,
}

pub(super) fn read_request(query: Option<&str>) -> SqsResult<Request> {
    let mut request = Request {
        queue_url: None,
        max: DEFAULT_MAX,
        all: false,
    };
    let mut seen: Vec<String> = Vec::new();
    for (name, value) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        if seen.iter().any(|s| *s == name) {
            return Err(SqsError::invalid_value(
                &name,
                &*value,
                "The parameter is given more than once.",
            ));
        }
        seen.push(name.to_string());
        match name.as_ref() {
            "QueueUrl" => request.queue_url = Some(value.into_owned()),
            "Max" => {
                request.max = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_MAX).contains(n))
                    .ok_or_else(|| {
                        SqsError::invalid_value(
                            "Max",
                            &*value,
                            &format!("It must be a whole number from 1 to {MAX_MAX}."),
                        )
                    })?;
            }
            "State" => {
                request.all = match value.as_ref() {
                    "visible" => false,
                    "all" => true,
                    other => {
                        return Err(SqsError::invalid_value(
                            "State",
                            other,
                            "It must be visible or all.",
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(request)
}

/// Where `message` is at `now`, with deadlines that passed applied; `None` once retention
/// removed it.
pub fn seen_at(message: &StoredMessage, now: u64, retention_ms: u64) -> Option<Seen> {
    if message.sent_at.saturating_add(retention_ms) <= now {
        return None;
    }
    Some(match message.state {
        State::Visible => Seen::Visible,
        State::Delayed { until } | State::InFlight { until, .. } if until <= now => Seen::Visible,
        State::Delayed { .. } => Seen::Delayed,
        State::InFlight { .. } => Seen::InFlight,
    })
}

/// The order a receive delivers in: FIFO queues by sequence number, standard queues oldest
/// first (then in the order they were stored; a key's high half counts insertions).
pub fn delivery_order(
    fifo: bool,
) -> impl Fn(&(u64, &StoredMessage, Seen), &(u64, &StoredMessage, Seen)) -> Ordering {
    move |(a_key, a, _), (b_key, b, _)| {
        if fifo {
            a.sequence_offset().cmp(&b.sequence_offset())
        } else {
            (a.sent_at, a_key >> 32).cmp(&(b.sent_at, b_key >> 32))
        }
    }
}

fn list(svc: &Arc<Service>, query: Option<&str>) -> SqsResult<Vec<u8>> {
    let request = read_request(query)?;
    // Not signed: the URL alone says which region's queue it is.
    let queue = svc.queue_by_url(None, request.queue_url.as_deref())?;
    let now = svc.now();
    let (chosen, truncated) = {
        let state = queue.state.lock();
        let retention_ms = u64::from(state.attrs.retention_seconds) * 1000;
        let mut found: Vec<(u64, &StoredMessage, Seen)> = state
            .messages
            .iter()
            .filter_map(|(key, message)| {
                let seen = seen_at(message, now, retention_ms)?;
                (request.all || seen == Seen::Visible).then_some((key, message, seen))
            })
            .collect();
        let order = delivery_order(queue.fifo);
        let truncated = found.len() > request.max;
        if truncated {
            // Only the first `max` need sorting, and only they are copied out of the lock.
            found.select_nth_unstable_by(request.max, &order);
            found.truncate(request.max);
        }
        found.sort_unstable_by(&order);
        let chosen: Vec<(StoredMessage, Seen)> = found
            .into_iter()
            .map(|(_, message, seen)| (message.clone(), seen))
            .collect();
        (chosen, truncated)
    };
    let messages = chosen
        .iter()
        .map(|(message, seen)| Listed {
            message: receive::inspected(message, &svc.account),
            state: *seen,
        })
        .collect();
    serde_json::to_vec(&Listing {
        messages,
        truncated,
    })
    .map_err(|_| SqsError::internal())
}

/// `GET /_sqsctl/v1/messages?QueueUrl=...&Max=...&State=visible|all`; errors as the JSON
/// protocol answers them.
pub fn messages(svc: &Arc<Service>, query: Option<&str>) -> Response {
    match list(svc, query) {
        Ok(body) => Response::plain_json(body),
        Err(err) => Response::error(Protocol::Json, &err, new_request_id()),
    }
}

/// A request to an inspection path with another method than GET.
pub fn wrong_method(method: &str) -> Response {
    let err = SqsError::new(
        ErrorKind::InvalidAction,
        format!(
            "The inspection endpoints answer GET only, not {}.",
            excerpt(method)
        ),
    );
    Response::error(Protocol::Json, &err, new_request_id())
}

/// A request to an inspection path on a server started with `--no-inspection`.
pub fn turned_off() -> Response {
    let err = SqsError::new(
        ErrorKind::InvalidAction,
        "The inspection endpoints are turned off on this server (--no-inspection).".to_string(),
    );
    Response::error(Protocol::Json, &err, new_request_id())
}
