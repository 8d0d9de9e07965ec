//! The settings of `sqsctl consume`, resolved from its arguments (each duration was checked against
//! what SQS accepts as it was parsed): the selection compiled to check it. Nothing here reads a queue or starts a process.

use std::time::Duration;

use anyhow::bail;

use crate::cli::consume::ConsumeArgs;
use crate::cli::values::whole_seconds;
use crate::select::Selection;

#[derive(Debug)]
pub struct ConsumeSettings {
    pub queue: String,
    pub program: String,
    pub args: Vec<String>,
    pub concurrency: usize,
    /// `None`: no limit.
    pub max: Option<u64>,
    /// `None`: run until stopped.
    pub idle_exit: Option<Duration>,
    pub jsonl: bool,
    pub retry_delay: Duration,
    pub max_retry_delay: Duration,
    pub release_exit_codes: Vec<i32>,
    pub timeout: Option<Duration>,
    /// `None`: the queue's visibility timeout.
    pub visibility: Option<Duration>,
    pub wait_seconds: i32,
    pub selection: Selection,
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
            concurrency: usize::from(args.concurrency),
            max: args.max,
            idle_exit: args.idle_exit,
            jsonl: args.jsonl,
            retry_delay: args.retry_delay,
            max_retry_delay: args.max_retry_delay,
            release_exit_codes: args.release_exit_codes,
            timeout: args.timeout,
            visibility: args.visibility,
            wait_seconds: whole_seconds(args.wait),
            selection,
        })
    }
}
