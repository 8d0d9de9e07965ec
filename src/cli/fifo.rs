//! Arguments of `sqsctl fifo ...`.

#[derive(Debug, clap::Subcommand)]
pub enum FifoCommand {
    /// Show each message group: depth, in flight, oldest age, blocked or not; and the parallelism
    Groups(FifoGroupsArgs),
}

#[derive(Debug, clap::Args)]
pub struct FifoGroupsArgs {}

impl FifoCommand {
    pub fn resolve(self) -> anyhow::Result<crate::commands::fifo::FifoSettings> {
        Ok(crate::commands::fifo::FifoSettings {})
    }
}
