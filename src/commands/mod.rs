//! One file per subcommand, each with a settings struct and a `run`; [`dispatch`] is the one place
//! that maps the command line to them.

pub mod common;
pub mod delete;
pub mod demo;
pub mod diagnose;
pub mod fifo;
pub mod generate;
pub mod inspect;
pub mod local;
pub mod peek;
pub mod purge;
pub mod queue;
pub mod queues;
pub mod receive;
mod receive_pipe;
pub mod redrive;
pub mod send;
pub mod send_input;
pub mod send_report;

use crate::app::{Context, UsageError};
use crate::cli::Command;
use crate::exit::ExitStatus;

/// Resolves the arguments of a command into its settings (a failure there is a usage error,
/// exit code 2) and runs it.
pub async fn dispatch(ctx: &Context, command: Command) -> anyhow::Result<ExitStatus> {
    fn usage<T>(result: anyhow::Result<T>) -> anyhow::Result<T> {
        result.map_err(|e| anyhow::Error::new(UsageError(format!("{e:#}"))))
    }
    match command {
        Command::Queues(args) => queues::run(ctx, usage(args.resolve())?).await,
        Command::Queue(args) => queue::run(ctx, usage(args.resolve())?).await,
        Command::Send(args) => send::run(ctx, usage(args.resolve())?).await,
        Command::Receive(args) => receive::run(ctx, usage(args.resolve())?).await,
        Command::Peek(args) => peek::run(ctx, usage(args.resolve())?).await,
        Command::Delete(args) => delete::run(ctx, usage(args.resolve())?).await,
        Command::Purge(args) => purge::run(ctx, usage(args.resolve())?).await,
        Command::Redrive(args) => {
            redrive::run(ctx, usage(redrive::RedriveSettings::resolve(*args))?).await
        }
        Command::Fifo(args) => fifo::run(ctx, usage(args.resolve())?).await,
        Command::Diagnose(args) => diagnose::run(ctx, usage(args.resolve())?).await,
        Command::Local(args) => local::run(ctx, usage(args.resolve())?).await,
        Command::Demo(args) => demo::run(ctx, usage(args.resolve())?).await,
        Command::Generate(args) => generate::run(ctx, usage(args.resolve())?).await,
    }
}
