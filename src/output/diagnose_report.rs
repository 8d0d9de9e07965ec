//! The document of one `diagnose` run: its findings as a table, lines of text or `finding`
//! records, and the report as one JSON document with what was read (the queue, a file, or only
//! the settings) and how far the scan went; and the counts by key of the messages read, when
//! there are some, as one table per expression under the findings (`count` records, `count` lines).

use std::path::PathBuf;

use serde::Serialize;

use crate::client::peek::Scanned;
use crate::diagnose::counts::{Counted, Counts};
use crate::diagnose::gather::{Inspection, MessageSource};
use crate::diagnose::{self, Report};
use crate::output::counts::{self, thousands};
use crate::output::diagnose_words::{FindingRecord, SkippedRecord};
use crate::output::{Document, Row, Table};

/// `diagnose --output json`: the report plus what was read.
#[derive(Serialize)]
struct Output<'a> {
    queue: Option<&'a str>,
    findings: &'a [FindingRecord<'a>],
    /// The FIFO group layout, when messages with group ids were read.
    groups: Option<&'a diagnose::GroupLayout>,
    /// The tenants of a fair queue; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    tenants: Option<&'a diagnose::TenantLayout>,
    /// The dead-letter view, when the queue is a DLQ.
    dlq: Option<&'a diagnose::DlqView>,
    /// Every check ran over every message it needed.
    complete: bool,
    /// The checks that did not run, or ran over part of the queue only.
    skipped: &'a [SkippedRecord<'a>],
    /// `queue` (a scan), `settings` (messages not read) or `file`.
    read_from: &'static str,
    input: Option<&'a PathBuf>,
    scan: Option<&'a Scanned>,
    problems: bool,
    /// `counts` and `counted`, when the messages were counted by key.
    #[serde(flatten)]
    counts: Option<&'a Counts>,
}

/// The closing JSON Lines record, after one `finding` record per finding.
#[derive(Serialize)]
struct Summary<'a> {
    queue: Option<&'a str>,
    findings: usize,
    problems: bool,
    complete: bool,
    skipped: &'a [SkippedRecord<'a>],
    read_from: &'static str,
    input: Option<&'a PathBuf>,
    scan: Option<&'a Scanned>,
    groups: Option<&'a diagnose::GroupLayout>,
    dlq: Option<&'a diagnose::DlqView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counted: Option<&'a Counted>,
}

/// The report of a run over messages from `source`, in every format.
pub fn document(report: &Report, inspection: &Inspection, source: &MessageSource) -> Document {
    let read_from = match (source, &inspection.refused) {
        (MessageSource::File(_), _) => "file",
        (_, Some(_)) => "settings",
        _ => "queue",
    };
    let input = match source {
        MessageSource::File(path) => Some(path),
        MessageSource::Queue { .. } => None,
    };
    let counted = inspection.counts();
    let findings: Vec<FindingRecord> = report.findings.iter().map(FindingRecord::from).collect();
    let skipped: Vec<SkippedRecord> = report.skipped.iter().map(SkippedRecord::from).collect();
    let summary = Summary {
        queue: report.queue.as_deref(),
        findings: report.findings.len(),
        problems: report.has_problems(),
        complete: report.complete,
        skipped: &skipped,
        read_from,
        input,
        scan: inspection.scan.as_ref(),
        groups: report.groups.as_ref(),
        dlq: report.dlq.as_ref(),
        counted: counted.as_ref().map(|c| &c.counted),
    };
    let mut document = Document::rows(&findings).json(&Output {
        queue: report.queue.as_deref(),
        findings: &findings,
        groups: report.groups.as_ref(),
        tenants: report.tenants.as_ref(),
        dlq: report.dlq.as_ref(),
        complete: report.complete,
        skipped: &skipped,
        read_from,
        input,
        scan: inspection.scan.as_ref(),
        problems: report.has_problems(),
        counts: counted.as_ref(),
    });
    if let Some(counted) = &counted {
        document = counts::records(document, &counted.counts);
    }
    document = document.record("summary", &summary);
    if report.findings.is_empty() {
        let mut table = Table::new(FindingRecord::columns());
        table.row(vec!["ok".into(), "No problems found".into(), String::new()]);
        document = document.tables(vec![table]);
    }
    match &counted {
        Some(counted) => with_counts(document, counted, report.queue.as_deref()),
        None => document,
    }
}

/// Adds the counts' tables under the findings, with what they cover, and their `-o text` lines
/// (`count<TAB>EXPR<TAB>VALUE<TAB>COUNT`) after the findings'.
fn with_counts(mut document: Document, counted: &Counts, queue: Option<&str>) -> Document {
    let Counts { counted, counts } = counted;
    for table in counts::tables(counts, counted.read) {
        document = document.table(table);
    }
    for line in counts::meant(counts) {
        document = document.aside(line);
    }
    document
        .text
        .extend(counts::lines(counts).into_iter().map(|line| {
            let mut fields = vec!["count".to_string()];
            fields.extend(line);
            fields
        }));
    if counted.default {
        document = document.note("counted by envelope: --count-by EXPR counts by other keys");
    }
    document.note(coverage(counted, queue))
}

/// `60 distinct messages read; orders-dlq held about 60 visible`.
fn coverage(counted: &Counted, queue: Option<&str>) -> String {
    let mut line = format!(
        "{} distinct message{} read",
        thousands(counted.read),
        if counted.read == 1 { "" } else { "s" }
    );
    if let (Some(visible), Some(queue)) = (counted.visible, queue) {
        line.push_str(&format!(
            "; {queue} held about {} visible",
            thousands(visible)
        ));
    }
    line
}
