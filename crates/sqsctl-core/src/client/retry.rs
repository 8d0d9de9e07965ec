//! The one retry policy of batch calls (send, delete, change visibility) and of the receives that
//! `receive` makes: what is retried, how long to wait between attempts, and when to give up.
//!
//! Request-level throttling, 5xx answers, transport errors and attempts that time out are retried
//! with exponential backoff and jitter; batch entries that SQS fails through no fault of the sender
//! are sent again on their own. Everything stops at a total deadline (and at a number of attempts),
//! so a call never retries for longer than the policy says. The SDK's own retries are off for these
//! calls: only this module sees every attempt, which is what lets it tell an entry that was
//! definitely not done from one whose fate is unknown (an attempt that SQS may have applied before
//! the answer was lost, with no later attempt to confirm it). This module knows nothing of commands:
//! it takes the call to make as a closure and reports per entry.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use super::{ClientError, EntryOutcome};
use crate::interrupt::Interrupt;

/// Error codes of answers from a server that failed while handling the request: it may or may not
/// have applied it.
const SERVER_FAULT_CODES: &[&str] = &[
    "InternalError",
    "InternalFailure",
    "ServiceUnavailable",
    "Unavailable",
    "RequestTimeout",
    "RequestTimeoutException",
    "Unknown",
];

/// When and how often a call is tried.
#[derive(Clone)]
pub struct RetryPolicy {
    /// The most time one call may take, its attempts and the waits between them included.
    pub deadline: Duration,
    /// The most time one attempt may take before it is abandoned (and counts as ambiguous).
    pub attempt_timeout: Duration,
    /// The most attempts, the first included.
    pub max_attempts: u32,
    /// The longest wait before the first retry; each later wait may be twice as long.
    pub first_backoff: Duration,
    /// The longest wait between two attempts.
    pub max_backoff: Duration,
    /// After Ctrl-C no new attempt starts, and an attempt still unanswered when the grace period
    /// runs out is abandoned.
    pub interrupt: Option<Interrupt>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            deadline: Duration::from_secs(30),
            attempt_timeout: Duration::from_secs(20),
            max_attempts: 10,
            first_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
            interrupt: None,
        }
    }
}

impl std::fmt::Debug for RetryPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RetryPolicy")
            .field("deadline", &self.deadline)
            .field("attempt_timeout", &self.attempt_timeout)
            .field("max_attempts", &self.max_attempts)
            .field("first_backoff", &self.first_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("stopped_by_interrupt", &self.interrupt.is_some())
            .finish()
    }
}

/// What a request-level error says about the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestFault {
    /// Not applied, and another attempt may succeed (throttling, a connection never made).
    Retry,
    /// Another attempt may succeed, but this one may have been applied (a 5xx answer, a lost
    /// answer, a timeout).
    RetryAmbiguous,
    /// Retrying will not help (credentials, a missing queue, an invalid request).
    Final,
}

/// Classifies a request-level error.
pub fn classify(err: &ClientError) -> RequestFault {
    match err {
        ClientError::Throttled { .. } => RequestFault::Retry,
        ClientError::Service { code, .. } if ClientError::is_throttle_code(code) => {
            RequestFault::Retry
        }
        ClientError::Service { code, .. } if SERVER_FAULT_CODES.contains(&code.as_str()) => {
            RequestFault::RetryAmbiguous
        }
        ClientError::Transport { message, .. } if never_sent(message) => RequestFault::Retry,
        ClientError::Transport { .. } => RequestFault::RetryAmbiguous,
        // No connection was made: nothing can have been applied.
        ClientError::Timeout { message, .. } if message.starts_with("no connection") => {
            RequestFault::Retry
        }
        ClientError::Timeout { .. } => RequestFault::RetryAmbiguous,
        // A proxy or load balancer in front of SQS answering for it.
        ClientError::NotSqs { status: 429, .. } => RequestFault::Retry,
        ClientError::NotSqs { status, .. } if *status >= 500 => RequestFault::RetryAmbiguous,
        _ => RequestFault::Final,
    }
}

/// Request-level errors worth another attempt: throttling, 5xx, network trouble.
pub fn is_transient(err: &ClientError) -> bool {
    classify(err) != RequestFault::Final
}

/// The wait before retry number `retry` under the default policy, for loops that retry something
/// other than a batch call (the redrive engine's receives).
pub fn backoff(retry: u32) -> Duration {
    RetryPolicy::default().backoff(retry)
}

/// Transport errors that happen before a request leaves: the server cannot have applied it. Only
/// the words of the error tell (the SDK's connector error is flattened into the message).
fn never_sent(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    ["connection refused", "tcp connect error", "dns error"]
        .iter()
        .any(|needle| lower.contains(needle))
}

/// The final outcome of one entry of a retried batch call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryResult {
    /// Confirmed by SQS (for sends: the new message id and, on FIFO, its sequence number).
    Done {
        message_id: Option<String>,
        sequence_number: Option<String>,
        /// Earlier attempts of this entry that SQS may have applied although it did not confirm
        /// them (an error or a lost answer after the request may have been handled): 0 for an
        /// entry done exactly once. A send confirmed after `n` of them may have put up to `n`
        /// extra copies on a standard queue (on a FIFO queue SQS drops a second send with the same
        /// deduplication id within 5 minutes); a delete or visibility change applied twice has the
        /// effect of one.
        ambiguous_attempts: u32,
    },
    /// Definitely not done: every attempt was refused or not applied.
    Failed { code: String, message: String },
    /// Perhaps done: an attempt may have been applied, and no later attempt confirmed it.
    Unknown { code: String, message: String },
}

impl EntryResult {
    pub fn is_done(&self) -> bool {
        matches!(self, EntryResult::Done { .. })
    }

    /// `code: message` of an entry not done.
    pub fn reason(&self) -> Option<String> {
        match self {
            EntryResult::Done { .. } => None,
            EntryResult::Failed { code, message } | EntryResult::Unknown { code, message } => {
                Some(format!("{code}: {message}"))
            }
        }
    }
}

/// The outcome of a retried batch call.
#[derive(Debug)]
pub struct BatchOutcome {
    /// One result per entry, in input order.
    pub entries: Vec<EntryResult>,
    /// The request-level error that ended the retries (final, or the last one when the deadline or
    /// the attempts ran out), if the last attempt failed as a whole. Callers stop on it: SQS is
    /// refusing or unreachable, not failing one entry.
    pub request_error: Option<ClientError>,
    /// Entries sent again after an attempt did not do them.
    pub retried: u64,
}

/// The outcome of a retried single request.
#[derive(Debug)]
pub struct RequestOutcome<T> {
    pub result: Result<T, ClientError>,
    /// Attempts that failed after the server may have applied them (for a receive: messages it
    /// may have hidden until their visibility timeout ends).
    pub ambiguous: u32,
}

/// Where an entry stands between attempts.
#[derive(Debug, Clone)]
struct Pending {
    /// Attempts that SQS may have applied without confirming them.
    ambiguous: u32,
    code: String,
    message: String,
}

impl RetryPolicy {
    /// The policy with Ctrl-C stopping further attempts.
    pub fn stopped_by(mut self, interrupt: Interrupt) -> Self {
        self.interrupt = Some(interrupt);
        self
    }

    /// The wait before retry number `retry` (1 for the first retry): exponential, capped, with
    /// jitter over its upper three quarters so that callers failing together spread out.
    pub fn backoff(&self, retry: u32) -> Duration {
        let first = self.first_backoff.as_micros().max(1) as u64;
        let cap = first
            .saturating_mul(1u64 << retry.saturating_sub(1).min(20))
            .min(self.max_backoff.as_micros() as u64)
            .max(1);
        Duration::from_micros(rand::random_range(cap / 4..=cap))
    }

    /// Runs a batch request for `count` entries and retries the whole request or the entries that
    /// may still succeed. `call` gets the indices still pending and answers one outcome per index,
    /// in that order.
    pub async fn entries<F, Fut>(&self, count: usize, mut call: F) -> BatchOutcome
    where
        F: FnMut(Vec<usize>) -> Fut,
        Fut: Future<Output = Result<Vec<EntryOutcome>, ClientError>>,
    {
        let started = Instant::now();
        let deadline = started + self.deadline;
        let mut results: Vec<Option<EntryResult>> = vec![None; count];
        let mut state: Vec<Pending> = vec![
            Pending {
                ambiguous: 0,
                code: "NotAttempted".into(),
                message: "not attempted".into(),
            };
            count
        ];
        let mut pending: Vec<usize> = (0..count).collect();
        let mut request_error: Option<ClientError> = None;
        let mut retried = 0u64;
        let mut attempts = 0u32;
        let mut timed_out = 0u32;
        let mut stopped_by_interrupt = false;
        while !pending.is_empty() {
            attempts += 1;
            let answer = self
                .attempt(deadline, std::pin::pin!(call(pending.clone())))
                .await;
            request_error = None;
            if answer.timed_out() {
                timed_out += 1;
            }
            match answer {
                Attempt::Abandoned(why) => {
                    for &i in &pending {
                        let entry = &mut state[i];
                        entry.ambiguous += 1;
                        entry.code = "RequestTimeout".into();
                        entry.message = why.clone();
                    }
                }
                Attempt::Answered(Err(err)) => {
                    let fault = classify(&err);
                    for &i in &pending {
                        let entry = &mut state[i];
                        entry.ambiguous += u32::from(fault == RequestFault::RetryAmbiguous);
                        entry.code = err.code().unwrap_or("RequestFailed").to_string();
                        entry.message = err.to_string();
                    }
                    request_error = Some(err);
                    if fault == RequestFault::Final {
                        break;
                    }
                }
                Attempt::Answered(Ok(outcomes)) => {
                    for (position, &i) in pending.iter().enumerate() {
                        let outcome = outcomes.get(position).cloned();
                        let entry = &mut state[i];
                        match outcome {
                            Some(EntryOutcome::Ok {
                                message_id,
                                sequence_number,
                            }) => {
                                results[i] = Some(EntryResult::Done {
                                    message_id,
                                    sequence_number,
                                    ambiguous_attempts: entry.ambiguous,
                                });
                            }
                            Some(failed @ EntryOutcome::Failed { .. }) => {
                                let retry = failed.is_retryable();
                                if let EntryOutcome::Failed { code, message, .. } = failed {
                                    entry.code = code;
                                    entry.message = message;
                                }
                                if !retry {
                                    results[i] = Some(finish(entry, None));
                                }
                            }
                            Some(EntryOutcome::Missing) | None => {
                                entry.ambiguous += 1;
                                entry.code = "Missing".into();
                                entry.message = "SQS's answer did not mention this entry".into();
                            }
                        }
                    }
                }
            }
            pending.retain(|&i| results[i].is_none());
            if pending.is_empty()
                || attempts >= self.max_attempts
                || timed_out >= super::MAX_TIMED_OUT_ATTEMPTS
            {
                break;
            }
            if self.interrupted() {
                stopped_by_interrupt = true;
                break;
            }
            let wait = self.backoff(attempts);
            if Instant::now() + wait >= deadline {
                break;
            }
            tokio::time::sleep(wait).await;
            retried += pending.len() as u64;
        }
        let waited = started.elapsed();
        let elapsed = waited.as_secs_f64();
        let request_error = request_error.map(|err| err.with_cost(attempts, waited));
        let note = if stopped_by_interrupt {
            format!("interrupted after {attempts} attempts")
        } else {
            format!("gave up after {attempts} attempts in {elapsed:.1} s")
        };
        let entries = results
            .into_iter()
            .zip(state.iter())
            .map(|(result, entry)| result.unwrap_or_else(|| finish(entry, Some(&note))))
            .collect();
        BatchOutcome {
            entries,
            request_error,
            retried,
        }
    }

    /// Runs one request and retries it while its error is transient, within the policy's bounds.
    /// `call` starts a fresh attempt each time it is called.
    pub async fn request<T, F, Fut>(&self, mut call: F) -> RequestOutcome<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, ClientError>>,
    {
        let started = Instant::now();
        let deadline = started + self.deadline;
        let mut ambiguous = 0;
        let mut attempts = 0;
        let mut timed_out = 0;
        loop {
            attempts += 1;
            let answer = self.attempt(deadline, std::pin::pin!(call())).await;
            if answer.timed_out() {
                timed_out += 1;
            }
            let err = match answer {
                Attempt::Answered(Ok(value)) => {
                    return RequestOutcome {
                        result: Ok(value),
                        ambiguous,
                    };
                }
                Attempt::Answered(Err(err)) => err,
                Attempt::Abandoned(why) => ClientError::Transport {
                    action: "the request",
                    message: why,
                },
            };
            let fault = classify(&err);
            if fault == RequestFault::RetryAmbiguous {
                ambiguous += 1;
            }
            let wait = self.backoff(attempts);
            if fault == RequestFault::Final
                || attempts >= self.max_attempts
                || timed_out >= super::MAX_TIMED_OUT_ATTEMPTS
                || self.interrupted()
                || Instant::now() + wait >= deadline
            {
                return RequestOutcome {
                    result: Err(err.with_cost(attempts, started.elapsed())),
                    ambiguous,
                };
            }
            tokio::time::sleep(wait).await;
        }
    }

    fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(Interrupt::is_set)
    }

    /// One attempt, abandoned when it outlasts the attempt timeout, the deadline, or the grace
    /// period after Ctrl-C. The call is pinned by the caller, so that it is held in one place (a
    /// future taken by value would be held twice: as this one's argument and in its `select!`).
    async fn attempt<T, F: Future<Output = T>>(
        &self,
        deadline: Instant,
        call: std::pin::Pin<&mut F>,
    ) -> Attempt<T> {
        let limit = (Instant::now() + self.attempt_timeout).min(deadline);
        let grace_over = async {
            match &self.interrupt {
                Some(interrupt) => interrupt.grace_over().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            answer = call => Attempt::Answered(answer),
            () = tokio::time::sleep_until(limit) => Attempt::Abandoned(format!(
                "no answer within {:.1} s",
                self.attempt_timeout.min(self.deadline).as_secs_f64()
            )),
            () = grace_over => Attempt::Abandoned(
                "no answer before the grace period after Ctrl-C ran out".to_string(),
            ),
        }
    }
}

enum Attempt<T> {
    Answered(T),
    /// Given up on without an answer: the server may have applied it.
    Abandoned(String),
}

impl<T> Attempt<Result<T, ClientError>> {
    /// Whether the endpoint did not answer this attempt in time: after
    /// [`MAX_TIMED_OUT_ATTEMPTS`](super::MAX_TIMED_OUT_ATTEMPTS) such attempts a call ends, so
    /// that a hung endpoint costs about that many read timeouts, not one per attempt allowed.
    fn timed_out(&self) -> bool {
        match self {
            Attempt::Answered(Err(err)) => err.is_timeout(),
            Attempt::Answered(Ok(_)) => false,
            Attempt::Abandoned(_) => true,
        }
    }
}

/// The result of an entry no attempt confirmed.
fn finish(entry: &Pending, note: Option<&str>) -> EntryResult {
    let message = match note {
        Some(note) => format!("{} ({note})", entry.message),
        None => entry.message.clone(),
    };
    if entry.ambiguous > 0 {
        EntryResult::Unknown {
            code: entry.code.clone(),
            message,
        }
    } else {
        EntryResult::Failed {
            code: entry.code.clone(),
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn quick() -> RetryPolicy {
        RetryPolicy {
            deadline: Duration::from_secs(5),
            attempt_timeout: Duration::from_secs(1),
            max_attempts: 6,
            first_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(4),
            interrupt: None,
        }
    }

    fn ok() -> EntryOutcome {
        EntryOutcome::Ok {
            message_id: Some("id".into()),
            sequence_number: None,
        }
    }

    fn entry_failure(code: &str, sender_fault: bool) -> EntryOutcome {
        EntryOutcome::Failed {
            code: code.into(),
            message: "m".into(),
            sender_fault,
        }
    }

    fn server_error() -> ClientError {
        ClientError::Service {
            action: "SendMessageBatch",
            code: "InternalError".into(),
            message: "boom".into(),
        }
    }

    fn throttled() -> ClientError {
        ClientError::Throttled {
            action: "SendMessageBatch",
            code: "RequestThrottled".into(),
        }
    }

    /// A fake call that answers from a script, one answer per attempt, and records what it was
    /// asked for.
    struct Script {
        answers: Mutex<Vec<Result<Vec<EntryOutcome>, ClientError>>>,
        asked: Mutex<Vec<Vec<usize>>>,
    }

    impl Script {
        fn new(mut answers: Vec<Result<Vec<EntryOutcome>, ClientError>>) -> Script {
            answers.reverse();
            Script {
                answers: Mutex::new(answers),
                asked: Mutex::new(Vec::new()),
            }
        }

        async fn call(&self, pending: Vec<usize>) -> Result<Vec<EntryOutcome>, ClientError> {
            self.asked.lock().unwrap().push(pending);
            self.answers
                .lock()
                .unwrap()
                .pop()
                .unwrap_or_else(|| Err(throttled()))
        }

        fn asked(&self) -> Vec<Vec<usize>> {
            self.asked.lock().unwrap().clone()
        }
    }

    #[tokio::test]
    async fn retryable_entries_are_sent_again_alone_and_final_ones_are_not() {
        let script = Script::new(vec![
            Ok(vec![
                ok(),
                entry_failure("InternalError", false),
                entry_failure("InvalidParameterValue", true),
            ]),
            Ok(vec![ok()]),
        ]);
        let outcome = quick().entries(3, |p| script.call(p)).await;
        assert_eq!(script.asked(), vec![vec![0, 1, 2], vec![1]]);
        assert!(outcome.entries[0].is_done() && outcome.entries[1].is_done());
        assert!(
            matches!(&outcome.entries[2], EntryResult::Failed { code, .. } if code == "InvalidParameterValue")
        );
        assert!(outcome.request_error.is_none());
        assert_eq!(outcome.retried, 1);
    }

    #[tokio::test]
    async fn request_errors_are_retried_and_a_confirmed_entry_is_done() {
        let script = Script::new(vec![
            Err(throttled()),
            Err(server_error()),
            Ok(vec![ok(), ok()]),
        ]);
        let outcome = quick().entries(2, |p| script.call(p)).await;
        assert_eq!(script.asked().len(), 3);
        assert!(outcome.entries.iter().all(EntryResult::is_done));
        assert!(outcome.request_error.is_none());
        // The 500 may have been applied: both entries were confirmed after one ambiguous attempt.
        assert!(
            outcome.entries.iter().all(|e| matches!(
                e,
                EntryResult::Done {
                    ambiguous_attempts: 1,
                    ..
                }
            )),
            "{:?}",
            outcome.entries
        );

        // Each ambiguous attempt may have put one more copy in the queue.
        let script = Script::new(vec![
            Err(server_error()),
            Err(server_error()),
            Ok(vec![ok()]),
        ]);
        let outcome = quick().entries(1, |p| script.call(p)).await;
        assert!(
            matches!(
                outcome.entries[0],
                EntryResult::Done {
                    ambiguous_attempts: 2,
                    ..
                }
            ),
            "{:?}",
            outcome.entries
        );

        // Throttling is never applied: an entry confirmed after it is plainly done.
        let script = Script::new(vec![Err(throttled()), Ok(vec![ok()])]);
        let outcome = quick().entries(1, |p| script.call(p)).await;
        assert!(
            matches!(
                outcome.entries[0],
                EntryResult::Done {
                    ambiguous_attempts: 0,
                    ..
                }
            ),
            "{:?}",
            outcome.entries
        );
    }

    #[tokio::test]
    async fn an_unconfirmed_entry_after_an_ambiguous_attempt_is_unknown_not_failed() {
        // Entry 0: a 500 (maybe applied), then a plain entry failure until the attempts run out.
        // Entry 1: only throttling and entry failures: definitely not done.
        let script = Script::new(vec![
            Err(server_error()),
            Ok(vec![entry_failure("InternalError", false), ok()]),
        ]);
        let mut policy = quick();
        policy.max_attempts = 2;
        let outcome = policy.entries(2, |p| script.call(p)).await;
        assert!(
            matches!(outcome.entries[0], EntryResult::Unknown { .. }),
            "{:?}",
            outcome.entries
        );
        assert!(outcome.entries[1].is_done());

        let script = Script::new(vec![
            Err(throttled()),
            Ok(vec![entry_failure("InternalError", false)]),
        ]);
        let outcome = policy.entries(1, |p| script.call(p)).await;
        assert!(
            matches!(outcome.entries[0], EntryResult::Failed { .. }),
            "{:?}",
            outcome.entries
        );
    }

    #[tokio::test]
    async fn missing_entries_and_abandoned_attempts_are_ambiguous() {
        let script = Script::new(vec![Ok(vec![EntryOutcome::Missing])]);
        let mut policy = quick();
        policy.max_attempts = 1;
        let outcome = policy.entries(1, |p| script.call(p)).await;
        assert!(matches!(outcome.entries[0], EntryResult::Unknown { .. }));

        policy.attempt_timeout = Duration::from_millis(20);
        let outcome = policy
            .entries(1, |_| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                Ok(vec![ok()])
            })
            .await;
        assert!(
            matches!(&outcome.entries[0], EntryResult::Unknown { code, .. } if code == "RequestTimeout")
        );
    }

    #[tokio::test]
    async fn a_final_request_error_stops_at_once_and_is_reported() {
        let script = Script::new(vec![Err(ClientError::Auth {
            code: "AccessDenied".into(),
            message: "no".into(),
        })]);
        let outcome = quick().entries(2, |p| script.call(p)).await;
        assert_eq!(script.asked().len(), 1);
        assert!(matches!(
            outcome.request_error,
            Some(ClientError::Auth { .. })
        ));
        assert!(
            outcome
                .entries
                .iter()
                .all(|e| matches!(e, EntryResult::Failed { .. }))
        );
    }

    /// On the real clock: a busy machine may wake the test late, so the bounds allow for that
    /// ([`SLACK`]); an unbounded call would instead run for the 10 s of its slow attempt, or
    /// forever without the deadline (the outer timeout fails it).
    #[tokio::test]
    async fn the_deadline_bounds_the_whole_call() {
        const SLACK: Duration = Duration::from_secs(2);
        let mut policy = quick();
        policy.deadline = Duration::from_millis(300);
        policy.max_attempts = u32::MAX;
        policy.first_backoff = Duration::from_millis(20);
        policy.max_backoff = Duration::from_millis(40);
        let started = Instant::now();
        let script = Script::new(Vec::new());
        let outcome = tokio::time::timeout(
            Duration::from_secs(10),
            policy.entries(3, |p| script.call(p)),
        )
        .await
        .expect("the deadline ends the retries");
        let took = started.elapsed();
        assert!(took <= policy.deadline + SLACK, "took {took:?}");
        assert!(script.asked().len() >= 2, "retried within the deadline");
        assert!(matches!(
            outcome.request_error,
            Some(ClientError::Throttled { .. })
        ));
        assert!(
            outcome
                .entries
                .iter()
                .all(|e| matches!(e, EntryResult::Failed { .. }))
        );

        // A slow attempt is cut off at the deadline too.
        let started = Instant::now();
        let outcome = policy
            .request(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                Ok::<_, ClientError>(())
            })
            .await;
        assert!(started.elapsed() <= policy.deadline + SLACK);
        assert!(outcome.result.is_err());
        assert_eq!(outcome.ambiguous, 1);
    }

    #[tokio::test]
    async fn single_requests_retry_transient_errors_and_count_ambiguous_ones() {
        let answers = Mutex::new(vec![Ok(7), Err(server_error()), Err(throttled())]);
        let outcome = quick()
            .request(|| async { answers.lock().unwrap().pop().unwrap() })
            .await;
        assert_eq!(outcome.result.unwrap(), 7);
        assert_eq!(outcome.ambiguous, 1);

        let calls = Mutex::new(0);
        let outcome = quick()
            .request(|| async {
                *calls.lock().unwrap() += 1;
                Err::<(), _>(ClientError::InvalidInput("bad".into()))
            })
            .await;
        assert!(outcome.result.is_err());
        assert_eq!(*calls.lock().unwrap(), 1, "a final error is not retried");
    }

    #[tokio::test]
    async fn no_retry_starts_after_ctrl_c() {
        let interrupt = Interrupt::default();
        interrupt.trigger();
        let script = Script::new(vec![Err(throttled()), Ok(vec![ok()])]);
        let outcome = quick()
            .stopped_by(interrupt)
            .entries(1, |p| script.call(p))
            .await;
        assert_eq!(script.asked().len(), 1);
        assert!(
            matches!(&outcome.entries[0], EntryResult::Failed { message, .. } if message.contains("interrupted"))
        );
    }

    #[test]
    fn errors_are_classified_by_what_the_server_may_have_done() {
        assert_eq!(classify(&throttled()), RequestFault::Retry);
        assert_eq!(classify(&server_error()), RequestFault::RetryAmbiguous);
        let refused = ClientError::Transport {
            action: "SendMessageBatch",
            message: "dispatch failure: tcp connect error: Connection refused (os error 111)"
                .into(),
        };
        assert_eq!(classify(&refused), RequestFault::Retry);
        let reset = ClientError::Transport {
            action: "SendMessageBatch",
            message: "dispatch failure: connection reset by peer".into(),
        };
        assert_eq!(classify(&reset), RequestFault::RetryAmbiguous);
        assert_eq!(classify(&ClientError::NoRegion), RequestFault::Final);
    }

    #[test]
    fn backoff_grows_within_its_cap() {
        let policy = RetryPolicy::default();
        for retry in 1..40 {
            let wait = policy.backoff(retry);
            assert!(wait <= policy.max_backoff, "{retry}: {wait:?}");
        }
        assert!(policy.backoff(1) <= policy.first_backoff);
    }
}
