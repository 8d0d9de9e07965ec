//! Which requests a web page may make. The server checks no credentials, so any page open in a
//! browser on this machine could drive it: an `<img>`, a link or a form sends a GET query string or
//! a form POST without a CORS preflight, and the Query protocol reads both. SDKs and command-line
//! clients send neither `Origin` nor `Sec-Fetch-*`; browsers send `Origin` on every cross-origin
//! POST and the `Sec-Fetch-*` headers on whatever they fetch from a loopback address or over
//! HTTPS. So a request is refused when it carries an `Origin` that `--allow-origin` does not name,
//! or says it comes from another site; an allowed origin gets the CORS headers it needs to read the
//! answers. A state change through GET is served, as SQS serves it, unless a browser sends it as a
//! navigation or for a page's content ([`OriginPolicy::browser_fetch`]): a link opened from a mail
//! says `Sec-Fetch-Site: none`, but also `Sec-Fetch-Mode: navigate`. Repeated parameters are
//! refused in [`crate::wire::query_decode`]; the `Host` header is checked in [`crate::http::hosts`].

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
    pub fetch_mode: Option<&'a str>,
    pub fetch_dest: Option<&'a str>,
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

    /// What makes a request a browser's navigation or a fetch for a page's content (an image, a
    /// frame, a script, a form's target), as `Sec-Fetch-Mode: navigate` or `Sec-Fetch-Dest: image`;
    /// `None` for a request no browser marked so (a program's, or a page's `fetch`, which the
    /// `Origin` check covers). A state change through GET is refused on it: such requests are what
    /// a page or a link can make a browser send, with no `Origin` and, from a link opened outside
    /// the browser, `Sec-Fetch-Site: none`.
    pub fn browser_fetch(headers: BrowserHeaders<'_>) -> Option<String> {
        let mode = headers.fetch_mode.map(str::to_ascii_lowercase);
        if let Some(mode @ ("navigate" | "nested-navigate" | "no-cors" | "websocket")) =
            mode.as_deref()
        {
            return Some(format!("Sec-Fetch-Mode: {mode}"));
        }
        let dest = headers.fetch_dest.map(str::to_ascii_lowercase);
        match dest.as_deref() {
            None | Some("empty") => None,
            Some(dest) => Some(format!("Sec-Fetch-Dest: {}", excerpt(dest))),
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
                ..BrowserHeaders::default()
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

    #[test]
    fn navigations_and_subresources_are_what_browsers_mark() {
        let fetch = |mode: Option<&str>, dest: Option<&str>| {
            OriginPolicy::browser_fetch(BrowserHeaders {
                fetch_mode: mode,
                fetch_dest: dest,
                ..BrowserHeaders::default()
            })
        };
        assert_eq!(fetch(None, None), None);
        assert_eq!(fetch(Some("cors"), Some("empty")), None);
        assert_eq!(fetch(Some("same-origin"), None), None);
        assert!(fetch(Some("navigate"), Some("document")).is_some());
        assert!(fetch(Some("Nested-Navigate"), None).is_some());
        assert!(fetch(Some("no-cors"), Some("image")).is_some());
        assert!(fetch(None, Some("iframe")).is_some());
        assert!(fetch(Some("cors"), Some("script")).is_some());
    }
}
