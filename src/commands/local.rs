//! `sqsctl local`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct LocalSettings {}

pub async fn run(_ctx: &Context, _settings: LocalSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl local` is not available in this build yet")
}
