//! Slow clients: more connections than the server has slots, each sending its headers or its
//! body a byte at a time (well within the header and body timeouts), neither keep a normal
//! request waiting nor hold their connections for long.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use sqsctl_local::{Server, ServerConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{TestResult, client, raw};

/// More than the default 1,024 connection slots.
const SLOW_CONNECTIONS: usize = 1_100;
/// How long the slow connections may take to open, all of them.
const OPENED_WITHIN: Duration = Duration::from_secs(20);
/// A byte every half second: far slower than any real client, yet within the 30 s header and
/// 60 s body timeouts for as long as the test runs.
const BYTE_EVERY: Duration = Duration::from_millis(500);
/// How long a normal request may wait.
const ANSWERED_WITHIN: Duration = Duration::from_secs(1);
/// How long after the probes the server has to close the slow connections still open: past the
/// 5 s grace of the minimum data rate, well short of the header and body timeouts.
const CLOSED_WITHIN: Duration = Duration::from_secs(12);

/// The tests of this file each hold 2,200 sockets and load the machine; they run one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[derive(Clone, Copy)]
enum Slow {
    /// The request line, then one byte of a header at a time.
    Headers,
    /// Complete headers announcing a body, then one byte of the body at a time.
    Body,
}

impl Slow {
    fn opening(self) -> &'static [u8] {
        match self {
            Slow::Headers => b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ",
            Slow::Body => {
                b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 100000\r\n\r\n{"
            }
        }
    }
}

/// What the slow clients saw: how many connections they opened, and how long each lasted until
/// the server closed it.
#[derive(Default)]
struct Seen {
    opened: AtomicUsize,
    closed_after: Mutex<Vec<Duration>>,
}

/// One slow client: dribbles bytes on a connection until the server closes it, then opens
/// another, until `stop`; returns whether its last connection was closed by the server.
async fn slow_client(addr: SocketAddr, kind: Slow, stop: Arc<AtomicBool>, seen: Arc<Seen>) -> bool {
    loop {
        let Ok(Ok(stream)) =
            tokio::time::timeout(Duration::from_secs(2), TcpStream::connect(addr)).await
        else {
            if stop.load(Ordering::Relaxed) {
                return true;
            }
            continue;
        };
        let opened = Instant::now();
        seen.opened.fetch_add(1, Ordering::Relaxed);
        let (mut reader, mut writer) = stream.into_split();
        let mut closed = writer.write_all(kind.opening()).await.is_err();
        let mut buffer = [0u8; 1024];
        while !closed {
            tokio::select! {
                read = reader.read(&mut buffer) => {
                    // An answer (a refusal of the slow body) is followed by the close.
                    closed = !matches!(read, Ok(n) if n > 0);
                }
                () = tokio::time::sleep(BYTE_EVERY) => {
                    closed = writer.write_all(b"a").await.is_err();
                }
            }
        }
        seen.closed_after.lock().push(opened.elapsed());
        if stop.load(Ordering::Relaxed) {
            return true;
        }
    }
}

/// A ListQueues of its own connection, raw or through the SDK; returns how long it took.
async fn normal_request(server: &Server, through_sdk: bool) -> Result<Duration, String> {
    let started = Instant::now();
    let limit = Duration::from_secs(5);
    if through_sdk {
        let sqs = client(server);
        let call = tokio::time::timeout(limit, sqs.list_queues().send()).await;
        match call {
            Ok(Ok(_)) => Ok(started.elapsed()),
            other => Err(format!("SDK ListQueues: {other:?}")),
        }
    } else {
        let request = "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 2\r\n\r\n{}";
        match tokio::time::timeout(limit, raw(server, request)).await {
            Ok(answer) if answer.starts_with("HTTP/1.1 200") => Ok(started.elapsed()),
            other => Err(format!("raw ListQueues: {other:?}")),
        }
    }
}

/// Starts the slow clients (of `kinds`, in turn), makes normal requests while they hold, then
/// checks that the server closed every slow connection.
async fn normal_requests_beside_slow_clients(kinds: &[Slow]) -> TestResult {
    let _alone = ONE_AT_A_TIME.lock().await;
    // A client's socket and the server's for each connection, in this one process.
    let needed = 2 * SLOW_CONNECTIONS as u64 + 256;
    let limit = sqsctl_local::raise_open_file_limit()?;
    assert!(
        limit.is_none_or(|limit| limit >= needed),
        "the open-file limit is {limit:?} even raised to the hard limit; these tests need {needed}"
    );
    let server = Server::start(ServerConfig::default())?;
    let addr = server.local_addr();
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Seen::default());
    let slow: Vec<_> = (0..SLOW_CONNECTIONS)
        .map(|i| {
            let kind = kinds[i % kinds.len()];
            tokio::spawn(slow_client(addr, kind, stop.clone(), seen.clone()))
        })
        .collect();
    // Every slot taken and the slow clients under way. On a loaded machine (other tests beside
    // this one on two cores) the connections take a while to be accepted: wait for them, up to
    // OPENED_WITHIN.
    let waiting = Instant::now();
    while seen.opened.load(Ordering::Relaxed) < SLOW_CONNECTIONS
        && waiting.elapsed() < OPENED_WITHIN
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let opened = seen.opened.load(Ordering::Relaxed);
    assert!(
        opened >= SLOW_CONNECTIONS,
        "only {opened} slow connections opened"
    );

    let mut latencies = Vec::new();
    for i in 0..8 {
        let took = normal_request(&server, i % 2 == 1).await?;
        latencies.push(took);
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    eprintln!("normal requests beside {SLOW_CONNECTIONS} slow connections took {latencies:?}");
    let slowest = latencies.iter().max().copied().unwrap_or_default();
    assert!(
        slowest < ANSWERED_WITHIN,
        "a normal request waited {slowest:?} beside slow clients ({latencies:?})"
    );

    // The slow clients stop reconnecting; the server closes what they still hold.
    stop.store(true, Ordering::Relaxed);
    let all_closed = async {
        for client in slow {
            let _ = client.await;
        }
    };
    let finished = tokio::time::timeout(CLOSED_WITHIN, all_closed).await;
    let closed = seen.closed_after.lock().clone();
    assert!(
        finished.is_ok(),
        "the server still served slow connections {CLOSED_WITHIN:?} later ({} closed so far)",
        closed.len()
    );
    let longest = closed.iter().max().copied().unwrap_or_default();
    eprintln!(
        "{} slow connections closed by the server, the longest after {longest:?}",
        closed.len()
    );
    assert_eq!(
        closed.len(),
        seen.opened.load(Ordering::Relaxed),
        "every slow connection opened was closed by the server"
    );
    assert!(
        longest < Duration::from_secs(15),
        "a slow connection was held {longest:?}"
    );
    server.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_do_not_delay_normal_requests() -> TestResult {
    normal_requests_beside_slow_clients(&[Slow::Headers]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_do_not_delay_normal_requests() -> TestResult {
    normal_requests_beside_slow_clients(&[Slow::Body]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_and_bodies_together_do_not_delay_normal_requests() -> TestResult {
    normal_requests_beside_slow_clients(&[Slow::Headers, Slow::Body]).await
}
