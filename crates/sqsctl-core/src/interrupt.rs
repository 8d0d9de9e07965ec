//! Ctrl-C as a value that engines and commands share: a flag long-running loops check between
//! batches and a future they can race. SIGTERM and SIGHUP set it as Ctrl-C (SIGINT) does, and it
//! remembers which of them came first ([`StopSignal`]), for the exit code; everything else treats
//! the three alike, so "Ctrl-C" below stands for any of them. It knows nothing of the command line,
//! so the engines (`redrive`, `client::peek`) use it without reaching up into `app`. The note
//! printed when a second signal aborts the process ([`on_abort`]) is kept here too, for `app`'s
//! handler to read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// How long requests in flight may take to answer after the first Ctrl-C, by default.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(5);

/// A signal that stops a command: the first stops new work, a second aborts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    /// SIGINT: Ctrl-C on the terminal.
    Interrupt,
    /// SIGTERM: `kill`, systemd, Kubernetes and other service managers.
    Terminate,
    /// SIGHUP: the terminal was closed.
    HangUp,
}

impl StopSignal {
    /// The signal's name, as `kill -l` and service managers write it.
    pub fn name(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
            StopSignal::HangUp => "SIGHUP",
        }
    }
}

/// Ctrl-C, as a flag that long-running loops check between batches and a future they can race.
///
/// The first Ctrl-C stops new work; what is in flight may finish within the grace period
/// ([`Interrupt::grace_over`]). Work still unanswered then is abandoned, and its outcome is
/// reported as unknown.
#[derive(Clone)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    notify: Arc<Notify>,
    grace: Duration,
    triggered_at: Arc<OnceLock<Instant>>,
    stopped_by: Arc<OnceLock<StopSignal>>,
    abort: Arc<Abort>,
}

/// The second Ctrl-C, for commands that stop their own work on it ([`Interrupt::handle_abort`]).
#[derive(Default)]
struct Abort {
    handled: AtomicBool,
    pressed: AtomicBool,
    notify: Notify,
}

impl Default for Interrupt {
    fn default() -> Self {
        Interrupt::with_grace(DEFAULT_GRACE)
    }
}

impl Interrupt {
    /// An interrupt whose grace period for work in flight is `grace`.
    pub fn with_grace(grace: Duration) -> Interrupt {
        Interrupt {
            flag: Arc::default(),
            notify: Arc::default(),
            grace,
            triggered_at: Arc::default(),
            stopped_by: Arc::default(),
            abort: Arc::default(),
        }
    }

    /// Says that the running command stops its own work on a second Ctrl-C (child processes to
    /// kill, messages to release): the process then waits a moment for it instead of exiting at
    /// once.
    pub fn handle_abort(&self) {
        self.abort.handled.store(true, Ordering::SeqCst);
    }

    /// Whether the running command stops its own work on a second Ctrl-C.
    pub fn abort_is_handled(&self) -> bool {
        self.abort.handled.load(Ordering::SeqCst)
    }

    /// The second Ctrl-C: work in flight is to stop now.
    pub fn abort(&self) {
        self.trigger();
        self.abort.pressed.store(true, Ordering::SeqCst);
        self.abort.notify.notify_waiters();
    }

    pub fn is_aborted(&self) -> bool {
        self.abort.pressed.load(Ordering::SeqCst)
    }

    /// Resolves at the second Ctrl-C.
    pub async fn aborted(&self) {
        loop {
            let notified = self.abort.notify.notified();
            if self.is_aborted() {
                return;
            }
            notified.await;
        }
    }

    /// How long work in flight may go on after the first Ctrl-C.
    pub fn grace(&self) -> Duration {
        self.grace
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    pub fn trigger(&self) {
        let _ = self.triggered_at.set(Instant::now());
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// The first stop signal: as [`Interrupt::trigger`], remembering `signal` unless another came
    /// first.
    pub fn trigger_by(&self, signal: StopSignal) {
        let _ = self.stopped_by.set(signal);
        self.trigger();
    }

    /// The signal that stopped the command, if a signal did.
    pub fn stopped_by(&self) -> Option<StopSignal> {
        self.stopped_by.get().copied()
    }

    /// Resolves once Ctrl-C was pressed.
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }

    /// Resolves once the grace period after Ctrl-C has run out: requests still in flight then are
    /// abandoned, and their outcome is unknown.
    pub async fn grace_over(&self) {
        self.wait().await;
        let start = self
            .triggered_at
            .get()
            .copied()
            .unwrap_or_else(Instant::now);
        tokio::time::sleep_until(start + self.grace).await;
    }
}

/// What to tell the user if a second Ctrl-C aborts the process, set by commands that leave a record
/// to continue from (the redrive journal).
static ABORT_NOTE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Sets the line printed (after `aborted`) when a second Ctrl-C stops the process at once.
pub fn on_abort(note: String) {
    let _ = ABORT_NOTE.set(note);
}

/// The line set by [`on_abort`], if any.
pub fn abort_note() -> Option<&'static str> {
    ABORT_NOTE.get().map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn grace_runs_out_only_after_a_trigger_and_its_period() {
        let interrupt = Interrupt::with_grace(Duration::from_millis(400));
        let waiting = tokio::spawn({
            let interrupt = interrupt.clone();
            async move { interrupt.grace_over().await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "no Ctrl-C yet");
        interrupt.trigger();
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "still within the grace period");
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the grace period ends")
            .expect("no panic");
    }
}
