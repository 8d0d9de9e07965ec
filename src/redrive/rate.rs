//! `--rate`: a token bucket that never lets more than one batch through ahead of the rate.
//!
//! The bucket starts empty and holds at most `capacity` tokens (one batch). A caller reserves the
//! tokens for a batch before it receives it; when the bucket is short, the reservation goes into
//! debt and the caller waits until the debt is repaid. So in any window of `w` seconds at most
//! `rate * w + capacity` messages pass, and over a run the average is the rate itself. Tokens a
//! batch did not use (a receive returned fewer messages) are handed back.

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
    /// them.
    pub fn reserve(&mut self, now: f64, n: f64) -> f64 {
        self.refill(now);
        self.tokens -= n;
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
}

/// The bucket shared by the engine's workers, on the monotonic clock.
#[derive(Debug)]
pub struct RateLimiter {
    bucket: Mutex<TokenBucket>,
    origin: Instant,
    batch: usize,
}

impl RateLimiter {
    /// A limiter for `rate` messages per second. Its batch size (and capacity) is the rate rounded
    /// down, between 1 and 10, so a slow rate is not met with bursts of ten.
    pub fn new(rate: f64) -> RateLimiter {
        let batch = Self::batch_for(rate);
        RateLimiter {
            bucket: Mutex::new(TokenBucket::new(rate, batch as f64, 0.0)),
            origin: Instant::now(),
            batch,
        }
    }

    pub fn batch_for(rate: f64) -> usize {
        (rate.floor() as usize).clamp(1, 10)
    }

    /// The most messages one reservation should ask for.
    pub fn batch(&self) -> usize {
        self.batch
    }

    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }

    pub async fn acquire(&self, n: usize) {
        let wait = self.bucket.lock().reserve(self.now(), n as f64);
        if wait > 0.0 {
            tokio::time::sleep(Duration::from_secs_f64(wait)).await;
        }
    }

    pub fn refund(&self, n: usize) {
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

    /// Simulates `workers` workers that each reserve a batch, wait, send, and come back after
    /// `latency` seconds; returns the times at which each batch went out, with its size.
    fn simulate(rate: f64, workers: usize, latency: f64, seconds: f64) -> Vec<(f64, usize)> {
        let batch = RateLimiter::batch_for(rate);
        let mut bucket = TokenBucket::new(rate, batch as f64, 0.0);
        // (time the worker asks, worker index) as integer nanoseconds for the heap.
        let mut queue: BinaryHeap<Reverse<(u64, usize)>> =
            (0..workers).map(|w| Reverse((0, w))).collect();
        let mut sends = Vec::new();
        while let Some(Reverse((at, worker))) = queue.pop() {
            let now = at as f64 / 1e9;
            if now > seconds {
                break;
            }
            let wait = bucket.reserve(now, batch as f64);
            let sent_at = now + wait;
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
    fn batch_size_follows_slow_rates() {
        assert_eq!(RateLimiter::batch_for(0.2), 1);
        assert_eq!(RateLimiter::batch_for(3.7), 3);
        assert_eq!(RateLimiter::batch_for(500.0), 10);
    }
}
