//! Fault and latency injection, and the request counters.
//!
//! A seeded generator decides, request by request, whether to answer with an error instead of (or,
//! for "ambiguous" failures, after) doing the work, and whether to fail individual batch entries.
//! With the same seed and the same sequence of requests the same faults happen.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Counters of what the server did, from [`crate::Server::stats`] or `GET /_sqsctl/stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// SQS API requests received (the stats endpoint itself is not counted).
    pub requests: u64,
    /// Requests answered with an injected error (throttling, internal or ambiguous).
    pub injected_errors: u64,
    /// The part of `injected_errors` that were throttling errors.
    pub throttled: u64,
    /// Requests whose action was applied before an injected 500 was returned.
    pub ambiguous_failures: u64,
    /// Messages sent by those requests (SendMessage, and the successful entries of
    /// SendMessageBatch): the sender was told the send failed, so a retry sends them again.
    pub ambiguous_sends: u64,
    /// Messages delivered by ReceiveMessage requests that were answered with an injected 500: the
    /// receiver never saw them, yet each such delivery counts towards `maxReceiveCount`.
    pub ambiguous_receives: u64,
    /// Batch entries failed individually by injection (not applied).
    pub entry_failures: u64,
    /// Second deliveries of a message made under [`crate::Realism::duplicate_rate`]: each is a
    /// message a consumer received once more than it was sent.
    pub duplicate_deliveries: u64,
}

/// What to do with one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    None,
    Throttle,
    Internal,
    /// Apply the action, then answer 500.
    Ambiguous,
}

#[derive(Debug)]
pub struct Faults {
    pub latency: Duration,
    fault_rate: f64,
    entry_fault_rate: f64,
    rng: Mutex<SmallRng>,
    requests: AtomicU64,
    injected: AtomicU64,
    throttled: AtomicU64,
    ambiguous: AtomicU64,
    ambiguous_sends: AtomicU64,
    ambiguous_receives: AtomicU64,
    entries: AtomicU64,
}

impl Faults {
    pub fn new(
        latency: Duration,
        fault_rate: f64,
        entry_fault_rate: f64,
        seed: Option<u64>,
    ) -> Self {
        let rng = match seed {
            Some(seed) => SmallRng::seed_from_u64(seed),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        let clamp = |r: f64| {
            if r.is_finite() {
                r.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        Faults {
            latency,
            fault_rate: clamp(fault_rate),
            entry_fault_rate: clamp(entry_fault_rate),
            rng: Mutex::new(rng),
            requests: AtomicU64::new(0),
            injected: AtomicU64::new(0),
            throttled: AtomicU64::new(0),
            ambiguous: AtomicU64::new(0),
            ambiguous_sends: AtomicU64::new(0),
            ambiguous_receives: AtomicU64::new(0),
            entries: AtomicU64::new(0),
        }
    }

    /// Counts a request and decides its fate. Only mutating actions fail ambiguously.
    pub fn decide(&self, mutating: bool) -> Fault {
        self.requests.fetch_add(1, Ordering::Relaxed);
        if self.fault_rate <= 0.0 {
            return Fault::None;
        }
        let (hit, pick) = {
            let mut rng = self.rng.lock();
            let hit = rng.random::<f64>() < self.fault_rate;
            let pick = rng.random_range(0..3u8);
            (hit, pick)
        };
        if !hit {
            return Fault::None;
        }
        match pick {
            0 => Fault::Throttle,
            1 if mutating => Fault::Ambiguous,
            _ => Fault::Internal,
        }
    }

    pub fn count_injected(&self, fault: Fault) {
        self.injected.fetch_add(1, Ordering::Relaxed);
        match fault {
            Fault::Throttle => {
                self.throttled.fetch_add(1, Ordering::Relaxed);
            }
            Fault::Ambiguous => {
                self.ambiguous.fetch_add(1, Ordering::Relaxed);
            }
            Fault::Internal | Fault::None => {}
        }
    }

    /// Counts the messages an ambiguously failed request sent and received.
    pub fn count_ambiguous_messages(&self, sent: u64, received: u64) {
        self.ambiguous_sends.fetch_add(sent, Ordering::Relaxed);
        self.ambiguous_receives
            .fetch_add(received, Ordering::Relaxed);
    }

    /// Whether to fail one batch entry; counts it if so.
    pub fn fail_entry(&self) -> bool {
        if self.entry_fault_rate <= 0.0 {
            return false;
        }
        let hit = self.rng.lock().random::<f64>() < self.entry_fault_rate;
        if hit {
            self.entries.fetch_add(1, Ordering::Relaxed);
        }
        hit
    }

    pub fn stats(&self) -> Stats {
        Stats {
            requests: self.requests.load(Ordering::Relaxed),
            injected_errors: self.injected.load(Ordering::Relaxed),
            throttled: self.throttled.load(Ordering::Relaxed),
            ambiguous_failures: self.ambiguous.load(Ordering::Relaxed),
            ambiguous_sends: self.ambiguous_sends.load(Ordering::Relaxed),
            ambiguous_receives: self.ambiguous_receives.load(Ordering::Relaxed),
            entry_failures: self.entries.load(Ordering::Relaxed),
            duplicate_deliveries: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_faults() {
        let run = || {
            let faults = Faults::new(Duration::ZERO, 0.3, 0.2, Some(7));
            let decisions: Vec<Fault> = (0..200).map(|i| faults.decide(i % 2 == 0)).collect();
            let entries: Vec<bool> = (0..200).map(|_| faults.fail_entry()).collect();
            (decisions, entries)
        };
        assert_eq!(run(), run());
        let (decisions, _) = run();
        assert!(decisions.contains(&Fault::Ambiguous));
        assert!(decisions.contains(&Fault::Throttle));
        assert!(decisions.contains(&Fault::None));
    }

    #[test]
    fn zero_rate_never_faults() {
        let faults = Faults::new(Duration::ZERO, 0.0, 0.0, None);
        assert!((0..1000).all(|_| faults.decide(true) == Fault::None && !faults.fail_entry()));
        assert_eq!(faults.stats().requests, 1000);
    }
}
