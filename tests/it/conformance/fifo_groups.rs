//! Scenarios for how SQS holds back a FIFO group and orders what comes back from flight: a group
//! waits behind its oldest message only, groups take turns by when their oldest message became
//! receivable, a delete that frees a group answers a waiting long poll, a FIFO receipt handle
//! expires with its visibility timeout, and on a standard queue a message back from its timeout
//! comes before messages sent after it. Each expectation is an answer SQS gave (LocalStack's
//! AWS-validated tests recorded them); the names in the comments are those tests'.

use super::*;

/// A FIFO queue with content-based deduplication and `visibility` seconds of visibility timeout.
async fn group_queue(t: &Target, prefix: &str, visibility: &str) -> Queue {
    t.fifo_queue(
        prefix,
        &[
            (QueueAttributeName::ContentBasedDeduplication, "true"),
            (QueueAttributeName::VisibilityTimeout, visibility),
        ],
    )
    .await
}

/// Sends `(group, body)` pairs in order.
async fn send_all(t: &Target, url: &str, sends: &[(&str, &str)]) {
    for (group, body) in sends {
        t.send_to_group(url, body, Some(group), None).await;
    }
}

/// Asserts `got` on our server; LocalStack's answer is printed where it differs from SQS's.
#[track_caller]
fn assert_order_localstack_differs(t: &Target, case: &str, got: &[Message], expected: &[&str]) {
    let got = bodies(got);
    if t.is_ours() {
        assert_eq!(got, expected, "{case}");
    } else if got != expected {
        eprintln!(
            "note: LocalStack differs from SQS: {case}: SQS answered {expected:?}, got {got:?}"
        );
    }
}

/// foo, bar and baz of one group received with a 1 s visibility timeout, one of them extended to
/// 4 s: 2.5 s later a receive gets the messages before the one kept in flight, and nothing after
/// it (test_fifo_group_visibility_extends_with_change_message_visibility, all three positions).
pub(super) async fn fifo_group_waits_behind_its_first_message_in_flight(t: Arc<Target>) {
    let cases: [(usize, &[&str]); 3] = [(0, &[]), (1, &["foo"]), (2, &["foo", "bar"])];
    let mut queues = Vec::new();
    for (kept, _) in cases {
        let q = group_queue(&t, "cf-held", "1").await;
        send_all(&t, &q.url, &[("1", "foo"), ("1", "bar"), ("1", "baz")]).await;
        let all = t.receive(&q.url, 5, None, 0).await;
        assert_eq!(bodies(&all), ["foo", "bar", "baz"]);
        t.change_visibility(&q.url, &all[kept], 4).await;
        queues.push(q);
    }
    // The three queues waited at once: 2.5 s after the last change, all three are read.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    for ((kept, expected), q) in cases.into_iter().zip(&queues) {
        let got = t.receive(&q.url, 5, None, 0).await;
        assert_eq!(
            bodies(&got),
            expected,
            "message {kept} of foo, bar, baz kept in flight, the others back"
        );
    }
}

/// g1-m1 and g1-m2 received, then g1-m1's timeout changed to 0, or to 1 s and waited for: the
/// next receive gets g2-m1 and g1-m1, not g1-m2, still in flight
/// (test_fifo_message_group_visibility_after_terminate_visibility_timeout,
/// test_fifo_message_group_visibility_after_change_message_visibility).
pub(super) async fn fifo_head_made_visible_again_is_received_before_the_rest(t: Arc<Target>) {
    for timeout in [0, 1] {
        let q = group_queue(&t, "cf-head", "30").await;
        send_all(
            &t,
            &q.url,
            &[
                ("group-1", "g1-m1"),
                ("group-1", "g1-m2"),
                ("group-2", "g2-m1"),
            ],
        )
        .await;
        let first = t.receive(&q.url, 2, None, 0).await;
        assert_eq!(bodies(&first), ["g1-m1", "g1-m2"]);
        t.change_visibility(&q.url, &first[0], timeout).await;
        let wait = if timeout == 0 {
            2
        } else {
            // LocalStack's expiry can be a second late.
            tokio::time::sleep(Duration::from_millis(2_500)).await;
            0
        };
        let got = t.receive(&q.url, 3, None, wait).await;
        assert_eq!(
            bodies(&got),
            ["g2-m1", "g1-m1"],
            "g1-m1's visibility timeout changed to {timeout} while g1-m2 stays in flight"
        );
    }
}

/// Groups take turns by when their oldest message became receivable: a group back from flight
/// comes after groups whose heads were waiting, and a group freed by deletes takes the place its
/// next message holds since its send (test_fifo_receive_message_with_zero_visibility_timeout,
/// test_fifo_receive_message_visibility_timeout_shared_in_group,
/// test_fifo_message_group_visibility_after_delete and ..._after_partial_delete).
pub(super) async fn fifo_groups_take_turns_by_when_their_head_became_receivable(t: Arc<Target>) {
    // Received with a visibility timeout of 0: g3, never received, comes first.
    let q = group_queue(&t, "cf-turns", "30").await;
    send_all(
        &t,
        &q.url,
        &[
            ("group-1", "g1-m1"),
            ("group-2", "g2-m1"),
            ("group-2", "g2-m2"),
            ("group-3", "g3-m1"),
            ("group-1", "g1-m2"),
        ],
    )
    .await;
    let first = t.receive(&q.url, 3, Some(0), 0).await;
    assert_eq!(bodies(&first), ["g1-m1", "g1-m2", "g2-m1"]);
    let again = t.receive(&q.url, 10, Some(0), 0).await;
    assert_eq!(
        bodies(&again),
        ["g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"]
    );

    // Timeouts run out: group 1 and then group 2 come back behind group 3.
    let q = group_queue(&t, "cf-turns", "1").await;
    send_all(
        &t,
        &q.url,
        &[
            ("group-1", "g1-m1"),
            ("group-1", "g1-m2"),
            ("group-1", "g1-m3"),
            ("group-1", "g1-m4"),
            ("group-2", "g2-m1"),
            ("group-3", "g3-m1"),
        ],
    )
    .await;
    assert_eq!(
        bodies(&t.receive(&q.url, 2, None, 0).await),
        ["g1-m1", "g1-m2"]
    );
    assert_eq!(bodies(&t.receive(&q.url, 1, None, 0).await), ["g2-m1"]);
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let back = t.receive(&q.url, 10, Some(0), 0).await;
    // LocalStack differs: it also answers g3, g2, then group 1 (its own test allows both).
    assert_order_localstack_differs(
        &t,
        "after both timeouts ran out",
        &back,
        &["g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1"],
    );

    // Deletes: both of group 1's messages in flight deleted, or only the first.
    let sends = [
        ("group-1", "g1-m1"),
        ("group-2", "g2-m1"),
        ("group-1", "g1-m2"),
        ("group-2", "g2-m2"),
        ("group-1", "g1-m3"),
        ("group-1", "g1-m4"),
        ("group-3", "g3-m1"),
    ];
    for delete_both in [true, false] {
        let q = group_queue(&t, "cf-turns", "30").await;
        send_all(&t, &q.url, &sends).await;
        let first = t.receive(&q.url, 2, None, 0).await;
        assert_eq!(bodies(&first), ["g1-m1", "g1-m2"]);
        t.delete(&q.url, &first[0]).await;
        if delete_both {
            t.delete(&q.url, &first[1]).await;
        }
        let drained = t.receive(&q.url, 10, None, 0).await;
        if delete_both {
            // LocalStack differs: it answers group 1 last (g2-m1, g2-m2, g3-m1, g1-m3, g1-m4).
            assert_order_localstack_differs(
                &t,
                "both of group 1's messages deleted",
                &drained,
                &["g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1"],
            );
        } else {
            assert_eq!(
                bodies(&drained),
                ["g2-m1", "g2-m2", "g3-m1"],
                "g1-m2 still in flight holds the rest of group 1"
            );
        }
    }
}

/// A long poll waiting while a group's only visible message sits behind one in flight gets it as
/// soon as the one in flight is deleted (test_fifo_message_group_visibility).
pub(super) async fn fifo_delete_that_frees_a_group_answers_a_waiting_long_poll(t: Arc<Target>) {
    let q = group_queue(&t, "cf-wake", "60").await;
    t.send_to_group(&q.url, "message-1", Some("1"), None).await;
    let first = t.receive(&q.url, 1, None, 0).await;
    assert_eq!(bodies(&first), ["message-1"]);
    t.send_to_group(&q.url, "message-2", Some("1"), None).await;
    let poller = {
        let t = t.clone();
        let url = q.url.clone();
        tokio::spawn(async move {
            let got = t.receive(&url, 1, None, 10).await;
            (got, Instant::now())
        })
    };
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert!(!poller.is_finished(), "message-2 waits behind message-1");
    let deleted_at = Instant::now();
    t.delete(&q.url, &first[0]).await;
    let (got, answered_at) = poller.await.unwrap();
    assert_eq!(bodies(&got), ["message-2"]);
    let after = answered_at.saturating_duration_since(deleted_at);
    assert!(
        after < Duration::from_secs(2),
        "the long poll answered {after:?} after the delete"
    );
}

/// A delete with the handle of a receive whose visibility timeout ran out: on a FIFO queue 400
/// InvalidParameterValue, "The receipt handle has expired."
/// (test_fifo_delete_after_visibility_timeout), and in the batch too; extended before it ran out, the handle still deletes
/// (..._timeout_extended); on a standard queue it deletes (test_delete_after_visibility_timeout).
pub(super) async fn delete_with_a_receipt_handle_whose_timeout_ran_out(t: Arc<Target>) {
    let fifo = group_queue(&t, "cf-expired", "1").await;
    t.send_to_group(&fifo.url, "foobar", Some("1"), None).await;
    let extended = group_queue(&t, "cf-expired", "1").await;
    t.send_to_group(&extended.url, "foobar", Some("1"), None)
        .await;
    let standard = t
        .standard_queue(
            "cf-expired",
            &[(QueueAttributeName::VisibilityTimeout, "1")],
        )
        .await;
    t.send(&standard.url, "foobar").await;

    let fifo_got = t.receive(&fifo.url, 1, None, 5).await;
    let extended_got = t.receive(&extended.url, 1, None, 5).await;
    let standard_got = t.receive(&standard.url, 1, None, 5).await;
    t.change_visibility(&extended.url, &extended_got[0], 5)
        .await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;

    let handle = fifo_got[0].receipt_handle().unwrap();
    let refused = t
        .client
        .delete_message()
        .queue_url(&fifo.url)
        .receipt_handle(handle)
        .send()
        .await;
    let err = refused.expect_err("an expired FIFO receipt handle is refused");
    assert_eq!(err.code(), Some("InvalidParameterValue"));
    assert_eq!(err.raw_response().map(|r| r.status().as_u16()), Some(400));
    let message = err.message().unwrap_or_default();
    assert!(
        message.starts_with("Value ")
            && message.ends_with(
                " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired."
            ),
        "{message}"
    );
    let batch = t
        .client
        .delete_message_batch()
        .queue_url(&fifo.url)
        .entries(
            aws_sdk_sqs::types::DeleteMessageBatchRequestEntry::builder()
                .id("expired")
                .receipt_handle(handle)
                .build()
                .unwrap(),
        )
        .send()
        .await;
    // LocalStack differs: its entry fails with code InvalidParameterValueException and SenderFault
    // false; SQS's batch entries that fail validation carry InvalidParameterValue and SenderFault
    // true (test_send_batch_message_size).
    match (t.is_ours(), batch) {
        (true, Ok(out)) => {
            assert!(out.successful().is_empty());
            let failed = out.failed();
            assert_eq!(failed.len(), 1);
            assert_eq!(failed[0].code(), "InvalidParameterValue");
            assert!(failed[0].sender_fault());
        }
        (true, Err(e)) => panic!("DeleteMessageBatch: {}", DisplayErrorContext(&e)),
        (false, out) => {
            eprintln!("note: LocalStack's DeleteMessageBatch with an expired handle: {out:?}")
        }
    }
    if t.is_ours() {
        assert_eq!(
            bodies(&t.receive(&fifo.url, 1, None, 0).await),
            ["foobar"],
            "the message was not deleted"
        );
    }

    t.delete(&extended.url, &extended_got[0]).await;
    t.delete(&standard.url, &standard_got[0]).await;
    assert!(
        t.receive(&standard.url, 1, None, 0).await.is_empty(),
        "the standard queue's message was deleted"
    );
}

/// On a standard queue a message back from its visibility timeout is received before a message
/// sent while it was in flight (test_inflight_message_requeue).
pub(super) async fn standard_message_back_from_its_timeout_comes_before_newer_ones(t: Arc<Target>) {
    let q = t.standard_queue("cf-requeue", &[]).await;
    t.send(&q.url, "test1").await;
    let first = t.receive(&q.url, 1, Some(2), 0).await;
    assert_eq!(bodies(&first), ["test1"]);
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    t.send(&q.url, "test2").await;
    // LocalStack's expiry can be a second late.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let second = t.receive(&q.url, 1, Some(2), 0).await;
    assert_eq!(bodies(&second), ["test1"]);
}
