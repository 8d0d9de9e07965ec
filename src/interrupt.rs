//! Ctrl-C as a value that engines and commands share: a flag long-running loops check between
//! batches and a future they can race. It knows nothing of the command line, so the engines
//! (`redrive`, `client::peek`) use it without reaching up into `app`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Ctrl-C, as a flag that long-running loops check between batches and a future they can race.
#[derive(Clone, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    notify: Arc<Notify>,
}

impl Interrupt {
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    pub fn trigger(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
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
}
