//! AddPermission and RemovePermission: a statement added to or removed from the queue's `Policy`
//! by its label, recorded like any change of attributes (so a data directory keeps it) and
//! counted as a change of the queue (`LastModifiedTimestamp`).

use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::Call;
use crate::engine::policy::{self, Permission};
use crate::error::{SqsError, SqsResult};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PermissionInput {
    #[serde(rename = "QueueUrl")]
    queue_url: Option<String>,
    #[serde(rename = "Label")]
    label: Option<String>,
    #[serde(rename = "AWSAccountIds")]
    accounts: Option<Vec<String>>,
    #[serde(rename = "Actions")]
    actions: Option<Vec<String>>,
}

/// A list parameter that must name at least one item: an empty list is as good as none (the
/// Query protocol cannot even send one).
fn required(list: Option<Vec<String>>, parameter: &str) -> SqsResult<Vec<String>> {
    list.filter(|l| !l.is_empty())
        .ok_or_else(|| SqsError::missing(parameter))
}

pub fn add_permission(call: &Call, input: PermissionInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let label = input.label.ok_or_else(|| SqsError::missing("Label"))?;
    let accounts = required(input.accounts, "AWSAccountIds")?;
    let actions = required(input.actions, "Actions")?;
    let permission = Permission {
        label: &label,
        accounts: &accounts,
        actions: &actions,
    };
    let now = call.svc.now();
    let mut state = queue.state.lock();
    let updated = policy::add(state.attrs.policy.as_deref(), &queue.arn, permission)?;
    state.attrs.policy = Some(updated);
    state.last_modified = now;
    state.save(&queue);
    Ok(json!({}))
}

pub fn remove_permission(call: &Call, input: PermissionInput) -> SqsResult<Value> {
    let queue = call.queue_by_url(input.queue_url.as_deref())?;
    let label = input.label.ok_or_else(|| SqsError::missing("Label"))?;
    let now = call.svc.now();
    let mut state = queue.state.lock();
    state.attrs.policy = policy::remove(state.attrs.policy.as_deref(), &label)?;
    state.last_modified = now;
    state.save(&queue);
    Ok(json!({}))
}
