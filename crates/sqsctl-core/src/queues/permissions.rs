//! Queue permissions, as AddPermission and RemovePermission make them: the rules SQS holds a
//! permission to (a label, account ids, action names), checked before any call so a bad one
//! changes nothing; the statements of a queue's `Policy` read as permissions; and the statement
//! AddPermission writes, which a dry run shows.

use serde::Serialize;
use serde_json::{Value, json};

/// Most actions one permission may allow.
pub const MAX_ACTIONS: usize = 7;
const MAX_LABEL_CHARS: usize = 80;

/// The actions a queue's owner can allow another account, `*` for all of them. Each of
/// `SendMessage`, `DeleteMessage` and `ChangeMessageVisibility` allows its batch action too.
pub const GRANTABLE_ACTIONS: &[&str] = &[
    "*",
    "ChangeMessageVisibility",
    "DeleteMessage",
    "GetQueueAttributes",
    "GetQueueUrl",
    "ListDeadLetterSourceQueues",
    "PurgeQueue",
    "ReceiveMessage",
    "SendMessage",
];

/// Actions only the queue's owner may call: SQS refuses to grant them.
const OWNER_ONLY_ACTIONS: &[&str] = &[
    "AddPermission",
    "CancelMessageMoveTask",
    "CreateQueue",
    "DeleteQueue",
    "ListMessageMoveTasks",
    "ListQueueTags",
    "ListQueues",
    "RemovePermission",
    "SetQueueAttributes",
    "StartMessageMoveTask",
    "TagQueue",
    "UntagQueue",
];

/// A batch action and the action whose permission allows it.
const BATCH_ACTIONS: &[(&str, &str)] = &[
    ("SendMessageBatch", "SendMessage"),
    ("DeleteMessageBatch", "DeleteMessage"),
    ("ChangeMessageVisibilityBatch", "ChangeMessageVisibility"),
];

/// A permission SQS would refuse, and why (the words name no flag: the command adds those).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PermissionError {
    #[error("the label `{0}` is not 1-80 letters, digits, - and _")]
    Label(String),
    #[error("`{0}` is not an AWS account id (12 digits); SQS grants permissions to accounts only")]
    Account(String),
    #[error("`{0}` is not an action a permission can allow")]
    UnknownAction(String),
    #[error("only the queue's owner may call {0}: SQS does not grant it to other accounts")]
    OwnerOnly(String),
    #[error("{batch} is allowed with {single}: ask for {single}")]
    Batch {
        batch: &'static str,
        single: &'static str,
    },
    #[error("{0} actions given; a permission allows at most {MAX_ACTIONS}")]
    TooManyActions(usize),
}

/// Checks a label: 1-80 of `[A-Za-z0-9_-]`, the statement's `Sid`.
pub fn check_label(label: &str) -> Result<(), PermissionError> {
    let fits = (1..=MAX_LABEL_CHARS).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fits {
        Ok(())
    } else {
        Err(PermissionError::Label(label.to_string()))
    }
}

/// Checks an account id: twelve digits.
pub fn check_account(account: &str) -> Result<(), PermissionError> {
    if account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(PermissionError::Account(account.to_string()))
    }
}

/// The action name SQS knows for `text`: written as in the API (`SendMessage`), in any case, with
/// or without the `SQS:` prefix of policies; refused when no permission can allow it.
pub fn action_name(text: &str) -> Result<&'static str, PermissionError> {
    let bare = match text.split_once(':') {
        Some((prefix, rest)) if prefix.eq_ignore_ascii_case("sqs") => rest,
        _ => text,
    };
    let find =
        |names: &[&'static str]| names.iter().find(|n| n.eq_ignore_ascii_case(bare)).copied();
    if let Some(name) = find(GRANTABLE_ACTIONS) {
        return Ok(name);
    }
    if let Some(name) = find(OWNER_ONLY_ACTIONS) {
        return Err(PermissionError::OwnerOnly(name.to_string()));
    }
    if let Some((batch, single)) = BATCH_ACTIONS
        .iter()
        .find(|(batch, _)| batch.eq_ignore_ascii_case(bare))
    {
        return Err(PermissionError::Batch { batch, single });
    }
    Err(PermissionError::UnknownAction(text.to_string()))
}

/// The actions of one permission, each by its name in the API, given once, at most
/// [`MAX_ACTIONS`].
pub fn action_names(texts: &[String]) -> Result<Vec<&'static str>, PermissionError> {
    let mut names: Vec<&'static str> = Vec::new();
    for text in texts {
        let name = action_name(text)?;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if names.len() > MAX_ACTIONS {
        return Err(PermissionError::TooManyActions(names.len()));
    }
    Ok(names)
}

/// One statement of a queue's policy, read as a permission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statement {
    /// Its `Sid`: the label of a permission AddPermission made (empty when it has none).
    pub label: String,
    /// `Allow` or `Deny`.
    pub effect: String,
    /// Who it names: an account id for `arn:aws:iam::ID:root` (what AddPermission writes), else
    /// the principal as written (`*`, a role's ARN).
    pub principals: Vec<String>,
    /// Its actions as written (`SQS:SendMessage`).
    pub actions: Vec<String>,
    /// Whether it has a `Condition` (which `queue info` shows in the raw policy).
    pub conditional: bool,
}

/// The statements of a policy document; `None` for text that is no policy document.
pub fn statements(policy: &str) -> Option<Vec<Statement>> {
    let document: Value = serde_json::from_str(policy).ok()?;
    let list = match document.get("Statement")? {
        Value::Array(list) => list.clone(),
        one @ Value::Object(_) => vec![one.clone()],
        _ => return None,
    };
    Some(list.iter().map(Statement::read).collect())
}

/// The statement labelled `label` of a policy document, as written.
pub fn find_statement(policy: &str, label: &str) -> Option<Value> {
    let document: Value = serde_json::from_str(policy).ok()?;
    match document.get("Statement")? {
        Value::Array(list) => list.iter().find(|s| s["Sid"] == label).cloned(),
        one @ Value::Object(_) => (one["Sid"] == label).then(|| one.clone()),
        _ => None,
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from))
            .collect(),
        Some(other) => vec![other.to_string()],
        None => Vec::new(),
    }
}

impl Statement {
    /// A statement of a policy document, as written there.
    pub fn read(value: &Value) -> Statement {
        let principal = value.get("Principal");
        let principals = match principal.and_then(|p| p.get("AWS")) {
            Some(aws) => strings(Some(aws)),
            None => strings(principal),
        };
        Statement {
            label: value
                .get("Sid")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            effect: value
                .get("Effect")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            principals: principals.iter().map(|p| account_of(p)).collect(),
            actions: strings(value.get("Action")),
            conditional: value.get("Condition").is_some(),
        }
    }
}

/// `123456789012` for `arn:aws:iam::123456789012:root`, anything else as it is.
fn account_of(principal: &str) -> String {
    let parts: Vec<&str> = principal.split(':').collect();
    match parts.as_slice() {
        ["arn", _, "iam", "", account, "root"] => (*account).to_string(),
        _ => principal.to_string(),
    }
}

/// The statement AddPermission writes for a permission on the queue `queue_arn`: one account or
/// action as a string, several as a list, actions with the `SQS:` prefix.
pub fn planned_statement(
    label: &str,
    accounts: &[String],
    actions: &[&str],
    queue_arn: &str,
) -> Value {
    let partition = queue_arn.split(':').nth(1).unwrap_or("aws");
    let one_or_many = |items: Vec<String>| match items.as_slice() {
        [one] => json!(one),
        _ => json!(items),
    };
    json!({
        "Sid": label,
        "Effect": "Allow",
        "Principal": {
            "AWS": one_or_many(accounts.iter().map(|a| format!("arn:{partition}:iam::{a}:root")).collect()),
        },
        "Action": one_or_many(actions.iter().map(|a| format!("SQS:{a}")).collect()),
        "Resource": queue_arn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_names_are_read_as_sqs_knows_them() {
        assert_eq!(action_name("SendMessage"), Ok("SendMessage"));
        assert_eq!(action_name("sqs:receivemessage"), Ok("ReceiveMessage"));
        assert_eq!(action_name("*"), Ok("*"));
        assert_eq!(
            action_name("CreateQueue"),
            Err(PermissionError::OwnerOnly("CreateQueue".into()))
        );
        assert!(matches!(
            action_name("SendMessageBatch"),
            Err(PermissionError::Batch {
                single: "SendMessage",
                ..
            })
        ));
        assert_eq!(
            action_name("Fly"),
            Err(PermissionError::UnknownAction("Fly".into()))
        );
        let eight: Vec<String> = GRANTABLE_ACTIONS.iter().map(|a| a.to_string()).collect();
        assert_eq!(
            action_names(&eight),
            Err(PermissionError::TooManyActions(9))
        );
        let twice = vec!["SendMessage".to_string(), "sendmessage".to_string()];
        assert_eq!(action_names(&twice), Ok(vec!["SendMessage"]));
    }

    #[test]
    fn labels_and_accounts() {
        assert!(check_label("Alice_send-1").is_ok());
        assert!(check_label(&"a".repeat(81)).is_err());
        assert!(check_label("a b").is_err());
        assert!(check_account("111122223333").is_ok());
        assert!(check_account("arn:aws:iam::111122223333:root").is_err());
        assert!(check_account("11112222333").is_err());
    }

    #[test]
    fn statements_read_what_add_permission_writes_and_what_owners_write() {
        let arn = "arn:aws:sqs:us-east-1:000000000000:q";
        let written = planned_statement(
            "share",
            &["111122223333".to_string(), "444455556666".to_string()],
            &["SendMessage"],
            arn,
        );
        assert_eq!(written["Action"], "SQS:SendMessage");
        let policy = json!({"Statement": [written, {
            "Sid": "sns", "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
            "Action": ["sqs:SendMessage"], "Resource": arn, "Condition": {}
        }]});
        let read = statements(&policy.to_string()).unwrap();
        assert_eq!(read[0].principals, ["111122223333", "444455556666"]);
        assert_eq!(read[0].actions, ["SQS:SendMessage"]);
        assert_eq!(read[1].principals, [r#"{"Service":"sns.amazonaws.com"}"#]);
        assert!(read[1].conditional);
        assert_eq!(statements("[]"), None);
    }
}
