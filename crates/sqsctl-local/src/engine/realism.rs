//! SQS's documented non-determinism, on request: short polls that sample, standard queues that
//! deliver some messages twice and out of order, and `Approximate*` counts that lag.
//!
//! [`Realism`] is the configuration; [`Chance`] the server's seeded generator that decides, receive
//! by receive, what SQS would have done, so the same seed and the same requests give the same
//! answers. The exact configuration (the default) costs nothing: every caller checks
//! [`Realism::is_exact`] or one setting before it touches the generator. FIFO queues keep their
//! guarantees (exactly once, in order per group) whatever the configuration; the inspection
//! endpoints stay exact.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How far the server departs from exact behaviour where SQS itself is not exact. The default,
/// [`Realism::EXACT`], changes nothing; [`Realism::LIKE_SQS`] is what `sqsctl local --like-sqs`
/// turns on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Realism {
    /// The share (above 0, at most 1) of SQS's servers a short poll (`WaitTimeSeconds` 0) queries:
    /// each message a short poll could return is returned with this probability (at least one),
    /// and on a queue of fewer than [`SMALL_QUEUE`] visible messages the answer is empty with
    /// probability `(1 - share) * (1 - visible / SMALL_QUEUE)`. 1 is exact. Long polls are
    /// always exact.
    pub short_poll_sample: f64,
    /// The probability (0..=1) that a message received from a standard queue is delivered once
    /// more, to a later receive, before its visibility timeout ends: the second delivery has a
    /// receipt handle of its own, either handle deletes the message, and
    /// `ApproximateReceiveCount` counts both. When the first handle deleted the message before
    /// the second delivery, the second delivery still comes, as a copy a delete missed does on
    /// SQS; its handle deletes nothing.
    pub duplicate_rate: f64,
    /// Best-effort order on standard queues: each message a receive delivers is chosen at random
    /// among the next `reorder_window` messages in send order (1..=[`MAX_REORDER_WINDOW`]; 1 is
    /// send order).
    pub reorder_window: usize,
    /// How old the `ApproximateNumberOfMessages*` attributes may be (at most
    /// [`MAX_COUNT_LAG`]): a queue's counts are a snapshot, taken afresh by the first
    /// `GetQueueAttributes` after the last one is this old. Zero is exact.
    pub count_lag: Duration,
}

/// The queue size under which a short poll may answer empty, as SQS documents ("fewer than
/// about 1,000 messages").
pub const SMALL_QUEUE: usize = 1000;
/// The widest `reorder_window`.
pub const MAX_REORDER_WINDOW: usize = 10_000;
/// The longest `count_lag`.
pub const MAX_COUNT_LAG: Duration = Duration::from_secs(5 * 60);

impl Realism {
    /// As exact as a single process can be: every setting off.
    pub const EXACT: Realism = Realism {
        short_poll_sample: 1.0,
        duplicate_rate: 0.0,
        reorder_window: 1,
        count_lag: Duration::ZERO,
    };

    /// `sqsctl local --like-sqs`: short polls query half of the servers, one receive in a
    /// hundred is delivered twice (far more often than on SQS, so that a test meets one), order
    /// holds within 10 messages, counts are up to 2 seconds old (SQS: about a minute).
    pub const LIKE_SQS: Realism = Realism {
        short_poll_sample: 0.5,
        duplicate_rate: 0.01,
        reorder_window: 10,
        count_lag: Duration::from_secs(2),
    };

    pub fn is_exact(&self) -> bool {
        *self == Realism::EXACT
    }

    /// The first setting out of its range, as `(field, why)`.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(self.short_poll_sample > 0.0 && self.short_poll_sample <= 1.0) {
            return Err((
                "short_poll_sample",
                format!(
                    "must be above 0 and at most 1, got {}",
                    self.short_poll_sample
                ),
            ));
        }
        if !(0.0..=1.0).contains(&self.duplicate_rate) {
            return Err((
                "duplicate_rate",
                format!("must be between 0 and 1, got {}", self.duplicate_rate),
            ));
        }
        if !(1..=MAX_REORDER_WINDOW).contains(&self.reorder_window) {
            return Err((
                "reorder_window",
                format!(
                    "must be between 1 and {MAX_REORDER_WINDOW}, got {}",
                    self.reorder_window
                ),
            ));
        }
        if self.count_lag > MAX_COUNT_LAG {
            return Err((
                "count_lag",
                format!("must be at most 5 minutes, got {:?}", self.count_lag),
            ));
        }
        Ok(())
    }

    /// The count lag in clock milliseconds.
    pub fn count_lag_ms(&self) -> u64 {
        u64::try_from(self.count_lag.as_millis()).unwrap_or(u64::MAX)
    }
}

impl Default for Realism {
    fn default() -> Self {
        Realism::EXACT
    }
}

/// The server's realism: its settings and the seeded generator behind every decision.
#[derive(Debug)]
pub struct Chance {
    pub realism: Realism,
    rng: Mutex<SmallRng>,
    /// Second deliveries made so far (see [`crate::Stats::duplicate_deliveries`]).
    duplicates: AtomicU64,
}

/// The generator, held while one receive decides (order and duplicates) under its queue's lock.
pub struct Draw<'a> {
    pub realism: Realism,
    rng: MutexGuard<'a, SmallRng>,
}

impl Chance {
    pub fn new(realism: Realism, seed: Option<u64>) -> Self {
        // Apart from the fault generator's stream, so turning faults on does not change the
        // realism decisions of the same seed.
        let rng = match seed {
            Some(seed) => SmallRng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        Chance {
            realism,
            rng: Mutex::new(rng),
            duplicates: AtomicU64::new(0),
        }
    }

    /// Counts second deliveries a receive made.
    pub fn count_duplicates(&self, delivered: usize) {
        self.duplicates
            .fetch_add(delivered as u64, Ordering::Relaxed);
    }

    pub fn duplicate_deliveries(&self) -> u64 {
        self.duplicates.load(Ordering::Relaxed)
    }

    /// How many messages a short poll asking for `wanted` may return from a queue of `visible`
    /// visible messages: 0 is an empty answer. `wanted` when short polls are exact.
    pub fn short_poll(&self, wanted: usize, visible: usize) -> usize {
        let share = self.realism.short_poll_sample;
        if share >= 1.0 {
            return wanted;
        }
        let mut rng = self.rng.lock();
        let small = 1.0 - visible.min(SMALL_QUEUE) as f64 / SMALL_QUEUE as f64;
        if rng.random::<f64>() < (1.0 - share) * small {
            return 0;
        }
        let seen = (0..wanted).filter(|_| rng.random::<f64>() < share).count();
        seen.max(1)
    }

    /// The generator for one receive, or `None` when neither order nor duplicates are changed.
    pub fn for_receive(&self) -> Option<Draw<'_>> {
        let r = self.realism;
        (r.reorder_window > 1 || r.duplicate_rate > 0.0).then(|| Draw {
            realism: r,
            rng: self.rng.lock(),
        })
    }
}

impl Draw<'_> {
    /// Which of the next `available` messages in send order to deliver next.
    pub fn pick(&mut self, available: usize) -> usize {
        let window = self.realism.reorder_window.min(available);
        if window <= 1 {
            0
        } else {
            self.rng.random_range(0..window)
        }
    }

    /// Whether a message just received is to be delivered once more.
    pub fn duplicate(&mut self) -> bool {
        self.realism.duplicate_rate > 0.0 && self.rng.random::<f64>() < self.realism.duplicate_rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_are_in_range() {
        assert!(Realism::EXACT.check().is_ok() && Realism::EXACT.is_exact());
        assert!(Realism::LIKE_SQS.check().is_ok() && !Realism::LIKE_SQS.is_exact());
        let bad = Realism {
            short_poll_sample: 0.0,
            ..Realism::EXACT
        };
        assert_eq!(bad.check().map_err(|(f, _)| f), Err("short_poll_sample"));
    }

    #[test]
    fn short_polls_of_small_queues_are_sometimes_empty_and_of_large_ones_never() {
        let chance = Chance::new(Realism::LIKE_SQS, Some(7));
        let small: Vec<usize> = (0..200).map(|_| chance.short_poll(10, 50)).collect();
        assert!(small.contains(&0), "{small:?}");
        assert!(small.iter().any(|&n| n > 0 && n < 10), "{small:?}");
        assert!((0..200).all(|_| chance.short_poll(10, SMALL_QUEUE) > 0));
        let exact = Chance::new(Realism::EXACT, Some(7));
        assert!((0..200).all(|_| exact.short_poll(10, 1) == 10));
    }

    #[test]
    fn the_same_seed_gives_the_same_decisions() {
        let run = || {
            let chance = Chance::new(Realism::LIKE_SQS, Some(3));
            let polls: Vec<usize> = (0..100).map(|_| chance.short_poll(10, 20)).collect();
            let mut draw = chance.for_receive().expect("realism is on");
            let picks: Vec<usize> = (0..100).map(|_| draw.pick(50)).collect();
            let twins: Vec<bool> = (0..1000).map(|_| draw.duplicate()).collect();
            (polls, picks, twins)
        };
        assert_eq!(run(), run());
        assert!(Chance::new(Realism::EXACT, None).for_receive().is_none());
    }
}
