//! What a run of the worker tells: [`Update`]s as it goes (a command's output, each message's
//! [`Outcome`], the [`Counts`]), and a [`Summary`] when it ends, with what stopped it early
//! ([`Stopped`]) and where the queue's redrive policy sends a message that keeps failing
//! ([`DeadLetter`]).

use std::io;
use std::time::Duration;

use serde::Serialize;

use super::child::{Ending, Stream};
use crate::client::ClientError;
use crate::select::WhereFailures;

/// The run's counts.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Counts {
    /// Command exited 0 and SQS confirmed the delete.
    pub deleted: u64,
    /// Command failed (exit code, signal, timeout): released after the retry delay.
    pub failed: u64,
    /// Command exited with one of the codes that release at once.
    pub released: u64,
    /// Command exited 0 but the delete was not confirmed.
    pub not_deleted: u64,
    /// Command stopped by Ctrl-C (or never started): released at once.
    pub stopped: u64,
    /// Received and released without running (Ctrl-C, the limit, a failure ahead in a FIFO group).
    pub returned: u64,
    /// Received and left out by the selection.
    pub skipped: u64,
    /// Deliveries of a message the run held or had just deleted (a standard queue delivers at
    /// least once): a copy of one deleted already is deleted without running.
    pub duplicates: u64,
    /// Releases SQS did not confirm (the message comes back after its visibility timeout).
    #[serde(skip)]
    pub release_failed: u64,
    /// The messages of the failed runs, each counted once: fewer than `failed` when a message
    /// failed twice (retried, or delivered twice by SQS).
    #[serde(skip)]
    pub failed_messages: u64,
    /// Of the messages of the failed runs: those released after their last receive (their receive
    /// count reached the queue's maxReceiveCount), which SQS moves to the dead-letter queue instead
    /// of delivering them again.
    pub at_last_receive: u64,
}

impl Counts {
    /// Messages whose command ran to an end.
    pub fn finished(&self) -> u64 {
        self.deleted + self.failed + self.released + self.not_deleted
    }
}

/// The queue's redrive policy, as a run reports it.
#[derive(Debug, Clone)]
pub struct DeadLetter {
    /// The dead-letter queue's name.
    pub queue: String,
    pub max_receive_count: u64,
}

/// Where one message's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The command exited 0 and SQS confirmed the delete.
    Deleted,
    /// The command exited 0 and the delete was not confirmed.
    NotDeleted,
    /// The command failed: released after the retry delay.
    Failed,
    /// The command exited with a code that releases at once.
    Released,
    /// Ctrl-C (or the signal that stops the run) ended the command, or it never started.
    Stopped,
}

/// One message's outcome (the `result` record).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub message_id: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// How long the command ran, to the millisecond.
    pub seconds: f64,
    pub receive_count: u64,
    /// Seconds until a failed message is delivered again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_in: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Outcome {
    pub fn new(
        message_id: String,
        ending: Option<&Ending>,
        deleted: bool,
        took: Duration,
        receive_count: u64,
        retry_in: Option<u64>,
        error: Option<String>,
    ) -> Outcome {
        use Status::*;
        let (status, exit_code, signal, timed_out, error) = match ending {
            Some(Ending::Exited(0)) if deleted => (Deleted, Some(0), None, false, error),
            Some(Ending::Exited(0)) => (NotDeleted, Some(0), None, false, error),
            Some(Ending::Exited(code)) if retry_in.is_none() => {
                (Released, Some(*code), None, false, error)
            }
            Some(Ending::Exited(code)) => (Failed, Some(*code), None, false, error),
            // Ended by the signal that stops the run: released at once, without a retry delay.
            Some(Ending::Signaled(signal)) if retry_in.is_none() => {
                (Stopped, None, Some(*signal), false, error)
            }
            Some(Ending::Signaled(signal)) => (Failed, None, Some(*signal), false, error),
            Some(Ending::TimedOut) => (Failed, None, None, true, error),
            Some(Ending::NotStarted(why)) => (Stopped, None, None, false, Some(why.clone())),
            Some(Ending::Killed) | None => (Stopped, None, None, false, error),
        };
        Outcome {
            message_id,
            status,
            exit_code,
            signal,
            timed_out,
            seconds: (took.as_secs_f64() * 1000.0).round() / 1000.0,
            receive_count,
            retry_in,
            error,
        }
    }
}

/// What a run tells its caller as it goes.
#[derive(Debug)]
pub enum Update<'a> {
    /// A line of a command's output, bytes as written.
    Output {
        message_id: &'a str,
        stream: Stream,
        line: &'a [u8],
    },
    /// A message's outcome, once its delete or release was answered.
    Outcome(&'a Outcome),
    /// The counts after a turn of the loop.
    Progress { counts: &'a Counts, running: usize },
    /// The first Ctrl-C: `waiting` messages not started were released, `running` commands may
    /// finish within the grace period.
    Stopping { waiting: usize, running: usize },
}

/// What ended a run early.
#[derive(Debug, thiserror::Error)]
pub enum Stopped {
    #[error("could not receive from the queue")]
    Receive(#[source] ClientError),
    /// The command could not be started; the messages it held were released.
    #[error("could not start the command: {0}")]
    NotStarted(String),
}

/// How a run ended.
#[derive(Debug)]
pub struct Summary {
    pub counts: Counts,
    /// Ctrl-C (or SIGTERM, SIGHUP) stopped it.
    pub interrupted: bool,
    /// How many times a held message's visibility timeout lapsed before the heartbeat extended it
    /// (SQS may have delivered it to another consumer).
    pub lapsed: u64,
    /// Messages the selection's expression could not be evaluated on.
    pub where_failures: Option<WhereFailures>,
    /// The first error the caller returned for an update; the run stopped there.
    pub write_error: Option<io::Error>,
    pub stopped: Option<Stopped>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(ending: Option<Ending>, deleted: bool, retry_in: Option<u64>) -> Status {
        let took = Duration::from_millis(1234);
        Outcome::new(
            "id".into(),
            ending.as_ref(),
            deleted,
            took,
            1,
            retry_in,
            None,
        )
        .status
    }

    #[test]
    fn an_outcome_says_where_the_message_went() {
        assert_eq!(status(Some(Ending::Exited(0)), true, None), Status::Deleted);
        assert_eq!(
            status(Some(Ending::Exited(0)), false, None),
            Status::NotDeleted
        );
        assert_eq!(
            status(Some(Ending::Exited(75)), false, None),
            Status::Released
        );
        assert_eq!(
            status(Some(Ending::Exited(1)), false, Some(10)),
            Status::Failed
        );
        assert_eq!(
            status(Some(Ending::Signaled(15)), false, None),
            Status::Stopped
        );
        assert_eq!(
            status(Some(Ending::Signaled(9)), false, Some(10)),
            Status::Failed
        );
        assert_eq!(
            status(Some(Ending::TimedOut), false, Some(10)),
            Status::Failed
        );
        assert_eq!(status(Some(Ending::Killed), false, None), Status::Stopped);
        assert_eq!(status(None, false, None), Status::Stopped);
    }

    #[test]
    fn the_result_record_names_its_status_and_leaves_out_what_does_not_apply() {
        let ending = Ending::NotStarted("no such file".into());
        let outcome = Outcome::new(
            "m-1".into(),
            Some(&ending),
            false,
            Duration::from_micros(1_234_567),
            2,
            None,
            None,
        );
        let json = serde_json::to_value(&outcome).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({
                "message_id": "m-1",
                "status": "stopped",
                "timed_out": false,
                "seconds": 1.235,
                "receive_count": 2,
                "error": "no such file",
            })
        );
    }
}
