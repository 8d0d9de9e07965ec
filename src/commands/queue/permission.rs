//! `sqsctl queue permission list|add|remove`: the statements of a queue's policy, and the
//! permissions AddPermission and RemovePermission add and remove by label. Labels, account ids and
//! action names are checked before any call; a change is shown (the statement added or removed),
//! asked for, made, and followed by the statements the queue has then.

use serde::Serialize;
use serde_json::Value;

use crate::cli::queue::PermissionCommand;
use crate::client::QueueRef;
use crate::commands::common::{confirm_destructive, queue_place, resolve_queue};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted_usage};
use crate::exit::ExitStatus;
use crate::output::{Column, Document, Row};
use crate::queues::permissions::{
    GRANTABLE_ACTIONS, PermissionError, Statement, action_names, check_account, check_label,
    find_statement, planned_statement, statements,
};

#[derive(Debug)]
pub enum PermissionSettings {
    List {
        queue: String,
    },
    Add {
        queue: String,
        label: String,
        accounts: Vec<String>,
        actions: Vec<&'static str>,
        yes: bool,
        dry_run: bool,
    },
    Remove {
        queue: String,
        label: String,
        yes: bool,
        dry_run: bool,
    },
}

/// A permission SQS would refuse: a usage error, with the allowed actions where they help.
fn refused(err: PermissionError) -> anyhow::Error {
    match err {
        PermissionError::UnknownAction(_) | PermissionError::OwnerOnly(_) => hinted_usage(
            err.to_string(),
            format!(
                "--action takes {} (each once; SQS: prefix and case optional)",
                GRANTABLE_ACTIONS.join(", ")
            ),
        ),
        err => UsageError(err.to_string()).into(),
    }
}

impl PermissionSettings {
    /// Checks labels, account ids and action names as SQS would (an error here is a usage
    /// error).
    pub fn resolve(command: PermissionCommand) -> anyhow::Result<PermissionSettings> {
        Ok(match command {
            PermissionCommand::List(args) => PermissionSettings::List { queue: args.queue },
            PermissionCommand::Add(args) => {
                check_label(&args.label).map_err(refused)?;
                let mut accounts: Vec<String> = Vec::new();
                for account in args.accounts {
                    check_account(&account).map_err(refused)?;
                    if !accounts.contains(&account) {
                        accounts.push(account);
                    }
                }
                PermissionSettings::Add {
                    queue: args.queue,
                    label: args.label,
                    accounts,
                    actions: action_names(&args.actions).map_err(refused)?,
                    yes: args.confirm.yes,
                    dry_run: args.confirm.dry_run,
                }
            }
            PermissionCommand::Remove(args) => {
                check_label(&args.label).map_err(refused)?;
                PermissionSettings::Remove {
                    queue: args.queue,
                    label: args.label,
                    yes: args.confirm.yes,
                    dry_run: args.confirm.dry_run,
                }
            }
        })
    }
}

impl Row for Statement {
    const KIND: &'static str = "permission";

    fn columns() -> Vec<Column> {
        vec![
            Column::whole("label"),
            Column::whole("effect"),
            Column::wrap("accounts", 12, 40),
            Column::wrap("actions", 14, 60),
        ]
    }

    fn cells(&self) -> Vec<String> {
        let mut actions = self.actions.join(", ");
        if self.conditional {
            actions.push_str(" (with a condition)");
        }
        vec![
            self.label.clone(),
            self.effect.clone(),
            self.principals.join(", "),
            actions,
        ]
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.label.clone(),
            self.effect.clone(),
            self.principals.join(","),
            self.actions.join(","),
        ]
    }
}

/// What `list` prints, and what a change leaves.
#[derive(Debug, Serialize)]
struct PolicyReport {
    name: String,
    url: String,
    statements: Vec<Statement>,
}

/// The record of a change: the statement added or removed, as SQS writes it.
#[derive(Debug, Serialize)]
struct ChangeReport {
    name: String,
    url: String,
    /// `add` or `remove`.
    change: &'static str,
    label: String,
    statement: Value,
    /// Whether the change was made (false with --dry-run).
    applied: bool,
    /// The policy's statements after the change (before it, with --dry-run).
    statements: Vec<Statement>,
}

pub(super) async fn run(ctx: &Context, settings: PermissionSettings) -> anyhow::Result<ExitStatus> {
    match settings {
        PermissionSettings::List { queue } => {
            let queue = resolve_queue(ctx, &queue).await?;
            let (_, now) = policy(ctx, &queue).await?;
            print_statements(ctx, &queue, now)
        }
        PermissionSettings::Add {
            queue,
            label,
            accounts,
            actions,
            yes,
            dry_run,
        } => {
            let queue = resolve_queue(ctx, &queue).await?;
            let (arn, before) = policy(ctx, &queue).await?;
            if before.iter().any(|s| s.label == label) {
                return Err(hinted_usage(
                    format!(
                        "`{}` has a permission labelled `{label}` already",
                        queue.name
                    ),
                    format!(
                        "choose another label, or remove that one first: sqsctl queue permission remove {} --label {label}",
                        queue.name
                    ),
                ));
            }
            let statement = planned_statement(&label, &accounts, &actions, &arn);
            let mut report = ChangeReport {
                name: queue.name.clone(),
                url: queue.url.clone(),
                change: "add",
                label: label.clone(),
                statement,
                applied: false,
                statements: before,
            };
            let question = format!(
                "Allow {} to call {} on {}?",
                accounts.join(", "),
                actions.join(", "),
                queue_place(&queue, ctx.sqs().await?.region())
            );
            if !show_and_ask(ctx, &queue, &report, "+", &question, yes, dry_run)? {
                return Ok(ExitStatus::Success);
            }
            let sqs = ctx.sqs().await?;
            sqs.add_permission(&queue, &label, &accounts, &actions)
                .await?;
            ctx.printer
                .info(format!("added permission {label} to queue {}", queue.name));
            report.applied = true;
            report.statements = policy(ctx, &queue).await?.1;
            print_change(ctx, &report)
        }
        PermissionSettings::Remove {
            queue,
            label,
            yes,
            dry_run,
        } => {
            let queue = resolve_queue(ctx, &queue).await?;
            let sqs = ctx.sqs().await?;
            let attributes = sqs.attributes(&queue).await?;
            let text = attributes.get("Policy").unwrap_or_default();
            let Some(statement) = find_statement(text, &label) else {
                let labels: Vec<String> = statements(text)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|s| !s.label.is_empty())
                    .map(|s| format!("`{}`", s.label))
                    .collect();
                let hint = if labels.is_empty() {
                    format!("`{}` has no permissions to remove", queue.name)
                } else {
                    format!("its labels: {}", labels.join(", "))
                };
                return Err(hinted_usage(
                    format!("`{}` has no permission labelled `{label}`", queue.name),
                    hint,
                ));
            };
            let mut report = ChangeReport {
                name: queue.name.clone(),
                url: queue.url.clone(),
                change: "remove",
                label: label.clone(),
                statement,
                applied: false,
                statements: statements(text).unwrap_or_default(),
            };
            let question = format!(
                "Remove permission {label} from {}?",
                queue_place(&queue, sqs.region())
            );
            if !show_and_ask(ctx, &queue, &report, "-", &question, yes, dry_run)? {
                return Ok(ExitStatus::Success);
            }
            sqs.remove_permission(&queue, &label).await?;
            ctx.printer.info(format!(
                "removed permission {label} from queue {}",
                queue.name
            ));
            report.applied = true;
            report.statements = policy(ctx, &queue).await?.1;
            print_change(ctx, &report)
        }
    }
}

/// The queue's ARN and the statements of its policy (none without one).
async fn policy(ctx: &Context, queue: &QueueRef) -> anyhow::Result<(String, Vec<Statement>)> {
    let attributes = ctx.sqs().await?.attributes(queue).await?;
    let arn = attributes.get("QueueArn").unwrap_or_default().to_string();
    let text = attributes.get("Policy").unwrap_or_default();
    let found = if text.is_empty() {
        Vec::new()
    } else {
        statements(text).unwrap_or_default()
    };
    Ok((arn, found))
}

/// A statement on one line: `billing: Allow 111122223333: SQS:SendMessage`.
fn describe(statement: &Statement) -> String {
    let condition = if statement.conditional {
        " (with a condition)"
    } else {
        ""
    };
    format!(
        "{}: {} {}: {}{condition}",
        statement.label,
        statement.effect,
        statement.principals.join(", "),
        statement.actions.join(", ")
    )
}

/// Shows the statement added (`+`) or removed (`-`) on stdout (text and table output), then
/// stops for a dry run or asks. Whether to go on.
fn show_and_ask(
    ctx: &Context,
    queue: &QueueRef,
    report: &ChangeReport,
    sign: &str,
    question: &str,
    yes: bool,
    dry_run: bool,
) -> anyhow::Result<bool> {
    let line = format!("{sign} {}", describe(&Statement::read(&report.statement)));
    ctx.printer.emit(
        &Document::default()
            .text(vec![vec![line.clone()]])
            .note(line),
    )?;
    if dry_run {
        ctx.printer
            .info(format!("dry run: queue {} not changed", queue.name));
        print_change(ctx, report)?;
        return Ok(false);
    }
    confirm_destructive(
        &ctx.printer,
        question,
        &format!("changing the permissions of `{}`", queue.name),
        true,
        yes,
    )?;
    Ok(true)
}

fn print_statements(
    ctx: &Context,
    queue: &QueueRef,
    found: Vec<Statement>,
) -> anyhow::Result<ExitStatus> {
    if found.is_empty() {
        ctx.printer
            .info(format!("queue {} has no policy statements", queue.name));
    }
    let report = PolicyReport {
        name: queue.name.clone(),
        url: queue.url.clone(),
        statements: found,
    };
    ctx.printer.emit(
        &Document::default()
            .json(&report)
            .with_rows(&report.statements),
    )?;
    Ok(ExitStatus::Success)
}

/// The record of the change (JSON output), or the statements after it (text and table output).
fn print_change(ctx: &Context, report: &ChangeReport) -> anyhow::Result<ExitStatus> {
    let mut document = Document::default()
        .json(report)
        .record("queue_permission", report);
    if report.applied {
        document = document.with_rows(&report.statements);
        if report.statements.is_empty() {
            ctx.printer
                .info(format!("queue {} has no policy now", report.name));
        }
    }
    ctx.printer.emit(&document)?;
    Ok(ExitStatus::Success)
}
