//! Which requests a web page may make. The server checks no credentials, so any page open in a
//! browser on this machine could drive it: an `<img>` or a form sends a GET query string or a form
//! POST without a CORS preflight, and the Query protocol reads both. SDKs and command-line clients
//! send neither `Origin` nor `Sec-Fetch-Site`; browsers send `Origin` on every cross-origin POST and
//! `Sec-Fetch-Site` on everything. So a request is refused when it carries an `Origin` that
//! `--allow-origin` does not name, or says it comes from another site; an allowed origin gets the
//! CORS headers it needs to read the answers. What is refused on the grounds of the request itself
//! (state-changing actions through GET, repeated parameters) is decided in [`crate::api`] and
//! [`crate::wire::query_decode`]; the `Host` header in [`crate::http::hosts`].

use crate::error::{ErrorKind, SqsError, excerpt};

/// Headers a page may send in a CORS request to an allowed origin: what the SDKs for browsers send.
const ALLOWED_REQUEST_HEADERS: &str = "authorization, content-type, x-amz-target, x-amz-date, x-amz-security-token, x-amz-user-agent, x-amz-content-sha256, x-amzn-query-mode, amz-sdk-invocation-id, amz-sdk-request";

#[derive(Debug, Clone, Default)]
pub struct OriginPolicy {
    /// Normalized (see [`normalize`]) origins from `--allow-origin`.
    allowed: Vec<String>,
}

/// The browser headers of a request that decide whether it is answered.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserHeaders<'a> {
    pub origin: Option<&'a str>,
    pub fetch_site: Option<&'a str>,
}

/// Origins compare case-insensitively on scheme and host, and without a trailing slash.
fn normalize(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

impl OriginPolicy {
    pub fn new<S: AsRef<str>>(allowed: &[S]) -> Self {
        OriginPolicy {
            allowed: allowed.iter().map(|o| normalize(o.as_ref())).collect(),
        }
    }

    fn allows(&self, origin: &str) -> bool {
        self.allowed.contains(&normalize(origin))
    }

    /// Checks a request's browser headers: `Ok(Some(origin))` for a request from an allowed
    /// origin (its answer carries CORS headers), `Ok(None)` for one from no browser page.
    pub fn check<'a>(&self, headers: BrowserHeaders<'a>) -> Result<Option<&'a str>, SqsError> {
        if let Some(origin) = headers.origin {
            if self.allows(origin) {
                return Ok(Some(origin));
            }
            return Err(SqsError::new(
                ErrorKind::AccessDenied,
                format!(
                    "Requests from the web origin {} are refused: a web page could otherwise change your queues. Start the server with --allow-origin {} to allow it.",
                    excerpt(origin),
                    excerpt(origin)
                ),
            ));
        }
        match headers.fetch_site.map(str::to_ascii_lowercase).as_deref() {
            Some(site @ ("cross-site" | "same-site")) => Err(SqsError::new(
                ErrorKind::AccessDenied,
                format!(
                    "Requests a browser makes for another site (Sec-Fetch-Site: {site}) are refused: a web page could otherwise change your queues. Pages of an origin named by --allow-origin are answered."
                ),
            )),
            _ => Ok(None),
        }
    }

    /// The headers that let a page of an allowed origin read an answer.
    pub fn cors_headers(origin: &str) -> Vec<(&'static str, String)> {
        vec![
            ("access-control-allow-origin", origin.to_string()),
            ("vary", "Origin".to_string()),
            (
                "access-control-expose-headers",
                "x-amzn-requestid, x-amzn-query-error".to_string(),
            ),
        ]
    }

    /// The answer headers of a CORS preflight (`OPTIONS`) from an allowed origin.
    pub fn preflight_headers(origin: &str) -> Vec<(&'static str, String)> {
        let mut headers = Self::cors_headers(origin);
        headers.push(("access-control-allow-methods", "GET, POST".to_string()));
        headers.push((
            "access-control-allow-headers",
            ALLOWED_REQUEST_HEADERS.to_string(),
        ));
        headers.push(("access-control-max-age", "600".to_string()));
        headers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(policy: &OriginPolicy, origin: Option<&str>, site: Option<&str>) -> bool {
        policy
            .check(BrowserHeaders {
                origin,
                fetch_site: site,
            })
            .is_ok()
    }

    #[test]
    fn pages_are_refused_unless_their_origin_is_allowed() {
        let policy = OriginPolicy::new(&["http://localhost:3000/"]);
        assert!(check(&policy, None, None));
        assert!(check(&policy, None, Some("none")));
        assert!(check(&policy, None, Some("same-origin")));
        assert!(!check(&policy, None, Some("cross-site")));
        assert!(!check(&policy, None, Some("Same-Site")));
        assert!(!check(&policy, Some("https://evil.example"), None));
        assert!(!check(&policy, Some("null"), None));
        assert!(check(
            &policy,
            Some("HTTP://LOCALHOST:3000"),
            Some("cross-site")
        ));
        assert!(!check(&policy, Some("http://localhost:3001"), None));
        assert!(!check(
            &OriginPolicy::default(),
            Some("http://localhost:3000"),
            None
        ));
    }
}
