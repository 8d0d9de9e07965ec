//! The dead-letter queue redrive engine: moves messages from a DLQ to a destination queue without
//! ever deleting a message that was not confirmed sent.
//!
//! A [`Plan`] says what moves where (selection, deduplication, delay, limits); [`run`] executes it
//! with bounded concurrency and an optional rate limit. Each worker receives a batch with a
//! visibility timeout long enough for its send (extended while the batch is slow), sends it, reads
//! every entry of the response, retries the entries that may still succeed, appends the outcome to
//! the [`journal`] (flushed to disk before any delete), writes the [`Archive`] copy (synced before
//! any delete), and then deletes only the confirmed entries with the receipt handles of that same
//! receive. Entries that cannot be sent stay in the DLQ and are reported. After Ctrl-C the batches
//! in flight may finish within the interrupt's grace period; past it they are abandoned and their
//! unanswered messages journaled as `unknown`. The engine knows nothing of terminals: callers
//! watch [`Counters`] for progress. [`preview`] says what a plan would move without moving it;
//! [`rewrite`] says what each message becomes before it is sent (`--transform`, `--unwrap`, a
//! replaced body); [`route`] finds and checks the queues of a plan, [`Plan::resumed`] and [`HeldWait`] what a resumed run goes on with,
//! [`journals`] describes the journals of a directory (and chooses those a clean-up removes), and
//! [`move_task`] drives SQS's own server-side redrive instead.

mod archive;
mod engine;
mod ids;
pub mod journal;
pub mod journals;
pub mod move_task;
mod plan;
mod preview;
pub mod rate;
mod resume;
pub mod rewrite;
pub mod route;
mod send;

pub use crate::select::{Selection, Selector, WhereFailures};
pub use archive::Archive;
pub use engine::{ADAPTIVE_CAP, Counters, FailedMessage, RunOptions, Summary, Workers, run};
pub use journal::{Journal, ResumeState};
pub use plan::{
    DEFAULT_CONCURRENCY, DEFAULT_VISIBILITY_TIMEOUT, DedupMode, DestinationAccess, MAX_CONCURRENCY,
    MAX_DELAY_SECONDS, MAX_VISIBILITY_TIMEOUT, NewPlan, Plan, PlanError, PlanOptions,
};
pub use preview::{
    Preview, PreviewError, PreviewOptions, PreviewedRewrite, RewritePreview, preview,
    preview_rewriting,
};
pub use rate::{RateLimiter, TokenBucket};
pub use resume::{HeldStatus, HeldWait, Pacing};
pub use rewrite::{Exec, Rewrite, RewriteError, RewriteFailure, Rewriter, Rewritten};
pub use route::{Route, RouteError, RouteRequest, SharedDlq, route, shared_dlq};

use crate::client::ClientError;
use crate::select::SelectionError;

#[derive(Debug, thiserror::Error)]
pub enum RedriveError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the journal {path} could not be written: {source}")]
    Journal {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the archive {path} could not be written: {source}")]
    Archive {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Selection(#[from] SelectionError),
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
    #[error("{0}")]
    Invalid(String),
}
