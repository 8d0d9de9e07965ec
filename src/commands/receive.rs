//! `sqsctl receive`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct ReceiveSettings {}

pub async fn run(_ctx: &Context, _settings: ReceiveSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl receive` is not available in this build yet")
}
