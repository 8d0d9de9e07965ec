//! What a redrive does, as data: written as the first line of the journal so that `--resume`
//! continues with exactly the settings of the interrupted run. Everything that shapes what moves
//! and how (queues, selection, limit, deduplication, delay, archive) is here; only pacing (the rate
//! and the number of workers) may change on resume. The plan also records what bounds the run: when it
//! started and how many messages it could move at most.
//!
//! The engine checks its own settings: [`PlanOptions::validate`] before any queue is read,
//! [`Plan::validate`] once the queues are known; both answer with a [`PlanError`].

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::rewrite::Rewrite;
use super::route::Route;
use crate::client::QueueRef;
use crate::select::Selection;

/// Workers at the start of a run (and throughout, unless it adapts). Each worker holds at most one
/// batch whose sends are not yet journaled (and, beside it, one being deleted), so after a
/// `kill -9` at most ten messages per worker can be sent twice: 320 at this default.
pub const DEFAULT_CONCURRENCY: usize = super::engine::ADAPTIVE_START;
/// Visibility timeout of each receive by default, in seconds (extended while a batch is slow).
pub const DEFAULT_VISIBILITY_TIMEOUT: i32 = 60;
/// The most workers `--concurrency` accepts (an adaptive run stops at [`super::ADAPTIVE_CAP`]).
pub const MAX_CONCURRENCY: usize = 256;
/// The longest visibility timeout SQS accepts, in seconds (12 hours).
pub const MAX_VISIBILITY_TIMEOUT: i32 = crate::client::limits::MAX_VISIBILITY.as_secs() as i32;
/// The longest per-message delay SQS accepts, in seconds.
pub const MAX_DELAY_SECONDS: i32 = crate::client::limits::MAX_DELAY.as_secs() as i32;

/// A setting of a redrive that the engine refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("the concurrency must be 1 to {MAX_CONCURRENCY}, not {0}")]
    Concurrency(usize),
    #[error("the rate must be a positive number of messages per second, not {0}")]
    Rate(f64),
    /// A run that may move nothing is a mistake when asked for (a resumed plan may have 0 left).
    #[error("the limit must be at least 1")]
    ZeroLimit,
    #[error("the delay must be 0 to {MAX_DELAY_SECONDS} seconds, not {0}")]
    Delay(i32),
    #[error("the visibility timeout must be 1 to {MAX_VISIBILITY_TIMEOUT} seconds, not {0}")]
    VisibilityTimeout(i32),
    #[error(
        "a per-message delay is not available for FIFO queues (SQS accepts one only on standard queues)"
    )]
    DelayOnFifo,
    #[error("the destination is the dead-letter queue itself")]
    DestinationIsSource,
}

/// What a caller chooses for a run apart from the queues, checked before any queue is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanOptions {
    pub concurrency: usize,
    pub rate: Option<f64>,
    pub limit: Option<u64>,
    pub delay_seconds: Option<i32>,
    pub visibility_timeout: i32,
}

impl Default for PlanOptions {
    fn default() -> PlanOptions {
        PlanOptions {
            concurrency: DEFAULT_CONCURRENCY,
            rate: None,
            limit: None,
            delay_seconds: None,
            visibility_timeout: DEFAULT_VISIBILITY_TIMEOUT,
        }
    }
}

impl PlanOptions {
    /// Checks each setting against its range; the first one out of range is the error.
    pub fn validate(&self) -> Result<(), PlanError> {
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(PlanError::Concurrency(self.concurrency));
        }
        if let Some(rate) = self.rate
            && !(rate.is_finite() && rate > 0.0)
        {
            return Err(PlanError::Rate(rate));
        }
        if self.limit == Some(0) {
            return Err(PlanError::ZeroLimit);
        }
        if let Some(delay) = self.delay_seconds
            && !(0..=MAX_DELAY_SECONDS).contains(&delay)
        {
            return Err(PlanError::Delay(delay));
        }
        if !(1..=MAX_VISIBILITY_TIMEOUT).contains(&self.visibility_timeout) {
            return Err(PlanError::VisibilityTimeout(self.visibility_timeout));
        }
        Ok(())
    }
}

/// How the MessageDeduplicationId of a message sent to a FIFO destination is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DedupMode {
    /// The id the message had (SQS drops a re-send of an id it saw in the last 5 minutes).
    Keep,
    /// The DLQ message id: unique per message, and stable across retries and `--resume`.
    MessageId,
    /// A fresh id per message (stable across retries within one run, not across `--resume`).
    New,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// The dead-letter queue messages are taken from.
    pub source: QueueRef,
    pub destination: QueueRef,
    /// Both queues are FIFO (the engine refuses mixed types before a plan is made).
    pub fifo: bool,
    pub dedup: DedupMode,
    /// DelaySeconds for each sent message (standard destinations only).
    pub delay_seconds: Option<i32>,
    pub selection: Selection,
    /// Move at most this many messages.
    pub limit: Option<u64>,
    /// Messages per second.
    pub rate: Option<f64>,
    /// Workers: fixed, or where an adaptive run starts.
    pub concurrency: usize,
    /// The run chooses its number of workers as it goes (up to [`MAX_CONCURRENCY`]).
    #[serde(default)]
    pub adaptive: bool,
    /// Visibility timeout of each receive, in seconds; extended while a batch is slow.
    pub visibility_timeout: i32,
    /// Where a copy of each moved message goes (an absolute path), on resume too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<PathBuf>,
    /// When the run started (ms since the epoch, this machine's clock). A resumed run leaves in
    /// the DLQ the messages sent after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at_ms: Option<u64>,
    /// Messages in the DLQ (visible, in flight and delayed) when the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dlq_depth_at_start: Option<u64>,
    /// Send without deleting: the DLQ keeps its messages, and a message's `sent` line is final.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub copy: bool,
    /// How the destination is reached when not with the DLQ's own client and region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination_access: Option<DestinationAccess>,
    /// What each message becomes before it is sent; a resumed run applies the same.
    #[serde(default, skip_serializing_if = "Rewrite::is_none")]
    pub rewrite: Rewrite,
}

/// How a run reaches a destination in another region or account: its own region, and the profile
/// or endpoint that give it its own credentials. Recorded in the plan so that `--resume` reaches
/// the same queue; no credentials are part of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DestinationAccess {
    pub region: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint_url: Option<String>,
}

/// What a caller chooses for a new run apart from its queues.
#[derive(Debug, Clone)]
pub struct NewPlan {
    pub dedup: DedupMode,
    pub delay_seconds: Option<i32>,
    pub selection: Selection,
    pub limit: Option<u64>,
    pub rate: Option<f64>,
    /// A fixed number of workers; `None` adapts.
    pub concurrency: Option<usize>,
    pub visibility_timeout: i32,
    /// An absolute path, so that a resumed run writes to the same file from any directory.
    pub archive: Option<PathBuf>,
    /// Send without deleting (see [`Plan::copy`]).
    pub copy: bool,
    /// See [`Plan::destination_access`].
    pub destination_access: Option<DestinationAccess>,
    /// What each message becomes before it is sent ([`Rewrite::default`]: unchanged).
    pub rewrite: Rewrite,
}

impl Plan {
    /// The plan of a new run along `route`, started at `started_at_ms`, with the DLQ's depth now.
    /// Checked as [`Plan::validate`] checks.
    pub fn new_run(route: &Route, new: NewPlan, started_at_ms: u64) -> Result<Plan, PlanError> {
        let depth = route.dlq_attrs.total();
        let (concurrency, adaptive) = Plan::workers(new.concurrency);
        let plan = Plan {
            source: route.dlq.clone(),
            destination: route.destination.clone(),
            fifo: route.dlq_attrs.is_fifo(),
            dedup: new.dedup,
            delay_seconds: new.delay_seconds,
            selection: new.selection,
            limit: new.limit,
            rate: new.rate,
            concurrency,
            adaptive,
            visibility_timeout: new.visibility_timeout,
            archive: new.archive,
            started_at_ms: Some(started_at_ms),
            dlq_depth_at_start: Some(depth),
            copy: new.copy,
            destination_access: new.destination_access,
            rewrite: new.rewrite,
        };
        plan.validate()?;
        Ok(plan)
    }

    /// The workers of a new run: `concurrency` fixed, or (`None`) a run that adapts, starting at
    /// [`DEFAULT_CONCURRENCY`]. Returns the workers and whether the run adapts.
    pub fn workers(concurrency: Option<usize>) -> (usize, bool) {
        concurrency.map_or((DEFAULT_CONCURRENCY, true), |fixed| (fixed, false))
    }

    /// The settings of the plan that do not depend on the queues.
    pub fn options(&self) -> PlanOptions {
        PlanOptions {
            concurrency: self.concurrency,
            rate: self.rate,
            limit: self.limit,
            delay_seconds: self.delay_seconds,
            visibility_timeout: self.visibility_timeout,
        }
    }

    /// Checks the settings (as [`PlanOptions::validate`], except that a resumed plan may have no
    /// message left to move) and that they fit the queues.
    pub fn validate(&self) -> Result<(), PlanError> {
        PlanOptions {
            limit: None,
            ..self.options()
        }
        .validate()?;
        if self.fifo && self.delay_seconds.is_some_and(|d| d != 0) {
            return Err(PlanError::DelayOnFifo);
        }
        if self.source.url == self.destination.url {
            return Err(PlanError::DestinationIsSource);
        }
        Ok(())
    }
}

/// A plan for unit tests: `dlq` to `work` on a local endpoint, nothing chosen, 4 fixed workers;
/// each test sets what it is about with `..Plan::sample()`.
#[cfg(test)]
impl Plan {
    pub(crate) fn sample() -> Plan {
        Plan {
            source: QueueRef::from_url("http://localhost/000000000000/dlq".to_string()),
            destination: QueueRef::from_url("http://localhost/000000000000/work".to_string()),
            fifo: false,
            dedup: DedupMode::MessageId,
            delay_seconds: None,
            selection: Selection::default(),
            limit: None,
            rate: None,
            concurrency: 4,
            adaptive: false,
            visibility_timeout: DEFAULT_VISIBILITY_TIMEOUT,
            archive: None,
            started_at_ms: None,
            dlq_depth_at_start: None,
            copy: false,
            destination_access: None,
            rewrite: Rewrite::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_out_of_range_are_refused_first_to_last() {
        assert_eq!(PlanOptions::default().validate(), Ok(()));
        let bad = PlanOptions {
            concurrency: 0,
            rate: Some(0.0),
            limit: Some(0),
            delay_seconds: Some(901),
            visibility_timeout: 0,
        };
        assert_eq!(bad.validate(), Err(PlanError::Concurrency(0)));
        let bad = PlanOptions {
            concurrency: MAX_CONCURRENCY,
            ..bad
        };
        assert_eq!(bad.validate(), Err(PlanError::Rate(0.0)));
        let bad = PlanOptions {
            rate: Some(f64::INFINITY),
            ..bad
        };
        assert!(matches!(bad.validate(), Err(PlanError::Rate(_))));
        let bad = PlanOptions {
            rate: Some(0.5),
            ..bad
        };
        assert_eq!(bad.validate(), Err(PlanError::ZeroLimit));
        let bad = PlanOptions {
            limit: Some(1),
            ..bad
        };
        assert_eq!(bad.validate(), Err(PlanError::Delay(901)));
        let bad = PlanOptions {
            delay_seconds: Some(MAX_DELAY_SECONDS),
            ..bad
        };
        assert_eq!(bad.validate(), Err(PlanError::VisibilityTimeout(0)));
        let good = PlanOptions {
            visibility_timeout: MAX_VISIBILITY_TIMEOUT,
            ..bad
        };
        assert_eq!(good.validate(), Ok(()));
        let over = PlanOptions {
            concurrency: MAX_CONCURRENCY + 1,
            ..good
        };
        assert_eq!(
            over.validate(),
            Err(PlanError::Concurrency(MAX_CONCURRENCY + 1))
        );
    }

    fn plan(fifo: bool, delay_seconds: Option<i32>, limit: Option<u64>) -> Plan {
        Plan {
            fifo,
            delay_seconds,
            limit,
            concurrency: DEFAULT_CONCURRENCY,
            ..Plan::sample()
        }
    }

    #[test]
    fn a_plan_checks_its_queues_and_accepts_nothing_left_to_move() {
        assert_eq!(plan(false, Some(5), Some(0)).validate(), Ok(()));
        assert_eq!(
            plan(true, Some(5), None).validate(),
            Err(PlanError::DelayOnFifo)
        );
        let mut same = plan(false, None, None);
        same.destination = same.source.clone();
        assert_eq!(same.validate(), Err(PlanError::DestinationIsSource));
    }
}
