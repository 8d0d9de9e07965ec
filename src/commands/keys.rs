//! The keyboard and the screen of the full-screen views (`top`, `browse`): keys read on a thread of
//! their own (crossterm's reads block), which stops when dropped and pauses while another program
//! (an editor) owns the terminal; and the guard that puts the terminal back on every way out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::crossterm::event::{self, Event};
use tokio::sync::mpsc;

/// True while another program (an editor) runs on the terminal: Ctrl-C typed there is its own.
static TERMINAL_LENT: AtomicBool = AtomicBool::new(false);

/// Whether a program sqsctl started owns the terminal now; the signal handler leaves its Ctrl-C
/// to it.
pub fn terminal_is_lent() -> bool {
    TERMINAL_LENT.load(Ordering::SeqCst)
}

/// Marks the terminal lent to another program until dropped.
pub struct Lent;

/// Lends the terminal to another program until the guard is dropped.
pub fn lend_terminal() -> Lent {
    TERMINAL_LENT.store(true, Ordering::SeqCst);
    Lent
}

impl Drop for Lent {
    fn drop(&mut self) {
        TERMINAL_LENT.store(false, Ordering::SeqCst);
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
