//! The message calls of [`Sqs`]: receive, and the batch calls (send, delete, change visibility)
//! with their per-entry outcomes in input order, each in a single attempt and under a
//! [`RetryPolicy`]. Batching into 10s and payload limits are in [`batch`](super::batch).

use super::TimedCall;
use std::time::Duration;

use aws_sdk_sqs::types::{
    ChangeMessageVisibilityBatchRequestEntry, DeleteMessageBatchRequestEntry,
    MessageSystemAttributeName,
};

use super::{
    BatchOutcome, ClientError, MAX_BATCH_ENTRIES, QueueRef, RequestOutcome, RetryPolicy, Sqs,
    convert, timeouts,
};
use crate::message::MessageRecord;

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

    /// True for an entry SQS failed because the caller sends too fast.
    pub fn is_throttled(&self) -> bool {
        matches!(self, EntryOutcome::Failed { code, .. } if ClientError::is_throttle_code(code))
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

/// Which system attributes a receive asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SystemAttributes {
    All,
    /// These, by their SQS names (`SentTimestamp`, `MessageGroupId`, ...).
    Only(&'static [&'static str]),
}

impl SystemAttributes {
    fn names(self) -> Vec<MessageSystemAttributeName> {
        match self {
            SystemAttributes::All => vec![MessageSystemAttributeName::All],
            SystemAttributes::Only(names) => names
                .iter()
                .map(|&name| MessageSystemAttributeName::from(name))
                .collect(),
        }
    }
}

/// One receive call as the client makes it: what is asked, and whether it is a single attempt
/// (the SDK's own retries off, as under a [`RetryPolicy`]).
#[derive(Debug, Clone, Copy)]
struct ReceiveCall {
    options: ReceiveOptions,
    attributes: SystemAttributes,
    single: bool,
}

/// What to ask of a receive call.
#[derive(Debug, Clone, Copy)]
pub struct ReceiveOptions {
    /// 1..=10.
    pub max_messages: i32,
    /// Long-poll wait, 0..=20 seconds; `None` sends none, so the queue's own
    /// `ReceiveMessageWaitTimeSeconds` applies (as the AWS CLI does).
    pub wait_seconds: Option<i32>,
    /// Per-call visibility timeout; the queue's default when `None`.
    pub visibility_timeout: Option<i32>,
}

impl ReceiveOptions {
    /// The longest a receive may rightly wait for messages, in seconds: its own wait, or without
    /// one the longest a queue's setting can be.
    pub fn longest_wait(&self) -> u32 {
        self.wait_seconds
            .map_or(20, |w| w.clamp(0, 20).unsigned_abs())
    }
}

/// One attempt at a batch call (`$method`, named `$op` in errors) on `$queue` at `$url`, timed,
/// its error said with the operation and the queue.
macro_rules! batch_call {
    ($sqs:ident, $method:ident, $op:expr, $queue:expr, $url:expr, $entries:expr) => {
        $sqs.once()
            .$method()
            .queue_url($url)
            .set_entries(Some($entries))
            .send()
            .timed()
            .await
            .map_err(|e| $sqs.err_on($op, $queue, e))
    };
}

/// [`AcknowledgedBatch::call`]: one `$method` call of `$entries` on `$queue` (named by the
/// impl's `OPERATION` in errors), answering with the successful entries' ids and the failures.
macro_rules! acknowledged_call {
    ($sqs:ident . $method:ident (), $queue:ident, $entries:ident) => {
        Box::pin(async move {
            batch_call!(
                $sqs,
                $method,
                Self::OPERATION,
                $queue,
                &$queue.url,
                $entries
            )
            .map(|out| {
                let ids = out.successful.into_iter().map(|ok| ok.id).collect();
                (ids, out.failed)
            })
        })
    };
}

/// The successful entries' ids and the failures of an acknowledged batch's answer.
type Acknowledgements = (Vec<String>, Vec<aws_sdk_sqs::types::BatchResultErrorEntry>);

/// One call of an [`AcknowledgedBatch`] under way.
pub type Call<'s> =
    std::pin::Pin<Box<dyn Future<Output = Result<Acknowledgements, ClientError>> + Send + 's>>;

/// A batch call whose answer names its successful entries by id only: [`Delete`] and
/// [`ChangeVisibility`], made by [`Sqs::batch`] and [`Sqs::batch_retrying`].
pub trait AcknowledgedBatch<'a>: Copy {
    /// What one entry is made of.
    type Item: Copy + Send + Sync + 'a;
    /// The request entry the SDK takes.
    type Entry: Send;
    /// The call's name in SQS, for errors.
    const OPERATION: &'static str;
    /// The request entry for `item`, named `id`.
    fn entry(id: String, item: &Self::Item) -> Result<Self::Entry, aws_sdk_sqs::error::BuildError>;
    /// One call with `entries` on `queue`.
    fn call<'s>(sqs: &'s Sqs, queue: &'s QueueRef, entries: Vec<Self::Entry>) -> Call<'s>;
}

/// `DeleteMessageBatch`: each entry is a receipt handle.
#[derive(Debug, Clone, Copy)]
pub struct Delete;

/// `ChangeMessageVisibilityBatch`: each entry is a receipt handle and its new timeout in seconds.
#[derive(Debug, Clone, Copy)]
pub struct ChangeVisibility;

impl<'a> AcknowledgedBatch<'a> for Delete {
    type Item = &'a str;
    type Entry = DeleteMessageBatchRequestEntry;
    const OPERATION: &'static str = "DeleteMessageBatch";

    fn entry(id: String, handle: &&'a str) -> Result<Self::Entry, aws_sdk_sqs::error::BuildError> {
        DeleteMessageBatchRequestEntry::builder()
            .id(id)
            .receipt_handle(*handle)
            .build()
    }

    fn call<'s>(sqs: &'s Sqs, queue: &'s QueueRef, entries: Vec<Self::Entry>) -> Call<'s> {
        acknowledged_call!(sqs.delete_message_batch(), queue, entries)
    }
}

impl<'a> AcknowledgedBatch<'a> for ChangeVisibility {
    type Item = (&'a str, i32);
    type Entry = ChangeMessageVisibilityBatchRequestEntry;
    const OPERATION: &'static str = "ChangeMessageVisibilityBatch";

    fn entry(
        id: String,
        &(handle, seconds): &(&'a str, i32),
    ) -> Result<Self::Entry, aws_sdk_sqs::error::BuildError> {
        ChangeMessageVisibilityBatchRequestEntry::builder()
            .id(id)
            .receipt_handle(handle)
            .visibility_timeout(seconds)
            .build()
    }

    fn call<'s>(sqs: &'s Sqs, queue: &'s QueueRef, entries: Vec<Self::Entry>) -> Call<'s> {
        acknowledged_call!(sqs.change_message_visibility_batch(), queue, entries)
    }
}

impl Sqs {
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
        match self.send_batch_at(queue, records).await {
            Ok(outcomes) => {
                self.confirmed(queue);
                Ok(outcomes)
            }
            Err(err) => {
                let queue = self.look_again(queue, err).await?;
                self.send_batch_at(&queue, records).await
            }
        }
    }

    async fn send_batch_at(
        &self,
        queue: &QueueRef,
        records: &[MessageRecord],
    ) -> Result<Vec<EntryOutcome>, ClientError> {
        let entries = records
            .iter()
            .enumerate()
            .map(|(i, r)| convert::batch_entry(i, r))
            .collect::<Result<Vec<_>, _>>()?;
        let out = batch_call!(
            self,
            send_message_batch,
            "SendMessageBatch",
            queue,
            self.current_url(queue),
            entries
        )?;
        let sent = out.successful.into_iter().map(|ok| {
            let outcome = EntryOutcome::Ok {
                message_id: Some(ok.message_id),
                sequence_number: ok.sequence_number,
            };
            (ok.id, outcome)
        });
        Ok(self.outcomes(records.len(), sent, out.failed))
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
        self.receive_attempt(
            queue,
            ReceiveCall {
                options,
                attributes: SystemAttributes::All,
                single: false,
            },
        )
        .await
    }

    /// Receives under `policy`, which sees every attempt: the outcome says how many attempts failed
    /// after SQS may have applied them (hiding their messages until the visibility timeout ends).
    /// Every message attribute comes, and the system attributes in `attributes` (asking only for
    /// those the caller needs makes smaller answers, less to parse).
    pub async fn receive_retrying(
        &self,
        queue: &QueueRef,
        options: ReceiveOptions,
        attributes: SystemAttributes,
        policy: &RetryPolicy,
    ) -> RequestOutcome<Vec<MessageRecord>> {
        // A long poll may rightly take its whole wait.
        let mut policy = policy.clone();
        policy.attempt_timeout += Duration::from_secs(options.longest_wait().into());
        policy
            .request(|| {
                self.receive_attempt(
                    queue,
                    ReceiveCall {
                        options,
                        attributes,
                        single: true,
                    },
                )
            })
            .await
    }

    /// One receive; when the queue's URL turned out stale, one more at the URL looked up again.
    async fn receive_attempt(
        &self,
        queue: &QueueRef,
        call: ReceiveCall,
    ) -> Result<Vec<MessageRecord>, ClientError> {
        match self.receive_at(queue, call).await {
            Ok(records) => {
                self.confirmed(queue);
                Ok(records)
            }
            Err(err) => {
                let queue = self.look_again(queue, err).await?;
                self.receive_at(&queue, call).await
            }
        }
    }

    async fn receive_at(
        &self,
        queue: &QueueRef,
        call: ReceiveCall,
    ) -> Result<Vec<MessageRecord>, ClientError> {
        let ReceiveCall {
            options,
            attributes,
            single,
        } = call;
        let client = if single { &self.once() } else { &self.client() };
        let request = client
            .receive_message()
            .queue_url(self.current_url(queue))
            .max_number_of_messages(options.max_messages.clamp(1, 10))
            .set_wait_time_seconds(options.wait_seconds.map(|w| w.clamp(0, 20)))
            .set_visibility_timeout(options.visibility_timeout)
            .set_message_system_attribute_names(Some(attributes.names()))
            .message_attribute_names("All");
        // A long poll answers only after its wait: the read timeout is on top of it.
        let poll = match options.longest_wait() {
            0 => Duration::ZERO,
            wait => Duration::from_secs(wait.into()) + LONG_POLL_MARGIN,
        };
        let out = if !poll.is_zero() {
            let config = aws_sdk_sqs::config::Builder::default()
                .timeout_config(timeouts(self.connect_timeout, self.read_timeout + poll));
            request
                .customize()
                .config_override(config)
                .send()
                .timed()
                .await
        } else {
            request.send().timed().await
        }
        .map_err(|e| self.err_polling("ReceiveMessage", queue, e, poll))?;
        Ok(out
            .messages
            .unwrap_or_default()
            .into_iter()
            .map(convert::record_from_sdk)
            .collect())
    }

    /// One attempt at an acknowledged batch of up to 10 entries ([`Delete`] receipt handles or
    /// [`ChangeVisibility`] changes); outcomes in input order. No call for no entries.
    pub async fn batch<'a, B: AcknowledgedBatch<'a>>(
        &self,
        _: B,
        queue: &QueueRef,
        items: &[B::Item],
    ) -> Result<Vec<EntryOutcome>, ClientError> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let (successful, failed) = B::call(self, queue, numbered(items, B::entry)?).await?;
        Ok(self.outcomes(
            items.len(),
            successful.into_iter().map(acknowledged),
            failed,
        ))
    }

    /// An acknowledged batch under `policy`: each attempt is given the entries still pending.
    /// Deleting or changing the visibility twice does no harm, so an unknown outcome here only
    /// means "maybe not applied".
    pub async fn batch_retrying<'a, B: AcknowledgedBatch<'a>>(
        &self,
        kind: B,
        queue: &QueueRef,
        items: &[B::Item],
        policy: &RetryPolicy,
    ) -> BatchOutcome {
        let call = |pending: Vec<usize>| {
            let subset: Vec<B::Item> = pending.iter().map(|&i| items[i]).collect();
            async move { self.batch(kind, queue, &subset).await }
        };
        self.counted(policy.entries(items.len(), call).await)
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
                .batch_retrying(ChangeVisibility, queue, &entries, &policy)
                .await;
            if let Some(err) = outcome.request_error {
                return Err(err);
            }
            failed += outcome.entries.iter().filter(|o| !o.is_done()).count();
        }
        Ok(failed)
    }
}

/// The outcomes of a batch call in input order (entry ids are input indexes): what the response
/// names as successful or failed, and [`EntryOutcome::Missing`] for an entry it does not name.
/// A batch request's entries, each built from an item and its id (its index in `items`, which
/// the answer's outcomes name).
fn numbered<T, E>(
    items: &[T],
    build: impl Fn(String, &T) -> Result<E, aws_sdk_sqs::error::BuildError>,
) -> Result<Vec<E>, ClientError> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| build(i.to_string(), item))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ClientError::InvalidInput(e.to_string()))
}

impl Sqs {
    /// A batch answer's outcomes in input order, the throttled ones counted.
    fn outcomes(
        &self,
        len: usize,
        successful: impl Iterator<Item = (String, EntryOutcome)>,
        failed: Vec<aws_sdk_sqs::types::BatchResultErrorEntry>,
    ) -> Vec<EntryOutcome> {
        let outcomes = in_input_order(len, successful, failed);
        self.count_throttled(outcomes.iter().filter(|o| o.is_throttled()).count());
        outcomes
    }
}

fn in_input_order(
    len: usize,
    successful: impl Iterator<Item = (String, EntryOutcome)>,
    failed: Vec<aws_sdk_sqs::types::BatchResultErrorEntry>,
) -> Vec<EntryOutcome> {
    let failures = failed.into_iter().map(|failure| {
        let outcome = EntryOutcome::Failed {
            code: failure.code,
            message: failure.message.unwrap_or_default(),
            sender_fault: failure.sender_fault,
        };
        (failure.id, outcome)
    });
    let mut outcomes = vec![EntryOutcome::Missing; len];
    for (id, outcome) in successful.chain(failures) {
        if let Some(slot) = id.parse::<usize>().ok().and_then(|i| outcomes.get_mut(i)) {
            *slot = outcome;
        }
    }
    outcomes
}

/// A success of a batch call that answers with the entry's id only (delete, change visibility).
fn acknowledged(id: String) -> (String, EntryOutcome) {
    let outcome = EntryOutcome::Ok {
        message_id: None,
        sequence_number: None,
    };
    (id, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_come_back_in_input_order_and_unnamed_entries_are_missing() {
        let failed = aws_sdk_sqs::types::BatchResultErrorEntry::builder()
            .id("0")
            .code("InternalError")
            .sender_fault(false)
            .build()
            .expect("a complete error entry");
        let done = ["2", "not-an-index", "9"].map(|id| acknowledged(id.to_string()));
        let outcomes = in_input_order(3, done.into_iter(), vec![failed]);
        assert_eq!(
            outcomes,
            vec![
                EntryOutcome::Failed {
                    code: "InternalError".into(),
                    message: String::new(),
                    sender_fault: false,
                },
                EntryOutcome::Missing,
                acknowledged(String::new()).1,
            ]
        );
    }

    /// Each call of the engine's path is a future that its callers hold (and copy, when they make
    /// one) once per worker: an SDK call's future (about 6 KiB each) kept inline anywhere below
    /// would make them several times this size.
    #[tokio::test]
    async fn the_retried_calls_hold_the_sdk_call_on_the_heap() {
        let vars = [
            ("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9"),
            ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
            ("AWS_SECRET_ACCESS_KEY", "example"),
            ("AWS_REGION", "us-east-1"),
        ];
        let settings = crate::client::AwsSettings {
            environment: crate::client::AwsEnvironment::from_lookup(|name| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }),
            ..Default::default()
        };
        let sqs = Sqs::connect(&settings).await.expect("a client");
        let queue = QueueRef::from_url("http://127.0.0.1:9/000000000000/q".to_string());
        let policy = RetryPolicy::default();
        let options = ReceiveOptions {
            max_messages: 10,
            wait_seconds: Some(1),
            visibility_timeout: Some(30),
        };
        fn size<T>(_: &T) -> usize {
            std::mem::size_of::<T>()
        }
        let sdk_call = size(&sqs.once().receive_message().send());
        let receive = size(&sqs.receive_retrying(&queue, options, SystemAttributes::All, &policy));
        let send = size(&sqs.send_batch_retrying(&queue, &[], &policy));
        let delete = size(&sqs.batch_retrying(Delete, &queue, &[], &policy));
        for (call, bytes) in [("receive", receive), ("send", send), ("delete", delete)] {
            assert!(
                bytes < 4096 && bytes < sdk_call,
                "{call}: {bytes} bytes (an SDK call: {sdk_call})"
            );
        }
    }
}
