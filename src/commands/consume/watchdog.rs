//! The entry point of `consume`'s watchdog ([`sqsctl_core::consume::watchdog`]): this binary,
//! re-executed as the hidden `sqsctl consume-watchdog`.

use sqsctl_core::consume::watchdog::{self, Watchdog};

use crate::exit::ExitStatus;

/// The hidden subcommand that runs [`serve`].
pub const SUBCOMMAND: &str = "consume-watchdog";

/// Starts the run's watchdog: this binary as [`SUBCOMMAND`].
pub fn start() -> std::io::Result<Watchdog> {
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command.arg(SUBCOMMAND);
    Watchdog::start(command)
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
