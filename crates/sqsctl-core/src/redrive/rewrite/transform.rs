//! `--transform`: a jq filter (run by jaq) over the message record, whose one output says what
//! the message is sent as.
//!
//! The filter sees the record `--where` sees (the `receive` schema, with a body that parses as
//! JSON given as its value, `envelope` and `message` for known envelopes, `age`), after
//! `--unwrap` when both are given. Its output must be one object with a `body`: a string is
//! sent as it is, any other JSON value as compact JSON. `message_attributes`, `group_id` and
//! `dedup_id`, when the object has them, replace the message's (`null` removes them); every other
//! key (`message_id`, `attributes`, ...) is ignored. So `.body.qty = 1` (the whole record, with
//! one field changed) and `{body: .body.order}` both work.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use jaq_core::data::JustLut;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Native, Vars, unwrap_valr};
use jaq_json::Val;

use crate::message::{AttributeValue, MessageRecord};

/// How long a filter may run on one message before the message fails (a filter that loops).
pub const FILTER_TIMEOUT: Duration = Duration::from_secs(10);

type Filter = jaq_core::compile::Filter<Native<JustLut<Val>>>;

/// A compiled filter, shared by every worker.
#[derive(Clone)]
pub struct Transform {
    filter: Arc<Filter>,
}

impl std::fmt::Debug for Transform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Transform")
    }
}

impl Transform {
    /// Compiles `code`; the error says where and what is wrong.
    pub fn compile(code: &str) -> Result<Transform, String> {
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let at = |found: &str| {
            let offset = found.as_ptr() as usize - code.as_ptr() as usize;
            match found.chars().take(20).collect::<String>() {
                near if near.is_empty() => "at the end of the filter".to_string(),
                near => format!("at byte {offset} (`{near}`)"),
            }
        };
        let modules = loader
            .load(&arena, File { code, path: () })
            .map_err(|errors| {
                let mut reasons = Vec::new();
                for (_, error) in errors {
                    match error {
                        jaq_core::load::Error::Io(io) => {
                            reasons.extend(io.into_iter().map(|(_, e)| e));
                        }
                        jaq_core::load::Error::Lex(lex) => {
                            reasons.extend(lex.into_iter().map(|(expected, found)| {
                                format!("expected {} {}", expected.as_str(), at(found))
                            }));
                        }
                        jaq_core::load::Error::Parse(parse) => {
                            reasons.extend(parse.into_iter().map(|(expected, found)| {
                                format!("expected {} {}", expected.as_str(), at(found))
                            }));
                        }
                    }
                }
                reasons.join("; ")
            })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                errors
                    .into_iter()
                    .flat_map(|(_, undefined)| undefined)
                    .map(|(name, kind)| format!("undefined {} `{name}`", kind.as_str()))
                    .collect::<Vec<_>>()
                    .join("; ")
            })?;
        Ok(Transform {
            filter: Arc::new(filter),
        })
    }

    /// Runs the filter on `record` (the record as `--where` sees it; see [`input`]) and applies
    /// its one output to `out`. Runs off the async workers, and gives up after
    /// [`FILTER_TIMEOUT`].
    pub async fn apply(
        &self,
        record: serde_json::Value,
        body: &str,
        out: &mut MessageRecord,
    ) -> Result<(), String> {
        let filter = self.filter.clone();
        let input = input(record, body)?;
        let run = tokio::task::spawn_blocking(move || run(&filter, input));
        let output = match tokio::time::timeout(FILTER_TIMEOUT, run).await {
            Ok(Ok(output)) => output?,
            Ok(Err(e)) => return Err(format!("the filter stopped: {e}")),
            Err(_) => {
                return Err(format!(
                    "the filter did not finish within {} s",
                    FILTER_TIMEOUT.as_secs()
                ));
            }
        };
        apply_output(output, out)
    }

    /// Runs the filter on `record` at once, on this thread (for a dry run's preview, which runs
    /// one message at a time).
    pub fn apply_now(
        &self,
        record: serde_json::Value,
        body: &str,
        out: &mut MessageRecord,
    ) -> Result<(), String> {
        let output = run(&self.filter, input(record, body)?)?;
        apply_output(output, out)
    }
}

/// The filter's input: `record` as `--where` sees it, with its body as jaq reads it (when it is
/// JSON), so that the keys of a JSON body keep their order through the filter.
fn input(mut record: serde_json::Value, body: &str) -> Result<Val, String> {
    if let Some(object) = record.as_object_mut() {
        object.remove("body");
    }
    let text = serde_json::to_string(&record).map_err(|e| e.to_string())?;
    let mut value = jaq_json::read::parse_single(text.as_bytes()).map_err(|e| format!("{e:?}"))?;
    let is_json = serde_json::from_str::<serde::de::IgnoredAny>(body).is_ok();
    let body = if is_json {
        jaq_json::read::parse_single(body.as_bytes())
            .unwrap_or_else(|_| Val::utf8_str(body.to_string()))
    } else {
        Val::utf8_str(body.to_string())
    };
    if let Val::Obj(map) = &mut value {
        jaq_json::Rc::make_mut(map).insert(Val::utf8_str("body"), body);
    }
    Ok(value)
}

/// The filter's one output, or why there is not exactly one.
fn run(filter: &Filter, input: Val) -> Result<Val, String> {
    let ctx = Ctx::<JustLut<Val>>::new(&filter.lut, Vars::new([]));
    let mut outputs = filter.id.run((ctx, input)).map(unwrap_valr);
    let first = match outputs.next() {
        None => return Err("the filter gave no value (`empty` or a `select` that failed)".into()),
        Some(Err(e)) => return Err(format!("the filter failed: {e}")),
        Some(Ok(value)) => value,
    };
    match outputs.next() {
        None => Ok(first),
        Some(Err(e)) => Err(format!("the filter failed after its first value: {e}")),
        Some(Ok(_)) => {
            Err("the filter gave more than one value (one message goes out per message)".into())
        }
    }
}

/// The text of a string value, or `None` when the value is not a string.
fn text(value: &Val) -> Option<Result<String, String>> {
    match value {
        Val::TStr(bytes) => Some(
            String::from_utf8(bytes.to_vec())
                .map_err(|_| "a string is not valid UTF-8".to_string()),
        ),
        _ => None,
    }
}

fn key(name: &str) -> Val {
    Val::utf8_str(name.to_string())
}

/// Applies the filter's output to the outgoing message (see the module documentation).
fn apply_output(output: Val, out: &mut MessageRecord) -> Result<(), String> {
    let Val::Obj(object) = &output else {
        return Err(format!(
            "the filter gave {}, not an object with a `body` (return the record, as `.body.qty = 1` does, or `{{body: ...}}`)",
            kind(&output)
        ));
    };
    let Some(body) = object.get(&key("body")) else {
        return Err("the filter's object has no `body` (return the record, as `.body.qty = 1` does, or `{body: ...}`)".into());
    };
    out.body = match text(body) {
        Some(body) => body?,
        None => body.to_string(),
    };
    if let Some(attributes) = object.get(&key("message_attributes")) {
        out.message_attributes = message_attributes(attributes)?;
    }
    for (name, field) in [
        ("group_id", &mut out.group_id),
        ("dedup_id", &mut out.dedup_id),
    ] {
        match object.get(&key(name)) {
            None => {}
            Some(Val::Null) => *field = None,
            Some(value) => match text(value) {
                Some(value) => *field = Some(value?),
                None => {
                    return Err(format!(
                        "`{name}` must be a string or null, not {}",
                        kind(value)
                    ));
                }
            },
        }
    }
    Ok(())
}

/// The message attributes the filter gave: by name, `{"type": ..., "value": ...}` as the record
/// schema has them, or a plain string (a String attribute) or number (a Number attribute).
fn message_attributes(value: &Val) -> Result<BTreeMap<String, AttributeValue>, String> {
    let object = match value {
        Val::Null => return Ok(BTreeMap::new()),
        Val::Obj(object) => object,
        other => {
            return Err(format!(
                "`message_attributes` must be an object, not {}",
                kind(other)
            ));
        }
    };
    let mut attributes = BTreeMap::new();
    for (name, attr) in object.iter() {
        let Some(name) = text(name) else {
            return Err("a message attribute's name must be a string".into());
        };
        let name = name?;
        let attr = match attr {
            Val::TStr(_) => AttributeValue::string(text(attr).unwrap_or(Ok(String::new()))?),
            Val::Num(_) => AttributeValue {
                data_type: "Number".into(),
                value: attr.to_string(),
            },
            Val::Obj(fields) => {
                let field = |f: &str| match fields.get(&key(f)).and_then(text) {
                    Some(value) => value,
                    None => Err(format!("message attribute `{name}` needs a string `{f}`")),
                };
                AttributeValue {
                    data_type: field("type")?,
                    value: field("value")?,
                }
            }
            other => {
                return Err(format!(
                    "message attribute `{name}` must be {{\"type\": ..., \"value\": ...}}, a string or a number, not {}",
                    kind(other)
                ));
            }
        };
        attributes.insert(name, attr);
    }
    Ok(attributes)
}

fn kind(value: &Val) -> &'static str {
    match value {
        Val::Null => "null",
        Val::Bool(_) => "a boolean",
        Val::Num(_) => "a number",
        Val::BStr(_) => "a byte string",
        Val::TStr(_) => "a string",
        Val::Arr(_) => "an array",
        Val::Obj(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn apply(code: &str, body: &str) -> Result<MessageRecord, String> {
        let transform = Transform::compile(code)?;
        let mut out = MessageRecord::with_body(body);
        out.message_attributes
            .insert("kept".into(), AttributeValue::string("yes"));
        let record =
            json!({"message_id": "m1", "body": body, "attributes": {"SentTimestamp": "1"}});
        transform.apply_now(record, body, &mut out)?;
        Ok(out)
    }

    #[test]
    fn a_record_with_a_changed_body_field_keeps_the_rest_and_its_key_order() {
        let out = apply(".body.qty = 2", r#"{"z":1,"qty":1,"a":[1,2]}"#).unwrap();
        assert_eq!(out.body, r#"{"z":1,"qty":2,"a":[1,2]}"#);
        assert_eq!(out.message_attributes["kept"].value, "yes");
    }

    #[test]
    fn a_string_body_goes_out_as_it_is_and_attributes_and_ids_can_be_set() {
        let code = r#"{body: ("fixed " + .body), message_attributes: {a: "x", n: 3, b: {type: "Binary", value: "AQI="}}, group_id: "g", dedup_id: null}"#;
        let out = apply(code, "plain text").unwrap();
        assert_eq!(out.body, "fixed plain text");
        assert_eq!(out.message_attributes.len(), 3);
        assert_eq!(out.message_attributes["a"], AttributeValue::string("x"));
        assert_eq!(out.message_attributes["n"].data_type, "Number");
        assert_eq!(out.message_attributes["n"].value, "3");
        assert_eq!(out.message_attributes["b"].data_type, "Binary");
        assert_eq!(out.group_id.as_deref(), Some("g"));
        assert_eq!(out.dedup_id, None);
    }

    #[test]
    fn the_filter_sees_the_record_fields() {
        let out = apply("{body: (.message_id + .attributes.SentTimestamp)}", "x").unwrap();
        assert_eq!(out.body, "m11");
    }

    #[test]
    fn no_value_several_values_errors_and_wrong_shapes_fail_with_a_reason() {
        for (code, reason) in [
            ("empty", "no value"),
            (".body, .body", "more than one value"),
            ("error(\"bad\")", "bad"),
            (".body.a", "gave a number, not an object with a `body`"),
            ("{x: 1}", "no `body`"),
            ("{body: 1, group_id: 2}", "`group_id` must be a string"),
            (
                "{body: 1, message_attributes: {a: [1]}}",
                "message attribute `a`",
            ),
        ] {
            let err = apply(code, r#"{"a":1}"#).unwrap_err();
            assert!(err.contains(reason), "{code}: {err}");
        }
    }

    #[test]
    fn a_filter_that_does_not_compile_says_where() {
        let err = Transform::compile(".body |").unwrap_err();
        assert!(err.contains("expected"), "{err}");
        let err = Transform::compile("nosuchfn(1)").unwrap_err();
        assert!(err.contains("undefined filter `nosuchfn`"), "{err}");
    }
}
