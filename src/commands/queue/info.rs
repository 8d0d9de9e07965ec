//! `sqsctl queue info`: every attribute of a queue, its redrive policy decoded, the depth of its
//! dead-letter queue, the queues that use it as theirs, and its tags. Durations, sizes and
//! timestamps read in human units beside the raw values in text and table output; JSON keeps the
//! raw values.

use crate::commands::common::resolve_queue;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::output::{Document, Fields};
use crate::queues::info::{Described, QueueInfo, describe};
use crate::text::attribute_with_units;

pub(super) async fn info(ctx: &Context, text: &str) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, text).await?;
    let Described { info, tags_denied } = describe(ctx.sqs().await?, queue).await?;
    if let Some(code) = tags_denied {
        ctx.printer.warn(format!(
            "the tags of `{}` are not shown: these credentials may not read them ({code})",
            info.name
        ));
    }
    if let Some(policy) = &info.redrive_policy
        && !policy.dead_letter_queue.exists
    {
        ctx.printer.warn(format!(
            "the dead-letter queue `{}` of the redrive policy does not exist: messages over the receive limit have nowhere to go",
            policy.dead_letter_queue.name
        ));
    }
    ctx.printer.emit(&Document::fields(&info))?;
    Ok(ExitStatus::Success)
}

/// The queue as `attribute | value` rows: the name, URL, type, counts, redrive policy, tags and
/// every attribute in human units.
impl Fields for QueueInfo {
    const KIND: &'static str = "queue_info";
    const TITLE: &'static str = "attribute";

    fn fields(&self) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = vec![
            ("Name".into(), self.name.clone()),
            ("URL".into(), self.url.clone()),
            (
                "Type".into(),
                if self.fifo { "FIFO" } else { "standard" }.into(),
            ),
            (
                "Messages (approximate)".into(),
                format!(
                    "{} visible, {} in flight, {} delayed",
                    self.visible, self.in_flight, self.delayed
                ),
            ),
        ];
        if let Some(policy) = &self.redrive_policy {
            let dlq = &policy.dead_letter_queue;
            rows.push((
                "Redrive policy".into(),
                format!(
                    "to `{}` after {}",
                    dlq.name,
                    crate::text::plural(u64::from(policy.max_receive_count), "receive")
                ),
            ));
            rows.push((
                "Dead-letter queue (approximate)".into(),
                if dlq.exists {
                    format!(
                        "{}: {} visible, {} in flight, {} delayed",
                        dlq.name, dlq.visible, dlq.in_flight, dlq.delayed
                    )
                } else {
                    format!("{} (does not exist)", dlq.name)
                },
            ));
        } else {
            rows.push(("Redrive policy".into(), "none".into()));
        }
        if !self.dead_letter_sources.is_empty() {
            rows.push((
                "Dead-letter queue of".into(),
                self.dead_letter_sources.join(", "),
            ));
        }
        if let Some(tags) = &self.tags {
            let shown: Vec<String> = tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
            rows.push((
                "Tags".into(),
                if shown.is_empty() {
                    "none".into()
                } else {
                    shown.join(", ")
                },
            ));
        }
        for (name, value) in &self.attributes.0 {
            rows.push((name.clone(), attribute_with_units(name, value)));
        }
        rows
    }
}
