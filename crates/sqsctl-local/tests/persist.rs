//! What the local server keeps across restarts (`data_dir`), the queues it creates at start
//! (`init`) and its memory bound (`max_bytes`), through the real aws-sdk-sqs client. A restart
//! here is a graceful one in the same process, on a manual clock so deadlines are exact; the
//! `kill -9` case runs the real binary in the root crate's tests (`tests/it/local_persist.rs`).

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::error::ProvideErrorMetadata;
use aws_sdk_sqs::types::{MessageSystemAttributeName, QueueAttributeName};
use sqsctl_local::{AttributeValue, Clock, InitError, InitSpec, QueueSpec, Server, ServerConfig};

#[path = "support/mod.rs"]
mod support;

use support::{change_visibility, delete, queue_attribute, receive_up_to, send, send_batch};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const START: u64 = 1_700_000_000;

fn config(dir: &Path, at: SystemTime) -> ServerConfig {
    ServerConfig {
        clock: Clock::manual(at),
        data_dir: Some(dir.to_path_buf()),
        ..ServerConfig::default()
    }
}

fn client(server: &Server) -> Client {
    client_in(server, "us-east-1")
}

/// A client signing for `region`, with the SDK's default three attempts.
fn client_in(server: &Server, region: &str) -> Client {
    support::client_at(server, region, 3)
}

async fn counts(sqs: &Client, url: &str) -> Result<(u64, u64, u64), Box<dyn std::error::Error>> {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await?;
    let attrs = out.attributes().cloned().unwrap_or_default();
    let get = |name: QueueAttributeName| {
        attrs
            .get(&name)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(u64::MAX)
    };
    Ok((
        get(QueueAttributeName::ApproximateNumberOfMessages),
        get(QueueAttributeName::ApproximateNumberOfMessagesNotVisible),
        get(QueueAttributeName::ApproximateNumberOfMessagesDelayed),
    ))
}

/// Creates the FIFO queue `name`; its URL.
async fn create_fifo(sqs: &Client, name: &str) -> Result<String, Box<dyn std::error::Error>> {
    let out = sqs
        .create_queue()
        .queue_name(name)
        .attributes(QueueAttributeName::FifoQueue, "true")
        .send()
        .await?;
    Ok(out.queue_url.unwrap_or_default())
}

/// Bodies and receive counts of everything receivable now, received with a long timeout.
async fn receive_all(
    sqs: &Client,
    url: &str,
) -> Result<Vec<(String, String)>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    loop {
        let got = sqs
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .visibility_timeout(3600)
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .send()
            .await?;
        if got.messages().is_empty() {
            return Ok(out);
        }
        for m in got.messages() {
            let count = m
                .attributes()
                .and_then(|a| a.get(&MessageSystemAttributeName::ApproximateReceiveCount))
                .cloned()
                .unwrap_or_default();
            out.push((m.body().unwrap_or_default().to_string(), count));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_queues_messages_states_and_dedup_ids() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    let (url, dlq_url, fifo_url, original_id, original_sequence, stale_handle);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        dlq_url = sqs
            .create_queue()
            .queue_name("jobs-dlq")
            .send()
            .await?
            .queue_url
            .unwrap_or_default();
        url = sqs
            .create_queue()
            .queue_name("jobs")
            .attributes(QueueAttributeName::VisibilityTimeout, "45")
            .attributes(
                QueueAttributeName::RedrivePolicy,
                format!(
                    r#"{{"deadLetterTargetArn":"{}","maxReceiveCount":2}}"#,
                    server.queue_arn("jobs-dlq")
                ),
            )
            .tags("team", "checkout")
            .send()
            .await?
            .queue_url
            .unwrap_or_default();
        fifo_url = create_fifo(&sqs, "jobs.fifo").await?;
        for body in ["poison", "in-flight"] {
            send(&sqs, &url, body).await?;
        }
        // "poison" is received twice; the receive after that moves it to the DLQ.
        let first = receive_up_to(&sqs, &url, 2).await?;
        assert_eq!(first.messages().len(), 2);
        let poison = first
            .messages()
            .iter()
            .find(|m| m.body() == Some("poison"))
            .ok_or("poison not received first")?;
        stale_handle = poison.receipt_handle().unwrap_or_default().to_string();
        change_visibility(&sqs, &url, &stale_handle, 0).await?;
        for expected in [&["poison"][..], &[]] {
            let got = sqs
                .receive_message()
                .queue_url(&url)
                .max_number_of_messages(10)
                .visibility_timeout(0)
                .send()
                .await?;
            let bodies: Vec<&str> = got.messages().iter().filter_map(|m| m.body()).collect();
            assert_eq!(bodies, expected);
        }
        send(&sqs, &url, "visible").await?;
        sqs.send_message()
            .queue_url(&url)
            .message_body("delayed")
            .delay_seconds(600)
            .send()
            .await?;
        let sent = sqs
            .send_message()
            .queue_url(&fifo_url)
            .message_body("once")
            .message_group_id("g")
            .message_deduplication_id("d-1")
            .send()
            .await?;
        original_id = sent.message_id.unwrap_or_default();
        original_sequence = sent.sequence_number.unwrap_or_default().parse::<u128>()?;
        // Deleted: the deduplication window outlives the message.
        let got = sqs.receive_message().queue_url(&fifo_url).send().await?;
        for m in got.messages() {
            delete(&sqs, &fifo_url, m.receipt_handle().unwrap_or_default()).await?;
        }
        server.shutdown().await;
    }

    let server = Server::start(config(dir.path(), start))?;
    let restored = server.ready().restored.ok_or("nothing restored")?;
    assert_eq!((restored.queues, restored.messages), (3, 4));
    let sqs = client(&server);
    // visible, in flight (45 s from the first receive), delayed.
    assert_eq!(counts(&sqs, &url).await?, (1, 1, 1));
    assert_eq!(counts(&sqs, &dlq_url).await?, (1, 0, 0));
    let tags = sqs.list_queue_tags().queue_url(&url).send().await?;
    assert_eq!(
        tags.tags().and_then(|t| t.get("team")).map(String::as_str),
        Some("checkout")
    );
    let timeout = queue_attribute(&sqs, &url, QueueAttributeName::VisibilityTimeout).await?;
    assert_eq!(timeout.as_deref(), Some("45"));
    // The dedup id still deduplicates: the original id comes back and nothing is added.
    let again = sqs
        .send_message()
        .queue_url(&fifo_url)
        .message_body("twice")
        .message_group_id("g")
        .message_deduplication_id("d-1")
        .send()
        .await?;
    assert_eq!(again.message_id(), Some(original_id.as_str()));
    assert_eq!(counts(&sqs, &fifo_url).await?, (0, 0, 0));
    // Sequence numbers go on growing, though no message of the queue is left.
    let next = sqs
        .send_message()
        .queue_url(&fifo_url)
        .message_body("next")
        .message_group_id("g")
        .message_deduplication_id("d-2")
        .send()
        .await?;
    let next_sequence = next.sequence_number().unwrap_or_default().parse::<u128>()?;
    assert!(next_sequence > original_sequence, "{next_sequence}");
    // A receipt handle from before the restart no longer works.
    let stale = delete(&sqs, &url, &stale_handle).await;
    assert_eq!(
        stale.err().and_then(|e| e.code().map(String::from)),
        Some("ReceiptHandleIsInvalid".into())
    );
    // The DLQ message keeps its receive count and names its source.
    let dead = receive_all(&sqs, &dlq_url).await?;
    assert_eq!(dead, [("poison".to_string(), "3".to_string())]);
    // The in-flight message reappears when its deadline passes, the delayed one after its delay.
    assert_eq!(
        receive_all(&sqs, &url).await?,
        [("visible".to_string(), "1".to_string())]
    );
    server.clock().advance(Duration::from_secs(46));
    assert_eq!(
        receive_all(&sqs, &url).await?,
        [("in-flight".to_string(), "2".to_string())]
    );
    server.clock().advance(Duration::from_secs(600));
    assert_eq!(
        receive_all(&sqs, &url).await?,
        [("delayed".to_string(), "1".to_string())]
    );
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_purges_and_queue_deletions_stay_done() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        let keep = sqs.create_queue().queue_name("keep").send().await?;
        let keep = keep.queue_url().unwrap_or_default();
        let purged = sqs.create_queue().queue_name("purged").send().await?;
        let purged = purged.queue_url().unwrap_or_default();
        let gone = sqs.create_queue().queue_name("gone").send().await?;
        let gone = gone.queue_url().unwrap_or_default();
        for url in [keep, purged, gone] {
            for body in ["a", "b", "c"] {
                send(&sqs, url, body).await?;
            }
        }
        let got = receive_up_to(&sqs, keep, 10).await?;
        for m in got.messages().iter().filter(|m| m.body() != Some("b")) {
            delete(&sqs, keep, m.receipt_handle().unwrap_or_default()).await?;
        }
        sqs.purge_queue().queue_url(purged).send().await?;
        sqs.delete_queue().queue_url(gone).send().await?;
        server.shutdown().await;
    }
    let server = Server::start(config(dir.path(), start))?;
    let sqs = client(&server);
    let listed = sqs.list_queues().send().await?;
    let mut names: Vec<&str> = listed
        .queue_urls()
        .iter()
        .filter_map(|u| u.rsplit('/').next())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["keep", "purged"]);
    assert_eq!(counts(&sqs, &server.queue_url("keep")).await?, (0, 1, 0));
    assert_eq!(counts(&sqs, &server.queue_url("purged")).await?, (0, 0, 0));
    // The purge's 60 s cooldown survives too.
    let again = sqs
        .purge_queue()
        .queue_url(server.queue_url("purged"))
        .send()
        .await;
    assert_eq!(
        again.err().and_then(|e| e.code().map(String::from)),
        Some("AWS.SimpleQueueService.PurgeQueueInProgress".into())
    );
    server.shutdown().await;
    Ok(())
}

/// A purge ends the deduplication window for good: after a restart a message sent again with an
/// id seen before the purge is delivered (SQS accepts it). The `X-Amzn-Trace-Id` header a send
/// carried is kept as the message's `AWSTraceHeader` like any system attribute.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purge_forgets_dedup_ids_and_trace_headers_are_kept_across_a_restart() -> TestResult {
    const TRACE: &str =
        "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1";
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        let url = create_fifo(&sqs, "purged.fifo").await?;
        for body in ["before", "also before"] {
            sqs.send_message()
                .queue_url(&url)
                .message_body(body)
                .message_group_id("g")
                .message_deduplication_id(body.replace(' ', "-"))
                .send()
                .await?;
        }
        sqs.purge_queue().queue_url(&url).send().await?;
        let traced = sqs.create_queue().queue_name("traced").send().await?;
        sqs.send_message()
            .queue_url(traced.queue_url().unwrap_or_default())
            .message_body("traced")
            .customize()
            .mutate_request(|req| {
                req.headers_mut().insert("X-Amzn-Trace-Id", TRACE);
            })
            .send()
            .await?;
        server.shutdown().await;
    }
    let server = Server::start(config(dir.path(), start))?;
    let sqs = client(&server);
    let url = server.queue_url("purged.fifo");
    sqs.send_message()
        .queue_url(&url)
        .message_body("after")
        .message_group_id("g")
        .message_deduplication_id("before")
        .send()
        .await?;
    let got: Vec<String> = receive_all(&sqs, &url)
        .await?
        .into_iter()
        .map(|(body, _)| body)
        .collect();
    assert_eq!(got, ["after"]);
    let traced = sqs
        .receive_message()
        .queue_url(server.queue_url("traced"))
        .message_system_attribute_names(MessageSystemAttributeName::AwsTraceHeader)
        .send()
        .await?;
    let trace = traced
        .messages()
        .first()
        .and_then(|m| m.attributes())
        .and_then(|a| a.get(&MessageSystemAttributeName::AwsTraceHeader))
        .cloned();
    assert_eq!(trace.as_deref(), Some(TRACE));
    server.shutdown().await;
    Ok(())
}

/// The bodies one receive of up to `max` messages brings, kept in flight for an hour.
async fn take(
    sqs: &Client,
    url: &str,
    max: i32,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let got = sqs
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .visibility_timeout(3600)
        .send()
        .await?;
    Ok(got
        .messages()
        .iter()
        .map(|m| m.body().unwrap_or_default().to_string())
        .collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_a_noisy_tenant_noisy() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        let url = sqs.create_queue().queue_name("fair").send().await?;
        let url = url.queue_url().unwrap_or_default();
        for (tenant, count) in [("A", 40), ("B", 1)] {
            for i in 0..count {
                sqs.send_message()
                    .queue_url(url)
                    .message_body(format!("{tenant} {i}"))
                    .message_group_id(tenant)
                    .send()
                    .await?;
            }
            if tenant == "A" {
                for _ in 0..3 {
                    assert_eq!(take(&sqs, url, 10).await?.len(), 10);
                }
            }
        }
        server.shutdown().await;
    }
    // A's 30 messages are still in flight after the restart: A is noisy, B comes first.
    let server = Server::start(config(dir.path(), start))?;
    let sqs = client(&server);
    let url = server.queue_url("fair");
    assert_eq!(take(&sqs, &url, 1).await?, ["B 0"]);
    assert_eq!(take(&sqs, &url, 1).await?, ["A 30"]);
    server.shutdown().await;
    Ok(())
}

#[test]
fn a_second_server_on_the_same_directory_is_refused() -> TestResult {
    let dir = tempfile::tempdir()?;
    let first = Server::start(config(dir.path(), SystemTime::now()))?;
    let second = Server::start(config(dir.path(), SystemTime::now()));
    let message = second.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("in use by another server"), "{message}");
    drop(first);
    // Released when the first one stops.
    Server::start(config(dir.path(), SystemTime::now()))?;
    Ok(())
}

fn queue(name: &str) -> QueueSpec {
    QueueSpec {
        name: name.into(),
        ..QueueSpec::default()
    }
}

fn layout(visibility: i64) -> InitSpec {
    let mut orders = queue("orders");
    orders.dead_letter_queue = Some("orders-dlq".into());
    orders.max_receive_count = Some(5);
    orders.attributes.insert(
        "VisibilityTimeout".into(),
        AttributeValue::Integer(visibility),
    );
    orders.tags.insert("team".into(), "checkout".into());
    // The DLQ comes after its source in the file: order does not matter.
    InitSpec {
        queues: vec![orders, queue("orders-dlq"), queue("events.fifo")],
    }
}

fn start_with_init(dir: &Path, spec: InitSpec) -> std::io::Result<Server> {
    Server::start(ServerConfig {
        init: Some(spec),
        ..config(dir, SystemTime::now())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_creates_queues_once_and_names_what_differs() -> TestResult {
    let dir = tempfile::tempdir()?;
    {
        let server = start_with_init(dir.path(), layout(60))?;
        let report = server.ready().init.clone().ok_or("no init report")?;
        assert_eq!(report.created, ["orders-dlq", "events.fifo", "orders"]);
        let sqs = client(&server);
        let attrs = sqs
            .get_queue_attributes()
            .queue_url(server.queue_url("orders"))
            .attribute_names(QueueAttributeName::All)
            .send()
            .await?;
        let attrs = attrs.attributes().cloned().unwrap_or_default();
        assert_eq!(
            attrs
                .get(&QueueAttributeName::VisibilityTimeout)
                .map(String::as_str),
            Some("60")
        );
        let policy = attrs
            .get(&QueueAttributeName::RedrivePolicy)
            .cloned()
            .unwrap_or_default();
        assert!(policy.contains(&server.queue_arn("orders-dlq")), "{policy}");
        let fifo = queue_attribute(
            &sqs,
            server.queue_url("events.fifo"),
            QueueAttributeName::FifoQueue,
        )
        .await?;
        assert_eq!(fifo.as_deref(), Some("true"));
        server.shutdown().await;
    }
    // Same file, same data directory: nothing to do.
    let again = start_with_init(dir.path(), layout(60))?;
    let report = again.ready().init.clone().ok_or("no init report")?;
    assert!(report.created.is_empty());
    assert_eq!(report.unchanged.len(), 3);
    again.shutdown().await;
    // A changed file: refused, naming the difference.
    let changed = start_with_init(dir.path(), layout(90));
    let message = changed.err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(
        message,
        InitError::Differs {
            queue: "orders".into(),
            differences: vec!["VisibilityTimeout: the queue has 60, the file says 90".into()],
        }
        .to_string()
    );
    Ok(())
}

#[test]
fn init_refuses_unknown_dead_letter_queues_loops_and_bad_attributes() {
    let start = |spec: InitSpec| {
        Server::start(ServerConfig {
            init: Some(spec),
            ..ServerConfig::default()
        })
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
    };
    let mut orphan = queue("orders");
    orphan.dead_letter_queue = Some("missing".into());
    orphan.max_receive_count = Some(3);
    assert_eq!(
        start(InitSpec {
            queues: vec![orphan]
        }),
        InitError::UnknownDeadLetterQueue {
            queue: "orders".into(),
            target: "missing".into()
        }
        .to_string()
    );
    let mut a = queue("a");
    a.dead_letter_queue = Some("b".into());
    a.max_receive_count = Some(3);
    let mut b = queue("b");
    b.dead_letter_queue = Some("a".into());
    b.max_receive_count = Some(3);
    assert_eq!(
        start(InitSpec { queues: vec![a, b] }),
        InitError::Cycle(vec!["a".into(), "b".into()]).to_string()
    );
    let mut bad = queue("bad");
    bad.attributes
        .insert("VisibilityTimeout".into(), AttributeValue::Integer(99_999));
    let message = start(InitSpec { queues: vec![bad] });
    assert!(
        message.starts_with("queue \"bad\": ") && message.contains("VisibilityTimeout"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sends_past_max_bytes_fail_with_over_limit_until_space_is_freed() -> TestResult {
    // Room for two 1,000-byte messages and their bookkeeping, not three.
    let server = Server::start(ServerConfig {
        max_bytes: Some(2_500),
        ..ServerConfig::default()
    })?;
    let sqs = client(&server);
    let url = sqs.create_queue().queue_name("bounded").send().await?;
    let url = url.queue_url().unwrap_or_default();
    let body = "x".repeat(1_000);
    for _ in 0..2 {
        send(&sqs, url, &body).await?;
    }
    let refused = send(&sqs, url, &body).await;
    let err = refused.err().ok_or("the third send was accepted")?;
    assert_eq!(err.code(), Some("OverLimit"));
    assert!(
        err.message().is_some_and(|m| m.contains("--max-bytes")),
        "{err:?}"
    );
    let got = sqs.receive_message().queue_url(url).send().await?;
    for m in got.messages() {
        delete(&sqs, url, m.receipt_handle().unwrap_or_default()).await?;
    }
    send(&sqs, url, &body).await?;
    server.shutdown().await;
    Ok(())
}

/// The error code of a failed call, or `None` when it succeeded.
fn code_of<T, E: ProvideErrorMetadata>(result: Result<T, E>) -> Option<String> {
    result.err().and_then(|e| e.code().map(String::from))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_receive_attempt_keeps_its_new_deadline_but_not_its_id() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    let url;
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        url = create_fifo(&sqs, "jobs.fifo").await?;
        sqs.send_message()
            .queue_url(&url)
            .message_body("one")
            .message_group_id("g")
            .message_deduplication_id("d1")
            .send()
            .await?;
        let receive = || {
            sqs.receive_message()
                .queue_url(&url)
                .visibility_timeout(30)
                .receive_request_attempt_id("attempt-1")
                .send()
        };
        let first = receive().await?;
        assert_eq!(first.messages().len(), 1);
        // The retry 20 s later gets the same message and starts its 30 s over: in flight until
        // 50 s after the start, not 30 s.
        server.clock().advance(Duration::from_secs(20));
        let retried = receive().await?;
        assert_eq!(
            retried.messages().first().and_then(|m| m.message_id()),
            first.messages().first().and_then(|m| m.message_id())
        );
        server.shutdown().await;
    }
    let server = Server::start(config(dir.path(), start + Duration::from_secs(35)))?;
    let sqs = client(&server);
    assert_eq!(counts(&sqs, &url).await?, (0, 1, 0));
    // The attempt id is forgotten: the same id receives anew, and the group is still locked.
    let again = sqs
        .receive_message()
        .queue_url(&url)
        .receive_request_attempt_id("attempt-1")
        .send()
        .await?;
    assert!(again.messages().is_empty());
    server.clock().advance(Duration::from_secs(16));
    assert_eq!(receive_all(&sqs, &url).await?, [("one".into(), "2".into())]);
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_forgets_deleted_names_and_builds_urls_from_its_own_host_name() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(ServerConfig {
            hostname: Some("sqs.internal".into()),
            ..config(dir.path(), start)
        })?;
        let sqs = client(&server);
        let port = server.local_addr().port();
        let kept = sqs.create_queue().queue_name("kept").send().await?;
        assert_eq!(
            kept.queue_url(),
            Some(format!("http://sqs.internal:{port}/000000000000/kept").as_str())
        );
        let gone = sqs.create_queue().queue_name("gone").send().await?;
        sqs.delete_queue()
            .queue_url(gone.queue_url().unwrap_or_default())
            .send()
            .await?;
        let too_soon = sqs.create_queue().queue_name("gone").send().await;
        assert_eq!(
            code_of(too_soon),
            Some("AWS.SimpleQueueService.QueueDeletedRecently".into())
        );
        server.shutdown().await;
    }
    let server = Server::start(ServerConfig {
        hostname: Some("queues.example".into()),
        ..config(dir.path(), start)
    })?;
    let sqs = client(&server);
    let port = server.local_addr().port();
    let listed = sqs.list_queues().send().await?;
    assert_eq!(
        listed.queue_urls(),
        [format!("http://queues.example:{port}/000000000000/kept")]
    );
    // Recently deleted names are kept in memory only: the name is free again at once.
    let recreated = sqs.create_queue().queue_name("gone").send().await;
    assert_eq!(code_of(recreated), None);
    server.shutdown().await;
    Ok(())
}

/// The message of a start refused for damage, which must name `file`.
fn refused(dir: &Path, file: &str) -> String {
    let err = Server::start(config(dir, SystemTime::now()))
        .err()
        .unwrap_or_else(|| panic!("a data directory with a damaged {file} was accepted"));
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{err}");
    let message = err.to_string();
    assert!(
        message.contains(&dir.join(file).display().to_string()),
        "{message}"
    );
    message
}

#[test]
fn a_database_file_that_is_empty_missing_or_not_sqlite_is_refused_and_left_alone() -> TestResult {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("sqsctl-local.db");
    std::fs::write(&db, b"")?;
    let message = refused(dir.path(), "sqsctl-local.db");
    assert!(message.contains("it is empty (0 bytes)"), "{message}");
    assert_eq!(
        std::fs::metadata(&db)?.len(),
        0,
        "the refused file was written"
    );

    std::fs::write(&db, "not a database\n".repeat(20))?;
    let message = refused(dir.path(), "sqsctl-local.db");
    assert!(message.contains("not an SQLite database"), "{message}");

    std::fs::remove_file(&db)?;
    std::fs::write(dir.path().join("sqsctl-local.db-wal"), [0u8; 64])?;
    let message = refused(dir.path(), "sqsctl-local.db");
    assert!(
        message.contains("missing, but its write-ahead log"),
        "{message}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garbage_log_is_refused_and_recover_sets_it_aside_keeping_the_rest() -> TestResult {
    let dir = tempfile::tempdir()?;
    {
        let server = Server::start(config(dir.path(), SystemTime::now()))?;
        let sqs = client(&server);
        let url = sqs.create_queue().queue_name("jobs").send().await?;
        for i in 0..5 {
            send(&sqs, url.queue_url().unwrap_or_default(), format!("m{i}")).await?;
        }
        server.shutdown().await;
    }
    // Nothing to recover in a directory that opens cleanly: it is left as it is.
    assert!(!sqsctl_local::recover(dir.path())?.damaged);
    let wal = dir.path().join("sqsctl-local.db-wal");
    let garbage = vec![0x5au8; 4096 + 56];
    std::fs::write(&wal, &garbage)?;
    let message = refused(dir.path(), "sqsctl-local.db-wal");
    assert!(message.contains("WAL magic number"), "{message}");

    let recovery = sqsctl_local::recover(dir.path())?;
    assert!(recovery.damaged);
    assert_eq!((recovery.queues, recovery.messages), (1, 5));
    assert_eq!(recovery.set_aside.len(), 2, "{:?}", recovery.set_aside);
    let aside = recovery
        .set_aside
        .iter()
        .find(|p| p.to_string_lossy().contains("db-wal.damaged-"))
        .unwrap_or_else(|| panic!("{:?}", recovery.set_aside));
    assert_eq!(
        std::fs::read(aside)?,
        garbage,
        "the damaged log was not kept"
    );
    assert_eq!(
        recovery.dropped,
        [
            "the write-ahead log is unreadable (its header does not start with the WAL magic number (found 0x5a5a5a5a)): none of its 4152 bytes of changes could be applied"
        ]
    );

    let server = Server::start(config(dir.path(), SystemTime::now()))?;
    assert_eq!(server.ready().restored.map(|r| r.messages), Some(5));
    let sqs = client(&server);
    assert_eq!(counts(&sqs, &server.queue_url("jobs")).await?, (5, 0, 0));
    server.shutdown().await;
    Ok(())
}

#[cfg(unix)]
#[test]
fn a_new_data_directory_is_owner_only_and_an_open_one_is_reported() -> TestResult {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o777);
    let parent = tempfile::tempdir()?;
    let dir = parent.path().join("made/here");
    let server = Server::start(config(&dir, SystemTime::now()))?;
    assert_eq!(
        server.ready().restored.and_then(|r| r.exposed_dir_mode),
        None
    );
    assert_eq!(mode(&dir)?, 0o700);
    assert_eq!(mode(&parent.path().join("made"))?, 0o700);
    assert_eq!(mode(&dir.join("sqsctl-local.db"))?, 0o600);
    assert_eq!(mode(&dir.join("sqsctl-local.db-wal"))?, 0o600);
    drop(server);

    let open = parent.path().join("open");
    std::fs::create_dir(&open)?;
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755))?;
    let server = Server::start(config(&open, SystemTime::now()))?;
    assert_eq!(
        server.ready().restored.and_then(|r| r.exposed_dir_mode),
        Some(0o755)
    );
    assert_eq!(mode(&open)?, 0o755, "a directory the user made was changed");
    assert_eq!(mode(&open.join("sqsctl-local.db"))?, 0o600);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_page_is_refused_and_recover_keeps_the_rows_around_it() -> TestResult {
    let dir = tempfile::tempdir()?;
    {
        let server = Server::start(config(dir.path(), SystemTime::now()))?;
        let sqs = client(&server);
        let url = sqs.create_queue().queue_name("jobs").send().await?;
        let url = url.queue_url().unwrap_or_default();
        for batch in 0..100 {
            let entries = (0..10)
                .map(|i| {
                    aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                        .id(format!("e{i}"))
                        .message_body(format!("{batch:03}-{i}-{}", "x".repeat(200)))
                        .build()
                })
                .collect::<Result<Vec<_>, _>>()?;
            send_batch(&sqs, url, entries).await?;
        }
        // A clean stop: every row is in the database file itself.
        server.shutdown().await;
    }
    let db = dir.path().join("sqsctl-local.db");
    let mut bytes = std::fs::read(&db)?;
    let pages = bytes.len() / 4096;
    assert!(pages > 20, "{pages} pages");
    // A page in the middle of the messages' table, overwritten.
    let middle = pages / 2 * 4096;
    bytes[middle..middle + 4096].fill(0x33);
    std::fs::write(&db, &bytes)?;
    let message = refused(dir.path(), "sqsctl-local.db");
    assert!(message.contains("integrity check found"), "{message}");

    let recovery = sqsctl_local::recover(dir.path())?;
    assert!(recovery.damaged);
    assert_eq!(recovery.queues, 1);
    // A page holds about 15 of these messages: most of them are kept, and what is not is told.
    assert!((900..1_000).contains(&recovery.messages), "{recovery:?}");
    assert!(
        recovery.dropped.iter().any(|d| d.starts_with(&format!(
            "queue jobs: kept {} of its 1000 messages, {} could not be read",
            recovery.messages,
            1000 - recovery.messages
        ))),
        "{recovery:?}"
    );
    let server = Server::start(config(dir.path(), SystemTime::now()))?;
    let sqs = client(&server);
    assert_eq!(
        counts(&sqs, &server.queue_url("jobs")).await?,
        (recovery.messages, 0, 0)
    );
    server.shutdown().await;
    Ok(())
}

async fn queue_urls(sqs: &Client) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    Ok(sqs.list_queues().send().await?.queue_urls().to_vec())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_each_queue_in_its_region() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        for (region, messages) in [("us-east-1", 1), ("eu-west-1", 2)] {
            let sqs = client_in(&server, region);
            let url = sqs.create_queue().queue_name("orders").send().await?;
            for i in 0..messages {
                send(
                    &sqs,
                    url.queue_url().unwrap_or_default(),
                    format!("{region} {i}"),
                )
                .await?;
            }
        }
        server.shutdown().await;
    }
    let server = Server::start(config(dir.path(), start))?;
    let (us, eu) = (
        client_in(&server, "us-east-1"),
        client_in(&server, "eu-west-1"),
    );
    let eu_url = server.queue_url_in("eu-west-1", "orders");
    assert_eq!(queue_urls(&us).await?, [server.queue_url("orders")]);
    assert_eq!(queue_urls(&eu).await?, [eu_url.as_str()]);
    assert_eq!(counts(&us, &server.queue_url("orders")).await?, (1, 0, 0));
    assert_eq!(counts(&eu, &eu_url).await?, (2, 0, 0));
    let arn = queue_attribute(&eu, &eu_url, QueueAttributeName::QueueArn).await?;
    assert_eq!(
        arn.as_deref(),
        Some("arn:aws:sqs:eu-west-1:000000000000:orders")
    );
    server.shutdown().await;
    Ok(())
}

/// Turns a data directory into one written before rows had checksums (format 2).
fn as_written_by_format_2(dir: &Path) -> TestResult {
    let conn = rusqlite::Connection::open(dir.join("sqsctl-local.db"))?;
    conn.execute_batch(
        "DROP TRIGGER count_put; DROP TRIGGER count_delete; DROP TRIGGER count_move;
         DROP TABLE counts; ALTER TABLE queues DROP COLUMN sum;
         ALTER TABLE messages DROP COLUMN sum; ALTER TABLE messages DROP COLUMN state_sum;
         ALTER TABLE dedup DROP COLUMN sum;
         UPDATE meta SET value = 2 WHERE key = 'schema';",
    )?;
    Ok(())
}

/// Turns a data directory into one written before queues had regions (format 1).
fn as_written_by_format_1(dir: &Path) -> TestResult {
    as_written_by_format_2(dir)?;
    let conn = rusqlite::Connection::open(dir.join("sqsctl-local.db"))?;
    conn.execute_batch(
        "ALTER TABLE queues DROP COLUMN region; UPDATE meta SET value = 1 WHERE key = 'schema';",
    )?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_of_format_2_is_migrated_and_then_checked_row_by_row() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        let url = sqs.create_queue().queue_name("jobs").send().await?;
        let url = url.queue_url().unwrap_or_default().to_string();
        for i in 0..5 {
            send(&sqs, &url, format!("marked-{i}")).await?;
        }
        let fifo = create_fifo(&sqs, "orders.fifo").await?;
        for i in 0..3 {
            sqs.send_message()
                .queue_url(&fifo)
                .message_body(format!("order-{i}"))
                .message_group_id("g")
                .message_deduplication_id(format!("d{i}"))
                .send()
                .await?;
        }
        server.shutdown().await;
    }
    as_written_by_format_2(dir.path())?;
    let server = Server::start(config(dir.path(), start))?;
    assert_eq!(server.ready().restored.map(|r| r.messages), Some(8));
    let sqs = client(&server);
    assert_eq!(counts(&sqs, &server.queue_url("jobs")).await?, (5, 0, 0));
    assert_eq!(
        counts(&sqs, &server.queue_url("orders.fifo")).await?,
        (3, 0, 0)
    );
    server.shutdown().await;
    let conn = rusqlite::Connection::open(dir.path().join("sqsctl-local.db"))?;
    let schema: i64 = conn.query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
        r.get(0)
    })?;
    assert_eq!(schema, 3);
    drop(conn);
    // Migrated rows carry their checksums: one changed byte is refused.
    let db = dir.path().join("sqsctl-local.db");
    let mut bytes = std::fs::read(&db)?;
    let at = bytes
        .windows(8)
        .position(|w| w == b"marked-3")
        .ok_or("the body is in the file")?;
    bytes[at + 7] = b'9';
    std::fs::write(&db, bytes)?;
    let message = refused(dir.path(), "sqsctl-local.db");
    assert!(message.contains("does not match its checksum"), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queues_kept_before_regions_belong_to_the_default_region_for_good() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        let url = sqs.create_queue().queue_name("jobs").send().await?;
        for body in ["a", "b"] {
            send(&sqs, url.queue_url().unwrap_or_default(), body).await?;
        }
        server.shutdown().await;
    }
    as_written_by_format_1(dir.path())?;
    // A copy with a damaged log, for --recover: it rebuilds an old database into the new format.
    let damaged = tempfile::tempdir()?;
    std::fs::copy(
        dir.path().join("sqsctl-local.db"),
        damaged.path().join("sqsctl-local.db"),
    )?;
    std::fs::write(
        damaged.path().join("sqsctl-local.db-wal"),
        vec![0x5au8; 4152],
    )?;

    let in_region = |dir: &Path, region: &str| ServerConfig {
        region: region.into(),
        ..config(dir, start)
    };
    let server = Server::start(in_region(dir.path(), "eu-west-1"))?;
    assert_eq!(server.ready().restored.map(|r| r.messages), Some(2));
    let eu = client_in(&server, "eu-west-1");
    assert_eq!(queue_urls(&eu).await?, [server.queue_url("jobs")]);
    assert!(queue_urls(&client(&server)).await?.is_empty());
    server.shutdown().await;
    // Another default region later: the queue stays where the first start put it.
    let server = Server::start(in_region(dir.path(), "us-east-1"))?;
    let eu = client_in(&server, "eu-west-1");
    let url = server.queue_url_in("eu-west-1", "jobs");
    assert_eq!(queue_urls(&eu).await?, [url.as_str()]);
    assert_eq!(counts(&eu, &url).await?, (2, 0, 0));
    assert!(queue_urls(&client(&server)).await?.is_empty());
    server.shutdown().await;

    let recovery = sqsctl_local::recover(damaged.path())?;
    assert_eq!((recovery.queues, recovery.messages), (1, 2), "{recovery:?}");
    let server = Server::start(in_region(damaged.path(), "ap-south-1"))?;
    let sqs = client_in(&server, "ap-south-1");
    assert_eq!(counts(&sqs, &server.queue_url("jobs")).await?, (2, 0, 0));
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_permissions_and_their_removal() -> TestResult {
    let dir = tempfile::tempdir()?;
    let start = UNIX_EPOCH + Duration::from_secs(START);
    let url;
    let policy;
    {
        let server = Server::start(config(dir.path(), start))?;
        let sqs = client(&server);
        url = server.queue_url("shared");
        sqs.create_queue().queue_name("shared").send().await?;
        server.clock().advance(Duration::from_secs(30));
        for label in ["senders", "readers"] {
            sqs.add_permission()
                .queue_url(&url)
                .label(label)
                .aws_account_ids("111122223333")
                .actions("SendMessage")
                .send()
                .await?;
        }
        policy = queue_attribute(&sqs, &url, QueueAttributeName::Policy).await?;
        assert!(policy.as_deref().is_some_and(|p| p.contains("readers")));
        server.shutdown().await;
    }
    let server = Server::start(config(dir.path(), start))?;
    let sqs = client(&server);
    assert_eq!(
        queue_attribute(&sqs, &url, QueueAttributeName::Policy).await?,
        policy
    );
    assert_eq!(
        queue_attribute(&sqs, &url, QueueAttributeName::LastModifiedTimestamp).await?,
        Some((START + 30).to_string())
    );
    for label in ["senders", "readers"] {
        sqs.remove_permission()
            .queue_url(&url)
            .label(label)
            .send()
            .await?;
    }
    server.shutdown().await;
    let server = Server::start(config(dir.path(), start))?;
    let sqs = client(&server);
    assert_eq!(
        queue_attribute(&sqs, &url, QueueAttributeName::Policy).await?,
        None
    );
    server.shutdown().await;
    Ok(())
}
