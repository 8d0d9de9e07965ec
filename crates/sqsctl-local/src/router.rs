//! What answers a request: the checks on where it comes from (`Host`, web origins), the server's
//! own endpoints (health, stats, inspection), then the action table of [`crate::api`], with the
//! faults and latency injected around it.
//!
//! [`dispatch`] is independent of HTTP so it can be driven directly (the property tests feed it
//! arbitrary input); the server module only moves bytes between hyper and here.

use std::sync::Arc;

use crate::api::{
    Call, Request, Response, answered_messages, apparent_protocol, is_mutating, names_no_action,
    new_request_id, read_call, run,
};
use crate::error::{ErrorKind, SqsError};
use crate::faults::Fault;
use crate::http::origins::{BrowserHeaders, OriginPolicy};
use crate::inspect;
use crate::inspect::groups as inspect_groups;
use crate::localstack;
use crate::service::Service;
use crate::wire::query_shapes;

/// The most messages LocalStack's override header may ask one receive for.
const MAX_MESSAGES_OVERRIDE: usize = 10_000;
/// The longest LocalStack's override header may make one receive wait: Lambda's longest batching
/// window.
const MAX_WAIT_SECONDS_OVERRIDE: u32 = 300;

/// The value of one of LocalStack's override headers, in LocalStack mode only; a value that is
/// not a number in `range` is ignored.
fn localstack_override<T: std::str::FromStr + PartialOrd>(
    svc: &Service,
    header: Option<&str>,
    range: std::ops::RangeInclusive<T>,
) -> Option<T> {
    header
        .filter(|_| svc.localstack)
        .and_then(|n| n.trim().parse::<T>().ok())
        .filter(|n| range.contains(n))
}

/// Answers one request. Never panics, whatever the input.
pub async fn dispatch(svc: &Arc<Service>, req: Request) -> Response {
    if !svc.hosts.allows(req.host.as_deref()) {
        let refusal = svc.hosts.refusal(req.host.as_deref());
        return Response::error(apparent_protocol(&req), &refusal, new_request_id());
    }
    let cors_origin = match svc.origins.check(browser_headers(&req)) {
        Ok(origin) => origin.map(String::from),
        Err(refusal) => {
            return Response::error(apparent_protocol(&req), &refusal, new_request_id());
        }
    };
    let Some(origin) = cors_origin else {
        return answer(svc, req).await;
    };
    if req.method == "OPTIONS" {
        return Response {
            status: 204,
            content_type: "text/plain",
            headers: OriginPolicy::preflight_headers(&origin),
            request_id: new_request_id(),
            body: Vec::new(),
        };
    }
    let mut response = answer(svc, req).await;
    response.headers.extend(OriginPolicy::cors_headers(&origin));
    response
}

fn browser_headers(req: &Request) -> BrowserHeaders<'_> {
    BrowserHeaders {
        origin: req.origin.as_deref(),
        fetch_site: req.fetch_site.as_deref(),
        fetch_mode: req.fetch_mode.as_deref(),
        fetch_dest: req.fetch_dest.as_deref(),
    }
}

/// Answers a request the browser checks let through.
async fn answer(svc: &Arc<Service>, req: Request) -> Response {
    if svc.localstack
        && let Some(response) = localstack::answer(svc, &req)
    {
        return response;
    }
    if req.method == "GET" && req.path == "/_sqsctl/stats" {
        let body = serde_json::to_vec(&svc.stats()).unwrap_or_default();
        return Response::plain_json(body);
    }
    if req.method == "GET" && req.path == "/_sqsctl/health" {
        return Response::plain_json(br#"{"status":"ok"}"#.to_vec());
    }
    match (req.method.as_str(), req.path.as_str()) {
        (_, inspect::INFO_PATH | inspect::MESSAGES_PATH | inspect::GROUPS_PATH)
            if !svc.inspection =>
        {
            return inspect::turned_off();
        }
        ("GET", inspect::INFO_PATH) => return inspect::info(),
        ("GET", inspect::MESSAGES_PATH) => return inspect::messages(svc, req.query.as_deref()),
        ("GET", inspect::GROUPS_PATH) => {
            return inspect_groups::groups(svc, req.query.as_deref());
        }
        (method, inspect::INFO_PATH | inspect::MESSAGES_PATH | inspect::GROUPS_PATH) => {
            return inspect::wrong_method(method);
        }
        _ => {}
    }
    if req.method == "GET" && names_no_action(&req) {
        return Response::unknown_operation();
    }
    let request_id = new_request_id();
    let (protocol, action, input) = match read_call(&req) {
        Ok(call) => call,
        Err((protocol, err)) => return Response::error(protocol, &err, request_id),
    };
    let action = action.as_str();
    let region = match crate::http::region::signed_region(
        req.authorization.as_deref(),
        req.query.as_deref(),
    ) {
        Ok(region) => region,
        Err(err) => return Response::error(protocol, &err, request_id),
    };
    // SQS serves state changes through GET, and so do we for programs; a browser's navigations
    // and fetches for a page's content are what a page or a link can send without a preflight.
    // (An unknown action is left to the action table, which names it unknown.)
    if req.method != "POST" && query_shapes::action(action).is_some() && is_mutating(action) {
        if let Some(mark) = OriginPolicy::browser_fetch(browser_headers(&req)) {
            let refusal = SqsError::new(
                ErrorKind::AccessDenied,
                format!(
                    "{action} changes state and is refused through {} when a browser sends it for a page or a link ({mark}): send it with POST, or from a program.",
                    crate::error::excerpt(&req.method)
                ),
            );
            return Response::error(protocol, &refusal, request_id);
        }
    }
    let latency = svc.faults.latency;
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let fault = svc.faults.decide(is_mutating(action));
    match fault {
        Fault::Throttle => {
            svc.faults.count_injected(fault);
            let err = SqsError::new(ErrorKind::RequestThrottled, "Rate exceeded");
            return Response::error(protocol, &err, request_id);
        }
        Fault::Internal => {
            svc.faults.count_injected(fault);
            return Response::error(protocol, &SqsError::internal(), request_id);
        }
        Fault::Ambiguous | Fault::None => {}
    }
    let call = Call {
        svc,
        protocol,
        action,
        request_id: &request_id,
        region: region.as_deref().unwrap_or(&svc.region),
        trace_header: req.trace_header.as_deref(),
        host: req.host.as_deref(),
        max_messages_override: localstack_override(
            svc,
            req.message_count_override.as_deref(),
            1..=MAX_MESSAGES_OVERRIDE,
        ),
        wait_seconds_override: localstack_override(
            svc,
            req.wait_time_override.as_deref(),
            1..=MAX_WAIT_SECONDS_OVERRIDE,
        ),
    };
    let outcome = run(&call, input).await;
    match outcome {
        Ok(body) if fault == Fault::Ambiguous => {
            svc.faults.count_injected(fault);
            let (sent, received) = answered_messages(protocol, action, &body);
            svc.faults.count_ambiguous_messages(sent, received);
            Response::error(protocol, &SqsError::internal(), request_id)
        }
        Ok(body) => Response::ok(protocol, body, request_id),
        Err(err) => Response::error(protocol, &err, request_id),
    }
}
