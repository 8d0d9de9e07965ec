//! `--rate`: a token bucket that never lets more than one batch through ahead of the rate.
//!
//! The bucket starts empty and holds at most `capacity` tokens (one batch). Callers take the
//! tokens for the messages of a batch before they send it, one caller at a time and in arrival
//! order: the caller at the head reserves its tokens (the bucket may owe at most that one batch),
//! waits until the debt is repaid, and lets the next one in. Callers still queued owe nothing, so
//! the rate is met from the first second, and a caller that leaves (Ctrl-C) gives its reservation
//! back. A caller that oversleeps does not lose the time: the next one's wait is shorter. In any
//! window of `w` seconds at most `rate * w + capacity` messages pass.

use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// The pure bucket, on a clock given in seconds (so tests can simulate time).
#[derive(Debug, Clone)]
pub struct TokenBucket {
    rate: f64,
    capacity: f64,
    tokens: f64,
    last: f64,
}

impl TokenBucket {
    /// An empty bucket refilled at `rate` tokens per second, holding at most `capacity`.
    pub fn new(rate: f64, capacity: f64, now: f64) -> TokenBucket {
        TokenBucket {
            rate,
            capacity,
            tokens: 0.0,
            last: now,
        }
    }

    fn refill(&mut self, now: f64) {
        if now > self.last {
            self.tokens = (self.tokens + (now - self.last) * self.rate).min(self.capacity);
            self.last = now;
        }
    }

    /// Takes `n` tokens and returns how long (seconds from `now`) the caller must wait before using
    /// them. Only the caller at the head of the queue reserves, so the debt is at most one batch.
    pub fn reserve(&mut self, now: f64, n: f64) -> f64 {
        self.refill(now);
        self.tokens -= n;
        self.wait(now)
    }

    /// How long until the bucket owes nothing (after a refund, sooner than `reserve` said).
    pub fn wait(&mut self, now: f64) -> f64 {
        self.refill(now);
        if self.tokens >= 0.0 {
            0.0
        } else {
            -self.tokens / self.rate
        }
    }

    /// Gives back tokens a reservation did not use.
    pub fn refund(&mut self, now: f64, n: f64) {
        self.refill(now);
        self.tokens = (self.tokens + n).min(self.capacity);
    }

    /// The tokens held now (negative while a reservation is being waited for).
    pub fn tokens(&mut self, now: f64) -> f64 {
        self.refill(now);
        self.tokens
    }
}

/// The bucket shared by the engine's workers, on the monotonic clock.
#[derive(Debug)]
pub struct RateLimiter {
    bucket: Mutex<TokenBucket>,
    /// One caller reserves and waits at a time; the others queue here in arrival order.
    turn: tokio::sync::Mutex<()>,
    origin: Instant,
    batch: usize,
    /// Acquisitions that had to wait for their tokens: the rate, not the workers, set the pace.
    waits: std::sync::atomic::AtomicU64,
}

/// The head caller's reservation: given back if the caller leaves before its tokens are due.
struct Reservation<'a> {
    limiter: &'a RateLimiter,
    n: usize,
    done: bool,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.limiter.refund(self.n);
        }
    }
}

impl RateLimiter {
    /// A limiter for `rate` messages per second. Its batch size (and capacity) is the rate rounded
    /// down, between 1 and 10, so a slow rate is not met with bursts of ten.
    pub fn new(rate: f64) -> RateLimiter {
        let batch = Self::batch_for(rate);
        RateLimiter {
            bucket: Mutex::new(TokenBucket::new(rate, batch as f64, 0.0)),
            turn: tokio::sync::Mutex::new(()),
            origin: Instant::now(),
            batch,
            waits: std::sync::atomic::AtomicU64::new(0),
        }
    }

    pub fn batch_for(rate: f64) -> usize {
        (rate.floor() as usize).clamp(1, 10)
    }

    /// How many acquisitions so far had to wait for their tokens.
    pub fn waits(&self) -> u64 {
        self.waits.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The most messages one reservation should ask for.
    pub fn batch(&self) -> usize {
        self.batch
    }

    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }

    /// Waits for `n` tokens and takes them. Dropping the future (Ctrl-C) leaves the queue and gives
    /// back what it had reserved.
    pub async fn acquire(&self, n: usize) {
        let _turn = self.turn.lock().await;
        let mut reservation = Reservation {
            limiter: self,
            n,
            done: false,
        };
        self.bucket.lock().reserve(self.now(), n as f64);
        let mut waited = false;
        loop {
            // Re-checked after each sleep: a sleep may end early or late.
            let wait = self.bucket.lock().wait(self.now());
            if wait <= 0.0 {
                reservation.done = true;
                return;
            }
            if !waited {
                waited = true;
                self.waits
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            tokio::time::sleep(Duration::from_secs_f64(wait)).await;
        }
    }

    fn refund(&self, n: usize) {
        if n > 0 {
            self.bucket.lock().refund(self.now(), n as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The caller at the head, whose turn comes at `now`, reserves and waits, as
    /// `RateLimiter::acquire` does. Returns when its tokens are due.
    fn take_when_ready(bucket: &mut TokenBucket, now: f64, n: f64) -> f64 {
        let wait = bucket.reserve(now, n);
        // The bucket owes at most the one batch being waited for.
        assert!(bucket.tokens(now) >= -n - 1e-9);
        now + wait
    }

    /// Simulates `workers` workers that each take a batch of tokens (one at a time, in arrival
    /// order, as the limiter's queue makes them), send, and come back after `latency` seconds;
    /// returns the times at which each batch went out, with its size.
    fn simulate(rate: f64, workers: usize, latency: f64, seconds: f64) -> Vec<(f64, usize)> {
        let batch = RateLimiter::batch_for(rate);
        let mut bucket = TokenBucket::new(rate, batch as f64, 0.0);
        // (time the worker asks, worker index) as integer nanoseconds for the heap.
        let mut queue: BinaryHeap<Reverse<(u64, usize)>> =
            (0..workers).map(|w| Reverse((0, w))).collect();
        let mut sends = Vec::new();
        // When the caller ahead in the queue got its tokens.
        let mut turn = 0.0f64;
        while let Some(Reverse((at, worker))) = queue.pop() {
            let now = (at as f64 / 1e9).max(turn);
            if now > seconds {
                break;
            }
            let sent_at = take_when_ready(&mut bucket, now, batch as f64);
            turn = sent_at;
            if sent_at <= seconds {
                sends.push((sent_at, batch));
            }
            let next = sent_at + latency;
            queue.push(Reverse(((next * 1e9) as u64, worker)));
        }
        sends.sort_by(|a, b| a.0.total_cmp(&b.0));
        sends
    }

    fn max_in_window(sends: &[(f64, usize)], window: f64) -> usize {
        let mut best = 0;
        let mut start = 0;
        let mut sum = 0;
        for end in 0..sends.len() {
            sum += sends[end].1;
            while sends[end].0 - sends[start].0 > window {
                sum -= sends[start].1;
                start += 1;
            }
            best = best.max(sum);
        }
        best
    }

    #[test]
    fn achieved_rate_is_within_two_percent_over_thirty_seconds() {
        for (rate, workers, latency) in [
            (1000.0, 16, 0.015),
            (250.0, 4, 0.030),
            (37.0, 16, 0.005),
            (3.0, 8, 0.020),
            (1.0, 1, 0.0),
        ] {
            let sends = simulate(rate, workers, latency, 30.0);
            let total: usize = sends.iter().map(|s| s.1).sum();
            let achieved = total as f64 / 30.0;
            assert!(
                (achieved - rate).abs() <= rate * 0.02,
                "rate {rate}: achieved {achieved}"
            );
        }
    }

    #[test]
    fn never_more_than_one_batch_ahead_of_the_rate() {
        for (rate, workers) in [(1000.0, 32), (100.0, 16), (7.0, 4), (0.5, 2)] {
            let sends = simulate(rate, workers, 0.001, 30.0);
            let batch = RateLimiter::batch_for(rate);
            for window in [0.01, 0.1, 1.0, 5.0] {
                let most = max_in_window(&sends, window);
                let allowed = (rate * window).floor() as usize + batch;
                assert!(
                    most <= allowed,
                    "rate {rate}, window {window}s: {most} > {allowed}"
                );
            }
        }
    }

    #[test]
    fn a_fresh_bucket_does_not_burst_and_refunds_are_capped() {
        let mut bucket = TokenBucket::new(10.0, 10.0, 0.0);
        assert!(bucket.reserve(0.0, 10.0) > 0.99, "starts empty");
        let mut bucket = TokenBucket::new(10.0, 10.0, 0.0);
        bucket.refund(100.0, 50.0);
        assert_eq!(bucket.reserve(100.0, 10.0), 0.0);
        assert!(bucket.reserve(100.0, 1.0) > 0.0, "capacity is one batch");
    }

    #[test]
    fn the_queue_owes_one_batch_at_most_and_a_cancelled_reservation_is_given_back() {
        // Sixteen workers asking for a batch of 5 at rate 5 at the same moment: only the head
        // reserves, so the bucket owes one batch (1 s), not sixteen (16 s, which workers used to
        // sleep off long after the DLQ ran dry).
        let mut bucket = TokenBucket::new(5.0, 5.0, 0.0);
        assert!((bucket.reserve(0.0, 5.0) - 1.0).abs() < 1e-9);
        assert!((bucket.tokens(0.0) + 5.0).abs() < 1e-9);
        // Halfway through its wait the DLQ is found empty: the head leaves and gives its
        // reservation back; nothing is owed and the next caller is not held up by it.
        bucket.refund(0.5, 5.0);
        assert_eq!(bucket.wait(0.5), 0.0);
        assert!((bucket.tokens(0.5) - 2.5).abs() < 1e-9);
        // A partial refund (3 of 5 tokens) shortens the next caller's wait.
        assert!((bucket.reserve(0.5, 5.0) - 0.5).abs() < 1e-9);
        bucket.refund(0.5, 3.0);
        assert_eq!(bucket.wait(0.5), 0.0);
        // A caller that overslept does not lose the time: the next wait is shorter.
        let mut bucket = TokenBucket::new(100.0, 10.0, 0.0);
        assert!((bucket.reserve(0.0, 10.0) - 0.1).abs() < 1e-9);
        assert_eq!(bucket.wait(0.13), 0.0);
        assert!((bucket.reserve(0.13, 10.0) - 0.07).abs() < 1e-9);
    }

    #[test]
    fn a_short_run_meets_the_rate_from_the_start() {
        // 16 workers at rate 5: 20 messages go out within 4 seconds, one batch per second.
        let sends = simulate(5.0, 16, 0.005, 4.0);
        let total: usize = sends.iter().map(|s| s.1).sum();
        assert_eq!(total, 20, "{sends:?}");
        for (second, (at, _)) in sends.iter().enumerate() {
            assert!((at - (second + 1) as f64).abs() < 1e-6, "{sends:?}");
        }
    }

    #[test]
    fn batch_size_follows_slow_rates() {
        assert_eq!(RateLimiter::batch_for(0.2), 1);
        assert_eq!(RateLimiter::batch_for(3.7), 3);
        assert_eq!(RateLimiter::batch_for(500.0), 10);
    }
}
