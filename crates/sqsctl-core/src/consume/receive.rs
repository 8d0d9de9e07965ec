//! How the run loop receives: one receive at a time, asking for as many messages as the scheduler
//! has room for (within the limit), and each message received either held to run, or released at
//! once (left out by the selection, beyond the limit, or arrived while the run stops).

use std::io;

use tokio::time::Instant;

use super::outcome::Update;
use super::settle::Settle;
use super::worker::{Event, Worker};
use crate::client::{ReceiveOptions, SystemAttributes};
use crate::consume::Delivery;
use crate::message::MessageRecord;

/// The longest wait, in seconds, of a receive sent while the run holds messages: a stop waits for
/// the receive in flight before it releases them (a receive answered after they were released
/// could take them back, hidden for its visibility timeout), so this bounds how long a stop takes.
const HOLDING_WAIT: i32 = 2;

impl<F: FnMut(Update<'_>) -> io::Result<()>> Worker<F> {
    /// Starts a receive when there is room for more messages and none is in flight.
    pub(super) fn receive_more(&mut self) {
        if self.stop_receiving || self.receiving.is_some() {
            return;
        }
        let mut want = self.scheduler.room().min(10) as u64;
        if let Some(max) = self.plan.max {
            let left = max.saturating_sub(self.taken);
            if left == 0 {
                self.stop_receiving = true;
                return;
            }
            want = want.min(left);
        }
        if want == 0 {
            return;
        }
        // A receive waits at most as long as the idle limit, so an idle run notices it promptly,
        // and at most HOLDING_WAIT while the run holds messages, so that a stop, which waits for
        // it before releasing them, stays prompt.
        let mut wait = match self.plan.idle_exit {
            Some(idle) => {
                let idle_secs = i32::try_from(idle.as_secs()).unwrap_or(i32::MAX);
                self.plan.wait_seconds.min(idle_secs.max(1))
            }
            None => self.plan.wait_seconds,
        };
        if !self.holdings.is_empty() {
            wait = wait.min(HOLDING_WAIT);
        }
        let options = ReceiveOptions {
            max_messages: want as i32,
            wait_seconds: Some(wait),
            visibility_timeout: Some(self.holdings.visibility_seconds()),
        };
        let (sqs, queue, events) = self.calls();
        let policy = self.receive_policy.clone();
        self.receiving = Some(tokio::spawn(async move {
            let requested_at = Instant::now();
            let outcome = sqs
                .receive_retrying(&queue, options, SystemAttributes::All, &policy)
                .await;
            let _ = events
                .send(Event::Received {
                    requested_at,
                    result: outcome.result,
                })
                .await;
        }));
    }

    pub(super) fn received(&mut self, batch: Vec<MessageRecord>, requested_at: Instant) {
        let now = Instant::now();
        if batch.is_empty() {
            self.check_idle(now);
            return;
        }
        for message in batch {
            let Some(handle) = message.receipt_handle.clone() else {
                continue;
            };
            let id = message.message_id.clone().unwrap_or_default();
            match self.deliveries.delivered(&id, now) {
                Delivery::New => {}
                Delivery::WhileHeld => self.counts.duplicates += 1,
                Delivery::AfterDelete => {
                    self.counts.duplicates += 1;
                    self.to_settle.push(Settle::delete_unheld(handle));
                    continue;
                }
            }
            if self.stop_receiving || self.interrupted {
                self.counts.returned += 1;
                self.to_settle.push(Settle::release_unheld(handle));
                continue;
            }
            if !self.selector.matches(&message) {
                self.counts.skipped += 1;
                if self.skipped_seen.insert(id) {
                    self.to_settle.push(Settle::release_unheld(handle));
                }
                continue;
            }
            if self.plan.max.is_some_and(|max| self.taken >= max) {
                self.counts.returned += 1;
                self.to_settle.push(Settle::release_unheld(handle));
                continue;
            }
            self.taken += 1;
            self.last_seen = now;
            let group = message.effective_group_id().map(str::to_string);
            let job = self.scheduler.push(group.as_deref(), message);
            self.holdings.hold(job, handle, requested_at);
            self.deliveries.hold(job, &id);
        }
    }

    /// After an empty receive: with an idle limit, stops once nothing is held and nothing was
    /// received for that long. A message waiting out its retry delay is not visible, so it does
    /// not keep a run going: an idle limit longer than the retry delay waits for it.
    fn check_idle(&mut self, now: Instant) {
        let Some(idle) = self.plan.idle_exit else {
            return;
        };
        if self.holdings.is_empty()
            && self.to_settle.is_empty()
            && self.settling == 0
            && now >= self.last_seen + idle
        {
            self.stop_receiving = true;
        }
    }
}
