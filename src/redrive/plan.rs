//! What a redrive does, as data: written as the first line of the journal so that `--resume`
//! continues with exactly the settings of the interrupted run. Everything that shapes what moves
//! and how (queues, selection, limit, deduplication, delay, archive) is here; only pacing (`--rate`,
//! `--concurrency`) may change on resume. The plan also records what bounds the run: when it
//! started and how many messages it could move at most.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::select::Selection;
use crate::client::QueueRef;

/// Batches in flight at once by default. Each is held from its receive to its delete (three round
/// trips), so with ~20 ms per SQS round trip this moves about 5,000 messages per second, far below
/// SQS's limits; after a `kill -9` at most 320 messages can be sent twice.
pub const DEFAULT_CONCURRENCY: usize = 32;
/// Visibility timeout of each receive by default, in seconds (extended while a batch is slow).
pub const DEFAULT_VISIBILITY_TIMEOUT: i32 = 60;

/// How the MessageDeduplicationId of a message sent to a FIFO destination is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
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
    /// Batches in flight at once.
    pub concurrency: usize,
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
    /// The most messages the run is about: its depth at start, or `--limit` if lower. A resumed
    /// run moves at most this many less what the journal shows as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<u64>,
}

impl Plan {
    /// Checks the settings that do not depend on the queues' state.
    pub fn validate(&self) -> Result<(), String> {
        if self.concurrency == 0 {
            return Err("the concurrency must be at least 1".into());
        }
        if let Some(rate) = self.rate
            && !(rate.is_finite() && rate > 0.0)
        {
            return Err("the rate must be a positive number of messages per second".into());
        }
        if !(1..=43_200).contains(&self.visibility_timeout) {
            return Err("the visibility timeout must be 1 to 43200 seconds".into());
        }
        if self.fifo && self.delay_seconds.is_some_and(|d| d != 0) {
            return Err(
                "--delay is not available for FIFO queues (SQS accepts a per-message delay only on standard queues)"
                    .into(),
            );
        }
        if let Some(delay) = self.delay_seconds
            && !(0..=900).contains(&delay)
        {
            return Err(format!("the delay must be 0 to 900 seconds, not {delay}"));
        }
        if self.source.url == self.destination.url {
            return Err("the destination is the dead-letter queue itself".into());
        }
        Ok(())
    }
}
