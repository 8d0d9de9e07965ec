//! Scenarios for what SQS answered about messages, batches and FIFO settings (issue 38): visibility
//! changes with old receipt handles, the `X-Amzn-Trace-Id` header, attribute name filters and
//! characters, empty batches, FIFO batch entries without ids, and deduplication across a purge and
//! a change of `DeduplicationScope`. Each states the answer recorded against SQS.

use super::*;

use aws_sdk_sqs::types::{DeleteMessageBatchRequestEntry, MessageSystemAttributeValue};

const TRACE: &str = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1";
const OWN_TRACE: &str =
    "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

/// Waits until the queue counts `n` visible messages (LocalStack's expiry can be a second late).
async fn wait_visible(t: &Target, url: &str, n: u64) {
    let deadline = Instant::now() + VISIBILITY_GRACE;
    while t.visible_count(url).await != n {
        assert!(Instant::now() < deadline, "{url} never counted {n} visible");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn change_visibility_by_handle(
    t: &Target,
    url: &str,
    handle: &str,
    seconds: i32,
) -> Result<(), String> {
    t.client
        .change_message_visibility()
        .queue_url(url)
        .receipt_handle(handle)
        .visibility_timeout(seconds)
        .send()
        .await
        .map(|_| ())
        .map_err(|e| DisplayErrorContext(&e).to_string())
}

/// ChangeMessageVisibilityBatch of one entry, which must succeed.
async fn change_visibility_in_a_batch(t: &Target, url: &str, handle: &str, seconds: i32) {
    let entry = ChangeMessageVisibilityBatchRequestEntry::builder()
        .id("only")
        .receipt_handle(handle)
        .visibility_timeout(seconds)
        .build()
        .unwrap();
    let out = t
        .client
        .change_message_visibility_batch()
        .queue_url(url)
        .entries(entry)
        .send()
        .await
        .unwrap_or_else(|e| panic!("ChangeMessageVisibilityBatch: {}", DisplayErrorContext(&e)));
    assert!(out.failed().is_empty(), "{:?}", out.failed());
}

/// A handle whose visibility timeout ran out is accepted (200) and leaves the visible message
/// visible; a handle that a later receive replaced is accepted and changes the timeout of that
/// later receive. Both, single and batched. (SQS: LocalStack's validated
/// `test_change_message_visibility_after_visibility_timeout_expiration`, and moto's AWS-verified
/// `test_change_message_visibility_on_old_message`.)
pub(super) async fn visibility_change_with_an_old_handle(t: Arc<Target>) {
    let q = t.standard_queue("cf-oldhandle", &[]).await;
    t.send(&q.url, "m").await;
    let first = t.receive(&q.url, 1, Some(1), 0).await;
    let old = first[0].receipt_handle().unwrap().to_owned();
    wait_visible(&t, &q.url, 1).await;

    change_visibility_by_handle(&t, &q.url, &old, 30)
        .await
        .expect("a handle whose timeout ran out is accepted");
    change_visibility_in_a_batch(&t, &q.url, &old, 30).await;
    assert_eq!(
        t.visible_count(&q.url).await,
        1,
        "the message stays visible"
    );

    // Received again: the old handle now stands for this receive.
    let second = t.receive(&q.url, 1, Some(1), 0).await;
    assert_eq!(bodies(&second), ["m"]);
    change_visibility_by_handle(&t, &q.url, &old, 30)
        .await
        .expect("a handle a later receive replaced is accepted");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        bodies(&t.receive(&q.url, 1, None, 0).await),
        Vec::<&str>::new(),
        "the old handle extended the second receive's timeout past its 1 s"
    );
    change_visibility_in_a_batch(&t, &q.url, &old, 0).await;
    let third = t
        .receive_within(&q.url, 1, Some(30), VISIBILITY_GRACE)
        .await;
    assert_eq!(
        bodies(&third),
        ["m"],
        "the old handle ended the timeout too"
    );
    t.delete(&q.url, &third[0]).await;
}

/// Up to 10 messages with the system attribute `name`, left visible (visibility timeout 0).
async fn peek_system(
    t: &Target,
    url: &str,
    name: MessageSystemAttributeName,
    wait: i32,
) -> Vec<Message> {
    let out = t
        .client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .wait_time_seconds(wait)
        .visibility_timeout(0)
        .message_system_attribute_names(name.clone())
        .send()
        .await
        .unwrap_or_else(|e| panic!("ReceiveMessage {name:?}: {}", DisplayErrorContext(&e)));
    out.messages().to_vec()
}

/// The `X-Amzn-Trace-Id` header of a send becomes each message's `AWSTraceHeader`, for
/// SendMessage and every entry of SendMessageBatch; an entry's own `AWSTraceHeader` system
/// attribute overrides the header (the X-Ray developer guide). It is returned when asked for by
/// name or with All, and only then.
pub(super) async fn trace_header_from_the_http_header(t: Arc<Target>) {
    let q = t.standard_queue("cf-trace", &[]).await;
    t.client
        .send_message()
        .queue_url(&q.url)
        .message_body("single")
        .customize()
        .mutate_request(|req| {
            req.headers_mut().insert("X-Amzn-Trace-Id", TRACE);
        })
        .send()
        .await
        .expect("SendMessage with X-Amzn-Trace-Id");
    let own = MessageSystemAttributeValue::builder()
        .data_type("String")
        .string_value(OWN_TRACE)
        .build()
        .unwrap();
    let with_own = SendMessageBatchRequestEntry::builder()
        .id("own")
        .message_body("own")
        .message_system_attributes(
            aws_sdk_sqs::types::MessageSystemAttributeNameForSends::AwsTraceHeader,
            own,
        )
        .build()
        .unwrap();
    t.client
        .send_message_batch()
        .queue_url(&q.url)
        .entries(batch_entry("plain", "batched"))
        .entries(with_own)
        .customize()
        .mutate_request(|req| {
            req.headers_mut().insert("X-Amzn-Trace-Id", TRACE);
        })
        .send()
        .await
        .expect("SendMessageBatch with X-Amzn-Trace-Id");

    let mut checks = Checks::new(&t);
    let mut traces = HashMap::new();
    let deadline = Instant::now() + VISIBILITY_GRACE;
    while traces.len() < 3 && Instant::now() < deadline {
        let got = peek_system(&t, &q.url, MessageSystemAttributeName::AwsTraceHeader, 1).await;
        for m in &got {
            let trace = system_attribute(m, MessageSystemAttributeName::AwsTraceHeader);
            traces.insert(
                m.body().unwrap_or_default().to_owned(),
                trace.map(str::to_owned),
            );
        }
    }
    for (body, expected) in [("single", TRACE), ("batched", TRACE), ("own", OWN_TRACE)] {
        let got = traces.get(body).cloned().flatten();
        checks.check(
            &format!("AWSTraceHeader of {body}"),
            got.as_deref() == Some(expected),
            || format!("got {got:?}"),
        );
    }
    let all = t.receive(&q.url, 10, Some(0), 0).await;
    checks.check(
        "AWSTraceHeader with MessageSystemAttributeNames All",
        all.iter()
            .all(|m| system_attribute(m, MessageSystemAttributeName::AwsTraceHeader).is_some()),
        || format!("{all:?}"),
    );
    let only_sent = peek_system(&t, &q.url, MessageSystemAttributeName::SentTimestamp, 0).await;
    checks.check(
        "no AWSTraceHeader unless asked for",
        only_sent
            .iter()
            .all(|m| system_attribute(m, MessageSystemAttributeName::AwsTraceHeader).is_none()),
        || format!("{only_sent:?}"),
    );
    checks.finish();
}

/// `MessageAttributeNames`: `All`, `*` and `.*` return every attribute, `Hel.*` the names that
/// start with `Hel`, names that exist themselves; MD5OfMessageAttributes covers what is returned
/// (the digests SQS answered, LocalStack's validated
/// `test_receive_message_message_attribute_names_filters`).
pub(super) async fn message_attribute_name_filters(t: Arc<Target>) {
    let q = t.standard_queue("cf-attrnames", &[]).await;
    let sent = t
        .client
        .send_message()
        .queue_url(&q.url)
        .message_body("msg")
        .message_attributes("Help.Me", string_attribute("Me"))
        .message_attributes("Hello", string_attribute("There"))
        .message_attributes("General", string_attribute("Kenobi"))
        .send()
        .await
        .expect("SendMessage with three attributes");
    assert_eq!(
        sent.md5_of_message_attributes(),
        Some("4c360f3fdafd970e05fae2f149d997f5")
    );
    let mut checks = Checks::new(&t);
    let cases: [(&[&str], &[&str], Option<&str>); 7] = [
        (
            &["All"],
            &["General", "Hello", "Help.Me"],
            Some("4c360f3fdafd970e05fae2f149d997f5"),
        ),
        (
            &["*"],
            &["General", "Hello", "Help.Me"],
            Some("4c360f3fdafd970e05fae2f149d997f5"),
        ),
        (
            &[".*"],
            &["General", "Hello", "Help.Me"],
            Some("4c360f3fdafd970e05fae2f149d997f5"),
        ),
        (
            &["Hel.*"],
            &["Hello", "Help.Me"],
            Some("83fee93c1bcd8b9a5a923ffacdc636c7"),
        ),
        (
            &["Hello", "General"],
            &["General", "Hello"],
            Some("fca026605781cb4126a1e9044df24232"),
        ),
        (
            &["Foo", "Hello"],
            &["Hello"],
            Some("a311262e065454b75da111d535b8dacd"),
        ),
        (&["Foo", "Help"], &[], None),
    ];
    for (filter, names, md5) in cases {
        let mut request = t
            .client
            .receive_message()
            .queue_url(&q.url)
            .wait_time_seconds(1)
            .visibility_timeout(0);
        for name in filter {
            request = request.message_attribute_names(*name);
        }
        let out = request.send().await.expect("ReceiveMessage");
        let Some(message) = out.messages().first() else {
            checks.check(&format!("{filter:?}"), false, || "no message".into());
            continue;
        };
        let got: BTreeSet<&str> = message
            .message_attributes()
            .map(|a| a.keys().map(String::as_str).collect())
            .unwrap_or_default();
        checks.check(
            &format!("names returned for {filter:?}"),
            got.iter().copied().eq(names.iter().copied()),
            || format!("expected {names:?}, got {got:?}"),
        );
        checks.check(
            &format!("MD5OfMessageAttributes for {filter:?}"),
            message.md5_of_message_attributes() == md5,
            || {
                format!(
                    "expected {md5:?}, got {:?}",
                    message.md5_of_message_attributes()
                )
            },
        );
    }
    checks.finish();
}

/// Attribute names may hold letters beyond ASCII (SQS accepted `attr.1øßä`); a String value with
/// control characters is `InvalidParameterValue`, not `InvalidMessageContents` (LocalStack's
/// validated `test_send_message_with_invalid_string_attributes`).
pub(super) async fn attribute_characters(t: Arc<Target>) {
    let q = t.standard_queue("cf-attrchars", &[]).await;
    let mut checks = Checks::new(&t);
    let send = |name: &str, value: &str| {
        t.client
            .send_message()
            .queue_url(&q.url)
            .message_body("test")
            .message_attributes(name, string_attribute(value))
            .send()
    };
    checks.ok(
        "an attribute named attr.1øßä",
        send("attr.1øßä", "Valida").await,
    );
    let control = send("attr1", "Invalid-\u{8},\u{b}").await;
    let message = control
        .as_ref()
        .err()
        .and_then(|e| e.message())
        .unwrap_or_default()
        .to_owned();
    checks.code(
        "a String value with control characters",
        control,
        "InvalidParameterValue",
    );
    checks.check(
        "the message of a String value with control characters",
        message.starts_with("Invalid characters found."),
        || format!("got {message:?}"),
    );
    for name in ["Invalid-!-attr", "Invalid-§-attr", "Invalid-?-attr"] {
        checks.code(
            &format!("an attribute named {name}"),
            send(name, "Valid").await,
            "InvalidParameterValue",
        );
    }
    checks.finish();
}

/// A batch of no entries: `EmptyBatchRequest`, with a message naming the entry type of the action.
pub(super) async fn empty_batches(t: Arc<Target>) {
    let q = t.standard_queue("cf-emptybatch", &[]).await;
    let mut checks = Checks::new(&t);
    // LocalStack differs: its EmptyBatchRequest has no message, so only the code is compared there.
    let ours = t.is_ours();
    let mut expect = |action: &str, result: Option<(String, String)>, entry: &str| {
        let wanted = format!("There should be at least one {entry} in the request.");
        checks.check(
            &format!("{action} of no entries"),
            result.as_ref().is_some_and(|(code, message)| {
                code == "AWS.SimpleQueueService.EmptyBatchRequest" && (!ours || *message == wanted)
            }),
            || format!("expected EmptyBatchRequest {wanted:?}, got {result:?}"),
        );
    };
    fn failure<T, E: ProvideErrorMetadata>(result: Result<T, E>) -> Option<(String, String)> {
        result.err().map(|e| {
            (
                e.code().unwrap_or_default().to_owned(),
                e.message().unwrap_or_default().to_owned(),
            )
        })
    }
    let send = t
        .client
        .send_message_batch()
        .queue_url(&q.url)
        .set_entries(Some(Vec::new()))
        .send()
        .await;
    expect(
        "SendMessageBatch",
        failure(send),
        "SendMessageBatchRequestEntry",
    );
    let delete = t
        .client
        .delete_message_batch()
        .queue_url(&q.url)
        .set_entries(Some(Vec::<DeleteMessageBatchRequestEntry>::new()))
        .send()
        .await;
    expect(
        "DeleteMessageBatch",
        failure(delete),
        "DeleteMessageBatchRequestEntry",
    );
    let change = t
        .client
        .change_message_visibility_batch()
        .queue_url(&q.url)
        .set_entries(Some(Vec::new()))
        .send()
        .await;
    expect(
        "ChangeMessageVisibilityBatch",
        failure(change),
        "ChangeMessageVisibilityBatchRequestEntry",
    );
    checks.finish();
}

/// On a FIFO queue a SendMessageBatch entry without `MessageGroupId`, or without
/// `MessageDeduplicationId` where the queue has no content-based deduplication, fails the whole
/// request with 400 `InvalidParameterValue`, and no entry is sent (LocalStack's validated
/// `test_send_batch_missing_*_for_fifo_queue`).
pub(super) async fn fifo_batch_entries_without_ids(t: Arc<Target>) {
    let q = t.fifo_queue("cf-fifobatch", &[]).await;
    let complete = SendMessageBatchRequestEntry::builder()
        .id("complete")
        .message_body("complete")
        .message_group_id("g")
        .message_deduplication_id("d1")
        .build()
        .unwrap();
    let no_group = SendMessageBatchRequestEntry::builder()
        .id("nogroup")
        .message_body("no group")
        .message_deduplication_id("d2")
        .build()
        .unwrap();
    let no_dedup = SendMessageBatchRequestEntry::builder()
        .id("nodedup")
        .message_body("no dedup")
        .message_group_id("g")
        .build()
        .unwrap();
    let mut checks = Checks::new(&t);
    for (case, entry, wanted) in [
        (
            "an entry without MessageGroupId",
            no_group,
            "The request must contain the parameter MessageGroupId.",
        ),
        (
            "an entry without MessageDeduplicationId",
            no_dedup,
            "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
        ),
    ] {
        let result = t
            .client
            .send_message_batch()
            .queue_url(&q.url)
            .entries(complete.clone())
            .entries(entry)
            .send()
            .await;
        let message = result
            .as_ref()
            .err()
            .and_then(|e| e.message())
            .unwrap_or_default()
            .to_owned();
        checks.code(case, result, "InvalidParameterValue");
        checks.check(
            &format!("the message for {case}"),
            message == wanted,
            || format!("got {message:?}"),
        );
    }
    checks.check(
        "no entry of a refused batch was sent",
        t.receive(&q.url, 10, None, 1).await.is_empty(),
        || "the queue has messages".into(),
    );
    checks.finish();
}

/// A purge ends the deduplication window: a message sent again with the same deduplication id
/// after a purge is delivered (LocalStack's `test_purge_queue_clears_fifo_deduplication_cache`).
pub(super) async fn purge_clears_deduplication(t: Arc<Target>) {
    let q = t.fifo_queue("cf-purgededup", &[]).await;
    t.send_to_group(&q.url, "before", Some("g"), Some("same"))
        .await;
    t.client
        .purge_queue()
        .queue_url(&q.url)
        .send()
        .await
        .expect("PurgeQueue");
    t.send_to_group(&q.url, "after", Some("g"), Some("same"))
        .await;
    let got = t.receive_within(&q.url, 10, None, VISIBILITY_GRACE).await;
    assert_eq!(bodies(&got), ["after"]);
}

/// Changing `DeduplicationScope` from `queue` to `messageGroup` does not change deduplication at
/// once: as SQS was recorded (LocalStack's validated
/// `test_fifo_change_to_high_throughput_after_creation`), an id seen before the change is dropped
/// in another group, and so is an id first sent after the change: the old scope holds for the
/// five minutes of the deduplication window. (Our server's test clock checks the end of that
/// window: `crates/sqsctl-local/tests/server.rs`.)
pub(super) async fn dedup_scope_change_keeps_seen_ids(t: Arc<Target>) {
    let q = t.fifo_queue("cf-scope", &[]).await;
    let original = t
        .send_to_group(&q.url, "first", Some("a"), Some("seen"))
        .await;
    t.client
        .set_queue_attributes()
        .queue_url(&q.url)
        .attributes(QueueAttributeName::DeduplicationScope, "messageGroup")
        .attributes(QueueAttributeName::FifoThroughputLimit, "perMessageGroupId")
        .send()
        .await
        .expect("SetQueueAttributes DeduplicationScope messageGroup");
    let again = t
        .send_to_group(&q.url, "again in b", Some("b"), Some("seen"))
        .await;
    assert_eq!(
        again, original,
        "the id seen under the queue scope is still seen"
    );
    let new = t
        .send_to_group(&q.url, "new in a", Some("a"), Some("new"))
        .await;
    let new_again = t
        .send_to_group(&q.url, "new in b", Some("b"), Some("new"))
        .await;
    assert_eq!(
        new_again, new,
        "an id first sent after the change is still deduplicated across the queue"
    );
    let mut delivered = BTreeSet::new();
    loop {
        let got = t.receive(&q.url, 10, None, 1).await;
        if got.is_empty() {
            break;
        }
        for m in &got {
            delivered.insert(m.body().unwrap_or_default().to_owned());
            t.delete(&q.url, m).await;
        }
    }
    let expected: BTreeSet<String> = ["first", "new in a"].map(String::from).into();
    assert_eq!(delivered, expected);
}

/// `FifoQueue=true` on a FIFO queue is accepted and changes nothing; `false` there is
/// `InvalidAttributeValue`, and either value on a standard queue `InvalidAttributeName`
/// (LocalStack's validated `test_set_unsupported_attribute_fifo` and `_standard`).
pub(super) async fn fifo_queue_attribute_set_again(t: Arc<Target>) {
    let fifo = t.fifo_queue("cf-fifoagain", &[]).await;
    let standard = t.standard_queue("cf-notfifo", &[]).await;
    let set = |url: &str, value: &str| {
        t.client
            .set_queue_attributes()
            .queue_url(url)
            .attributes(QueueAttributeName::FifoQueue, value)
            .send()
    };
    let mut checks = Checks::new(&t);
    checks.ok(
        "FifoQueue=true on a FIFO queue",
        set(&fifo.url, "true").await,
    );
    let refused = set(&fifo.url, "false").await;
    let message = refused
        .as_ref()
        .err()
        .and_then(|e| e.message())
        .unwrap_or_default()
        .to_owned();
    checks.code(
        "FifoQueue=false on a FIFO queue",
        refused,
        "InvalidAttributeValue",
    );
    checks.check(
        "the message for FifoQueue=false on a FIFO queue",
        message
            == "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
        || format!("got {message:?}"),
    );
    for value in ["true", "false"] {
        checks.code(
            &format!("FifoQueue={value} on a standard queue"),
            set(&standard.url, value).await,
            "InvalidAttributeName",
        );
    }
    checks.check(
        "the FIFO queue is still FIFO",
        t.queue_attribute(&fifo.url, QueueAttributeName::FifoQueue)
            .await
            == "true",
        || "FifoQueue is no longer true".into(),
    );
    checks.finish();
}
