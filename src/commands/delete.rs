//! `sqsctl delete`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct DeleteSettings {}

pub async fn run(_ctx: &Context, _settings: DeleteSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl delete` is not available in this build yet")
}
