//! Reading what `diagnose` and `fifo groups` analyze: a queue's attributes and neighbours, and its
//! messages, either scanned without consuming them or loaded from a JSON Lines file.
//!
//! This is engine code: it talks to SQS through [`Sqs`] and hands back data ([`Inspection`], with
//! its notes for `--verbose`); the commands print. Progress is reported through a callback.

use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::counts::{Counting, Counts};
use super::tenant_key::KeyTally;
use crate::client::inspect::GroupCounts;
use crate::client::peek::{self, CountsCheck, PeekError, PeekOptions, ReadPath, Scanned};
use crate::client::{QueueAttributes, QueueRef, Sqs};
pub use crate::diagnose::Refusal;
use crate::diagnose::{
    Analysis, Coverage, GroupLayout, Observations, QueueFacts, ReceiveClock, RelatedQueue, Report,
    TenantLayout, analyze, groups,
};
use crate::interrupt::Interrupt;
use crate::message::{ParsedLine, parse_record_line};
use crate::read_ledger::ReadLedger;

/// How long scanned messages stay hidden at most, should releasing them fail.
pub const HOLD_SECONDS: i32 = 60;
/// Source queues of a DLQ whose attributes are read.
const MAX_SOURCES: usize = 10;

/// Where the messages come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageSource {
    /// Scan the live queue, reading at most `sample` messages.
    Queue { sample: usize },
    /// A JSON Lines file (`-`: stdin).
    File(PathBuf),
}

/// What was gathered.
pub struct Inspection {
    pub queue: Option<QueueRef>,
    pub facts: Option<QueueFacts>,
    pub observations: Option<Observations>,
    pub coverage: Coverage,
    pub scan: Option<Scanned>,
    /// The redrive-policy guard refused the scan.
    pub refused: Option<Refusal>,
    /// When earlier scans of this queue by sqsctl ended (epoch milliseconds), this one excluded.
    pub own_scans: Vec<u64>,
    /// When this scan ended, if there was one.
    pub scan_ended_ms: Option<u64>,
    /// A standard queue's messages counted per tenant by `sqsctl local`'s inspection endpoint.
    pub tenant_counts: Option<GroupCounts>,
    /// The messages are counted by the default keys of a dead-letter queue (see [`Counting`]).
    counts_by_default: bool,
    /// What went wrong on the side without stopping the gathering (a neighbour's attributes that
    /// could not be read, a scan log that could not be written), for `--verbose`.
    pub notes: Vec<String>,
}

/// What a scan reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    /// The scan starts and expects to read about this many messages.
    Started { expected: u64 },
    /// This many more messages were read.
    Read(u64),
    /// The scan ended.
    Finished,
}

/// What to gather.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The queue by name, URL or ARN; `None` analyzes a file alone.
    pub queue: Option<&'a str>,
    pub source: &'a MessageSource,
    /// Read even a queue whose redrive policy the read could trip.
    pub force: bool,
    /// Also read the queue's DLQ and its source queues.
    pub neighbours: bool,
    /// The ends of scans this process made before (a `--watch`), in case the scan log cannot be
    /// written.
    pub earlier_scans: &'a [u64],
    /// Tally each message's value of this tenant key (see [`super::tenant_key`]).
    pub tenant_key: Option<&'a KeyTally>,
    /// What to count the messages by (see [`super::counts`]).
    pub counting: &'a Counting,
}

/// What a look at a queue came to, worst first, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The scan stopped on Ctrl-C.
    Interrupted,
    /// Messages arrived in the queue's dead-letter queue while it was read.
    ReadDeadLettered,
    /// A finding is a warning or an error.
    ProblemsFound,
    /// SQS's counts lagged behind what was read, so what the read did not see is unknown.
    Incomplete,
    Clean,
}

/// Why the FIFO group layout of an inspection cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    #[error("{queue} is not a FIFO queue: it has no message groups")]
    NotFifo { queue: String },
    /// The redrive-policy guard refused to read the queue.
    #[error(transparent)]
    Refused(#[from] PeekError),
    #[error("no messages were read")]
    NothingRead,
}

impl Inspection {
    /// An inspection of what is given, complete, with nothing read or refused yet.
    fn of(facts: Option<QueueFacts>, observations: Option<Observations>) -> Inspection {
        Inspection {
            queue: None,
            facts,
            observations,
            coverage: Coverage::Complete,
            scan: None,
            refused: None,
            own_scans: Vec::new(),
            scan_ended_ms: None,
            tenant_counts: None,
            counts_by_default: false,
            notes: Vec::new(),
        }
    }

    pub fn interrupted(&self) -> bool {
        self.scan.as_ref().is_some_and(|s| s.interrupted)
    }

    /// Every check ([`analyze`]) over what was gathered, as of now.
    pub fn analyze(&self) -> Report {
        analyze(&Analysis {
            facts: self.facts.as_ref(),
            observations: self.observations.as_ref(),
            refused: self.refused.as_ref(),
            scan: self.scan.as_ref(),
            coverage: self.coverage,
            now_ms: now_ms(),
            own_scans: &self.own_scans,
            tenant_counts: self.tenant_counts.as_ref(),
        })
    }

    /// The counts by key of the messages read, when they were counted (see [`super::counts`]).
    pub fn counts(&self) -> Option<Counts> {
        let counter = self.observations.as_ref()?.counter.as_ref()?;
        let visible = self.scan.as_ref().map(|s| s.visible_at_start);
        Counts::of(counter, visible, self.counts_by_default)
    }

    /// Why the tenant key given was not checked, when it was not though messages were read.
    pub fn tenant_key_unused(&self) -> Option<&'static str> {
        let obs = self.observations.as_ref()?;
        super::tenant_key::unused_because(self.facts.as_ref(), obs)
    }

    /// The tenants of a standard queue, as of now: `None` for a FIFO queue, a file alone, or a
    /// queue none of whose messages read carries a group id.
    pub fn tenant_layout(&self) -> Option<TenantLayout> {
        self.analyze().tenants
    }

    /// Whether the queue read is a standard one (not a file alone, not a FIFO queue).
    pub fn is_standard(&self) -> bool {
        self.facts
            .as_ref()
            .is_some_and(|f| !(f.attrs.is_fifo() || f.name.ends_with(".fifo")))
    }

    /// The message groups of what was read, as of now: refused for a queue that is not FIFO, or
    /// whose messages were not read.
    pub fn group_layout(&self) -> Result<GroupLayout, LayoutError> {
        if let Some(facts) = &self.facts
            && !(facts.attrs.is_fifo() || facts.name.ends_with(".fifo"))
        {
            return Err(LayoutError::NotFifo {
                queue: facts.name.clone(),
            });
        }
        if let Some(refusal) = &self.refused {
            return Err(LayoutError::Refused(refusal.to_error()));
        }
        let obs = self.observations.as_ref().ok_or(LayoutError::NothingRead)?;
        let clock = ReceiveClock {
            now_ms: now_ms(),
            own_scans: &self.own_scans,
            visibility_timeout: self
                .facts
                .as_ref()
                .and_then(|f| f.attrs.visibility_timeout()),
        };
        Ok(groups::layout(obs, self.coverage, &clock))
    }

    /// What the look came to, with the findings of `report` (if the checks ran).
    pub fn outcome(&self, report: Option<&Report>) -> Outcome {
        if self.interrupted() {
            Outcome::Interrupted
        } else if self.scan.as_ref().is_some_and(|s| s.dead_lettered() > 0) {
            Outcome::ReadDeadLettered
        } else if report.is_some_and(Report::has_problems) {
            Outcome::ProblemsFound
        } else if self.coverage.counts_lagging() {
            Outcome::Incomplete
        } else {
            Outcome::Clean
        }
    }
}

/// Gathers the queue's facts (with its DLQ and sources when `neighbours`) and its messages. `sqs`
/// is needed when a queue is named. Ctrl-C (`interrupt`) ends a scan early.
pub async fn inspect(
    sqs: Option<&Sqs>,
    request: Request<'_>,
    interrupt: &Interrupt,
    mut progress: impl FnMut(Progress),
) -> anyhow::Result<Inspection> {
    let mut inspection = Inspection::of(None, None);
    let mut per_group_dedup = false;
    let sqs = match (request.queue, sqs) {
        (Some(name), Some(sqs)) => {
            let queue = sqs.lookup(name).await?;
            let attrs = sqs.attributes(&queue).await?;
            per_group_dedup = attrs.get("DeduplicationScope") == Some("messageGroup");
            let facts = if request.neighbours {
                facts(sqs, &queue, attrs, &mut inspection.notes).await
            } else {
                QueueFacts {
                    dlq_sources: 0,
                    name: queue.name.clone(),
                    attrs,
                    dlq: None,
                    sources: Vec::new(),
                }
            };
            inspection.queue = Some(queue);
            inspection.facts = Some(facts);
            Some(sqs)
        }
        (Some(_), None) => anyhow::bail!("a client is needed to read a queue"),
        (None, _) => None,
    };
    let dead_letter_queue = inspection
        .facts
        .as_ref()
        .is_some_and(QueueFacts::is_dead_letter_queue);
    let (counter, by_default) = match request.counting.counter(dead_letter_queue) {
        Some((counter, by_default)) => (Some(counter), by_default),
        None => (None, false),
    };
    inspection.counts_by_default = by_default;
    match request.source {
        MessageSource::File(path) => {
            inspection.observations = Some(read_file(
                path,
                Observations::new(per_group_dedup)
                    .with_tenant_key(request.tenant_key.cloned())
                    .with_counter(counter),
            )?);
            // The file's receive counts may include sqsctl's own looks at the queue; which of the
            // recorded ones came before the export is unknown, so all of them are discounted.
            if let Some(queue) = &inspection.queue {
                inspection.own_scans = ReadLedger::for_queue(queue).ends(now_ms());
            }
        }
        MessageSource::Queue { sample } => {
            let (Some(sqs), Some(queue), Some(facts)) = (sqs, &inspection.queue, &inspection.facts)
            else {
                anyhow::bail!("no queue to read");
            };
            match peek::weigh(sqs, queue, &facts.attrs, request.force).await {
                Err(refused) => inspection.refused = Some(Refusal::from_guard(refused)?),
                Ok(path) => {
                    if path == ReadPath::Inspect && !facts.attrs.is_fifo() {
                        match sqs
                            .inspection()
                            .group_counts(queue, crate::client::inspect::MAX_INSPECTED)
                            .await
                        {
                            Ok(counts) => inspection.tenant_counts = Some(counts),
                            Err(e) => inspection.notes.push(format!("tenant counts: {e}")),
                        }
                    }
                    let mut own_scans = ReadLedger::for_queue(queue).ends(now_ms());
                    own_scans.extend_from_slice(request.earlier_scans);
                    own_scans.sort_unstable();
                    own_scans.dedup();
                    let mut obs = Observations::new(per_group_dedup)
                        .with_tenant_key(request.tenant_key.cloned())
                        .with_counter(counter);
                    let expected = (facts.attrs.visible() as usize).min(*sample) as u64;
                    progress(Progress::Started { expected });
                    let options = PeekOptions {
                        max: Some(*sample),
                        hold_seconds: HOLD_SECONDS,
                        force: request.force,
                        settle: peek::COUNTS_SETTLE,
                    };
                    // A listing hands messages over in tens without receiving them: a full ten is
                    // not a receive that SQS filled, so it says nothing of messages behind a group.
                    let listed = path == ReadPath::Inspect;
                    let read = peek::ReadRequest {
                        sqs,
                        queue,
                        attrs: &facts.attrs,
                        options,
                        interrupt,
                    };
                    let result = peek::scan_weighed(&read, path, |batch| {
                        if listed {
                            batch.iter().for_each(|m| obs.add(m));
                        } else {
                            obs.add_batch(&batch);
                        }
                        progress(Progress::Read(batch.len() as u64));
                        ControlFlow::Continue(())
                    })
                    .await;
                    progress(Progress::Finished);
                    let scanned = result?;
                    inspection.coverage = Coverage::Scan {
                        visible_at_start: scanned.visible_at_start,
                        in_flight_at_start: scanned.in_flight_at_start,
                        exhausted: scanned.exhausted,
                        counts_lagging: scanned.unseen_unknown(queue.is_fifo()),
                    };
                    // Counts read again because the first ones lagged behind the read are the
                    // queue's depth every check weighs.
                    if let (CountsCheck::Settled { .. }, Some(facts)) =
                        (scanned.counts, inspection.facts.as_mut())
                    {
                        let counts = &mut facts.attrs.0;
                        counts.insert(
                            "ApproximateNumberOfMessages".into(),
                            scanned.visible_at_start.to_string(),
                        );
                        counts.insert(
                            "ApproximateNumberOfMessagesNotVisible".into(),
                            scanned.in_flight_at_start.to_string(),
                        );
                    }
                    // A listing through the inspection endpoint raised no receive count: it is
                    // not one of the reads a later `--watch` run discounts.
                    let ended = (!scanned.inspected).then_some(scanned.ended_ms);
                    if let Some(e) = &scanned.ledger_error {
                        inspection
                            .notes
                            .push(format!("could not record the scan: {e}"));
                    }
                    inspection.observations = Some(obs);
                    inspection.scan = Some(scanned);
                    inspection.own_scans = own_scans;
                    inspection.scan_ended_ms = ended;
                }
            }
        }
    }
    Ok(inspection)
}

async fn facts(
    sqs: &Sqs,
    queue: &QueueRef,
    attrs: QueueAttributes,
    notes: &mut Vec<String>,
) -> QueueFacts {
    let (dlq, dlq_sources) = match attrs.redrive_policy() {
        Some(policy) => {
            let (dlq, sources) = dead_letter_queue(sqs, &policy.dead_letter_target_arn).await;
            (Some(dlq), sources)
        }
        None => (None, 0),
    };
    let mut sources = Vec::new();
    match sqs.dead_letter_sources(queue).await {
        Ok(found) => {
            for source in found.iter().take(MAX_SOURCES) {
                match sqs.attributes(source).await {
                    Ok(attrs) => sources.push(RelatedQueue {
                        name: source.name.clone(),
                        attrs,
                    }),
                    Err(e) => notes.push(format!("attributes of {}: {e}", source.name)),
                }
            }
        }
        Err(e) => notes.push(format!("could not list the dead-letter sources: {e}")),
    }
    QueueFacts {
        dlq_sources,
        name: queue.name.clone(),
        attrs,
        dlq,
        sources,
    }
}

/// The dead-letter queue of a redrive policy (or why it could not be read), and how many queues
/// use it (0 when unknown): a DLQ shared by several needs `--native` or `--to` to be redriven.
async fn dead_letter_queue(sqs: &Sqs, arn: &str) -> (Result<RelatedQueue, String>, usize) {
    let queue = match sqs.resolve_arn(arn).await {
        Ok(queue) => queue,
        Err(e) => return (Err(e.to_string()), 0),
    };
    let sources = sqs.dead_letter_sources(&queue).await.map_or(0, |s| s.len());
    let related = match sqs.attributes(&queue).await {
        Ok(attrs) => Ok(RelatedQueue {
            name: queue.name,
            attrs,
        }),
        Err(e) => Err(e.to_string()),
    };
    (related, sources)
}

/// A line of a messages file that is not a message record.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: not a message record: {problem}", path.display())]
pub struct NotAMessage {
    pub path: PathBuf,
    /// From 1.
    pub line: usize,
    pub problem: String,
}

/// Loads messages from a JSON Lines file into `obs`; other record types (summaries) are skipped.
pub fn read_file(path: &Path, mut obs: Observations) -> anyhow::Result<Observations> {
    let reader: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .with_context(|| format!("could not open {}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    for (index, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("could not read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        match parse_record_line(&line) {
            Ok(ParsedLine::Message(record)) => obs.add(&record),
            Ok(ParsedLine::Other) => {}
            Err(e) => {
                return Err(NotAMessage {
                    path: path.to_path_buf(),
                    line: index + 1,
                    problem: e.to_string(),
                }
                .into());
            }
        }
    }
    Ok(obs)
}

pub use crate::read_ledger::now_ms;

#[cfg(test)]
mod tests {
    use super::*;

    fn inspection(facts: Option<QueueFacts>, observations: Option<Observations>) -> Inspection {
        Inspection::of(facts, observations)
    }

    #[test]
    fn groups_are_laid_out_for_fifo_queues_and_files_only() {
        let standard = inspection(
            Some(QueueFacts::plain("jobs")),
            Some(Observations::new(false)),
        );
        assert!(matches!(
            standard.group_layout(),
            Err(LayoutError::NotFifo { queue }) if queue == "jobs"
        ));
        let unread = inspection(Some(QueueFacts::plain("jobs.fifo")), None);
        assert!(matches!(
            unread.group_layout(),
            Err(LayoutError::NothingRead)
        ));
        let file = inspection(None, Some(Observations::new(false)));
        assert_eq!(file.group_layout().expect("a layout").groups.len(), 0);
        assert_eq!(file.outcome(None), Outcome::Clean);
        let report = file.analyze();
        assert!(!report.has_problems());
        assert_eq!(file.outcome(Some(&report)), Outcome::Clean);
    }
}
