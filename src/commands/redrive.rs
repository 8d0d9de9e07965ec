//! `sqsctl redrive`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct RedriveSettings {}

pub async fn run(_ctx: &Context, _settings: RedriveSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl redrive` is not available in this build yet")
}
