//! The entry point of `consume`'s watchdog ([`sqsctl_core::consume::watchdog`]): this binary,
//! re-executed as the hidden `sqsctl consume-watchdog`.

use sqsctl_core::consume::watchdog::{self, Watchdog};

use crate::exit::ExitStatus;
use crate::output::Printer;

/// The hidden subcommand that runs [`serve`].
pub const SUBCOMMAND: &str = "consume-watchdog";

/// Starts the run's watchdog, this binary as [`SUBCOMMAND`], or warns that commands may outlive a
/// killed run.
pub fn start(printer: &Printer) -> Option<Watchdog> {
    if cfg!(not(unix)) {
        return None;
    }
    let started = std::env::current_exe().and_then(|exe| {
        let mut command = std::process::Command::new(exe);
        command.arg(SUBCOMMAND);
        Watchdog::start(command)
    });
    match started {
        Ok(watchdog) => Some(watchdog),
        Err(err) => {
            printer.warn(format!(
                "could not start the watchdog that stops the commands if sqsctl is killed ({err}): a command may outlive a `kill -9` of this run"
            ));
            None
        }
    }
}

/// The watchdog's process, until the run that started it is gone.
pub fn serve() -> ExitStatus {
    match watchdog::serve() {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subcommand_the_run_starts_is_the_watchdog() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["sqsctl", SUBCOMMAND]);
        assert!(matches!(
            cli.map(|cli| cli.command),
            Ok(crate::cli::Command::ConsumeWatchdog)
        ));
    }
}
