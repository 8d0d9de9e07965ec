//! Message records on stdout, in the chosen format, as they arrive: the writer `receive` and `peek`
//! share. It writes and flushes; what to do once a record is written (delete it) is the caller's.

use crate::message::shown::Shown;
use crate::message::{Envelope, MessageRecord};
use crate::output::template::Template;
use crate::output::{Format, Printer, sanitize};
use crate::text::{format_millis, plural};

/// Writes message records as they arrive, in the printer's format: a table per batch on a
/// terminal, one enveloped record per line in a pipe, a single JSON array (streamed) with
/// `-o json`, bodies only with `-o text`. Each batch is flushed before `write_batch` returns, so a
/// caller may delete what was written; `write_each` flushes message by message and says how far it
/// got, for pipes. With a `--format` template, each message is the template's text instead,
/// whatever the format.
pub struct MessageWriter<'a> {
    printer: &'a Printer,
    written: u64,
    include_receipt_handles: bool,
    shown: Shown,
    template: Option<Template>,
}

impl<'a> MessageWriter<'a> {
    pub fn new(printer: &'a Printer, include_receipt_handles: bool) -> Self {
        MessageWriter {
            printer,
            written: 0,
            include_receipt_handles,
            shown: Shown::default(),
            template: None,
        }
    }

    /// Shows only the chosen attributes of each message (all by default).
    pub fn showing(mut self, shown: Shown) -> Self {
        self.shown = shown;
        self
    }

    /// Writes each message as `template` says (`--format`), when one is given.
    pub fn with_template(mut self, template: Option<Template>) -> Self {
        self.template = template;
        self
    }

    /// A message as the template says, its values escaped on a terminal.
    fn templated(&self, template: &Template, record: &MessageRecord) -> String {
        template.render(record, std::time::SystemTime::now(), |value| {
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
        match printer.format() {
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
                    printer.line(&printer.display(&record.body))?;
                }
            }
            Format::Table => printer.table(&self.batch_table(batch))?,
        }
        self.written += batch.len() as u64;
        printer.flush()
    }

    /// Writes and flushes one message at a time, for a reader at the other end of a pipe: a write
    /// that fails (the reader went away) leaves the messages before it written and that one and the
    /// rest not. A table is written whole, so its messages are written together or not at all.
    pub fn write_each(&mut self, batch: &[MessageRecord]) -> Flushed {
        let printer = self.printer;
        let mut flushed = Flushed {
            ends: Vec::with_capacity(batch.len()),
            error: None,
        };
        if batch.is_empty() {
            return flushed;
        }
        if printer.format() == Format::Table && self.template.is_none() {
            let text = format!("{}\n", self.batch_table(batch));
            match printer.write_raw(&text).and_then(|()| printer.flush()) {
                Ok(()) => {
                    flushed.ends = vec![text.len() as u64; batch.len()];
                    self.written += batch.len() as u64;
                }
                Err(err) => flushed.error = Some(err),
            }
            return flushed;
        }
        let mut bytes = 0u64;
        for record in batch {
            let text = match self.message_text(record) {
                Ok(text) => text,
                Err(err) => {
                    flushed.error = Some(err);
                    break;
                }
            };
            if let Err(err) = printer.write_raw(&text).and_then(|()| printer.flush()) {
                flushed.error = Some(err);
                break;
            }
            bytes += text.len() as u64;
            flushed.ends.push(bytes);
            self.written += 1;
        }
        flushed
    }

    /// One message as `write_each` writes it, its separator included.
    fn message_text(&self, record: &MessageRecord) -> std::io::Result<String> {
        let printer = self.printer;
        if let Some(template) = &self.template {
            return Ok(self.templated(template, record));
        }
        match printer.format() {
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
            Format::Text | Format::Table => Ok(format!("{}\n", printer.display(&record.body))),
        }
    }

    /// A batch as a table: the columns that say which message it is (never cut), then its
    /// message attributes (`failure=timeout`), then the body, cut to what the terminal's width
    /// leaves. A column empty in every row (no group on a standard queue, no attributes) is left
    /// out.
    fn batch_table(&self, batch: &[MessageRecord]) -> comfy_table::Table {
        let rows: Vec<[String; 6]> = batch
            .iter()
            .enumerate()
            .map(|(i, record)| {
                let record = self.shown.apply(record);
                [
                    (self.written + i as u64 + 1).to_string(),
                    record.message_id.clone().unwrap_or_default(),
                    record
                        .effective_group_id()
                        .map(|g| sanitize::for_terminal(g).into_owned())
                        .unwrap_or_default(),
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
                ]
            })
            .collect();
        const HEADER: [&str; 6] = ["#", "message id", "group", "receives", "sent", "attributes"];
        let shown: Vec<usize> = (0..HEADER.len())
            .filter(|&c| rows.iter().any(|row| !row[c].is_empty()))
            .collect();
        let mut header: Vec<&str> = shown.iter().map(|&c| HEADER[c]).collect();
        header.push("body");
        // Each column's widest cell, plus one space of padding each side and one border.
        let fixed: usize = shown
            .iter()
            .map(|&c| {
                rows.iter()
                    .map(|row| row[c].chars().count())
                    .chain([HEADER[c].chars().count()])
                    .max()
                    .unwrap_or(0)
                    + 3
            })
            .sum::<usize>()
            + 4;
        let body_width = match self.printer.terminal().width {
            Some(width) => usize::from(width)
                .saturating_sub(fixed)
                .clamp(MIN_BODY_WIDTH, MAX_BODY_WIDTH),
            None => MAX_BODY_WIDTH,
        };
        let mut table = self.printer.new_table(&header);
        for (row, record) in rows.iter().zip(batch) {
            let body = sanitize::for_terminal(&record.body);
            let mut cells: Vec<String> = shown.iter().map(|&c| row[c].clone()).collect();
            cells.push(sanitize::truncate(&body, body_width).into_owned());
            table.add_row(cells);
        }
        // The columns before the body keep their width; only the body gives way.
        for column in table.column_iter_mut().take(shown.len()) {
            column.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
        table
    }

    /// One message of the streamed JSON array, its separator included. Messages are written as
    /// they arrive, so `--query` applies to each message rather than to the whole array; with
    /// `-o text` its result is written as lines of text instead of an array element.
    fn json_element(&self, record: &MessageRecord) -> std::io::Result<String> {
        let printer = self.printer;
        let text = if printer.has_query() {
            let value = self.as_shown(record, |r| printer.queried(r))?;
            if printer.query_as_text() {
                let mut text = String::new();
                for line in crate::output::query::text_lines(&value) {
                    text.push_str(&printer.display(&line));
                    text.push('\n');
                }
                return Ok(text);
            }
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

    /// Hands `write` the record as shown: only the chosen attributes, and its receipt handle
    /// only where the writer includes them.
    fn as_shown<T>(
        &self,
        record: &MessageRecord,
        write: impl FnOnce(&MessageRecord) -> std::io::Result<T>,
    ) -> std::io::Result<T> {
        let mut shown = self.shown.apply(record);
        if !self.include_receipt_handles && shown.receipt_handle.is_some() {
            shown.to_mut().receipt_handle = None;
        }
        write(&shown)
    }

    /// Closes the output: the JSON array's bracket (an empty array when nothing was written).
    pub fn finish(&mut self) -> std::io::Result<()> {
        if self.printer.format() == Format::Json
            && !self.printer.query_as_text()
            && self.template.is_none()
        {
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

/// A message's attributes as `name=value` pairs for a table cell, escaped for a terminal; binary
/// values by their size.
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
                sanitize::truncate(&sanitize::for_terminal(&value.value), 40).into_owned()
            };
            format!("{}={shown}", sanitize::for_terminal(name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What [`MessageWriter::write_each`] got through.
#[derive(Debug)]
pub struct Flushed {
    /// For each message written and flushed, in order: the bytes of the batch written up to and
    /// including it.
    pub ends: Vec<u64>,
    /// The error that stopped the writing, if one did.
    pub error: Option<std::io::Error>,
}
