//! Adaptive concurrency: how many workers a run uses when `--concurrency` is not given.
//!
//! The run starts at [`START`] workers and measures its throughput (messages received per second)
//! over short windows: a window lasts until the workers have finished, together, at least one
//! batch each, and at least [`RAMP_WINDOW`] while doubling ([`STEADY_WINDOW`] afterwards, when the
//! gains looked for are small), so that a window holds whole batches also where a round trip is
//! long. While doubling the workers pays (the next window is at least
//! [`DOUBLING_GAIN`] times faster), it doubles; then it adds a few workers at a time while that
//! still pays ([`STEP_GAIN`]); when a step does not pay, it goes back to the level before it, holds
//! for a while (twice as long after each step in a row that did not pay) and probes again. Any
//! throttling in a window takes a quarter of the workers away (additive increase, multiplicative
//! decrease). Windows whose batches came back short ([`FULL_BATCH`]) change nothing: the DLQ is
//! nearly drained, and more workers would only poll; nor do windows in which a batch waited for
//! `--rate`. The count stays within [`FLOOR`] and the cap. The controller is pure: the run feeds
//! it the counters at each window and applies what it answers.

use std::time::Duration;

/// Shortest window while doubling: on a short run the ramp is a good part of the time.
pub const RAMP_WINDOW: Duration = Duration::from_millis(100);
/// Shortest window once the workers grow a few at a time, and while holding.
pub const STEADY_WINDOW: Duration = Duration::from_millis(250);
/// Longest window, however few batches finished in it (a DLQ nearly empty, a very slow server).
pub const MAX_WINDOW: Duration = Duration::from_secs(2);

/// Fewest messages a window's batches must hold on average for more workers to be worth trying:
/// batches that come back short mean the DLQ is nearly drained (or, on a FIFO queue, held by its
/// groups), and more workers would only poll.
const FULL_BATCH: f64 = 8.0;

/// Workers at the start of a run.
pub const START: usize = 32;
/// The most workers an adaptive run grows to. Each worker costs about 120 KiB (its connections
/// and their buffers, its batch in flight): at 128, a run that moves 1,000,000 messages stays near
/// 50 MiB. More takes `--concurrency` (up to 256), or several processes.
pub const CAP: usize = 128;
/// Fewest workers throttling can bring a run down to.
pub const FLOOR: usize = 8;
/// How much faster a window must be after doubling to double again.
const DOUBLING_GAIN: f64 = 1.3;
/// How much faster, at least, for the doubled level to be kept (then it grows a few at a time).
const DOUBLING_KEPT: f64 = 1.1;
/// How much of its share of more workers an additive step must show in throughput to be kept: a
/// step of an eighth more workers must be at least a sixteenth faster. Less is noise, or a server
/// that is already saturated, and more workers would only hold more messages in flight.
const STEP_GAIN: f64 = 0.5;
/// Windows to wait, after a step that did not pay, before probing again; each probe in a row that
/// does not pay doubles the wait, up to [`MAX_HOLD_WINDOWS`].
const HOLD_WINDOWS: u32 = 8;
const MAX_HOLD_WINDOWS: u32 = 128;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Doubling while it pays.
    Doubling,
    /// Adding a few at a time while it pays.
    Stepping,
    /// A step did not pay: wait this many more windows.
    Holding(u32),
}

/// A run's cumulative counts, read at the end of each window.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sample {
    /// Messages received.
    pub received: u64,
    /// Batches finished.
    pub batches: u64,
    /// Throttling answers (requests and entries).
    pub throttled: u64,
    /// Batches that waited for `--rate`.
    pub rate_waits: u64,
}

/// Why an adaptive run stopped adding workers, as of its latest decision: `-v` says it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Settled {
    /// It reached the cap.
    Cap(usize),
    /// `tried` workers moved `gain` times what `back_to` did, where keeping them needed `needed`.
    NotPaid {
        tried: usize,
        back_to: usize,
        gain: f64,
        needed: f64,
    },
    /// SQS throttled the run at `from` workers; it went down to `to`.
    Throttled { from: usize, to: usize },
    /// Receives came back short: the DLQ was nearly drained (or its FIFO groups held it).
    ShortBatches,
    /// `--rate` set the pace.
    Paced,
}

impl std::fmt::Display for Settled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Settled::Cap(cap) => write!(
                f,
                "it reached the cap of {cap} workers (more takes --concurrency)"
            ),
            Settled::NotPaid {
                tried,
                back_to,
                gain,
                needed,
            } => write!(
                f,
                "{tried} workers moved {gain:.2}x what {back_to} did, and keeping them needed {needed:.2}x: back to {back_to}"
            ),
            Settled::Throttled { from, to } => {
                write!(f, "SQS throttled it at {from} workers: down to {to}")
            }
            Settled::ShortBatches => write!(
                f,
                "receives came back with fewer than {FULL_BATCH:.0} messages on average (the DLQ nearly drained), where more workers would only poll"
            ),
            Settled::Paced => write!(f, "--rate set the pace"),
        }
    }
}

/// The controller's state between windows.
#[derive(Debug, Clone)]
pub struct Adaptive {
    workers: usize,
    cap: usize,
    phase: Phase,
    /// Throughput of the last window at the level before the latest change, and that level.
    before: Option<f64>,
    previous: usize,
    last: Sample,
    /// Windows of the next hold.
    hold_for: u32,
    /// Why it stopped adding workers, as of its latest decision (`None` while it grows).
    settled: Option<Settled>,
}

impl Adaptive {
    pub fn new(cap: usize) -> Adaptive {
        Adaptive {
            workers: START.min(cap),
            cap,
            phase: Phase::Doubling,
            before: None,
            previous: START.min(cap),
            last: Sample::default(),
            hold_for: HOLD_WINDOWS,
            settled: None,
        }
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Why it stopped adding workers (`None`: it was still growing, or never measured a window).
    pub fn settled(&self) -> Option<Settled> {
        self.settled
    }

    /// Whether a window that has lasted `elapsed`, in which the workers finished `batches`
    /// batches, is long enough to be measured.
    pub fn window_over(&self, elapsed: Duration, batches: u64) -> bool {
        let shortest = match self.phase {
            Phase::Doubling => RAMP_WINDOW,
            _ => STEADY_WINDOW,
        };
        elapsed >= MAX_WINDOW || (elapsed >= shortest && batches >= self.workers as u64)
    }

    /// Takes the run's cumulative counts at the end of a window of `seconds`; returns the new
    /// number of workers when it changes.
    pub fn observe(&mut self, seconds: f64, now: Sample) -> Option<usize> {
        let messages = now.received.saturating_sub(self.last.received);
        let rate = messages as f64 / seconds.max(1e-3);
        let batches = now.batches.saturating_sub(self.last.batches);
        let full = messages as f64 >= FULL_BATCH * batches as f64;
        let throttles = now.throttled.saturating_sub(self.last.throttled);
        let paced = now.rate_waits > self.last.rate_waits;
        self.last = now;
        let was = self.workers;
        if throttles > 0 {
            self.workers = (self.workers * 3 / 4).max(FLOOR.min(self.cap));
            self.settled = Some(Settled::Throttled {
                from: was,
                to: self.workers,
            });
            self.previous = self.workers;
            self.phase = Phase::Holding(HOLD_WINDOWS);
            self.before = None;
            return (self.workers != was).then_some(self.workers);
        }
        if rate <= 0.0 || !full || paced {
            // Nothing moved (an empty queue), too little for more workers to help, or workers
            // waited for `--rate`, which sets the pace: nothing to learn.
            if rate > 0.0 && self.settled.is_none() {
                self.settled = Some(if paced {
                    Settled::Paced
                } else {
                    Settled::ShortBatches
                });
            }
            return None;
        }
        let gain = self.before.map(|before| rate / before);
        match self.phase {
            Phase::Holding(0) => {
                // A probe: why it settled stays the answer until the probe pays.
                let settled = self.settled;
                self.phase = Phase::Stepping;
                let grown = self.grow(rate);
                self.settled = self.settled.or(settled);
                grown
            }
            Phase::Holding(left) => {
                self.phase = Phase::Holding(left - 1);
                None
            }
            Phase::Doubling => match gain {
                Some(gain) if gain < DOUBLING_KEPT => self.step_back(gain, DOUBLING_KEPT),
                Some(gain) if gain < DOUBLING_GAIN => {
                    self.phase = Phase::Stepping;
                    self.hold_for = HOLD_WINDOWS;
                    self.grow(rate)
                }
                _ => self.grow(rate),
            },
            Phase::Stepping => {
                let needed = self.needed();
                match gain {
                    Some(gain) if gain < needed => self.step_back(gain, needed),
                    _ => {
                        self.hold_for = HOLD_WINDOWS;
                        self.grow(rate)
                    }
                }
            }
        }
    }

    /// The gain the latest step must show to be kept: [`STEP_GAIN`] of the share of workers it
    /// added.
    fn needed(&self) -> f64 {
        let added = self.workers as f64 / self.previous.max(1) as f64 - 1.0;
        1.0 + STEP_GAIN * added
    }

    /// The latest step did not pay (it gained `gain`, `needed` was asked): back to the level
    /// before it, and hold there, longer each time in a row.
    fn step_back(&mut self, gain: f64, needed: f64) -> Option<usize> {
        let was = self.workers;
        self.settled = Some(Settled::NotPaid {
            tried: was,
            back_to: self.previous,
            gain,
            needed,
        });
        self.workers = self.previous;
        self.hold();
        self.hold_for = (self.hold_for * 2).min(MAX_HOLD_WINDOWS);
        (self.workers != was).then_some(self.workers)
    }

    fn hold(&mut self) -> Option<usize> {
        self.phase = Phase::Holding(self.hold_for);
        self.before = None;
        None
    }

    fn grow(&mut self, rate: f64) -> Option<usize> {
        let next = match self.phase {
            Phase::Doubling => self.workers * 2,
            _ => self.workers + (self.workers / 8).max(4),
        }
        .min(self.cap);
        if next == self.workers {
            self.settled = Some(Settled::Cap(self.cap));
            return self.hold();
        }
        self.settled = None;
        self.before = Some(rate);
        self.previous = self.workers;
        self.workers = next;
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Full batches of 10, no wait for `--rate`.
    fn sample(received: u64, throttled: u64) -> Sample {
        Sample {
            received,
            batches: received / 10,
            throttled,
            rate_waits: 0,
        }
    }

    /// Feeds windows of 0.25 s from a model where throughput is `rate(workers)`; returns the
    /// worker counts chosen.
    fn drive(
        adaptive: &mut Adaptive,
        windows: usize,
        rate: impl Fn(usize) -> f64,
        throttle: impl Fn(usize, usize) -> bool,
    ) -> Vec<usize> {
        let (mut received, mut throttled) = (0u64, 0u64);
        let mut seen = Vec::new();
        for window in 0..windows {
            received += (rate(adaptive.workers()) * 0.25) as u64;
            if throttle(window, adaptive.workers()) {
                throttled += 1;
            }
            adaptive.observe(0.25, sample(received, throttled));
            seen.push(adaptive.workers());
        }
        seen
    }

    #[test]
    fn it_doubles_while_the_server_keeps_up_and_stops_at_the_cap() {
        let mut adaptive = Adaptive::new(256);
        let seen = drive(&mut adaptive, 6, |w| w as f64 * 160.0, |_, _| false);
        assert_eq!(&seen[..3], &[64, 128, 256]);
        assert_eq!(adaptive.workers(), 256);
        assert_eq!(adaptive.settled(), Some(Settled::Cap(256)));
        assert_eq!(
            adaptive.settled().map(|s| s.to_string()).as_deref(),
            Some("it reached the cap of 256 workers (more takes --concurrency)")
        );
    }

    #[test]
    fn it_holds_where_more_workers_stop_paying() {
        // The server saturates at 48 workers' worth of throughput.
        let mut adaptive = Adaptive::new(256);
        let seen = drive(
            &mut adaptive,
            12,
            |w| w.min(48) as f64 * 100.0,
            |_, _| false,
        );
        let last = *seen.last().unwrap_or(&0);
        assert!(last <= 80, "kept growing past saturation: {seen:?}");
        assert!(last >= 48, "gave up below saturation: {seen:?}");
        // It says which step did not pay, and by how much.
        match adaptive.settled() {
            Some(Settled::NotPaid {
                tried,
                back_to,
                gain,
                needed,
            }) => {
                // (The last window may be a probe above it, which has not paid yet.)
                assert!(tried > back_to && back_to >= 48, "{seen:?}");
                assert!(gain < needed, "{gain} against {needed}");
                let said = adaptive
                    .settled()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                assert!(
                    said.starts_with(&format!("{tried} workers moved")),
                    "{said}"
                );
                assert!(said.ends_with(&format!("back to {back_to}")), "{said}");
            }
            other => panic!("settled: {other:?}"),
        }
    }

    #[test]
    fn a_doubling_that_does_not_pay_is_named_with_its_gain() {
        // Flat from 32 workers on: 64 move what 32 did.
        let mut adaptive = Adaptive::new(128);
        let seen = drive(&mut adaptive, 2, |w| w.min(32) as f64 * 100.0, |_, _| false);
        assert_eq!(seen, vec![64, 32]);
        assert_eq!(
            adaptive.settled().map(|s| s.to_string()).as_deref(),
            Some("64 workers moved 1.00x what 32 did, and keeping them needed 1.10x: back to 32")
        );
    }

    #[test]
    fn short_batches_and_throttling_are_named() {
        let mut adaptive = Adaptive::new(128);
        // Batches of 2 messages: a DLQ nearly drained.
        adaptive.observe(
            0.25,
            Sample {
                received: 200,
                batches: 100,
                throttled: 0,
                rate_waits: 0,
            },
        );
        assert_eq!(adaptive.settled(), Some(Settled::ShortBatches));
        drive(&mut adaptive, 1, |_| 1000.0, |_, _| true);
        assert_eq!(
            adaptive.settled(),
            Some(Settled::Throttled { from: 32, to: 24 })
        );
    }

    #[test]
    fn throttling_takes_a_quarter_away_down_to_the_floor() {
        let mut adaptive = Adaptive::new(256);
        let seen = drive(&mut adaptive, 3, |w| w as f64 * 100.0, |_, _| false);
        assert_eq!(seen, vec![64, 128, 256]);
        let seen = drive(&mut adaptive, 12, |w| w as f64 * 100.0, |_, _| true);
        assert_eq!(&seen[..3], &[192, 144, 108]);
        assert_eq!(adaptive.workers(), FLOOR);
    }

    #[test]
    fn noise_on_a_saturated_server_does_not_ratchet_the_workers_up() {
        // Throughput is flat past 32 workers, give or take 10 % per window, for 100 s.
        let mut adaptive = Adaptive::new(256);
        let mut seed = 12345u64;
        let (mut received, mut most) = (0u64, 0usize);
        for _ in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let noise = 0.9 + 0.2 * ((seed >> 33) as f64 / (1u64 << 31) as f64);
            let rate = adaptive.workers().min(32) as f64 * 300.0 * noise;
            received += (rate * 0.25) as u64;
            adaptive.observe(0.25, sample(received, 0));
            most = most.max(adaptive.workers());
        }
        assert!(
            adaptive.workers() <= 64,
            "crept up to {}",
            adaptive.workers()
        );
        assert!(most <= 80, "probed as far as {most}");
    }

    #[test]
    fn a_window_holds_a_batch_per_worker_and_is_longer_once_the_doubling_is_over() {
        let mut adaptive = Adaptive::new(256);
        let ms = Duration::from_millis;
        // Doubling: a tenth of a second, if every worker finished a batch in it.
        assert!(!adaptive.window_over(ms(60), 100));
        assert!(!adaptive.window_over(ms(100), 31));
        assert!(adaptive.window_over(ms(100), 32));
        // A slow server: the window waits for the batches, but not forever.
        assert!(!adaptive.window_over(ms(1500), 5));
        assert!(adaptive.window_over(MAX_WINDOW, 5));
        // 64 workers, saturated: stepping, then holding, in longer windows.
        adaptive.observe(0.1, sample(1000, 0));
        adaptive.observe(0.1, sample(2000, 0));
        assert_eq!(adaptive.workers(), START);
        assert!(!adaptive.window_over(ms(200), 1000));
        assert!(adaptive.window_over(STEADY_WINDOW, 32));
    }

    #[test]
    fn batches_that_come_back_short_do_not_make_it_grow() {
        // A DLQ nearly drained: each batch brings 3 messages, however many workers poll.
        let mut adaptive = Adaptive::new(256);
        let (mut received, mut batches) = (0, 0);
        for _ in 0..10 {
            batches += adaptive.workers() as u64;
            received += 3 * adaptive.workers() as u64;
            let now = Sample {
                batches,
                ..sample(received, 0)
            };
            adaptive.observe(0.25, now);
        }
        assert_eq!(adaptive.workers(), START);
    }

    #[test]
    fn a_run_that_waits_for_its_rate_does_not_grow() {
        let mut adaptive = Adaptive::new(256);
        for window in 1..=8u64 {
            let now = Sample {
                rate_waits: window,
                ..sample(window * 1_000, 0)
            };
            assert_eq!(adaptive.observe(0.25, now), None);
        }
        assert_eq!(adaptive.workers(), START);
    }

    #[test]
    fn a_run_that_moves_nothing_does_not_grow() {
        let mut adaptive = Adaptive::new(256);
        let seen = drive(&mut adaptive, 5, |_| 0.0, |_, _| false);
        assert!(seen.iter().all(|&w| w == START));
    }
}
