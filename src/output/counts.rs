//! What `--count-by` writes: per expression, each value with its count and share, most frequent
//! first, and how much of the queue the counts cover (messages read, matched, and about how many
//! the queue held), in every format.

use serde::Serialize;
use serde_json::Value;

use crate::message::count::KeyCounts;
use crate::output::document::Document;
use crate::output::table::{Column, Table};
pub use crate::text::thousands;

/// The counts of a read and how much of the queue they cover.
#[derive(Debug, Serialize)]
pub struct CountsReport {
    pub queue: String,
    /// Messages read.
    pub read: u64,
    /// Of them, those that matched the filters (only with filters): the ones counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<u64>,
    /// About how many messages were visible in the queue when the read began.
    pub visible: u64,
    pub counts: Vec<KeyCounts>,
}

/// One value's count as a JSON Lines record.
#[derive(Serialize)]
struct CountRecord<'a> {
    expr: &'a str,
    value: &'a Value,
    count: u64,
}

/// How much of the queue the counts cover, as a JSON Lines record closing them.
#[derive(Serialize)]
struct Coverage<'a> {
    queue: &'a str,
    read: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    matched: Option<u64>,
    visible: u64,
}

impl CountsReport {
    /// The messages counted: those that matched, or all that were read.
    fn counted(&self) -> u64 {
        self.matched.unwrap_or(self.read)
    }

    /// `3,000 read; the queue held about 3,000 visible`, with what matched when filtered; a count
    /// below what was read is told for what it is.
    pub fn coverage(&self) -> String {
        let mut line = format!("{} read", thousands(self.read));
        if let Some(matched) = self.matched {
            line.push_str(&format!(", {} matched", thousands(matched)));
        }
        if self.read > self.visible {
            // More read than the count said were there: it lags behind recent sends.
            line.push_str(&format!(
                "; SQS counted {} visible in {} at the start: its counts lag behind recent sends",
                thousands(self.visible),
                self.queue
            ));
        } else {
            line.push_str(&format!(
                "; {} held about {} visible",
                self.queue,
                thousands(self.visible)
            ));
        }
        line
    }

    pub fn document(&self) -> Document {
        let document = meant(&self.counts)
            .into_iter()
            .fold(Document::default().json(self), Document::aside);
        records(document, &self.counts)
            .record(
                "summary",
                &Coverage {
                    queue: &self.queue,
                    read: self.read,
                    matched: self.matched,
                    visible: self.visible,
                },
            )
            .tables(tables(&self.counts, self.counted()))
            .note(self.coverage())
            .text(lines(&self.counts))
    }
}

/// A note for each expression that found nothing where another reads what it probably meant.
pub fn meant(counts: &[KeyCounts]) -> Vec<String> {
    counts
        .iter()
        .filter_map(|key| {
            let instead = key.instead.as_ref()?;
            Some(format!(
                "`{}` found nothing; the message attribute is `{instead}`",
                key.expr
            ))
        })
        .collect()
}

/// Each expression's counts as a table of its own: the value, its count, and its share of the
/// `of` messages counted; a last row for the messages the expression failed on.
pub fn tables(counts: &[KeyCounts], of: u64) -> Vec<Table> {
    counts
        .iter()
        .map(|key| {
            let mut table = Table::new(vec![
                Column::cut(key.expr.clone(), 12, 60),
                Column::whole("count"),
                Column::whole("share"),
            ]);
            for value in &key.values {
                table.row(vec![
                    value_text(&value.value),
                    thousands(value.count),
                    share(value.count, of),
                ]);
            }
            if key.failed > 0 {
                table.row(vec![
                    "(expression failed)".into(),
                    thousands(key.failed),
                    share(key.failed, of),
                ]);
            }
            table
        })
        .collect()
}

/// Adds a `count` JSON Lines record per value to `document`.
pub fn records(mut document: Document, counts: &[KeyCounts]) -> Document {
    for key in counts {
        for value in &key.values {
            document = document.record(
                "count",
                &CountRecord {
                    expr: &key.expr,
                    value: &value.value,
                    count: value.count,
                },
            );
        }
    }
    document
}

/// `-o text` lines, one per value: `EXPR<TAB>VALUE<TAB>COUNT`.
pub fn lines(counts: &[KeyCounts]) -> Vec<Vec<String>> {
    counts
        .iter()
        .flat_map(|key| {
            key.values.iter().map(|value| {
                vec![
                    key.expr.clone(),
                    value_text(&value.value),
                    value.count.to_string(),
                ]
            })
        })
        .collect()
}

/// A value as a cell: a string as it is, nothing found as `(none)`, anything else as JSON.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "(none)".into(),
        other => other.to_string(),
    }
}

fn share(count: u64, of: u64) -> String {
    if of == 0 {
        return String::new();
    }
    format!("{:.1}%", count as f64 * 100.0 / of as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_with_separators() {
        assert_eq!(thousands(3000), "3,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(share(1, 3), "33.3%");
    }

    #[test]
    fn coverage_tells_a_count_below_what_was_read_for_what_it_is() {
        let mut report = CountsReport {
            queue: "fresh".into(),
            read: 5,
            matched: None,
            visible: 0,
            counts: Vec::new(),
        };
        assert_eq!(
            report.coverage(),
            "5 read; SQS counted 0 visible in fresh at the start: its counts lag behind recent sends"
        );
        report.visible = 3_000;
        assert_eq!(report.coverage(), "5 read; fresh held about 3,000 visible");
    }
}
