//! Arguments of `sqsctl queues`.

#[derive(Debug, clap::Args)]
pub struct QueuesArgs {}

impl QueuesArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::queues::QueuesSettings> {
        Ok(crate::commands::queues::QueuesSettings {})
    }
}
