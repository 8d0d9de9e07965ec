//! The settings of `sqsctl redrive`, resolved from its arguments: selection patterns compiled to
//! check them, durations turned into seconds, the options `--native` cannot honour refused, the
//! journal directory found. Nothing here reads a queue; the command runs what this returns.

use std::path::PathBuf;

use crate::cli::redrive::{RedriveArgs, TaskCommand};
use crate::cli::values::{self, whole_seconds};
use crate::redrive::move_task::MAX_RATE;
use crate::redrive::rewrite::DEFAULT_EXEC_TIMEOUT;
use crate::redrive::{
    DedupMode, Exec, MAX_CONCURRENCY, NewPlan, Pacing, PlanError, Rewrite, Rewriter,
};

#[derive(Debug)]
pub enum RedriveSettings {
    /// A new run of sqsctl's own redrive.
    Move(Box<MoveSettings>),
    /// An interrupted run completed from its journal.
    Resume(ResumeSettings),
    /// SQS's server-side move task.
    Native(NativeSettings),
    Status {
        dlq: String,
    },
    Cancel {
        dlq: String,
    },
    /// The runs whose journals are in a directory.
    Journals(super::journals::JournalsSettings),
}

/// The dead-letter queue and the destination, as named on the command line (no destination: the
/// DLQ's source).
#[derive(Debug)]
pub struct Queues {
    pub dlq: String,
    pub to: Option<String>,
    /// How `to` is reached, when not as the DLQ is.
    pub reach: super::destination::Reach,
}

#[derive(Debug)]
pub struct MoveSettings {
    pub queues: Queues,
    /// What moves and how (the archive path as given: made absolute when the run starts).
    pub plan: NewPlan,
    pub dry_run: bool,
    pub yes: bool,
    pub journal: Option<PathBuf>,
    pub journal_dir: PathBuf,
}

#[derive(Debug)]
pub struct ResumeSettings {
    pub journal: PathBuf,
    /// The DLQ, when named too: it must be the journal's.
    pub dlq: Option<String>,
    pub pacing: Pacing,
    pub yes: bool,
}

#[derive(Debug)]
pub struct NativeSettings {
    pub queues: Queues,
    pub rate: Option<f64>,
    pub dry_run: bool,
    pub yes: bool,
}

/// Where journals go by default: `$XDG_STATE_HOME/sqsctl/redrive` (or the platform's equivalent).
pub(crate) fn default_journal_dir() -> PathBuf {
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
            Some(TaskCommand::Journals(args)) => {
                return Ok(RedriveSettings::Journals(
                    super::journals::JournalsSettings::resolve(args),
                ));
            }
            None => {}
        }
        let rewrite = rewrite(&args)?;
        let selection = crate::commands::selection::resolve(args.select, args.message_ids)?;
        // Each flag's range was checked as it was parsed; --native adds its own bound on --rate.
        if let Some(rate) = args.rate
            && args.native
            && !(1.0..=MAX_RATE).contains(&rate)
        {
            anyhow::bail!(
                "--rate with --native must be 1 to 500 (SQS's limit for MaxNumberOfMessagesPerSecond)"
            );
        }
        let concurrency = args.concurrency.map(usize::from);
        // clap requires the DLQ unless --resume is given, and --resume conflicts with the rest.
        let (Some(dlq), None) = (args.dlq.clone(), &args.resume) else {
            return Ok(RedriveSettings::Resume(ResumeSettings {
                journal: args.resume.ok_or_else(|| {
                    anyhow::anyhow!("name the dead-letter queue, or pass --resume FILE")
                })?,
                dlq: args.dlq,
                pacing: Pacing {
                    rate: args.rate,
                    concurrency,
                },
                yes: args.confirm.yes,
            }));
        };
        if let Some(region) = &args.to_region
            && !crate::client::is_region_name(region)
        {
            anyhow::bail!("--to-region `{region}` is not an AWS region name (e.g. eu-west-1)");
        }
        let reach = super::destination::Reach {
            profile: args.to_profile,
            region: args.to_region,
            endpoint_url: args.to_endpoint_url,
        };
        let plan = NewPlan {
            dedup: args.dedup,
            delay_seconds: args.delay.map(whole_seconds),
            selection,
            limit: args.max,
            rate: args.rate,
            concurrency,
            visibility_timeout: whole_seconds(args.visibility),
            archive: args.archive,
            copy: args.copy,
            destination_access: None,
            rewrite,
        };
        if args.native {
            refuse_for_native(&plan, args.journal.is_some())?;
            if !reach.is_same() {
                anyhow::bail!(
                    "--native cannot be combined with --to-profile, --to-region or --to-endpoint-url: SQS's move task runs with the DLQ's account and region (drop --native to let sqsctl send with the destination's own)"
                );
            }
            return Ok(RedriveSettings::Native(NativeSettings {
                queues: Queues {
                    dlq,
                    to: args.to,
                    reach,
                },
                rate: args.rate,
                dry_run: args.confirm.dry_run,
                yes: args.confirm.yes,
            }));
        }
        Ok(RedriveSettings::Move(Box::new(MoveSettings {
            queues: Queues {
                dlq,
                to: args.to,
                reach,
            },
            plan,
            dry_run: args.confirm.dry_run,
            yes: args.confirm.yes,
            journal: args.journal,
            journal_dir: default_journal_dir(),
        })))
    }
}

/// The rewrite the flags ask for, its filter compiled to check it (a filter that does not compile
/// is a usage error, before anything is read).
fn rewrite(args: &RedriveArgs) -> anyhow::Result<Rewrite> {
    let rewrite = Rewrite {
        unwrap: args.unwrap,
        transform: args.transform.clone(),
        exec: args.exec.clone().map(|command| Exec {
            command,
            timeout_secs: args
                .exec_timeout
                .unwrap_or(DEFAULT_EXEC_TIMEOUT)
                .as_secs()
                .max(1),
        }),
        ..Rewrite::default()
    };
    Rewriter::new(&rewrite, false, true).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(rewrite)
}

/// The flags that rewrite messages, as given.
fn rewrite_flags(rewrite: &Rewrite) -> Vec<&'static str> {
    [
        (rewrite.unwrap, "--unwrap"),
        (rewrite.transform.is_some(), "--transform"),
        (rewrite.exec.is_some(), "--exec"),
    ]
    .into_iter()
    .filter_map(|(given, flag)| given.then_some(flag))
    .collect()
}

/// The options SQS's move task cannot honour: it moves every message of the queue, on the server.
fn refuse_for_native(plan: &NewPlan, journal: bool) -> anyhow::Result<()> {
    let rewriting = rewrite_flags(&plan.rewrite);
    if !rewriting.is_empty() {
        anyhow::bail!(
            "--native cannot be combined with {}: SQS's move task moves each message as it is (drop --native to let sqsctl rewrite the messages as it moves them)",
            rewriting.join(", ")
        );
    }
    let mut given = crate::commands::selection::describe(&plan.selection);
    if plan.limit.is_some() {
        given.push("--max".into());
    }
    if !given.is_empty() {
        anyhow::bail!(
            "--native cannot be combined with {}: SQS's move task moves every message of the queue and has no filter or limit (drop --native to let sqsctl select messages itself)",
            given.join(", ")
        );
    }
    let unsupported: Vec<&str> = [
        (plan.delay_seconds.is_some(), "--delay"),
        (plan.archive.is_some(), "--archive"),
        (journal, "--journal"),
        (plan.dedup != DedupMode::MessageId, "--dedup"),
    ]
    .into_iter()
    .filter_map(|(given, flag)| given.then_some(flag))
    .collect();
    if !unsupported.is_empty() {
        anyhow::bail!(
            "--native cannot be combined with {}: the move task runs on the server, which does not offer them",
            unsupported.join(", ")
        );
    }
    Ok(())
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
