//! JMESPath as the AWS CLI reads it, for every expression sqsctl takes (`--query`, `--where`,
//! `--count-by`, `--tenant-key`): one [`compile`], so that a literal that works in one works in
//! all. It knows nothing of where an expression comes from; its callers name the option in their
//! errors.

use std::borrow::Cow;

use serde_json::Value;

/// Compiles `text` as the AWS CLI reads it (see [`aws_cli_literals`]).
pub fn compile(text: &str) -> Result<jmespath::Expression<'static>, jmespath::JmespathError> {
    jmespath::compile(&aws_cli_literals(text))
}

/// The expression with each backtick literal that is not JSON rewritten as the JSON string it
/// stands for, as jmespath.py (the AWS CLI's JMESPath) reads it: `` [?name==`orders-dlq`] `` is the
/// string `"orders-dlq"` there, and every AWS example is written that way, where the jmespath crate
/// follows the specification and refuses it. jmespath.py wraps the literal's text (leading spaces
/// dropped) in double quotes and decodes that; text that does not decode even so is taken as it is.
/// Raw strings (`'...'`) and quoted identifiers (`"..."`) are copied untouched, backslash escapes
/// (`` \` `` inside a literal, `\'` inside a raw string) included.
pub fn aws_cli_literals(expression: &str) -> Cow<'_, str> {
    if !expression.contains('`') {
        return Cow::Borrowed(expression);
    }
    let mut out = String::with_capacity(expression.len() + 8);
    let mut chars = expression.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                copy_delimited(&mut chars, c, &mut out);
            }
            '`' => {
                let mut inside = String::new();
                if !copy_delimited(&mut chars, '`', &mut inside) {
                    // Unclosed: left for the parser to report.
                    out.push('`');
                    out.push_str(&inside);
                    continue;
                }
                let literal = &inside[..inside.len() - 1];
                let text = literal.replace("\\`", "`");
                if serde_json::from_str::<Value>(&text).is_ok() {
                    out.push('`');
                    out.push_str(&inside);
                    continue;
                }
                let text = text.trim_start();
                let string = serde_json::from_str::<String>(&format!("\"{text}\""))
                    .unwrap_or_else(|_| text.to_string());
                let json = Value::String(string).to_string().replace('`', "\\u0060");
                out.push('`');
                out.push_str(&json);
                out.push('`');
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Copies what follows an opening `delimiter` up to and including its closing one into `out`,
/// each backslash with the character it escapes; false when the text ends first.
fn copy_delimited(chars: &mut std::str::Chars<'_>, delimiter: char, out: &mut String) -> bool {
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '\\' {
            if let Some(escaped) = chars.next() {
                out.push(escaped);
            }
        } else if c == delimiter {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rewrite_touches_only_literals_that_are_not_json() {
        for unchanged in [
            "a.b",
            "[?n > `1`]",
            "`[1, 2]`",
            "'`x`'",
            "\"`x`\".y",
            "`{\"a\": 1}`",
        ] {
            assert_eq!(aws_cli_literals(unchanged), unchanged);
        }
        assert_eq!(aws_cli_literals("[?a==`x`]"), "[?a==`\"x\"`]");
        assert_eq!(aws_cli_literals("`a\\`b`"), "`\"a\\u0060b\"`");
        // An unclosed literal is left for the parser to report.
        assert_eq!(aws_cli_literals("[?a==`x"), "[?a==`x");
        assert!(compile("[?a==`x").is_err());
    }

    #[test]
    fn a_string_literal_compares_as_the_string_it_stands_for() {
        let tenant = compile("body.tenant == `acme`").expect("compiles");
        let record = serde_json::json!({"body": {"tenant": "acme"}});
        assert_eq!(
            *tenant.search(record).expect("searches"),
            jmespath::Variable::Bool(true)
        );
    }
}
