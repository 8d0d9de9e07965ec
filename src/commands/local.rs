//! `sqsctl local`: runs the in-process SQS-compatible server of [`crate::local`] until Ctrl-C.
//!
//! stdout gets the environment a shell evaluates to use the server (`export AWS_ENDPOINT_URL_SQS=...`,
//! the region, and stand-in credentials where the environment has none), the endpoint first;
//! everything else goes to stderr.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::cli::local::LocalArgs;
use crate::client::AwsSettings;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::local::{InitSpec, Ready, Realism, ServerConfig, serve_until};
use crate::text::plural;

#[derive(Debug, Clone)]
pub struct LocalSettings {
    pub bind: SocketAddr,
    /// The server's default region (the global `--region`), also printed for clients.
    pub region: String,
    /// Whether to print stand-in credentials: only when the environment has none, so that
    /// evaluating the output never replaces the user's own.
    pub print_credentials: bool,
    pub hostname: Option<String>,
    pub account_id: String,
    pub latency: Duration,
    pub fault_rate: f64,
    pub entry_fault_rate: f64,
    /// Drawn at random when the server departs from exact behaviour without `--seed`, so the
    /// start-up line can say how to repeat the run.
    pub seed: Option<u64>,
    /// Where the server behaves as SQS does rather than exactly (`--like-sqs` and its flags).
    pub realism: Realism,
    pub data_dir: Option<PathBuf>,
    /// Rebuild a damaged data directory from what can be read before starting.
    pub recover: bool,
    pub init: Option<PathBuf>,
    /// `None` when neither the flag nor the machine's memory gives a bound.
    pub max_bytes: Option<u64>,
    /// Web origins whose pages the server answers (`--allow-origin`).
    pub allowed_origins: Vec<String>,
    /// Whether the inspection endpoints answer.
    pub inspection: bool,
}

fn rate(name: &str, value: f64) -> anyhow::Result<f64> {
    if !(0.0..=1.0).contains(&value) {
        bail!("--{name} must be between 0 and 1, got {value}");
    }
    Ok(value)
}

/// `--like-sqs`'s settings, or the exact ones, with each of its flags given on top.
fn realism(args: &LocalArgs) -> anyhow::Result<Realism> {
    let base = if args.like_sqs {
        Realism::LIKE_SQS
    } else {
        Realism::EXACT
    };
    let realism = Realism {
        short_poll_sample: args.short_poll_sample.unwrap_or(base.short_poll_sample),
        duplicate_rate: args.duplicate_rate.unwrap_or(base.duplicate_rate),
        reorder_window: args.reorder_window.unwrap_or(base.reorder_window),
        count_lag: args.count_lag.unwrap_or(base.count_lag),
    };
    if let Err((field, why)) = realism.check() {
        bail!("--{} {why}", field.replace('_', "-"));
    }
    Ok(realism)
}

/// A seed for a run that did not give one.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// An origin as browsers send it: `scheme://host[:port]`, nothing after (a trailing `/` is
/// dropped).
fn origin(value: &str) -> anyhow::Result<String> {
    let trimmed = value.trim_end_matches('/');
    let valid = trimmed.split_once("://").is_some_and(|(scheme, host)| {
        !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            && !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
    });
    if !valid {
        bail!(
            "--allow-origin must be an origin such as http://localhost:3000 (scheme, host and port, no path), got {value:?}"
        );
    }
    Ok(trimmed.to_string())
}

impl LocalSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: LocalArgs, aws: &AwsSettings) -> anyhow::Result<LocalSettings> {
        let region = aws
            .region
            .as_deref()
            .unwrap_or(crate::local::DEFAULT_REGION);
        if !crate::client::is_region_name(region) {
            bail!("--region must be a region name such as eu-west-1, got {region:?}");
        }
        if args.account_id.len() != 12 || !args.account_id.bytes().all(|b| b.is_ascii_digit()) {
            bail!("--account-id must be 12 digits, got {:?}", args.account_id);
        }
        if let Some(name) = &args.hostname {
            let valid = !name.is_empty()
                && name.len() <= 253
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':'));
            if !valid {
                bail!("--hostname must be a host name or IP address, got {name:?}");
            }
        }
        let realism = realism(&args)?;
        let seed = match args.seed {
            None if !realism.is_exact() => Some(random_seed()),
            seed => seed,
        };
        Ok(LocalSettings {
            bind: args.bind,
            region: region.to_string(),
            print_credentials: !aws.environment.has_credentials,
            hostname: args.hostname,
            account_id: args.account_id,
            // Its range is checked by its parser (`cli::local`).
            latency: args.latency.unwrap_or(Duration::ZERO),
            fault_rate: rate("fault-rate", args.fault_rate)?,
            entry_fault_rate: rate("entry-fault-rate", args.entry_fault_rate)?,
            seed,
            realism,
            data_dir: args.data_dir,
            recover: args.recover,
            init: args.init,
            max_bytes: args.max_bytes.or_else(crate::local::default_max_bytes),
            allowed_origins: args
                .allow_origin
                .iter()
                .map(|o| origin(o))
                .collect::<anyhow::Result<_>>()?,
            inspection: !args.no_inspection,
        })
    }
}

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
fn environment(endpoint: &str, settings: &LocalSettings) -> Vec<String> {
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

/// The endpoint clients should use: an unspecified bind address (0.0.0.0, ::) is reachable
/// locally through loopback.
fn client_endpoint(bound: &str, bind: SocketAddr) -> String {
    let loopback = match bind.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        IpAddr::V6(ip) if ip.is_unspecified() => Some(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        _ => None,
    };
    match (loopback, bound.rsplit_once(':')) {
        (Some(IpAddr::V4(ip)), Some((_, port))) => format!("http://{ip}:{port}"),
        (Some(IpAddr::V6(ip)), Some((_, port))) => format!("http://[{ip}]:{port}"),
        _ => bound.to_string(),
    }
}

/// Reads a start-up queue file: JSON when its name ends in `.json`, TOML otherwise.
fn read_init(path: &Path) -> anyhow::Result<InitSpec> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("could not read --init {}", path.display()))?;
    let json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let parsed = if json {
        serde_json::from_str(&text).map_err(anyhow::Error::from)
    } else {
        toml::from_str(&text).map_err(anyhow::Error::from)
    };
    parsed.with_context(|| format!("--init {} is not a valid queue file", path.display()))
}

/// The start-up lines about the data directory and the start-up queues.
fn describe_ready(ready: &Ready, settings: &LocalSettings) -> Vec<String> {
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
fn data_dir_warnings(ready: &Ready, settings: &LocalSettings) -> Vec<String> {
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
fn recover(ctx: &Context, dir: &Path) -> anyhow::Result<()> {
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

pub async fn run(ctx: &Context, settings: LocalSettings) -> anyhow::Result<ExitStatus> {
    let region = settings.region.clone();
    let config = ServerConfig {
        bind: settings.bind,
        hostname: settings.hostname.clone(),
        region: region.clone(),
        account_id: settings.account_id.clone(),
        latency: settings.latency,
        fault_rate: settings.fault_rate,
        entry_fault_rate: settings.entry_fault_rate,
        seed: settings.seed,
        realism: settings.realism,
        data_dir: settings.data_dir.clone(),
        max_bytes: settings.max_bytes,
        allowed_origins: settings.allowed_origins.clone(),
        inspection: settings.inspection,
        init: settings.init.as_deref().map(read_init).transpose()?,
        ..ServerConfig::default()
    };
    if let (true, Some(dir)) = (settings.recover, &settings.data_dir) {
        recover(ctx, dir)?;
    }
    let printer = &ctx.printer;
    let mut printed = Ok(());
    let on_ready = |ready: &Ready| {
        let bound = ready.endpoint.as_str();
        if !settings.bind.ip().is_loopback() {
            printer.warn(format!(
                "listening on {bound}, which is not a loopback address: anyone who can reach it can read and change the queues (the server checks no credentials)"
            ));
        }
        let endpoint = client_endpoint(bound, settings.bind);
        printed = environment(&endpoint, &settings)
            .iter()
            .try_for_each(|line| printer.line(line));
        let _ = printer.flush();
        printer.info(format!(
            "SQS-compatible server on {endpoint} (default region {region}, account {}); any credentials are accepted. Ctrl-C stops it.",
            settings.account_id
        ));
        if !settings.allowed_origins.is_empty() {
            printer.info(format!(
                "answering web pages of {}",
                settings.allowed_origins.join(", ")
            ));
        }
        if let Some(injected) = injected_faults(&settings) {
            printer.info(format!("injecting {injected}"));
        }
        if let Some(line) = describe_realism(&settings) {
            printer.info(line);
        }
        for line in describe_ready(ready, &settings) {
            printer.info(line);
        }
        for line in data_dir_warnings(ready, &settings) {
            printer.warn(line);
        }
    };
    let stats = serve_until(config, on_ready, ctx.interrupt.wait())
        .await
        .map_err(|err| {
            // The server reports a damaged data directory as invalid data.
            if let (Some(dir), std::io::ErrorKind::InvalidData) = (&settings.data_dir, err.kind()) {
                let context = format!(
                    "the data directory {} is damaged; the server did not start and changed nothing",
                    dir.display()
                );
                let hint = format!(
                    "`sqsctl local --data-dir {} --recover` keeps what can still be read, sets the damaged files aside (renamed, never deleted) and reports what was dropped",
                    dir.display()
                );
                return crate::error::with_hint(err, hint).context(context);
            }
            // The server reports start-up queues it cannot create as invalid input.
            let context = match (&settings.init, err.kind()) {
                (Some(file), std::io::ErrorKind::InvalidInput) => {
                    format!("--init {} does not fit the server's queues", file.display())
                }
                _ => format!("could not start the server on {}", settings.bind),
            };
            anyhow::Error::new(err).context(context)
        })?;
    printed.context("could not write the environment lines")?;
    let mut line = format!("stopped after {}", plural(stats.requests, "request"));
    if injected_faults(&settings).is_some() {
        line.push_str(&format!(
            " ({}, {} ambiguous, sending {} and delivering {}; {})",
            plural(stats.injected_errors, "injected error"),
            stats.ambiguous_failures,
            plural(stats.ambiguous_sends, "message"),
            plural(stats.ambiguous_receives, "message"),
            plural(stats.entry_failures, "failed batch entry")
        ));
    }
    ctx.printer.info(line);
    Ok(ExitStatus::Interrupted)
}

/// What the server injects, naming only what is on (`latency 50ms, fault rate 0.1`), or `None`
/// for a server that injects nothing.
fn injected_faults(settings: &LocalSettings) -> Option<String> {
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
fn describe_realism(settings: &LocalSettings) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The values `sqsctl local --help` and docs/local-server.md give for --like-sqs.
    #[test]
    fn like_sqs_is_what_the_help_says() {
        assert_eq!(
            Realism::LIKE_SQS,
            Realism {
                short_poll_sample: 0.5,
                duplicate_rate: 0.01,
                reorder_window: 10,
                count_lag: Duration::from_secs(2),
            }
        );
    }

    #[test]
    fn values_special_to_a_shell_are_quoted() {
        assert_eq!(shell_word("http://127.0.0.1:9324"), "http://127.0.0.1:9324");
        assert_eq!(shell_word("http://[::1]:9324"), "'http://[::1]:9324'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn unspecified_addresses_are_reached_through_loopback() {
        let any: SocketAddr = "0.0.0.0:9324".parse().unwrap_or_else(|_| unreachable!());
        assert_eq!(
            client_endpoint("http://0.0.0.0:9324", any),
            "http://127.0.0.1:9324"
        );
        let local: SocketAddr = "127.0.0.1:9324".parse().unwrap_or_else(|_| unreachable!());
        assert_eq!(
            client_endpoint("http://127.0.0.1:9324", local),
            "http://127.0.0.1:9324"
        );
    }
}
