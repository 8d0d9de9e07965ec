//! The thin client layer over `aws_sdk_sqs::Client`.
//!
//! Commands and engines talk to SQS only through [`Sqs`]: it resolves queues given by name, URL or
//! ARN, converts between the SDK's types and [`MessageRecord`](crate::message::MessageRecord), returns per-entry outcomes of batch
//! calls in input order, and classifies errors into [`ClientError`]. Batch calls (and the receives
//! of `receive`) are retried by the one policy in [`retry`], with the SDK's own retries off for
//! them; other requests are retried by the SDK's standard retry strategy, configured here.
//!
//! This file builds the client (credentials chain, region, endpoint, timeouts); its calls are in
//! `queues.rs` (queue resolution, attributes, create/delete/purge), `messages.rs` (receive and the
//! batch calls) and `move_tasks.rs` (SQS's server-side redrive).

pub mod batch;
mod convert;
pub mod error;
pub mod inspect;
pub mod limits;
mod messages;
mod move_tasks;
pub mod peek;
pub mod profiles;
pub mod queue;
mod queues;
pub mod redact;
pub mod retry;
pub mod suggest;
pub mod url_cache;

use std::time::Duration;

use aws_config::{BehaviorVersion, Region, retry::RetryConfig};

use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
pub use batch::{MAX_BATCH_ENTRIES, MAX_PAYLOAD_BYTES, plan_batches, validate_outgoing};
pub use error::{CallSite, ClientError, check_endpoint_url};
pub use messages::{
    AcknowledgedBatch, ChangeVisibility, Delete, EntryOutcome, ReceiveOptions, SystemAttributes,
};
pub use move_tasks::MoveTask;
pub use queue::{QueueAttributes, QueueRef, QueueSpec, RedrivePolicy};
pub use redact::{KnownSecrets, redact_secrets};
pub use retry::{BatchOutcome, EntryResult, RequestOutcome, RetryPolicy, backoff, is_transient};

/// The access key id [`Sqs::for_endpoint`] signs with; the local server accepts any credentials.
pub const LOCAL_ACCESS_KEY_ID: &str = "local";
/// The secret access key [`Sqs::for_endpoint`] signs with.
pub const LOCAL_SECRET_ACCESS_KEY: &str = "local";

/// Where and how to connect. Credentials are never part of this: they come from `aws-config`'s
/// chain (environment, profile, SSO, instance role).
#[derive(Debug, Clone, Default)]
pub struct AwsSettings {
    pub profile: Option<String>,
    pub region: Option<String>,
    pub endpoint_url: Option<String>,
    /// Total attempts per request, including the first (SDK standard retry mode).
    pub max_attempts: Option<u32>,
    /// How long to wait for a connection ([`DEFAULT_CONNECT_TIMEOUT`] when `None`).
    pub connect_timeout: Option<Duration>,
    /// How long to wait for the first byte of an answer ([`DEFAULT_READ_TIMEOUT`] when `None`);
    /// a long poll always gets its wait on top.
    pub read_timeout: Option<Duration>,
    /// What the environment says beside `aws-config`'s own chain, read once by the caller.
    pub environment: AwsEnvironment,
    /// Where queue URLs are remembered by name, and whether names resolve from there.
    pub queue_url_cache: Option<QueueUrlCacheSettings>,
    /// What the program's users call these settings, for errors that point at one.
    pub names: SettingNames,
    /// The values of the credentials in use, for whatever prints: the client adds the
    /// credentials it resolves, and its errors leave them out.
    pub secrets: KnownSecrets,
}

/// What the users of a program call the client's settings: an error that comes from one (a
/// region that is not a region name, a timeout that ran out, a queue in another region) names
/// it the way they set it. The default names are those of [`AwsSettings`]' fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingNames {
    /// [`AwsSettings::region`].
    pub region: &'static str,
    /// [`AwsSettings::endpoint_url`].
    pub endpoint_url: &'static str,
    /// [`AwsSettings::connect_timeout`].
    pub connect_timeout: &'static str,
    /// [`AwsSettings::read_timeout`].
    pub read_timeout: &'static str,
}

impl Default for SettingNames {
    fn default() -> SettingNames {
        SettingNames {
            region: "`region`",
            endpoint_url: "`endpoint_url`",
            connect_timeout: "`connect_timeout`",
            read_timeout: "`read_timeout`",
        }
    }
}

/// The on-disk cache of queue URLs ([`url_cache`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueUrlCacheSettings {
    /// The directory of the cache files.
    pub dir: std::path::PathBuf,
    /// Whether a queue name resolves from the cache without `GetQueueUrl`: for commands whose
    /// first call on the queue goes through [`Sqs`]'s look-again path (sending, receiving,
    /// attributes). Otherwise lookups, creations and deletions only keep the cache current.
    pub serve: bool,
}

/// The AWS variables sqsctl itself looks at (the SDK's chain reads its own): read once, at
/// start-up, by [`AwsEnvironment::read`], so every part of a run sees the same values. The
/// default is an empty environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsEnvironment {
    /// `AWS_PROFILE`, when set and not blank.
    pub profile: Option<String>,
    /// `AWS_ENDPOINT_URL_SQS`, when set and not empty: named when `--verbose` says where the
    /// endpoint came from.
    pub endpoint_url_sqs: Option<String>,
    /// `AWS_ENDPOINT_URL`, when set and not empty.
    pub endpoint_url: Option<String>,
    /// Whether `AWS_ACCESS_KEY_ID` or `AWS_SECRET_ACCESS_KEY` is set.
    pub has_credentials: bool,
    /// Whether both are set: the SDK's default chain then takes them before anything else.
    pub has_key_pair: bool,
    /// The region the SDK's default chain takes before any other: `AWS_REGION`, else (when it is
    /// unset) `AWS_DEFAULT_REGION`; `None` when neither gives one.
    pub region: Option<String>,
    /// The profile files the SDK reads, as a person would look for them.
    pub profile_files: String,
    /// Where those files are (`AWS_CONFIG_FILE`, `AWS_SHARED_CREDENTIALS_FILE`, or under
    /// `$HOME/.aws`), when known.
    pub profile_file_paths: Vec<std::path::PathBuf>,
    /// A digest of the variables that choose whose credentials sign (access key id, role, web
    /// identity, container credentials): what a cached queue URL must have been looked up with.
    /// Never the values themselves.
    pub credential_sources: String,
    /// The variables set that only aws-config's loader reads (FIPS and dual-stack endpoints,
    /// configured endpoints ignored, the user agent's application id): with any of them, the
    /// client's configuration is always the loader's.
    pub loader_switches: Vec<&'static str>,
    /// `AWS_ENDPOINT_URL_SQS` or `AWS_ENDPOINT_URL` set but blank, which the SDK cannot use.
    pub blank_endpoint_variables: Vec<&'static str>,
}

impl Default for AwsEnvironment {
    fn default() -> AwsEnvironment {
        AwsEnvironment::from_lookup(|_| None)
    }
}

impl AwsEnvironment {
    pub fn read() -> AwsEnvironment {
        AwsEnvironment::from_lookup(|name| std::env::var(name).ok())
    }

    /// The same from any lookup of variables (tests give a map).
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> AwsEnvironment {
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let key_id = set("AWS_ACCESS_KEY_ID").is_some();
        let secret = set("AWS_SECRET_ACCESS_KEY").is_some();
        AwsEnvironment {
            profile: set("AWS_PROFILE"),
            endpoint_url_sqs: set("AWS_ENDPOINT_URL_SQS"),
            endpoint_url: set("AWS_ENDPOINT_URL"),
            has_credentials: key_id || secret,
            has_key_pair: key_id && secret,
            region: match var("AWS_REGION") {
                Some(region) => Some(region).filter(|r| !r.trim().is_empty()),
                None => set("AWS_DEFAULT_REGION"),
            },
            profile_files: profiles::profile_file_paths(
                set("AWS_CONFIG_FILE").as_deref(),
                set("AWS_SHARED_CREDENTIALS_FILE").as_deref(),
            ),
            profile_file_paths: [
                ("AWS_CONFIG_FILE", "config"),
                ("AWS_SHARED_CREDENTIALS_FILE", "credentials"),
            ]
            .into_iter()
            .filter_map(|(variable, file)| {
                set(variable).map(std::path::PathBuf::from).or_else(|| {
                    set("HOME").map(|home| std::path::Path::new(&home).join(".aws").join(file))
                })
            })
            .collect(),
            credential_sources: {
                use sha2::Digest;
                let mut digest = sha2::Sha256::new();
                for name in [
                    "AWS_ACCESS_KEY_ID",
                    "AWS_ROLE_ARN",
                    "AWS_WEB_IDENTITY_TOKEN_FILE",
                    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                ] {
                    digest.update(var(name).unwrap_or_default().as_bytes());
                    digest.update([0]);
                }
                hex::encode(digest.finalize())
            },
            loader_switches: LOADER_SWITCHES
                .into_iter()
                .filter(|name| var(name).is_some())
                .collect(),
            blank_endpoint_variables: ["AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL"]
                .into_iter()
                .filter(|name| var(name).is_some_and(|v| v.trim().is_empty()))
                .collect(),
        }
    }

    /// Whether neither profile file can exist: their paths are known, free of a `~` the SDK
    /// would expand, and nothing is there.
    pub fn profile_files_absent(&self) -> bool {
        self.profile_file_paths.len() == 2
            && self
                .profile_file_paths
                .iter()
                .all(|path| !path.starts_with("~") && matches!(path.try_exists(), Ok(false)))
    }
}

/// What only aws-config's loader reads among the variables that change SQS calls.
const LOADER_SWITCHES: [&str; 4] = [
    "AWS_USE_FIPS_ENDPOINT",
    "AWS_USE_DUALSTACK_ENDPOINT",
    "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
    "AWS_SDK_UA_APP_ID",
];

impl AwsEnvironment {
    /// Checks the endpoint the environment chooses (`AWS_ENDPOINT_URL_SQS`, else
    /// `AWS_ENDPOINT_URL`, as the SDK ranks them): one that is not a URL is an error naming the
    /// variable and its value, not a failed request that names neither.
    pub fn check_endpoint(&self) -> Result<(), ClientError> {
        if let Some(variable) = self.blank_endpoint_variables.first() {
            return Err(ClientError::InvalidEndpointVariable {
                variable,
                value: String::new(),
                why: "set but empty; unset it, or set it to an endpoint URL such as http://127.0.0.1:9324".to_string(),
            });
        }
        let in_effect = [
            ("AWS_ENDPOINT_URL_SQS", &self.endpoint_url_sqs),
            ("AWS_ENDPOINT_URL", &self.endpoint_url),
        ]
        .into_iter()
        .find_map(|(name, value)| value.as_deref().map(|value| (name, value)));
        match in_effect {
            Some((variable, value)) => {
                check_endpoint_url(value).map_err(|why| ClientError::InvalidEndpointVariable {
                    variable,
                    value: redact_url(value),
                    why,
                })
            }
            None => Ok(()),
        }
    }
}

impl AwsSettings {
    /// Whether the endpoint in effect is known to be plain HTTP (`sqsctl local`, a test server):
    /// `--endpoint-url`, then the environment, as the SDK ranks them. An endpoint from a profile
    /// file is not known here, so it gets the client that speaks both.
    fn plain_http_endpoint(&self) -> bool {
        let ignored = self
            .environment
            .loader_switches
            .contains(&"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
        if ignored && self.endpoint_url.is_none() {
            // The SDK may not call the environment's endpoint (the variable's value decides).
            return false;
        }
        self.flag_or_environment_endpoint()
            .is_some_and(|url| url.starts_with("http://"))
    }

    /// The endpoint `--endpoint-url` or the environment gives (`AWS_ENDPOINT_URL_SQS` before
    /// `AWS_ENDPOINT_URL`, as the SDK ranks them), if either does.
    fn flag_or_environment_endpoint(&self) -> Option<&str> {
        self.endpoint_url
            .as_deref()
            .or(self.environment.endpoint_url_sqs.as_deref())
            .or(self.environment.endpoint_url.as_deref())
    }

    /// The profile in use: `--profile`, else `AWS_PROFILE`; `None` means `default`.
    pub fn selected_profile(&self) -> Option<&str> {
        self.profile
            .as_deref()
            .or(self.environment.profile.as_deref())
    }
}

/// The SDK's HTTP client: hyper 1 with rustls and ring for HTTPS, which also speaks plain HTTP;
/// for an endpoint known to be plain HTTP, a client without TLS, which skips loading the system's
/// root certificates (most of a short command's start-up).
pub fn http_client(plain_http: bool) -> aws_smithy_runtime_api::client::http::SharedHttpClient {
    use aws_smithy_http_client::tls;
    let builder = aws_smithy_http_client::Builder::new();
    if plain_http {
        builder.build_http()
    } else {
        builder
            .tls_provider(tls::Provider::Rustls(
                tls::rustls_provider::CryptoMode::Ring,
            ))
            .build_https()
    }
}

pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Clone, Debug)]
pub struct Sqs {
    /// The SDK's clients, shared by clones.
    clients: std::sync::Arc<Clients>,
    region: String,
    /// Where the endpoint came from and what it is, for `--verbose` (never credentials).
    endpoint: String,
    /// What errors call the endpoint: its URL without userinfo, or AWS's endpoint for the region.
    endpoint_name: String,
    connect_timeout: Duration,
    read_timeout: Duration,
    /// What errors call the settings above.
    names: SettingNames,
    /// The profile in use (`--profile` or `AWS_PROFILE`), named when credentials are missing.
    profile: Option<String>,
    /// The profile files, named with it.
    profile_files: String,
    /// Batch entries sent again after SQS failed them, shared by clones, for `--verbose`.
    entry_retries: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Answers (whole requests or batch entries) that said SQS throttled the caller, shared by
    /// clones: what an adaptive caller slows down for.
    throttled: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Which endpoints are `sqsctl local` with its inspection endpoint, shared by clones.
    inspection: inspect::Inspection,
    /// Queue URLs remembered by name, and whether names resolve from them (`serve`).
    urls: Option<(std::sync::Arc<url_cache::UrlCache>, bool)>,
    /// The values of the credentials this client signs with, left out of its errors.
    secrets: KnownSecrets,
}

/// The two SDK clients of one configuration, each made when first used: a one-message `send`
/// needs only the single-attempt one, most reads only the retrying one, and making a client
/// (its runtime plugins, interceptors and endpoint resolver) is a measurable part of a short run.
#[derive(Debug)]
struct Clients {
    config: aws_sdk_sqs::Config,
    /// With the SDK's standard retries.
    retrying: std::sync::OnceLock<aws_sdk_sqs::Client>,
    /// The same configuration (and connections) without the SDK's retries, for the calls that
    /// [`retry`] retries itself: one client made once, not a configuration layered onto every
    /// request.
    once: std::sync::OnceLock<aws_sdk_sqs::Client>,
}

impl Clients {
    fn new(config: aws_sdk_sqs::Config) -> Clients {
        Clients {
            config,
            retrying: std::sync::OnceLock::new(),
            once: std::sync::OnceLock::new(),
        }
    }
}

impl Sqs {
    /// The SDK client with its standard retries.
    fn client(&self) -> &aws_sdk_sqs::Client {
        let clients = &*self.clients;
        clients
            .retrying
            .get_or_init(|| aws_sdk_sqs::Client::from_conf(clients.config.clone()))
    }

    /// The SDK client without retries of its own, for [`retry`]'s calls.
    fn once(&self) -> &aws_sdk_sqs::Client {
        let clients = &*self.clients;
        clients.once.get_or_init(|| single_attempt(&clients.config))
    }

    /// Builds a client from `aws-config`'s chain with the given overrides. A profile that does
    /// not exist and a region that is not a region name are errors, never a silent fallback to
    /// other credentials or another region.
    pub async fn connect(settings: &AwsSettings) -> Result<Sqs, ClientError> {
        let http = http_client(settings.plain_http_endpoint());
        if settings.endpoint_url.is_none() {
            settings.environment.check_endpoint()?;
        }
        if let Some(profile) = settings.selected_profile() {
            profiles::check_exists(profile, &settings.environment.profile_files).await?;
        }
        let connect_timeout = settings.connect_timeout.unwrap_or(DEFAULT_CONNECT_TIMEOUT);
        let read_timeout = settings.read_timeout.unwrap_or(DEFAULT_READ_TIMEOUT);
        let attempts = settings.max_attempts.unwrap_or(5).max(1);
        let retry = RetryConfig::standard()
            .with_max_attempts(attempts)
            .with_initial_backoff(Duration::from_millis(50))
            .with_max_backoff(Duration::from_secs(5));
        let timeout = timeouts(connect_timeout, read_timeout);
        let config = match environment_alone(settings) {
            Some(from_environment) => from_environment
                .http_client(http)
                .retry_config(retry)
                .timeout_config(timeout)
                .build(),
            None => load_config(settings, http, retry, timeout).load().await,
        };
        let region = config
            .region()
            .map(|r| r.to_string())
            .ok_or(ClientError::NoRegion)?;
        if !is_region_name(&region) {
            return Err(ClientError::InvalidRegion {
                region,
                from: if settings.region.is_some() {
                    settings.names.region
                } else {
                    "AWS_REGION or the profile"
                },
            });
        }
        let in_effect = endpoint_in_effect(settings, &config);
        let (endpoint_name, from) = match &in_effect {
            Some((url, from)) => (redact_url(url), *from),
            None => (format!("AWS's endpoint for {region}"), ""),
        };
        let endpoint = if from.is_empty() {
            endpoint_name.clone()
        } else {
            format!("{endpoint_name} ({from})")
        };
        let configured_endpoint = in_effect.as_ref().map(|(url, _)| url.as_str());
        let inspection = inspect::Inspection::through(configured_endpoint);
        let urls = settings.queue_url_cache.as_ref().map(|cache| {
            let endpoint = configured_endpoint.unwrap_or("aws");
            let scope = url_cache_scope(endpoint, &region, settings);
            let scope: Vec<&str> = scope.iter().map(String::as_str).collect();
            (
                std::sync::Arc::new(url_cache::UrlCache::new(&cache.dir, &scope)),
                cache.serve,
            )
        });
        let mut sdk_config = aws_sdk_sqs::config::Builder::from(&config);
        if let Some(provider) = config.credentials_provider() {
            sdk_config = sdk_config.credentials_provider(RecordedCredentials {
                inner: provider,
                secrets: settings.secrets.clone(),
            });
        }
        Ok(Sqs {
            secrets: settings.secrets.clone(),
            urls,
            clients: std::sync::Arc::new(Clients::new(with_call_limits(sdk_config))),
            region,
            endpoint,
            endpoint_name,
            connect_timeout,
            read_timeout,
            names: settings.names,
            profile: settings.selected_profile().map(str::to_string),
            profile_files: settings.environment.profile_files.clone(),
            entry_retries: std::sync::Arc::default(),
            throttled: std::sync::Arc::default(),
            inspection,
        })
    }

    /// Wraps an SDK client built elsewhere (tests, benchmarks, embedding programs).
    pub fn from_sdk(client: aws_sdk_sqs::Client, region: impl Into<String>) -> Sqs {
        let clients = Clients::new(client.config().clone());
        clients.retrying.get_or_init(|| client);
        Sqs {
            clients: std::sync::Arc::new(clients),
            region: region.into(),
            endpoint: "set in code".to_string(),
            endpoint_name: "the endpoint set in code".to_string(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            names: SettingNames::default(),
            profile: None,
            profile_files: profiles::profile_file_paths(None, None),
            entry_retries: std::sync::Arc::default(),
            throttled: std::sync::Arc::default(),
            inspection: inspect::Inspection::default(),
            urls: None,
            secrets: KnownSecrets::default(),
        }
    }

    /// A client for an SQS-compatible endpoint configured in code only, with fixed local
    /// credentials (the local server accepts any): nothing is read from the environment or from
    /// ~/.aws. For the local server (`sqsctl demo`, tests, embedding programs).
    pub fn for_endpoint(endpoint: &str, region: &str) -> Sqs {
        let config = aws_sdk_sqs::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .http_client(http_client(endpoint.starts_with("http://")))
            .region(Region::new(region.to_string()))
            .credentials_provider(aws_sdk_sqs::config::Credentials::new(
                LOCAL_ACCESS_KEY_ID,
                LOCAL_SECRET_ACCESS_KEY,
                None,
                None,
                "sqsctl-local",
            ))
            .endpoint_url(endpoint)
            .timeout_config(timeouts(DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT))
            .retry_config(
                RetryConfig::standard()
                    .with_max_attempts(5)
                    .with_initial_backoff(Duration::from_millis(50))
                    .with_max_backoff(Duration::from_secs(5)),
            );
        let config = with_call_limits(config);
        let mut sqs = Sqs::from_sdk(aws_sdk_sqs::Client::from_conf(config), region);
        sqs.endpoint = redact_url(endpoint);
        sqs.endpoint_name = sqs.endpoint.clone();
        sqs.inspection = inspect::Inspection::through(Some(endpoint));
        sqs
    }

    /// How many batch entries were sent again after a retryable failure, by this client and its
    /// clones.
    pub fn entry_retries(&self) -> u64 {
        self.entry_retries
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many answers so far, of this client and its clones, were throttling: whole requests
    /// that failed with a throttling code (each attempt of those this client retries itself) and
    /// batch entries failed with one.
    pub fn throttled(&self) -> u64 {
        self.throttled.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn count_throttled(&self, n: usize) {
        if n > 0 {
            self.throttled
                .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// `sqsctl local`'s inspection endpoint, for reads that change nothing.
    pub fn inspection(&self) -> &inspect::Inspection {
        &self.inspection
    }

    /// The endpoint in use and where it came from, for `--verbose`.
    pub fn endpoint_description(&self) -> &str {
        &self.endpoint
    }

    /// The SDK client, for benchmarks that measure the raw ceiling.
    pub fn sdk(&self) -> &aws_sdk_sqs::Client {
        self.client()
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    fn err<E>(
        &self,
        action: &'static str,
        queue: Option<&str>,
        err: Timed<aws_sdk_sqs::error::SdkError<E, HttpResponse>>,
    ) -> ClientError
    where
        E: aws_sdk_sqs::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        self.err_site(action, queue, err, Duration::ZERO)
    }

    /// [`Sqs::err`] for a call whose read timeout had `long_poll` added.
    fn err_site<E>(
        &self,
        action: &'static str,
        queue: Option<&str>,
        err: Timed<aws_sdk_sqs::error::SdkError<E, HttpResponse>>,
        long_poll: Duration,
    ) -> ClientError
    where
        E: aws_sdk_sqs::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        let site = CallSite {
            region: &self.region,
            endpoint: &self.endpoint_name,
            connect_timeout: self.connect_timeout,
            read_timeout: self.read_timeout,
            long_poll,
            names: self.names,
            profile: self.profile.as_deref(),
            profile_files: &self.profile_files,
            secrets: &self.secrets,
        };
        let error = ClientError::from_sdk(action, queue, &site, err.error)
            .with_cost(err.attempts, err.waited);
        if error.is_throttling() {
            self.count_throttled(1);
        }
        error
    }

    /// [`Sqs::err`] for a call on a resolved queue: a queue that does not exist is reported with
    /// the account its URL names, since that is where it was looked for.
    fn err_on<E>(
        &self,
        action: &'static str,
        queue: &QueueRef,
        err: Timed<aws_sdk_sqs::error::SdkError<E, HttpResponse>>,
    ) -> ClientError
    where
        E: aws_sdk_sqs::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        self.err_polling(action, queue, err, Duration::ZERO)
    }

    /// [`Sqs::err_on`] for a receive whose read timeout had `long_poll` added.
    fn err_polling<E>(
        &self,
        action: &'static str,
        queue: &QueueRef,
        err: Timed<aws_sdk_sqs::error::SdkError<E, HttpResponse>>,
        long_poll: Duration,
    ) -> ClientError
    where
        E: aws_sdk_sqs::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        match self.err_site(action, Some(&queue.name), err, long_poll) {
            ClientError::QueueNotFound {
                queue: name,
                region,
                ..
            } => ClientError::QueueNotFound {
                queue: name,
                region,
                account: queue.account().map(str::to_string),
                similar: None,
            },
            other => other,
        }
    }
}

/// The chain's credentials provider, which tells [`KnownSecrets`] each set of credentials it
/// resolves (the first, and each refreshed one), whatever their source: from then on their values
/// are left out of everything printed, whoever echoes them.
#[derive(Debug)]
struct RecordedCredentials {
    inner: aws_credential_types::provider::SharedCredentialsProvider,
    secrets: KnownSecrets,
}

impl aws_credential_types::provider::ProvideCredentials for RecordedCredentials {
    fn provide_credentials<'a>(
        &'a self,
    ) -> aws_credential_types::provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        aws_credential_types::provider::future::ProvideCredentials::new(async move {
            let credentials = self.inner.provide_credentials().await?;
            self.secrets.add(credentials.access_key_id());
            self.secrets.add(credentials.secret_access_key());
            if let Some(token) = credentials.session_token() {
                self.secrets.add(token);
            }
            Ok(credentials)
        })
    }
}

/// What decides which queue a name means, for [`url_cache::UrlCache::new`]: the endpoint, the
/// region, the profile and the credential variables, and the profile files as they are now (an
/// edited file may name another account or role).
fn url_cache_scope(endpoint: &str, region: &str, settings: &AwsSettings) -> Vec<String> {
    let mut scope = vec![
        endpoint.to_string(),
        region.to_string(),
        settings.selected_profile().unwrap_or("").to_string(),
        settings.environment.credential_sources.clone(),
    ];
    for path in &settings.environment.profile_file_paths {
        let stamp = std::fs::metadata(path).ok().map(|meta| {
            let modified = meta
                .modified()
                .ok()
                .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
                .unwrap_or_default();
            format!("{} {}", meta.len(), modified.as_nanos())
        });
        scope.push(format!("{} {}", path.display(), stamp.unwrap_or_default()));
    }
    scope
}

/// The endpoint the client calls, ranked as the SDK ranks its sources (`--endpoint-url`; then SQS's
/// own, from `AWS_ENDPOINT_URL_SQS` or the profile's `services` section; then the one for every
/// service, from `AWS_ENDPOINT_URL` or the profile), with where it came from; `None` for AWS's
/// endpoint.
fn endpoint_in_effect(
    settings: &AwsSettings,
    config: &aws_types::SdkConfig,
) -> Option<(String, &'static str)> {
    if let Some(url) = &settings.endpoint_url {
        return Some((url.clone(), settings.names.endpoint_url));
    }
    let environment = &settings.environment;
    let named = |url: String, otherwise: &'static str| {
        let from = if environment.endpoint_url_sqs.as_ref() == Some(&url) {
            "AWS_ENDPOINT_URL_SQS"
        } else if environment.endpoint_url.as_ref() == Some(&url) {
            "AWS_ENDPOINT_URL"
        } else {
            otherwise
        };
        (url, from)
    };
    let key = aws_types::service_config::ServiceConfigKey::builder()
        .service_id("SQS")
        .env("AWS_ENDPOINT_URL")
        .profile("endpoint_url")
        .build();
    let sqs_own = key
        .ok()
        .and_then(|key| config.service_config()?.load_config(key));
    match sqs_own {
        Some(url) => Some(named(url, "the profile's services section")),
        None => config
            .endpoint_url()
            .map(|url| named(url.to_string(), "the profile")),
    }
}

/// aws-config's loader, set up as sqsctl wants it: the profile's own credentials provider for
/// `--profile`, and what the default chains would find first (the environment's key pair and
/// region) given to it directly, since the chains otherwise build their every provider (an STS
/// client for web identity, an IMDS client) before asking the first.
fn load_config(
    settings: &AwsSettings,
    http: aws_smithy_runtime_api::client::http::SharedHttpClient,
    retry: RetryConfig,
    timeout: aws_config::timeout::TimeoutConfig,
) -> aws_config::ConfigLoader {
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).http_client(http.clone());
    if let Some(profile) = &settings.profile {
        // An explicit --profile wins over credentials in the environment, as with the AWS CLI.
        loader = loader.profile_name(profile).credentials_provider(
            aws_config::profile::ProfileFileCredentialsProvider::builder()
                .profile_name(profile)
                // Its own calls (assuming a role, SSO) go through the same HTTP client.
                .configure(
                    &aws_config::provider_config::ProviderConfig::default().with_http_client(http),
                )
                .build(),
        );
    }
    let environment = &settings.environment;
    if settings.profile.is_none() && environment.has_key_pair {
        loader = loader.credentials_provider(
            aws_config::environment::EnvironmentVariableCredentialsProvider::new(),
        );
    }
    if let Some(region) = settings.region.as_ref().or(environment.region.as_ref()) {
        loader = loader.region(Region::new(region.clone()));
    }
    if let Some(endpoint) = &settings.endpoint_url {
        loader = loader.endpoint_url(endpoint);
    }
    loader.retry_config(retry).timeout_config(timeout)
}

/// The configuration the loader would load, made without it when the environment alone decides
/// every part of it that SQS calls use: the environment's key pair (the credential chain's first
/// source), a region from `--region` or the environment, the endpoint from `--endpoint-url` or the
/// environment (`AWS_ENDPOINT_URL_SQS` before `AWS_ENDPOINT_URL`, as the SDK ranks them), no
/// `--profile`, no profile file that could say more (neither file exists), and none of the
/// variables that switch the SDK's endpoint rules or its user agent. `None` otherwise: the loader
/// then reads what there is. The loader builds its providers and looks for the profile files and
/// the SDK's service settings at each start: about 0.16 ms of a one-message `send`.
fn environment_alone(settings: &AwsSettings) -> Option<aws_types::sdk_config::Builder> {
    let environment = &settings.environment;
    let region = settings.region.as_ref().or(environment.region.as_ref())?;
    let decided = settings.profile.is_none()
        && environment.has_key_pair
        && environment.loader_switches.is_empty()
        && environment.profile_files_absent();
    if !decided {
        return None;
    }
    let mut config = aws_types::SdkConfig::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(region.clone()))
        .credentials_provider(
            aws_credential_types::provider::SharedCredentialsProvider::new(
                aws_config::environment::EnvironmentVariableCredentialsProvider::new(),
            ),
        );
    if let Some(endpoint) = settings.flag_or_environment_endpoint() {
        config = config.endpoint_url(endpoint);
    }
    Some(config)
}

/// The SDK's timeouts: per connection, per answer, and for a whole call with its retries. With
/// [`TimeoutRetries`] allowing a second attempt after a timeout but not a third, an endpoint that
/// connects and never answers ends the call after two read timeouts; one that never connects,
/// after the connect timeout (when that is longer). The whole call is bounded by the longer of the
/// two, whatever happens.
fn timeouts(connect: Duration, read: Duration) -> aws_config::timeout::TimeoutConfig {
    aws_config::timeout::TimeoutConfig::builder()
        .connect_timeout(connect)
        .read_timeout(read)
        .operation_timeout(connect.max(read * MAX_TIMED_OUT_ATTEMPTS))
        .build()
}

/// Attempts a call may make when its attempts time out: a second one covers a connection lost
/// once; a third would only multiply the wait on an endpoint that does not answer.
pub const MAX_TIMED_OUT_ATTEMPTS: u32 = 2;

/// Forbids the SDK another attempt after a timed-out one once [`MAX_TIMED_OUT_ATTEMPTS`] were
/// made; the standard classifiers decide everything else. The attempts are those [`CountAttempts`]
/// counted for the call being awaited (every call of this layer is made through
/// [`TimedCall::timed`]).
#[derive(Debug)]
struct TimeoutRetries;

impl aws_smithy_runtime_api::client::retries::classifiers::ClassifyRetry for TimeoutRetries {
    fn classify_retry(
        &self,
        ctx: &aws_smithy_runtime_api::client::interceptors::context::InterceptorContext,
    ) -> aws_smithy_runtime_api::client::retries::classifiers::RetryAction {
        use aws_smithy_runtime_api::client::retries::classifiers::RetryAction;
        let timed_out = matches!(ctx.output_or_error(), Some(Err(err)) if err.is_timeout_error()
            || err.as_connector_error().is_some_and(|c| c.is_timeout()));
        let attempt = ATTEMPTS
            .try_with(|attempts| attempts.load(std::sync::atomic::Ordering::Relaxed))
            .unwrap_or(1);
        if timed_out && attempt >= MAX_TIMED_OUT_ATTEMPTS {
            RetryAction::RetryForbidden
        } else {
            RetryAction::NoActionIndicated
        }
    }

    fn name(&self) -> &'static str {
        "sqsctl: at most two timed-out attempts"
    }
}

tokio::task_local! {
    /// The attempts of the SDK call being awaited, counted by [`CountAttempts`].
    static ATTEMPTS: AttemptCount;
}

/// Counts the attempts of each call made through [`TimedCall::timed`].
#[derive(Debug)]
struct CountAttempts;

impl aws_smithy_runtime_api::client::interceptors::Intercept for CountAttempts {
    fn name(&self) -> &'static str {
        "sqsctl: count attempts"
    }

    fn read_before_attempt(
        &self,
        _context: &aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_smithy_runtime_api::client::runtime_components::RuntimeComponents,
        _cfg: &mut aws_smithy_types::config_bag::ConfigBag,
    ) -> Result<(), aws_smithy_runtime_api::box_error::BoxError> {
        let _ = ATTEMPTS
            .try_with(|attempts| attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        Ok(())
    }
}

/// An SDK call's error with what the call cost, for errors that say how long they waited.
pub(crate) struct Timed<E> {
    pub(crate) error: E,
    /// Attempts made (0 when not counted: a client built elsewhere).
    pub(crate) attempts: u32,
    pub(crate) waited: Duration,
}

/// `.timed()` on an SDK call's future: its error comes with the attempts made and the time taken.
pub(crate) trait TimedCall<T, E>:
    std::future::Future<Output = Result<T, E>> + Sized
{
    /// The call, boxed: an SDK call's future is several kilobytes, and a future that held it
    /// inline would make every future awaiting it as large, copied each time one is made.
    fn timed(self) -> TimedFuture<Self> {
        let attempts = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        TimedFuture {
            call: Box::pin(ATTEMPTS.scope(attempts.clone(), self)),
            attempts,
            started: tokio::time::Instant::now(),
        }
    }
}

/// What [`TimedCall::timed`] returns: the call on the heap, with its attempts counted in the
/// task-local [`ATTEMPTS`] while it is polled.
pub(crate) struct TimedFuture<F: std::future::Future> {
    call: std::pin::Pin<Box<tokio::task::futures::TaskLocalFuture<AttemptCount, F>>>,
    attempts: AttemptCount,
    started: tokio::time::Instant,
}

type AttemptCount = std::sync::Arc<std::sync::atomic::AtomicU32>;

impl<T, E, F: std::future::Future<Output = Result<T, E>>> std::future::Future for TimedFuture<F> {
    type Output = Result<T, Timed<E>>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let this = &mut *self;
        this.call.as_mut().poll(cx).map(|result| {
            result.map_err(|error| Timed {
                error,
                attempts: this.attempts.load(std::sync::atomic::Ordering::Relaxed),
                waited: this.started.elapsed(),
            })
        })
    }
}

impl<T, E, F: std::future::Future<Output = Result<T, E>>> TimedCall<T, E> for F {}

/// The client configuration with what bounds and measures each call: no third attempt after
/// timeouts, and the attempts counted for errors.
fn with_call_limits(config: aws_sdk_sqs::config::Builder) -> aws_sdk_sqs::Config {
    config
        .retry_classifier(TimeoutRetries)
        .interceptor(CountAttempts)
        .build()
}

/// True for names shaped like an AWS region: `us-east-1`, `eu-central-2`, `us-gov-west-1`,
/// `cn-north-1`. A typo such as `us-east1` or `useast-1` fails here instead of at the first
/// request, as an unreachable host.
pub fn is_region_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('-').collect();
    parts.len() >= 3
        && parts[0].len() == 2
        && parts[..parts.len() - 1]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase()))
        && parts[parts.len() - 1]
            .parse::<u8>()
            .is_ok_and(|n| parts[parts.len() - 1] == n.to_string())
}

/// An endpoint URL fit to print: userinfo (`user:password@`) is replaced by `***@`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://***@{host}{path}"),
        None => url.to_string(),
    }
}

/// Per-operation configuration of the calls [`retry`] retries itself: no retries in the SDK, so
/// the policy sees every attempt (and can tell an ambiguous one), and sustained faults cannot drain
/// the SDK's retry quota, which would make every other call fail at its first error.
fn single_attempt(config: &aws_sdk_sqs::Config) -> aws_sdk_sqs::Client {
    let config = config
        .to_builder()
        .retry_config(RetryConfig::disabled())
        .build();
    aws_sdk_sqs::Client::from_conf(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_alone_makes_the_configuration_only_where_no_profile_file_could_say_more() {
        let home = tempfile::tempdir().expect("a temporary directory");
        let home_dir = home.path().to_str().expect("a UTF-8 path").to_string();
        let settings = |vars: &[(&str, &str)], endpoint_url: Option<&str>| {
            let mut vars: Vec<(String, String)> = vars
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            vars.push(("HOME".to_string(), home_dir.clone()));
            AwsSettings {
                endpoint_url: endpoint_url.map(str::to_string),
                environment: AwsEnvironment::from_lookup(move |name| {
                    vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
                }),
                ..AwsSettings::default()
            }
        };
        let keys = [
            ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("AWS_REGION", "eu-west-1"),
        ];
        let with = |more: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
            keys.iter().chain(more).copied().collect()
        };
        let endpoint = |settings: &AwsSettings| {
            environment_alone(settings)
                .map(|config| config.build().endpoint_url().map(str::to_string))
        };

        // The key pair, a region and no file under $HOME/.aws: no loader, and the endpoint the
        // SDK would pick (the flag, then AWS_ENDPOINT_URL_SQS, then AWS_ENDPOINT_URL).
        assert_eq!(endpoint(&settings(&keys, None)), Some(None));
        let both = with(&[
            ("AWS_ENDPOINT_URL", "http://global:1"),
            ("AWS_ENDPOINT_URL_SQS", "http://sqs:2"),
        ]);
        assert_eq!(
            endpoint(&settings(&both, None)),
            Some(Some("http://sqs:2".to_string()))
        );
        assert_eq!(
            endpoint(&settings(&both, Some("http://flag:3"))),
            Some(Some("http://flag:3".to_string()))
        );
        assert_eq!(
            endpoint(&settings(
                &with(&[("AWS_ENDPOINT_URL", "http://global:1")]),
                None
            )),
            Some(Some("http://global:1".to_string()))
        );
        let region = environment_alone(&settings(&keys, None))
            .and_then(|config| config.build().region().map(ToString::to_string));
        assert_eq!(region.as_deref(), Some("eu-west-1"));

        // Anything the loader would read more of, or a credential source after the key pair.
        let loader = |settings: AwsSettings| environment_alone(&settings).is_none();
        assert!(loader(settings(&keys[..2], None)), "no region");
        assert!(loader(settings(&keys[1..], None)), "no key pair");
        for switch in LOADER_SWITCHES {
            assert!(
                loader(settings(&with(&[(switch, "true")]), None)),
                "{switch}"
            );
        }
        let blank = settings(&with(&[("AWS_ENDPOINT_URL_SQS", "")]), None);
        assert!(blank.environment.check_endpoint().is_err(), "blank");
        assert!(loader(settings(
            &with(&[("AWS_CONFIG_FILE", "~/config")]),
            None
        )));
        let mut profile = settings(&keys, None);
        profile.profile = Some("work".to_string());
        assert!(loader(profile));
        std::fs::create_dir(home.path().join(".aws")).expect("~/.aws");
        std::fs::write(home.path().join(".aws").join("credentials"), "").expect("a file");
        assert!(loader(settings(&keys, None)), "a credentials file");
        let elsewhere = home.path().join("elsewhere");
        let elsewhere = elsewhere.to_str().expect("a UTF-8 path");
        let files = [
            ("AWS_CONFIG_FILE", elsewhere),
            ("AWS_SHARED_CREDENTIALS_FILE", elsewhere),
        ];
        let moved: Vec<(&str, &str)> = keys.iter().chain(&files).copied().collect();
        assert_eq!(
            endpoint(&settings(&moved, None)),
            Some(None),
            "files moved away"
        );
    }

    #[test]
    fn an_endpoint_variable_that_is_not_a_url_names_itself_and_its_value() {
        let env = |vars: &[(&str, &str)]| {
            let vars: Vec<(String, String)> = vars
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            AwsEnvironment::from_lookup(move |name| {
                vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
            })
        };
        let err = |vars: &[(&str, &str)]| env(vars).check_endpoint().err().map(|e| e.to_string());
        assert_eq!(
            err(&[("AWS_ENDPOINT_URL_SQS", "localhost:9324")]).as_deref(),
            Some(
                "AWS_ENDPOINT_URL_SQS=\"localhost:9324\": not a valid endpoint URL (no http:// or https://); expected e.g. http://127.0.0.1:9324 or https://sqs.us-east-1.amazonaws.com"
            )
        );
        // The one the SDK uses is checked, and a password in it is not shown.
        let global = err(&[("AWS_ENDPOINT_URL", "ftp://user:pw@host")]).unwrap_or_default();
        assert!(
            global.starts_with("AWS_ENDPOINT_URL=\"ftp://***@host\": not a valid endpoint URL"),
            "{global}"
        );
        assert_eq!(
            err(&[
                ("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9324"),
                ("AWS_ENDPOINT_URL", "garbage")
            ]),
            None
        );
        assert_eq!(err(&[]), None);
    }
}
