//! What clients can hold of the server: a request's body must arrive within its timeout and is
//! refused at once when it announces more bytes than any request may have; the bodies of requests
//! in progress share one byte budget (a request past it is refused, not queued); and connections
//! are capped, the connection idle the longest making room for a new client when every slot is
//! taken, so idle keep-alive connections cannot lock clients out.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use parking_lot::Mutex;
use tokio::sync::{Notify, Semaphore, SemaphorePermit};

use crate::error::{ErrorKind, SqsError};

/// Request bodies above this are refused before parsing: a 1 MiB batch is at most a few MiB of
/// escaped JSON or form encoding.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// What the accept loop and each request share besides the service.
#[derive(Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    body_timeout: Duration,
    body_bytes: Semaphore,
    pub connections: Arc<Semaphore>,
    /// The open connections, by number, for closing the idlest when every slot is taken.
    open: Mutex<HashMap<u64, Arc<Activity>>>,
    next_connection: AtomicU64,
    started: Instant,
}

/// Whether a connection is in a request, and since when it is not.
#[derive(Debug)]
pub struct Activity {
    requests: AtomicU32,
    /// Milliseconds since the server started.
    idle_since: AtomicU64,
    closing: AtomicBool,
    pub close: Notify,
}

/// The server settings the limits read (see `ServerConfig`).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max_pending_body_bytes: usize,
    pub max_connections: usize,
}

impl Limits {
    pub fn new(settings: Settings) -> Arc<Limits> {
        Arc::new(Limits {
            header_timeout: settings.header_timeout,
            body_timeout: settings.body_timeout,
            body_bytes: Semaphore::new(settings.max_pending_body_bytes.min(Semaphore::MAX_PERMITS)),
            connections: Arc::new(Semaphore::new(settings.max_connections.max(1))),
            open: Mutex::new(HashMap::new()),
            next_connection: AtomicU64::new(0),
            started: Instant::now(),
        })
    }

    fn millis(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Registers a new connection; it is idle until its first request.
    pub fn open(&self) -> (u64, Arc<Activity>) {
        let number = self.next_connection.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity {
            requests: AtomicU32::new(0),
            idle_since: AtomicU64::new(self.millis()),
            closing: AtomicBool::new(false),
            close: Notify::new(),
        });
        self.open.lock().insert(number, activity.clone());
        (number, activity)
    }

    pub fn closed(&self, number: u64) {
        self.open.lock().remove(&number);
    }

    /// Asks the connection idle for the longest to close (after the request it may just have
    /// begun), so that a client waiting for a slot gets one soon. A client that keeps an idle
    /// connection open must be ready for it to close, as it would after an idle timeout.
    pub fn close_longest_idle(&self) {
        let open = self.open.lock();
        let idlest = open
            .values()
            .filter(|a| {
                a.requests.load(Ordering::Relaxed) == 0 && !a.closing.load(Ordering::Relaxed)
            })
            .min_by_key(|a| a.idle_since.load(Ordering::Relaxed));
        if let Some(activity) = idlest {
            activity.closing.store(true, Ordering::Relaxed);
            activity.close.notify_one();
        }
    }
}

/// Counts a request of a connection from its start to its answer.
pub struct InRequest<'a> {
    activity: &'a Activity,
    limits: &'a Limits,
}

impl<'a> InRequest<'a> {
    pub fn begin(activity: &'a Activity, limits: &'a Limits) -> Self {
        activity.requests.fetch_add(1, Ordering::Relaxed);
        InRequest { activity, limits }
    }
}

impl Drop for InRequest<'_> {
    fn drop(&mut self) {
        self.activity
            .idle_since
            .store(self.limits.millis(), Ordering::Relaxed);
        self.activity.requests.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Why a body was not read.
pub enum BodyError {
    TooLarge,
    Busy,
    TimedOut,
    Broken,
}

/// Reads a body within the body timeout, taking its bytes from the shared budget; the permit it
/// returns gives them back when the request is answered.
pub async fn read_body(
    body: Incoming,
    limits: &Limits,
) -> Result<(Bytes, Option<SemaphorePermit<'_>>), BodyError> {
    let read = async {
        let mut body = body;
        // Most bodies arrive in one frame: kept as they are, they need no copy.
        let mut frames: Vec<Bytes> = Vec::new();
        let mut total = 0usize;
        let mut held: Option<SemaphorePermit<'_>> = None;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|_| BodyError::Broken)?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            if total + data.len() > MAX_REQUEST_BYTES {
                return Err(BodyError::TooLarge);
            }
            let wanted = u32::try_from(data.len()).map_err(|_| BodyError::TooLarge)?;
            let permit = limits
                .body_bytes
                .try_acquire_many(wanted)
                .map_err(|_| BodyError::Busy)?;
            match &mut held {
                Some(held) => held.merge(permit),
                None => held = Some(permit),
            }
            total += data.len();
            frames.push(data);
        }
        let body = match frames.len() {
            0 => Bytes::new(),
            1 => frames.swap_remove(0),
            _ => {
                let mut buffer = bytes::BytesMut::with_capacity(total);
                for frame in &frames {
                    buffer.extend_from_slice(frame);
                }
                buffer.freeze()
            }
        };
        Ok((body, held))
    };
    tokio::time::timeout(limits.body_timeout, read)
        .await
        .unwrap_or(Err(BodyError::TimedOut))
}

pub fn body_error(error: BodyError) -> SqsError {
    match error {
        BodyError::TooLarge => SqsError::new(
            ErrorKind::InvalidParameterValue,
            format!("The request body is larger than {MAX_REQUEST_BYTES} bytes."),
        ),
        BodyError::Busy => SqsError::new(
            ErrorKind::RequestThrottled,
            "The server holds too many request bodies in progress; try again.",
        ),
        BodyError::TimedOut => SqsError::new(
            ErrorKind::InvalidParameterValue,
            "The request body did not arrive within the body timeout.",
        ),
        BodyError::Broken => SqsError::new(
            ErrorKind::InvalidParameterValue,
            "The request body could not be read.",
        ),
    }
}

/// The body length a request announces, when it announces one.
pub fn declared_length(req: &hyper::Request<Incoming>) -> Option<u64> {
    req.headers()
        .get(hyper::header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}
