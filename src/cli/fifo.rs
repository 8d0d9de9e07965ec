//! Arguments of `sqsctl fifo ...`.

use crate::cli::groups::GroupsArgs;

#[derive(Debug, clap::Subcommand)]
pub enum FifoCommand {
    /// Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism
    /// (the same as `sqsctl groups`)
    Groups(GroupsArgs),
}
