//! `sqsctl queue tag|untag`, and the `KEY=VALUE` tags of `queue create --tag`: each checked against
//! SQS's rules ([`check_tag`]) before any call, so a bad tag changes nothing.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::client::QueueRef;
use crate::commands::common::resolve_queue;
use crate::commands::context::Context;
use crate::error::UsageError;
use crate::exit::ExitStatus;
use crate::output::{Document, Table, pairs_table};
use crate::queues::tags::{MAX_TAGS, check_tag};

/// Parses `KEY=VALUE` tags, checking each against SQS's rules. `option` names where they came
/// from in errors (`--tag`, or an argument).
pub fn parse_tags(values: &[String], option: &str) -> Result<BTreeMap<String, String>, UsageError> {
    let mut tags = BTreeMap::new();
    for text in values {
        let Some((key, value)) = text.split_once('=') else {
            return Err(UsageError(format!(
                "{option} expects KEY=VALUE, got `{text}` (an empty value is written KEY=)"
            )));
        };
        check_tag(key, value).map_err(|err| UsageError(err.0))?;
        if tags.insert(key.to_string(), value.to_string()).is_some() {
            return Err(UsageError(format!("the tag key `{key}` is given twice")));
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(UsageError(format!(
            "{} tags given; a queue has at most {MAX_TAGS}",
            tags.len()
        )));
    }
    Ok(tags)
}

#[derive(Debug, Serialize)]
struct TagReport {
    name: String,
    url: String,
    /// Every tag of the queue after the change.
    tags: BTreeMap<String, String>,
}

pub(super) async fn tag(
    ctx: &Context,
    text: &str,
    tags: BTreeMap<String, String>,
) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
    let before = sqs.tags(&queue).await?;
    let added = tags.keys().filter(|k| !before.contains_key(*k)).count();
    if before.len() + added > MAX_TAGS {
        return Err(UsageError(format!(
            "`{}` has {} and this adds {added}: a queue has at most {MAX_TAGS}",
            queue.name,
            crate::text::plural(before.len() as u64, "tag"),
        ))
        .into());
    }
    let changed = tags
        .iter()
        .filter(|(k, v)| before.get(*k).is_some_and(|old| old != *v))
        .count();
    sqs.tag(&queue, tags).await?;
    ctx.printer.info(format!(
        "tagged queue {}: {} added, {changed} changed",
        queue.name, added
    ));
    print_tags(ctx, &queue).await
}

pub(super) async fn untag(
    ctx: &Context,
    text: &str,
    keys: Vec<String>,
) -> anyhow::Result<ExitStatus> {
    for key in &keys {
        if key.is_empty() {
            return Err(UsageError("a tag key is empty".to_string()).into());
        }
    }
    let queue = resolve_queue(ctx, text).await?;
    let sqs = ctx.sqs().await?;
    let before = sqs.tags(&queue).await?;
    let missing: Vec<&String> = keys.iter().filter(|k| !before.contains_key(*k)).collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|k| format!("`{k}`")).collect();
        ctx.printer
            .warn(format!("`{}` has no tag {}", queue.name, list.join(", ")));
    }
    let removed = keys.len() - missing.len();
    sqs.untag(&queue, keys).await?;
    ctx.printer.info(format!(
        "removed {} from queue {}",
        crate::text::plural(removed as u64, "tag"),
        queue.name
    ));
    print_tags(ctx, &queue).await
}

/// Reads the queue's tags back and prints them: what SQS holds now, not what was asked for.
async fn print_tags(ctx: &Context, queue: &QueueRef) -> anyhow::Result<ExitStatus> {
    let sqs = ctx.sqs().await?;
    let report = TagReport {
        name: queue.name.clone(),
        url: queue.url.clone(),
        tags: sqs.tags(queue).await?,
    };
    if report.tags.is_empty() {
        ctx.printer
            .info(format!("queue {} has no tags", queue.name));
    }
    let lines = report
        .tags
        .iter()
        .map(|(key, value)| vec![key.clone(), value.clone()])
        .collect();
    let document = Document::default()
        .json(&report)
        .record("queue_tags", &report)
        .table(tags_table(&report.tags))
        .text(lines);
    ctx.printer.emit(&document)?;
    Ok(ExitStatus::Success)
}

/// The tags as a `tag | value` table.
pub(super) fn tags_table(tags: &BTreeMap<String, String>) -> Table {
    pairs_table(
        "tag",
        "value",
        tags.iter().map(|(k, v)| (k.clone(), v.clone())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(values: &[&str]) -> Result<BTreeMap<String, String>, UsageError> {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        parse_tags(&values, "--tag")
    }

    #[test]
    fn tags_are_key_value_pairs_each_given_once_at_most_50() {
        let ok = tags(&["team=payments", "owner=", "path=a/b:c@d+e"]).unwrap();
        assert_eq!(ok["team"], "payments");
        assert_eq!(ok["owner"], "");
        assert!(tags(&["team"]).unwrap_err().0.contains("KEY=VALUE"));
        assert!(tags(&["=x"]).unwrap_err().0.contains("empty"));
        assert!(tags(&["a=1", "a=2"]).unwrap_err().0.contains("twice"));
        let many: Vec<String> = (0..51).map(|i| format!("k{i}=v")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(tags(&refs).unwrap_err().0.contains("at most 50"));
    }
}
