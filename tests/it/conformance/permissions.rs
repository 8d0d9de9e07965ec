//! AddPermission and RemovePermission: a statement per label in the queue's `Policy`, as SQS
//! answered in LocalStack's validated recordings (`test_sqs_permission_lifecycle`, recorded against
//! AWS in 2024): the document SQS writes, a label used twice, an unknown label, and no policy left
//! once the last statement goes. Then what SQS refuses in a permission, where LocalStack checks
//! less than the API reference says.

use super::*;

const OTHER_ACCOUNT: &str = "668614515564";

/// The queue's policy as JSON, or `None` when GetQueueAttributes returns no `Policy`.
async fn policy(t: &Target, url: &str) -> Option<serde_json::Value> {
    let out = t
        .client
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::Policy)
        .send()
        .await
        .expect("GetQueueAttributes Policy");
    out.attributes()
        .and_then(|a| a.get(&QueueAttributeName::Policy))
        .map(|text| serde_json::from_str(text).expect("the Policy is JSON"))
}

fn account_of(arn: &str) -> &str {
    arn.split(':').nth(4).expect("an ARN names its account")
}

fn statement(label: &str, principals: serde_json::Value, arn: &str) -> serde_json::Value {
    serde_json::json!({
        "Sid": label,
        "Effect": "Allow",
        "Principal": {"AWS": principals},
        "Action": "SQS:ReceiveMessage",
        "Resource": arn,
    })
}

/// The error code and message of a failed call.
fn failure<T: Debug, E: ProvideErrorMetadata + std::error::Error + 'static, R: Debug>(
    result: Result<T, SdkError<E, R>>,
) -> (String, String) {
    match result {
        Ok(out) => panic!("expected an error, got {out:?}"),
        Err(e) => (
            e.code().unwrap_or_default().to_owned(),
            e.message().unwrap_or_default().to_owned(),
        ),
    }
}

pub(super) async fn permission_lifecycle(t: Arc<Target>) {
    let queue = t.standard_queue("perm", &[]).await;
    let own = account_of(&queue.arn).to_owned();
    let add = |label: &'static str, accounts: Vec<String>| {
        t.client
            .add_permission()
            .queue_url(&queue.url)
            .label(label)
            .set_aws_account_ids(Some(accounts))
            .actions("ReceiveMessage")
            .send()
    };
    add(
        "crossaccountpermission",
        vec![OTHER_ACCOUNT.into(), own.clone()],
    )
    .await
    .expect("AddPermission for two accounts");
    let principal = |account: &str| format!("arn:aws:iam::{account}:root");
    let mut two = statement(
        "crossaccountpermission",
        serde_json::json!([principal(OTHER_ACCOUNT), principal(&own)]),
        &queue.arn,
    );
    let document = |statements: Vec<serde_json::Value>| {
        serde_json::json!({
            "Version": "2008-10-17",
            "Id": format!("{}/SQSDefaultPolicy", queue.arn),
            "Statement": statements,
        })
    };
    let mut got = policy(&t, &queue.url).await.expect("a Policy");
    // SQS does not keep the order of the accounts (the recording sorts them); we do.
    for p in [
        &mut got["Statement"][0]["Principal"]["AWS"],
        &mut two["Principal"]["AWS"],
    ] {
        if let Some(list) = p.as_array_mut() {
            list.sort_by_key(|v| v.to_string());
        }
    }
    assert_eq!(got, document(vec![two]));

    t.client
        .remove_permission()
        .queue_url(&queue.url)
        .label("crossaccountpermission")
        .send()
        .await
        .expect("RemovePermission");
    assert_eq!(
        policy(&t, &queue.url).await,
        None,
        "the last statement gone"
    );

    add("crossaccountpermission", vec![own.clone()])
        .await
        .expect("AddPermission for one account");
    let one = |label: &str| statement(label, serde_json::json!(principal(&own)), &queue.arn);
    assert_eq!(
        policy(&t, &queue.url).await,
        Some(document(vec![one("crossaccountpermission")]))
    );
    assert_eq!(
        failure(add("crossaccountpermission", vec![OTHER_ACCOUNT.into()]).await),
        (
            "InvalidParameterValue".to_owned(),
            "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists."
                .to_owned()
        )
    );
    add("crossaccountpermission2", vec![own.clone()])
        .await
        .expect("AddPermission under a second label");
    assert_eq!(
        policy(&t, &queue.url).await,
        Some(document(vec![
            one("crossaccountpermission"),
            one("crossaccountpermission2")
        ]))
    );
    let remove = |label: &'static str| {
        t.client
            .remove_permission()
            .queue_url(&queue.url)
            .label(label)
            .send()
    };
    remove("crossaccountpermission")
        .await
        .expect("remove the first");
    assert_eq!(
        policy(&t, &queue.url).await,
        Some(document(vec![one("crossaccountpermission2")]))
    );
    remove("crossaccountpermission2")
        .await
        .expect("remove the second");
    assert_eq!(policy(&t, &queue.url).await, None);
    assert_eq!(
        failure(remove("crossaccountpermission2").await),
        (
            "InvalidParameterValue".to_owned(),
            "Value crossaccountpermission2 for parameter Label is invalid. Reason: can't find label."
                .to_owned()
        )
    );
}

/// `*` for every grantable action and several actions at once, with the `SQS:` prefix; then what
/// SQS refuses (the API reference of AddPermission: labels of up to 80 of `[A-Za-z0-9_-]`, at
/// most seven actions per statement, account principals only; owner-only actions such as
/// CreateQueue and batch actions are refused as action names).
pub(super) async fn permission_errors(t: Arc<Target>) {
    let mut checks = Checks::new(&t);
    let queue = t.standard_queue("perm-err", &[]).await;
    let add = |label: &str, accounts: &[&str], actions: &[&str]| {
        t.client
            .add_permission()
            .queue_url(&queue.url)
            .label(label)
            .set_aws_account_ids(Some(accounts.iter().map(|a| a.to_string()).collect()))
            .set_actions(Some(actions.iter().map(|a| a.to_string()).collect()))
            .send()
    };
    checks.ok(
        "AddPermission *",
        add("all", &[OTHER_ACCOUNT], &["*"]).await,
    );
    checks.ok(
        "AddPermission of two actions",
        add("two", &[OTHER_ACCOUNT], &["SendMessage", "DeleteMessage"]).await,
    );
    let statements = policy(&t, &queue.url).await.expect("a Policy")["Statement"].clone();
    checks.check(
        "the statements' actions",
        statements[0]["Action"] == "SQS:*"
            && statements[1]["Action"]
                == serde_json::json!(["SQS:SendMessage", "SQS:DeleteMessage"]),
        || format!("{statements}"),
    );
    checks.code(
        "AddPermission to a missing queue",
        t.client
            .add_permission()
            .queue_url(
                queue
                    .url
                    .replace(&queue.name, &support::unique_name("gone")),
            )
            .label("x")
            .aws_account_ids(OTHER_ACCOUNT)
            .actions("SendMessage")
            .send()
            .await,
        "AWS.SimpleQueueService.NonExistentQueue",
    );
    checks.code(
        "RemovePermission of a label never added",
        t.client
            .remove_permission()
            .queue_url(&queue.url)
            .label("never")
            .send()
            .await,
        "InvalidParameterValue",
    );
    // LocalStack differs: it accepts any label, any account id, any number of actions and the
    // name of any SQS action, the owner-only and batch ones included.
    checks.documented_code(
        "AddPermission with a label of 81 characters",
        add(&"a".repeat(81), &[OTHER_ACCOUNT], &["SendMessage"]).await,
        "InvalidParameterValue",
    );
    checks.documented_code(
        "AddPermission with a label that has a space",
        add("a b", &[OTHER_ACCOUNT], &["SendMessage"]).await,
        "InvalidParameterValue",
    );
    checks.documented_code(
        "AddPermission for a user ARN, not an account",
        add(
            "user",
            &["arn:aws:iam::668614515564:user/ana"],
            &["SendMessage"],
        )
        .await,
        "InvalidParameterValue",
    );
    checks.documented_code(
        "AddPermission of eight actions",
        add("eight", &[OTHER_ACCOUNT], &["SendMessage"; 8]).await,
        "OverLimit",
    );
    checks.documented_code(
        "AddPermission of an owner-only action",
        add("owner", &[OTHER_ACCOUNT], &["CreateQueue"]).await,
        "InvalidParameterValue",
    );
    checks.documented_code(
        "AddPermission of a batch action",
        add("batch", &[OTHER_ACCOUNT], &["SendMessageBatch"]).await,
        "InvalidParameterValue",
    );
    checks.code(
        "AddPermission of an action SQS does not have",
        add("nope", &[OTHER_ACCOUNT], &["Fly"]).await,
        "InvalidParameterValue",
    );
    let after = policy(&t, &queue.url).await.expect("a Policy");
    let labels: Vec<&str> = after["Statement"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["Sid"].as_str())
        .collect();
    if t.is_ours() {
        checks.check(
            "refused permissions add nothing",
            labels == ["all", "two"],
            || format!("{labels:?}"),
        );
    }
    checks.finish();
}
