//! The settings of `sqsctl redrive`, resolved from its arguments: selection patterns compiled to
//! check them, durations turned into cutoffs, the journal directory found. Nothing here reads a
//! queue; the command runs what this returns.

use crate::cli::redrive::{RedriveArgs, TaskCommand};
use crate::cli::values::{self, whole_seconds};
use crate::redrive::{DedupMode, MAX_CONCURRENCY, PlanError, Selection};
use std::path::PathBuf;

/// SQS's bound on a move task's MaxNumberOfMessagesPerSecond.
const NATIVE_MAX_RATE: f64 = 500.0;

#[derive(Debug)]
pub enum RedriveSettings {
    Move(Box<MoveSettings>),
    Status { dlq: String },
    Cancel { dlq: String },
}

#[derive(Debug)]
pub struct MoveSettings {
    pub dlq: Option<String>,
    pub to: Option<String>,
    pub selection: Selection,
    pub dry_run: bool,
    pub yes: bool,
    pub dedup: DedupMode,
    /// DelaySeconds of each moved message.
    pub delay: Option<i32>,
    pub limit: Option<u64>,
    pub rate: Option<f64>,
    /// `--concurrency` as given: `None` adapts (and on resume keeps what the run had).
    pub concurrency: Option<usize>,
    /// Visibility timeout of each receive, in seconds.
    pub visibility_timeout: i32,
    pub journal: Option<PathBuf>,
    pub journal_dir: PathBuf,
    pub resume: Option<PathBuf>,
    pub archive: Option<PathBuf>,
    pub native: bool,
}

/// Where journals go by default: `$XDG_STATE_HOME/sqsctl/redrive` (or the platform's equivalent).
fn default_journal_dir() -> PathBuf {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .or_else(|| dirs::home_dir().map(|h| h.join(".local").join("state")))
        .unwrap_or_else(std::env::temp_dir)
        .join("sqsctl")
        .join("redrive")
}

impl RedriveSettings {
    /// The settings of the arguments; an error here is a usage error (checked before anything is
    /// read).
    pub fn resolve(args: RedriveArgs) -> anyhow::Result<RedriveSettings> {
        match args.task {
            Some(TaskCommand::Status(task)) => {
                return Ok(RedriveSettings::Status { dlq: task.dlq });
            }
            Some(TaskCommand::Cancel(task)) => {
                return Ok(RedriveSettings::Cancel { dlq: task.dlq });
            }
            None => {}
        }
        let selection = crate::commands::selection::resolve(args.select, args.message_ids)?;
        // Each flag's range was checked as it was parsed; --native adds its own bound on --rate.
        if let Some(rate) = args.rate
            && args.native
            && !(1.0..=NATIVE_MAX_RATE).contains(&rate)
        {
            anyhow::bail!(
                "--rate with --native must be 1 to 500 (SQS's limit for MaxNumberOfMessagesPerSecond)"
            );
        }
        Ok(RedriveSettings::Move(Box::new(MoveSettings {
            dlq: args.dlq,
            to: args.to,
            selection,
            dry_run: args.confirm.dry_run,
            yes: args.confirm.yes,
            dedup: args.dedup,
            delay: args.delay.map(whole_seconds),
            limit: args.max,
            rate: args.rate,
            concurrency: args.concurrency.map(usize::from),
            visibility_timeout: whole_seconds(args.visibility),
            journal: args.journal,
            journal_dir: default_journal_dir(),
            resume: args.resume,
            archive: args.archive,
            native: args.native,
        })))
    }
}

/// The engine's refusal of a setting, in the words of the flag that set it.
pub(super) fn flag_message(error: &PlanError) -> String {
    match error {
        PlanError::Concurrency(_) => format!("--concurrency must be 1 to {MAX_CONCURRENCY}"),
        PlanError::Rate(_) => "--rate must be a positive number of messages per second".into(),
        PlanError::ZeroLimit => "--max must be at least 1".into(),
        PlanError::Delay(_) => format!("--delay must be {}", values::DELAY.text()),
        PlanError::VisibilityTimeout(_) => {
            format!("--visibility must be {}", values::HOLD.text())
        }
        PlanError::DelayOnFifo => "--delay is not available for FIFO queues (SQS accepts a per-message delay only on standard queues)".into(),
        PlanError::DestinationIsSource => error.to_string(),
    }
}
