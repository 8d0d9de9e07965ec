//! `sqsctl local`: runs the in-process SQS-compatible server of [`crate::local`] until Ctrl-C.
//!
//! stdout gets one line a shell can evaluate (`export AWS_ENDPOINT_URL_SQS=...`); everything else
//! goes to stderr.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use anyhow::{Context as _, bail};

use crate::cli::local::LocalArgs;
use crate::commands::context::Context;
use crate::exit::ExitStatus;
use crate::local::{ServerConfig, serve_until};

#[derive(Debug, Clone)]
pub struct LocalSettings {
    pub bind: SocketAddr,
    pub account_id: String,
    pub latency: Duration,
    pub fault_rate: f64,
    pub entry_fault_rate: f64,
    pub seed: Option<u64>,
}

fn rate(name: &str, value: f64) -> anyhow::Result<f64> {
    if !(0.0..=1.0).contains(&value) {
        bail!("--{name} must be between 0 and 1, got {value}");
    }
    Ok(value)
}

impl LocalSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: LocalArgs) -> anyhow::Result<LocalSettings> {
        if args.account_id.len() != 12 || !args.account_id.bytes().all(|b| b.is_ascii_digit()) {
            bail!("--account-id must be 12 digits, got {:?}", args.account_id);
        }
        Ok(LocalSettings {
            bind: args.bind,
            account_id: args.account_id,
            latency: args.latency.unwrap_or(Duration::ZERO),
            fault_rate: rate("fault-rate", args.fault_rate)?,
            entry_fault_rate: rate("entry-fault-rate", args.entry_fault_rate)?,
            seed: args.seed,
        })
    }
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

pub async fn run(ctx: &Context, settings: LocalSettings) -> anyhow::Result<ExitStatus> {
    let region = ctx
        .aws_settings()
        .region
        .clone()
        .unwrap_or_else(|| "us-east-1".to_string());
    let config = ServerConfig {
        bind: settings.bind,
        region: region.clone(),
        account_id: settings.account_id.clone(),
        latency: settings.latency,
        fault_rate: settings.fault_rate,
        entry_fault_rate: settings.entry_fault_rate,
        seed: settings.seed,
        ..ServerConfig::default()
    };
    let printer = &ctx.printer;
    let mut printed = Ok(());
    let on_ready = |bound: &str| {
        if !settings.bind.ip().is_loopback() {
            printer.warn(format!(
                "listening on {bound}, which is not a loopback address: anyone who can reach it can read and change the queues (the server checks no credentials)"
            ));
        }
        let endpoint = client_endpoint(bound, settings.bind);
        printed = printer.line(&format!("export AWS_ENDPOINT_URL_SQS={endpoint}"));
        let _ = printer.flush();
        printer.info(format!(
            "SQS-compatible server on {endpoint} (region {region}, account {}); any credentials are accepted. Ctrl-C stops it.",
            settings.account_id
        ));
        if settings.fault_rate > 0.0
            || settings.entry_fault_rate > 0.0
            || !settings.latency.is_zero()
        {
            printer.info(format!(
                "injecting latency {:?}, fault rate {}, entry fault rate {}",
                settings.latency, settings.fault_rate, settings.entry_fault_rate
            ));
        }
    };
    let stats = serve_until(config, on_ready, ctx.interrupt.wait())
        .await
        .with_context(|| format!("could not listen on {}", settings.bind))?;
    printed.context("could not write the endpoint line")?;
    ctx.printer.info(format!(
        "stopped after {} requests ({} injected errors, {} ambiguous, sending {} messages; {} failed batch entries)",
        stats.requests,
        stats.injected_errors,
        stats.ambiguous_failures,
        stats.ambiguous_sends,
        stats.entry_failures
    ));
    Ok(ExitStatus::Interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

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
