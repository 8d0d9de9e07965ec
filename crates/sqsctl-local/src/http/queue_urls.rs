//! The shapes of the queue URLs the server hands out, and what a URL's host says about its queue.
//!
//! By default a queue URL is `<endpoint>/<account>/<name>` (another region than the default one
//! adds `<region>/` before the account). The other strategies are LocalStack's, for code written
//! against it: `standard` puts the region in the host (`sqs.<region>.<host>`), `domain` as
//! `<region>.queue.<host>` (`queue.<host>` for us-east-1), `path` in the path
//! (`<host>/queue/<region>/...`), `off` nowhere, and `dynamic` picks one of the first three and
//! the host from the request's `Host` header, so that one URL works from wherever it was asked
//! for. Every shape handed out is also accepted back: [`region_of_host`] reads the region from a
//! URL's host, the path segments give the rest.

use std::fmt;
use std::str::FromStr;

/// The region LocalStack's `domain` strategy leaves out of the host.
const DOMAIN_DEFAULT_REGION: &str = "us-east-1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UrlStrategy {
    /// `<endpoint>/[<region>/]<account>/<name>`, the region only when it is not the default one.
    #[default]
    Plain,
    Standard,
    Domain,
    Path,
    Off,
    Dynamic,
}

impl UrlStrategy {
    pub const NAMES: [&'static str; 6] = ["plain", "standard", "domain", "path", "off", "dynamic"];
}

impl FromStr for UrlStrategy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "plain" => UrlStrategy::Plain,
            "standard" => UrlStrategy::Standard,
            "domain" => UrlStrategy::Domain,
            "path" => UrlStrategy::Path,
            "off" => UrlStrategy::Off,
            "dynamic" => UrlStrategy::Dynamic,
            _ => {
                return Err(format!(
                    "{text:?} is not a URL strategy (one of {})",
                    UrlStrategy::NAMES.join(", ")
                ));
            }
        })
    }
}

impl fmt::Display for UrlStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index = match self {
            UrlStrategy::Plain => 0,
            UrlStrategy::Standard => 1,
            UrlStrategy::Domain => 2,
            UrlStrategy::Path => 3,
            UrlStrategy::Off => 4,
            UrlStrategy::Dynamic => 5,
        };
        f.write_str(UrlStrategy::NAMES[index])
    }
}

/// How queue URLs are built: the strategy and the `host:port` they are built on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueUrls {
    pub strategy: UrlStrategy,
    /// `http://host:port`, without a trailing slash.
    pub base: String,
}

impl QueueUrls {
    /// The URL of queue `name` of `region`. `default_region` is the server's; `request_host` the
    /// `Host` header of the request that asks, which only `dynamic` reads.
    pub fn url(
        &self,
        default_region: &str,
        region: &str,
        account: &str,
        name: &str,
        request_host: Option<&str>,
    ) -> String {
        let (scheme, host) = self
            .base
            .split_once("://")
            .unwrap_or(("http", self.base.as_str()));
        let (strategy, host) = match (self.strategy, request_host) {
            (UrlStrategy::Dynamic, Some(asked)) if !asked.is_empty() => guess(asked),
            (UrlStrategy::Dynamic, _) => (UrlStrategy::Path, host),
            (strategy, _) => (strategy, host),
        };
        match strategy {
            UrlStrategy::Plain if region == default_region => {
                format!("{scheme}://{host}/{account}/{name}")
            }
            UrlStrategy::Plain => format!("{scheme}://{host}/{region}/{account}/{name}"),
            UrlStrategy::Standard => format!("{scheme}://sqs.{region}.{host}/{account}/{name}"),
            UrlStrategy::Domain if region == DOMAIN_DEFAULT_REGION => {
                format!("{scheme}://queue.{host}/{account}/{name}")
            }
            UrlStrategy::Domain => format!("{scheme}://{region}.queue.{host}/{account}/{name}"),
            UrlStrategy::Path => format!("{scheme}://{host}/queue/{region}/{account}/{name}"),
            UrlStrategy::Off | UrlStrategy::Dynamic => {
                format!("{scheme}://{host}/{account}/{name}")
            }
        }
    }
}

/// The strategy and base host `dynamic` reads from a request's `Host`: `sqs.<region>.<host>` is
/// `standard`, `queue.<host>` and `<region>.queue.<host>` are `domain`, anything else `path` on
/// the host as given.
fn guess(asked: &str) -> (UrlStrategy, &str) {
    if let Some(rest) = asked.strip_prefix("sqs.") {
        let after_region = rest.split_once('.').map_or("", |(_, host)| host);
        return (UrlStrategy::Standard, after_region);
    }
    if let Some(rest) = asked.strip_prefix("queue.") {
        return (UrlStrategy::Domain, rest);
    }
    let mut parts = asked.splitn(3, '.');
    if let (Some(_region), Some("queue"), Some(rest)) = (parts.next(), parts.next(), parts.next()) {
        return (UrlStrategy::Domain, rest);
    }
    (UrlStrategy::Path, asked)
}

/// The region a queue URL's host names: `sqs.<region>.…` (standard), `<region>.queue.…` or
/// `queue.…` for us-east-1 (domain); `None` for a host that names none.
pub fn region_of_host(host: &str) -> Option<&str> {
    let host = host.trim_end_matches('.');
    if let Some(rest) = host.strip_prefix("sqs.") {
        return rest.split_once('.').map(|(region, _)| region);
    }
    if host.starts_with("queue.") {
        return Some(DOMAIN_DEFAULT_REGION);
    }
    let mut parts = host.splitn(3, '.');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(region), Some("queue"), Some(_)) => Some(region),
        _ => None,
    }
}

/// LocalStack's public name for this machine (it resolves to 127.0.0.1), and the base of its
/// queue URLs.
pub const LOCALSTACK_DOMAIN: &str = "localhost.localstack.cloud";

/// Whether a host name is LocalStack's or one under it (`sqs.us-east-1.localhost.localstack.cloud`).
pub fn is_localstack_name(name: &str) -> bool {
    name == LOCALSTACK_DOMAIN
        || name
            .strip_suffix(LOCALSTACK_DOMAIN)
            .is_some_and(|prefix| prefix.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(strategy: UrlStrategy) -> QueueUrls {
        QueueUrls {
            strategy,
            base: "http://localhost.localstack.cloud:4566".into(),
        }
    }

    #[test]
    fn each_strategy_builds_localstacks_shape() {
        let url = |s, region| urls(s).url("us-east-1", region, "000000000000", "q", None);
        assert_eq!(
            url(UrlStrategy::Standard, "eu-west-1"),
            "http://sqs.eu-west-1.localhost.localstack.cloud:4566/000000000000/q"
        );
        assert_eq!(
            url(UrlStrategy::Domain, "us-east-1"),
            "http://queue.localhost.localstack.cloud:4566/000000000000/q"
        );
        assert_eq!(
            url(UrlStrategy::Domain, "eu-west-1"),
            "http://eu-west-1.queue.localhost.localstack.cloud:4566/000000000000/q"
        );
        assert_eq!(
            url(UrlStrategy::Path, "eu-west-1"),
            "http://localhost.localstack.cloud:4566/queue/eu-west-1/000000000000/q"
        );
        assert_eq!(
            url(UrlStrategy::Off, "eu-west-1"),
            "http://localhost.localstack.cloud:4566/000000000000/q"
        );
        assert_eq!(
            url(UrlStrategy::Plain, "eu-west-1"),
            "http://localhost.localstack.cloud:4566/eu-west-1/000000000000/q"
        );
    }

    #[test]
    fn dynamic_follows_the_requests_host() {
        let dynamic = urls(UrlStrategy::Dynamic);
        let url = |host| dynamic.url("us-east-1", "eu-west-1", "000000000000", "q", Some(host));
        assert_eq!(
            url("sqs.eu-west-1.localhost.localstack.cloud:4566"),
            "http://sqs.eu-west-1.localhost.localstack.cloud:4566/000000000000/q"
        );
        assert_eq!(
            url("queue.example:80"),
            "http://eu-west-1.queue.example:80/000000000000/q"
        );
        assert_eq!(
            url("localstack:4566"),
            "http://localstack:4566/queue/eu-west-1/000000000000/q"
        );
    }

    #[test]
    fn hosts_name_their_region() {
        assert_eq!(
            region_of_host("sqs.eu-west-1.localhost.localstack.cloud:4566"),
            Some("eu-west-1")
        );
        assert_eq!(
            region_of_host("ap-south-1.queue.example"),
            Some("ap-south-1")
        );
        assert_eq!(
            region_of_host("queue.localhost.localstack.cloud"),
            Some("us-east-1")
        );
        assert_eq!(region_of_host("localhost:4566"), None);
        assert_eq!(region_of_host("127.0.0.1:9324"), None);
    }

    #[test]
    fn localstack_names() {
        assert!(is_localstack_name("localhost.localstack.cloud"));
        assert!(is_localstack_name(
            "sqs.us-east-1.localhost.localstack.cloud"
        ));
        assert!(!is_localstack_name("evillocalhost.localstack.cloud"));
        assert!(!is_localstack_name("localhost.localstack.cloud.evil"));
    }
}
