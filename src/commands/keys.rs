//! The keyboard and the screen of the full-screen views (`top`, `browse`): keys read on a thread of
//! their own (crossterm's reads block), which stops when dropped and pauses while another program
//! (an editor) owns the terminal; and the guard that puts the terminal back on every way out.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};
use tokio::sync::mpsc;

/// Until when (milliseconds after [`clock_base`]) a Ctrl-C is taken for that of another program
/// (an editor) on the terminal: `u64::MAX` while it runs, a moment past its end afterwards.
static LENT_UNTIL_MS: AtomicU64 = AtomicU64::new(0);

/// How long after the other program ends its Ctrl-C is still its own. A Ctrl-C typed in the editor
/// reaches both it and sqsctl; the editor may exit, and be waited for, before sqsctl's handler
/// takes the signal. By the end of this moment the view is back in raw mode, where Ctrl-C is a key,
/// not a signal, so only a SIGINT sent from elsewhere within it is passed over.
const LENT_AFTER: Duration = Duration::from_secs(1);

fn clock_base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    u64::try_from(clock_base().elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Whether a program sqsctl started owns the terminal now, or did a moment ago (see
/// [`LENT_AFTER`]); the signal handler leaves its Ctrl-C to it.
pub fn terminal_is_lent() -> bool {
    now_ms() < LENT_UNTIL_MS.load(Ordering::SeqCst)
}

/// Marks the terminal lent to another program until dropped, and for [`LENT_AFTER`] after.
pub struct Lent;

/// Lends the terminal to another program until the guard is dropped.
pub fn lend_terminal() -> Lent {
    LENT_UNTIL_MS.store(u64::MAX, Ordering::SeqCst);
    Lent
}

impl Drop for Lent {
    fn drop(&mut self) {
        let until = now_ms().saturating_add(LENT_AFTER.as_millis() as u64);
        LENT_UNTIL_MS.store(until, Ordering::SeqCst);
    }
}

/// How long one wait for a key lasts before the reader checks whether to stop or pause.
const POLL: Duration = Duration::from_millis(50);

/// Puts the terminal back (raw mode off, the main screen back, the cursor shown) when dropped;
/// a panic is covered by ratatui's panic hook.
pub struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// The terminal's events, read until dropped.
pub struct Keys {
    events: mpsc::UnboundedReceiver<Event>,
    stop: Arc<AtomicBool>,
    paused: Arc<AtomicBool>,
}

impl Drop for Keys {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Keys {
    pub fn spawn() -> Keys {
        let stop = Arc::new(AtomicBool::new(false));
        let paused = Arc::new(AtomicBool::new(false));
        let (keys, events) = mpsc::unbounded_channel();
        let (stopped, held) = (stop.clone(), paused.clone());
        std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                if held.load(Ordering::SeqCst) {
                    std::thread::sleep(POLL / 2);
                    continue;
                }
                match event::poll(POLL) {
                    Ok(true) => match event::read() {
                        Ok(event) => {
                            if keys.send(event).is_err() {
                                return;
                            }
                        }
                        Err(_) => return,
                    },
                    Ok(false) => {}
                    Err(_) => return,
                }
            }
        });
        Keys {
            events,
            stop,
            paused,
        }
    }

    /// The next event; `None` once the reader stopped (the terminal is gone).
    pub async fn recv(&mut self) -> Option<Event> {
        self.events.recv().await
    }

    /// Drops the keys typed so far and not yet handled: a question must not take an answer typed
    /// before it was shown.
    pub fn discard_typed_ahead(&mut self) {
        while self.events.try_recv().is_ok() {}
    }

    /// Stops reading the terminal, waiting out the reader's last poll, or starts again.
    pub async fn pause(&self, paused: bool) {
        self.paused.store(paused, Ordering::SeqCst);
        if paused {
            tokio::time::sleep(POLL * 2 + POLL / 2).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor exits on the Ctrl-C typed in it, and may be waited for before sqsctl's handler
    /// takes the same signal: that Ctrl-C must still be the editor's, not a stop of the view.
    #[test]
    fn a_ctrl_c_taken_just_after_the_editor_ended_is_still_the_editors() {
        let lent = lend_terminal();
        assert!(terminal_is_lent());
        drop(lent);
        assert!(
            terminal_is_lent(),
            "within the moment after the editor ended"
        );
        LENT_UNTIL_MS.store(now_ms(), Ordering::SeqCst);
        assert!(!terminal_is_lent(), "once the moment is over");
    }
}
