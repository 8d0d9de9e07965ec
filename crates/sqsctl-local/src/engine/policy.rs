//! A queue's `Policy` as AddPermission and RemovePermission change it: each permission is one
//! statement whose `Sid` is its label, added to or removed from the document, whose other members
//! and statements stay as the queue's owner wrote them (member order included). What SQS accepts
//! in a permission (labels, account ids, action names and their limits) is checked here too.
//!
//! This module knows the document only; the handler in `api` finds the queue and records the
//! change.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::error::{ErrorKind, SqsError, SqsResult};

/// The policy language version of the documents SQS writes for AddPermission.
pub const POLICY_VERSION: &str = "2008-10-17";
/// Most actions one statement may name.
pub const MAX_ACTIONS: usize = 7;
/// Most statements one queue policy may hold.
pub const MAX_STATEMENTS: usize = 20;
const MAX_LABEL_CHARS: usize = 80;

/// The actions a queue's owner can grant another account: those cross-account permissions apply
/// to, and `*` for all of them. A batch action comes with its single one (`SendMessage` grants
/// `SendMessageBatch`) and is not a name of its own here.
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

/// Actions only the queue's owner may call, which SQS refuses to grant.
pub const OWNER_ONLY_ACTIONS: &[&str] = &[
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

/// Labels: 1 to 80 of `[A-Za-z0-9_-]`.
pub fn check_label(label: &str) -> SqsResult<()> {
    let fits = (1..=MAX_LABEL_CHARS).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fits {
        return Ok(());
    }
    Err(SqsError::invalid_value(
        "Label",
        label,
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.",
    ))
}

/// The actions of one permission: at most [`MAX_ACTIONS`], each grantable.
pub fn check_actions(actions: &[String]) -> SqsResult<()> {
    if actions.len() > MAX_ACTIONS {
        return Err(SqsError::new(
            ErrorKind::OverLimit,
            format!(
                "{} Actions were found, maximum allowed is {MAX_ACTIONS}.",
                actions.len()
            ),
        ));
    }
    for action in actions {
        let reason = if OWNER_ONLY_ACTIONS.contains(&action.as_str()) {
            "Only the queue owner is allowed to invoke this action."
        } else if GRANTABLE_ACTIONS.contains(&action.as_str()) {
            continue;
        } else {
            "Please refer to the appropriate WSDL for a list of valid actions."
        };
        return Err(SqsError::invalid_value(
            "ActionName",
            format!("SQS:{action}"),
            reason,
        ));
    }
    Ok(())
}

/// The principals of one permission: AWS account ids, twelve digits each (SQS grants to accounts
/// only, not to users or roles).
pub fn check_accounts(accounts: &[String]) -> SqsResult<()> {
    for account in accounts {
        if account.len() != 12 || !account.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SqsError::invalid_value(
                "PrincipalId",
                account,
                "Unable to verify principal.",
            ));
        }
    }
    Ok(())
}

/// One permission to add: its label, the accounts it names and the actions it allows them.
#[derive(Debug, Clone, Copy)]
pub struct Permission<'a> {
    pub label: &'a str,
    pub accounts: &'a [String],
    pub actions: &'a [String],
}

/// The policy with `permission` added as a statement on the queue `queue_arn`; without a policy,
/// a new document as SQS writes it (`Version` 2008-10-17, `Id` the queue's ARN and
/// `/SQSDefaultPolicy`). Checks everything but the queue: label, actions, accounts, a label used
/// already, the statement limit.
pub fn add(policy: Option<&str>, queue_arn: &str, permission: Permission) -> SqsResult<String> {
    check_label(permission.label)?;
    check_actions(permission.actions)?;
    check_accounts(permission.accounts)?;
    let mut document = match policy {
        Some(text) => Document::parse(text)?,
        None => Document::new(queue_arn)?,
    };
    let mut statements = document.statements()?;
    if statements
        .iter()
        .any(|s| sid_of(s) == Some(permission.label))
    {
        return Err(SqsError::invalid_value(
            "Label",
            permission.label,
            "Already exists.",
        ));
    }
    if statements.len() >= MAX_STATEMENTS {
        return Err(SqsError::new(
            ErrorKind::OverLimit,
            format!(
                "{} Statements were found, maximum allowed is {MAX_STATEMENTS}.",
                statements.len() + 1
            ),
        ));
    }
    statements.push(raw(&Statement::new(permission, queue_arn))?);
    document.set_statements(&statements)?;
    document.render()
}

/// The policy without the statement labelled `label`, or `None` when it was the last one: the
/// queue then has no policy, as on SQS.
pub fn remove(policy: Option<&str>, label: &str) -> SqsResult<Option<String>> {
    let not_found = || SqsError::invalid_value("Label", label, "can't find label.");
    let mut document = Document::parse(policy.ok_or_else(not_found)?)?;
    let mut statements = document.statements()?;
    let before = statements.len();
    statements.retain(|s| sid_of(s) != Some(label));
    if statements.len() == before {
        return Err(not_found());
    }
    if statements.is_empty() {
        return Ok(None);
    }
    document.set_statements(&statements)?;
    document.render().map(Some)
}

/// The statement AddPermission writes: one account or action as a string, several as a list.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Statement<'a> {
    sid: &'a str,
    effect: &'static str,
    principal: Principal,
    action: OneOrMany,
    resource: &'a str,
}

#[derive(Serialize)]
struct Principal {
    #[serde(rename = "AWS")]
    aws: OneOrMany,
}

#[derive(Serialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn of(mut items: Vec<String>) -> OneOrMany {
        match items.len() {
            1 => OneOrMany::One(items.remove(0)),
            _ => OneOrMany::Many(items),
        }
    }
}

impl<'a> Statement<'a> {
    fn new(permission: Permission<'a>, queue_arn: &'a str) -> Self {
        let partition = queue_arn.split(':').nth(1).unwrap_or("aws");
        let accounts = permission
            .accounts
            .iter()
            .map(|id| format!("arn:{partition}:iam::{id}:root"))
            .collect();
        let actions = permission
            .actions
            .iter()
            .map(|a| format!("SQS:{a}"))
            .collect();
        Statement {
            sid: permission.label,
            effect: "Allow",
            principal: Principal {
                aws: OneOrMany::of(accounts),
            },
            action: OneOrMany::of(actions),
            resource: queue_arn,
        }
    }
}

/// A policy document's members in their order, each value as written.
struct Document {
    members: Vec<(String, Box<RawValue>)>,
}

fn raw<T: Serialize>(value: &T) -> SqsResult<Box<RawValue>> {
    serde_json::value::to_raw_value(value).map_err(|_| SqsError::internal())
}

fn sid_of(statement: &RawValue) -> Option<&str> {
    #[derive(Deserialize)]
    struct Sid<'a> {
        #[serde(rename = "Sid", borrow)]
        sid: Option<&'a str>,
    }
    serde_json::from_str::<Sid>(statement.get())
        .ok()
        .and_then(|s| s.sid)
}

impl Document {
    fn new(queue_arn: &str) -> SqsResult<Document> {
        Ok(Document {
            members: vec![
                ("Version".into(), raw(&POLICY_VERSION)?),
                ("Id".into(), raw(&format!("{queue_arn}/SQSDefaultPolicy"))?),
                ("Statement".into(), raw(&Vec::<Box<RawValue>>::new())?),
            ],
        })
    }

    fn parse(text: &str) -> SqsResult<Document> {
        serde_json::from_str(text).map_err(|_| unusable_policy())
    }

    /// The statements: `Statement` is a list, or one statement alone.
    fn statements(&self) -> SqsResult<Vec<Box<RawValue>>> {
        let Some((_, value)) = self.members.iter().find(|(k, _)| k == "Statement") else {
            return Ok(Vec::new());
        };
        let text = value.get().trim_start();
        if text.starts_with('[') {
            serde_json::from_str(text).map_err(|_| unusable_policy())
        } else if text.starts_with('{') {
            Ok(vec![value.clone()])
        } else {
            Err(unusable_policy())
        }
    }

    fn set_statements(&mut self, statements: &[Box<RawValue>]) -> SqsResult<()> {
        let value = raw(&statements)?;
        match self.members.iter_mut().find(|(k, _)| k == "Statement") {
            Some((_, slot)) => *slot = value,
            None => self.members.push(("Statement".into(), value)),
        }
        Ok(())
    }

    fn render(&self) -> SqsResult<String> {
        serde_json::to_string(self).map_err(|_| SqsError::internal())
    }
}

/// A policy set through SetQueueAttributes that is JSON but no policy document.
fn unusable_policy() -> SqsError {
    SqsError::invalid_parameter(
        "The queue's Policy is not a policy document (a JSON object whose Statement is a statement or a list of them): set a valid one with SetQueueAttributes first.",
    )
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.members.len()))?;
        for (key, value) in &self.members {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Document;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a policy document (a JSON object)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
                let mut members: Vec<(String, Box<RawValue>)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Box<RawValue>>()? {
                    if members.iter().any(|(k, _)| *k == key) {
                        return Err(de::Error::custom(format!("duplicate member {key}")));
                    }
                    members.push((key, value));
                }
                Ok(Document { members })
            }
        }
        deserializer.deserialize_map(Members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    const ARN: &str = "arn:aws:sqs:us-east-1:000000000000:q";

    #[test]
    fn a_first_permission_makes_the_document_sqs_writes() {
        let accounts = strings(&["111122223333"]);
        let actions = strings(&["ReceiveMessage"]);
        let permission = Permission {
            label: "p1",
            accounts: &accounts,
            actions: &actions,
        };
        let first = add(None, ARN, permission).unwrap();
        assert_eq!(
            first,
            r#"{"Version":"2008-10-17","Id":"arn:aws:sqs:us-east-1:000000000000:q/SQSDefaultPolicy","Statement":[{"Sid":"p1","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"SQS:ReceiveMessage","Resource":"arn:aws:sqs:us-east-1:000000000000:q"}]}"#
        );
        let accounts = strings(&["111122223333", "444455556666"]);
        let actions = strings(&["SendMessage", "*"]);
        let second = Permission {
            label: "p2",
            accounts: &accounts,
            actions: &actions,
        };
        let policy = add(Some(&first), ARN, second).unwrap();
        let value: serde_json::Value = serde_json::from_str(&policy).unwrap();
        assert_eq!(
            value["Statement"][1]["Principal"]["AWS"],
            serde_json::json!([
                "arn:aws:iam::111122223333:root",
                "arn:aws:iam::444455556666:root"
            ])
        );
        assert_eq!(
            value["Statement"][1]["Action"],
            serde_json::json!(["SQS:SendMessage", "SQS:*"])
        );
        // Removing a statement leaves the rest as it was, byte for byte.
        assert_eq!(remove(Some(&policy), "p2").unwrap(), Some(first));
        let only = remove(Some(&policy), "p1").unwrap().unwrap();
        assert_eq!(remove(Some(&only), "p2").unwrap(), None);
    }

    #[test]
    fn an_owners_policy_keeps_its_members_and_order() {
        let own = r#"{"Statement":{"Sid":"mine","Effect":"Deny","Principal":"*","Action":"sqs:*","Resource":"*"},"Version":"2012-10-17"}"#;
        let accounts = strings(&["111122223333"]);
        let actions = strings(&["SendMessage"]);
        let permission = Permission {
            label: "theirs",
            accounts: &accounts,
            actions: &actions,
        };
        let added = add(Some(own), ARN, permission).unwrap();
        assert!(
            added.starts_with(
                r#"{"Statement":[{"Sid":"mine","Effect":"Deny","Principal":"*","Action":"sqs:*","Resource":"*"},{"Sid":"theirs""#
            ),
            "{added}"
        );
        assert!(added.ends_with(r#"],"Version":"2012-10-17"}"#), "{added}");
        let removed = remove(Some(&added), "theirs").unwrap().unwrap();
        assert!(removed.contains(r#""Sid":"mine""#), "{removed}");
        assert!(remove(Some("[1]"), "x").is_err());
    }

    #[test]
    fn what_sqs_refuses_in_a_permission() {
        let message = |r: SqsResult<()>| r.unwrap_err().message;
        assert!(check_label(&"a".repeat(80)).is_ok());
        assert!(check_label(&"a".repeat(81)).is_err());
        assert!(check_label("a b").is_err());
        assert!(check_label("").is_err());
        assert_eq!(
            message(check_actions(&strings(&["CreateQueue"]))),
            "Value SQS:CreateQueue for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action."
        );
        assert_eq!(
            message(check_actions(&strings(&["SendMessageBatch"]))),
            "Value SQS:SendMessageBatch for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions."
        );
        let eight = strings(&["SendMessage"; 8]);
        let err = check_actions(&eight).unwrap_err();
        assert_eq!(err.kind, ErrorKind::OverLimit);
        assert!(check_accounts(&strings(&["123456789012"])).is_ok());
        assert_eq!(
            message(check_accounts(&strings(&[
                "arn:aws:iam::123456789012:user/ana"
            ]))),
            "Value arn:aws:iam::123456789012:user/ana for parameter PrincipalId is invalid. Reason: Unable to verify principal."
        );
    }
}
