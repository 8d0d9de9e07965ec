//! Arguments of `sqsctl purge`.

#[derive(Debug, clap::Args)]
pub struct PurgeArgs {}

impl PurgeArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::purge::PurgeSettings> {
        Ok(crate::commands::purge::PurgeSettings {})
    }
}
