//! `sqsctl send`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct SendSettings {}

pub async fn run(_ctx: &Context, _settings: SendSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl send` is not available in this build yet")
}
