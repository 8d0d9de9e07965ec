//! The settings of `sqsctl consume`, resolved from its arguments: the command, the selection
//! (compiled to check it) and the worker's [`Plan`] (each duration was checked against what SQS
//! accepts as it was parsed). Nothing here reads a queue or starts a process.

use anyhow::bail;

use crate::cli::consume::ConsumeArgs;
use crate::cli::values::whole_seconds;
use crate::consume::Plan;
use crate::select::Selection;

#[derive(Debug)]
pub struct ConsumeSettings {
    pub queue: String,
    pub program: String,
    pub args: Vec<String>,
    pub selection: Selection,
    pub plan: Plan,
}

impl ConsumeSettings {
    /// Checks the command line's values (an error here is a usage error).
    pub fn resolve(args: ConsumeArgs) -> anyhow::Result<ConsumeSettings> {
        let mut command = args.command.into_iter();
        let Some(program) = command.next().filter(|p| !p.is_empty()) else {
            bail!("give the command to run after `--`, e.g. `sqsctl consume QUEUE -- ./worker.sh`");
        };
        if args
            .release_exit_codes
            .iter()
            .any(|code| !(1..=255).contains(code))
        {
            bail!("--release-exit-codes takes exit codes from 1 to 255 (0 deletes the message)");
        }
        let selection = crate::commands::selection::resolve(args.select, Vec::new())?;
        Ok(ConsumeSettings {
            queue: args.queue,
            program,
            args: command.collect(),
            selection,
            plan: Plan {
                concurrency: usize::from(args.concurrency),
                per_group: args.per_group.map(usize::from),
                max: args.max,
                idle_exit: args.idle_exit,
                record_on_stdin: args.jsonl,
                retry_delay: args.retry_delay,
                max_retry_delay: args.max_retry_delay,
                release_exit_codes: args.release_exit_codes,
                timeout: args.timeout,
                visibility: args.visibility,
                wait_seconds: whole_seconds(args.wait),
            },
        })
    }
}
