//! `--init-dir`: reads the directory once at start (queue files are checked before the server
//! listens, so a typo stops the start), and reports each entry's outcome as the server runs it.

use std::path::Path;

use anyhow::Context as _;

use super::read_init;
use crate::local::{InitOutcome, InitStep};
use crate::output::Printer;

/// The directory's entries in name order: `*.toml` and `*.json` queue files, and executable
/// files; and the names of the other files, which are left out (hidden files silently).
pub fn steps(dir: &Path) -> anyhow::Result<(Vec<InitStep>, Vec<String>)> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("could not read --init-dir {}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry =
            entry.with_context(|| format!("could not read --init-dir {}", dir.display()))?;
        paths.push(entry.path());
    }
    paths.sort();
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        if !path.is_file() || name.starts_with('.') {
            continue;
        }
        if matches!(extension.as_deref(), Some("toml" | "json")) {
            let spec =
                read_init(&path).with_context(|| format!("in --init-dir {}", dir.display()))?;
            steps.push(InitStep::Queues { name, spec });
        } else if is_executable(&path) {
            steps.push(InitStep::Script { name, path });
        } else {
            skipped.push(name);
        }
    }
    Ok((steps, skipped))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_path: &Path) -> bool {
    true
}

/// One entry's outcome on stderr: applied queue files and scripts that succeeded as information,
/// failures as warnings (the server keeps serving).
pub fn report(printer: &Printer, outcome: InitOutcome) {
    match outcome {
        InitOutcome::Applied { name, created } if created.is_empty() => {
            printer.info(format!("init-dir: {name}: queues already there"));
        }
        InitOutcome::Applied { name, created } => {
            printer.info(format!("init-dir: {name}: created {}", created.join(", ")));
        }
        InitOutcome::Succeeded { name } => printer.info(format!("init-dir: {name}: done")),
        InitOutcome::Failed { name, why } => {
            printer.warn(format!("init-dir: {name}: {why}; the server keeps serving"));
        }
    }
}
