//! One file per subcommand, each with a settings struct and a `run`; [`dispatch`] is the one place
//! that maps the command line to them.

pub mod browse;
pub mod common;
pub mod consume;
pub mod context;
pub mod delete;
pub mod demo;
pub mod diagnose;
pub mod fifo;
pub mod generate;
pub mod groups;
pub mod keys;
pub mod local;
pub mod peek;
pub mod purge;
pub mod queue;
pub mod queues;
pub mod receive;
pub mod redrive;
pub mod selection;
pub mod send;
pub mod top;
pub mod visibility;

use crate::cli::Command;
use crate::commands::context::Context;
use crate::error::UsageError;
use crate::exit::ExitStatus;

/// Resolves the arguments of a command into its settings (a failure there is a usage error,
/// exit code 2) and runs it.
pub async fn dispatch(ctx: &Context, command: Command) -> anyhow::Result<ExitStatus> {
    // The whole chain in one message; a hint anywhere in it is kept.
    fn usage<T>(result: anyhow::Result<T>) -> anyhow::Result<T> {
        result.map_err(|e| {
            let message = format!("{e:#}");
            match e.chain().find_map(crate::hints::of) {
                Some(hint) => crate::error::hinted_usage(message, hint),
                None => anyhow::Error::new(UsageError(message)),
            }
        })
    }
    match command {
        Command::Queues(args) => {
            queues::run(ctx, usage(queues::QueuesSettings::resolve(args))?).await
        }
        Command::Queue(args) => queue::run(ctx, usage(queue::QueueSettings::resolve(args))?).await,
        Command::Send(args) => send::run(ctx, usage(send::SendSettings::resolve(args))?).await,
        Command::Receive(args) => {
            receive::run(ctx, usage(receive::ReceiveSettings::resolve(args))?).await
        }
        Command::Peek(args) => peek::run(ctx, usage(peek::PeekSettings::resolve(args))?).await,
        Command::Consume(args) => {
            consume::run(ctx, usage(consume::ConsumeSettings::resolve(args))?).await
        }
        Command::Delete(args) => {
            delete::run(ctx, usage(delete::DeleteSettings::resolve(args))?).await
        }
        Command::Purge(args) => purge::run(ctx, usage(purge::PurgeSettings::resolve(args))?).await,
        Command::Redrive(args) => {
            redrive::run(ctx, usage(redrive::RedriveSettings::resolve(*args))?).await
        }
        Command::Visibility(args) => {
            visibility::run(ctx, usage(visibility::VisibilitySettings::resolve(args))?).await
        }
        Command::Groups(args) => {
            groups::run(ctx, usage(groups::GroupsSettings::resolve(args))?).await
        }
        Command::Fifo(args) => groups::run(ctx, usage(fifo::resolve(args))?).await,
        Command::Browse(args) => {
            browse::run(
                ctx,
                usage(browse::BrowseSettings::resolve(args, &ctx.editor))?,
            )
            .await
        }
        Command::Top(args) => top::run(ctx, usage(top::TopSettings::resolve(args))?).await,
        Command::Diagnose(args) => {
            diagnose::run(ctx, usage(diagnose::DiagnoseSettings::resolve(args))?).await
        }
        Command::Local(args) if args.health_check => local::health::run(ctx, args.bind),
        Command::Local(args) => {
            local::run(
                ctx,
                usage(local::LocalSettings::resolve(args, ctx.aws_settings()))?,
            )
            .await
        }
        Command::Demo(args) => demo::run(ctx, usage(demo::DemoSettings::resolve(args))?).await,
        Command::Generate(args) => {
            generate::run(ctx, usage(generate::GenerateSettings::resolve(args))?).await
        }
        // `app::main` runs it before any runtime starts; this is the same, on a runtime's thread.
        Command::ConsumeWatchdog => Ok(tokio::task::block_in_place(consume::watchdog::serve)),
    }
}
