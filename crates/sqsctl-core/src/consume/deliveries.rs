//! Second deliveries: a standard queue delivers at least once, so SQS may hand a run a message it
//! holds already (a second receipt handle) or has just deleted (a copy the delete missed).
//! [`Deliveries`] tells them apart from new messages by message id, so that the run counts them:
//! a copy of a message deleted already is deleted without running, one of a message still held
//! runs again (the command sees what any SQS consumer sees).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

use super::JobId;

/// What a delivery is to the run.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A message the run does not hold and has not deleted lately.
    New,
    /// A second delivery of a message the run holds.
    WhileHeld,
    /// A copy of a message the run deleted within the last visibility timeout.
    AfterDelete,
}

/// The message ids a run holds, and those it deleted within the last visibility timeout (after
/// which SQS no longer owes a copy of them).
#[derive(Debug)]
pub struct Deliveries {
    window: Duration,
    jobs: HashMap<JobId, String>,
    held: HashMap<String, usize>,
    deleted: HashMap<String, Instant>,
    deleted_order: VecDeque<(Instant, String)>,
}

impl Deliveries {
    /// `window`: the visibility timeout messages are received with.
    pub fn new(window: Duration) -> Deliveries {
        Deliveries {
            window,
            jobs: HashMap::new(),
            held: HashMap::new(),
            deleted: HashMap::new(),
            deleted_order: VecDeque::new(),
        }
    }

    /// What a delivery of `id` is, at `now`.
    pub fn delivered(&mut self, id: &str, now: Instant) -> Delivery {
        self.forget_old(now);
        if self.held.contains_key(id) {
            Delivery::WhileHeld
        } else if self.deleted.contains_key(id) {
            Delivery::AfterDelete
        } else {
            Delivery::New
        }
    }

    /// The run holds message `id` as `job`.
    pub fn hold(&mut self, job: JobId, id: &str) {
        self.jobs.insert(job, id.to_string());
        *self.held.entry(id.to_string()).or_default() += 1;
    }

    /// The run no longer holds `job`; `deleted` when SQS confirmed its delete at `now`.
    pub fn settled(&mut self, job: JobId, deleted: bool, now: Instant) {
        let Some(id) = self.jobs.remove(&job) else {
            return;
        };
        if let Some(count) = self.held.get_mut(&id) {
            *count -= 1;
            if *count == 0 {
                self.held.remove(&id);
            }
        }
        if deleted {
            self.deleted.insert(id.clone(), now);
            self.deleted_order.push_back((now, id));
        }
    }

    fn forget_old(&mut self, now: Instant) {
        while let Some((at, _)) = self.deleted_order.front() {
            if *at + self.window > now {
                break;
            }
            if let Some((at, id)) = self.deleted_order.pop_front()
                && self.deleted.get(&id) == Some(&at)
            {
                self.deleted.remove(&id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_a_duplicate_while_held_and_for_one_window_after_its_delete() {
        let now = Instant::now();
        let mut deliveries = Deliveries::new(Duration::from_secs(30));
        assert_eq!(deliveries.delivered("a", now), Delivery::New);
        deliveries.hold(JobId(1), "a");
        assert_eq!(deliveries.delivered("a", now), Delivery::WhileHeld);
        deliveries.hold(JobId(2), "a");
        deliveries.settled(JobId(2), false, now);
        assert_eq!(deliveries.delivered("a", now), Delivery::WhileHeld);
        deliveries.settled(JobId(1), true, now);
        assert_eq!(deliveries.delivered("a", now), Delivery::AfterDelete);
        let later = now + Duration::from_secs(31);
        assert_eq!(deliveries.delivered("a", later), Delivery::New);
    }
}
