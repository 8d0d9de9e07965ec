//! The actions of `browse` on chosen messages, each through the engine of the command it stands
//! for: a redrive through [`crate::redrive::run`] with a `--message-id` selection and a journal
//! (an edited message: with a rewrite that replaces its body), a delete through
//! [`crate::delete::by_id`], an export as the records of `peek -o jsonl`. [`prepare`] finds what an
//! action needs and words its question; [`perform`] runs it. Nothing here draws; results come
//! back as words for the status line.

use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use super::model::{Action, Pending};
use crate::client::peek;
use crate::client::{QueueRef, Sqs};
use crate::commands::common::queue_place;
use crate::delete::{self as delete_engine, ByIdRequest, Status};
use crate::interrupt::Interrupt;
use crate::message::envelope::Described;
use crate::message::{Envelope, MessageRecord};
use crate::redrive::{self, Counters, Journal, NewPlan, Plan, Rewrite, RouteRequest, RunOptions};
use crate::select::Selection;
use crate::text::plural;

pub use crate::read_ledger::now_ms;

/// An action ready to run: the question it asks, and what it found to ask it (the redrive's plan
/// and journal path).
pub struct Prepared {
    pub pending: Pending,
    plan: Option<(Plan, PathBuf)>,
}

/// Finds what `action` on `ids` needs (a redrive's destination, checked by the engine) and words
/// its question, naming the queue, its account and region, and the destination.
pub async fn prepare(
    sqs: &Sqs,
    queue: &QueueRef,
    action: Action,
    ids: Vec<String>,
    journal_dir: &std::path::Path,
) -> Result<Prepared, String> {
    let count = plural(ids.len() as u64, "message");
    let here = queue_place(queue, sqs.region());
    let (question, plan) = match &action {
        Action::Redrive { .. } | Action::Copy | Action::SendEdited { .. } => {
            let copy = action == Action::Copy;
            let (to, edited) = match &action {
                Action::Redrive { to } => (to.as_deref(), None),
                Action::SendEdited { body } => (None, Some(body)),
                _ => (None, None),
            };
            let route = redrive::route(
                sqs,
                RouteRequest {
                    dlq: &queue.url,
                    to,
                    several_sources: false,
                    destination_sqs: None,
                },
            )
            .await
            .map_err(|e| match to {
                None => format!("{e}; t redrives to a queue you name"),
                Some(_) => e.to_string(),
            })?;
            let new = NewPlan {
                dedup: redrive::DedupMode::MessageId,
                delay_seconds: None,
                selection: Selection {
                    message_ids: ids.clone(),
                    ..Selection::default()
                },
                limit: None,
                rate: None,
                concurrency: None,
                visibility_timeout: redrive::DEFAULT_VISIBILITY_TIMEOUT,
                archive: None,
                copy,
                destination_access: None,
                rewrite: edited.map_or_else(Rewrite::default, |body| {
                    Rewrite::replace(ids.iter().map(|id| (id.clone(), body.clone())).collect())
                }),
            };
            let plan = Plan::new_run(&route, new, now_ms()).map_err(|e| e.to_string())?;
            let path = Journal::new_path(journal_dir, &plan.source.name, SystemTime::now())
                .map_err(|e| e.to_string())?;
            let question = redrive_question(
                &action,
                &count,
                &here,
                &queue_place(&plan.destination, sqs.region()),
                &path,
            );
            (question, Some((plan, path)))
        }
        Action::Delete => (
            format!("Delete {count}\nfrom {here}?\nThis cannot be undone."),
            None,
        ),
        Action::Export { path } => (
            format!(
                "Export {count}\nof {here}\nto {} (JSON Lines)?",
                path.display()
            ),
            None,
        ),
    };
    Ok(Prepared {
        pending: Pending {
            action,
            ids,
            question,
        },
        plan,
    })
}

/// The question before a redrive, a copy or an edited message's send: what it does, from where to
/// where (`here`, `there`: queue, account, region), and the journal.
pub fn redrive_question(
    action: &Action,
    count: &str,
    here: &str,
    there: &str,
    journal: &std::path::Path,
) -> String {
    let (what, kept) = match action {
        Action::SendEdited { .. } => (
            "Send the edited message back (its new body in place of its own)".to_string(),
            "",
        ),
        Action::Copy => (
            format!("Copy {count} (a copy: nothing is deleted)"),
            "\nThe DLQ keeps its messages; their receive counts go up by one per receive.",
        ),
        _ => (format!("Redrive {count}"), ""),
    };
    format!(
        "{what}\nfrom {here}\nto {there}?{kept}\njournal: {}",
        journal.display()
    )
}

/// How an action ended.
pub struct Done {
    /// The status line.
    pub status: String,
    pub ok: bool,
    /// Ids no longer in the queue (moved or deleted).
    pub gone: Vec<String>,
    /// Stopped by Ctrl-C or a signal.
    pub interrupted: bool,
}

/// Runs a prepared action through its engine. `progress` is the redrive's counters, read by the
/// screen while it runs; `interrupt` stops it as Ctrl-C stops the command.
pub async fn perform(
    sqs: &Sqs,
    queue: &QueueRef,
    prepared: Prepared,
    records: Vec<MessageRecord>,
    progress: Arc<Counters>,
    interrupt: &Interrupt,
) -> Done {
    let Prepared { pending, plan } = prepared;
    match (pending.action, plan) {
        (Action::Redrive { .. } | Action::Copy | Action::SendEdited { .. }, Some((plan, path))) => {
            redrive_marked(sqs, &plan, path, progress, interrupt).await
        }
        (Action::Delete, _) => delete_marked(sqs, queue, &pending.ids, interrupt).await,
        (Action::Export { path }, _) => export(&path, &records),
        (Action::Redrive { .. } | Action::Copy | Action::SendEdited { .. }, None) => Done {
            status: "the redrive was not prepared".into(),
            ok: false,
            gone: Vec::new(),
            interrupted: false,
        },
    }
}

async fn redrive_marked(
    sqs: &Sqs,
    plan: &Plan,
    path: PathBuf,
    counters: Arc<Counters>,
    interrupt: &Interrupt,
) -> Done {
    let failed = |status: String| Done {
        status,
        ok: false,
        gone: Vec::new(),
        interrupted: false,
    };
    let journal = match Journal::create(&path, plan) {
        Ok(journal) => journal,
        Err(e) => return failed(format!("cannot create the journal {}: {e}", path.display())),
    };
    let options = RunOptions {
        journal: Some(journal),
        archive: None,
        sent_before_ms: None,
        resume: redrive::ResumeState::default(),
        counters,
        interrupt: interrupt.clone(),
        destination: None,
    };
    let summary = match redrive::run(sqs, plan, options).await {
        Ok(summary) => summary,
        Err(e) => return failed(format!("the redrive could not start: {e}")),
    };
    let resume = format!(
        "journal {}: `sqsctl redrive --resume {}` completes it",
        path.display(),
        path.display()
    );
    let mut status = format!(
        "{} {} of {} to `{}`",
        if plan.copy { "copied" } else { "redrove" },
        summary.moved,
        plural(plan.selection.message_ids.len() as u64, "message"),
        plan.destination.name
    );
    if summary.failed > 0 {
        status.push_str(&format!("; {} failed", summary.failed));
        if let Some(first) = summary.failures.first() {
            status.push_str(&format!(" ({}: {})", first.message_id, first.reason));
        }
    }
    if summary.delete_failed > 0 {
        status.push_str(&format!(
            "; {} sent but still in the DLQ (delete failed)",
            summary.delete_failed
        ));
    }
    if !summary.not_found.is_empty() {
        status.push_str(&format!(
            "; {} not found (in flight, moved or deleted already)",
            summary.not_found.len()
        ));
    }
    if summary.outcome_unknown > 0 {
        status.push_str(&format!(
            "; {} with an unknown outcome",
            summary.outcome_unknown
        ));
    }
    if summary.possible_duplicates > 0 {
        status.push_str(&format!(
            "; {} possible duplicates",
            summary.possible_duplicates
        ));
    }
    if let Some(error) = &summary.error {
        status.push_str(&format!("; stopped: {error}"));
    }
    let complete = summary.complete();
    if summary.interrupted {
        status = format!("stopped: {status}; {resume}");
    } else if complete {
        status.push_str(&format!(" (journal {})", path.display()));
    } else {
        status.push_str(&format!("; {resume}"));
    }
    // A copy leaves every message in the DLQ.
    let gone = if complete && !plan.copy {
        plan.selection.message_ids.clone()
    } else {
        Vec::new()
    };
    Done {
        status,
        ok: complete,
        gone,
        interrupted: summary.interrupted,
    }
}

async fn delete_marked(sqs: &Sqs, queue: &QueueRef, ids: &[String], interrupt: &Interrupt) -> Done {
    let failed = |status: String| Done {
        status,
        ok: false,
        gone: Vec::new(),
        interrupted: false,
    };
    let attrs = match sqs.attributes(queue).await {
        Ok(attrs) => attrs,
        Err(e) => return failed(e.to_string()),
    };
    // The scan for the ids reads the queue as a read does; browse was allowed to read it.
    let cost = match peek::guard(queue, &attrs, true) {
        Ok(cost) => cost,
        Err(e) => return failed(e.to_string()),
    };
    let request = ByIdRequest {
        sqs,
        queue,
        ids,
        visible_at_start: attrs.visible(),
        cost,
        force: true,
        dry_run: false,
        scan_limit: peek::DEFAULT_SCAN_LIMIT.max(attrs.visible() + 10),
        interrupt,
    };
    let mut gone = Vec::new();
    let (mut failures, mut missing) = (0u64, 0u64);
    let report = delete_engine::by_id(request, |deletion| {
        match deletion.status {
            Status::Deleted => gone.extend(deletion.message_id),
            Status::Failed => failures += 1,
            Status::NotFound => missing += 1,
            Status::WouldDelete => {}
        }
        ControlFlow::Continue(())
    })
    .await;
    let mut status = format!(
        "deleted {} of {} from `{}`",
        gone.len(),
        plural(ids.len() as u64, "message"),
        queue.name
    );
    if failures > 0 {
        status.push_str(&format!("; {failures} could not be deleted"));
    }
    if missing > 0 {
        status.push_str(&format!(
            "; {missing} not found (in flight, moved or deleted already)"
        ));
    }
    if report.not_released > 0 {
        status.push_str(&format!(
            "; {} held could not be made visible again (back within {} s)",
            report.not_released,
            delete_engine::HOLD_SECONDS
        ));
    }
    if let Some(err) = &report.error {
        status.push_str(&format!("; stopped: {err}"));
    }
    let interrupted = interrupt.is_set();
    if interrupted {
        status = format!("stopped: {status}");
    }
    Done {
        ok: failures == 0 && missing == 0 && report.error.is_none() && !interrupted,
        status,
        gone,
        interrupted,
    }
}

/// The records of `peek -o jsonl` (without receipt handles), one a line; an existing file is not
/// overwritten.
fn export(path: &std::path::Path, records: &[MessageRecord]) -> Done {
    let written = (|| -> std::io::Result<()> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?;
        let mut out = std::io::BufWriter::new(file);
        for record in records {
            let line = serde_json::to_string(&Envelope {
                kind: "message".to_string(),
                data: Described::of(record),
            })?;
            writeln!(out, "{line}")?;
        }
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    match written {
        Ok(()) => Done {
            status: format!(
                "exported {} to {}",
                plural(records.len() as u64, "message"),
                path.display()
            ),
            ok: true,
            gone: Vec::new(),
            interrupted: false,
        },
        Err(e) => Done {
            status: format!("cannot export to {}: {e}", path.display()),
            ok: false,
            gone: Vec::new(),
            interrupted: false,
        },
    }
}
