//! Findings: what the analyzers report, with a stable id, a severity, the evidence and advice
//! (in [`Words`], which name what sqsctl does as facts).

use serde::Serialize;

use super::words::Words;

/// How much a finding matters. Only warnings and errors make `diagnose` exit with code 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Whether a finding of this severity is a problem (as opposed to context).
    pub fn is_problem(self) -> bool {
        self >= Severity::Warning
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One result of a check. `id` is a stable kebab-case name that scripts may match on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub id: &'static str,
    pub severity: Severity,
    pub title: String,
    /// Facts that support the finding, one per entry, each readable on its own.
    pub evidence: Vec<Words>,
    /// What to change.
    pub advice: Words,
}

impl Finding {
    pub fn new(id: &'static str, severity: Severity, title: impl Into<String>) -> Finding {
        Finding {
            id,
            severity,
            title: title.into(),
            evidence: Vec::new(),
            advice: Words::default(),
        }
    }

    pub fn evidence(mut self, line: impl Into<Words>) -> Finding {
        self.evidence.push(line.into());
        self
    }

    /// One evidence line per item, for the first `most` items (the rest would bury the point).
    pub fn evidence_each<T>(
        mut self,
        items: impl IntoIterator<Item = T>,
        most: usize,
        line: impl Fn(T) -> String,
    ) -> Finding {
        self.evidence
            .extend(items.into_iter().take(most).map(|item| line(item).into()));
        self
    }

    pub fn advice(mut self, text: impl Into<Words>) -> Finding {
        self.advice = text.into();
        self
    }
}

/// Sorts findings most severe first, keeping the order of the checks within a severity.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
}

/// Whether any finding is a warning or an error.
pub fn has_problems(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity.is_problem())
}

/// A duration in seconds as people say it: `45s`, `12m`, `3h`, `4d`.
pub fn human_seconds(seconds: u64) -> String {
    match seconds {
        s if s < 120 => format!("{s}s"),
        s if s < 2 * 3600 => format!("{}m", s / 60),
        s if s < 2 * 86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

/// `part` of `whole` as a percentage with no decimals (0 when `whole` is 0).
pub fn percent(part: u64, whole: u64) -> u64 {
    if whole == 0 {
        0
    } else {
        ((part as f64) * 100.0 / (whole as f64)).round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_order_and_problems() {
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
        assert!(!Severity::Info.is_problem());
        let mut findings = vec![
            Finding::new("a", Severity::Info, "a"),
            Finding::new("b", Severity::Error, "b"),
            Finding::new("c", Severity::Warning, "c"),
        ];
        assert!(has_problems(&findings));
        sort_findings(&mut findings);
        let ids: Vec<_> = findings.iter().map(|f| f.id).collect();
        assert_eq!(ids, ["b", "c", "a"]);
        assert!(!has_problems(&findings[2..]));
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_seconds(45), "45s");
        assert_eq!(human_seconds(600), "10m");
        assert_eq!(human_seconds(4 * 3600), "4h");
        assert_eq!(human_seconds(4 * 86_400), "4d");
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(1, 0), 0);
    }
}
