//! The server's notion of "now", which tests can freeze and move forward.
//!
//! Every timing rule of the server (visibility timeouts, delays, retention, the deduplication and
//! purge windows) reads a [`Clock`] instead of the system time, so a test can advance a manual clock
//! by five minutes in a microsecond. Waiting receives subscribe to [`Clock::advanced`] so that an
//! `advance` wakes them to look at messages that just became visible.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::Notify;

/// A shared clock: real (system time plus any advance) or manual (frozen until advanced). Clones share
/// the same time.
#[derive(Clone, Debug)]
pub struct Clock {
    inner: Arc<ClockInner>,
}

#[derive(Debug)]
struct ClockInner {
    manual: bool,
    /// For a manual clock the current time; for a real clock the offset added to the system time.
    millis: AtomicU64,
    advanced: Notify,
}

impl Clock {
    /// The system clock. `advance` still works on it, skewing it forward.
    pub fn real() -> Self {
        Self::with(false, 0)
    }

    /// A clock frozen at `start` until [`advance`](Self::advance) moves it.
    pub fn manual(start: SystemTime) -> Self {
        Self::with(true, epoch_millis(start))
    }

    /// A manual clock starting at the current system time.
    pub fn manual_now() -> Self {
        Self::manual(SystemTime::now())
    }

    fn with(manual: bool, millis: u64) -> Self {
        Clock {
            inner: Arc::new(ClockInner {
                manual,
                millis: AtomicU64::new(millis),
                advanced: Notify::new(),
            }),
        }
    }

    pub fn is_manual(&self) -> bool {
        self.inner.manual
    }

    /// Moves the clock forward and wakes every receive that waits for messages.
    pub fn advance(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.inner.millis.fetch_add(ms, Ordering::SeqCst);
        self.inner.advanced.notify_waiters();
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_millis(&self) -> u64 {
        let value = self.inner.millis.load(Ordering::SeqCst);
        if self.inner.manual {
            value
        } else {
            epoch_millis(SystemTime::now()).saturating_add(value)
        }
    }

    pub fn now(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.now_millis())
    }

    /// Resolves at the next `advance`. Create it before checking state so no advance is missed.
    pub fn advanced(&self) -> tokio::sync::futures::Notified<'_> {
        self.inner.advanced.notified()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::real()
    }
}

fn epoch_millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_advanced() {
        let clock = Clock::manual(UNIX_EPOCH + Duration::from_secs(1000));
        assert_eq!(clock.now_millis(), 1_000_000);
        clock.advance(Duration::from_millis(1500));
        assert_eq!(clock.now_millis(), 1_001_500);
        let shared = clock.clone();
        shared.advance(Duration::from_secs(1));
        assert_eq!(clock.now_millis(), 1_002_500);
    }

    #[test]
    fn real_clock_follows_system_time_plus_skew() {
        let clock = Clock::real();
        let before = epoch_millis(SystemTime::now());
        clock.advance(Duration::from_secs(60));
        assert!(clock.now_millis() >= before + 60_000);
    }
}
