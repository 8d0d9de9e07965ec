//! Arguments of `sqsctl delete`.

#[derive(Debug, clap::Args)]
pub struct DeleteArgs {}

impl DeleteArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::delete::DeleteSettings> {
        Ok(crate::commands::delete::DeleteSettings {})
    }
}
