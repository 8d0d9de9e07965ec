//! `sqsctl browse`: the on-call workbench, a full-screen view of a queue's messages with counts, a
//! filter, marks and actions. Its parts: [`model`] (the state and what each key does, no terminal),
//! [`screen`] (drawing the model), [`filter`] (the filter line, read as the selection options), and
//! [`read`] (reading the queue as `peek` does), [`actions`] (each action through its command's
//! engine) and [`edit`] (a message in the user's editor).
//! This file resolves the settings, refuses a pipe, reads the queue once before taking the screen
//! (a refusal of the read guard is then an ordinary error), and runs the loop that joins keys,
//! signals and the actions; the terminal is restored however it ends.

mod actions;
mod edit;
mod filter;
pub mod model;
mod read;
pub mod screen;

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
use rustix::process::Signal;

use crate::cli::browse::BrowseArgs;
use crate::client::{QueueRef, Sqs};
use crate::commands::common::{account_region, resolve_queue};
use crate::commands::context::Context;
use crate::commands::keys::{Keys, Restore};
use crate::error::UsageError;
use crate::exit::ExitStatus;
use crate::interrupt::{Interrupt, StopSignal};
use crate::redrive::Counters;
use model::{Effect, Mode, Model, Place, Tone};

#[derive(Debug)]
pub struct BrowseSettings {
    pub queue: String,
    pub max: u64,
    pub force: bool,
    pub count_by: Vec<String>,
    pub journal_dir: std::path::PathBuf,
    /// `$VISUAL`, else `$EDITOR`, else `vi` (resolved with the global settings): a shell command
    /// line.
    pub editor: String,
}

impl BrowseSettings {
    /// Checks the command line's values (an error here is a usage error); `editor` is the global
    /// settings' (the environment is read there).
    pub fn resolve(args: BrowseArgs, editor: &str) -> anyhow::Result<BrowseSettings> {
        Ok(BrowseSettings {
            queue: args.queue,
            max: args.max,
            force: args.force,
            count_by: super::selection::count_by(args.count_by)?,
            journal_dir: super::redrive::default_journal_dir(),
            editor: editor.to_string(),
        })
    }
}

pub async fn run(ctx: &Context, settings: BrowseSettings) -> anyhow::Result<ExitStatus> {
    // The screen needs a real terminal on both ends (raw mode is set on it).
    if !(std::io::stdout().is_terminal() && std::io::stdin().is_terminal()) {
        return Err(UsageError(format!(
            "browse needs a terminal on stdin and stdout; to read {} in a pipe or a script, use `sqsctl peek {}` (with --max, --where, --count-by, -o jsonl)",
            settings.queue, settings.queue
        ))
        .into());
    }
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let sqs = ctx.sqs().await?;
    ctx.printer.info(format!("reading {}...", queue.name));
    let first = read::read(sqs, &queue, settings.max, settings.force, &ctx.interrupt)
        .await
        .map_err(anyhow::Error::msg)?;
    if first.interrupted || ctx.interrupt.is_set() {
        return Ok(ExitStatus::Interrupted);
    }
    let place = Place {
        queue: queue.name.clone(),
        account_region: account_region(&queue, sqs.region()),
    };
    let mut model = Model::new(place, &settings.count_by, ctx.printer.uses_color());
    model.load(first.messages, actions::now_ms());
    model.read_note = first.note;
    model.say(Tone::Info, first.status);
    let session = Session {
        ctx,
        sqs,
        queue: &queue,
        settings: &settings,
        inspected: first.inspected,
    };
    let (status, farewell) = session.run(model).await?;
    for line in farewell {
        ctx.printer.info(line);
    }
    Ok(status)
}

fn is_ctrl_c(event: &Event) -> bool {
    matches!(event, Event::Key(key) if key.kind == KeyEventKind::Press
        && key.code == KeyCode::Char('c')
        && key.modifiers.contains(KeyModifiers::CONTROL))
}

/// How an edit ended.
enum Edited {
    /// Changed: send it back.
    Send(model::Action),
    /// Unchanged, or the editor failed (said in the status line).
    Nothing,
    /// SIGTERM or SIGHUP while the editor was open: browse ends.
    Ended(ExitStatus, Vec<String>),
}

struct Session<'a> {
    ctx: &'a Context,
    sqs: &'a Sqs,
    queue: &'a QueueRef,
    settings: &'a BrowseSettings,
    /// Reads go through `sqsctl local`'s inspection endpoint (free): the list is read again after
    /// each action.
    inspected: bool,
}

type Term = ratatui::DefaultTerminal;

impl Session<'_> {
    /// The view until it ends: its exit status, and the lines to print once the terminal is back.
    async fn run(&self, mut model: Model) -> anyhow::Result<(ExitStatus, Vec<String>)> {
        let mut terminal = ratatui::try_init()?;
        let _restore = Restore;
        let mut keys = Keys::spawn();
        let mut prepared: Option<actions::Prepared> = None;
        loop {
            terminal.draw(|frame| screen::draw(frame, &mut model))?;
            let effect = tokio::select! {
                event = keys.recv() => match event {
                    Some(Event::Key(key)) if key.kind == KeyEventKind::Press => model.key(key),
                    Some(_) => Effect::None,
                    None => Effect::Quit,
                },
                // SIGTERM or SIGHUP (Ctrl-C is a key in raw mode).
                () = self.ctx.interrupt.wait() => {
                    return Ok((ExitStatus::Interrupted, vec!["stopped: nothing was changed".into()]));
                }
            };
            match effect {
                Effect::None => {}
                Effect::Quit => return Ok((ExitStatus::Success, Vec::new())),
                Effect::Interrupt => {
                    let what = match &model.mode {
                        Mode::Confirm(pending) => {
                            format!(
                                "cancelled: the {} did not run; nothing was changed",
                                pending.action.verb()
                            )
                        }
                        _ => "interrupted: nothing was changed".into(),
                    };
                    return Ok((ExitStatus::Interrupted, vec![what]));
                }
                Effect::Reload => {
                    if let Some(ended) = self.reload(&mut terminal, &mut model, &mut keys).await? {
                        return Ok(ended);
                    }
                }
                effect @ Effect::Prepare(..) => {
                    prepared = self
                        .prepare(&mut terminal, &mut model, &mut keys, effect)
                        .await?;
                }
                Effect::Edit(id) => match self.edit(&mut terminal, &mut model, &keys, &id).await? {
                    Edited::Send(action) => {
                        model.say(Tone::Info, "edited; preparing to send it back...");
                        let effect = Effect::Prepare(action, vec![id]);
                        prepared = self
                            .prepare(&mut terminal, &mut model, &mut keys, effect)
                            .await?;
                    }
                    Edited::Nothing => {}
                    Edited::Ended(status, farewell) => return Ok((status, farewell)),
                },
                Effect::Run(pending) => {
                    let Some(ready) = prepared.take().filter(|p| p.pending == pending) else {
                        model.say(Tone::Error, "nothing prepared to run");
                        continue;
                    };
                    if let Some(ended) = self
                        .perform(&mut terminal, &mut model, &mut keys, ready)
                        .await?
                    {
                        return Ok(ended);
                    }
                }
            }
        }
    }

    /// Finds what an action needs and asks its question; an error is said in the status line.
    async fn prepare(
        &self,
        terminal: &mut Term,
        model: &mut Model,
        keys: &mut Keys,
        effect: Effect,
    ) -> anyhow::Result<Option<actions::Prepared>> {
        let Effect::Prepare(action, ids) = effect else {
            return Ok(None);
        };
        model.mode = Mode::Running(format!("preparing the {}...", action.verb()));
        terminal.draw(|frame| screen::draw(frame, model))?;
        let ready = actions::prepare(
            self.sqs,
            self.queue,
            action,
            ids,
            &self.settings.journal_dir,
        )
        .await;
        model.mode = Mode::List;
        Ok(match ready {
            Ok(ready) => {
                keys.discard_typed_ahead();
                model.ask(ready.pending.clone());
                Some(ready)
            }
            Err(err) => {
                model.say(Tone::Error, err);
                None
            }
        })
    }

    /// Opens the message in the editor, the terminal handed over to it meanwhile: the edited body
    /// to send back, nothing (unchanged, or the editor failed: said in the status line), or the end
    /// of browse on SIGTERM or SIGHUP, passed on to the editor first (nothing sent).
    async fn edit(
        &self,
        terminal: &mut Term,
        model: &mut Model,
        keys: &Keys,
        id: &str,
    ) -> anyhow::Result<Edited> {
        let Some(message) = model.records_of(&[id.to_string()]).into_iter().next() else {
            return Ok(Edited::Nothing);
        };
        keys.pause(true).await;
        ratatui::restore();
        let scratch = self.settings.journal_dir.parent().map_or_else(
            || self.settings.journal_dir.clone(),
            |dir| dir.join("browse"),
        );
        let lent = crate::commands::keys::lend_terminal();
        let edited = match edit::open(&self.settings.editor, &scratch, &message) {
            Ok(editing) => {
                let pid = editing.pid();
                let mut waiting = tokio::task::spawn_blocking(move || editing.wait());
                tokio::select! {
                    done = &mut waiting => done
                        .map_err(|e| anyhow::anyhow!("the editor's task failed: {e}"))?,
                    () = self.ctx.interrupt.wait() => {
                        let signal = match self.ctx.interrupt.stopped_by() {
                            Some(StopSignal::HangUp) => Signal::HUP,
                            _ => Signal::TERM,
                        };
                        edit::signal(pid, signal);
                        if tokio::time::timeout(edit::STOP_GRACE, &mut waiting).await.is_err() {
                            edit::signal(pid, Signal::KILL);
                            let _ = waiting.await;
                        }
                        return Ok(Edited::Ended(
                            ExitStatus::Interrupted,
                            vec!["stopped: the editor was closed; nothing was sent".into()],
                        ));
                    }
                }
            }
            Err(err) => Err(err),
        };
        drop(lent);
        *terminal = ratatui::try_init()?;
        terminal.clear()?;
        keys.pause(false).await;
        Ok(match edited {
            Ok(Some(body)) => Edited::Send(model::Action::SendEdited { body }),
            Ok(None) => {
                model.say(Tone::Info, "the message was not changed: nothing to send");
                Edited::Nothing
            }
            Err(err) => {
                model.say(Tone::Error, err);
                Edited::Nothing
            }
        })
    }

    /// Reads the queue again, Ctrl-C stopping the read (and the view).
    async fn reload(
        &self,
        terminal: &mut Term,
        model: &mut Model,
        keys: &mut Keys,
    ) -> anyhow::Result<Option<(ExitStatus, Vec<String>)>> {
        model.mode = Mode::Running(format!("reading {}...", self.queue.name));
        let interrupt = Interrupt::with_grace(self.ctx.interrupt.grace());
        let read = read::read(
            self.sqs,
            self.queue,
            self.settings.max,
            self.settings.force,
            &interrupt,
        );
        tokio::pin!(read);
        let outcome = loop {
            terminal.draw(|frame| screen::draw(frame, model))?;
            tokio::select! {
                outcome = &mut read => break outcome,
                event = keys.recv() => if event.as_ref().is_some_and(is_ctrl_c) {
                    interrupt.trigger();
                },
                () = self.ctx.interrupt.wait(), if !interrupt.is_set() => interrupt.trigger(),
            }
        };
        model.mode = Mode::List;
        match outcome {
            Ok(read) if !interrupt.is_set() => {
                model.load(read.messages, actions::now_ms());
                model.read_note = read.note;
                model.say(Tone::Info, read.status);
                Ok(None)
            }
            // Whatever the read held is released before it returns.
            Ok(_) => Ok(Some((
                ExitStatus::Interrupted,
                vec!["interrupted while reading: the messages read were made visible again; nothing was changed".into()],
            ))),
            Err(err) => {
                model.say(Tone::Error, err);
                Ok(None)
            }
        }
    }

    /// Runs a confirmed action, showing its progress; Ctrl-C (or SIGTERM, SIGHUP) stops it as it
    /// stops the command, and then ends the view with what was done and how to complete it.
    async fn perform(
        &self,
        terminal: &mut Term,
        model: &mut Model,
        keys: &mut Keys,
        ready: actions::Prepared,
    ) -> anyhow::Result<Option<(ExitStatus, Vec<String>)>> {
        let verb = ready.pending.action.verb();
        let count = ready.pending.ids.len();
        let records = model.records_of(&ready.pending.ids);
        let counters = Arc::new(Counters::default());
        let interrupt = Interrupt::with_grace(self.ctx.interrupt.grace());
        let work = actions::perform(
            self.sqs,
            self.queue,
            ready,
            records,
            counters.clone(),
            &interrupt,
        );
        tokio::pin!(work);
        let mut ticks = tokio::time::interval(Duration::from_millis(200));
        let done = loop {
            let moved = Counters::get(&counters.moved);
            model.mode = Mode::Running(if interrupt.is_set() {
                format!("stopping the {verb}: finishing the work in flight...")
            } else if verb == "redrive" {
                format!("redriving: {moved} of {count} moved")
            } else if verb == "copy" {
                format!("copying: {moved} of {count} copied")
            } else {
                format!("{verb}: {count} messages...")
            });
            terminal.draw(|frame| screen::draw(frame, model))?;
            tokio::select! {
                done = &mut work => break done,
                event = keys.recv() => if event.as_ref().is_some_and(is_ctrl_c) {
                    interrupt.trigger();
                },
                () = self.ctx.interrupt.wait(), if !interrupt.is_set() => interrupt.trigger(),
                _ = ticks.tick() => {}
            }
        };
        model.mode = Mode::List;
        model.marked.retain(|id| !done.gone.contains(id));
        let gone: std::collections::BTreeSet<&String> = done.gone.iter().collect();
        let kept: Vec<_> = model
            .messages
            .iter()
            .filter(|m| m.message_id.as_ref().is_none_or(|id| !gone.contains(id)))
            .cloned()
            .collect();
        model.load(kept, model.now_ms);
        if done.interrupted || interrupt.is_set() {
            return Ok(Some((ExitStatus::Interrupted, vec![done.status])));
        }
        model.say(
            if done.ok { Tone::Info } else { Tone::Error },
            done.status.clone(),
        );
        if self.inspected && !done.gone.is_empty() {
            // Free on `sqsctl local`: the list shows the queue as it is now.
            if let Some(ended) = self.reload(terminal, model, keys).await? {
                return Ok(Some(ended));
            }
            model.say(if done.ok { Tone::Info } else { Tone::Error }, done.status);
        }
        Ok(None)
    }
}
