//! The heartbeat's book: every message a run holds (waiting, running, or waiting for its delete or
//! release) with the moment its visibility timeout lapses, and which of them to extend now. A
//! message is extended once less than half of its visibility timeout is left, so an extension has
//! half a timeout to get through (retries included) before SQS could deliver the message again.
//! Deadlines count from when a request was sent, not from when it was answered: SQS may have
//! started the timeout at any moment in between.

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;

use super::JobId;

#[derive(Debug)]
struct Held {
    receipt_handle: String,
    visible_until: Instant,
    /// An extension is in flight.
    extending: bool,
    /// A delete or release is on its way: extending now could undo a release.
    settling: bool,
}

/// The messages a run holds and when each becomes visible again.
#[derive(Debug)]
pub struct Holdings {
    visibility: Duration,
    held: HashMap<JobId, Held>,
    /// Messages whose visibility timeout lapsed while held (SQS may have delivered them again).
    lapsed: u64,
}

impl Holdings {
    /// `visibility`: the timeout messages are received with, and what each extension asks for.
    pub fn new(visibility: Duration) -> Holdings {
        Holdings {
            visibility,
            held: HashMap::new(),
            lapsed: 0,
        }
    }

    /// The visibility timeout each extension sets, in whole seconds.
    pub fn visibility_seconds(&self) -> i32 {
        i32::try_from(self.visibility.as_secs()).unwrap_or(i32::MAX)
    }

    /// How often to look for messages to extend: a quarter of the timeout, within 100 ms to 5 s.
    pub fn tick(&self) -> Duration {
        (self.visibility / 4).clamp(Duration::from_millis(100), Duration::from_secs(5))
    }

    /// Starts tracking a message received by a request sent at `requested_at`.
    pub fn hold(&mut self, job: JobId, receipt_handle: String, requested_at: Instant) {
        self.held.insert(
            job,
            Held {
                receipt_handle,
                visible_until: requested_at + self.visibility,
                extending: false,
                settling: false,
            },
        );
    }

    /// Stops tracking a message (deleted or released); its receipt handle.
    pub fn forget(&mut self, job: JobId) -> Option<String> {
        self.held.remove(&job).map(|held| held.receipt_handle)
    }

    /// Stops extending a message whose delete or release is about to be sent.
    pub fn settling(&mut self, job: JobId) {
        if let Some(held) = self.held.get_mut(&job) {
            held.settling = true;
        }
    }

    /// Whether an extension of the message is in flight: a release sent now could be undone by it.
    pub fn is_extending(&self, job: JobId) -> bool {
        self.held.get(&job).is_some_and(|held| held.extending)
    }

    /// The receipt handle of a held message.
    pub fn receipt_handle(&self, job: JobId) -> Option<&str> {
        self.held.get(&job).map(|held| held.receipt_handle.as_str())
    }

    /// The messages to extend now (less than half their timeout left, none in flight), marked as
    /// being extended. A message whose timeout already lapsed is counted (see [`Holdings::lapsed`])
    /// and extended all the same: while no one else received it, its receipt handle still works.
    pub fn due(&mut self, now: Instant) -> Vec<(JobId, String)> {
        let margin = self.visibility / 2;
        let mut due = Vec::new();
        for (job, held) in &mut self.held {
            if held.extending || held.settling || held.visible_until > now + margin {
                continue;
            }
            if held.visible_until <= now {
                self.lapsed += 1;
            }
            held.extending = true;
            due.push((*job, held.receipt_handle.clone()));
        }
        due.sort_by_key(|(job, _)| *job);
        due
    }

    /// The answer to an extension requested at `requested_at`: when it went through, the message
    /// is hidden for another timeout from then; otherwise it is due again at the next tick.
    pub fn extended(&mut self, job: JobId, requested_at: Instant, done: bool) {
        if let Some(held) = self.held.get_mut(&job) {
            held.extending = false;
            if done {
                held.visible_until = held.visible_until.max(requested_at + self.visibility);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// How many times a held message's timeout lapsed before it was extended.
    pub fn lapsed(&self) -> u64 {
        self.lapsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_extended_once_half_their_timeout_is_gone() {
        let start = Instant::now();
        let timeout = Duration::from_secs(30);
        let mut book = Holdings::new(timeout);
        book.hold(JobId(1), "h1".into(), start);
        book.hold(JobId(2), "h2".into(), start + Duration::from_secs(10));
        assert!(book.due(start + Duration::from_secs(14)).is_empty());
        let due = book.due(start + Duration::from_secs(16));
        assert_eq!(due, vec![(JobId(1), "h1".to_string())]);
        assert!(
            book.due(start + Duration::from_secs(17)).is_empty(),
            "not twice while one extension is in flight"
        );
        book.extended(JobId(1), start + Duration::from_secs(16), true);
        let later = start + Duration::from_secs(26);
        assert_eq!(book.due(later), vec![(JobId(2), "h2".to_string())]);
        assert_eq!(book.lapsed(), 0);
        book.settling(JobId(1));
        assert!(
            book.due(start + Duration::from_secs(60)).is_empty(),
            "never once its delete or release is on its way"
        );
        assert!(book.is_extending(JobId(2)));
    }

    #[test]
    fn a_failed_extension_is_tried_again_and_a_lapse_is_counted() {
        let start = Instant::now();
        let mut book = Holdings::new(Duration::from_secs(4));
        book.hold(JobId(7), "h".into(), start);
        assert_eq!(book.due(start + Duration::from_secs(3)).len(), 1);
        book.extended(JobId(7), start + Duration::from_secs(3), false);
        assert_eq!(book.due(start + Duration::from_secs(5)).len(), 1);
        assert_eq!(book.lapsed(), 1);
        assert_eq!(book.forget(JobId(7)).as_deref(), Some("h"));
        assert!(book.is_empty());
    }
}
