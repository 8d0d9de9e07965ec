//! Arguments of `sqsctl send`.

#[derive(Debug, clap::Args)]
pub struct SendArgs {}

impl SendArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::send::SendSettings> {
        Ok(crate::commands::send::SendSettings {})
    }
}
