//! LocalStack's own endpoints, for code and tests written against LocalStack (`--localstack`):
//! its health check (`/_localstack/health`), the state of its init hooks (`/_localstack/init`),
//! and its developer endpoint that lists a queue's messages without receiving them
//! ([`messages`]). They answer only in LocalStack mode; the server's own endpoints keep working
//! beside them.

pub mod messages;

use std::sync::Arc;

use serde_json::json;

use crate::api::{Request, Response};
use crate::service::Service;

pub const HEALTH_PATH: &str = "/_localstack/health";
pub const INIT_PATH: &str = "/_localstack/init";
/// The init stage LocalStack runs `ready.d` in; the only one this server has.
pub const READY_PATH: &str = "/_localstack/init/ready";

/// Answers a request for one of LocalStack's endpoints, or `None` when it is for none of them.
pub fn answer(svc: &Arc<Service>, req: &Request) -> Option<Response> {
    let path = req.path.as_str();
    let readable = matches!(req.method.as_str(), "GET" | "HEAD");
    match path {
        HEALTH_PATH if readable => Some(health()),
        INIT_PATH if readable => Some(init(svc)),
        READY_PATH if readable => Some(ready(svc)),
        _ if path == messages::PATH || path.starts_with(messages::PATH_PREFIX) => {
            Some(messages::answer(svc, req))
        }
        _ => None,
    }
}

/// LocalStack's health shape with the one service this server has. The edition and version are
/// this server's own, so that nothing mistakes it for a LocalStack release; clients and wait
/// strategies read `services.sqs`.
fn health() -> Response {
    let body = json!({
        "services": { "sqs": "running" },
        "edition": "sqsctl-local",
        "version": env!("CARGO_PKG_VERSION"),
    });
    Response::plain_json(body.to_string().into_bytes())
}

/// The init directory's entries as LocalStack lists its scripts.
fn scripts(svc: &Service) -> (bool, serde_json::Value) {
    let status = svc.init_dir.lock().clone();
    let scripts = status
        .entries
        .iter()
        .map(|entry| json!({ "stage": "READY", "name": entry.name, "state": entry.state }))
        .collect::<Vec<_>>();
    (status.completed, serde_json::Value::Array(scripts))
}

fn init(svc: &Service) -> Response {
    let (completed, scripts) = scripts(svc);
    let body = json!({
        "completed": { "BOOT": true, "START": true, "READY": completed, "SHUTDOWN": false },
        "scripts": scripts,
    });
    Response::plain_json(body.to_string().into_bytes())
}

fn ready(svc: &Service) -> Response {
    let (completed, scripts) = scripts(svc);
    let body = json!({ "completed": completed, "scripts": scripts });
    Response::plain_json(body.to_string().into_bytes())
}
