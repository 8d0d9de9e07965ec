//! `--query`: a JMESPath expression (the AWS CLI's query language) applied to what a command
//! writes as JSON, and the plain-text rendering of its result for `-o text`.
//!
//! The [`Printer`](super::Printer) applies it, once, to every JSON document and to the `data` of
//! every JSON Lines record; commands know nothing of it.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

/// A parsed `--query` expression.
pub struct Query {
    expression: jmespath::Expression<'static>,
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Query")
            .field(&self.expression.as_str())
            .finish()
    }
}

impl Query {
    /// Parses an expression; the error names it and says where it stops making sense.
    pub fn parse(text: &str) -> Result<Query, String> {
        jmespath::compile(text)
            .map(|expression| Query { expression })
            .map_err(|e| {
                format!(
                    "--query `{text}` is not a valid JMESPath expression: {} (at character {})",
                    crate::text::jmespath_parse_reason(&e),
                    e.offset + 1
                )
            })
    }

    /// The expression's result on a value, as JSON. An expression that fails on this value (a
    /// function given the wrong type) is an error for the caller to report.
    pub fn apply<T: Serialize>(&self, value: &T) -> std::io::Result<Value> {
        let value = serde_json::to_value(value).map_err(std::io::Error::other)?;
        let result = self.expression.search(value).map_err(|e| {
            std::io::Error::other(format!(
                "--query `{}` failed: {}",
                self.expression.as_str(),
                e.reason
            ))
        })?;
        serde_json::to_value(&*result).map_err(std::io::Error::other)
    }
}

/// A query's result as the AWS CLI's `--output text` shows it: nothing for null, a scalar on a
/// line of its own, each element of a list on its own line, and the values of an object (or of a
/// list inside the list) tab-separated on one line. Strings are written as they are, unquoted.
pub fn text_lines(value: &Value) -> Vec<String> {
    match value {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .filter(|item| !item.is_null())
            .map(row)
            .collect(),
        other => vec![row(other)],
    }
}

/// One line: a scalar, or the fields of a list or an object joined by tabs.
fn row(value: &Value) -> String {
    match value {
        Value::Array(items) => join_fields(items.iter()),
        Value::Object(map) => join_fields(map.values()),
        scalar => field(scalar),
    }
}

fn join_fields<'a>(values: impl Iterator<Item = &'a Value>) -> String {
    let mut line = String::new();
    for (i, value) in values.enumerate() {
        if i > 0 {
            line.push('\t');
        }
        let _ = write!(line, "{}", field(value));
    }
    line
}

/// A scalar as text; anything nested deeper is written as compact JSON.
fn field(value: &Value) -> String {
    match value {
        Value::Null => "None".to_string(),
        Value::String(text) => text.clone(),
        Value::Bool(_) | Value::Number(_) => value.to_string(),
        nested => nested.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn filters_and_projects_like_the_aws_cli() {
        let query = Query::parse("[?visible > `0`].name").unwrap();
        let rows = json!([
            {"name": "a", "visible": 3},
            {"name": "b", "visible": 0},
            {"name": "c", "visible": 1}
        ]);
        assert_eq!(query.apply(&rows).unwrap(), json!(["a", "c"]));
    }

    #[test]
    fn text_puts_scalars_one_per_line_and_fields_tab_separated() {
        assert_eq!(text_lines(&json!(["a", "c"])), ["a", "c"]);
        assert_eq!(text_lines(&json!([["a", 1], ["b", 2]])), ["a\t1", "b\t2"]);
        assert_eq!(text_lines(&json!(7)), ["7"]);
        assert!(text_lines(&Value::Null).is_empty());
    }

    #[test]
    fn a_broken_expression_says_where() {
        let err = Query::parse("[?visible >").unwrap_err();
        assert!(err.contains("--query `[?visible >`"), "{err}");
        assert!(err.contains("at character"), "{err}");
    }
}
