//! Which received message runs next. At most `concurrency` run at once; on a FIFO queue a message
//! group is a lane: one of its messages at a time, in the order SQS delivered them, and the next
//! starts only once the one before it is settled (deleted, or released after a failure). A failure
//! hands back the group's waiting messages for release, so that SQS delivers the failed message
//! again before them: a failed message blocks its group, as SQS intends. On a standard queue
//! messages run in the order they arrived, with no lanes (a fair queue's group ids only spread
//! capacity; they promise no order), and at most `per_group` of one tenant's messages (one group
//! id; a message without one is a tenant of its own) run at once when a cap is set: the messages
//! over the cap wait, held, while other tenants' messages run past them.

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
    /// Standard queues: at most this many messages of one group run at once.
    per_group: Option<usize>,
    next_id: u64,
    running: usize,
    /// Standard queues: waiting messages in arrival order, with their group.
    ready: VecDeque<(JobId, Option<String>, T)>,
    /// Standard queues with a cap: how many of each group's messages run, and wait.
    running_in: HashMap<String, usize>,
    waiting_in: HashMap<String, usize>,
    /// Standard queues with a cap: the group of each message whose command runs.
    runs_in: HashMap<JobId, String>,
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
            per_group: None,
            next_id: 0,
            running: 0,
            ready: VecDeque::new(),
            running_in: HashMap::new(),
            waiting_in: HashMap::new(),
            runs_in: HashMap::new(),
            lanes: HashMap::new(),
            ready_lanes: VecDeque::new(),
            started_in: HashMap::new(),
        }
    }

    /// On a standard queue, runs at most `cap` (at least 1) messages of one group at once; a FIFO
    /// queue's lanes run one already.
    pub fn with_per_group(mut self, cap: Option<usize>) -> Scheduler<T> {
        self.per_group = cap.filter(|_| !self.fifo).map(|cap| cap.max(1));
        self
    }

    /// Adds a received message, behind those of its group received before it.
    pub fn push(&mut self, group: Option<&str>, item: T) -> JobId {
        let id = JobId(self.next_id);
        self.next_id += 1;
        match group.filter(|_| self.fifo) {
            None => {
                let group = group
                    .filter(|_| self.per_group.is_some())
                    .map(str::to_string);
                if let Some(group) = &group {
                    *self.waiting_in.entry(group.clone()).or_default() += 1;
                }
                self.ready.push_back((id, group, item));
            }
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
        let (id, item) = match self.next_ready() {
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

    /// The first waiting message of a standard queue whose group is under its cap, counted as
    /// running in its group.
    fn next_ready(&mut self) -> Option<(JobId, T)> {
        let cap = self.per_group.unwrap_or(usize::MAX);
        let at = self.ready.iter().position(|(_, group, _)| {
            group
                .as_ref()
                .is_none_or(|g| self.running_in.get(g).copied().unwrap_or(0) < cap)
        })?;
        let (id, group, item) = self.ready.remove(at)?;
        if let Some(group) = group {
            *self.running_in.entry(group.clone()).or_default() += 1;
            if let Some(waiting) = self.waiting_in.get_mut(&group) {
                *waiting -= 1;
                if *waiting == 0 {
                    self.waiting_in.remove(&group);
                }
            }
            self.runs_in.insert(id, group);
        }
        Some((id, item))
    }

    /// The command of `job` ended: its slot is free for another message (on a FIFO queue its
    /// group stays closed until [`Scheduler::settled`]; under a per-group cap its group may start
    /// another at once).
    pub fn exited(&mut self, job: JobId) {
        self.running = self.running.saturating_sub(1);
        if let Some(group) = self.runs_in.remove(&job)
            && let Some(running) = self.running_in.get_mut(&group)
        {
            *running -= 1;
            if *running == 0 {
                self.running_in.remove(&group);
            }
        }
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
        let mut out: Vec<(JobId, T)> = self
            .ready
            .drain(..)
            .map(|(id, _, item)| (id, item))
            .collect();
        self.waiting_in.clear();
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
    /// (at most 10) waiting, so that a slot that frees up does not wait for a receive. Under a
    /// per-group cap, the messages waiting only for their group's cap do not fill that room, so
    /// that other tenants' messages still come in, up to as many again held in all.
    pub fn room(&self) -> usize {
        let capacity = self.concurrency + self.concurrency.min(10);
        let held = self.running + self.waiting();
        let startable = held - self.over_cap();
        capacity
            .saturating_sub(startable)
            .min((2 * capacity).saturating_sub(held))
    }

    /// Waiting messages that cannot start until another of their group ends.
    fn over_cap(&self) -> usize {
        let Some(cap) = self.per_group else {
            return 0;
        };
        self.waiting_in
            .iter()
            .map(|(group, waiting)| {
                let running = self.running_in.get(group).copied().unwrap_or(0);
                waiting.saturating_sub(cap.saturating_sub(running))
            })
            .sum()
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
    fn a_per_group_cap_lets_other_groups_run_past_a_busy_one() {
        let mut s = Scheduler::new(false, 4).with_per_group(Some(2));
        for body in ["a1", "a2", "a3", "a4"] {
            s.push(Some("a"), body);
        }
        s.push(None, "x");
        s.push(Some("b"), "b1");
        let started: Vec<_> = std::iter::from_fn(|| s.start()).collect();
        let bodies: Vec<_> = started.iter().map(|(_, body)| *body).collect();
        assert_eq!(bodies, vec!["a1", "a2", "x", "b1"]);
        assert_eq!(
            s.room(),
            4,
            "a3 and a4 wait for their group only: they do not fill the room for others"
        );
        s.exited(started[2].0);
        assert!(
            s.start().is_none(),
            "a free slot, but group a is at its cap"
        );
        s.exited(started[0].0);
        assert_eq!(s.start().unwrap().1, "a3");
        assert_eq!(s.waiting(), 1);
    }

    #[test]
    fn messages_over_the_cap_are_held_up_to_twice_the_room() {
        let mut s = Scheduler::new(false, 1).with_per_group(Some(1));
        for n in 0..4 {
            s.push(Some("a"), n);
        }
        s.start().unwrap();
        assert_eq!(
            s.room(),
            0,
            "four held: twice the room of one slot and one waiting"
        );
        assert_eq!(
            Scheduler::<u8>::new(true, 4)
                .with_per_group(Some(2))
                .per_group,
            None
        );
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
