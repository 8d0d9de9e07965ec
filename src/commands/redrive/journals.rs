//! `sqsctl redrive journals`: the runs whose journals are in the journal directory, newest first,
//! and with `--prune` the removal of those older than an age (completed runs only, unless asked).
//! Reading and choosing are the engine's (`crate::redrive::journals`); this file wires them to
//! the printer and the question.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use anyhow::Context as _;

use crate::cli::redrive::JournalsArgs;
use crate::commands::common::confirm_destructive;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::Document;
use crate::output::journals::JournalRecord;
use crate::redrive::journals::{self, JournalEntry, PruneRule};
use crate::text::plural;

#[derive(Debug)]
pub struct JournalsSettings {
    pub dir: PathBuf,
    pub prune: Option<PruneSettings>,
}

#[derive(Debug)]
pub struct PruneSettings {
    pub older_than: Duration,
    pub include_interrupted: bool,
    pub dry_run: bool,
    pub yes: bool,
}

impl JournalsSettings {
    /// clap requires --older-than with --prune, and --prune with the options of a removal.
    pub fn resolve(args: JournalsArgs) -> JournalsSettings {
        let prune = match (args.prune, args.older_than) {
            (true, Some(older_than)) => Some(PruneSettings {
                older_than,
                include_interrupted: args.include_interrupted,
                dry_run: args.dry_run,
                yes: args.yes,
            }),
            _ => None,
        };
        let dir = args
            .dir
            .unwrap_or_else(super::settings::default_journal_dir);
        JournalsSettings {
            // Absolute, so that the resume commands shown work from any directory.
            dir: std::path::absolute(&dir).unwrap_or(dir),
            prune,
        }
    }
}

pub fn run(ctx: &Context, settings: &JournalsSettings) -> anyhow::Result<ExitStatus> {
    let dir = &settings.dir;
    let found = journals::list(dir)
        .with_context(|| format!("cannot read the journal directory {}", dir.display()))?;
    match &settings.prune {
        None => {
            emit(ctx, &found, true)?;
            ctx.printer.info(if found.is_empty() {
                format!("no redrive journals in {}", dir.display())
            } else {
                format!(
                    "{} in {}",
                    plural(found.len() as u64, "journal"),
                    dir.display()
                )
            });
            Ok(ExitStatus::Success)
        }
        Some(prune) => run_prune(ctx, dir, found, prune),
    }
}

/// The journals as records; `notes` adds, under the table, how to resume each run that can be
/// resumed and why a file is unreadable (not for journals being removed).
fn emit(ctx: &Context, entries: &[JournalEntry], notes: bool) -> anyhow::Result<()> {
    let records: Vec<JournalRecord> = entries.iter().map(JournalRecord::from).collect();
    let mut document = Document::rows(&records);
    for note in records.iter().filter_map(JournalRecord::note) {
        if notes {
            document = document.note(note);
        }
    }
    ctx.printer.emit(&document)?;
    Ok(())
}

fn run_prune(
    ctx: &Context,
    dir: &std::path::Path,
    found: Vec<JournalEntry>,
    settings: &PruneSettings,
) -> anyhow::Result<ExitStatus> {
    let rule = PruneRule {
        older_than: settings.older_than,
        include_resumable: settings.include_interrupted,
        now: SystemTime::now(),
    };
    let prune = rule.choose(found);
    let age = humantime::format_duration(settings.older_than);
    if !prune.kept_resumable.is_empty() {
        ctx.printer.info(format!(
            "kept {} of runs that did not complete (--include-interrupted removes them too)",
            plural(prune.kept_resumable.len() as u64, "journal")
        ));
    }
    let what = plural(prune.remove.len() as u64, "journal");
    if prune.remove.is_empty() {
        emit(ctx, &[], false)?;
        ctx.printer.info(format!(
            "no journals to remove in {} (none older than {age})",
            dir.display()
        ));
        return Ok(ExitStatus::Success);
    }
    if settings.dry_run {
        emit(ctx, &prune.remove, false)?;
        ctx.printer.info(format!(
            "would remove {what} older than {age} from {} (dry run: nothing removed)",
            dir.display()
        ));
        return Ok(ExitStatus::Success);
    }
    let resumable: Vec<&JournalEntry> = prune.remove.iter().filter(|j| j.resumable()).collect();
    if !resumable.is_empty() {
        let names: Vec<String> = resumable
            .iter()
            .map(|j| j.path.display().to_string())
            .collect();
        confirm_destructive(
            &ctx.printer,
            &format!(
                "Remove {what} from {}, of which {} of runs that did not complete and can then no longer be resumed ({})?",
                dir.display(),
                resumable.len(),
                names.join(", ")
            ),
            "removing the journals of runs that did not complete",
            true,
            settings.yes,
        )?;
    }
    let mut removed = Vec::new();
    let mut failed = 0;
    for journal in prune.remove {
        match std::fs::remove_file(&journal.path) {
            Ok(()) => removed.push(journal),
            Err(e) => {
                failed += 1;
                ctx.printer.warn(format!(
                    "cannot remove {}: {e}",
                    ctx.printer.display(&journal.path.display().to_string())
                ));
            }
        }
    }
    emit(ctx, &removed, false)?;
    ctx.printer.info(format!(
        "removed {} older than {age} from {}",
        plural(removed.len() as u64, "journal"),
        dir.display()
    ));
    if failed > 0 {
        anyhow::bail!("{} could not be removed", plural(failed, "journal"));
    }
    Ok(ExitStatus::Success)
}
