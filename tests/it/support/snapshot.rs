//! Snapshots of the output people read (tables, `--help`, error messages), compared with the
//! files under `tests/it/snapshots/`. What changes from run to run (the local server's port,
//! message ids, receipt handles, temporary directories) is replaced before the comparison, so a
//! snapshot fails only when the words, layout or numbers a user sees change.
//!
//! A changed or missing snapshot fails the test. Outside CI insta also writes the new output
//! beside the old as `.snap.new`; review with `cargo insta review`, or accept everything with
//! `INSTA_UPDATE=always cargo test --test it` and read `git diff` (see docs/testing.md).

/// Replacements applied to every snapshot: (regex, replacement). Each replacement is as wide as
/// what it replaces, so tables keep their layout.
const FILTERS: &[(&str, &str)] = &[
    // The local server's port: an ephemeral one (Linux hands out 32768-60999) on the loopback
    // interface. Fixed ports, such as the defaults the help documents, stay.
    (
        r"(127\.0\.0\.1|localhost|\[::1\]):(3[2-9]\d{3}|[4-6]\d{4})\b",
        "$1:xxxxx",
    ),
    // Message ids, request ids, move task handles.
    (
        r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    ),
    // Times a message was sent or a run started.
    (
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z",
        "YYYY-MM-DDTHH:MM:SSZ",
    ),
    // Each test's private home directory.
    (r"/tmp/\.tmp[0-9A-Za-z]+", "[home]"),
];

/// The settings every snapshot of the integration tests uses, plus `extra` replacements for what
/// only one test's output varies in (durations, timestamps).
pub fn settings(extra: &[(&str, &str)]) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/snapshots"));
    for (regex, replacement) in FILTERS.iter().chain(extra) {
        settings.add_filter(regex, *replacement);
    }
    settings
}

/// `table` with the value of the row labelled `label` (a timing, a rate) replaced by
/// `placeholder`, padded to the cell's width so the table keeps its layout.
pub fn mask_row(table: &str, label: &str, placeholder: &str) -> String {
    let prefix = format!("│ {label} ");
    table
        .lines()
        .map(|line| match line.rsplit_once('┆') {
            Some((head, cell)) if line.starts_with(&prefix) => {
                // The cell is " value<padding>│": keep its width in characters.
                let width = cell.chars().count().saturating_sub(2);
                format!("{head}┆ {placeholder:<width$}│")
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a user sees of a run, for a snapshot of several runs: the command line as typed, the exit
/// code and stderr.
pub fn transcript(args: &[&str], run: &super::Run) -> String {
    format!(
        "$ sqsctl {}\n[exit {}]\n{}",
        args.join(" "),
        run.code,
        run.stderr
    )
}

/// `insta::assert_snapshot!` with [`settings`]: `assert_snapshot!(value)`, or where a test takes
/// several, `assert_snapshot!(name: "what", value)`, which names the file `<test>@<what>.snap`.
/// Extra replacements follow as `regex => replacement`.
macro_rules! assert_snapshot {
    (name: $name:expr, $value:expr $(, $regex:literal => $replacement:literal)* $(,)?) => {{
        let mut settings = $crate::support::snapshot::settings(&[$(($regex, $replacement)),*]);
        settings.set_snapshot_suffix($name);
        let _settings = settings.bind_to_scope();
        insta::assert_snapshot!($value);
    }};
    ($value:expr $(, $regex:literal => $replacement:literal)* $(,)?) => {{
        let _settings = $crate::support::snapshot::settings(&[$(($regex, $replacement)),*])
            .bind_to_scope();
        insta::assert_snapshot!($value);
    }};
}
pub(crate) use assert_snapshot;
