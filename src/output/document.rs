//! Records that render themselves, and the [`Document`] a command hands to
//! [`Printer::emit`](super::Printer::emit).
//!
//! A record type says once how it is each format: its JSON is its `Serialize` (one schema per
//! type), its JSON Lines `type` is [`Row::KIND`] or [`Fields::KIND`], and it is either a table
//! row under a header ([`Row`]: one line of tab-separated fields with `-o text`) or a list of
//! named values ([`Fields`]: a two-column table, and `name<TAB>value` lines). A command builds a
//! `Document` from its records and never looks at the output format; the printer picks the
//! format, applies `--query`, escapes and fits the terminal.

use serde::Serialize;

use crate::output::table::{Column, Table};

/// A record shown as one row of a table.
pub trait Row: Serialize {
    /// The `type` of its JSON Lines records.
    const KIND: &'static str;
    /// The table's columns, in order.
    fn columns() -> Vec<Column>;
    /// Its cells, one per column, as text for a person (the printer escapes them).
    fn cells(&self) -> Vec<String>;
    /// Its `-o text` fields, tab-separated on one line: the cells unless a script needs rawer
    /// values (seconds rather than `2m`).
    fn fields(&self) -> Vec<String> {
        self.cells()
    }
}

/// A record shown as a list of named values (a summary, a queue's settings).
pub trait Fields: Serialize {
    /// The `type` of its JSON Lines record.
    const KIND: &'static str;
    /// The header over the names in a table (`attribute`, `redrive`).
    const TITLE: &'static str;
    /// The header over the values.
    const VALUE_TITLE: &'static str = "value";
    /// Its values by name, in order, as text for a person.
    fn fields(&self) -> Vec<(String, String)>;
    /// Its `-o text` lines, `name<TAB>value`: the fields unless a script needs other names.
    fn text(&self) -> Vec<(String, String)> {
        self.fields()
    }
}

/// What a command writes on stdout, in every format at once; the printer writes one of them.
#[derive(Debug, Default)]
pub struct Document {
    /// `-o json`: one document, pretty-printed (kept as text so its fields keep their order);
    /// none for a document that is only for people (a diff shown before a question).
    pub(super) json: Option<String>,
    /// `-o jsonl`: `(type, data)` records, each data compact JSON.
    pub(super) records: Vec<(String, String)>,
    /// `-o table`: tables, then lines under them, and lines said on stderr.
    pub(super) tables: Vec<Table>,
    pub(super) notes: Vec<String>,
    pub(super) asides: Vec<String>,
    /// `-o text`: lines of tab-separated fields.
    pub(super) text: Vec<Vec<String>>,
    /// A result that is one value (a queue URL): written alone when piped without `-o`, and
    /// in place of a table.
    pub(super) value: Option<String>,
}

fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|e| json_error(&e))
}

fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| json_error(&e))
}

/// Our records have string keys only, so serializing cannot fail; should it, the output says so
/// rather than the process panicking.
fn json_error(err: &serde_json::Error) -> String {
    compact(&serde_json::json!({ "error": err.to_string() }))
}

impl Document {
    /// A list of rows: a JSON array, one record each, one table, one line each.
    pub fn rows<R: Row>(rows: &[R]) -> Document {
        Document {
            json: Some(pretty(rows)),
            ..Document::default()
        }
        .with_rows(rows)
    }

    /// One record of named values: a JSON object, one record, a two-column table, a line per
    /// value.
    pub fn fields<F: Fields>(record: &F) -> Document {
        Document {
            json: Some(pretty(record)),
            ..Document::default()
        }
        .with_fields(record)
    }

    /// A result that is one value (`queue url`): the value alone in a pipe without `-o` and with
    /// `-o text`, above the document's tables on a terminal; the record with `-o json` and
    /// `-o jsonl`.
    pub fn value<T: Serialize>(kind: &str, record: &T, value: impl Into<String>) -> Document {
        let value = value.into();
        Document {
            json: Some(pretty(record)),
            records: vec![(kind.to_string(), compact(record))],
            text: vec![vec![value.clone()]],
            value: Some(value),
            ..Document::default()
        }
    }

    /// Adds rows after what the document holds: their records, their table and their lines.
    /// The JSON document is left as it is.
    pub fn with_rows<R: Row>(mut self, rows: &[R]) -> Document {
        self.records
            .extend(rows.iter().map(|r| (R::KIND.to_string(), compact(r))));
        self.tables.push(rows_table(rows));
        self.text.extend(rows.iter().map(Row::fields));
        self
    }

    /// Adds a record of named values: its record, its table and its lines.
    pub fn with_fields<F: Fields>(mut self, record: &F) -> Document {
        self.records.push((F::KIND.to_string(), compact(record)));
        self.tables.push(fields_table(record));
        self.text.extend(
            record
                .text()
                .into_iter()
                .map(|(name, value)| vec![name, value]),
        );
        self
    }

    /// Replaces the JSON document (for a document of several parts: `{"findings": [...], ...}`).
    pub fn json<T: Serialize + ?Sized>(mut self, document: &T) -> Document {
        self.json = Some(pretty(document));
        self
    }

    /// Adds a JSON Lines record only (a closing summary).
    pub fn record<T: Serialize + ?Sized>(mut self, kind: &str, data: &T) -> Document {
        self.records.push((kind.to_string(), compact(data)));
        self
    }

    /// Adds a table only.
    pub fn table(mut self, table: Table) -> Document {
        self.tables.push(table);
        self
    }

    /// Replaces the tables.
    pub fn tables(mut self, tables: Vec<Table>) -> Document {
        self.tables = tables;
        self
    }

    /// Adds a line under the tables (`inferred: ...`).
    pub fn note(mut self, line: impl Into<String>) -> Document {
        self.notes.push(line.into());
        self
    }

    /// Adds a line said on stderr when the tables are written (what a table leaves out).
    pub fn aside(mut self, line: impl Into<String>) -> Document {
        self.asides.push(line.into());
        self
    }

    /// Replaces the `-o text` lines.
    pub fn text(mut self, lines: Vec<Vec<String>>) -> Document {
        self.text = lines;
        self
    }

    /// Drops the JSON Lines records so far: they were written as they happened
    /// ([`Printer::stream`](super::Printer::stream)); records added later (a summary) stay.
    pub fn streamed(mut self) -> Document {
        self.records.clear();
        self
    }
}

/// Rows as a table under their type's header.
pub fn rows_table<R: Row>(rows: &[R]) -> Table {
    let mut table = Table::new(R::columns());
    for row in rows {
        table.row(row.cells());
    }
    table
}

/// A record's named values as a two-column table.
pub fn fields_table<F: Fields>(record: &F) -> Table {
    pairs_table(F::TITLE, F::VALUE_TITLE, record.fields())
}

/// Names and values as a two-column table (a queue's settings, its tags).
pub fn pairs_table(
    name: &str,
    value: &str,
    pairs: impl IntoIterator<Item = (String, String)>,
) -> Table {
    let mut table = Table::new(vec![Column::whole(name), Column::wrap(value, 20, 70)]);
    for (name, value) in pairs {
        table.row(vec![name, value]);
    }
    table
}
