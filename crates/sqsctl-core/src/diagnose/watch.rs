//! What changed between the runs of `diagnose --watch`, judged on comparable evidence.
//!
//! A finding's verdict is its severity, by its stable id (a title that only counts differently is
//! no change). A finding that goes away is resolved only when the run without it read at least as
//! many messages as the run that last showed it: a scan that read fewer (the queue drained, a
//! consumer held more in flight) may simply not have met the evidence. Such a finding stays in the
//! baseline until a comparable run confirms or clears it. Pure logic; the command prints.

use std::collections::BTreeMap;

use super::finding::{Finding, Severity};

/// A change from one run to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A finding the last comparable run did not have.
    New {
        id: &'static str,
        severity: Severity,
        title: String,
    },
    /// The same finding with another severity.
    Changed {
        id: &'static str,
        from: Severity,
        to: Severity,
        title: String,
    },
    /// Gone on evidence at least as broad as the evidence that showed it.
    Resolved { id: &'static str, title: String },
    /// Gone from a run that read fewer messages than the one that showed it: not a resolution.
    Unconfirmed {
        id: &'static str,
        title: String,
        read_now: u64,
        read_before: u64,
    },
}

#[derive(Debug, Clone)]
struct Verdict {
    severity: Severity,
    title: String,
    /// Messages the run that last showed this verdict read (`None`: no scan, settings only).
    read: Option<u64>,
}

/// The findings believed so far, run after run.
#[derive(Debug, Default)]
pub struct Watch {
    baseline: Option<BTreeMap<&'static str, Verdict>>,
    /// When this watch's scans ended (epoch milliseconds).
    own_scans: Vec<u64>,
}

impl Watch {
    pub fn new() -> Watch {
        Watch::default()
    }

    /// Records the end of a scan of this watch: each scan adds a receive to every message it
    /// reads, and the next runs discount it.
    pub fn scanned(&mut self, ended_ms: Option<u64>) {
        self.own_scans.extend(ended_ms);
    }

    /// When the scans of this watch ended, for the next run to discount.
    pub fn own_scans(&self) -> &[u64] {
        &self.own_scans
    }

    /// Takes one run's findings and the number of messages its scan read (`None` when it read
    /// none, by design: a file, or settings only). Returns the changes from the runs before, or
    /// `None` for the first run, which has nothing to compare with.
    pub fn observe(&mut self, findings: &[Finding], read: Option<u64>) -> Option<Vec<Change>> {
        let current: BTreeMap<&'static str, &Finding> =
            findings.iter().map(|f| (f.id, f)).collect();
        let Some(baseline) = &mut self.baseline else {
            self.baseline = Some(
                current
                    .iter()
                    .map(|(id, f)| (*id, verdict(f, read)))
                    .collect(),
            );
            return None;
        };
        let mut changes = Vec::new();
        for (id, finding) in &current {
            match baseline.get(id) {
                None => changes.push(Change::New {
                    id,
                    severity: finding.severity,
                    title: finding.title.clone(),
                }),
                Some(before) if before.severity != finding.severity => {
                    // Milder on less evidence is no better: keep the earlier verdict.
                    if finding.severity < before.severity && !comparable(before.read, read) {
                        continue;
                    }
                    changes.push(Change::Changed {
                        id,
                        from: before.severity,
                        to: finding.severity,
                        title: finding.title.clone(),
                    });
                }
                Some(_) => {}
            }
            baseline.insert(id, verdict(finding, read));
        }
        let gone: Vec<&'static str> = baseline
            .keys()
            .filter(|id| !current.contains_key(*id))
            .copied()
            .collect();
        for id in gone {
            let Some(before) = baseline.get(id) else {
                continue;
            };
            if comparable(before.read, read) {
                changes.push(Change::Resolved {
                    id,
                    title: before.title.clone(),
                });
                baseline.remove(id);
            } else {
                changes.push(Change::Unconfirmed {
                    id,
                    title: before.title.clone(),
                    read_now: read.unwrap_or(0),
                    read_before: before.read.unwrap_or(0),
                });
            }
        }
        Some(changes)
    }
}

fn verdict(finding: &Finding, read: Option<u64>) -> Verdict {
    Verdict {
        severity: finding.severity,
        title: finding.title.clone(),
        read,
    }
}

/// Whether a run that read `now` messages can overturn a verdict formed on `before`.
fn comparable(before: Option<u64>, now: Option<u64>) -> bool {
    match (before, now) {
        (Some(before), Some(now)) => now >= before,
        (Some(before), None) => before == 0,
        (None, _) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(id: &'static str, severity: Severity) -> Finding {
        Finding::new(id, severity, format!("{id} title"))
    }

    #[test]
    fn the_first_run_is_the_baseline() {
        let mut watch = Watch::new();
        assert_eq!(
            watch.observe(&[finding("a", Severity::Error)], Some(100)),
            None
        );
        assert_eq!(
            watch.observe(&[finding("a", Severity::Error)], Some(100)),
            Some(vec![])
        );
    }

    #[test]
    fn a_smaller_scan_does_not_resolve_and_a_comparable_one_does() {
        let mut watch = Watch::new();
        watch.observe(&[finding("serialized", Severity::Error)], Some(100));
        let changes = watch.observe(&[], Some(40)).unwrap();
        assert_eq!(
            changes,
            vec![Change::Unconfirmed {
                id: "serialized",
                title: "serialized title".into(),
                read_now: 40,
                read_before: 100
            }]
        );
        // Still believed: seen again on a small scan is no news.
        let changes = watch
            .observe(&[finding("serialized", Severity::Error)], Some(40))
            .unwrap();
        assert_eq!(changes, vec![]);
        // Gone on a scan as broad as the one that last showed it.
        let changes = watch.observe(&[], Some(40)).unwrap();
        assert_eq!(
            changes,
            vec![Change::Resolved {
                id: "serialized",
                title: "serialized title".into()
            }]
        );
        assert_eq!(watch.observe(&[], Some(40)), Some(vec![]));
    }

    #[test]
    fn severity_changes_count_only_milder_on_comparable_evidence() {
        let mut watch = Watch::new();
        watch.observe(&[finding("hot", Severity::Warning)], Some(50));
        let worse = watch
            .observe(&[finding("hot", Severity::Error)], Some(10))
            .unwrap();
        assert_eq!(
            worse,
            vec![Change::Changed {
                id: "hot",
                from: Severity::Warning,
                to: Severity::Error,
                title: "hot title".into()
            }]
        );
        let milder = watch
            .observe(&[finding("hot", Severity::Warning)], Some(5))
            .unwrap();
        assert_eq!(milder, vec![]);
        let milder = watch
            .observe(&[finding("hot", Severity::Warning)], Some(10))
            .unwrap();
        assert_eq!(milder.len(), 1);
    }

    #[test]
    fn settings_only_runs_compare_freely() {
        let mut watch = Watch::new();
        watch.observe(&[finding("no-long-polling", Severity::Info)], None);
        assert_eq!(
            watch.observe(&[], None).unwrap(),
            vec![Change::Resolved {
                id: "no-long-polling",
                title: "no-long-polling title".into()
            }]
        );
    }
}
