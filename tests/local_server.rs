//! The local server through the real aws-sdk-sqs client, on an ephemeral port, with credentials and
//! region set in code so the environment does not matter.

use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_sqs::Client;
use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region, retry::RetryConfig};
use aws_sdk_sqs::error::ProvideErrorMetadata;
use aws_sdk_sqs::primitives::Blob;
use aws_sdk_sqs::types::{
    DeleteMessageBatchRequestEntry, MessageAttributeValue, MessageSystemAttributeName,
    QueueAttributeName, SendMessageBatchRequestEntry,
};
use sqsctl::local::{Clock, Server, ServerConfig};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn manual_server() -> Server {
    let config = ServerConfig {
        clock: Clock::manual(UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
        ..ServerConfig::default()
    };
    Server::start(config).expect("server starts")
}

fn client_with(server: &Server, attempts: u32) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(server.endpoint())
        .retry_config(RetryConfig::standard().with_max_attempts(attempts))
        .build();
    Client::from_conf(config)
}

fn client(server: &Server) -> Client {
    client_with(server, 1)
}

/// The error code of a failed call, as `ProvideErrorMetadata` reports it.
fn code<T, E: ProvideErrorMetadata>(result: Result<T, E>) -> String {
    match result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.code().unwrap_or("none").to_string(),
    }
}

async fn create(client: &Client, name: &str, attrs: &[(&str, &str)]) -> String {
    let mut request = client.create_queue().queue_name(name);
    for (k, v) in attrs {
        request = request.attributes(QueueAttributeName::from(*k), *v);
    }
    request
        .send()
        .await
        .expect("create queue")
        .queue_url
        .expect("queue url")
}

async fn attribute(client: &Client, url: &str, name: &str) -> String {
    let out = client
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(QueueAttributeName::All)
        .send()
        .await
        .expect("get attributes");
    out.attributes
        .and_then(|a| a.get(&QueueAttributeName::from(name)).cloned())
        .unwrap_or_default()
}

#[tokio::test]
async fn queue_lifecycle_attributes_tags_and_listing() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "orders", &[("VisibilityTimeout", "45")]).await;
    assert_eq!(url, server.queue_url("orders"));
    assert_eq!(
        create(&sqs, "orders", &[("VisibilityTimeout", "45")]).await,
        url
    );
    let clash = sqs
        .create_queue()
        .queue_name("orders")
        .attributes(QueueAttributeName::VisibilityTimeout, "10")
        .send()
        .await;
    assert_eq!(code(clash), "QueueAlreadyExists");
    for name in ["orders-b", "orders-c", "other"] {
        create(&sqs, name, &[]).await;
    }
    let found = sqs.get_queue_url().queue_name("orders").send().await?;
    assert_eq!(found.queue_url.as_deref(), Some(url.as_str()));
    let missing = sqs.get_queue_url().queue_name("nope").send().await;
    assert_eq!(code(missing), "AWS.SimpleQueueService.NonExistentQueue");

    let page = sqs
        .list_queues()
        .queue_name_prefix("orders")
        .max_results(2)
        .send()
        .await?;
    assert_eq!(page.queue_urls().len(), 2);
    let rest = sqs
        .list_queues()
        .queue_name_prefix("orders")
        .max_results(2)
        .set_next_token(page.next_token.clone())
        .send()
        .await?;
    assert_eq!(rest.queue_urls().len(), 1);
    assert!(rest.next_token.is_none());
    assert_eq!(sqs.list_queues().send().await?.queue_urls().len(), 4);

    assert_eq!(attribute(&sqs, &url, "VisibilityTimeout").await, "45");
    assert_eq!(
        attribute(&sqs, &url, "QueueArn").await,
        "arn:aws:sqs:us-east-1:000000000000:orders"
    );
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "0"
    );
    assert!(!attribute(&sqs, &url, "CreatedTimestamp").await.is_empty());
    sqs.set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::DelaySeconds, "5")
        .send()
        .await?;
    assert_eq!(attribute(&sqs, &url, "DelaySeconds").await, "5");
    let bad = sqs
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::MessageRetentionPeriod, "59")
        .send()
        .await;
    assert_eq!(code(bad), "InvalidAttributeValue");
    let unknown = sqs
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::ContentBasedDeduplication)
        .send()
        .await;
    assert_eq!(code(unknown), "InvalidAttributeName");

    sqs.tag_queue()
        .queue_url(&url)
        .tags("team", "a")
        .tags("env", "dev")
        .send()
        .await?;
    sqs.untag_queue()
        .queue_url(&url)
        .tag_keys("env")
        .send()
        .await?;
    let tags = sqs.list_queue_tags().queue_url(&url).send().await?;
    assert_eq!(tags.tags().map(|t| t.len()), Some(1));

    sqs.delete_queue().queue_url(&url).send().await?;
    let gone = sqs
        .send_message()
        .queue_url(&url)
        .message_body("x")
        .send()
        .await;
    assert_eq!(code(gone), "AWS.SimpleQueueService.NonExistentQueue");
    // Host differences do not matter: the URL resolves by account and name.
    let other = server.queue_url("other").replace("127.0.0.1", "localhost");
    sqs.send_message()
        .queue_url(other)
        .message_body("x")
        .send()
        .await?;
    Ok(())
}

#[tokio::test]
async fn send_receive_delete_with_checksums_and_attributes() -> TestResult {
    let server = manual_server();
    let sqs = client(&server);
    let url = create(&sqs, "plain", &[]).await;
    let sent = sqs
        .send_message()
        .queue_url(&url)
        .message_body("hello")
        .message_attributes(
            "SellerName",
            MessageAttributeValue::builder()
                .data_type("String")
                .string_value("Example Store")
                .build()?,
        )
        .send()
        .await?;
    assert_eq!(
        sent.md5_of_message_body(),
        Some("5d41402abc4b2a76b9719d911017c592")
    );
    assert_eq!(
        sent.md5_of_message_attributes(),
        Some("cd28f3b68aeee4b2eac9c66f2f694b58")
    );
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .message_attribute_names("All")
        .send()
        .await?;
    let message = &got.messages()[0];
    assert_eq!(message.body(), Some("hello"));
    assert_eq!(message.message_id(), sent.message_id());
    assert_eq!(
        message.md5_of_message_attributes(),
        Some("cd28f3b68aeee4b2eac9c66f2f694b58")
    );
    let attrs = message.attributes().cloned().unwrap_or_default();
    assert_eq!(
        attrs
            .get(&MessageSystemAttributeName::ApproximateReceiveCount)
            .map(String::as_str),
        Some("1")
    );
    assert_eq!(
        attrs
            .get(&MessageSystemAttributeName::SentTimestamp)
            .map(String::as_str),
        Some("1700000000000")
    );
    let value = message
        .message_attributes()
        .and_then(|m| m.get("SellerName"))
        .and_then(|v| v.string_value());
    assert_eq!(value, Some("Example Store"));
    sqs.delete_message()
        .queue_url(&url)
        .receipt_handle(message.receipt_handle().unwrap_or_default())
        .send()
        .await?;
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "0"
    );

    let entries: Vec<_> = (0..10)
        .map(|i| {
            SendMessageBatchRequestEntry::builder()
                .id(format!("m{i}"))
                .message_body(format!("body {i}"))
                .message_attributes(
                    "bin",
                    MessageAttributeValue::builder()
                        .data_type("Binary")
                        .binary_value(Blob::new(vec![1, 2, 3]))
                        .build()?,
                )
                .build()
        })
        .collect::<Result<_, _>>()?;
    let batch = sqs
        .send_message_batch()
        .queue_url(&url)
        .set_entries(Some(entries))
        .send()
        .await?;
    assert_eq!(batch.successful().len(), 10);
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_attribute_names("bin")
        .send()
        .await?;
    assert_eq!(got.messages().len(), 10);
    let bin = got.messages()[0]
        .message_attributes()
        .and_then(|m| m.get("bin"))
        .and_then(|v| v.binary_value());
    assert_eq!(bin.map(|b| b.as_ref().to_vec()), Some(vec![1, 2, 3]));
    let deletes: Vec<_> = got
        .messages()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            DeleteMessageBatchRequestEntry::builder()
                .id(format!("d{i}"))
                .receipt_handle(m.receipt_handle().unwrap_or_default())
                .build()
        })
        .collect::<Result<_, _>>()?;
    let deleted = sqs
        .delete_message_batch()
        .queue_url(&url)
        .set_entries(Some(deletes))
        .send()
        .await?;
    assert_eq!(deleted.successful().len(), 10);
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessagesNotVisible").await,
        "0"
    );
    Ok(())
}
