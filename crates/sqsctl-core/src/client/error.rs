//! Typed errors of the client layer, classified once from the SDK's error shapes.
//!
//! Commands match on [`ClientError`] to choose exit codes and hints; the raw SDK error is kept as
//! the source so `--verbose` can show it. Nothing here ever formats credentials or signatures: only
//! error codes and the service's own messages are kept, and every text the endpoint sent (a message,
//! a foreign body, a header) passes through [`KnownSecrets::redact_all`] first (the values of the
//! credentials in use, and whatever looks like a credential), since a proxy may echo the request's
//! `Authorization` header or session token.

use std::time::Duration;

use aws_sdk_sqs::error::{ProvideErrorMetadata, SdkError};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;

use super::redact::KnownSecrets;

/// Error codes SQS and the SDK use for throttling.
const THROTTLE_CODES: &[&str] = &[
    "RequestThrottled",
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "RequestLimitExceeded",
    "KmsThrottled",
    "KMS.ThrottlingException",
];

const AUTH_CODES: &[&str] = &[
    "InvalidClientTokenId",
    "UnrecognizedClientException",
    "SignatureDoesNotMatch",
    "AccessDenied",
    "AccessDeniedException",
    "InvalidSecurity",
    "ExpiredToken",
    "ExpiredTokenException",
    "IncompleteSignature",
    "MissingAuthenticationToken",
    "InvalidSignatureException",
];

/// True for the codes that mean the credentials or the signature were refused, which get the
/// credentials hint rather than a generic service error.
fn is_auth_code(code: &str) -> bool {
    AUTH_CODES.contains(&code)
}

const QUEUE_NOT_FOUND_CODES: &[&str] = &[
    "AWS.SimpleQueueService.NonExistentQueue",
    "QueueDoesNotExist",
];

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("queue `{queue}` does not exist ({})", place(.account.as_deref(), .region))]
    QueueNotFound {
        queue: String,
        region: String,
        /// The account searched, when the queue was given by a URL that names one.
        account: Option<String>,
        /// The caller's queues with similar names, when the lookup ([`super::Sqs::lookup`])
        /// listed them; `None` when it did not look.
        similar: Option<Vec<String>>,
    },
    #[error("no AWS region is configured")]
    NoRegion,
    #[error("`{region}` (from {from}) is not an AWS region name")]
    InvalidRegion { region: String, from: &'static str },
    #[error("the AWS profile `{name}` does not exist in {files}")]
    UnknownProfile {
        name: String,
        /// The profiles that do exist, sorted.
        known: Vec<String>,
        files: String,
        /// Why the files could not be read, when they could not.
        problem: Option<String>,
    },
    #[error("no AWS credentials found")]
    NoCredentials {
        detail: String,
        /// The profile that was looked in: `--profile` or `AWS_PROFILE`; `None` for `default`.
        profile: Option<String>,
        /// The profile files that were looked in.
        files: String,
    },
    #[error("SQS rejected the credentials ({code}): {message}")]
    Auth { code: String, message: String },
    #[error("SQS throttled {action} ({code}) and retries did not get through")]
    Throttled { action: &'static str, code: String },
    #[error("{action} failed: {code}: {message}")]
    Service {
        action: &'static str,
        code: String,
        message: String,
    },
    #[error("could not reach SQS for {action}: {message}")]
    Transport {
        action: &'static str,
        message: String,
    },
    #[error("{endpoint} did not answer {action} in time ({message}{cost})")]
    Timeout {
        action: &'static str,
        endpoint: String,
        message: String,
        /// What the call cost, retries included (`; 2 attempts, 4.0 s in all`), or empty.
        cost: String,
    },
    #[error(
        "{endpoint} did not answer {action} as SQS does: HTTP {status}, {content_type}, body: {body}"
    )]
    NotSqs {
        action: &'static str,
        endpoint: String,
        status: u16,
        content_type: String,
        /// The first bytes of the body, on one line.
        body: String,
    },
    #[error("`{url}` is not a valid endpoint URL")]
    InvalidEndpoint { url: String },
    /// SQS's endpoint rules refuse the settings in effect (FIPS or dual-stack with a custom
    /// endpoint, a region they cannot place): no request was made.
    #[error("no endpoint for these settings: {reason}")]
    EndpointRules { reason: String },
    /// The endpoint the environment chooses is not a URL: the variable, its value (without
    /// userinfo) and why.
    #[error("{variable}={value:?}: {why}")]
    InvalidEndpointVariable {
        variable: &'static str,
        value: String,
        why: String,
    },
    #[error("{0}")]
    InvalidInput(String),
}

/// Checks an endpoint URL the way a user means it: `http` or `https`, `://`, a host.
pub fn check_endpoint_url(text: &str) -> Result<(), String> {
    let invalid = |why: &str| {
        Err(format!(
            "not a valid endpoint URL ({why}); expected e.g. http://127.0.0.1:9324 or https://sqs.us-east-1.amazonaws.com"
        ))
    };
    let Some((scheme, rest)) = text.split_once("://") else {
        return invalid("no http:// or https://");
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return invalid("the scheme must be http or https");
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return invalid("it contains spaces");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((host, after)) => (host, after.strip_prefix(':')),
            None => return invalid("an unclosed [ in the host"),
        },
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return invalid("no host");
    }
    if port.is_some_and(|p| p.parse::<u16>().is_err()) {
        return invalid("the port must be a number 0-65535");
    }
    Ok(())
}

impl ClientError {
    /// The error with what its call cost, where that is what it is about: a timeout says how
    /// many attempts waited and how long in all (`attempts` 0 when they were not counted).
    pub fn with_cost(mut self, attempts: u32, waited: Duration) -> ClientError {
        if let ClientError::Timeout { cost, .. } = &mut self {
            let attempts = match attempts {
                0 => String::new(),
                1 => "1 attempt, ".to_string(),
                n => format!("{n} attempts, "),
            };
            *cost = format!("; {attempts}{:.1} s in all", waited.as_secs_f64());
        }
        self
    }

    /// Whether the endpoint did not answer (or could not be reached) in time.
    pub fn is_timeout(&self) -> bool {
        matches!(self, ClientError::Timeout { .. })
    }

    /// The service error code, when SQS answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Auth { code, .. }
            | ClientError::Throttled { code, .. }
            | ClientError::Service { code, .. } => Some(code),
            ClientError::QueueNotFound { .. } => Some("AWS.SimpleQueueService.NonExistentQueue"),
            _ => None,
        }
    }

    pub fn is_throttle_code(code: &str) -> bool {
        THROTTLE_CODES.contains(&code)
    }

    /// Whether SQS said the caller is sending too fast.
    pub fn is_throttling(&self) -> bool {
        match self {
            ClientError::Throttled { .. } => true,
            ClientError::Service { code, .. } => Self::is_throttle_code(code),
            _ => false,
        }
    }

    /// Classifies an SDK error. `queue` names the queue the call was about, for not-found errors;
    /// `site` says where the call went, for errors about the endpoint itself.
    pub fn from_sdk<E>(
        action: &'static str,
        queue: Option<&str>,
        site: &CallSite<'_>,
        err: SdkError<E, HttpResponse>,
    ) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        if let SdkError::ServiceError(service) = &err {
            let Some(code) = service.err().code().map(str::to_string) else {
                // Every SQS error names its code; an answer without one came from something else.
                return not_sqs(action, site, service.raw());
            };
            let message = site
                .secrets
                .redact_all(service.err().message().unwrap_or(""))
                .into_owned();
            if QUEUE_NOT_FOUND_CODES.contains(&code.as_str()) {
                return ClientError::QueueNotFound {
                    queue: queue.unwrap_or("?").to_string(),
                    region: site.region.to_string(),
                    account: None,
                    similar: None,
                };
            }
            if is_auth_code(&code) {
                return ClientError::Auth { code, message };
            }
            if Self::is_throttle_code(&code) {
                return ClientError::Throttled { action, code };
            }
            return ClientError::Service {
                action,
                code,
                message,
            };
        }
        if let SdkError::ResponseError(response) = &err {
            return not_sqs(action, site, response.raw());
        }
        if let Some(refused) = endpoint_rules_error(&err) {
            return ClientError::EndpointRules {
                reason: site.secrets.redact_all(&refused.to_string()).into_owned(),
            };
        }
        let chain = site.secrets.redact_all(&error_chain(&err)).into_owned();
        let timed_out = matches!(&err, SdkError::TimeoutError(_))
            || matches!(&err, SdkError::DispatchFailure(failure) if failure.is_timeout());
        if timed_out {
            let message =
                if matches!(&err, SdkError::TimeoutError(_)) {
                    format!(
                        "a call may take {} at most: the longer of {} and {} times {}",
                        humantime::format_duration(site.connect_timeout.max(
                            (site.read_timeout + site.long_poll) * super::MAX_TIMED_OUT_ATTEMPTS
                        )),
                        site.names.connect_timeout,
                        super::MAX_TIMED_OUT_ATTEMPTS,
                        site.read_wait()
                    )
                } else if chain.contains("connect") {
                    format!(
                        "no connection within {} ({})",
                        humantime::format_duration(site.connect_timeout),
                        site.names.connect_timeout
                    )
                } else {
                    format!("no answer within {}", site.read_wait())
                };
            return ClientError::Timeout {
                action,
                endpoint: site.endpoint.to_string(),
                message,
                cost: String::new(),
            };
        }
        // The last provider of the chain is the instance metadata service, so a machine with no
        // credentials at all ends on an IMDS error that says nothing about credentials.
        if chain.contains("no credentials")
            || chain.contains("while loading credentials")
            || chain.contains("credentials provider")
            || chain.contains("the credential provider was not enabled")
        {
            return ClientError::NoCredentials {
                detail: chain,
                profile: site.profile.map(str::to_string),
                files: site.profile_files.to_string(),
            };
        }
        // An endpoint the SDK cannot use (from AWS_ENDPOINT_URL_SQS, say) fails every request with
        // a debug print of the request in the message: name the endpoint and nothing else.
        if let Some(rest) = chain
            .split_once("failed to apply endpoint `")
            .map(|(_, r)| r)
        {
            let url = rest.split('`').next().unwrap_or("").to_string();
            return ClientError::InvalidEndpoint {
                url: super::redact_url(&url),
            };
        }
        ClientError::Transport {
            action,
            message: chain,
        }
    }
}

/// Where a call went: what errors about the endpoint itself name.
#[derive(Debug, Clone, Copy)]
pub struct CallSite<'a> {
    pub region: &'a str,
    /// The endpoint as it may be printed (no userinfo).
    pub endpoint: &'a str,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    /// What a long poll added to the read timeout (zero for other calls).
    pub long_poll: Duration,
    /// What the timeouts are called where they were set.
    pub names: super::SettingNames,
    /// The profile credentials came from (`--profile` or `AWS_PROFILE`); `None` for `default`.
    pub profile: Option<&'a str>,
    /// The profile files, named with it.
    pub profile_files: &'a str,
    /// The values of the credentials in use, left out of every text the endpoint sent.
    pub secrets: &'a KnownSecrets,
}

impl CallSite<'_> {
    /// How long one attempt waited for an answer, in words that name the options behind it.
    fn read_wait(&self) -> String {
        let read = humantime::format_duration(self.read_timeout);
        let name = self.names.read_timeout;
        if self.long_poll.is_zero() {
            format!("{read} ({name})")
        } else {
            format!(
                "{} ({name} {read}, plus {} for the long poll)",
                humantime::format_duration(self.read_timeout + self.long_poll),
                humantime::format_duration(self.long_poll)
            )
        }
    }
}

/// Most characters of a foreign answer's body quoted in an error.
const BODY_QUOTE_CHARS: usize = 200;
/// Most bytes of a foreign answer's body read to quote it: the secrets are removed from all of it
/// before it is cut, so that a cut never leaves half a secret that no pattern recognises.
const BODY_SCAN_BYTES: usize = 64 * 1024;

/// An answer that is not SQS's: its status, its content type and the start of its body.
fn not_sqs(action: &'static str, site: &CallSite<'_>, response: &HttpResponse) -> ClientError {
    let content_type = site
        .secrets
        .redact_all(
            response
                .headers()
                .get("content-type")
                .unwrap_or("no content type"),
        )
        .into_owned();
    let bytes = response.body().bytes().unwrap_or_default();
    let scanned = String::from_utf8_lossy(&bytes[..bytes.len().min(BODY_SCAN_BYTES)]);
    // Secrets are found on the lines as sent (a header's value ends at its line's end), then the
    // text is put on one line.
    let words = site
        .secrets
        .redact_all(&scanned)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut body: String = words.chars().take(BODY_QUOTE_CHARS).collect();
    if body.len() < words.len() || bytes.len() > BODY_SCAN_BYTES {
        body.push('…');
    }
    if body.is_empty() {
        body = "(empty)".to_string();
    }
    ClientError::NotSqs {
        action,
        endpoint: site.endpoint.to_string(),
        status: response.status().as_u16(),
        content_type,
        body,
    }
}

/// The messages of an error and its sources, joined: the SDK's top-level messages alone ("dispatch
/// failure") do not say what went wrong.
/// Where a queue was looked for: `account 123456789012, region eu-west-1` or `region eu-west-1`.
fn place(account: Option<&str>, region: &str) -> String {
    match account {
        Some(account) => format!("account {account}, region {region}"),
        None => format!("region {region}"),
    }
}

/// The endpoint rules' refusal among an error's sources: the SDK reports it as a dispatch failure,
/// like a connection that failed, although no request was made.
fn endpoint_rules_error<'a>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a aws_smithy_http::endpoint::ResolveEndpointError> {
    let mut source = Some(err);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref() {
            return Some(refused);
        }
        source = cause.source();
    }
    None
}

fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![err.to_string()];
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !parts.contains(&text) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::{check_endpoint_url, is_auth_code};

    #[test]
    fn signature_errors_of_both_protocols_are_credential_errors() {
        // The query protocol says SignatureDoesNotMatch; the JSON protocol InvalidSignatureException.
        for code in [
            "SignatureDoesNotMatch",
            "InvalidSignatureException",
            "ExpiredToken",
        ] {
            assert!(is_auth_code(code), "{code}");
        }
        assert!(!is_auth_code("InvalidParameterValue"));
    }

    #[test]
    fn endpoint_urls_need_a_scheme_a_host_and_a_numeric_port() {
        for good in [
            "http://127.0.0.1:9324",
            "https://sqs.us-east-1.amazonaws.com",
            "http://localhost:4566/",
            "HTTP://[::1]:9324",
        ] {
            assert!(check_endpoint_url(good).is_ok(), "{good}");
        }
        for bad in [
            "notaurl",
            "127.0.0.1:9324",
            "ftp://host",
            "http://",
            "http://:9324",
            "http://host:port",
            "http://host:99999",
            "http://ho st",
        ] {
            assert!(check_endpoint_url(bad).is_err(), "{bad}");
        }
    }
}
