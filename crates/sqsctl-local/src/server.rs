//! The HTTP side: a hyper server on a TCP listener, the in-process [`Server`] handle that tests and
//! benchmarks start on an ephemeral port, and [`serve_until`] for running it as a process.
//!
//! What bounds what clients can hold (timeouts, the minimum data rate, the connection cap) is in
//! [`crate::http::conn_limits`]; the accept loop never waits for a slot. With a data directory, a
//! request is answered only once its changes are on disk.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::api::{self, Request, Response};
use crate::clock::Clock;
use crate::engine::journal::TaskRecord;
use crate::engine::limits::Budget;
use crate::engine::realism::{Chance, Realism};
use crate::error::{ErrorKind, SqsError};
use crate::faults::{Faults, Stats};
use crate::http::bodies::{BodyError, MAX_REQUEST_BYTES, body_error, declared_length, read_body};
use crate::http::conn_limits::{self, Activity, InRequest, Limits, Metered};
use crate::http::hosts::HostPolicy;
use crate::http::origins::OriginPolicy;
use crate::http::queue_urls::{LOCALSTACK_DOMAIN, QueueUrls, UrlStrategy};
use crate::init::{self, InitReport, InitSpec};
use crate::init_dir::{self, InitObserver, InitStep};
use crate::service::Service;
use crate::service::persist::{self, Restored};

/// How long a graceful shutdown waits for open requests.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// The region of a server started without one: the same on every machine, so its queue URLs and
/// ARNs are too.
pub const DEFAULT_REGION: &str = "us-east-1";

/// How to run a local server. `ServerConfig::default()` binds 127.0.0.1 on an ephemeral port with
/// region us-east-1, account 000000000000, a real clock and no faults.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    /// The default region: the one of requests not signed for a region, of start-up queues, and
    /// of queues a data directory kept from before queues had regions. Signed requests see the
    /// queues of the region they were signed for.
    pub region: String,
    pub account_id: String,
    pub clock: Clock,
    /// Added to every SQS request, asynchronously, as a network round trip would be.
    pub latency: Duration,
    /// Share (0..=1) of requests answered with an injected throttling or internal error.
    pub fault_rate: f64,
    /// Share (0..=1) of batch entries failed individually with `InternalError`.
    pub entry_fault_rate: f64,
    /// Seed of the fault generator and of the realism decisions; `None` draws one at random.
    pub seed: Option<u64>,
    /// Where to behave as SQS does rather than exactly: short polls that sample, duplicate
    /// deliveries, best-effort order, lagging counts. [`Realism::EXACT`] by default.
    pub realism: Realism,
    /// The window in which a second PurgeQueue is refused (SQS: 60 s), on the server clock.
    pub purge_cooldown: Duration,
    /// The window in which a deleted queue's name cannot be used again (SQS: 60 s), on the server
    /// clock.
    pub deleted_name_cooldown: Duration,
    /// Worker threads of the server's own runtime (used by [`Server::start`]).
    pub worker_threads: usize,
    /// The host name of queue URLs (default: the bound address, loopback for 0.0.0.0 and ::). On
    /// a loopback bind it is also the one name besides loopback names that requests may use.
    pub hostname: Option<String>,
    /// How long a client may take to send a request's headers; an idle connection is closed
    /// after it too. Headers must also arrive at no less than [`crate::MIN_DATA_RATE`] once
    /// [`crate::DATA_RATE_GRACE`] has passed.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body, which must also arrive at no less
    /// than [`crate::MIN_DATA_RATE`] once [`crate::DATA_RATE_GRACE`] has passed.
    pub body_timeout: Duration,
    /// Bytes of request bodies held at once, over all connections; a body that would pass it is
    /// refused with `RequestThrottled`. Not to be confused with `max_bytes`, the bound on stored
    /// messages.
    pub max_pending_body_bytes: usize,
    /// Connections served at once. When all are taken, a new client gets the slot of the
    /// request furthest behind the minimum data rate, else of the connection idle the longest,
    /// else (every connection answering a request) it is answered 503 at once. Each connection
    /// is an open file: see [`ServerConfig::open_files_needed`].
    pub max_connections: usize,
    /// Where queues and messages are kept across restarts; `None` keeps them in memory only.
    pub data_dir: Option<PathBuf>,
    /// The bound on stored message bytes (bodies, attributes and bookkeeping); sends past it
    /// fail with `OverLimit`. `None` is unbounded. Not to be confused with
    /// `max_pending_body_bytes`, the bound on request bodies being read.
    pub max_bytes: Option<u64>,
    /// Messages one queue may hold in flight (SQS: about 120,000): past it a standard queue's
    /// short polls fail with `OverLimit`, and long polls and FIFO queues return nothing.
    pub max_in_flight: usize,
    /// Queues to create at start, idempotently.
    pub init: Option<InitSpec>,
    /// Web origins (`http://localhost:3000`) whose pages may make requests; requests from any
    /// other page are refused (see the `origins` module).
    pub allowed_origins: Vec<String>,
    /// Whether `/_sqsctl/v1/` lists messages without receiving them. Off, every reader (sqsctl's
    /// own peek and diagnose too) must receive, as on SQS.
    pub inspection: bool,
    /// LocalStack mode: LocalStack's endpoints (`/_localstack/health`, `/_aws/sqs/messages`),
    /// its host names on a loopback bind, and its URL shapes (`standard` unless `url_strategy`
    /// says otherwise).
    pub localstack: bool,
    /// The shape of queue URLs; `None` is [`UrlStrategy::Plain`], or `standard` in LocalStack
    /// mode.
    pub url_strategy: Option<UrlStrategy>,
    /// The `host[:port]` queue URLs are built on, when not the server's own address (LocalStack's
    /// `LOCALSTACK_HOST`); without a port, the bound one is added. In LocalStack mode it is
    /// `localhost.localstack.cloud` by default.
    pub url_host: Option<String>,
    /// The init directory's entries, run in this order once the server listens.
    pub init_dir: Vec<InitStep>,
    /// Told each init directory entry's outcome.
    pub init_observer: Option<InitObserver>,
}

/// What a starting server reports once it listens.
#[derive(Debug, Clone)]
pub struct Ready {
    /// The base URL for clients to connect to, e.g. `http://127.0.0.1:40123`: the bound address,
    /// loopback for an unspecified one.
    pub endpoint: String,
    /// The address the server listens on, as bound (`0.0.0.0:4566` stays unspecified).
    pub bound: SocketAddr,
    /// What the data directory held, when there is one.
    pub restored: Option<Restored>,
    /// What the start-up queues did, when there are some.
    pub init: Option<InitReport>,
}

impl ServerConfig {
    /// The limit on open files this configuration needs: one per connection and some for the
    /// rest (see [`crate::raise_open_file_limit`]).
    pub fn open_files_needed(&self) -> u64 {
        self.max_connections as u64 + conn_limits::OTHER_OPEN_FILES
    }

    fn connection_limits(&self) -> conn_limits::Settings {
        conn_limits::Settings {
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            max_pending_body_bytes: self.max_pending_body_bytes,
            max_connections: self.max_connections,
        }
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            region: DEFAULT_REGION.into(),
            account_id: "000000000000".into(),
            clock: Clock::real(),
            latency: Duration::ZERO,
            fault_rate: 0.0,
            entry_fault_rate: 0.0,
            seed: None,
            realism: Realism::EXACT,
            purge_cooldown: Duration::from_secs(60),
            deleted_name_cooldown: Duration::from_secs(60),
            worker_threads: 2,
            hostname: None,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(60),
            max_pending_body_bytes: 256 * 1024 * 1024,
            max_connections: 1024,
            data_dir: None,
            max_bytes: None,
            max_in_flight: crate::MAX_IN_FLIGHT,
            init: None,
            allowed_origins: Vec::new(),
            inspection: true,
            localstack: false,
            url_strategy: None,
            url_host: None,
            init_dir: Vec::new(),
            init_observer: None,
        }
    }
}

/// The base URL of the server's queue URLs: the configured host name, or the bound address (an
/// unspecified one, 0.0.0.0 or ::, is reached through loopback).
fn endpoint_of(addr: SocketAddr, hostname: Option<&str>) -> String {
    let port = addr.port();
    if let Some(name) = hostname {
        return if name.contains(':') && !name.starts_with('[') {
            format!("http://[{name}]:{port}")
        } else {
            format!("http://{name}:{port}")
        };
    }
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("http://{}:{port}", Ipv4Addr::LOCALHOST),
        IpAddr::V4(ip) => format!("http://{ip}:{port}"),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[{}]:{port}", Ipv6Addr::LOCALHOST),
        IpAddr::V6(ip) => format!("http://[{ip}]:{port}"),
    }
}

/// How queue URLs are built: on `url_host` (with the bound port when it names none), on
/// LocalStack's name in LocalStack mode, otherwise on the server's own address or host name.
fn queue_urls(config: &ServerConfig, addr: SocketAddr) -> QueueUrls {
    let strategy = config.url_strategy.unwrap_or(if config.localstack {
        UrlStrategy::Standard
    } else {
        UrlStrategy::Plain
    });
    let named = config
        .url_host
        .as_deref()
        .or(config.localstack.then_some(LOCALSTACK_DOMAIN));
    let base = match named {
        Some(host) => {
            let host = host.trim_end_matches('/');
            let host = host.split_once("://").map_or(host, |(_, rest)| rest);
            let has_port = host.rsplit_once(':').is_some_and(|(_, port)| {
                !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
            }) && !host.ends_with(']');
            if has_port {
                format!("http://{host}")
            } else {
                format!("http://{host}:{}", addr.port())
            }
        }
        None => endpoint_of(addr, config.hostname.as_deref()),
    };
    QueueUrls { strategy, base }
}

/// A service ready to serve: its data directory read back, its start-up queues created. Move
/// tasks that were running are returned to be resumed on the server's runtime.
fn build_service(
    config: &ServerConfig,
    addr: SocketAddr,
) -> io::Result<(Arc<Service>, Vec<TaskRecord>, Ready)> {
    if !crate::http::region::is_region_name(&config.region) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{:?} is not a region name (lower-case letters, digits and hyphens, such as eu-west-1)",
                config.region
            ),
        ));
    }
    let faults = Faults::new(
        config.latency,
        config.fault_rate,
        config.entry_fault_rate,
        config.seed,
    );
    let mut hosts = HostPolicy::new(addr.ip(), config.hostname.as_deref());
    if config.localstack {
        hosts = hosts.with_localstack_names();
    }
    let mut service = Service::new(
        config.region.clone(),
        config.account_id.clone(),
        endpoint_of(addr, config.hostname.as_deref()),
        hosts,
        config.clock.clone(),
        u64::try_from(config.purge_cooldown.as_millis()).unwrap_or(u64::MAX),
        faults,
    );
    service.deleted_name_cooldown_ms =
        u64::try_from(config.deleted_name_cooldown.as_millis()).unwrap_or(u64::MAX);
    service.budget = Arc::new(Budget::new(config.max_bytes));
    service.max_in_flight = config.max_in_flight;
    service.origins = OriginPolicy::new(&config.allowed_origins);
    service.inspection = config.inspection;
    service.localstack = config.localstack;
    service.urls = queue_urls(config, addr);
    if let Err((field, why)) = config.realism.check() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("realism {field} {why}"),
        ));
    }
    service.chance = Chance::new(config.realism, config.seed);
    let mut ready = Ready {
        endpoint: endpoint_of(addr, None),
        bound: addr,
        restored: None,
        init: None,
    };
    let mut tasks = Vec::new();
    if let Some(dir) = &config.data_dir {
        let (records, restored) = persist::open(&mut service, dir)?;
        tasks = records;
        ready.restored = Some(restored);
    }
    let service = Arc::new(service);
    if let Some(spec) = &config.init {
        let report = init::apply(&service, spec).map_err(|e| {
            service.journal.close();
            io::Error::new(io::ErrorKind::InvalidInput, e)
        })?;
        ready.init = Some(report);
    }
    service.journal.flush().map_err(io::Error::other)?;
    Ok((service, tasks, ready))
}

fn to_http(response: Response) -> hyper::Response<Full<Bytes>> {
    let mut builder = hyper::Response::builder()
        .status(response.status)
        .header("content-type", response.content_type)
        .header("x-amzn-requestid", response.request_id);
    for (name, value) in response.headers {
        builder = builder.header(name, value);
    }
    builder
        .body(Full::new(Bytes::from(response.body)))
        .unwrap_or_else(|_| hyper::Response::new(Full::new(Bytes::new())))
}

async fn handle(
    svc: Arc<Service>,
    limits: Arc<Limits>,
    activity: Arc<Activity>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let in_request = InRequest::begin(&activity);
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(String::from)
    };
    let mut request = Request {
        method: req.method().as_str().to_string(),
        path: req.uri().path().to_string(),
        query: req.uri().query().map(String::from),
        content_type: header("content-type"),
        target: header("x-amz-target"),
        host: header("host"),
        authorization: header("authorization"),
        origin: header("origin"),
        fetch_site: header("sec-fetch-site"),
        fetch_mode: header("sec-fetch-mode"),
        fetch_dest: header("sec-fetch-dest"),
        accept: header("accept"),
        trace_header: header("x-amzn-trace-id"),
        message_count_override: header("x-localstack-sqs-override-message-count"),
        wait_time_override: header("x-localstack-sqs-override-wait-time-seconds"),
        body: Bytes::new(),
    };
    let protocol = api::protocol_of(request.content_type.as_deref(), request.target.as_deref());
    if declared_length(&req).is_some_and(|length| length > MAX_REQUEST_BYTES as u64) {
        // Refused from the header, at once: waiting for a body that will be refused anyway
        // would hold the client until the body timeout. The unread body ends the connection.
        let refusal = Response::error(
            protocol,
            &body_error(BodyError::TooLarge),
            api::new_request_id(),
        );
        let mut response = to_http(refusal);
        response.headers_mut().insert(
            hyper::header::CONNECTION,
            hyper::header::HeaderValue::from_static("close"),
        );
        return Ok(response);
    }
    let read = read_body(req.into_body(), &limits, &activity).await;
    in_request.answering();
    let response = match read {
        Ok((body, _permit)) => {
            request.body = body;
            // With a data directory, answered only once the request's changes are on disk.
            match svc
                .journal
                .durable(crate::router::dispatch(&svc, request))
                .await
            {
                Ok(response) => response,
                Err(err) => Response::error(
                    protocol,
                    &SqsError::new(ErrorKind::InternalError, err.to_string()),
                    api::new_request_id(),
                ),
            }
        }
        Err(error) => Response::error(protocol, &body_error(error), api::new_request_id()),
    };
    Ok(to_http(response))
}

/// Serves one connection until it ends, is too slow sending a request's headers, is asked to
/// make room for a new client, or the server stops.
async fn serve_connection(
    stream: TcpStream,
    svc: Arc<Service>,
    limits: Arc<Limits>,
    number: u64,
    activity: Arc<Activity>,
    mut stop: watch::Receiver<bool>,
) {
    let header_timeout = limits.header_timeout;
    let registry = limits.clone();
    let watched = activity.clone();
    let io = TokioIo::new(Metered::new(stream, activity.clone()));
    let service = service_fn(move |req| handle(svc.clone(), limits.clone(), activity.clone(), req));
    let conn = http1::Builder::new()
        .keep_alive(true)
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .serve_connection(io, service);
    tokio::pin!(conn);
    // Returning drops the connection, which closes its socket at once.
    tokio::select! {
        _ = conn.as_mut() => {}
        () = watched.headers_too_slow(header_timeout) => {}
        () = watched.close.notified() => {}
        _ = stop.changed() => {
            conn.as_mut().graceful_shutdown();
            tokio::select! {
                _ = conn.as_mut() => {}
                () = watched.headers_too_slow(header_timeout) => {}
            }
        }
    }
    registry.closed(number);
}

/// Answers a client for whom no connection could make room (every one is being answered) with
/// 503, which clients retry, rather than keeping it waiting unseen.
async fn refuse_connection(mut stream: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = "Every connection of the server is answering a request; try again.\n";
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // Bounded, so that a client that does not read holds the descriptor for a second at most.
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        // Closing with the client's request unread would reset the connection, and the reset
        // can destroy the answer before the client reads it: the request is read and dropped.
        let mut discard = [0u8; 4096];
        while stream.read(&mut discard).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

/// Accepts connections until `shutdown` resolves, then lets open connections finish their
/// current request (bounded by [`DRAIN_TIMEOUT`]).
async fn accept_loop(
    listener: TcpListener,
    svc: Arc<Service>,
    limits: Arc<Limits>,
    shutdown: impl Future<Output = ()>,
) {
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) => {
                        // Out of file descriptors: free one if a connection can spare it, and
                        // give its task the moment it needs to close it. On any other failure,
                        // back off instead of spinning.
                        let pause = if conn_limits::out_of_files(&error) && limits.make_room() {
                            Duration::from_millis(1)
                        } else {
                            Duration::from_millis(20)
                        };
                        tokio::time::sleep(pause).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let Some((number, activity)) = limits.admit() else {
                    connections.spawn(refuse_connection(stream));
                    continue;
                };
                connections.spawn(serve_connection(
                    stream,
                    svc.clone(),
                    limits.clone(),
                    number,
                    activity,
                    stop_rx.clone(),
                ));
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    svc.begin_stop();
    let _ = stop_tx.send(true);
    let drain = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(DRAIN_TIMEOUT, drain).await.is_err() {
        connections.abort_all();
    }
    let journal = svc.journal.clone();
    let _ = tokio::task::spawn_blocking(move || journal.close()).await;
}

/// A running in-process server. Dropping it stops it; [`Server::shutdown`] stops it gracefully.
pub struct Server {
    endpoint: String,
    addr: SocketAddr,
    service: Arc<Service>,
    ready: Ready,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<tokio::sync::oneshot::Receiver<()>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Binds `config.bind` and serves on a runtime of its own, so it works from sync code and from
    /// any async runtime, and the caller's blocking cannot stall it.
    pub fn start(config: ServerConfig) -> io::Result<Server> {
        let listener = std::net::TcpListener::bind(config.bind)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(config.worker_threads.max(1))
            .thread_name("sqsctl-local")
            .enable_all()
            .build()?;
        let built = {
            let _guard = runtime.enter();
            TcpListener::from_std(listener).and_then(|listener| {
                let (service, tasks, ready) = build_service(&config, addr)?;
                crate::service::tasks::resume(&service, tasks);
                Ok((listener, service, ready))
            })
        };
        let (listener, service, ready) = match built {
            Ok(built) => built,
            Err(err) => {
                // Dropping a runtime inside an async context panics; the caller may be in one.
                runtime.shutdown_background();
                return Err(err);
            }
        };
        let limits = Limits::new(config.connection_limits());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
        let svc = service.clone();
        start_init_dir(&runtime.handle().clone(), &service, &config, &ready);
        runtime.spawn(async move {
            accept_loop(listener, svc, limits, async {
                let _ = stop_rx.await;
            })
            .await;
            let _ = done_tx.send(());
        });
        Ok(Server {
            endpoint: endpoint_of(addr, None),
            addr,
            service,
            ready,
            stop: Some(stop_tx),
            done: Some(done_rx),
            runtime: Some(runtime),
        })
    }

    /// The base URL for clients to connect to, e.g. `http://127.0.0.1:40123` (queue URLs use
    /// [`ServerConfig::hostname`] instead where one is set).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The clock every timing rule of this server reads.
    pub fn clock(&self) -> &Clock {
        &self.service.clock
    }

    pub fn stats(&self) -> Stats {
        self.service.stats()
    }

    /// What the server found in its data directory and did with its start-up queues.
    pub fn ready(&self) -> &Ready {
        &self.ready
    }

    /// The region of unsigned requests and start-up queues ([`ServerConfig::region`]).
    pub fn region(&self) -> &str {
        &self.service.region
    }

    /// The URL of a queue of the default region, whether or not it exists.
    pub fn queue_url(&self, name: &str) -> String {
        self.service.url_of(&self.service.region, name)
    }

    /// The URL of a queue of `region`, whether or not it exists.
    pub fn queue_url_in(&self, region: &str, name: &str) -> String {
        self.service.url_of(region, name)
    }

    /// The ARN of a queue of the default region, whether or not it exists.
    pub fn queue_arn(&self, name: &str) -> String {
        self.service.arn_of(&self.service.region, name)
    }

    /// Stops accepting, lets requests in progress finish (long polls return early), then stops.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(done) = self.done.take() {
            let _ = done.await;
        }
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        self.service.journal.close();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.service.begin_stop();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(runtime) = self.runtime.take() {
            // Safe inside async contexts, unlike dropping the runtime.
            runtime.shutdown_background();
        }
        // Commits what is pending and releases the data directory for the next server.
        self.service.journal.close();
    }
}

/// Starts the init directory's entries in the background, once the server listens.
fn start_init_dir(
    runtime: &tokio::runtime::Handle,
    service: &Arc<Service>,
    config: &ServerConfig,
    ready: &Ready,
) {
    init_dir::announce(service, &config.init_dir);
    if config.init_dir.is_empty() {
        return;
    }
    runtime.spawn(init_dir::run(
        service.clone(),
        config.init_dir.clone(),
        ready.endpoint.clone(),
        config.init_observer.clone(),
    ));
}

/// Serves on the caller's runtime until `shutdown` resolves. `on_ready` receives, once the port
/// is bound (useful with port 0), the endpoint to connect to (the bound address, loopback for an
/// unspecified one) and what the data directory and start-up queues gave.
pub async fn serve_until(
    config: ServerConfig,
    on_ready: impl FnOnce(&Ready),
    shutdown: impl Future<Output = ()>,
) -> io::Result<Stats> {
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    // Reading the data directory blocks, but nothing else runs on this server yet.
    let (service, tasks, ready) = build_service(&config, addr)?;
    crate::service::tasks::resume(&service, tasks);
    on_ready(&ready);
    start_init_dir(
        &tokio::runtime::Handle::current(),
        &service,
        &config,
        &ready,
    );
    accept_loop(
        listener,
        service.clone(),
        Limits::new(config.connection_limits()),
        shutdown,
    )
    .await;
    Ok(service.stats())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unspecified_addresses_are_reached_through_loopback() {
        let at = |text: &str| {
            text.parse::<SocketAddr>()
                .map(|addr| endpoint_of(addr, None))
        };
        assert_eq!(at("0.0.0.0:9324"), Ok("http://127.0.0.1:9324".into()));
        assert_eq!(at("[::]:9324"), Ok("http://[::1]:9324".into()));
        assert_eq!(at("127.0.0.1:9324"), Ok("http://127.0.0.1:9324".into()));
        assert_eq!(at("10.0.0.5:80"), Ok("http://10.0.0.5:80".into()));
    }
}
