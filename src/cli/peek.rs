//! Arguments of `sqsctl peek`.

#[derive(Debug, clap::Args)]
pub struct PeekArgs {}

impl PeekArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::peek::PeekSettings> {
        Ok(crate::commands::peek::PeekSettings {})
    }
}
