//! Arguments of `sqsctl demo`.

#[derive(Debug, clap::Args)]
pub struct DemoArgs {}

impl DemoArgs {
    pub fn resolve(self) -> anyhow::Result<crate::commands::demo::DemoSettings> {
        Ok(crate::commands::demo::DemoSettings {})
    }
}
