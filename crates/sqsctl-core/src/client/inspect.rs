//! Reading a queue of `sqsctl local` without receiving: its inspection endpoint
//! (`GET /_sqsctl/v1/messages`) lists messages with their attributes and changes nothing, so a
//! peek there raises no receive count and hides nothing.
//!
//! Whether an endpoint is `sqsctl local` is asked once per endpoint and process
//! (`GET /_sqsctl/v1/info`), and only of plain `http://` endpoints: SQS itself is always HTTPS,
//! and is never sent a request it does not know. Any other answer (LocalStack's 404, a timeout)
//! means "not here", and readers receive as they would from SQS.
//!
//! The endpoint asked is the one the client sends its requests to when one is configured
//! (`--endpoint-url`, `AWS_ENDPOINT_URL_SQS`), as the SDK does, whatever host the queue URL
//! names: a server handing out LocalStack's URLs (`sqs.us-east-1.localhost.localstack.cloud`)
//! is still asked where it listens. Without one, the queue URL's own host is asked.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use parking_lot::Mutex;
use serde::Deserialize;

use super::{ClientError, QueueRef};
use crate::message::{AttributeValue, MessageRecord};

/// The most messages one inspection returns.
pub const MAX_INSPECTED: u64 = 100_000;

/// How long the question "is this `sqsctl local`?" may take before the answer is no.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a listing may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(30);

/// The endpoints asked so far, by origin (`http://host:port`), shared by the clones of one
/// client.
#[derive(Clone, Default)]
pub struct Inspection {
    /// The origin of the configured endpoint, asked in place of the queue URL's host.
    endpoint: Option<String>,
    known: Arc<Mutex<HashMap<String, bool>>>,
    http: Arc<std::sync::OnceLock<Client<HttpConnector, Empty<Bytes>>>>,
}

impl std::fmt::Debug for Inspection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inspection").finish_non_exhaustive()
    }
}

/// What a listing returned.
#[derive(Debug)]
pub struct Inspected {
    pub messages: Vec<MessageRecord>,
    /// More messages were there than asked for.
    pub truncated: bool,
}

/// A queue's messages counted per message group, as `sqsctl local` knows them exactly.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GroupCounts {
    pub fifo: bool,
    /// Every message of the queue in flight, grouped or not.
    pub in_flight: u64,
    /// The groups with the most in flight first.
    pub groups: Vec<GroupCount>,
    /// Messages without a group id.
    pub ungrouped: StateCounts,
    /// More groups were there than asked for.
    #[serde(default)]
    pub truncated: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GroupCount {
    pub group_id: String,
    #[serde(flatten)]
    pub counts: StateCounts,
    /// In epoch milliseconds.
    pub oldest_sent_timestamp: u64,
    /// Whether the server delivers this tenant as a noisy neighbour now (standard queues only).
    #[serde(default)]
    pub noisy: Option<bool>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct StateCounts {
    pub visible: u64,
    pub in_flight: u64,
    #[serde(default)]
    pub delayed: u64,
}

#[derive(Deserialize)]
struct Info {
    server: String,
    #[serde(default)]
    inspect: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Listing {
    messages: Vec<Listed>,
    #[serde(default)]
    truncated: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Listed {
    message_id: String,
    body: String,
    #[serde(default)]
    attributes: BTreeMap<String, String>,
    #[serde(default)]
    message_attributes: BTreeMap<String, ListedAttribute>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct ListedAttribute {
    data_type: String,
    string_value: Option<String>,
    binary_value: Option<String>,
}

impl Listed {
    fn into_record(self) -> MessageRecord {
        let message_attributes = self
            .message_attributes
            .into_iter()
            .map(|(name, a)| {
                let value = a.string_value.or(a.binary_value).unwrap_or_default();
                (
                    name,
                    AttributeValue {
                        data_type: a.data_type,
                        value,
                    },
                )
            })
            .collect();
        MessageRecord::received(
            Some(self.message_id),
            self.body,
            message_attributes,
            self.attributes,
            None,
        )
    }
}

/// `http://host:port` of a queue URL served over plain HTTP; `None` for HTTPS (SQS) and
/// anything that does not parse.
fn plain_http_origin(url: &str) -> Option<String> {
    let rest = url.strip_prefix("http://")?;
    let authority = rest.split('/').next()?;
    (!authority.is_empty() && !authority.contains('@')).then(|| format!("http://{authority}"))
}

impl Inspection {
    /// Inspection through `endpoint`, the endpoint the client sends its requests to (none: each
    /// queue URL's host).
    pub fn through(endpoint: Option<&str>) -> Inspection {
        Inspection {
            endpoint: endpoint.and_then(plain_http_origin),
            ..Inspection::default()
        }
    }

    /// Where `queue`'s server is asked: the configured endpoint, else the queue URL's host; only
    /// over plain HTTP.
    fn origin(&self, queue: &QueueRef) -> Option<String> {
        match &self.endpoint {
            Some(origin) => Some(origin.clone()),
            None => plain_http_origin(&queue.url),
        }
    }

    fn http(&self) -> &Client<HttpConnector, Empty<Bytes>> {
        self.http
            .get_or_init(|| Client::builder(TokioExecutor::new()).build_http())
    }

    async fn get(&self, url: &str, timeout: Duration) -> Result<(u16, Bytes), String> {
        let uri: hyper::Uri = url.parse().map_err(|e| format!("{e}"))?;
        let request = hyper::Request::get(uri)
            .header("accept", "application/json")
            .body(Empty::<Bytes>::new())
            .map_err(|e| e.to_string())?;
        let answer = async {
            let response = self
                .http()
                .request(request)
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let body = response
                .into_body()
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            Ok((status, body))
        };
        tokio::time::timeout(timeout, answer)
            .await
            .map_err(|_| format!("no answer within {}s", timeout.as_secs()))?
    }

    /// Whether `queue` lives on a `sqsctl local` that offers the inspection endpoint.
    pub async fn available(&self, queue: &QueueRef) -> bool {
        let Some(origin) = self.origin(queue) else {
            return false;
        };
        if let Some(&known) = self.known.lock().get(&origin) {
            return known;
        }
        let found = match self
            .get(&format!("{origin}/_sqsctl/v1/info"), PROBE_TIMEOUT)
            .await
        {
            Ok((200, body)) => serde_json::from_slice::<Info>(&body)
                .is_ok_and(|info| info.server == "sqsctl-local" && info.inspect >= 1),
            _ => false,
        };
        self.known.lock().insert(origin, found);
        found
    }

    /// Up to `max` of the messages a receive of `queue` could return now, in delivery order,
    /// without receiving any.
    pub async fn visible_messages(
        &self,
        queue: &QueueRef,
        max: u64,
    ) -> Result<Inspected, ClientError> {
        let listing: Listing = self
            .fetch(queue, "messages", max, &[("State", "visible")])
            .await?;
        Ok(Inspected {
            messages: listing
                .messages
                .into_iter()
                .map(Listed::into_record)
                .collect(),
            truncated: listing.truncated,
        })
    }

    /// `queue`'s messages counted per message group (per tenant on a standard queue), the
    /// `max` groups with the most in flight, without receiving any.
    pub async fn group_counts(
        &self,
        queue: &QueueRef,
        max: u64,
    ) -> Result<GroupCounts, ClientError> {
        self.fetch(queue, "groups", max, &[]).await
    }

    /// `GET /_sqsctl/v1/{what}` for `queue`, its JSON answer.
    async fn fetch<T: serde::de::DeserializeOwned>(
        &self,
        queue: &QueueRef,
        what: &str,
        max: u64,
        extra: &[(&str, &str)],
    ) -> Result<T, ClientError> {
        let origin = self.origin(queue).ok_or_else(|| {
            ClientError::InvalidInput(format!("{} is not served over plain HTTP", queue.url))
        })?;
        let query = {
            let mut query = form_urlencoded::Serializer::new(String::new());
            query
                .append_pair("QueueUrl", &queue.url)
                .append_pair("Max", &max.clamp(1, MAX_INSPECTED).to_string());
            for (name, value) in extra {
                query.append_pair(name, value);
            }
            query.finish()
        };
        let url = format!("{origin}/_sqsctl/v1/{what}?{query}");
        let failed = |detail: String| {
            ClientError::InvalidInput(format!(
                "the inspection endpoint of sqsctl local at {origin} failed: {detail}"
            ))
        };
        let (status, body) = self.get(&url, LIST_TIMEOUT).await.map_err(failed)?;
        if status != 200 {
            let text = String::from_utf8_lossy(&body);
            return Err(failed(format!(
                "HTTP {status}: {}",
                text.chars().take(300).collect::<String>()
            )));
        }
        serde_json::from_slice(&body).map_err(|e| failed(format!("unreadable answer: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_endpoints_are_asked() {
        assert_eq!(
            plain_http_origin("http://127.0.0.1:9324/000000000000/orders").as_deref(),
            Some("http://127.0.0.1:9324")
        );
        assert_eq!(
            plain_http_origin("https://sqs.us-east-1.amazonaws.com/123456789012/orders"),
            None
        );
        assert_eq!(plain_http_origin("http://user:pw@host/q"), None);
        assert_eq!(plain_http_origin("orders"), None);
    }
}
