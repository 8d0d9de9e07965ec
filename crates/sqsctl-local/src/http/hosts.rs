//! Which `Host` headers the server answers. A server bound to a loopback address is meant for this
//! machine only, but a web page can still reach it through a name that resolves to 127.0.0.1 (DNS
//! rebinding); such requests carry the page's host name, so they are refused unless the name is a
//! loopback one or the `--hostname` the server was given (in LocalStack mode, also LocalStack's
//! public loopback name and the names under it). On other binds every host is accepted: the server
//! is on the network by choice.

use std::net::IpAddr;

use crate::error::{ErrorKind, SqsError, excerpt};
use crate::http::queue_urls::{LOCALSTACK_DOMAIN, is_localstack_name};

#[derive(Debug, Clone)]
pub struct HostPolicy {
    restricted: bool,
    hostname: Option<String>,
    /// `localhost.localstack.cloud` and its subdomains, which resolve to 127.0.0.1.
    localstack_names: bool,
}

impl HostPolicy {
    pub fn new(bind: IpAddr, hostname: Option<&str>) -> Self {
        HostPolicy {
            restricted: bind.is_loopback(),
            hostname: hostname.map(|h| h.trim_end_matches('.').to_ascii_lowercase()),
            localstack_names: false,
        }
    }

    /// Also answers LocalStack's loopback name and the names under it.
    pub fn with_localstack_names(mut self) -> Self {
        self.localstack_names = true;
        self
    }

    /// Whether a request with this `Host` header is answered. On a loopback bind a request
    /// without one is refused like one naming an unknown host: what it came through is unknown.
    pub fn allows(&self, host: Option<&str>) -> bool {
        if !self.restricted {
            return true;
        }
        let Some(host) = host else {
            return false;
        };
        let name = name_of(host).trim_end_matches('.').to_ascii_lowercase();
        is_loopback_name(&name)
            || self.hostname.as_deref() == Some(name.as_str())
            || (self.localstack_names && is_localstack_name(&name))
    }

    pub fn refusal(&self, host: Option<&str>) -> SqsError {
        let named = match host {
            Some(host) => format!("Host {}", excerpt(host)),
            None => "A request without a Host header".to_string(),
        };
        SqsError::new(
            ErrorKind::AccessDenied,
            format!(
                "{named} is not served: this server listens on a loopback address and answers only loopback names{}{}.",
                match &self.hostname {
                    Some(name) => format!(" and {name}"),
                    None => String::new(),
                },
                if self.localstack_names {
                    format!(" and {LOCALSTACK_DOMAIN} with the names under it")
                } else {
                    String::new()
                }
            ),
        )
    }
}

/// The name or address of a `Host` header, without its port.
fn name_of(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

fn is_loopback_name(name: &str) -> bool {
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_binds_answer_loopback_names_and_the_configured_one() {
        let policy = HostPolicy::new(
            "127.0.0.1".parse().unwrap_or_else(|_| unreachable!()),
            Some("sqs.test"),
        );
        for host in [
            "127.0.0.1:9324",
            "localhost:1",
            "LOCALHOST",
            "[::1]:9324",
            "127.8.0.1",
            "sqs.test:9324",
            "app.localhost",
        ] {
            assert!(policy.allows(Some(host)), "{host}");
        }
        for host in [
            "evil.example:1",
            "10.0.0.1:9324",
            "localhost.evil.example",
            "[::2]:1",
            "",
        ] {
            assert!(!policy.allows(Some(host)), "{host}");
        }
        // Without a Host header nothing says what name the request came through.
        assert!(!policy.allows(None));
        assert!(
            policy
                .refusal(None)
                .message
                .starts_with("A request without a Host header is not served")
        );
    }

    #[test]
    fn localstack_mode_answers_localstacks_names() {
        let loopback = "127.0.0.1".parse().unwrap_or_else(|_| unreachable!());
        let plain = HostPolicy::new(loopback, None);
        let localstack = HostPolicy::new(loopback, None).with_localstack_names();
        for host in [
            "localhost.localstack.cloud:4566",
            "sqs.us-east-1.localhost.localstack.cloud:4566",
            "eu-west-1.queue.localhost.localstack.cloud",
        ] {
            assert!(!plain.allows(Some(host)), "{host}");
            assert!(localstack.allows(Some(host)), "{host}");
        }
        assert!(!localstack.allows(Some("localhost.localstack.cloud.evil.example")));
    }

    #[test]
    fn other_binds_answer_every_host() {
        let policy = HostPolicy::new("0.0.0.0".parse().unwrap_or_else(|_| unreachable!()), None);
        assert!(policy.allows(Some("queue-host:9324")));
        assert!(policy.allows(None));
    }
}
