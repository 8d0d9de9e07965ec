//! Message records on stdout, in the chosen format, as they arrive: the writer `receive` and `peek`
//! share. It writes and flushes; what to do once a record is written (delete it) is the caller's.
//!
//! A body that is an envelope (SNS, EventBridge, an extended-client pointer) is shown in tables
//! and text as a marker and its inner message; JSON keeps the body as sent and adds the decoded
//! `envelope` and `message`. With `--unwrap`, the inner message is shown alone.

use std::borrow::Cow;

use crate::message::envelope::{Described, unwrap};
use crate::message::shown::Shown;
use crate::message::{Envelope, MessageRecord};
use crate::output::template::Template;
use crate::output::{Column, Format, Printer, Table};
use crate::text::{format_millis, plural};

/// Writes message records as they arrive, in the printer's format: a table per batch on a
/// terminal, one enveloped record per line in a pipe, a single JSON array (streamed) with
/// `-o json`, bodies only with `-o text`. Each batch is flushed before `write_batch` returns, so a
/// caller may delete what was written; `pipe_pieces` hands out one message at a time, for a caller
/// that writes into a pipe and waits for its reader. With a `--format` template, each message is the template's text instead,
/// whatever the format.
pub struct MessageWriter<'a> {
    printer: &'a Printer,
    written: u64,
    include_receipt_handles: bool,
    shown: Shown,
    template: Option<Template>,
    unwrap: bool,
}

impl<'a> MessageWriter<'a> {
    pub fn new(printer: &'a Printer, include_receipt_handles: bool) -> Self {
        MessageWriter {
            printer,
            written: 0,
            include_receipt_handles,
            shown: Shown::default(),
            template: None,
            unwrap: false,
        }
    }

    /// Writes the inner message of each envelope instead of its body (`--unwrap`): as lines of
    /// text, or in a table's body column. The command checks first that the printer can honour
    /// it ([`Printer::check_unwrap`]).
    pub fn unwrapping(mut self, unwrap: bool) -> Self {
        self.unwrap = unwrap;
        self
    }

    /// The format messages are written in: with `--unwrap`, lines of text wherever a table is
    /// not (a pipe), since the inner bodies are the output.
    fn format(&self) -> Format {
        match self.printer.format() {
            Format::Json | Format::Jsonl if self.unwrap => Format::Text,
            format => format,
        }
    }

    /// The body as a table or a line of text shows it: an envelope as its marker and inner
    /// message (the inner message alone with `--unwrap`), any other body as it is.
    fn shown_body<'r>(&self, record: &'r MessageRecord) -> Cow<'r, str> {
        match unwrap(record) {
            Some(unwrapped) if self.unwrap => match unwrapped.inner_body {
                Some(inner) => Cow::Owned(inner),
                None => Cow::Borrowed(&record.body),
            },
            Some(unwrapped) => Cow::Owned(unwrapped.shown()),
            None => Cow::Borrowed(&record.body),
        }
    }

    /// Shows only the chosen attributes of each message (all by default).
    pub fn showing(mut self, shown: Shown) -> Self {
        self.shown = shown;
        self
    }

    /// Writes each message as `template` says (`--format`), when one is given. The command
    /// checks first, before it reads anything, that the printer can honour it
    /// ([`Printer::check_template`]).
    pub fn with_template(mut self, template: Option<Template>) -> Self {
        self.template = template;
        self
    }

    /// A message as the template says, its values escaped on a terminal.
    fn templated(&self, template: &Template, record: &MessageRecord) -> String {
        let record = match unwrap(record).and_then(|u| u.inner_body) {
            Some(inner) if self.unwrap => Cow::Owned(MessageRecord {
                body: inner,
                ..record.clone()
            }),
            _ => Cow::Borrowed(record),
        };
        template.render(&record, std::time::SystemTime::now(), |value| {
            self.printer.display(value).into_owned()
        })
    }

    pub fn written(&self) -> u64 {
        self.written
    }

    pub fn write_batch(&mut self, batch: &[MessageRecord]) -> std::io::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let printer = self.printer;
        if let Some(template) = &self.template {
            for record in batch {
                printer.write_raw(&self.templated(template, record))?;
            }
            self.written += batch.len() as u64;
            return printer.flush();
        }
        match self.format() {
            Format::Jsonl => {
                for record in batch {
                    self.as_shown(record, |r| printer.record("message", r))?;
                }
            }
            Format::Json => {
                for record in batch {
                    let text = self.json_element(record)?;
                    printer.write_raw(&text)?;
                    self.written += 1;
                }
                return printer.flush();
            }
            Format::Text => {
                for record in batch {
                    printer.write_raw(&self.text(record)?)?;
                }
            }
            Format::Table => printer.table(&self.batch_table(batch))?,
        }
        self.written += batch.len() as u64;
        printer.flush()
    }

    /// One message as it goes into a pipe, in the pieces its reader takes one at a time: with
    /// `-o json` first the array's opening or the separator (which close the line before, so a
    /// reader of lines takes no part of this message to finish the last one), then the message
    /// itself; one piece in the other formats. The message counts as written.
    pub fn pipe_pieces(&mut self, record: &MessageRecord) -> std::io::Result<Vec<String>> {
        let pieces = if self.template.is_none() && self.format() == Format::Json {
            // `[\n` or `,\n`, then the indented message.
            let element = self.json_element(record)?;
            let (lead, text) = element.split_at(2);
            vec![lead.to_string(), text.to_string()]
        } else {
            vec![self.message_text(record)?]
        };
        self.written += 1;
        Ok(pieces)
    }

    /// One message as a pipe gets it, its separator included.
    fn message_text(&self, record: &MessageRecord) -> std::io::Result<String> {
        if let Some(template) = &self.template {
            return Ok(self.templated(template, record));
        }
        match self.format() {
            Format::Jsonl => self.as_shown(record, |r| {
                let envelope = Envelope {
                    kind: "message".to_string(),
                    data: r,
                };
                serde_json::to_string(&envelope)
                    .map(|line| line + "\n")
                    .map_err(std::io::Error::other)
            }),
            Format::Json => self.json_element(record),
            Format::Text | Format::Table => self.text(record),
        }
    }

    /// One message as `-o text` writes it: its body on a line, or with `--query` the query's
    /// result as lines of tab-separated fields.
    fn text(&self, record: &MessageRecord) -> std::io::Result<String> {
        let printer = self.printer;
        if !printer.has_query() {
            return Ok(format!("{}\n", printer.display(&self.shown_body(record))));
        }
        let value = self.as_shown(record, |r| printer.queried(r))?;
        let mut text = String::new();
        for line in crate::output::query::text_lines(&value) {
            text.push_str(&printer.display(&line));
            text.push('\n');
        }
        Ok(text)
    }

    /// A batch as a table: the columns that say which message it is (ids never cut), then its
    /// message attributes (`failure=timeout`), then the body, cut to what the terminal leaves.
    /// A column empty in every row (no group on a standard queue, no attributes) is left out; on
    /// a narrow terminal the sent time goes first, then the receive count, the group and the
    /// attributes.
    fn batch_table(&self, batch: &[MessageRecord]) -> Table {
        let mut table = Table::new(vec![
            Column::whole("#"),
            Column::id("message id"),
            Column::id("group").droppable(3),
            Column::whole("receives").droppable(2),
            Column::whole("sent").droppable(1),
            Column::cut("attributes", 12, 40).droppable(4),
            Column::cut("body", MIN_BODY_WIDTH, MAX_BODY_WIDTH).keeping(KEPT_BODY_WIDTH),
        ]);
        for (i, record) in batch.iter().enumerate() {
            let record = self.shown.apply(record);
            table.row(vec![
                (self.written + i as u64 + 1).to_string(),
                record.message_id.clone().unwrap_or_default(),
                record.effective_group_id().unwrap_or_default().to_string(),
                record
                    .attributes
                    .get("ApproximateReceiveCount")
                    .cloned()
                    .unwrap_or_default(),
                record
                    .attribute_u64("SentTimestamp")
                    .map(format_millis)
                    .unwrap_or_default(),
                attributes_cell(&record),
                self.shown_body(&record).into_owned(),
            ]);
        }
        table.without_empty_columns()
    }

    /// One message of the streamed JSON array, its separator included. Messages are written as
    /// they arrive, so `--query` applies to each message rather than to the whole array.
    fn json_element(&self, record: &MessageRecord) -> std::io::Result<String> {
        let printer = self.printer;
        let text = if printer.has_query() {
            let value = self.as_shown(record, |r| printer.queried(r))?;
            serde_json::to_string(&value).map_err(std::io::Error::other)?
        } else {
            // Straight from the record, so its fields keep the schema's order.
            self.as_shown(record, |r| {
                serde_json::to_string(r).map_err(std::io::Error::other)
            })?
        };
        let lead = if self.written == 0 { "[\n  " } else { ",\n  " };
        Ok(format!("{lead}{text}"))
    }

    /// Hands `write` the record as shown: only the chosen attributes, its receipt handle only
    /// where the writer includes them, and its envelope decoded (from the whole record, so a
    /// size attribute left out still gives the pointer's size).
    fn as_shown<T>(
        &self,
        record: &MessageRecord,
        write: impl FnOnce(&Described<'_>) -> std::io::Result<T>,
    ) -> std::io::Result<T> {
        let mut shown = self.shown.apply(record);
        if !self.include_receipt_handles && shown.receipt_handle.is_some() {
            shown.to_mut().receipt_handle = None;
        }
        let mut described = Described::of(record);
        described.record = &shown;
        write(&described)
    }

    /// Closes the output: the JSON array's bracket (an empty array when nothing was written).
    pub fn finish(&mut self) -> std::io::Result<()> {
        if self.format() == Format::Json && self.template.is_none() {
            let close = if self.written == 0 { "[]\n" } else { "\n]\n" };
            self.printer.write_raw(close)?;
        }
        self.printer.flush()
    }
}

/// The body column's width on a terminal of unknown width, and at most on any.
const MAX_BODY_WIDTH: usize = 60;
/// The body column's width however narrow the terminal: a body cut shorter says nothing.
const MIN_BODY_WIDTH: usize = 12;
/// The body column's width while a column that may go (sent time, receive count, group,
/// attributes) can go instead: enough for an envelope's marker and the start of its inner message.
const KEPT_BODY_WIDTH: usize = 20;

/// A message's attributes as `name=value` pairs for a table cell; binary values by their size.
fn attributes_cell(record: &MessageRecord) -> String {
    record
        .message_attributes
        .iter()
        .map(|(name, value)| {
            let shown = if value.is_binary() {
                let padding = value.value.bytes().rev().take_while(|&b| b == b'=').count();
                let bytes = (value.value.len() / 4 * 3).saturating_sub(padding);
                format!("(binary, {})", plural(bytes as u64, "byte"))
            } else {
                value.value.clone()
            };
            format!("{name}={shown}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl Printer {
    /// Refuses `--unwrap` where it cannot apply: JSON asked for by name keeps the body as sent
    /// and carries the inner message as `message` already, and a `--query` chooses what to write.
    pub fn check_unwrap(&self, unwrap: bool) -> Result<(), crate::error::UsageError> {
        if !unwrap {
            return Ok(());
        }
        if self.query.is_some() {
            return Err(crate::error::UsageError(
                "--unwrap and --query both choose what to write for each message: use one (the query sees the inner message as `message`)".into(),
            ));
        }
        match self.format() {
            Format::Json | Format::Jsonl if !self.output_is_auto() => Err(crate::error::UsageError(
                "--unwrap writes inner messages as text and cannot be combined with -o json or -o jsonl, whose records keep the body as sent and carry the inner message as `message`".into(),
            )),
            _ => Ok(()),
        }
    }

    /// How many messages of a listing (a dry run's) to hold for the document at the end: every
    /// one for a JSON document, `table_rows` for a table, none where each is written as it comes
    /// ([`Printer::live_message`]).
    pub fn messages_to_keep(&self, table_rows: usize) -> usize {
        match self.format() {
            Format::Json => usize::MAX,
            Format::Table => table_rows,
            Format::Jsonl | Format::Text => 0,
        }
    }

    /// A message of a listing written as it comes: a `message` record with JSON Lines, its body
    /// (or `--query`'s result) with `-o text`; nothing in the other formats, whose document at the
    /// end holds it.
    pub fn live_message(&self, message: &MessageRecord) -> std::io::Result<()> {
        match self.format() {
            Format::Jsonl => self.record("message", message),
            Format::Text if self.has_query() => {
                for line in crate::output::query::text_lines(&self.queried(message)?) {
                    self.line(&self.display(&line))?;
                }
                Ok(())
            }
            Format::Text => self.line(&self.display(&message.body)),
            Format::Json | Format::Table => Ok(()),
        }
    }
}

/// The messages of a dry run with a rewrite: each one's id, its body before and after (or why the
/// rewrite would leave it in the DLQ), cut.
pub fn rewrite_table(rewritten: &[crate::redrive::PreviewedRewrite]) -> Table {
    let mut table = Table::new(vec![
        Column::id("message id"),
        Column::cut("before", MIN_BODY_WIDTH, MAX_BODY_WIDTH).keeping(KEPT_BODY_WIDTH),
        Column::cut("after", MIN_BODY_WIDTH, MAX_BODY_WIDTH).keeping(KEPT_BODY_WIDTH),
    ]);
    for message in rewritten {
        let after = match (&message.after, &message.error) {
            (Some(after), _) => after.body.clone(),
            (None, Some(error)) => format!("(stays: {error})"),
            (None, None) => String::new(),
        };
        table.row(vec![
            message.message_id.clone(),
            message.before.body.clone(),
            after,
        ]);
    }
    table
}

/// A message listed in a table of messages (a dry run's): its id, its group, its body cut.
pub fn listing_table(messages: &[MessageRecord]) -> Table {
    let mut table = Table::new(vec![
        Column::id("message id"),
        Column::id("group").droppable(1),
        Column::cut("body", MIN_BODY_WIDTH, MAX_BODY_WIDTH).keeping(KEPT_BODY_WIDTH),
    ]);
    for message in messages {
        table.row(vec![
            message.message_id.clone().unwrap_or_default(),
            message.effective_group_id().unwrap_or("").to_string(),
            unwrap(message).map_or_else(|| message.body.clone(), |u| u.shown()),
        ]);
    }
    table.without_empty_columns()
}
