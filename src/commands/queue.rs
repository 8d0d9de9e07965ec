//! `sqsctl queue info|create|delete`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct QueueSettings {}

pub async fn run(_ctx: &Context, _settings: QueueSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl queue` is not available in this build yet")
}
