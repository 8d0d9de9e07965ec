//! The LocalStack halves of the tests. Each is `#[ignore]`d with the reason, so a plain
//! `cargo test` lists them as ignored instead of passing them without running; `.ci/run` starts
//! LocalStack and runs them with `cargo test --test it localstack -- --ignored`. Every such test has
//! `localstack` in its name (its module or its function), which is how they are selected.

use std::net::{TcpStream, ToSocketAddrs};
use std::sync::OnceLock;
use std::time::Duration;

/// Where the LocalStack halves run, e.g. `http://[::1]:4566`.
pub const LOCALSTACK_ENDPOINT_VAR: &str = "SQSCTL_LOCALSTACK_ENDPOINT";

/// The LocalStack endpoint from `SQSCTL_LOCALSTACK_ENDPOINT`, checked once per test binary to
/// accept TCP connections.
///
/// # Panics
/// When the variable is not set or the endpoint is not reachable: a LocalStack half that runs
/// (it is ignored unless asked for) never passes without LocalStack.
pub fn localstack() -> String {
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
        Ok(endpoint) => endpoint.clone(),
        Err(problem) => panic!(
            "this test needs LocalStack, but {problem} (scripts/localstack.sh start; \
             {LOCALSTACK_ENDPOINT_VAR}='http://[::1]:4566')"
        ),
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
