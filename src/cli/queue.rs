//! Arguments of `sqsctl queue info|create|delete`.

#[derive(Debug, clap::Subcommand)]
pub enum QueueCommand {
    /// Show every attribute of a queue, its redrive policy decoded, its DLQ and its sources
    Info(QueueInfoArgs),
    /// Create a queue (optionally FIFO, optionally with a dead-letter queue)
    Create(QueueCreateArgs),
    /// Delete a queue and every message in it
    Delete(QueueDeleteArgs),
}

#[derive(Debug, clap::Args)]
pub struct QueueInfoArgs {}

#[derive(Debug, clap::Args)]
pub struct QueueCreateArgs {}

#[derive(Debug, clap::Args)]
pub struct QueueDeleteArgs {}

impl QueueCommand {
    pub fn resolve(self) -> anyhow::Result<crate::commands::queue::QueueSettings> {
        Ok(crate::commands::queue::QueueSettings {})
    }
}
