//! `sqsctl peek`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct PeekSettings {}

pub async fn run(_ctx: &Context, _settings: PeekSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl peek` is not available in this build yet")
}
