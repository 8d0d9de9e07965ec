//! What `sqsctl local` says: the environment lines on stdout, and on stderr what the server
//! injects, how it departs from exactness, what its data directory held, what `--recover` did and
//! how many requests it served.

use std::path::Path;

use anyhow::Context as _;

use crate::commands::context::Context;
use crate::local::{Ready, Stats};
use crate::text::{plural, plural_with};

use super::LocalSettings;

/// Stand-in credentials: the server accepts any.
const LOCAL_CREDENTIALS: &str = "local";

/// `value` as one shell word: as it is when nothing in it is special to a shell, single-quoted
/// otherwise (an IPv6 endpoint's brackets would be a glob).
fn shell_word(value: &str) -> String {
    let plain = value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"@%+=:,./_-".contains(&b));
    if plain && !value.is_empty() {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// The lines a shell evaluates to use the server: the endpoint first (scripts read it alone),
/// then the region (`AWS_DEFAULT_REGION` too, for the AWS CLI v1 and older SDKs), then
/// stand-in credentials unless the environment has its own.
pub(super) fn environment(endpoint: &str, settings: &LocalSettings) -> Vec<String> {
    let mut variables = vec![
        ("AWS_ENDPOINT_URL_SQS", endpoint),
        ("AWS_REGION", settings.region.as_str()),
        ("AWS_DEFAULT_REGION", settings.region.as_str()),
    ];
    if settings.print_credentials {
        variables.push(("AWS_ACCESS_KEY_ID", LOCAL_CREDENTIALS));
        variables.push(("AWS_SECRET_ACCESS_KEY", LOCAL_CREDENTIALS));
    }
    variables
        .into_iter()
        .map(|(name, value)| format!("export {name}={}", shell_word(value)))
        .collect()
}

/// The start-up lines about the data directory and the start-up queues.
pub(super) fn describe_ready(ready: &Ready, settings: &LocalSettings) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Some(dir), Some(restored)) = (&settings.data_dir, ready.restored) {
        lines.push(format!(
            "keeping queues in {}: restored {} and {}",
            dir.display(),
            plural(restored.queues as u64, "queue"),
            plural(restored.messages as u64, "message")
        ));
    }
    if let (Some(file), Some(report)) = (&settings.init, &ready.init) {
        let mut parts = Vec::new();
        if !report.created.is_empty() {
            parts.push(format!("created {}", report.created.join(", ")));
        }
        if !report.unchanged.is_empty() {
            parts.push(format!("already there: {}", report.unchanged.join(", ")));
        }
        if parts.is_empty() {
            parts.push("no queues declared".into());
        }
        lines.push(format!("--init {}: {}", file.display(), parts.join("; ")));
    }
    lines
}

/// Warnings about the data directory: one that others can read.
pub(super) fn data_dir_warnings(ready: &Ready, settings: &LocalSettings) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Some(dir), Some(mode)) = (
        &settings.data_dir,
        ready.restored.and_then(|r| r.exposed_dir_mode),
    ) {
        lines.push(format!(
            "the data directory {} has mode {mode:o}: other users may read the queues' messages (chmod 700 it to keep them private)",
            dir.display()
        ));
    }
    lines
}

/// `--recover`: rebuilds a damaged data directory, telling on stderr what was dropped and where
/// the damaged files went.
pub(super) fn recover(ctx: &Context, dir: &Path) -> anyhow::Result<()> {
    let printer = &ctx.printer;
    let recovery = crate::local::recover(dir)
        .with_context(|| format!("could not recover the data directory {}", dir.display()))?;
    if !recovery.damaged {
        printer.info(format!(
            "--recover: the data directory {} is not damaged; nothing was changed",
            dir.display()
        ));
        return Ok(());
    }
    for damage in &recovery.damage {
        printer.warn(format!("--recover: {damage}"));
    }
    for dropped in &recovery.dropped {
        printer.warn(format!("--recover: dropped: {dropped}"));
    }
    for file in &recovery.set_aside {
        printer.warn(format!("--recover: set aside {}", file.display()));
    }
    printer.warn(format!(
        "--recover: kept {} and {}; the files set aside are not used again and can be deleted once nothing more is wanted from them",
        plural(recovery.queues, "queue"),
        plural(recovery.messages, "message")
    ));
    Ok(())
}

/// What the server injects, naming only what is on (`latency 50ms, fault rate 0.1`), or `None`
/// for a server that injects nothing.
pub(super) fn injected_faults(settings: &LocalSettings) -> Option<String> {
    let mut parts = Vec::new();
    if !settings.latency.is_zero() {
        parts.push(format!(
            "latency {}",
            humantime::format_duration(settings.latency)
        ));
    }
    if settings.fault_rate > 0.0 {
        parts.push(format!("fault rate {}", settings.fault_rate));
    }
    if settings.entry_fault_rate > 0.0 {
        parts.push(format!("entry fault rate {}", settings.entry_fault_rate));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What the server does as SQS does, naming only what is on, and the seed that repeats it; `None`
/// for an exact server.
pub(super) fn describe_realism(settings: &LocalSettings) -> Option<String> {
    let realism = &settings.realism;
    let mut parts = Vec::new();
    if realism.short_poll_sample < 1.0 {
        parts.push(format!("short-poll sample {}", realism.short_poll_sample));
    }
    if realism.duplicate_rate > 0.0 {
        parts.push(format!("duplicate rate {}", realism.duplicate_rate));
    }
    if realism.reorder_window > 1 {
        parts.push(format!("reorder window {}", realism.reorder_window));
    }
    if !realism.count_lag.is_zero() {
        parts.push(format!(
            "count lag {}",
            humantime::format_duration(realism.count_lag)
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let seed = settings
        .seed
        .map(|seed| format!("; --seed {seed} repeats this run"))
        .unwrap_or_default();
    Some(format!("behaving like SQS: {}{seed}", parts.join(", ")))
}

/// The last line: how many requests the server answered, and what it injected into them.
pub(super) fn stop_line(stats: &Stats, settings: &LocalSettings) -> String {
    let mut line = format!("stopped after {}", plural(stats.requests, "request"));
    if injected_faults(settings).is_some() {
        line.push_str(&format!(
            " ({}, {} ambiguous, sending {} and delivering {}; {})",
            plural(stats.injected_errors, "injected error"),
            stats.ambiguous_failures,
            plural(stats.ambiguous_sends, "message"),
            plural(stats.ambiguous_receives, "message"),
            plural_with(
                stats.entry_failures,
                "failed batch entry",
                "failed batch entries"
            )
        ));
    }
    if settings.realism.duplicate_rate > 0.0 {
        line.push_str(&format!(
            "; delivered {} twice (--duplicate-rate)",
            plural(stats.duplicate_deliveries, "message")
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_special_to_a_shell_are_quoted() {
        assert_eq!(shell_word("http://127.0.0.1:9324"), "http://127.0.0.1:9324");
        assert_eq!(shell_word("http://[::1]:9324"), "'http://[::1]:9324'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
