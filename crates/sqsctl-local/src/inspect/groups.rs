//! `GET /_sqsctl/v1/groups`: a queue's messages counted per message group (on a standard queue,
//! per tenant of fair delivery), and on a standard queue whether each tenant is a noisy neighbour
//! now, by the rule [`crate::engine::fair`] delivers by. Like every inspection endpoint it changes
//! nothing and shows the truth, deadlines that passed applied to what it counts.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use crate::api::{Protocol, Response, new_request_id};
use crate::engine::fair::{self, Load};
use crate::error::{SqsError, SqsResult};
use crate::inspect::{Seen, read_request, seen_at};
use crate::service::Service;

#[derive(Debug, Default, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Counts {
    visible: usize,
    in_flight: usize,
    delayed: usize,
}

impl Counts {
    fn add(&mut self, seen: Seen) {
        match seen {
            Seen::Visible => self.visible += 1,
            Seen::InFlight => self.in_flight += 1,
            Seen::Delayed => self.delayed += 1,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Group {
    group_id: Arc<str>,
    #[serde(flatten)]
    counts: Counts,
    oldest_sent_timestamp: u64,
    last_sent_timestamp: u64,
    /// Standard queues only: FIFO queues have no fair delivery.
    #[serde(skip_serializing_if = "Option::is_none")]
    noisy: Option<bool>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Groups {
    fifo: bool,
    /// Every message of the queue in flight, grouped or not: what a tenant's share is of.
    in_flight: usize,
    groups: Vec<Group>,
    /// Messages without a group id (on a standard queue, each a tenant of its own).
    ungrouped: Counts,
    truncated: bool,
}

fn count(svc: &Arc<Service>, query: Option<&str>) -> SqsResult<Vec<u8>> {
    let request = read_request(query)?;
    let queue = svc.queue_by_url(None, request.queue_url.as_deref())?;
    let now = svc.now();
    let mut groups: HashMap<Arc<str>, Group> = HashMap::new();
    let mut ungrouped = Counts::default();
    let mut in_flight = 0;
    {
        let state = queue.state.lock();
        let retention_ms = u64::from(state.attrs.retention_seconds) * 1000;
        for (_, message) in state.messages.iter() {
            let Some(seen) = seen_at(message, now, retention_ms) else {
                continue;
            };
            if seen == Seen::InFlight {
                in_flight += 1;
            }
            let Some(id) = &message.group_id else {
                ungrouped.add(seen);
                continue;
            };
            let group = groups.entry(id.clone()).or_insert_with(|| Group {
                group_id: id.clone(),
                counts: Counts::default(),
                oldest_sent_timestamp: message.sent_at,
                last_sent_timestamp: state.messages.last_sent(id).unwrap_or(0),
                noisy: None,
            });
            group.counts.add(seen);
            group.oldest_sent_timestamp = group.oldest_sent_timestamp.min(message.sent_at);
            group.last_sent_timestamp = group.last_sent_timestamp.max(message.sent_at);
        }
    }
    let mut groups: Vec<Group> = groups.into_values().collect();
    if !queue.fifo {
        for group in &mut groups {
            let load = Load {
                visible: group.counts.visible,
                in_flight: group.counts.in_flight,
                last_sent: group.last_sent_timestamp,
            };
            group.noisy = Some(fair::is_noisy(load, in_flight, now));
        }
    }
    let order = |group: &Group| {
        (
            Reverse(group.counts.in_flight),
            Reverse(group.counts.visible),
            group.group_id.clone(),
        )
    };
    let truncated = groups.len() > request.max;
    if truncated {
        groups.select_nth_unstable_by_key(request.max, order);
        groups.truncate(request.max);
    }
    groups.sort_unstable_by_key(order);
    serde_json::to_vec(&Groups {
        fifo: queue.fifo,
        in_flight,
        groups,
        ungrouped,
        truncated,
    })
    .map_err(|_| SqsError::internal())
}

/// `GET /_sqsctl/v1/groups?QueueUrl=...&Max=...`; errors as the JSON protocol answers them.
pub fn groups(svc: &Arc<Service>, query: Option<&str>) -> Response {
    match count(svc, query) {
        Ok(body) => Response::plain_json(body),
        Err(err) => Response::error(Protocol::Json, &err, new_request_id()),
    }
}
