//! `sqsctl fifo groups`: the name `sqsctl groups` had when it read FIFO queues only, kept as an
//! alias.

use crate::cli::fifo::FifoCommand;
use crate::commands::groups::GroupsSettings;

/// The settings of the `groups` run a `fifo` subcommand stands for.
pub fn resolve(command: FifoCommand) -> anyhow::Result<GroupsSettings> {
    match command {
        FifoCommand::Groups(args) => GroupsSettings::resolve(args),
    }
}
