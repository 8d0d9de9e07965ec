//! The document of one `diagnose` run: its findings as a table, lines of text or `finding`
//! records, and the report as one JSON document with what was read (the queue, a file, or only
//! the settings) and how far the scan went.

use std::path::PathBuf;

use serde::Serialize;

use crate::client::peek::Scanned;
use crate::diagnose::gather::{Inspection, MessageSource};
use crate::diagnose::{self, Finding, Report};
use crate::output::{Document, Row, Table};

/// `diagnose --output json`: the report plus what was read.
#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    report: &'a Report,
    /// `queue` (a scan), `settings` (messages not read) or `file`.
    read_from: &'static str,
    input: Option<&'a PathBuf>,
    scan: Option<&'a Scanned>,
    problems: bool,
}

/// The closing JSON Lines record, after one `finding` record per finding.
#[derive(Serialize)]
struct Summary<'a> {
    queue: Option<&'a str>,
    findings: usize,
    problems: bool,
    complete: bool,
    skipped: &'a [diagnose::Skipped],
    read_from: &'static str,
    input: Option<&'a PathBuf>,
    scan: Option<&'a Scanned>,
    groups: Option<&'a diagnose::GroupLayout>,
    dlq: Option<&'a diagnose::DlqView>,
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
    let summary = Summary {
        queue: report.queue.as_deref(),
        findings: report.findings.len(),
        problems: report.has_problems(),
        complete: report.complete,
        skipped: &report.skipped,
        read_from,
        input,
        scan: inspection.scan.as_ref(),
        groups: report.groups.as_ref(),
        dlq: report.dlq.as_ref(),
    };
    let mut document = Document::rows(&report.findings)
        .json(&Output {
            report,
            read_from,
            input,
            scan: inspection.scan.as_ref(),
            problems: report.has_problems(),
        })
        .record("summary", &summary);
    if report.findings.is_empty() {
        let mut table = Table::new(Finding::columns());
        table.row(vec!["ok".into(), "No problems found".into(), String::new()]);
        document = document.tables(vec![table]);
    }
    document
}
