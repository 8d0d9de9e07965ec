//! Exit codes are part of the public interface: scripts and alarms branch on them.

use crate::interrupt::StopSignal;

/// How a run ended. The numeric values are stable and documented in `--help`, the man page and the
/// README.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Everything asked for was done.
    Success,
    /// The command failed; nothing or not all of it was done (see the error).
    Failure,
    /// The command line was wrong (clap uses this code too).
    Usage,
    /// The command ran, but part of the work was not done: some messages were not sent, moved or
    /// deleted. The summary says which.
    Partial,
    /// `diagnose` ran and found at least one warning or error, or could not run every check; or
    /// a read's answer is incomplete: SQS's counts lagged behind what `diagnose`, `fifo groups`
    /// or the dry run of a FIFO DLQ read, so what the read did not see is unknown.
    ProblemsFound,
    /// A read (peek, diagnose, `fifo groups`, `delete --message-id`, a dry run) saw messages
    /// arrive in the queue's dead-letter queue while it ran: it most likely moved them there.
    ReadDeadLettered,
    /// A confirmation prompt was answered with no: nothing was changed.
    Declined,
    /// Stopped by Ctrl-C after finishing the work in flight (or cancelled at a prompt).
    Interrupted,
    /// Stopped by SIGTERM, as by Ctrl-C.
    Terminated,
    /// Stopped by SIGHUP (the terminal was closed), as by Ctrl-C.
    HungUp,
}

impl ExitStatus {
    pub const fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Partial => 3,
            ExitStatus::ProblemsFound => 4,
            ExitStatus::ReadDeadLettered => 5,
            ExitStatus::Declined => 6,
            ExitStatus::Interrupted => 130,
            ExitStatus::Terminated => 143,
            ExitStatus::HungUp => 129,
        }
    }

    /// How a run stopped by `signal` ends: 128 + the signal's number, as a shell reports a
    /// process the signal killed, so that scripts and service managers read it as that signal.
    pub const fn stopped_by(signal: StopSignal) -> ExitStatus {
        match signal {
            StopSignal::Interrupt => ExitStatus::Interrupted,
            StopSignal::Terminate => ExitStatus::Terminated,
            StopSignal::HangUp => ExitStatus::HungUp,
        }
    }

    /// The help text that documents the codes, shared by `--help` and the man page.
    pub const HELP: &'static str = "Exit codes:\n  0    success\n  1    failure (see the error message)\n  2    usage error (bad arguments)\n  3    partially done: some messages were not sent, moved or deleted\n  4    diagnose found problems, or an answer is incomplete (a check did not run, or counts lagged)\n  5    a read moved messages to the dead-letter queue (see the warning)\n  6    declined: the answer at a confirmation prompt was no, and nothing was changed\n  129  stopped by SIGHUP (the terminal closed), as by Ctrl-C\n  130  interrupted by Ctrl-C (work in flight finished first; at a prompt, also end of input)\n  143  stopped by SIGTERM, as by Ctrl-C";
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}
