//! `sqsctl diagnose`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct DiagnoseSettings {}

pub async fn run(_ctx: &Context, _settings: DiagnoseSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl diagnose` is not available in this build yet")
}
