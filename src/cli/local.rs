//! Arguments of `sqsctl local`.

#[derive(Debug, clap::Args)]
pub struct LocalArgs {}

impl LocalArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::local::LocalSettings> {
        Ok(crate::commands::local::LocalSettings {})
    }
}
