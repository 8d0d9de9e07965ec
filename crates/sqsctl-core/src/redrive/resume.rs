//! Completing an interrupted run from its journal: the plan it goes on with (the run's own, with
//! new pacing and what is left of its bound) and the wait for the messages the interrupted run left
//! hidden in the DLQ, so that the resumed run sees them all.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::journal::ResumeState;
use super::plan::Plan;
use crate::client::{ClientError, QueueAttributes, Sqs};
use crate::interrupt::Interrupt;

/// Time past a journaled deadline that a message may take to show again: a server's clock, or
/// its lag in bringing a message back (LocalStack's is up to about a second).
const DEADLINE_SLACK: Duration = Duration::from_secs(2);

/// What may change on resume: the pacing. `None` keeps what the run had.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pacing {
    pub rate: Option<f64>,
    /// A fixed number of workers (`None`: as the run had, fixed or adapting).
    pub concurrency: Option<usize>,
}

impl Plan {
    /// The plan a resumed run goes on with: this one (what moves and how may not change), paced
    /// by `pacing`, its limit (if any) less what the journal (`state`) shows as sent. Without a
    /// limit it ends, as a new run does, when a long poll finds the DLQ empty: the DLQ's depth at
    /// the start is no bound, since SQS's count lags and could stop the resume with messages of
    /// the run left behind; messages that arrived after the start are left by their
    /// `SentTimestamp` instead.
    pub fn resumed(self, state: &ResumeState, pacing: Pacing) -> Plan {
        let (concurrency, adaptive) = match pacing.concurrency {
            Some(_) => Plan::workers(pacing.concurrency),
            None => (self.concurrency, self.adaptive),
        };
        Plan {
            rate: pacing.rate.or(self.rate),
            concurrency,
            adaptive,
            limit: self
                .limit
                .map(|limit| limit.saturating_sub(state.sent.len() as u64)),
            ..self
        }
    }
}

/// The wait for the messages an interrupted run held: after a crash or a second Ctrl-C they stay
/// hidden until their visibility timeout ends, and the journal says until when. A journal that does
/// not say (from an older version) gets a whole visibility timeout, ended early when the DLQ has
/// nothing in flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldWait {
    /// Messages the interrupted run held.
    pub held: u64,
    /// When they are all visible again at the latest (with some slack).
    pub until: SystemTime,
    /// How long that is from now, in whole seconds.
    pub wait: Duration,
    /// The journal gave the deadline.
    deadline_known: bool,
    /// Receives of the interrupted run whose answer was lost: the messages they may have hidden
    /// are waited for too.
    pub lost_receives: u64,
}

/// What a wait reports as it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldStatus {
    pub left: Duration,
    /// Messages in flight in the DLQ now.
    pub in_flight: u64,
}

impl HeldWait {
    /// The wait before resuming `plan` from `state` at `now`, with the DLQ's attributes
    /// `dlq_attrs`: `None` when the interrupted run held nothing or the deadline has passed, and,
    /// for a journal that gives no deadline, when nothing is in flight. SQS's in-flight count is
    /// approximate and lags (it can read 0 while the interrupted run's messages are still
    /// hidden), so a deadline from the journal is always waited out.
    pub fn needed(
        plan: &Plan,
        state: &ResumeState,
        dlq_attrs: &QueueAttributes,
        now: SystemTime,
    ) -> Option<HeldWait> {
        let lost_until = state.lost_until_ms.filter(|_| state.lost_receives > 0);
        if (state.held == 0 && lost_until.is_none())
            || (state.held_until_ms.is_none() && lost_until.is_none() && dlq_attrs.in_flight() == 0)
        {
            return None;
        }
        let timeout = Duration::from_secs(u64::try_from(plan.visibility_timeout).unwrap_or(0));
        let held_until = match state.held_until_ms {
            Some(ms) => Some(UNIX_EPOCH + Duration::from_millis(ms)),
            None if state.held > 0 => Some(now + timeout),
            None => None,
        };
        let lost_until = lost_until.map(|ms| UNIX_EPOCH + Duration::from_millis(ms));
        let until = held_until.max(lost_until)? + DEADLINE_SLACK;
        let wait = until.duration_since(now).ok()?;
        Some(HeldWait {
            held: state.held,
            until,
            wait: Duration::from_secs(wait.as_secs_f64().ceil() as u64),
            // A lost receive may have hidden nothing: its deadline is a bound, not a promise, and
            // the wait ends early when the DLQ has nothing in flight. (If the counts lag, the
            // resumed run still knows the deadline, and does not call itself complete before it.)
            deadline_known: state.held > 0 && state.held_until_ms.is_some(),
            lost_receives: if lost_until.is_some() {
                state.lost_receives
            } else {
                0
            },
        })
    }

    /// Waits, reading the DLQ (`plan`'s source) about twice a second and telling `status`; Ctrl-C
    /// (`interrupt`) ends the wait early. Returns false when it was interrupted.
    pub async fn wait(
        &self,
        sqs: &Sqs,
        plan: &Plan,
        interrupt: &Interrupt,
        mut status: impl FnMut(HeldStatus),
    ) -> Result<bool, ClientError> {
        let deadline = tokio::time::Instant::now() + self.wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Ok(true);
            }
            let in_flight = sqs.attributes(&plan.source).await?.in_flight();
            if in_flight == 0 && !self.deadline_known {
                return Ok(true);
            }
            status(HeldStatus { left, in_flight });
            tokio::select! {
                () = tokio::time::sleep(left.min(Duration::from_millis(500))) => {}
                () = interrupt.wait() => return Ok(false),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redrive::DEFAULT_CONCURRENCY;

    fn plan(limit: Option<u64>) -> Plan {
        Plan {
            limit,
            rate: Some(5.0),
            visibility_timeout: 30,
            started_at_ms: Some(1_000),
            dlq_depth_at_start: Some(7),
            ..Plan::sample()
        }
    }

    fn sent(ids: &[&str]) -> ResumeState {
        let mut state = ResumeState::default();
        for id in ids {
            state.sent.insert(id);
        }
        state
    }

    #[test]
    fn a_resumed_plan_keeps_its_limit_less_what_was_sent_and_takes_new_pacing() {
        let two_sent = sent(&["a", "b"]);
        let same = plan(Some(10)).resumed(&two_sent, Pacing::default());
        assert_eq!(
            (same.limit, same.rate, same.concurrency, same.adaptive),
            (Some(8), Some(5.0), 4, false)
        );
        let paced = plan(Some(10)).resumed(
            &two_sent,
            Pacing {
                rate: Some(1.0),
                concurrency: Some(2),
            },
        );
        assert_eq!(
            (paced.limit, paced.rate, paced.concurrency),
            (Some(8), Some(1.0), 2)
        );
        assert_eq!(
            plan(Some(1)).resumed(&two_sent, Pacing::default()).limit,
            Some(0)
        );
        assert_eq!(
            Plan::workers(None),
            (DEFAULT_CONCURRENCY, true),
            "a new run without a concurrency adapts"
        );
    }

    #[test]
    fn a_resumed_plan_without_a_limit_is_not_bounded_by_the_lagging_depth_at_start() {
        let resumed = plan(None).resumed(&sent(&["a", "b"]), Pacing::default());
        assert_eq!(
            resumed.limit, None,
            "it ends when a long poll finds the DLQ empty"
        );
        assert_eq!(
            resumed.started_at_ms,
            Some(1_000),
            "later arrivals are still left"
        );
    }

    #[test]
    fn a_resume_waits_for_held_messages_until_their_deadline_whatever_the_lagging_count() {
        let in_flight = |n: u64| {
            QueueAttributes(
                [(
                    "ApproximateNumberOfMessagesNotVisible".to_string(),
                    n.to_string(),
                )]
                .into(),
            )
        };
        let now = UNIX_EPOCH + Duration::from_secs(1_000);
        let plan = plan(None);
        let nothing_held = ResumeState::default();
        assert_eq!(
            HeldWait::needed(&plan, &nothing_held, &in_flight(3), now),
            None
        );
        let held = ResumeState {
            held: 2,
            held_until_ms: Some(1_010_500),
            ..ResumeState::default()
        };
        // SQS's in-flight count lags: 0 does not mean the held messages are visible again.
        assert_eq!(
            HeldWait::needed(&plan, &held, &in_flight(0), now).map(|w| w.wait),
            Some(Duration::from_secs(13))
        );
        let wait = HeldWait::needed(&plan, &held, &in_flight(3), now).expect("a wait");
        assert_eq!(wait.held, 2);
        assert_eq!(
            wait.wait,
            Duration::from_secs(13),
            "10.5 s and the slack, rounded up"
        );
        let later = now + Duration::from_secs(20);
        assert_eq!(HeldWait::needed(&plan, &held, &in_flight(3), later), None);
        let unknown = ResumeState {
            held: 1,
            ..ResumeState::default()
        };
        // Without a deadline (an older journal) nothing in flight is taken at its word.
        assert_eq!(HeldWait::needed(&plan, &unknown, &in_flight(0), now), None);
        let wait = HeldWait::needed(&plan, &unknown, &in_flight(1), now).expect("a wait");
        assert_eq!(
            wait.wait,
            Duration::from_secs(32),
            "a whole visibility timeout"
        );
    }
}
