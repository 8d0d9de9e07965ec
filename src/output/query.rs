//! `--query`: a JMESPath expression (the AWS CLI's query language) applied to what a command
//! writes as JSON, and the plain-text rendering of its result for `-o text`.
//!
//! The [`Printer`](super::Printer) applies it, once, to every JSON document and to the `data` of
//! every JSON Lines record; commands know nothing of it.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::expression;

/// A parsed `--query` expression.
pub struct Query {
    expression: jmespath::Expression<'static>,
    /// The expression as the user wrote it (the compiled one has its literals rewritten).
    text: String,
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Query").field(&self.text).finish()
    }
}

impl Query {
    /// The expression as the user wrote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Parses an expression as the AWS CLI reads it (see [`expression::compile`]); the error
    /// names it and says where it stops making sense.
    pub fn parse(text: &str) -> Result<Query, String> {
        expression::compile(text)
            .map(|expression| Query {
                expression,
                text: text.to_string(),
            })
            .map_err(|e| {
                format!(
                    "--query `{text}` is not a valid JMESPath expression: {} (at character {})",
                    crate::text::jmespath_parse_reason(&e),
                    e.offset + 1
                )
            })
    }

    /// The field the expression starts from (`Messages` in `Messages[*].Body`), if it starts from
    /// one: what a command checks against the shape of its records.
    pub fn root_field(&self) -> Option<&str> {
        use jmespath::ast::Ast;
        let mut node = self.expression.as_ast();
        loop {
            node = match node {
                Ast::Field { name, .. } => return Some(name),
                Ast::Subexpr { lhs, .. } | Ast::Projection { lhs, .. } => lhs,
                Ast::Flatten { node, .. } | Ast::ObjectValues { node, .. } => node,
                _ => return None,
            };
        }
    }

    /// The per-record query of an AWS CLI query over `Messages[*]` (or `Messages[]`), with the AWS
    /// field names as the record spells them: `Messages[*].Body` is `body`.
    pub fn aws_cli_equivalent(&self) -> Option<String> {
        let text = self.text.as_str();
        let rest = ["Messages[*].", "Messages[]."]
            .iter()
            .find_map(|prefix| text.trim().strip_prefix(prefix))?;
        let mut spelled = String::new();
        let mut word = String::new();
        for c in rest.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            spelled.push_str(match word.as_str() {
                "MessageId" => "message_id",
                "ReceiptHandle" => "receipt_handle",
                "Body" => "body",
                "MessageAttributes" => "message_attributes",
                "Attributes" => "attributes",
                "StringValue" | "BinaryValue" => "value",
                "DataType" => "type",
                other => other,
            });
            word.clear();
            spelled.push(c);
        }
        spelled.pop();
        (!spelled.is_empty()).then_some(spelled)
    }

    /// The expression's result on a value, as JSON. An expression that fails on this value (a
    /// function given the wrong type) is an error for the caller to report.
    pub fn apply<T: Serialize>(&self, value: &T) -> std::io::Result<Value> {
        let value = serde_json::to_value(value).map_err(std::io::Error::other)?;
        let result = self.expression.search(value).map_err(|e| {
            std::io::Error::other(format!("--query `{}` failed: {}", self.text, e.reason))
        })?;
        serde_json::to_value(&*result).map_err(std::io::Error::other)
    }
}

/// A query's result as the AWS CLI's `--output text` shows it: nothing for null, a scalar on a
/// line of its own, a list of scalars as one tab-separated line, a list holding lists as a line
/// per inner list (its scalars first, on one line), and an object as its values tab-separated on
/// one line (a list of objects: a line each). Strings are written as they are, unquoted; what is
/// nested deeper is written as compact JSON.
pub fn text_lines(value: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    push_lines(value, &mut lines);
    lines
}

fn push_lines(value: &Value, lines: &mut Vec<String>) {
    match value {
        Value::Null => {}
        Value::Array(items) if items.is_empty() => {}
        Value::Array(items) if items.iter().any(Value::is_object) => {
            for item in items {
                push_lines(item, lines);
            }
        }
        Value::Array(items) if items.iter().any(Value::is_array) => {
            let scalars: Vec<&Value> = items.iter().filter(|v| !v.is_array()).collect();
            if !scalars.is_empty() {
                lines.push(join_fields(scalars.into_iter()));
            }
            for item in items.iter().filter(|v| v.is_array()) {
                push_lines(item, lines);
            }
        }
        Value::Array(items) => lines.push(join_fields(items.iter())),
        Value::Object(map) => lines.push(join_fields(map.values())),
        scalar => lines.push(field(scalar)),
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
        assert_eq!(query.root_field(), None);
        for (expression, root) in [
            ("Messages[*].Body", Some("Messages")),
            ("Messages[].Body", Some("Messages")),
            ("Messages[0].Body", Some("Messages")),
            ("body", Some("body")),
            ("attributes.ApproximateReceiveCount", Some("attributes")),
            ("{id: message_id}", None),
        ] {
            assert_eq!(
                Query::parse(expression).unwrap().root_field(),
                root,
                "{expression}"
            );
        }
    }

    #[test]
    fn text_writes_rows_as_the_aws_cli_does() {
        // A list of scalars is one row; a list of lists is a row per inner list.
        assert_eq!(text_lines(&json!(["a", "c"])), ["a\tc"]);
        assert_eq!(text_lines(&json!([["a", 1], ["b", 2]])), ["a\t1", "b\t2"]);
        assert_eq!(text_lines(&json!(["x", ["a", 1]])), ["x", "a\t1"]);
        assert_eq!(
            text_lines(&json!([{"b": 2, "a": "x"}, {"a": "y", "b": null}])),
            ["x\t2", "y\tNone"]
        );
        assert_eq!(
            text_lines(&json!({"id": "m-1", "tags": ["a"]})),
            ["m-1\t[\"a\"]"]
        );
        assert_eq!(text_lines(&json!(7)), ["7"]);
        assert_eq!(text_lines(&json!("one")), ["one"]);
        assert!(text_lines(&Value::Null).is_empty());
        assert!(text_lines(&json!([])).is_empty());
    }

    /// Expressions from the AWS CLI's documentation (`aws sqs` and the JMESPath tutorial), with a
    /// backtick literal that is not JSON read as a string, as the AWS CLI reads it.
    #[test]
    fn backtick_literals_that_are_not_json_are_strings_as_in_the_aws_cli() {
        let queues = json!([
            {"name": "orders", "visible": 3, "dlq": "orders-dlq"},
            {"name": "orders-dlq", "visible": 0, "dlq": null},
            {"name": "billing", "visible": 1, "dlq": "billing-dlq"}
        ]);
        let cases = [
            ("[?name==`orders-dlq`].name", json!(["orders-dlq"])),
            ("[?name == `orders-dlq`].visible", json!([0])),
            ("[?dlq==`billing-dlq`].name | [0]", json!("billing")),
            (
                "[?starts_with(name, `ord`)].name",
                json!(["orders", "orders-dlq"]),
            ),
            ("[?contains(name, `dlq`)] | length(@)", json!(1)),
            (
                "[?name!=`orders`] | [].name",
                json!(["orders-dlq", "billing"]),
            ),
            // JSON literals keep their meaning: a number, and a string written as JSON.
            ("[?visible > `0`].name", json!(["orders", "billing"])),
            ("[?name==`\"billing\"`].visible", json!([1])),
            // jmespath.py drops the leading spaces of a literal read as a string.
            ("[?name==` orders`].visible", json!([3])),
            // Raw strings and quoted identifiers are not literals, whatever they hold.
            ("[?name=='orders'].visible", json!([3])),
            ("[?name=='it`s'].name", json!([])),
        ];
        for (expression, expected) in cases {
            let query = Query::parse(expression).unwrap_or_else(|e| panic!("{expression}: {e}"));
            assert_eq!(query.apply(&queues).unwrap(), expected, "{expression}");
        }
        let tags = json!({"Tags": {"team": "pay`ments"}});
        let query = Query::parse(r"Tags.team == `pay\`ments`").unwrap();
        assert_eq!(query.apply(&tags).unwrap(), json!(true));
        // The literal's text is decoded as a JSON string, its escapes included (`\t` is a tab).
        let query = Query::parse(r"`C:\\temp` == 'C:\temp'").unwrap();
        assert_eq!(query.apply(&json!({})).unwrap(), json!(true));
        let query = Query::parse(r"`C:\temp` == 'C:\temp'").unwrap();
        assert_eq!(query.apply(&json!({})).unwrap(), json!(false));
    }

    #[test]
    fn a_broken_expression_says_where() {
        let err = Query::parse("[?visible >").unwrap_err();
        assert!(err.contains("--query `[?visible >`"), "{err}");
        assert!(err.contains("at character"), "{err}");
    }
}
