//! What the server crate's test binaries share: an SDK client for a server, configured in code
//! (credentials, region, HTTP client), so the environment running the tests does not matter, and
//! the plain SDK calls the tests make again and again, each returning the SDK's own result so a
//! test can either `?` it or assert its error code.

#![allow(dead_code)]

use aws_sdk_sqs::Client;
use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region, retry::RetryConfig};
use aws_sdk_sqs::operation::change_message_visibility::{
    ChangeMessageVisibilityError, ChangeMessageVisibilityOutput,
};
use aws_sdk_sqs::operation::delete_message::{DeleteMessageError, DeleteMessageOutput};
use aws_sdk_sqs::operation::delete_message_batch::DeleteMessageBatchOutput;
use aws_sdk_sqs::operation::get_queue_attributes::GetQueueAttributesError;
use aws_sdk_sqs::operation::receive_message::{ReceiveMessageError, ReceiveMessageOutput};
use aws_sdk_sqs::operation::send_message::{SendMessageError, SendMessageOutput};
use aws_sdk_sqs::operation::send_message_batch::{SendMessageBatchError, SendMessageBatchOutput};
use aws_sdk_sqs::types::{
    DeleteMessageBatchRequestEntry, QueueAttributeName, SendMessageBatchRequestEntry,
};
use sqsctl_local::Server;

/// A client signing for `region`, trying each call `attempts` times.
pub fn client_at(server: &Server, region: &str, attempts: u32) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .region(Region::new(region.to_string()))
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(server.endpoint())
        .retry_config(RetryConfig::standard().with_max_attempts(attempts))
        .build();
    Client::from_conf(config)
}

/// A failed SDK call of operation error `E`.
pub type CallError<E> = aws_sdk_sqs::error::SdkError<E>;

/// One SendMessage of `body`, with nothing else set.
pub async fn send(
    sqs: &Client,
    url: impl Into<String>,
    body: impl Into<String>,
) -> Result<SendMessageOutput, CallError<SendMessageError>> {
    sqs.send_message()
        .queue_url(url)
        .message_body(body)
        .send()
        .await
}

/// One ReceiveMessage of at most `max` messages, with nothing else set.
pub async fn receive_up_to(
    sqs: &Client,
    url: impl Into<String>,
    max: i32,
) -> Result<ReceiveMessageOutput, CallError<ReceiveMessageError>> {
    sqs.receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .send()
        .await
}

/// One DeleteMessage of a receipt handle.
pub async fn delete(
    sqs: &Client,
    url: impl Into<String>,
    handle: impl Into<String>,
) -> Result<DeleteMessageOutput, CallError<DeleteMessageError>> {
    sqs.delete_message()
        .queue_url(url)
        .receipt_handle(handle)
        .send()
        .await
}

/// One ChangeMessageVisibility of a receipt handle to `seconds`.
pub async fn change_visibility(
    sqs: &Client,
    url: impl Into<String>,
    handle: impl Into<String>,
    seconds: i32,
) -> Result<ChangeMessageVisibilityOutput, CallError<ChangeMessageVisibilityError>> {
    sqs.change_message_visibility()
        .queue_url(url)
        .receipt_handle(handle)
        .visibility_timeout(seconds)
        .send()
        .await
}

/// One SendMessageBatch of `entries`.
pub async fn send_batch(
    sqs: &Client,
    url: impl Into<String>,
    entries: Vec<SendMessageBatchRequestEntry>,
) -> Result<SendMessageBatchOutput, CallError<SendMessageBatchError>> {
    sqs.send_message_batch()
        .queue_url(url)
        .set_entries(Some(entries))
        .send()
        .await
}

/// One DeleteMessageBatch of `handles`, the entries numbered `d0`, `d1`, ….
pub async fn delete_batch<S: Into<String>>(
    sqs: &Client,
    url: impl Into<String>,
    handles: impl IntoIterator<Item = S>,
) -> Result<DeleteMessageBatchOutput, Box<dyn std::error::Error>> {
    let entries = handles
        .into_iter()
        .enumerate()
        .map(|(i, handle)| {
            DeleteMessageBatchRequestEntry::builder()
                .id(format!("d{i}"))
                .receipt_handle(handle)
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(sqs
        .delete_message_batch()
        .queue_url(url)
        .set_entries(Some(entries))
        .send()
        .await?)
}

/// One attribute of a queue, asked for by name; `None` when the answer lacks it.
pub async fn queue_attribute(
    sqs: &Client,
    url: impl Into<String>,
    name: QueueAttributeName,
) -> Result<Option<String>, CallError<GetQueueAttributesError>> {
    let out = sqs
        .get_queue_attributes()
        .queue_url(url)
        .attribute_names(name.clone())
        .send()
        .await?;
    Ok(out.attributes().and_then(|a| a.get(&name)).cloned())
}
