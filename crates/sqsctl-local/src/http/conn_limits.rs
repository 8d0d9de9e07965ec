//! What clients can hold of the server's connections. Connections are capped; each is in one
//! phase at a time (idle between requests, receiving a request's headers, receiving its body,
//! being answered), and a client must send the headers and the body of a request each within its
//! timeout and at no less than [`MIN_DATA_RATE`] once [`DATA_RATE_GRACE`] has passed, so a client
//! that dribbles bytes is closed within seconds rather than held to the timeouts (the body's side
//! is in [`super::bodies`]). When every slot is taken, a new client takes the slot of the request
//! furthest behind the minimum rate, else of the connection idle the longest, else (every
//! connection being answered) it is refused with 503: the accept loop never waits for a slot.

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Notify, Semaphore};

/// The slowest a request's headers or body may arrive, in bytes per second, averaged from the
/// first byte of the phase. Real clients are hundreds of times faster even on a poor link; a
/// client below it holds a connection for nothing (Apache's mod_reqtimeout uses the same figure).
pub const MIN_DATA_RATE: u64 = 500;

/// How long a request's headers or body may take before [`MIN_DATA_RATE`] applies, so that a
/// client paused by a scheduler, a garbage collector or a congested link is not cut off. Short
/// enough that slow clients come and go within seconds.
pub const DATA_RATE_GRACE: Duration = Duration::from_secs(5);

/// Open files the server needs besides its connections: the listener, the data directory's
/// database and journal, the runtime's own descriptors, with room to spare.
pub const OTHER_OPEN_FILES: u64 = 64;

/// What the accept loop and each request share besides the service.
#[derive(Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub(super) body_timeout: Duration,
    /// Bytes of request bodies held at once, over all connections.
    pub(super) body_bytes: Semaphore,
    max_connections: usize,
    open: Mutex<Open>,
    next_connection: AtomicU64,
    started: Instant,
}

/// The open connections, by number, for choosing one to close when every slot is taken.
#[derive(Debug, Default)]
struct Open {
    connections: HashMap<u64, Arc<Activity>>,
    /// How many of them were asked to close: their slots are as good as free.
    closing: usize,
}

/// What a connection is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    /// Between requests, or before the first.
    Idle = 0,
    /// Receiving a request's headers.
    Head = 1,
    /// Receiving a request's body.
    Body = 2,
    /// Answering a request whose body has arrived (a long poll may take 20 s).
    Answering = 3,
}

impl Phase {
    fn from_u8(value: u8) -> Phase {
        match value {
            1 => Phase::Head,
            2 => Phase::Body,
            3 => Phase::Answering,
            _ => Phase::Idle,
        }
    }
}

/// What a connection is doing, since when and with how many bytes so far.
#[derive(Debug)]
pub struct Activity {
    started: Instant,
    phase: AtomicU8,
    /// Milliseconds since the server started, when the phase began.
    since: AtomicU64,
    /// Bytes received in this phase.
    pub(super) bytes: AtomicU64,
    closing: AtomicBool,
    /// Asks the connection to close at once, to make room for a new client.
    pub close: Notify,
}

impl Activity {
    fn millis(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn phase(&self) -> Phase {
        Phase::from_u8(self.phase.load(Ordering::Relaxed))
    }

    fn enter(&self, phase: Phase) {
        self.since.store(self.millis(), Ordering::Relaxed);
        self.bytes.store(0, Ordering::Relaxed);
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// Bytes of headers read from the socket: the first opens the header phase.
    fn received(&self, count: usize) {
        let count = count as u64;
        if self
            .phase
            .compare_exchange(
                Phase::Idle as u8,
                Phase::Head as u8,
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
        {
            self.since.store(self.millis(), Ordering::Relaxed);
            self.bytes.store(count, Ordering::Relaxed);
        } else if self.phase() == Phase::Head {
            self.bytes.fetch_add(count, Ordering::Relaxed);
        }
    }

    /// How far the phase is behind [`MIN_DATA_RATE`], in bytes (negative when ahead), at
    /// `now` milliseconds.
    fn behind(&self, now: u64) -> i128 {
        let elapsed = i128::from(now.saturating_sub(self.since.load(Ordering::Relaxed)));
        elapsed * i128::from(MIN_DATA_RATE) / 1000 - i128::from(self.bytes.load(Ordering::Relaxed))
    }

    /// Resolves when the headers of a request arrive slower than the minimum data rate (past
    /// the grace) or later than `header_timeout` after their first byte.
    pub async fn headers_too_slow(&self, header_timeout: Duration) {
        loop {
            let wait = if self.phase() == Phase::Head {
                let elapsed = Duration::from_millis(
                    self.millis()
                        .saturating_sub(self.since.load(Ordering::Relaxed)),
                );
                let allowed =
                    rate_allowance(self.bytes.load(Ordering::Relaxed)).min(header_timeout);
                match allowed.checked_sub(elapsed) {
                    Some(left) if !left.is_zero() => left,
                    _ => return,
                }
            } else {
                // The header phase may begin at any time; it cannot be too slow before its grace.
                DATA_RATE_GRACE
            };
            tokio::time::sleep(wait).await;
        }
    }
}

/// How long `bytes` of a phase may take to arrive: the grace, or longer at the minimum rate.
pub(super) fn rate_allowance(bytes: u64) -> Duration {
    DATA_RATE_GRACE.max(Duration::from_millis(
        bytes.saturating_mul(1000) / MIN_DATA_RATE,
    ))
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
            max_connections: settings.max_connections.max(1),
            open: Mutex::new(Open::default()),
            next_connection: AtomicU64::new(0),
            started: Instant::now(),
        })
    }

    /// Registers a new connection, idle until its first byte, making room for it when every
    /// slot is taken; `None` when no connection can make room (every one is being answered).
    pub fn admit(&self) -> Option<(u64, Arc<Activity>)> {
        let mut open = self.open.lock();
        if open.connections.len() - open.closing >= self.max_connections
            && !self.make_room_in(&mut open)
        {
            return None;
        }
        let number = self.next_connection.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity {
            started: self.started,
            phase: AtomicU8::new(Phase::Idle as u8),
            since: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            closing: AtomicBool::new(false),
            close: Notify::new(),
        });
        activity.enter(Phase::Idle);
        open.connections.insert(number, activity.clone());
        Some((number, activity))
    }

    pub fn closed(&self, number: u64) {
        let mut open = self.open.lock();
        let was_closing = open
            .connections
            .remove(&number)
            .is_some_and(|activity| activity.closing.load(Ordering::Relaxed));
        if was_closing {
            open.closing -= 1;
        }
    }

    /// Closes one connection to free its slot (or, when accepting fails for want of file
    /// descriptors, its descriptor); false when every connection is being answered.
    pub fn make_room(&self) -> bool {
        self.make_room_in(&mut self.open.lock())
    }

    /// The choice, in order: the request furthest behind the minimum data rate, if any is
    /// behind (it will be closed soon anyway); the connection idle the longest (a client that
    /// keeps an idle connection must be ready for it to close, as after an idle timeout); the
    /// request furthest behind. A request being answered is never chosen. The connection is
    /// dropped at once, not shut down gracefully: hyper would wait for the request of a
    /// connection that has not finished one, which is what a slow client never does.
    fn make_room_in(&self, open: &mut Open) -> bool {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let candidates = open
            .connections
            .values()
            .filter(|a| !a.closing.load(Ordering::Relaxed));
        let mut arriving: Option<(&Arc<Activity>, i128)> = None;
        let mut idlest: Option<(&Arc<Activity>, u64)> = None;
        for activity in candidates {
            match activity.phase() {
                Phase::Head | Phase::Body => {
                    let behind = activity.behind(now);
                    if arriving.is_none_or(|(_, most)| behind > most) {
                        arriving = Some((activity, behind));
                    }
                }
                Phase::Idle => {
                    let since = activity.since.load(Ordering::Relaxed);
                    if idlest.is_none_or(|(_, earliest)| since < earliest) {
                        idlest = Some((activity, since));
                    }
                }
                Phase::Answering => {}
            }
        }
        let victim = match (arriving, idlest) {
            (Some((request, behind)), _) if behind > 0 => request,
            (_, Some((idle, _))) => idle,
            (Some((request, _)), None) => request,
            (None, None) => return false,
        };
        victim.closing.store(true, Ordering::Relaxed);
        victim.close.notify_one();
        open.closing += 1;
        true
    }
}

/// A connection's socket, reporting the bytes it reads to the connection's [`Activity`], which
/// is how the server sees headers arrive (hyper reports a request only once they are complete).
pub struct Metered<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Metered<S> {
    pub fn new(inner: S, activity: Arc<Activity>) -> Self {
        Metered { inner, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let count = buf.filled().len() - before;
        if count > 0 {
            self.activity.received(count);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Marks a request of a connection from its headers to its answer: its body is arriving, then
/// it is being answered, then the connection is idle again.
pub struct InRequest<'a> {
    activity: &'a Activity,
}

impl<'a> InRequest<'a> {
    pub fn begin(activity: &'a Activity) -> Self {
        activity.enter(Phase::Body);
        InRequest { activity }
    }

    /// The body has arrived (or was refused): the request is being answered.
    pub fn answering(&self) {
        self.activity.enter(Phase::Answering);
    }
}

impl Drop for InRequest<'_> {
    fn drop(&mut self) {
        self.activity.enter(Phase::Idle);
    }
}

/// Whether accepting failed because this process (or the system) is out of file descriptors,
/// which closing a connection remedies.
pub fn out_of_files(error: &io::Error) -> bool {
    use rustix::io::Errno;
    matches!(
        Errno::from_io_error(error),
        Some(Errno::MFILE | Errno::NFILE)
    )
}

/// Raises this process's soft limit on open files to its hard limit, since each connection is
/// one (the usual soft limit, 1,024, is below what the default connection cap needs with the
/// clients' sockets on the same machine). Returns the soft limit now in effect, `None` when
/// unlimited.
pub fn raise_open_file_limit() -> io::Result<Option<u64>> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        setrlimit(Resource::Nofile, raised).map_err(io::Error::from)?;
    }
    Ok(getrlimit(Resource::Nofile).current)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Limits of `slots` connections for a server started `ago`, so phases can have lasted.
    fn limits_started(slots: usize, ago: Duration) -> Limits {
        let limits = Limits::new(Settings {
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(60),
            max_pending_body_bytes: 1024,
            max_connections: slots,
        });
        let mut limits = Arc::into_inner(limits).expect("not shared");
        limits.started = Instant::now()
            .checked_sub(ago)
            .expect("the machine has been up that long");
        limits
    }

    /// Puts a connection in `phase` since `since` ms after the start, with `bytes` received.
    fn set(activity: &Activity, phase: Phase, since: u64, bytes: u64) {
        activity.phase.store(phase as u8, Ordering::Relaxed);
        activity.since.store(since, Ordering::Relaxed);
        activity.bytes.store(bytes, Ordering::Relaxed);
    }

    fn closing(activity: &Activity) -> bool {
        activity.closing.load(Ordering::Relaxed)
    }

    #[test]
    fn room_is_made_by_the_slowest_request_then_the_idlest_connection_never_an_answer() {
        let limits = limits_started(4, Duration::from_secs(10));
        let admit = || limits.admit().expect("a free slot").1;
        let (idle, slow, fast, answering) = (admit(), admit(), admit(), admit());
        // 8 s at 500 bytes/s is 4,000 bytes: 100 is far behind, 9,000 ahead.
        set(&idle, Phase::Idle, 1_000, 0);
        set(&slow, Phase::Head, 2_000, 100);
        set(&fast, Phase::Body, 2_000, 9_000);
        set(&answering, Phase::Answering, 0, 0);

        // Each newcomer is answering a request at once, out of the running.
        let newcomer = || {
            let (_, activity) = limits.admit().expect("room made");
            set(&activity, Phase::Answering, 0, 0);
            activity
        };
        let _first = newcomer();
        assert!(
            closing(&slow),
            "the request behind the minimum rate goes first"
        );
        let _second = newcomer();
        assert!(closing(&idle), "then the connection idle the longest");
        let _third = newcomer();
        assert!(closing(&fast), "a request that keeps up goes last");
        assert!(!closing(&answering));

        let busy = limits_started(1, Duration::ZERO);
        let only = busy.admit().expect("a free slot").1;
        set(&only, Phase::Answering, 0, 0);
        assert!(
            busy.admit().is_none(),
            "a request being answered is never closed to make room"
        );
        assert!(!closing(&only));
    }

    #[test]
    fn the_minimum_rate_allows_the_grace_then_time_in_proportion_to_the_bytes() {
        assert_eq!(rate_allowance(0), DATA_RATE_GRACE);
        assert_eq!(rate_allowance(2_500), DATA_RATE_GRACE);
        assert_eq!(rate_allowance(5_000), Duration::from_secs(10));
    }
}
