//! `sqsctl fifo groups`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct FifoSettings {}

pub async fn run(_ctx: &Context, _settings: FifoSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl fifo` is not available in this build yet")
}
