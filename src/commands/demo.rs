//! `sqsctl demo`.

use crate::app::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct DemoSettings {}

pub async fn run(_ctx: &Context, _settings: DemoSettings) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("`sqsctl demo` is not available in this build yet")
}
