//! What a run reports: live [`Counters`] while it runs, a [`Summary`] when it ends, and the
//! [`FailedMessage`]s left in the DLQ.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// Live counts, for progress bars and the summary.
#[derive(Debug, Default)]
pub struct Counters {
    /// Messages received from the DLQ (a message seen twice counts twice).
    pub received: AtomicU64,
    /// Messages that matched the selection and were sent or tried.
    pub selected: AtomicU64,
    /// Sent and deleted from the DLQ.
    pub moved: AtomicU64,
    /// Not matching the selection: left in the DLQ.
    pub skipped: AtomicU64,
    /// Could not be sent: left in the DLQ.
    pub failed: AtomicU64,
    /// Of the failed, those the rewrite refused (counted in `failed` too).
    pub rewrite_failed: AtomicU64,
    /// Of the failed, those a resumed run rewrote differently from the journal's digest.
    pub changed_since_journal: AtomicU64,
    /// Sent, but the DLQ copy could not be deleted.
    pub delete_failed: AtomicU64,
    /// Sent by an earlier run (per the journal) and deleted now, without sending again.
    pub completed_from_journal: AtomicU64,
    /// Not part of the run: sent after a resumed run's start, or moved by this run and back in
    /// the DLQ since. Left in the DLQ.
    pub arrived_later: AtomicU64,
    /// Deliveries of a message the run had already taken on (SQS delivers at least once): never
    /// sent again, and not counted in `moved` (`received` counts every delivery).
    pub delivered_twice: AtomicU64,
    /// Abandoned when the grace period after Ctrl-C ran out before their send was answered: they
    /// may or may not have been sent.
    pub outcome_unknown: AtomicU64,
    /// Entries sent or deleted again after SQS failed them, one by one or as a whole request.
    pub retries: AtomicU64,
    /// Copies this run may have put in a standard destination besides one of each message: sends
    /// confirmed after an attempt SQS may have applied, sends of unknown outcome left in the DLQ
    /// (a later run sends them again), messages whose hold may have lapsed (an extension SQS did
    /// not confirm, or came too late: another reader may have taken and sent them), and, resumed,
    /// the earlier runs' sends of unknown outcome it sends again. An upper bound; 0 on a FIFO destination, which drops a re-send with the
    /// same deduplication id within 5 minutes.
    pub possible_duplicates: AtomicU64,
    /// Workers the run uses now (a gauge, not a count: an adaptive run changes it).
    pub workers: AtomicU64,
    /// While the end of the run waits for messages a lost receive hid: until when (ms since the
    /// epoch); 0 otherwise.
    pub waiting_until_ms: AtomicU64,
}

impl Counters {
    pub(super) fn add(counter: &AtomicU64, n: usize) {
        counter.fetch_add(n as u64, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// A message left in the DLQ, and why.
#[derive(Debug, Clone, Serialize)]
pub struct FailedMessage {
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    pub reason: String,
}

/// How many workers a run used.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Workers {
    /// Chosen by the run as it went (no `--concurrency`).
    pub adaptive: bool,
    /// The most at once.
    pub most: usize,
    /// At the end of the run.
    pub at_end: usize,
    /// Why an adaptive run stopped adding workers (said by `-v`).
    #[serde(skip)]
    pub settled: Option<super::adaptive::Settled>,
}

impl Workers {
    /// Why an adaptive run stopped adding workers, for `-v` (`None` for a fixed count).
    pub fn why_settled(&self) -> Option<String> {
        if !self.adaptive {
            return None;
        }
        Some(match self.settled {
            Some(settled) => format!("it stopped adding workers because {settled}"),
            None if self.most > super::adaptive::START => {
                "it was still adding workers when the run ended".into()
            }
            None => "the run ended before more workers could be measured".into(),
        })
    }
}

impl std::fmt::Display for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.adaptive {
            write!(
                f,
                "{} (adaptive: started at {}, at most {})",
                self.at_end,
                super::adaptive::START,
                self.most
            )
        } else {
            write!(f, "{}", self.at_end)
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub source: String,
    pub destination: String,
    pub selected: u64,
    pub moved: u64,
    pub skipped: u64,
    pub failed: u64,
    pub delete_failed: u64,
    pub completed_from_journal: u64,
    /// Left in the DLQ as not part of the run (see [`Counters::arrived_later`]).
    pub arrived_later: u64,
    /// Second deliveries of messages the run had taken on (see [`Counters::delivered_twice`]).
    pub delivered_twice: u64,
    /// Abandoned with their send unanswered when the grace period after Ctrl-C ran out.
    pub outcome_unknown: u64,
    pub retries: u64,
    /// See [`Counters::possible_duplicates`].
    pub possible_duplicates: u64,
    /// Messages visible in the DLQ at the end.
    pub left_visible: u64,
    /// Messages in flight in the DLQ at the end (held by another consumer, or by a receive whose
    /// answer was lost); they become visible when their visibility timeout ends.
    pub left_in_flight: u64,
    /// Messages SQS's counts still showed visible at the end beyond those the run knowingly left
    /// (not matching, failed, arrived later), after a last pass of long polls that found more:
    /// the DLQ may still hold messages of the selection. 0 when the pass found none (the counts
    /// lagged).
    pub maybe_left: u64,
    /// Receives that may have hidden messages without returning them: attempts whose answer was
    /// lost, and receives given up at Ctrl-C (this run's and, resumed, the earlier runs' of its
    /// journal).
    pub lost_receives: u64,
    /// When the messages those receives may have hidden are visible again (ms since the epoch),
    /// when that is after the run's last long polls: the run did not see them. `--resume` waits
    /// for them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_until_ms: Option<u64>,
    /// Held messages that could not be made visible again (they come back by themselves).
    pub release_failed: u64,
    pub limit_reached: bool,
    /// A copy stopped taking messages because the DLQ held its limit of messages in flight (SQS:
    /// about 120,000), most of them the copy's own: it holds every message it copied until it
    /// ends. `maybe_left` says about how many it could not reach.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_flight_limit: bool,
    pub interrupted: bool,
    pub seconds: f64,
    pub messages_per_second: f64,
    pub workers: Workers,
    /// The first failures (every one is in the journal).
    pub failures: Vec<FailedMessage>,
    /// Ids named with `--message-id` that were not seen in the DLQ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
    /// Set when the run stopped on an error (the summary still says what was done).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the rewrite did (present only when the run rewrites messages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rewrite: Option<crate::redrive::rewrite::RewriteSummary>,
    /// Messages `--where` could not be evaluated on: counted in `skipped`, left in the DLQ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub where_failed: Option<crate::redrive::WhereFailures>,
    /// Messages in the DLQ when the run (the first of its journal) started, as SQS's
    /// approximate count said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dlq_depth_at_start: Option<u64>,
    /// Moved by earlier runs of the same journal (a resumed run; 0 otherwise).
    pub moved_before: u64,
    /// The run copied: `moved` counts messages sent and left in the DLQ.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copy: bool,
}

impl Summary {
    /// The part of the DLQ this run moved, when others (consumers, other redrive processes) took
    /// the rest: the DLQ is empty and this run left nothing behind, yet moved fewer messages than
    /// the DLQ held at the start. `None` otherwise.
    pub fn share(&self) -> Option<(u64, u64)> {
        let depth = self.dlq_depth_at_start?;
        let moved = self.moved_by_journal();
        let emptied = self.left_visible == 0 && self.left_in_flight == 0;
        let alone = self.skipped == 0 && self.failed == 0 && self.arrived_later == 0;
        (emptied && alone && !self.limit_reached && moved < depth).then_some((moved, depth))
    }

    /// Moved by every run of the journal together: earlier runs, and this one (sent now, or sent
    /// earlier and deleted now).
    pub fn moved_by_journal(&self) -> u64 {
        self.moved_before + self.moved + self.completed_from_journal
    }

    /// Whether the DLQ's count at the start read fewer messages than this run alone found there:
    /// SQS's counts lagged, and the share of the DLQ this run moved is not known.
    pub fn depth_lagged(&self) -> bool {
        let found = self.moved_by_journal() + self.skipped + self.failed + self.delete_failed;
        self.dlq_depth_at_start.is_some_and(|depth| found > depth)
    }

    /// True when every selected message reached the destination and left the DLQ, as far as
    /// the run could see: no message may still be hidden by a lost receive, and SQS's counts do
    /// not show more left than a last pass of long polls could explain.
    pub fn complete(&self) -> bool {
        self.failed == 0
            && self.delete_failed == 0
            && self.outcome_unknown == 0
            && self.not_found.is_empty()
            && self.error.is_none()
            && !self.interrupted
            && (self.limit_reached
                || (self.left_in_flight == 0
                    && self.maybe_left == 0
                    && self.hidden_until_ms.is_none()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_told_only_when_others_emptied_the_rest_of_the_dlq() {
        let shared = Summary {
            moved: 2_040,
            dlq_depth_at_start: Some(6_000),
            ..Summary::default()
        };
        assert_eq!(shared.share(), Some((2_040, 6_000)));
        let alone = Summary {
            moved: 6_000,
            ..shared.clone()
        };
        assert_eq!(alone.share(), None, "it moved everything");
        let left = Summary {
            left_visible: 10,
            ..shared.clone()
        };
        assert_eq!(left.share(), None, "the DLQ is not empty");
        let skipped = Summary {
            skipped: 3,
            ..shared.clone()
        };
        assert_eq!(skipped.share(), None, "the rest did not match");
        let limited = Summary {
            limit_reached: true,
            ..shared
        };
        assert_eq!(limited.share(), None, "a limit stopped it");
    }
}
