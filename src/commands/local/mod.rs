//! `sqsctl local`: runs the in-process SQS-compatible server of [`crate::local`] until Ctrl-C.
//!
//! stdout gets the environment a shell evaluates to use the server (`export AWS_ENDPOINT_URL_SQS=...`,
//! the region, and stand-in credentials where the environment has none), the endpoint first;
//! everything else goes to stderr.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::cli::local::LocalArgs;
use crate::client::AwsSettings;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::local::{InitOutcome, InitSpec, Ready, Realism, ServerConfig, UrlStrategy, serve_until};

pub mod health;
mod init_dir;
mod report;

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
    /// Messages one queue may hold in flight.
    pub max_in_flight: usize,
    /// Web origins whose pages the server answers (`--allow-origin`).
    pub allowed_origins: Vec<String>,
    /// Whether the inspection endpoints answer.
    pub inspection: bool,
    /// LocalStack mode (`--localstack`).
    pub localstack: bool,
    /// The queue URL shape; `None` leaves it to the server (plain, or standard in LocalStack
    /// mode).
    pub url_strategy: Option<UrlStrategy>,
    /// `LOCALSTACK_HOST` in LocalStack mode.
    pub url_host: Option<String>,
    /// The init directory, given or LocalStack's when it exists.
    pub init_dir: Option<PathBuf>,
}

/// Where LocalStack's image looks for hooks to run once it is ready.
pub const LOCALSTACK_READY_DIR: &str = "/etc/localstack/init/ready.d";

/// `--like-sqs`'s settings, or the exact ones, with each of its flags given on top (each in its
/// range: their parsers checked).
fn realism(args: &LocalArgs) -> Realism {
    let faults = &args.faults;
    let base = if args.like_sqs {
        Realism::LIKE_SQS
    } else {
        Realism::EXACT
    };
    Realism {
        short_poll_sample: faults.short_poll_sample.unwrap_or(base.short_poll_sample),
        duplicate_rate: faults.duplicate_rate.unwrap_or(base.duplicate_rate),
        reorder_window: faults.reorder_window.unwrap_or(base.reorder_window),
        count_lag: faults.count_lag.unwrap_or(base.count_lag),
    }
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

/// The server's default region where `--region` is not given.
const REGION_VARIABLE: &str = "SQSCTL_LOCAL_REGION";

impl LocalSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: LocalArgs, aws: &AwsSettings) -> anyhow::Result<LocalSettings> {
        // The global --region, else SQSCTL_LOCAL_REGION (for containers, where the server has
        // no command line of its own to speak of); never AWS_REGION, which is the clients'.
        let from_env = std::env::var(REGION_VARIABLE).ok();
        let region = match (aws.region.as_deref(), from_env.as_deref()) {
            (Some(region), _) => {
                if !crate::client::is_region_name(region) {
                    bail!("--region must be a region name such as eu-west-1, got {region:?}");
                }
                region
            }
            (None, Some(region)) => {
                if !crate::client::is_region_name(region) {
                    bail!("{REGION_VARIABLE}={region:?}: must be a region name such as eu-west-1");
                }
                region
            }
            (None, None) => crate::local::DEFAULT_REGION,
        };
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
        let prefixed = matches!(
            args.url_strategy,
            Some(UrlStrategy::Standard | UrlStrategy::Domain)
        );
        if prefixed && !args.localstack && args.hostname.is_none() {
            bail!(
                "--url-strategy {} puts the region in front of the host name, which needs one: give --hostname (such as localhost, whose subdomains are loopback too), or --localstack for localhost.localstack.cloud",
                args.url_strategy.unwrap_or_default()
            );
        }
        let realism = realism(&args);
        let seed = match args.faults.seed {
            None if !realism.is_exact() => Some(random_seed()),
            seed => seed,
        };
        Ok(LocalSettings {
            bind: args.bind,
            region: region.to_string(),
            print_credentials: !aws.environment.has_credentials,
            hostname: args.hostname.clone(),
            account_id: args.account_id,
            // Ranges are checked by their parsers (`cli::local`).
            latency: args.faults.latency.unwrap_or(Duration::ZERO),
            fault_rate: args.faults.fault_rate,
            entry_fault_rate: args.faults.entry_fault_rate,
            seed,
            realism,
            data_dir: args.data_dir,
            recover: args.recover,
            init: args.init,
            max_bytes: args.max_bytes.or_else(crate::local::default_max_bytes),
            max_in_flight: args.max_in_flight,
            allowed_origins: args
                .allow_origin
                .iter()
                .map(|o| origin(o))
                .collect::<anyhow::Result<_>>()?,
            inspection: !args.no_inspection,
            url_strategy: match (args.url_strategy, &args.sqs_endpoint_strategy) {
                (Some(strategy), _) => Some(strategy),
                (None, Some(text)) if args.localstack && !text.trim().is_empty() => Some(
                    text.parse()
                        .map_err(|why| anyhow::anyhow!("SQS_ENDPOINT_STRATEGY: {why}"))?,
                ),
                (None, _) => None,
            },
            url_host: match args.localstack_host {
                Some(host) if args.localstack && !host.trim().is_empty() => {
                    Some(host.trim().to_string())
                }
                _ if args.localstack => args.hostname.clone(),
                _ => None,
            },
            init_dir: args.init_dir.or_else(|| {
                let ready = Path::new(LOCALSTACK_READY_DIR);
                (args.localstack && ready.is_dir()).then(|| ready.to_path_buf())
            }),
            localstack: args.localstack,
        })
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

pub async fn run(ctx: &Context, settings: LocalSettings) -> anyhow::Result<ExitStatus> {
    let region = settings.region.clone();
    let (outcomes, mut reported) = tokio::sync::mpsc::unbounded_channel::<InitOutcome>();
    let (init_steps, init_skipped) = match &settings.init_dir {
        Some(dir) => init_dir::steps(dir)?,
        None => (Vec::new(), Vec::new()),
    };
    for name in &init_skipped {
        ctx.printer.warn(format!(
            "init-dir: {name} is left out: neither a queue file (*.toml, *.json) nor executable"
        ));
    }
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
        max_in_flight: settings.max_in_flight,
        allowed_origins: settings.allowed_origins.clone(),
        inspection: settings.inspection,
        init: settings.init.as_deref().map(read_init).transpose()?,
        localstack: settings.localstack,
        url_strategy: settings.url_strategy,
        url_host: settings.url_host.clone(),
        init_dir: init_steps,
        init_observer: Some(crate::local::InitObserver(std::sync::Arc::new(
            move |outcome| {
                let _ = outcomes.send(outcome);
            },
        ))),
        ..ServerConfig::default()
    };
    if let (true, Some(dir)) = (settings.recover, &settings.data_dir) {
        report::recover(ctx, dir)?;
    }
    let printer = &ctx.printer;
    // Each connection is an open file; the usual soft limit (1,024) is below the default cap.
    let needed = config.open_files_needed();
    match crate::local::raise_open_file_limit() {
        Ok(Some(limit)) if limit < needed => printer.debug(format!(
            "the open-file limit is {limit} (the hard limit), below the {needed} that {} connections need; past it, a new client takes the descriptor of another connection",
            config.max_connections
        )),
        Ok(_) => {}
        Err(err) => printer.debug(format!(
            "could not raise the open-file limit to the hard limit ({err}); {} connections need {needed}",
            config.max_connections
        )),
    }
    let mut printed = Ok(());
    let on_ready = |ready: &Ready| {
        let endpoint = ready.endpoint.as_str();
        if !settings.bind.ip().is_loopback() {
            // The address bound, not the endpoint: for 0.0.0.0 that is a loopback URL.
            printer.warn(format!(
                "listening on {}, which is not a loopback address: anyone who can reach it can read and change the queues (the server checks no credentials)",
                ready.bound
            ));
        }
        printed = report::environment(endpoint, &settings)
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
        if settings.localstack {
            let strategy = settings.url_strategy.unwrap_or(UrlStrategy::Standard);
            printer.info(format!(
                "LocalStack mode: {endpoint}/_localstack/health and {endpoint}/_aws/sqs/messages answer; queue URLs in the {strategy} shape (--url-strategy)"
            ));
        }
        if let Some(injected) = report::injected_faults(&settings) {
            printer.info(format!("injecting {injected}"));
        }
        if let Some(line) = report::describe_realism(&settings) {
            printer.info(line);
        }
        for line in report::describe_ready(ready, &settings) {
            printer.info(line);
        }
        for line in report::data_dir_warnings(ready, &settings) {
            printer.warn(line);
        }
    };
    let served = {
        let serving = serve_until(config, on_ready, ctx.interrupt.wait());
        tokio::pin!(serving);
        loop {
            tokio::select! {
                served = &mut serving => break served,
                Some(outcome) = reported.recv() => init_dir::report(printer, outcome),
            }
        }
    };
    while let Ok(outcome) = reported.try_recv() {
        init_dir::report(printer, outcome);
    }
    let stats = served
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
            // Any other error of the data directory is the directory's, never the address's.
            if let (Some(dir), Some(_)) = (
                &settings.data_dir,
                err.get_ref()
                    .and_then(|e| e.downcast_ref::<sqsctl_local::DiskError>()),
            ) {
                return anyhow::Error::new(err).context(format!(
                    "could not open the data directory {}; the server did not start",
                    dir.display()
                ));
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
    ctx.printer.info(report::stop_line(&stats, &settings));
    Ok(ExitStatus::Interrupted)
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
}
