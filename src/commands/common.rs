//! Helpers shared by the everyday commands: resolving a queue with a useful hint when it does not
//! exist, gating destructive work behind a confirmation, and writing message records in the chosen
//! output format.

use anyhow::Context as _;

use crate::client::{ClientError, QueueRef, Sqs};
use crate::commands::context::Context;
use crate::error::{Cancelled, UsageError, hinted};
use crate::message::{Envelope, MessageRecord};
use crate::output::{Answer, Format, Printer, sanitize};

/// Most queue names the "did you mean" hint lists.
const MAX_SUGGESTIONS: usize = 3;

/// Resolves a queue given by name, URL or ARN. When a name does not exist, the error lists queues
/// with similar names in the same region (a typo or a missing `.fifo` is the usual cause).
pub async fn resolve_queue(ctx: &Context, text: &str) -> anyhow::Result<QueueRef> {
    let sqs = ctx.sqs().await?;
    match sqs.resolve(text).await {
        Ok(queue) => {
            ctx.printer.debug(format!(
                "queue {} is {}",
                queue_place(&queue, sqs.region()),
                queue.url
            ));
            Ok(queue)
        }
        Err(ClientError::QueueNotFound { queue, region }) => {
            Err(not_found(sqs, &queue, &region).await)
        }
        Err(ClientError::InvalidInput(message)) => Err(UsageError(message).into()),
        Err(err) => Err(err.into()),
    }
}

async fn not_found(sqs: &Sqs, name: &str, region: &str) -> anyhow::Error {
    let message = format!("queue `{name}` does not exist (region {region})");
    let names: Vec<String> = match sqs.list_queues(None).await {
        Ok(queues) => queues.into_iter().map(|q| q.name).collect(),
        Err(_) => Vec::new(),
    };
    let similar = similar_names(name, &names);
    let hint = if similar.is_empty() {
        format!(
            "no queue in {region} has a similar name: check the region (--region, AWS_REGION) or pass the queue URL; `sqsctl queues` lists what exists"
        )
    } else {
        let list: Vec<String> = similar.iter().map(|n| format!("`{n}`")).collect();
        format!(
            "did you mean {}? (or is the queue in another region than {region}? pass --region or the queue URL)",
            list.join(", ")
        )
    };
    hinted(message, hint)
}

/// Names close to `wanted`: a small edit distance, the same name with or without `.fifo`, or one
/// containing the other. Closest first.
pub fn similar_names(wanted: &str, names: &[String]) -> Vec<String> {
    let wanted_lower = wanted.to_ascii_lowercase();
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .filter_map(|name| {
            let lower = name.to_ascii_lowercase();
            let distance = edit_distance(&wanted_lower, &lower);
            let threshold = (wanted.len() / 4).clamp(2, 4);
            let related = lower.contains(&wanted_lower) || wanted_lower.contains(&lower);
            (distance <= threshold || related).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, name)| name.clone())
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Asks before destructive work. `--yes` skips the question; without a terminal to ask on, the
/// command refuses (usage error) unless `--yes` was given. A "no" answer is an error too, so a
/// script never mistakes a declined run for a done one. `action` names the work for that error
/// ("purging `orders`"); `dry_run_flag` says whether the command has `--dry-run` to offer.
pub fn confirm_destructive(
    printer: &Printer,
    question: &str,
    action: &str,
    dry_run_flag: bool,
    yes: bool,
) -> anyhow::Result<()> {
    if yes {
        return Ok(());
    }
    match printer
        .confirm(question)
        .context("could not read the answer")?
    {
        Answer::Yes => Ok(()),
        Answer::No => Err(hinted(
            "cancelled: nothing was changed",
            "answer `y` to go ahead, or pass --yes",
        )),
        Answer::Cancelled => Err(Cancelled.into()),
        Answer::NoTerminal => {
            let alternative = if dry_run_flag {
                " (or --dry-run to see what it would do)"
            } else {
                ""
            };
            Err(UsageError(format!(
                "{action} needs confirmation, and there is no terminal to ask on: pass --yes to go ahead{alternative}"
            ))
            .into())
        }
    }
}

/// Where a queue is, for a question asked before destructive work: its name, the account that owns
/// it (from its URL) and the region, e.g. `` `orders` (account 123456789012, eu-west-1) ``.
pub fn queue_place(queue: &QueueRef, region: &str) -> String {
    format!("`{}` ({})", queue.name, account_region(queue, region))
}

/// `account 123456789012, eu-west-1`, or `region eu-west-1` when the queue's URL names no account.
pub fn account_region(queue: &QueueRef, region: &str) -> String {
    match queue.account() {
        Some(account) => format!("account {account}, {region}"),
        None => format!("region {region}"),
    }
}

/// `1 message`, `2 messages`.
pub fn plural(count: u64, word: &str) -> String {
    if count == 1 {
        format!("{count} {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// Writes message records as they arrive, in the printer's format: a table per batch on a
/// terminal, one enveloped record per line in a pipe, a single JSON array (streamed) with
/// `-o json`, bodies only with `-o text`. Each batch is flushed before `write_batch` returns, so a
/// caller may delete what was written; `write_each` flushes message by message and says how far it
/// got, for pipes.
pub struct MessageWriter<'a> {
    printer: &'a Printer,
    written: u64,
    include_receipt_handles: bool,
}

impl<'a> MessageWriter<'a> {
    pub fn new(printer: &'a Printer, include_receipt_handles: bool) -> Self {
        MessageWriter {
            printer,
            written: 0,
            include_receipt_handles,
        }
    }

    pub fn written(&self) -> u64 {
        self.written
    }

    pub fn write_batch(&mut self, batch: &[MessageRecord]) -> std::io::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let printer = self.printer;
        match printer.format() {
            Format::Jsonl => {
                for record in batch {
                    self.with_handle(record, |r| printer.record("message", r))?;
                }
            }
            Format::Json => {
                for record in batch {
                    let text = self.with_handle(record, |r| {
                        serde_json::to_string(r).map_err(std::io::Error::other)
                    })?;
                    let lead = if self.written == 0 { "[\n  " } else { ",\n  " };
                    printer.write_raw(&format!("{lead}{text}"))?;
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
        if printer.format() == Format::Table {
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
        match printer.format() {
            Format::Jsonl => self.with_handle(record, |r| {
                let envelope = Envelope {
                    kind: "message".to_string(),
                    data: r,
                };
                serde_json::to_string(&envelope)
                    .map(|line| line + "\n")
                    .map_err(std::io::Error::other)
            }),
            Format::Json => {
                let text = self.with_handle(record, |r| {
                    serde_json::to_string(r).map_err(std::io::Error::other)
                })?;
                let lead = if self.written == 0 { "[\n  " } else { ",\n  " };
                Ok(format!("{lead}{text}"))
            }
            Format::Text | Format::Table => Ok(format!("{}\n", printer.display(&record.body))),
        }
    }

    fn batch_table(&self, batch: &[MessageRecord]) -> comfy_table::Table {
        let mut table =
            self.printer
                .new_table(&["#", "message id", "body", "group", "receives", "sent"]);
        for (i, record) in batch.iter().enumerate() {
            let body = sanitize::for_terminal(&record.body);
            table.add_row(vec![
                (self.written + i as u64 + 1).to_string(),
                record.message_id.clone().unwrap_or_default(),
                sanitize::truncate(&body, 60).into_owned(),
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
            ]);
        }
        table
    }

    fn with_handle<T>(
        &self,
        record: &MessageRecord,
        write: impl FnOnce(&MessageRecord) -> std::io::Result<T>,
    ) -> std::io::Result<T> {
        if self.include_receipt_handles || record.receipt_handle.is_none() {
            write(record)
        } else {
            let stripped = MessageRecord {
                receipt_handle: None,
                ..record.clone()
            };
            write(&stripped)
        }
    }

    /// Closes the output: the JSON array's bracket (an empty array when nothing was written).
    pub fn finish(&mut self) -> std::io::Result<()> {
        if self.printer.format() == Format::Json {
            let close = if self.written == 0 { "[]\n" } else { "\n]\n" };
            self.printer.write_raw(close)?;
        }
        self.printer.flush()
    }
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

/// Milliseconds since the epoch as an RFC 3339 time, to the second.
pub fn format_millis(millis: u64) -> String {
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(millis);
    humantime::format_rfc3339_seconds(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_catch_typos_and_missing_fifo_suffix() {
        let names: Vec<String> = ["orders", "orders-dlq", "jobs.fifo", "payments"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(similar_names("ordres", &names)[0], "orders");
        assert_eq!(similar_names("jobs", &names), vec!["jobs.fifo".to_string()]);
        assert!(similar_names("zzzzzz", &names).is_empty());
    }

    #[test]
    fn plural_counts() {
        assert_eq!(plural(1, "message"), "1 message");
        assert_eq!(plural(0, "message"), "0 messages");
    }
}
