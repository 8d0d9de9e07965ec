//! The switch that decides whether the LocalStack half of a test runs, is skipped, or must fail.
//! Every such test has `localstack` in its name (its module or its function), which is how CI
//! selects them: `cargo test --test it localstack`.

use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Once, OnceLock};
use std::time::Duration;

/// Where the LocalStack half of a test runs, e.g. `http://[::1]:4566`.
pub const LOCALSTACK_ENDPOINT_VAR: &str = "SQSCTL_LOCALSTACK_ENDPOINT";
/// Set to `1` (as CI does) to make a missing or unreachable LocalStack a failure, not a skip.
pub const REQUIRE_LOCALSTACK_VAR: &str = "SQSCTL_REQUIRE_LOCALSTACK";

/// What to do about the LocalStack half of a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocalStack {
    /// Run against this endpoint.
    At(String),
    /// Skip, and say why.
    Skip(String),
}

/// Reads `SQSCTL_LOCALSTACK_ENDPOINT` and `SQSCTL_REQUIRE_LOCALSTACK`, and checks once per test
/// binary that the endpoint accepts TCP connections. A skip is announced once on stderr, past the
/// test harness's capture, so a plain `cargo test` shows that the comparison did not run.
///
/// # Panics
/// When LocalStack is required but not configured or not reachable, so that CI can never skip
/// the comparison silently.
pub fn localstack() -> LocalStack {
    static DECISION: OnceLock<Result<String, String>> = OnceLock::new();
    let decision = DECISION.get_or_init(|| match std::env::var(LOCALSTACK_ENDPOINT_VAR) {
        Ok(endpoint) if !endpoint.trim().is_empty() => match check_reachable(&endpoint) {
            Ok(()) => Ok(endpoint),
            Err(why) => Err(format!(
                "{LOCALSTACK_ENDPOINT_VAR}={endpoint} is not reachable: {why}"
            )),
        },
        _ => Err(format!("{LOCALSTACK_ENDPOINT_VAR} is not set")),
    });
    match decision {
        Ok(endpoint) => LocalStack::At(endpoint.clone()),
        Err(problem) => {
            let required = std::env::var(REQUIRE_LOCALSTACK_VAR).is_ok_and(|v| v == "1");
            assert!(
                !required,
                "{REQUIRE_LOCALSTACK_VAR}=1 but {problem} (start it with scripts/localstack.sh start)"
            );
            static ANNOUNCED: Once = Once::new();
            ANNOUNCED.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "note: the LocalStack halves of these tests are skipped: {problem} \
                     (scripts/localstack.sh start; SQSCTL_LOCALSTACK_ENDPOINT=http://[::1]:4566)"
                );
            });
            LocalStack::Skip(problem.clone())
        }
    }
}

fn check_reachable(endpoint: &str) -> Result<(), String> {
    let authority = endpoint
        .split_once("://")
        .map_or(endpoint, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or_default();
    let with_port = if authority
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.parse::<u16>().is_ok())
    {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    let addrs = with_port
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {with_port}: {e}"))?;
    let mut last_error = format!("no address for {with_port}");
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
            Ok(_) => return Ok(()),
            Err(e) => last_error = format!("{addr}: {e}"),
        }
    }
    Err(last_error)
}
