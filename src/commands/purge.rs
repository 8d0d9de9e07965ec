//! `sqsctl purge`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct PurgeSettings {}

pub async fn run(_ctx: &Context, _settings: PurgeSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl purge` is not available in this build yet")
}
