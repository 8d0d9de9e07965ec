//! The thin client layer over `aws_sdk_sqs::Client`.
//!
//! Commands and engines talk to SQS only through [`Sqs`]: it resolves queues given by name, URL or
//! ARN, converts between the SDK's types and [`MessageRecord`], returns per-entry outcomes of batch
//! calls in input order, and classifies errors into [`ClientError`]. Batch calls (and the receives
//! of `receive`) are retried by the one policy in [`retry`], with the SDK's own retries off for
//! them; other requests are retried by the SDK's standard retry strategy, configured here.

pub mod batch;
mod convert;
pub mod error;
pub mod peek;
mod profiles;
pub mod queue;
pub mod retry;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use aws_config::{BehaviorVersion, Region, retry::RetryConfig};
use aws_sdk_sqs::types::{
    ChangeMessageVisibilityBatchRequestEntry, DeleteMessageBatchRequestEntry,
    MessageSystemAttributeName, QueueAttributeName,
};

use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
pub use batch::{MAX_BATCH_ENTRIES, MAX_PAYLOAD_BYTES, plan_batches, validate_outgoing};
pub use error::{CallSite, ClientError, check_endpoint_url};
pub use queue::{QueueAttributes, QueueRef, QueueSpec, RedrivePolicy};
pub use retry::{BatchOutcome, EntryResult, RequestOutcome, RetryPolicy, backoff, is_transient};

use crate::message::MessageRecord;

/// The access key id [`Sqs::for_endpoint`] signs with; the local server accepts any credentials.
pub const LOCAL_ACCESS_KEY_ID: &str = "local";
/// The secret access key [`Sqs::for_endpoint`] signs with.
pub const LOCAL_SECRET_ACCESS_KEY: &str = "local";

/// Where and how to connect. Credentials are never part of this: they come from `aws-config`'s
/// chain (environment, profile, SSO, instance role).
#[derive(Debug, Clone, Default)]
pub struct AwsSettings {
    pub profile: Option<String>,
    pub region: Option<String>,
    pub endpoint_url: Option<String>,
    /// Total attempts per request, including the first (SDK standard retry mode).
    pub max_attempts: Option<u32>,
    /// How long to wait for a connection ([`DEFAULT_CONNECT_TIMEOUT`] when `None`).
    pub connect_timeout: Option<Duration>,
    /// How long to wait for the first byte of an answer ([`DEFAULT_READ_TIMEOUT`] when `None`);
    /// a long poll always gets its wait on top.
    pub read_timeout: Option<Duration>,
}

pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// What a long poll's read timeout gets beyond its wait, so an empty queue is never a timeout.
const LONG_POLL_MARGIN: Duration = Duration::from_secs(5);

/// The outcome of one entry of a batch call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryOutcome {
    /// SQS confirmed the entry (for sends: the new message id and, on FIFO, its sequence number).
    Ok {
        message_id: Option<String>,
        sequence_number: Option<String>,
    },
    /// SQS reported the entry as failed. `sender_fault` false means a retry may succeed.
    Failed {
        code: String,
        message: String,
        sender_fault: bool,
    },
    /// The response named neither success nor failure for this entry: its fate is unknown.
    Missing,
}

impl EntryOutcome {
    pub fn is_ok(&self) -> bool {
        matches!(self, EntryOutcome::Ok { .. })
    }

    /// True for failures worth retrying: not the sender's fault, or throttling.
    pub fn is_retryable(&self) -> bool {
        match self {
            EntryOutcome::Failed {
                code, sender_fault, ..
            } => !sender_fault || ClientError::is_throttle_code(code),
            EntryOutcome::Missing => false,
            EntryOutcome::Ok { .. } => false,
        }
    }
}

/// What to ask of a receive call.
#[derive(Debug, Clone, Copy)]
pub struct ReceiveOptions {
    /// 1..=10.
    pub max_messages: i32,
    /// Long-poll wait, 0..=20 seconds.
    pub wait_seconds: i32,
    /// Per-call visibility timeout; the queue's default when `None`.
    pub visibility_timeout: Option<i32>,
}

/// A move task as `ListMessageMoveTasks` reports it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MoveTask {
    pub task_handle: Option<String>,
    pub status: String,
    pub source_arn: Option<String>,
    pub destination_arn: Option<String>,
    pub max_per_second: Option<i32>,
    pub moved: i64,
    pub to_move: Option<i64>,
    pub failure_reason: Option<String>,
    pub started_timestamp: i64,
}

#[derive(Clone, Debug)]
pub struct Sqs {
    client: aws_sdk_sqs::Client,
    region: String,
    /// Where the endpoint came from and what it is, for `--verbose` (never credentials).
    endpoint: String,
    /// What errors call the endpoint: its URL without userinfo, or AWS's endpoint for the region.
    endpoint_name: String,
    connect_timeout: Duration,
    read_timeout: Duration,
    /// Batch entries sent again after SQS failed them, shared by clones, for `--verbose`.
    entry_retries: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Sqs {
    /// Builds a client from `aws-config`'s chain with the given overrides. A profile that does
    /// not exist and a region that is not a region name are errors, never a silent fallback to
    /// other credentials or another region.
    pub async fn connect(settings: &AwsSettings) -> Result<Sqs, ClientError> {
        let mut loader = aws_config::defaults(BehaviorVersion::latest());
        let selected_profile = settings.profile.clone().or_else(|| {
            std::env::var("AWS_PROFILE")
                .ok()
                .filter(|p| !p.trim().is_empty())
        });
        if let Some(profile) = &selected_profile {
            profiles::check_exists(profile).await?;
        }
        if let Some(profile) = &settings.profile {
            // An explicit --profile wins over credentials in the environment, as with the AWS CLI.
            loader = loader.profile_name(profile).credentials_provider(
                aws_config::profile::ProfileFileCredentialsProvider::builder()
                    .profile_name(profile)
                    .build(),
            );
        }
        if let Some(region) = &settings.region {
            loader = loader.region(Region::new(region.clone()));
        }
        let connect_timeout = settings.connect_timeout.unwrap_or(DEFAULT_CONNECT_TIMEOUT);
        let read_timeout = settings.read_timeout.unwrap_or(DEFAULT_READ_TIMEOUT);
        loader = loader.timeout_config(timeouts(connect_timeout, read_timeout));
        if let Some(endpoint) = &settings.endpoint_url {
            loader = loader.endpoint_url(endpoint);
        }
        let attempts = settings.max_attempts.unwrap_or(5).max(1);
        loader = loader.retry_config(
            RetryConfig::standard()
                .with_max_attempts(attempts)
                .with_initial_backoff(Duration::from_millis(50))
                .with_max_backoff(Duration::from_secs(5)),
        );
        let config = loader.load().await;
        let region = config
            .region()
            .map(|r| r.to_string())
            .ok_or(ClientError::NoRegion)?;
        if !is_region_name(&region) {
            return Err(ClientError::InvalidRegion {
                region,
                from: if settings.region.is_some() {
                    "--region"
                } else {
                    "AWS_REGION or the profile"
                },
            });
        }
        let (endpoint_name, from) = match (&settings.endpoint_url, config.endpoint_url()) {
            (Some(url), _) => (redact_url(url), "--endpoint-url"),
            (None, Some(url)) => (redact_url(url), "AWS_ENDPOINT_URL or the profile"),
            (None, None) => match std::env::var("AWS_ENDPOINT_URL_SQS") {
                Ok(url) if !url.is_empty() => (redact_url(&url), "AWS_ENDPOINT_URL_SQS"),
                _ => (format!("AWS's endpoint for {region}"), ""),
            },
        };
        let endpoint = if from.is_empty() {
            endpoint_name.clone()
        } else {
            format!("{endpoint_name} ({from})")
        };
        Ok(Sqs {
            client: aws_sdk_sqs::Client::new(&config),
            region,
            endpoint,
            endpoint_name,
            connect_timeout,
            read_timeout,
            entry_retries: std::sync::Arc::default(),
        })
    }

    /// Wraps an SDK client built elsewhere (tests, benchmarks, embedding programs).
    pub fn from_sdk(client: aws_sdk_sqs::Client, region: impl Into<String>) -> Sqs {
        Sqs {
            client,
            region: region.into(),
            endpoint: "set in code".to_string(),
            endpoint_name: "the endpoint set in code".to_string(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            entry_retries: std::sync::Arc::default(),
        }
    }

    /// A client for an SQS-compatible endpoint configured in code only, with fixed local
    /// credentials (the local server accepts any): nothing is read from the environment or from
    /// ~/.aws. For the local server (`sqsctl demo`, tests, embedding programs).
    pub fn for_endpoint(endpoint: &str, region: &str) -> Sqs {
        let config = aws_sdk_sqs::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(region.to_string()))
            .credentials_provider(aws_sdk_sqs::config::Credentials::new(
                LOCAL_ACCESS_KEY_ID,
                LOCAL_SECRET_ACCESS_KEY,
                None,
                None,
                "sqsctl-local",
            ))
            .endpoint_url(endpoint)
            .retry_config(
                RetryConfig::standard()
                    .with_max_attempts(5)
                    .with_initial_backoff(Duration::from_millis(50))
                    .with_max_backoff(Duration::from_secs(5)),
            )
            .build();
        let mut sqs = Sqs::from_sdk(aws_sdk_sqs::Client::from_conf(config), region);
        sqs.endpoint = redact_url(endpoint);
        sqs.endpoint_name = sqs.endpoint.clone();
        sqs
    }

    /// How many batch entries were sent again after a retryable failure, by this client and its
    /// clones.
    pub fn entry_retries(&self) -> u64 {
        self.entry_retries
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The endpoint in use and where it came from, for `--verbose`.
    pub fn endpoint_description(&self) -> &str {
        &self.endpoint
    }

    /// The SDK client, for benchmarks that measure the raw ceiling.
    pub fn sdk(&self) -> &aws_sdk_sqs::Client {
        &self.client
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    fn err<E>(
        &self,
        action: &'static str,
        queue: Option<&str>,
        err: aws_sdk_sqs::error::SdkError<E, HttpResponse>,
    ) -> ClientError
    where
        E: aws_sdk_sqs::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        let site = CallSite {
            region: &self.region,
            endpoint: &self.endpoint_name,
            connect_timeout: self.connect_timeout,
            read_timeout: self.read_timeout,
        };
        ClientError::from_sdk(action, queue, &site, err)
    }

    /// Resolves a queue given by name, URL or ARN to its URL.
    pub async fn resolve(&self, text: &str) -> Result<QueueRef, ClientError> {
        match QueueSpec::parse(text).map_err(ClientError::InvalidInput)? {
            QueueSpec::Url(url) => Ok(QueueRef::from_url(url)),
            QueueSpec::Name(name) => self.queue_url(&name, None).await,
            QueueSpec::Arn { region, .. } if region != self.region => {
                Err(ClientError::InvalidInput(format!(
                    "`{text}` is a queue in {region}, but sqsctl is working in {}: pass --region {region}",
                    self.region
                )))
            }
            QueueSpec::Arn { account, name, .. } => self.queue_url(&name, Some(account)).await,
        }
    }

    async fn queue_url(&self, name: &str, owner: Option<String>) -> Result<QueueRef, ClientError> {
        let out = self
            .client
            .get_queue_url()
            .queue_name(name)
            .set_queue_owner_aws_account_id(owner)
            .send()
            .await
            .map_err(|e| self.err("GetQueueUrl", Some(name), e))?;
        let url = out
            .queue_url
            .ok_or_else(|| ClientError::InvalidInput(format!("no URL returned for `{name}`")))?;
        Ok(QueueRef {
            url,
            name: name.to_string(),
        })
    }

    /// Resolves the queue an ARN names (for DLQ targets and `DeadLetterQueueSourceArn`).
    pub async fn resolve_arn(&self, arn: &str) -> Result<QueueRef, ClientError> {
        self.resolve(arn).await
    }

    /// All attributes of a queue.
    pub async fn attributes(&self, queue: &QueueRef) -> Result<QueueAttributes, ClientError> {
        let out = self
            .client
            .get_queue_attributes()
            .queue_url(&queue.url)
            .attribute_names(QueueAttributeName::All)
            .send()
            .await
            .map_err(|e| self.err("GetQueueAttributes", Some(&queue.name), e))?;
        let map = out
            .attributes
            .unwrap_or_default()
            .into_iter()
            .map(|(name, value)| (name.as_str().to_string(), value))
            .collect();
        Ok(QueueAttributes(map))
    }

    pub async fn set_attributes(
        &self,
        queue: &QueueRef,
        attributes: BTreeMap<String, String>,
    ) -> Result<(), ClientError> {
        let map: HashMap<QueueAttributeName, String> = attributes
            .into_iter()
            .map(|(k, v)| (QueueAttributeName::from(k.as_str()), v))
            .collect();
        self.client
            .set_queue_attributes()
            .queue_url(&queue.url)
            .set_attributes(Some(map))
            .send()
            .await
            .map_err(|e| self.err("SetQueueAttributes", Some(&queue.name), e))?;
        Ok(())
    }

    /// Queue URLs, following pagination.
    pub async fn list_queues(&self, prefix: Option<&str>) -> Result<Vec<QueueRef>, ClientError> {
        let mut urls = Vec::new();
        let mut token = None;
        loop {
            let out = self
                .client
                .list_queues()
                .set_queue_name_prefix(prefix.map(str::to_string))
                .max_results(1000)
                .set_next_token(token)
                .send()
                .await
                .map_err(|e| self.err("ListQueues", None, e))?;
            urls.extend(
                out.queue_urls
                    .unwrap_or_default()
                    .into_iter()
                    .map(QueueRef::from_url),
            );
            token = out.next_token;
            if token.is_none() {
                break;
            }
        }
        Ok(urls)
    }

    pub async fn create_queue(
        &self,
        name: &str,
        attributes: BTreeMap<String, String>,
    ) -> Result<QueueRef, ClientError> {
        let map: HashMap<QueueAttributeName, String> = attributes
            .into_iter()
            .map(|(k, v)| (QueueAttributeName::from(k.as_str()), v))
            .collect();
        let out = self
            .client
            .create_queue()
            .queue_name(name)
            .set_attributes(if map.is_empty() { None } else { Some(map) })
            .send()
            .await
            .map_err(|e| self.err("CreateQueue", Some(name), e))?;
        let url = out
            .queue_url
            .ok_or_else(|| ClientError::InvalidInput("no queue URL returned".into()))?;
        Ok(QueueRef {
            url,
            name: name.to_string(),
        })
    }

    pub async fn delete_queue(&self, queue: &QueueRef) -> Result<(), ClientError> {
        self.client
            .delete_queue()
            .queue_url(&queue.url)
            .send()
            .await
            .map_err(|e| self.err("DeleteQueue", Some(&queue.name), e))?;
        Ok(())
    }

    /// The source queues whose redrive policy points at this DLQ.
    pub async fn dead_letter_sources(&self, dlq: &QueueRef) -> Result<Vec<QueueRef>, ClientError> {
        let mut urls = Vec::new();
        let mut token = None;
        loop {
            let out = self
                .client
                .list_dead_letter_source_queues()
                .queue_url(&dlq.url)
                .max_results(1000)
                .set_next_token(token)
                .send()
                .await
                .map_err(|e| self.err("ListDeadLetterSourceQueues", Some(&dlq.name), e))?;
            urls.extend(out.queue_urls.into_iter().map(QueueRef::from_url));
            token = out.next_token;
            if token.is_none() {
                break;
            }
        }
        Ok(urls)
    }

    /// Sends one batch (at most 10 records, within 1 MiB) in a single attempt: the SDK does not
    /// retry it (see [`Sqs::send_batch_retrying`]). Outcomes come back in input order.
    pub async fn send_batch(
        &self,
        queue: &QueueRef,
        records: &[MessageRecord],
    ) -> Result<Vec<EntryOutcome>, ClientError> {
        if records.is_empty() {
            return Ok(Vec::new());
        }
        if records.len() > MAX_BATCH_ENTRIES {
            return Err(ClientError::InvalidInput(format!(
                "a batch holds at most {MAX_BATCH_ENTRIES} messages"
            )));
        }
        let entries = records
            .iter()
            .enumerate()
            .map(|(i, r)| convert::batch_entry(i, r))
            .collect::<Result<Vec<_>, _>>()?;
        let out = self
            .client
            .send_message_batch()
            .queue_url(&queue.url)
            .set_entries(Some(entries))
            .customize()
            .config_override(single_attempt())
            .send()
            .await
            .map_err(|e| self.err("SendMessageBatch", Some(&queue.name), e))?;
        let mut outcomes = vec![EntryOutcome::Missing; records.len()];
        for ok in out.successful {
            if let Some(slot) = ok
                .id
                .parse::<usize>()
                .ok()
                .and_then(|i| outcomes.get_mut(i))
            {
                *slot = EntryOutcome::Ok {
                    message_id: Some(ok.message_id),
                    sequence_number: ok.sequence_number,
                };
            }
        }
        record_failures(&mut outcomes, out.failed);
        Ok(outcomes)
    }

    /// Sends one batch under `policy`: whole requests and the entries that may still succeed are
    /// retried; each entry ends done, failed, or unknown (perhaps sent).
    pub async fn send_batch_retrying(
        &self,
        queue: &QueueRef,
        records: &[MessageRecord],
        policy: &RetryPolicy,
    ) -> BatchOutcome {
        let call = |pending: Vec<usize>| async move {
            if pending.len() == records.len() {
                self.send_batch(queue, records).await
            } else {
                let subset: Vec<MessageRecord> =
                    pending.iter().map(|&i| records[i].clone()).collect();
                self.send_batch(queue, &subset).await
            }
        };
        self.counted(policy.entries(records.len(), call).await)
    }

    fn counted(&self, outcome: BatchOutcome) -> BatchOutcome {
        self.entry_retries
            .fetch_add(outcome.retried, std::sync::atomic::Ordering::Relaxed);
        outcome
    }

    /// Receives up to 10 messages with every system and message attribute.
    pub async fn receive(
        &self,
        queue: &QueueRef,
        options: ReceiveOptions,
    ) -> Result<Vec<MessageRecord>, ClientError> {
        self.receive_attempt(queue, options, false).await
    }

    /// Receives under `policy`, which sees every attempt: the outcome says how many attempts failed
    /// after SQS may have applied them (hiding their messages until the visibility timeout ends).
    pub async fn receive_retrying(
        &self,
        queue: &QueueRef,
        options: ReceiveOptions,
        policy: &RetryPolicy,
    ) -> RequestOutcome<Vec<MessageRecord>> {
        // A long poll may rightly take its whole wait.
        let mut policy = policy.clone();
        policy.attempt_timeout += Duration::from_secs(options.wait_seconds.clamp(0, 20) as u64);
        policy
            .request(|| self.receive_attempt(queue, options, true))
            .await
    }

    async fn receive_attempt(
        &self,
        queue: &QueueRef,
        options: ReceiveOptions,
        single: bool,
    ) -> Result<Vec<MessageRecord>, ClientError> {
        let wait_seconds = options.wait_seconds.clamp(0, 20);
        let request = self
            .client
            .receive_message()
            .queue_url(&queue.url)
            .max_number_of_messages(options.max_messages.clamp(1, 10))
            .wait_time_seconds(wait_seconds)
            .set_visibility_timeout(options.visibility_timeout)
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .message_attribute_names("All");
        // A long poll answers only after its wait: the read timeout is on top of it.
        let poll = Duration::from_secs(wait_seconds.unsigned_abs().into()) + LONG_POLL_MARGIN;
        let long_poll = poll > self.read_timeout;
        let out = if single || long_poll {
            let mut config = if single {
                single_attempt()
            } else {
                aws_sdk_sqs::config::Builder::default()
            };
            if long_poll {
                config =
                    config.timeout_config(timeouts(self.connect_timeout, self.read_timeout + poll));
            }
            request.customize().config_override(config).send().await
        } else {
            request.send().await
        }
        .map_err(|e| self.err("ReceiveMessage", Some(&queue.name), e))?;
        Ok(out
            .messages
            .unwrap_or_default()
            .into_iter()
            .map(convert::record_from_sdk)
            .collect())
    }

    /// Deletes up to 10 messages by receipt handle in a single attempt; outcomes in input order.
    pub async fn delete_batch(
        &self,
        queue: &QueueRef,
        receipt_handles: &[&str],
    ) -> Result<Vec<EntryOutcome>, ClientError> {
        if receipt_handles.is_empty() {
            return Ok(Vec::new());
        }
        let entries = receipt_handles
            .iter()
            .enumerate()
            .map(|(i, handle)| {
                DeleteMessageBatchRequestEntry::builder()
                    .id(i.to_string())
                    .receipt_handle(*handle)
                    .build()
                    .map_err(|e| ClientError::InvalidInput(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out = self
            .client
            .delete_message_batch()
            .queue_url(&queue.url)
            .set_entries(Some(entries))
            .customize()
            .config_override(single_attempt())
            .send()
            .await
            .map_err(|e| self.err("DeleteMessageBatch", Some(&queue.name), e))?;
        let mut outcomes = vec![EntryOutcome::Missing; receipt_handles.len()];
        record_successes(&mut outcomes, out.successful.into_iter().map(|ok| ok.id));
        record_failures(&mut outcomes, out.failed);
        Ok(outcomes)
    }

    /// Deletes up to 10 messages by receipt handle under `policy`. A delete applied twice does no
    /// harm, so an unknown outcome here only means "maybe still in the queue".
    pub async fn delete_batch_retrying(
        &self,
        queue: &QueueRef,
        receipt_handles: &[&str],
        policy: &RetryPolicy,
    ) -> BatchOutcome {
        let call = |pending: Vec<usize>| async move {
            let subset: Vec<&str> = pending.iter().map(|&i| receipt_handles[i]).collect();
            self.delete_batch(queue, &subset).await
        };
        self.counted(policy.entries(receipt_handles.len(), call).await)
    }

    /// Changes the visibility timeout of up to 10 received messages in a single attempt; outcomes
    /// in input order.
    pub async fn change_visibility_batch(
        &self,
        queue: &QueueRef,
        entries: &[(&str, i32)],
    ) -> Result<Vec<EntryOutcome>, ClientError> {
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let request = entries
            .iter()
            .enumerate()
            .map(|(i, (handle, seconds))| {
                ChangeMessageVisibilityBatchRequestEntry::builder()
                    .id(i.to_string())
                    .receipt_handle(*handle)
                    .visibility_timeout(*seconds)
                    .build()
                    .map_err(|e| ClientError::InvalidInput(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out = self
            .client
            .change_message_visibility_batch()
            .queue_url(&queue.url)
            .set_entries(Some(request))
            .customize()
            .config_override(single_attempt())
            .send()
            .await
            .map_err(|e| self.err("ChangeMessageVisibilityBatch", Some(&queue.name), e))?;
        let mut outcomes = vec![EntryOutcome::Missing; entries.len()];
        record_successes(&mut outcomes, out.successful.into_iter().map(|ok| ok.id));
        record_failures(&mut outcomes, out.failed);
        Ok(outcomes)
    }

    /// Changes the visibility timeout of up to 10 received messages under `policy`.
    pub async fn change_visibility_retrying(
        &self,
        queue: &QueueRef,
        entries: &[(&str, i32)],
        policy: &RetryPolicy,
    ) -> BatchOutcome {
        let call = |pending: Vec<usize>| async move {
            let subset: Vec<(&str, i32)> = pending.iter().map(|&i| entries[i]).collect();
            self.change_visibility_batch(queue, &subset).await
        };
        self.counted(policy.entries(entries.len(), call).await)
    }

    /// Makes received messages visible again at once (visibility timeout 0), in batches of 10,
    /// under the default retry policy. Returns how many could not be released (they reappear when
    /// their timeout runs out); an error when a request-level error ended the retries of a batch.
    pub async fn release(
        &self,
        queue: &QueueRef,
        receipt_handles: &[&str],
    ) -> Result<usize, ClientError> {
        let policy = RetryPolicy::default();
        let mut failed = 0;
        for chunk in receipt_handles.chunks(MAX_BATCH_ENTRIES) {
            let entries: Vec<(&str, i32)> = chunk.iter().map(|h| (*h, 0)).collect();
            let outcome = self
                .change_visibility_retrying(queue, &entries, &policy)
                .await;
            if let Some(err) = outcome.request_error {
                return Err(err);
            }
            failed += outcome.entries.iter().filter(|o| !o.is_done()).count();
        }
        Ok(failed)
    }

    pub async fn purge(&self, queue: &QueueRef) -> Result<(), ClientError> {
        self.client
            .purge_queue()
            .queue_url(&queue.url)
            .send()
            .await
            .map_err(|e| self.err("PurgeQueue", Some(&queue.name), e))?;
        Ok(())
    }

    /// Starts a server-side move task from a DLQ; returns its task handle.
    pub async fn start_move_task(
        &self,
        source_arn: &str,
        destination_arn: Option<&str>,
        max_per_second: Option<i32>,
    ) -> Result<String, ClientError> {
        let out = self
            .client
            .start_message_move_task()
            .source_arn(source_arn)
            .set_destination_arn(destination_arn.map(str::to_string))
            .set_max_number_of_messages_per_second(max_per_second)
            .send()
            .await
            .map_err(|e| self.err("StartMessageMoveTask", Some(source_arn), e))?;
        out.task_handle
            .ok_or_else(|| ClientError::InvalidInput("no task handle returned".into()))
    }

    /// The most recent move tasks of a DLQ (SQS keeps the latest 10).
    pub async fn list_move_tasks(&self, source_arn: &str) -> Result<Vec<MoveTask>, ClientError> {
        let out = self
            .client
            .list_message_move_tasks()
            .source_arn(source_arn)
            .max_results(10)
            .send()
            .await
            .map_err(|e| self.err("ListMessageMoveTasks", Some(source_arn), e))?;
        Ok(out
            .results
            .unwrap_or_default()
            .into_iter()
            .map(|t| MoveTask {
                task_handle: t.task_handle,
                status: t.status.unwrap_or_default(),
                source_arn: t.source_arn,
                destination_arn: t.destination_arn,
                max_per_second: t.max_number_of_messages_per_second,
                moved: t.approximate_number_of_messages_moved,
                to_move: t.approximate_number_of_messages_to_move,
                failure_reason: t.failure_reason,
                started_timestamp: t.started_timestamp,
            })
            .collect())
    }

    /// Cancels a running move task; returns how many messages it had moved.
    pub async fn cancel_move_task(&self, task_handle: &str) -> Result<i64, ClientError> {
        let out = self
            .client
            .cancel_message_move_task()
            .task_handle(task_handle)
            .send()
            .await
            .map_err(|e| self.err("CancelMessageMoveTask", None, e))?;
        Ok(out.approximate_number_of_messages_moved)
    }
}

fn record_failures(
    outcomes: &mut [EntryOutcome],
    failed: Vec<aws_sdk_sqs::types::BatchResultErrorEntry>,
) {
    for failure in failed {
        if let Some(slot) = failure
            .id
            .parse::<usize>()
            .ok()
            .and_then(|i| outcomes.get_mut(i))
        {
            *slot = EntryOutcome::Failed {
                code: failure.code,
                message: failure.message.unwrap_or_default(),
                sender_fault: failure.sender_fault,
            };
        }
    }
}

/// The SDK's timeouts: per connection, per answer, and for a whole call with its retries, so an
/// endpoint that never answers ends the call after about two read timeouts, not five.
fn timeouts(connect: Duration, read: Duration) -> aws_config::timeout::TimeoutConfig {
    aws_config::timeout::TimeoutConfig::builder()
        .connect_timeout(connect)
        .read_timeout(read)
        .operation_timeout(connect + read * 2)
        .build()
}

/// True for names shaped like an AWS region: `us-east-1`, `eu-central-2`, `us-gov-west-1`,
/// `cn-north-1`. A typo such as `us-east1` or `useast-1` fails here instead of at the first
/// request, as an unreachable host.
pub fn is_region_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('-').collect();
    parts.len() >= 3
        && parts[0].len() == 2
        && parts[..parts.len() - 1]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase()))
        && parts[parts.len() - 1]
            .parse::<u8>()
            .is_ok_and(|n| parts[parts.len() - 1] == n.to_string())
}

/// An endpoint URL fit to print: userinfo (`user:password@`) is replaced by `***@`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://***@{host}{path}"),
        None => url.to_string(),
    }
}

/// Per-operation configuration of the calls [`retry`] retries itself: no retries in the SDK, so
/// the policy sees every attempt (and can tell an ambiguous one), and sustained faults cannot drain
/// the SDK's retry quota, which would make every other call fail at its first error.
fn single_attempt() -> aws_sdk_sqs::config::Builder {
    aws_sdk_sqs::config::Builder::default().retry_config(RetryConfig::disabled())
}

fn record_successes(outcomes: &mut [EntryOutcome], ids: impl Iterator<Item = String>) {
    for id in ids {
        if let Some(slot) = id.parse::<usize>().ok().and_then(|i| outcomes.get_mut(i)) {
            *slot = EntryOutcome::Ok {
                message_id: None,
                sequence_number: None,
            };
        }
    }
}
