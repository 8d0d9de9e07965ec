//! Arguments of `sqsctl diagnose`.

#[derive(Debug, clap::Args)]
pub struct DiagnoseArgs {}

impl DiagnoseArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::diagnose::DiagnoseSettings> {
        Ok(crate::commands::diagnose::DiagnoseSettings {})
    }
}
