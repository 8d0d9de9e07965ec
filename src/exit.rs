//! Exit codes are part of the public interface: scripts and alarms branch on them.

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
    /// `diagnose` ran and found at least one warning or error, or could not run every check.
    ProblemsFound,
    /// A read (peek, diagnose, `fifo groups`, `delete --message-id`, a dry run) saw messages
    /// arrive in the queue's dead-letter queue while it ran: it most likely moved them there.
    ReadDeadLettered,
    /// Stopped by Ctrl-C after finishing the work in flight.
    Interrupted,
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
            ExitStatus::Interrupted => 130,
        }
    }

    /// The help text that documents the codes, shared by `--help` and the man page.
    pub const HELP: &'static str = "Exit codes:\n  0    success\n  1    failure (see the error message)\n  2    usage error (bad arguments)\n  3    partially done: some messages were not sent, moved or deleted\n  4    diagnose found at least one warning or error, or could not run every check\n  5    a read moved messages to the dead-letter queue (see the warning)\n  130  interrupted by Ctrl-C (work in flight was finished first)";
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}
