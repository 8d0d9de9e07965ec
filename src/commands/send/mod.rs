//! `sqsctl send`: one message from the argument (or all of stdin), or many from stdin as lines or
//! JSON Lines records, sent in batches of 10 (within 1 MiB) with several batches in flight.
//!
//! Every record is checked against SQS's limits before anything is sent. Each batch entry's outcome
//! is looked at on its own: failed entries are reported with their input line and the run exits
//! with 3. An invalid input line stops the run (after sending the lines before it) unless
//! `--skip-invalid`, and the error says which line to resume from.

mod report;

use std::collections::BTreeMap;
use std::io::Read;

use anyhow::{Context as _, bail};
use serde::Serialize;

use super::common::resolve_queue;
use crate::cli::send::SendArgs;
use crate::cli::values::parse_message_attributes;
use crate::client::{EntryResult, QueueRef, RetryPolicy};
use crate::commands::context::Context;
use crate::error::{UsageError, hinted};
use crate::exit::ExitStatus;
use crate::message::{AttributeValue, MessageRecord};
use crate::output::Document;
pub use crate::send::input::DedupId;
use crate::send::input::{LineFormat, RecordDefaults};
use crate::send::stream::{SendStream, StreamOptions};
use report::Report;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendInput {
    Body(String),
    WholeStdin,
    Lines,
    Jsonl,
}

#[derive(Debug)]
pub struct SendSettings {
    pub queue: String,
    pub input: SendInput,
    pub skip_invalid: bool,
    pub group_id: Option<String>,
    pub dedup: Option<DedupId>,
    pub attributes: BTreeMap<String, AttributeValue>,
    pub delay_seconds: Option<i32>,
    pub trace_header: Option<String>,
    pub concurrency: usize,
}

impl SendSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: SendArgs) -> anyhow::Result<SendSettings> {
        let input = match (args.body, args.lines, args.jsonl) {
            (Some(body), _, _) if body == "-" => SendInput::WholeStdin,
            (Some(body), _, _) => SendInput::Body(body),
            (None, true, _) => SendInput::Lines,
            (None, _, true) => SendInput::Jsonl,
            (None, false, false) => SendInput::WholeStdin,
        };
        if args.skip_invalid && !matches!(input, SendInput::Lines | SendInput::Jsonl) {
            bail!("--skip-invalid only applies to --lines or --jsonl");
        }
        let dedup = match args.dedup_id.as_deref() {
            None => None,
            Some("auto") => Some(DedupId::Auto),
            Some("") => bail!("--dedup-id must not be empty (use an id, or `auto`)"),
            Some(id) => Some(DedupId::Fixed(id.to_string())),
        };
        if matches!(args.group_id.as_deref(), Some("")) {
            bail!("--group-id must not be empty");
        }
        Ok(SendSettings {
            queue: args.queue,
            input,
            skip_invalid: args.skip_invalid,
            group_id: args.group_id,
            dedup,
            attributes: parse_message_attributes(&args.attrs)?,
            delay_seconds: args.delay.map(crate::cli::values::whole_seconds),
            trace_header: args.trace_header,
            concurrency: usize::from(args.concurrency),
        })
    }
}

#[derive(Debug, Serialize)]
struct Sent<'a> {
    message_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence_number: Option<&'a str>,
    /// Copies that may be in a standard queue besides this message (see
    /// [`Summary::possible_duplicates`](crate::send::stream::Summary)); left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    possible_duplicates: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

pub async fn run(ctx: &Context, settings: SendSettings) -> anyhow::Result<ExitStatus> {
    let queue = resolve_queue(ctx, &settings.queue).await?;
    let fifo = queue.is_fifo();
    if !fifo && settings.dedup.is_some() {
        return Err(UsageError(format!(
            "--dedup-id only applies to FIFO queues, and `{}` is a standard queue",
            queue.name
        ))
        .into());
    }
    // Without a deduplication id a FIFO queue needs content-based deduplication; every message
    // would fail at SQS otherwise. JSON records may carry their own ids, so those are left to SQS;
    // without --group-id the missing group id is the first thing to say, and prepare() says it.
    if fifo
        && settings.dedup.is_none()
        && settings.group_id.is_some()
        && !matches!(settings.input, SendInput::Jsonl)
    {
        let attrs = ctx.sqs().await?.attributes(&queue).await?;
        if !attrs.content_based_dedup() {
            return Err(hinted(
                format!(
                    "`{}` is a FIFO queue without content-based deduplication, and no --dedup-id was given; nothing was sent",
                    queue.name
                ),
                crate::hints::no_dedup_id(),
            ));
        }
    }
    let defaults = RecordDefaults {
        group_id: settings.group_id.clone(),
        dedup: settings.dedup.clone(),
        attributes: settings.attributes.clone(),
        delay_seconds: settings.delay_seconds,
        trace_header: settings.trace_header.clone(),
        fifo,
    };
    match &settings.input {
        SendInput::Body(body) => send_one(ctx, &queue, &defaults, body.clone()).await,
        SendInput::WholeStdin => {
            if ctx.printer.terminal().stdin_is_tty {
                return Err(UsageError(
                    "no message body: give BODY, or pipe the body into stdin (--lines or --jsonl for many messages)".into(),
                )
                .into());
            }
            let mut body = String::new();
            std::io::stdin()
                .read_to_string(&mut body)
                .context("could not read the message body from stdin (is it UTF-8?)")?;
            // `echo x |` and files end in a newline that is not part of the message.
            if body.ends_with('\n') {
                body.pop();
                if body.ends_with('\r') {
                    body.pop();
                }
            }
            send_one(ctx, &queue, &defaults, body).await
        }
        SendInput::Lines => send_stream(ctx, &queue, defaults, LineFormat::Lines, &settings).await,
        SendInput::Jsonl => send_stream(ctx, &queue, defaults, LineFormat::Jsonl, &settings).await,
    }
}

async fn send_one(
    ctx: &Context,
    queue: &QueueRef,
    defaults: &RecordDefaults,
    body: String,
) -> anyhow::Result<ExitStatus> {
    let record = defaults
        .prepare(MessageRecord::with_body(body))
        .map_err(|reason| {
            hinted(
                format!("the message cannot be sent: {reason}"),
                crate::hints::invalid_message(queue, &reason),
            )
        })?;
    let sqs = ctx.sqs().await?;
    let policy = RetryPolicy::default().stopped_by(ctx.interrupt.clone());
    let outcome = sqs
        .send_batch_retrying(queue, std::slice::from_ref(&record), &policy)
        .await;
    let entry = outcome.entries.into_iter().next();
    match entry {
        Some(EntryResult::Done {
            message_id,
            sequence_number,
            ambiguous_attempts,
        }) => {
            let summary = crate::send::stream::Summary {
                sent: 1,
                ambiguous_resends: u64::from(ambiguous_attempts),
                possible_duplicates: if queue.is_fifo() {
                    0
                } else {
                    u64::from(ambiguous_attempts)
                },
                ..Default::default()
            };
            let sent = Sent {
                message_id: message_id.as_deref(),
                sequence_number: sequence_number.as_deref(),
                possible_duplicates: summary.possible_duplicates,
            };
            let id = message_id.clone().unwrap_or_default();
            ctx.printer.emit(
                &Document::default()
                    .json(&sent)
                    .record("sent", &sent)
                    .note(id.clone())
                    .text(vec![vec![id]]),
            )?;
            let line = format!("sent 1 message to {}", queue.name);
            match report::duplicates_note(&summary) {
                Some(note) if summary.possible_duplicates > 0 => {
                    ctx.printer.warn(format!("{line}; {note}"));
                }
                Some(note) => ctx.printer.info(format!("{line}; {note}")),
                None => ctx.printer.info(line),
            }
            Ok(ExitStatus::Success)
        }
        Some(EntryResult::Unknown { code, message }) => {
            ctx.printer.warn(format!(
                "the message may or may not have been sent to {}: {code}: {message}",
                queue.name
            ));
            ctx.printer.hint(crate::hints::unknown_send_outcome(queue));
            Ok(ExitStatus::Partial)
        }
        Some(EntryResult::Failed { code, message }) => {
            if let Some(err) = outcome.request_error {
                return Err(err.into());
            }
            let text = format!("SQS did not accept the message: {code}: {message}");
            Err(match crate::hints::send_entry(queue, &code, &message) {
                Some(hint) => hinted(text, hint),
                None => anyhow::anyhow!(text),
            })
        }
        None => Err(anyhow::anyhow!("no outcome for the message")),
    }
}

async fn send_stream(
    ctx: &Context,
    queue: &QueueRef,
    defaults: RecordDefaults,
    format: LineFormat,
    settings: &SendSettings,
) -> anyhow::Result<ExitStatus> {
    if let Some(DedupId::Fixed(id)) = &settings.dedup {
        ctx.printer.warn(format!(
            "every message without its own dedup_id gets the deduplication id `{id}`: SQS delivers only the first of them within five minutes (--dedup-id auto derives one per record)"
        ));
    }
    let sqs = ctx.sqs().await?;
    let options = StreamOptions {
        format,
        defaults,
        skip_invalid: settings.skip_invalid,
        concurrency: settings.concurrency,
        interrupt: ctx.interrupt.clone(),
    };
    let mut stream = SendStream::start(sqs, queue, std::io::stdin(), options);
    let concurrency = stream.concurrency();
    ctx.printer.debug(format!(
        "sending {} in batches of up to 10 messages and 1 MiB, {concurrency} request{} at a time (-vv: each batch)",
        if format == LineFormat::Jsonl { "JSON records" } else { "lines" },
        if concurrency == 1 { "" } else { "s" },
    ));
    let progress = ctx
        .printer
        .progress(0, "{spinner} messages sent: {pos} ({per_sec})");
    let mut report = Report::new(ctx, queue);
    while let Some(event) = stream.next().await {
        // Lines on stderr step the progress line aside, or it is left among them.
        progress.suspend(|| report.event(event))?;
        progress.set_position(stream.summary().sent);
    }
    progress.finish_and_clear();
    if sqs.entry_retries() > 0 {
        ctx.printer.debug(format!(
            "batch entries sent again after a retryable failure: {}",
            sqs.entry_retries()
        ));
    }
    let finished = stream.finish();
    report.finish(&finished)?;
    report.end(finished, format)
}
