//! Arguments of `sqsctl redrive`.

#[derive(Debug, clap::Args)]
pub struct RedriveArgs {}

impl RedriveArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::redrive::RedriveSettings> {
        Ok(crate::commands::redrive::RedriveSettings {})
    }
}
