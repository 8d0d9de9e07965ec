//! The settings of `sqsctl redrive`, resolved from its arguments: selection patterns compiled to
//! check them, durations turned into cutoffs, the journal directory found. Nothing here reads a
//! queue; the command runs what this returns.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

use crate::cli::redrive::{RedriveArgs, TaskCommand};
use crate::redrive::select::parse_attribute_filter;
use crate::redrive::{DedupMode, Selection};

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
    pub delay: Option<i32>,
    pub limit: Option<u64>,
    pub rate: Option<f64>,
    pub concurrency: usize,
    pub visibility_timeout: i32,
    pub journal: Option<PathBuf>,
    pub journal_dir: PathBuf,
    pub resume: Option<PathBuf>,
    pub archive: Option<PathBuf>,
    pub native: bool,
}

fn cutoff(text: &str, flag: &str, now: SystemTime) -> anyhow::Result<u64> {
    let duration = humantime::parse_duration(text.trim())
        .with_context(|| format!("{flag} `{text}` is not a duration (e.g. 30m, 2h, 1day)"))?;
    let at = now.checked_sub(duration).unwrap_or(UNIX_EPOCH);
    Ok(at
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis() as u64)
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

impl RedriveArgs {
    pub fn resolve(self) -> anyhow::Result<RedriveSettings> {
        match self.task {
            Some(TaskCommand::Status(args)) => {
                return Ok(RedriveSettings::Status { dlq: args.dlq });
            }
            Some(TaskCommand::Cancel(args)) => {
                return Ok(RedriveSettings::Cancel { dlq: args.dlq });
            }
            None => {}
        }
        let now = SystemTime::now();
        let attributes = self
            .attributes
            .iter()
            .map(|a| parse_attribute_filter(a).map_err(|e| anyhow::anyhow!("--attr {e}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let selection = Selection {
            grep: self.grep,
            attributes,
            where_expr: self.where_expr,
            sent_before_ms: self
                .older_than
                .as_deref()
                .map(|t| cutoff(t, "--older-than", now))
                .transpose()?,
            sent_after_ms: self
                .newer_than
                .as_deref()
                .map(|t| cutoff(t, "--newer-than", now))
                .transpose()?,
            message_ids: self.message_ids,
        };
        // Patterns are checked here so that a typo is a usage error before anything is read.
        crate::redrive::Selector::compile(&selection).map_err(|e| anyhow::anyhow!(e))?;
        if self.concurrency == 0 || self.concurrency > 256 {
            anyhow::bail!("--concurrency must be 1 to 256");
        }
        if let Some(rate) = self.rate {
            if !(rate.is_finite() && rate > 0.0) {
                anyhow::bail!("--rate must be a positive number of messages per second");
            }
            if self.native && !(1.0..=500.0).contains(&rate) {
                anyhow::bail!(
                    "--rate with --native must be 1 to 500 (SQS's limit for MaxNumberOfMessagesPerSecond)"
                );
            }
        }
        if self.limit == Some(0) {
            anyhow::bail!("--limit must be at least 1");
        }
        if let Some(delay) = self.delay
            && !(0..=900).contains(&delay)
        {
            anyhow::bail!("--delay must be 0 to 900 seconds");
        }
        if !(1..=43_200).contains(&self.visibility_timeout) {
            anyhow::bail!("--visibility-timeout must be 1 to 43200 seconds");
        }
        Ok(RedriveSettings::Move(Box::new(MoveSettings {
            dlq: self.dlq,
            to: self.to,
            selection,
            dry_run: self.dry_run,
            yes: self.yes,
            dedup: self.dedup,
            delay: self.delay,
            limit: self.limit,
            rate: self.rate,
            concurrency: self.concurrency,
            visibility_timeout: self.visibility_timeout,
            journal: self.journal,
            journal_dir: default_journal_dir(),
            resume: self.resume,
            archive: self.archive,
            native: self.native,
        })))
    }
}
