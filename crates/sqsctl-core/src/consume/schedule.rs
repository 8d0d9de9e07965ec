//! Which received message runs next. At most `concurrency` run at once; on a FIFO queue a message
//! group is a lane: one of its messages at a time, in the order SQS delivered them, and the next
//! starts only once the one before it is settled (deleted, or released after a failure). A failure
//! hands back the group's waiting messages for release, so that SQS delivers the failed message
//! again before them: a failed message blocks its group, as SQS intends. On a standard queue
//! messages run in the order they arrived, with no lanes (a fair queue's group ids only spread
//! capacity; they promise no order).

use std::collections::{HashMap, VecDeque};

/// A received message's place in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(pub u64);

/// How a message's run ended, once its delete or release was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// The command succeeded and SQS confirmed the delete.
    Deleted,
    /// Anything else: the message will be delivered again (a failed command, a delete not
    /// confirmed, a command stopped by Ctrl-C).
    NotDeleted,
}

#[derive(Debug)]
struct Lane<T> {
    waiting: VecDeque<(JobId, T)>,
    /// A message of the lane runs or waits for its delete or release.
    busy: bool,
    /// The lane is in `ready_lanes`.
    queued: bool,
}

/// The messages a run holds that have not started yet, and the rules for starting them.
#[derive(Debug)]
pub struct Scheduler<T> {
    fifo: bool,
    concurrency: usize,
    next_id: u64,
    running: usize,
    /// Standard queues: waiting messages in arrival order.
    ready: VecDeque<(JobId, T)>,
    /// FIFO queues: each group's waiting messages, and the groups that may start one, in turn.
    lanes: HashMap<String, Lane<T>>,
    ready_lanes: VecDeque<String>,
    /// FIFO queues: the group of each message started and not settled yet.
    started_in: HashMap<JobId, String>,
}

impl<T> Scheduler<T> {
    /// A scheduler that runs at most `concurrency` (at least 1) messages at once, in lanes by
    /// message group when `fifo`.
    pub fn new(fifo: bool, concurrency: usize) -> Scheduler<T> {
        Scheduler {
            fifo,
            concurrency: concurrency.max(1),
            next_id: 0,
            running: 0,
            ready: VecDeque::new(),
            lanes: HashMap::new(),
            ready_lanes: VecDeque::new(),
            started_in: HashMap::new(),
        }
    }

    /// Adds a received message, behind those of its group received before it.
    pub fn push(&mut self, group: Option<&str>, item: T) -> JobId {
        let id = JobId(self.next_id);
        self.next_id += 1;
        match group.filter(|_| self.fifo) {
            None => self.ready.push_back((id, item)),
            Some(group) => {
                let lane = self.lanes.entry(group.to_string()).or_insert_with(|| Lane {
                    waiting: VecDeque::new(),
                    busy: false,
                    queued: false,
                });
                lane.waiting.push_back((id, item));
                if !lane.busy && !lane.queued {
                    lane.queued = true;
                    self.ready_lanes.push_back(group.to_string());
                }
            }
        }
        id
    }

    /// The next message to run, if a slot is free and one may start; it counts as running until
    /// [`Scheduler::exited`].
    pub fn start(&mut self) -> Option<(JobId, T)> {
        if self.running >= self.concurrency {
            return None;
        }
        let (id, item) = match self.ready.pop_front() {
            Some(next) => next,
            None => {
                let group = self.ready_lanes.pop_front()?;
                let lane = self.lanes.get_mut(&group)?;
                lane.queued = false;
                let next = lane.waiting.pop_front()?;
                lane.busy = true;
                self.started_in.insert(next.0, group);
                next
            }
        };
        self.running += 1;
        Some((id, item))
    }

    /// The command of `job` ended: its slot is free for another message (its group stays closed
    /// until [`Scheduler::settled`]).
    pub fn exited(&mut self, _job: JobId) {
        self.running = self.running.saturating_sub(1);
    }

    /// `job`'s delete or release was answered. On a FIFO queue this opens its group again; when the
    /// message was not deleted, the group's waiting messages come back, to be released so that SQS
    /// delivers them after the one that failed.
    pub fn settled(&mut self, job: JobId, finished: Finished) -> Vec<(JobId, T)> {
        let Some(group) = self.started_in.remove(&job) else {
            return Vec::new();
        };
        let Some(lane) = self.lanes.get_mut(&group) else {
            return Vec::new();
        };
        lane.busy = false;
        let released: Vec<(JobId, T)> = match finished {
            Finished::Deleted => Vec::new(),
            Finished::NotDeleted => lane.waiting.drain(..).collect(),
        };
        if lane.waiting.is_empty() {
            self.lanes.remove(&group);
        } else if !lane.queued {
            lane.queued = true;
            self.ready_lanes.push_back(group);
        }
        released
    }

    /// Takes every waiting message out (to release them: the run is stopping).
    pub fn drain(&mut self) -> Vec<(JobId, T)> {
        let mut out: Vec<(JobId, T)> = self.ready.drain(..).collect();
        for lane in self.lanes.values_mut() {
            out.extend(lane.waiting.drain(..));
            lane.queued = false;
        }
        self.lanes.retain(|_, lane| lane.busy);
        self.ready_lanes.clear();
        out.sort_by_key(|(id, _)| *id);
        out
    }

    /// Messages received and not started.
    pub fn waiting(&self) -> usize {
        self.ready.len() + self.lanes.values().map(|l| l.waiting.len()).sum::<usize>()
    }

    /// Messages whose command runs.
    pub fn running(&self) -> usize {
        self.running
    }

    /// How many more messages a receive may ask for: enough to fill every slot, and as many again
    /// (at most 10) waiting, so that a slot that frees up does not wait for a receive.
    pub fn room(&self) -> usize {
        let capacity = self.concurrency + self.concurrency.min(10);
        capacity.saturating_sub(self.running + self.waiting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids<T>(jobs: &[(JobId, T)]) -> Vec<u64> {
        jobs.iter().map(|(id, _)| id.0).collect()
    }

    #[test]
    fn standard_queues_run_in_arrival_order_up_to_the_concurrency() {
        let mut s = Scheduler::new(false, 2);
        for body in ["a", "b", "c"] {
            s.push(Some("same-group"), body);
        }
        assert_eq!(s.room(), 1, "two slots, two more waiting");
        let first = s.start().unwrap();
        let second = s.start().unwrap();
        assert_eq!(
            (first.1, second.1),
            ("a", "b"),
            "groups do not gate a standard queue"
        );
        assert!(s.start().is_none(), "two at once at most");
        s.exited(first.0);
        assert_eq!(s.start().unwrap().1, "c");
        assert_eq!(s.running(), 2);
    }

    #[test]
    fn a_fifo_group_runs_one_message_at_a_time_in_order() {
        let mut s = Scheduler::new(true, 8);
        s.push(Some("g1"), "g1-a");
        s.push(Some("g1"), "g1-b");
        s.push(Some("g2"), "g2-a");
        let a = s.start().unwrap();
        let other = s.start().unwrap();
        assert_eq!((a.1, other.1), ("g1-a", "g2-a"));
        assert!(
            s.start().is_none(),
            "g1-b waits for g1-a although slots are free"
        );
        s.exited(a.0);
        assert!(
            s.start().is_none(),
            "and for g1-a's delete, not only its exit"
        );
        assert!(s.settled(a.0, Finished::Deleted).is_empty());
        assert_eq!(s.start().unwrap().1, "g1-b");
    }

    #[test]
    fn a_failure_hands_back_the_rest_of_its_group_only() {
        let mut s = Scheduler::new(true, 8);
        s.push(Some("g1"), "g1-a");
        s.push(Some("g1"), "g1-b");
        s.push(Some("g1"), "g1-c");
        s.push(Some("g2"), "g2-a");
        s.push(Some("g2"), "g2-b");
        let a = s.start().unwrap();
        let g2 = s.start().unwrap();
        s.exited(a.0);
        let released = s.settled(a.0, Finished::NotDeleted);
        assert_eq!(ids(&released), vec![1, 2]);
        assert_eq!(released[0].1, "g1-b");
        s.exited(g2.0);
        assert!(s.settled(g2.0, Finished::Deleted).is_empty());
        assert_eq!(s.start().unwrap().1, "g2-b");
        assert!(s.start().is_none());
        assert_eq!(s.waiting(), 0);
    }

    #[test]
    fn messages_received_later_queue_behind_a_busy_group() {
        let mut s = Scheduler::new(true, 4);
        s.push(Some("g"), 1);
        let first = s.start().unwrap();
        s.push(Some("g"), 2);
        s.push(Some("h"), 3);
        assert_eq!(s.start().unwrap().1, 3);
        assert!(s.start().is_none());
        s.exited(first.0);
        s.settled(first.0, Finished::Deleted);
        assert_eq!(s.start().unwrap().1, 2);
    }

    #[test]
    fn drain_takes_every_waiting_message_and_leaves_running_ones() {
        let mut s = Scheduler::new(true, 1);
        s.push(Some("g"), "a");
        s.push(Some("g"), "b");
        s.push(Some("h"), "c");
        let a = s.start().unwrap();
        let drained = s.drain();
        assert_eq!(ids(&drained), vec![1, 2]);
        assert_eq!(s.waiting(), 0);
        assert_eq!(s.running(), 1);
        s.exited(a.0);
        assert!(s.settled(a.0, Finished::Deleted).is_empty());
        assert!(s.start().is_none());
    }
}
