//! What a run of the worker is given: its [`Plan`], the values of its options, finished (each
//! default applied and each value checked where it was read), and the [`Options`] a run needs
//! besides: the command as the operating system finds it, where its output goes, the watchdog,
//! the compiled selection, Ctrl-C.

use std::path::PathBuf;
use std::time::Duration;

use super::child::OutputMode;
use super::source::Source;
use super::watchdog::Watchdog;
use crate::interrupt::Interrupt;
use crate::select::Selector;

/// How a run goes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Commands running at once (at least 1).
    pub concurrency: usize,
    /// On a standard queue, commands running at once for one group id (tenant) at most; `None`:
    /// no cap. A FIFO queue runs one per group already.
    pub per_group: Option<usize>,
    /// Messages to run at most; `None`: no limit.
    pub max: Option<u64>,
    /// Stop once nothing was received for this long with nothing held; `None`: run until stopped.
    pub idle_exit: Option<Duration>,
    /// The command reads the message record as one line of JSON instead of the body.
    pub record_on_stdin: bool,
    /// How long a failed message stays hidden after its first receive, doubled with each further
    /// receive ([`super::retry_delay`]), at most `max_retry_delay`.
    pub retry_delay: Duration,
    pub max_retry_delay: Duration,
    /// Exit codes that release the message at once, without the retry delay.
    pub release_exit_codes: Vec<i32>,
    /// A command that runs longer is stopped and counts as failed.
    pub timeout: Option<Duration>,
    /// The visibility timeout messages are received with, and what each extension asks for;
    /// `None`: the queue's.
    pub visibility: Option<Duration>,
    /// The longest wait of one receive, in seconds.
    pub wait_seconds: i32,
}

impl Plan {
    /// The visibility timeout a run on `source` holds its messages for.
    pub fn visibility_on(&self, source: &Source) -> Duration {
        self.visibility.unwrap_or(source.visibility)
    }
}

/// What a run needs besides its plan.
pub struct Options {
    /// The command run for each message, as [`super::find_program`] found it.
    pub program: PathBuf,
    pub args: Vec<String>,
    pub output: OutputMode,
    /// Told of each command's process group while it runs.
    pub watchdog: Option<Watchdog>,
    pub selector: Selector,
    pub interrupt: Interrupt,
}
