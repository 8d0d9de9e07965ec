//! The HTTP side: a hyper server on a TCP listener, the in-process [`Server`] handle that tests and
//! benchmarks start on an ephemeral port, and [`serve_until`] for running it as a process.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::clock::Clock;
use super::error::{ErrorKind, SqsError};
use super::faults::{Faults, Stats};
use super::init::{self, InitReport, InitSpec};
use super::journal::TaskRecord;
use super::limits::Budget;
use super::persist::{self, Restored};
use super::protocol::{self, Request, Response};
use super::service::Service;

/// Request bodies above this are refused before parsing: a 1 MiB batch is at most a few MiB of
/// escaped JSON.
const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;
/// How long a graceful shutdown waits for open requests.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// How to run a local server. `ServerConfig::default()` binds 127.0.0.1 on an ephemeral port with
/// region us-east-1, account 000000000000, a real clock and no faults.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    pub region: String,
    pub account_id: String,
    pub clock: Clock,
    /// Added to every SQS request, asynchronously, as a network round trip would be.
    pub latency: Duration,
    /// Share (0..=1) of requests answered with an injected throttling or internal error.
    pub fault_rate: f64,
    /// Share (0..=1) of batch entries failed individually with `InternalError`.
    pub entry_fault_rate: f64,
    /// Seed of the fault generator; `None` draws one at random.
    pub seed: Option<u64>,
    /// The window in which a second PurgeQueue is refused (SQS: 60 s), on the server clock.
    pub purge_cooldown: Duration,
    /// Worker threads of the server's own runtime (used by [`Server::start`]).
    pub worker_threads: usize,
    /// Where queues and messages are kept across restarts; `None` keeps them in memory only.
    pub data_dir: Option<PathBuf>,
    /// The bound on stored message bytes (bodies, attributes and bookkeeping); sends past it
    /// fail with `OverLimit`. `None` is unbounded.
    pub max_bytes: Option<u64>,
    /// Queues to create at start, idempotently.
    pub init: Option<InitSpec>,
}

/// What a starting server reports once it listens.
#[derive(Debug, Clone)]
pub struct Ready {
    /// The base URL for clients, e.g. `http://127.0.0.1:40123`.
    pub endpoint: String,
    /// What the data directory held, when there is one.
    pub restored: Option<Restored>,
    /// What the start-up queues did, when there are some.
    pub init: Option<InitReport>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            region: "us-east-1".into(),
            account_id: "000000000000".into(),
            clock: Clock::real(),
            latency: Duration::ZERO,
            fault_rate: 0.0,
            entry_fault_rate: 0.0,
            seed: None,
            purge_cooldown: Duration::from_secs(60),
            worker_threads: 2,
            data_dir: None,
            max_bytes: None,
            init: None,
        }
    }
}

fn endpoint_of(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(_) => format!("http://{addr}"),
        SocketAddr::V6(v6) => format!("http://[{}]:{}", v6.ip(), v6.port()),
    }
}

/// A service ready to serve: its data directory read back, its start-up queues created. Move
/// tasks that were running are returned to be resumed on the server's runtime.
fn build_service(
    config: &ServerConfig,
    addr: SocketAddr,
) -> io::Result<(Arc<Service>, Vec<TaskRecord>, Ready)> {
    let faults = Faults::new(
        config.latency,
        config.fault_rate,
        config.entry_fault_rate,
        config.seed,
    );
    let mut service = Service::new(
        config.region.clone(),
        config.account_id.clone(),
        endpoint_of(addr),
        config.clock.clone(),
        u64::try_from(config.purge_cooldown.as_millis()).unwrap_or(u64::MAX),
        faults,
    );
    service.budget = Arc::new(Budget::new(config.max_bytes));
    let mut ready = Ready {
        endpoint: endpoint_of(addr),
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

async fn to_request(req: hyper::Request<Incoming>) -> Result<Request, Response> {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(String::from)
    };
    let mut out = Request {
        method: req.method().as_str().to_string(),
        path: req.uri().path().to_string(),
        query: req.uri().query().map(String::from),
        content_type: header("content-type"),
        target: header("x-amz-target"),
        host: header("host"),
        body: Bytes::new(),
    };
    let body = Limited::new(req.into_body(), MAX_REQUEST_BYTES)
        .collect()
        .await
        .map_err(|_| {
            Response::error(&SqsError::new(
                ErrorKind::InvalidParameterValue,
                "The request body is too large or could not be read.",
            ))
        })?;
    out.body = body.to_bytes();
    Ok(out)
}

fn to_http(response: Response) -> hyper::Response<Full<Bytes>> {
    let mut builder = hyper::Response::builder()
        .status(response.status)
        .header("content-type", response.content_type)
        .header(
            "x-amzn-requestid",
            super::message::random_uuid().to_string(),
        );
    for (name, value) in response.headers {
        builder = builder.header(name, value);
    }
    builder
        .body(Full::new(Bytes::from(response.body)))
        .unwrap_or_else(|_| hyper::Response::new(Full::new(Bytes::new())))
}

async fn handle(
    svc: Arc<Service>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let response = match to_request(req).await {
        // With a data directory, answered only once the request's changes are on disk.
        Ok(request) => match svc.journal.durable(protocol::dispatch(&svc, request)).await {
            Ok(response) => response,
            Err(err) => Response::error(&SqsError::new(ErrorKind::InternalError, err.to_string())),
        },
        Err(response) => response,
    };
    Ok(to_http(response))
}

/// Accepts connections until `shutdown` resolves, then lets open connections finish their
/// current request (bounded by [`DRAIN_TIMEOUT`]).
async fn accept_loop(listener: TcpListener, svc: Arc<Service>, shutdown: impl Future<Output = ()>) {
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let svc = svc.clone();
                let mut stop = stop_rx.clone();
                connections.spawn(async move {
                    let service = service_fn(move |req| handle(svc.clone(), req));
                    let conn = http1::Builder::new()
                        .keep_alive(true)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        _ = stop.changed() => {
                            conn.as_mut().graceful_shutdown();
                            let _ = conn.await;
                        }
                    }
                });
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
                super::tasks::resume(&service, tasks);
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
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
        let svc = service.clone();
        runtime.spawn(async move {
            accept_loop(listener, svc, async {
                let _ = stop_rx.await;
            })
            .await;
            let _ = done_tx.send(());
        });
        Ok(Server {
            endpoint: endpoint_of(addr),
            addr,
            service,
            ready,
            stop: Some(stop_tx),
            done: Some(done_rx),
            runtime: Some(runtime),
        })
    }

    /// The base URL for clients, e.g. `http://127.0.0.1:40123`.
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
        self.service.faults.stats()
    }

    /// What the server found in its data directory and did with its start-up queues.
    pub fn ready(&self) -> &Ready {
        &self.ready
    }

    /// The URL of a queue of this server, whether or not it exists.
    pub fn queue_url(&self, name: &str) -> String {
        self.service.url_of(&self.endpoint, name)
    }

    /// The ARN of a queue of this server, whether or not it exists.
    pub fn queue_arn(&self, name: &str) -> String {
        self.service.arn_of(name)
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

/// Serves on the caller's runtime until `shutdown` resolves. `on_ready` receives the endpoint (once
/// the port is bound: useful with port 0) and what the data directory and start-up queues gave.
pub async fn serve_until(
    config: ServerConfig,
    on_ready: impl FnOnce(&Ready),
    shutdown: impl Future<Output = ()>,
) -> io::Result<Stats> {
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    // Reading the data directory blocks, but nothing else runs on this server yet.
    let (service, tasks, ready) = build_service(&config, addr)?;
    super::tasks::resume(&service, tasks);
    on_ready(&ready);
    accept_loop(listener, service.clone(), shutdown).await;
    Ok(service.faults.stats())
}
