//! What `browse` shows and what each key does to it, without a terminal or a queue: the messages
//! read, the filter, the marks, the counts beside the list, the mode (list, filter line, detail,
//! help, a question), and the status line. [`Model::key`] turns a key into a change of the model
//! and, where the outside world must act (read the queue, prepare or run an action, quit), an
//! [`Effect`] that the command carries out ([`super::run`]). Drawing is [`super::screen`]'s.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::message::MessageRecord;
use crate::message::count::{Counter, KeyCounts};
use crate::select::Selector;

/// The queue browsed, as every question names it.
#[derive(Debug, Clone)]
pub struct Place {
    pub queue: String,
    /// `account 123456789012, eu-west-1`.
    pub account_region: String,
}

/// What an action does to the chosen messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Through the redrive engine, to the queue's source (`None`) or the queue named.
    Redrive { to: Option<String> },
    /// Through the redrive engine with `copy` (as `redrive --copy`), to the queue's source: sent,
    /// and kept in the DLQ.
    Copy,
    /// Through the delete engine, by message id.
    Delete,
    /// The records of `peek -o jsonl`, written to a file.
    Export { path: PathBuf },
    /// Through the redrive engine to the queue's source, the message sent with this body instead
    /// of its own (edited in `$EDITOR`).
    SendEdited { body: String },
}

impl Action {
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Redrive { .. } => "redrive",
            Action::Copy => "copy",
            Action::Delete => "delete",
            Action::Export { .. } => "export",
            Action::SendEdited { .. } => "send-back",
        }
    }
}

/// An action on chosen messages, once its question is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub action: Action,
    pub ids: Vec<String>,
    /// The question, naming queue, account, region and destination.
    pub question: String,
}

/// What is typed in the input line for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputPurpose {
    Filter,
    CountBy,
    RedriveTo,
    ExportTo,
}

impl InputPurpose {
    pub fn prompt(self) -> &'static str {
        match self {
            InputPurpose::Filter => "filter (regex, or --grep/--where/--attr ...): ",
            InputPurpose::CountBy => "count by (JMESPath, as --count-by): ",
            InputPurpose::RedriveTo => "redrive to queue (name, URL or ARN): ",
            InputPurpose::ExportTo => "export to file (JSON Lines): ",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    List,
    Input {
        purpose: InputPurpose,
        text: String,
    },
    Detail {
        scroll: u16,
    },
    Help,
    Confirm(Pending),
    /// An action runs; keys other than Ctrl-C wait.
    Running(String),
}

/// How the status line reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// What the command must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    /// `q` or Esc at the list.
    Quit,
    /// Ctrl-C: at the list or a question, end with nothing changed; during an action, stop it.
    Interrupt,
    /// Read the queue again.
    Reload,
    /// Find what the action needs (its destination) and ask.
    Prepare(Action, Vec<String>),
    /// The user said yes.
    Run(Pending),
    /// Open the message with this id in `$EDITOR`.
    Edit(String),
}

pub struct Model {
    pub place: Place,
    pub messages: Vec<MessageRecord>,
    /// The filter as typed, and compiled (`None`: every message).
    pub filter_text: String,
    selector: Option<Selector>,
    /// Indexes into `messages` of what the filter shows.
    pub shown: Vec<usize>,
    /// Position in `shown`.
    pub cursor: usize,
    /// First row of `shown` on screen.
    pub offset: usize,
    /// Marked message ids.
    pub marked: BTreeSet<String>,
    /// The keys to count by; `count_key` is the one shown.
    pub count_keys: Vec<String>,
    pub count_key: usize,
    pub counts: Option<KeyCounts>,
    pub mode: Mode,
    pub status: String,
    pub tone: Tone,
    /// What a read costs, said beside the title (`free: inspection`, `1 receive per message`).
    pub read_note: String,
    /// When the view was read, for ages (ms since the epoch).
    pub now_ms: u64,
    /// Colours allowed (`NO_COLOR`).
    pub color: bool,
    /// Rows of the list on screen, set by the last draw (for page moves).
    pub page: usize,
}

/// The keys counted by when none are given, after those given with `--count-by`.
pub const DEFAULT_COUNT_KEYS: [&str; 2] = ["group_id", "attributes.ApproximateReceiveCount"];

impl Model {
    pub fn new(place: Place, count_by: &[String], color: bool) -> Model {
        Model {
            place,
            messages: Vec::new(),
            filter_text: String::new(),
            selector: None,
            shown: Vec::new(),
            cursor: 0,
            offset: 0,
            marked: BTreeSet::new(),
            count_keys: count_by.to_vec(),
            count_key: 0,
            counts: None,
            mode: Mode::List,
            status: "reading...".into(),
            tone: Tone::Info,
            read_note: String::new(),
            now_ms: 0,
            color,
            page: 10,
        }
    }

    /// The messages of a read: the filter applied again, marks of messages gone dropped.
    pub fn load(&mut self, messages: Vec<MessageRecord>, now_ms: u64) {
        self.messages = messages;
        self.now_ms = now_ms;
        let ids: BTreeSet<&str> = self
            .messages
            .iter()
            .filter_map(|m| m.message_id.as_deref())
            .collect();
        self.marked.retain(|id| ids.contains(id.as_str()));
        self.refresh_keys();
        self.apply_filter();
    }

    /// The keys to count by: those given, the defaults, and each message attribute seen.
    fn refresh_keys(&mut self) {
        let mut keys: Vec<String> = self.count_keys.clone();
        for key in DEFAULT_COUNT_KEYS {
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
        let names: BTreeSet<&String> = self
            .messages
            .iter()
            .flat_map(|m| m.message_attributes.keys())
            .collect();
        for name in names.into_iter().take(5) {
            let key = format!("message_attributes.{name}.value");
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        self.count_keys = keys;
        self.count_key = self.count_key.min(self.count_keys.len().saturating_sub(1));
    }

    fn apply_filter(&mut self) {
        let selector = self.selector.as_ref();
        self.shown = self
            .messages
            .iter()
            .enumerate()
            .filter(|(_, m)| selector.is_none_or(|s| s.matches(m)))
            .map(|(i, _)| i)
            .collect();
        self.cursor = self.cursor.min(self.shown.len().saturating_sub(1));
        self.recount();
    }

    fn recount(&mut self) {
        self.counts = self.count_keys.get(self.count_key).and_then(|key| {
            let mut counter = Counter::compile(std::slice::from_ref(key)).ok()?;
            for &i in &self.shown {
                counter.add(&self.messages[i]);
            }
            counter.counts().into_iter().next()
        });
    }

    /// Replaces the filter: `text` as `--grep` takes it, or the selection options themselves.
    /// An invalid filter leaves the old one and says why in the status line.
    pub fn set_filter(&mut self, text: &str) {
        match super::filter::parse(text) {
            Ok(selector) => {
                self.selector = selector;
                self.filter_text = text.trim().to_string();
                self.apply_filter();
                self.say(
                    Tone::Info,
                    if self.filter_text.is_empty() {
                        format!("showing all {}", self.messages.len())
                    } else {
                        format!(
                            "{} of {} match {}",
                            self.shown.len(),
                            self.messages.len(),
                            self.filter_text
                        )
                    },
                );
            }
            Err(err) => self.say(Tone::Error, format!("filter not applied: {err}")),
        }
    }

    /// Counts by `expr` (a JMESPath expression, as `--count-by` takes it), added to the keys `c`
    /// cycles through; an invalid one is said in the status line.
    pub fn count_by(&mut self, expr: &str) {
        if let Err(err) = Counter::compile(&[expr.to_string()]) {
            self.say(Tone::Error, format!("not counted: {err}"));
            return;
        }
        self.count_key = match self.count_keys.iter().position(|k| k == expr) {
            Some(known) => known,
            None => {
                self.count_keys.push(expr.to_string());
                self.count_keys.len() - 1
            }
        };
        self.recount();
        self.say(Tone::Info, format!("counting by {expr}"));
    }

    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.tone = tone;
        self.status = text.into();
    }

    /// The message under the cursor.
    pub fn current(&self) -> Option<&MessageRecord> {
        self.shown.get(self.cursor).map(|&i| &self.messages[i])
    }

    /// The ids an action takes: the marked ones, or the one under the cursor.
    pub fn chosen(&self) -> Vec<String> {
        if self.marked.is_empty() {
            self.current()
                .and_then(|m| m.message_id.clone())
                .into_iter()
                .collect()
        } else {
            self.marked.iter().cloned().collect()
        }
    }

    /// The records of the chosen ids, in the order read.
    pub fn records_of(&self, ids: &[String]) -> Vec<MessageRecord> {
        let ids: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
        self.messages
            .iter()
            .filter(|m| m.message_id.as_deref().is_some_and(|id| ids.contains(id)))
            .cloned()
            .collect()
    }

    /// Asks `pending`'s question.
    pub fn ask(&mut self, pending: Pending) {
        self.mode = Mode::Confirm(pending);
    }

    fn move_cursor(&mut self, to: usize) {
        self.cursor = to.min(self.shown.len().saturating_sub(1));
    }

    /// Keeps the cursor's row on a list of `rows` rows.
    pub fn scroll_to_cursor(&mut self, rows: usize) {
        let rows = rows.max(1);
        self.page = rows;
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + rows {
            self.offset = self.cursor + 1 - rows;
        }
        self.offset = self.offset.min(self.shown.len().saturating_sub(1));
    }

    pub fn key(&mut self, key: KeyEvent) -> Effect {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return Effect::Interrupt;
        }
        match std::mem::replace(&mut self.mode, Mode::List) {
            Mode::List => self.list_key(key),
            Mode::Input { purpose, text } => self.input_key(key, purpose, text),
            Mode::Detail { scroll } => {
                self.mode = match key.code {
                    KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => Mode::List,
                    KeyCode::Down | KeyCode::Char('j') => Mode::Detail {
                        scroll: scroll.saturating_add(1),
                    },
                    KeyCode::Up | KeyCode::Char('k') => Mode::Detail {
                        scroll: scroll.saturating_sub(1),
                    },
                    KeyCode::PageDown | KeyCode::Char(' ') => Mode::Detail {
                        scroll: scroll.saturating_add(10),
                    },
                    KeyCode::PageUp => Mode::Detail {
                        scroll: scroll.saturating_sub(10),
                    },
                    KeyCode::Home => Mode::Detail { scroll: 0 },
                    _ => Mode::Detail { scroll },
                };
                Effect::None
            }
            Mode::Help => Effect::None,
            Mode::Confirm(pending) => match key.code {
                KeyCode::Char('y' | 'Y') => Effect::Run(pending),
                KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => {
                    self.say(
                        Tone::Info,
                        format!("{} cancelled: nothing was changed", pending.action.verb()),
                    );
                    Effect::None
                }
                _ => {
                    self.mode = Mode::Confirm(pending);
                    Effect::None
                }
            },
            Mode::Running(what) => {
                self.mode = Mode::Running(what);
                Effect::None
            }
        }
    }

    fn list_key(&mut self, key: KeyEvent) -> Effect {
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Effect::Quit,
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(self.cursor + 1),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(self.cursor.saturating_sub(1)),
            KeyCode::PageDown => self.move_cursor(self.cursor + self.page),
            KeyCode::PageUp => self.move_cursor(self.cursor.saturating_sub(self.page)),
            KeyCode::Home | KeyCode::Char('g') => self.move_cursor(0),
            KeyCode::End | KeyCode::Char('G') => self.move_cursor(usize::MAX),
            KeyCode::Enter if self.current().is_some() => self.mode = Mode::Detail { scroll: 0 },
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Char('/') => {
                self.mode = Mode::Input {
                    purpose: InputPurpose::Filter,
                    text: self.filter_text.clone(),
                }
            }
            KeyCode::Char('C') => {
                self.mode = Mode::Input {
                    purpose: InputPurpose::CountBy,
                    text: String::new(),
                }
            }
            KeyCode::Char('c') if !self.count_keys.is_empty() => {
                self.count_key = (self.count_key + 1) % self.count_keys.len();
                self.recount();
            }
            KeyCode::Char(' ') => {
                if let Some(id) = self.current().and_then(|m| m.message_id.clone())
                    && !self.marked.remove(&id)
                {
                    self.marked.insert(id);
                }
                self.move_cursor(self.cursor + 1);
            }
            KeyCode::Char('a') => {
                let ids: Vec<String> = self
                    .shown
                    .iter()
                    .filter_map(|&i| self.messages[i].message_id.clone())
                    .collect();
                self.marked.extend(ids);
                self.say(Tone::Info, format!("{} marked", self.marked.len()));
            }
            KeyCode::Char('u') => {
                self.marked.clear();
                self.say(Tone::Info, "marks cleared");
            }
            KeyCode::Char('R') => return Effect::Reload,
            KeyCode::Char('e') => match self.current().and_then(|m| m.message_id.clone()) {
                Some(id) => return Effect::Edit(id),
                None => self.say(Tone::Error, "no message to edit"),
            },
            KeyCode::Char(c @ ('r' | 'y' | 't' | 'd' | 'x')) => {
                let ids = self.chosen();
                if ids.is_empty() {
                    self.say(Tone::Error, "no message to act on");
                    return Effect::None;
                }
                match c {
                    'r' => return Effect::Prepare(Action::Redrive { to: None }, ids),
                    'y' => return Effect::Prepare(Action::Copy, ids),
                    'd' => return Effect::Prepare(Action::Delete, ids),
                    't' => {
                        self.mode = Mode::Input {
                            purpose: InputPurpose::RedriveTo,
                            text: String::new(),
                        }
                    }
                    _ => {
                        self.mode = Mode::Input {
                            purpose: InputPurpose::ExportTo,
                            text: String::new(),
                        }
                    }
                }
            }
            _ => {}
        }
        Effect::None
    }

    fn input_key(&mut self, key: KeyEvent, purpose: InputPurpose, mut text: String) -> Effect {
        match key.code {
            KeyCode::Esc => return Effect::None,
            KeyCode::Enter => {
                let typed = text.trim().to_string();
                match purpose {
                    InputPurpose::Filter => self.set_filter(&typed),
                    _ if typed.is_empty() => {}
                    InputPurpose::CountBy => self.count_by(&typed),
                    InputPurpose::RedriveTo => {
                        return Effect::Prepare(Action::Redrive { to: Some(typed) }, self.chosen());
                    }
                    InputPurpose::ExportTo => {
                        return Effect::Prepare(
                            Action::Export {
                                path: PathBuf::from(typed),
                            },
                            self.chosen(),
                        );
                    }
                }
                return Effect::None;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            // Ctrl-U clears the line, as in a shell; other control keys type nothing.
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => text.clear(),
            KeyCode::Char(_) if key.modifiers.contains(KeyModifiers::CONTROL) => {}
            KeyCode::Char(c) => text.push(c),
            _ => {}
        }
        self.mode = Mode::Input { purpose, text };
        Effect::None
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    pub fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    pub fn typed(model: &mut Model, text: &str) -> Effect {
        let mut last = Effect::None;
        for c in text.chars() {
            last = model.key(key(KeyCode::Char(c)));
        }
        last
    }

    pub fn message(i: usize) -> MessageRecord {
        let mut attributes = std::collections::BTreeMap::new();
        attributes.insert("SentTimestamp".into(), (1_700_000_000_000u64).to_string());
        attributes.insert("ApproximateReceiveCount".into(), (1 + i % 3).to_string());
        let mut m = MessageRecord::received(
            Some(format!("{i:08x}-0000-4000-8000-{i:012}")),
            format!(
                r#"{{"order":{i},"error":"{}"}}"#,
                if i % 2 == 0 { "timeout" } else { "bad input" }
            ),
            Default::default(),
            attributes,
            None,
        );
        m.message_attributes.insert(
            "error".into(),
            crate::message::AttributeValue::string(if i % 2 == 0 { "timeout" } else { "schema" }),
        );
        m
    }

    pub fn model(n: usize) -> Model {
        let mut model = Model::new(
            Place {
                queue: "orders-dlq".into(),
                account_region: "account 000000000000, us-east-1".into(),
            },
            &[],
            false,
        );
        model.load((0..n).map(message).collect(), 1_700_000_060_000);
        model
    }

    #[test]
    fn space_marks_and_moves_down_and_an_action_takes_the_marked() {
        let mut m = model(5);
        m.key(key(KeyCode::Char(' ')));
        m.key(key(KeyCode::Char(' ')));
        assert_eq!(m.marked.len(), 2);
        assert_eq!(m.cursor, 2);
        let Effect::Prepare(Action::Redrive { to: None }, ids) = m.key(key(KeyCode::Char('r')))
        else {
            panic!("redrive prepared")
        };
        assert_eq!(
            ids,
            vec![
                message(0).message_id.unwrap(),
                message(1).message_id.unwrap()
            ]
        );
        let Effect::Prepare(Action::Copy, copied) = m.key(key(KeyCode::Char('y'))) else {
            panic!("copy prepared")
        };
        assert_eq!(copied, ids);
        m.key(key(KeyCode::Char('u')));
        assert!(m.marked.is_empty());
        // Nothing marked: the message under the cursor.
        let Effect::Prepare(Action::Delete, ids) = m.key(key(KeyCode::Char('d'))) else {
            panic!("delete prepared")
        };
        assert_eq!(ids, vec![message(2).message_id.unwrap()]);
    }

    #[test]
    fn a_filter_narrows_the_list_and_mark_all_marks_only_what_is_shown() {
        let mut m = model(6);
        m.key(key(KeyCode::Char('/')));
        typed(&mut m, "timeout");
        m.key(key(KeyCode::Enter));
        assert_eq!(m.shown, vec![0, 2, 4]);
        assert_eq!(m.mode, Mode::List);
        m.key(key(KeyCode::Char('a')));
        assert_eq!(m.marked.len(), 3);
        m.key(key(KeyCode::Char('/')));
        for _ in 0.."timeout".len() {
            m.key(key(KeyCode::Backspace));
        }
        typed(&mut m, "--where \"body.order > `3`\"");
        m.key(key(KeyCode::Enter));
        assert_eq!(m.shown, vec![4, 5]);
    }

    #[test]
    fn an_invalid_filter_is_an_error_in_the_status_line_and_keeps_the_old_one() {
        let mut m = model(4);
        m.set_filter("timeout");
        m.key(key(KeyCode::Char('/')));
        // The line starts with the filter in force.
        for _ in 0.."timeout".len() {
            m.key(key(KeyCode::Backspace));
        }
        typed(&mut m, " --where 'body.order >'");
        m.key(key(KeyCode::Enter));
        assert_eq!(m.tone, Tone::Error);
        assert!(m.status.contains("--where"), "{}", m.status);
        assert_eq!(m.shown, vec![0, 2]);
        m.set_filter("(");
        assert_eq!(m.tone, Tone::Error);
        assert!(m.status.contains("--grep"), "{}", m.status);
    }

    #[test]
    fn capital_c_counts_by_an_expression_typed_in_and_refuses_an_invalid_one() {
        let mut m = model(6);
        m.key(key(KeyCode::Char('C')));
        typed(&mut m, "body.error");
        m.key(key(KeyCode::Enter));
        let counts = m.counts.clone().unwrap();
        assert_eq!(counts.expr, "body.error");
        assert_eq!(counts.values.len(), 2);
        assert_eq!(counts.values[0].count, 3);
        m.key(key(KeyCode::Char('C')));
        typed(&mut m, "body.[");
        m.key(key(KeyCode::Enter));
        assert_eq!(m.tone, Tone::Error);
        assert!(
            m.status.starts_with("not counted: `body.[`"),
            "{}",
            m.status
        );
        assert_eq!(m.counts.clone().unwrap().expr, "body.error");
    }

    #[test]
    fn e_edits_the_message_under_the_cursor_whatever_is_marked() {
        let mut m = model(3);
        m.key(key(KeyCode::Char(' ')));
        assert_eq!(
            m.key(key(KeyCode::Char('e'))),
            Effect::Edit(message(1).message_id.unwrap())
        );
    }

    #[test]
    fn the_confirmation_runs_on_yes_and_changes_nothing_on_no_or_esc() {
        let mut m = model(2);
        let pending = Pending {
            action: Action::Delete,
            ids: vec!["a".into()],
            question: "Delete?".into(),
        };
        m.ask(pending.clone());
        assert_eq!(m.key(key(KeyCode::Char('x'))), Effect::None);
        assert_eq!(m.key(key(KeyCode::Char('y'))), Effect::Run(pending.clone()));
        m.ask(pending.clone());
        assert_eq!(m.key(key(KeyCode::Esc)), Effect::None);
        assert_eq!(m.mode, Mode::List);
        assert!(m.status.contains("nothing was changed"));
        m.ask(pending);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(m.key(ctrl_c), Effect::Interrupt);
    }

    #[test]
    fn the_count_key_cycles_through_the_given_the_default_and_the_attribute_keys() {
        let mut m = model(4);
        assert_eq!(
            m.count_keys,
            [
                "group_id",
                "attributes.ApproximateReceiveCount",
                "message_attributes.error.value"
            ]
        );
        m.key(key(KeyCode::Char('c')));
        m.key(key(KeyCode::Char('c')));
        let counts = m.counts.clone().unwrap();
        assert_eq!(counts.expr, "message_attributes.error.value");
        assert_eq!(counts.values[0].count, 2);
    }
}
