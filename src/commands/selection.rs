//! The selection options of every read (`--grep`, `--attr`, `--where`, `--older-than`,
//! `--newer-than`) resolved into the one [`Selection`] of [`crate::select`]: durations turned
//! into cutoffs and patterns compiled, so that a typo is a usage error before anything is read;
//! a selection described back in the words of those options; and what a read shows (its
//! attributes, inner messages, or counts by key).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::cli::receive::ShownArgs;
use crate::cli::select::SelectArgs;
use crate::error::UsageError;
use crate::message::count::Counter;
use crate::message::shown::{Shown, ShownError};
use crate::select::{Criterion, Selection, SelectionError, Selector, parse_attribute_filter};

/// The selection of the command line's filters (and of `--message-id`, where a command has it),
/// checked: an error here is a usage error.
pub fn resolve(args: SelectArgs, message_ids: Vec<String>) -> anyhow::Result<Selection> {
    let now = SystemTime::now();
    let attributes = args
        .attributes
        .iter()
        .map(|a| parse_attribute_filter(a).map_err(|e| anyhow::anyhow!("--attr {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let selection = Selection {
        grep: args.grep,
        grep_v: args.grep_v,
        attributes,
        where_expr: args.where_expr,
        sent_before_ms: args.older_than.map(|age| cutoff(age, now)),
        sent_after_ms: args.newer_than.map(|age| cutoff(age, now)),
        message_ids,
    };
    Selector::compile(&selection).map_err(invalid)?;
    Ok(selection)
}

/// A criterion that does not compile, as a usage error that names its option.
pub fn invalid(err: SelectionError) -> UsageError {
    let flag = match &err {
        SelectionError::Pattern {
            inverted: false, ..
        } => "--grep",
        SelectionError::Pattern { inverted: true, .. } => "--grep-v",
        SelectionError::Where { .. } => "--where",
    };
    UsageError(format!("{flag} {err}"))
}

/// The criteria in the words of the command line (`--grep x`, `--attr k=v`, `--older-than`), for
/// summaries, questions and refusals.
pub fn describe(selection: &Selection) -> Vec<String> {
    let words = |criterion| match criterion {
        Criterion::Grep(grep) => format!("--grep {grep}"),
        Criterion::GrepV(grep_v) => format!("--grep-v {grep_v}"),
        Criterion::Attribute { name, value } => format!("--attr {name}={value}"),
        Criterion::Where(expr) => format!("--where {expr}"),
        Criterion::SentBefore => "--older-than".into(),
        Criterion::SentAfter => "--newer-than".into(),
        Criterion::MessageIds => "--message-id".into(),
    };
    selection.criteria().into_iter().map(words).collect()
}

/// The compiled selection, or `None` when it selects every message (nothing to check).
pub fn selector(selection: &Selection) -> anyhow::Result<Option<Selector>> {
    if selection.is_all() {
        return Ok(None);
    }
    Ok(Some(Selector::compile(selection).map_err(invalid)?))
}

/// The attributes a read shows (`--attributes`, `--message-attributes`), checked.
pub fn shown(args: &ShownArgs) -> anyhow::Result<Shown> {
    Shown::parse(&args.system_attributes, &args.message_attributes).map_err(|err| {
        let flag = match err {
            ShownError::NotASystemAttribute { .. } => "--attributes",
            ShownError::NotAMessageAttributeName { .. } => "--message-attributes",
        };
        anyhow::anyhow!("{flag}: {err}")
    })
}

/// The `--count-by` expressions, checked.
pub fn count_by(expressions: Vec<String>) -> anyhow::Result<Vec<String>> {
    compile_count_by(&expressions)?;
    Ok(expressions)
}

/// A counter of the `--count-by` expressions; an invalid one is a usage error naming the flag.
pub fn compile_count_by(expressions: &[String]) -> anyhow::Result<Counter> {
    Ok(Counter::compile(expressions).map_err(|bad| UsageError(format!("--count-by {bad}")))?)
}

/// A counter of the checked expressions, when there are any.
pub fn counter(count_by: &[String]) -> Option<Counter> {
    (!count_by.is_empty())
        .then(|| Counter::compile(count_by).ok())
        .flatten()
}

/// When a message of this age was sent, in ms since the epoch.
fn cutoff(age: Duration, now: SystemTime) -> u64 {
    let at = now.checked_sub(age).unwrap_or(UNIX_EPOCH);
    at.duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis() as u64
}
