//! Arguments of `sqsctl receive`.

#[derive(Debug, clap::Args)]
pub struct ReceiveArgs {}

impl ReceiveArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::receive::ReceiveSettings> {
        Ok(crate::commands::receive::ReceiveSettings {})
    }
}
