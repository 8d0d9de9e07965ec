//! `sqsctl queues`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct QueuesSettings {}

pub async fn run(_ctx: &Context, _settings: QueuesSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl queues` is not available in this build yet")
}
