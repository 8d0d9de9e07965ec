//! Hosts and bounds of the HTTP layer: queue URLs built from the server's own address, `Host`
//! headers refused on a loopback bind, and slow or silent clients that cannot hold memory or
//! connections for long.

use std::time::{Duration, Instant};

use sqsctl_local::{Server, ServerConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{TestResult, client, create, raw};

fn json_post(host: &str, target: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.{target}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn queue_urls_come_from_the_server_and_foreign_hosts_are_refused() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let port = server.local_addr().port();
    let evil = raw(
        &server,
        json_post("evil.example:1", "CreateQueue", r#"{"QueueName":"q"}"#),
    )
    .await;
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    assert!(
        evil.contains("x-amzn-query-error: AccessDenied;Sender"),
        "{evil}"
    );
    assert!(!evil.contains("QueueUrl"));
    let sqs = client(&server);
    assert!(sqs.list_queues().send().await?.queue_urls().is_empty());

    // A loopback name is served, but the URL is the server's own, whatever the Host said.
    let local = raw(
        &server,
        json_post(
            &format!("localhost:{port}"),
            "CreateQueue",
            r#"{"QueueName":"q"}"#,
        ),
    )
    .await;
    assert!(local.starts_with("HTTP/1.1 200"), "{local}");
    assert!(local.contains(&server.queue_url("q")), "{local}");
    assert!(
        server
            .queue_url("q")
            .starts_with(&format!("http://127.0.0.1:{port}/"))
    );
    server.shutdown().await;

    let named = Server::start(ServerConfig {
        hostname: Some("sqs.internal".into()),
        ..ServerConfig::default()
    })?;
    let port = named.local_addr().port();
    let url = create(&client(&named), "q", &[]).await;
    assert_eq!(url, format!("http://sqs.internal:{port}/000000000000/q"));
    assert_eq!(named.queue_url("q"), url);
    let by_name = raw(
        &named,
        json_post(&format!("sqs.internal:{port}"), "ListQueues", "{}"),
    )
    .await;
    assert!(by_name.starts_with("HTTP/1.1 200"), "{by_name}");
    assert!(by_name.contains(&url), "{by_name}");
    named.shutdown().await;
    Ok(())
}

/// Reads until the server closes the connection; returns what it sent and how long that took.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, Duration) {
    let started = Instant::now();
    let mut got = Vec::new();
    let read = tokio::time::timeout(limit, stream.read_to_end(&mut got)).await;
    assert!(
        read.is_ok(),
        "the server kept the connection open past {limit:?}"
    );
    (
        String::from_utf8_lossy(&got).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn silent_and_slow_connections_are_closed_after_their_timeouts() -> TestResult {
    let server = Server::start(ServerConfig {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ..ServerConfig::default()
    })?;
    let mut silent = TcpStream::connect(server.local_addr()).await?;
    let (_, after) = read_until_closed(&mut silent, Duration::from_secs(10)).await;
    assert!(
        after >= Duration::from_millis(250),
        "closed after {after:?}"
    );

    let mut half_headers = TcpStream::connect(server.local_addr()).await?;
    half_headers
        .write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\n")
        .await?;
    read_until_closed(&mut half_headers, Duration::from_secs(10)).await;

    let mut slow_body = TcpStream::connect(server.local_addr()).await?;
    slow_body
        .write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 100\r\n\r\n{")
        .await?;
    let (answer, _) = read_until_closed(&mut slow_body, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("body timeout"), "{answer}");
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn request_bodies_in_progress_share_one_byte_budget() -> TestResult {
    const BUDGET: usize = 256 * 1024;
    const CHUNK: usize = 64 * 1024;
    let server = Server::start(ServerConfig {
        max_pending_body_bytes: BUDGET,
        ..ServerConfig::default()
    })?;
    let head = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 4000000\r\n\r\n";
    // Many slow clients each start a large body and stall: what the server holds stays within
    // the budget, and the clients past it are answered at once instead of being buffered.
    let mut stalled = Vec::new();
    let mut refused = 0;
    for _ in 0..16 {
        let mut stream = TcpStream::connect(server.local_addr()).await?;
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&vec![b' '; CHUNK]).await?;
        let mut first = [0u8; 64];
        match tokio::time::timeout(Duration::from_millis(300), stream.read(&mut first)).await {
            Ok(Ok(n)) if n > 0 => {
                let answer = String::from_utf8_lossy(&first[..n]).into_owned();
                // RequestThrottled is 403 on SQS.
                assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
                refused += 1;
            }
            _ => stalled.push(stream),
        }
    }
    assert!(
        stalled.len() <= BUDGET / CHUNK,
        "{} bodies held",
        stalled.len()
    );
    assert!(refused >= 16 - BUDGET / CHUNK, "{refused} refused");

    // Once the stalled clients go away, their bytes are free again.
    drop(stalled);
    let sqs = client(&server);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match sqs.list_queues().send().await {
            Ok(_) => break,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_body_announced_over_the_limit_is_refused_before_it_is_sent() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let mut stream = TcpStream::connect(server.local_addr()).await?;
    // Only the headers: the answer must not wait for a body the server will refuse anyway.
    stream
        .write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: 16777217\r\n\r\n")
        .await?;
    let (answer, after) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("larger than 16777216 bytes"), "{answer}");
    assert!(after < Duration::from_secs(2), "answered after {after:?}");
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn idle_keep_alive_connections_do_not_lock_new_clients_out() -> TestResult {
    const CAP: usize = 32;
    let server = Server::start(ServerConfig {
        max_connections: CAP,
        ..ServerConfig::default()
    })?;
    // The cap's worth of clients, each with a keep-alive connection left open after a request.
    let request = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 2\r\n\r\n{}";
    let mut idle = Vec::new();
    for _ in 0..CAP {
        let mut stream = TcpStream::connect(server.local_addr()).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut answer = [0u8; 512];
        let n = stream.read(&mut answer).await?;
        assert!(answer[..n].starts_with(b"HTTP/1.1 200"));
        idle.push(stream);
    }
    // A new client is served at once (the idle timeout is 30 s), more than once.
    let sqs = client(&server);
    for _ in 0..3 {
        let started = Instant::now();
        let call = tokio::time::timeout(Duration::from_secs(5), sqs.list_queues().send()).await;
        assert!(matches!(call, Ok(Ok(_))), "{call:?}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    // What made room were idle connections, now closed by the server (which of them was the
    // idlest depends on when each was marked idle, which a loaded machine may reorder).
    let mut closed = 0;
    for stream in &mut idle {
        let mut byte = [0u8; 1];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_millis(200), stream.read(&mut byte)).await
        {
            closed += 1;
            break;
        }
    }
    assert!(closed >= 1, "no idle connection was closed to make room");
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn a_client_for_whom_no_connection_can_make_room_is_refused_at_once() -> TestResult {
    const CAP: usize = 2;
    let server = Server::start(ServerConfig {
        max_connections: CAP,
        ..ServerConfig::default()
    })?;
    let url = create(&client(&server), "q", &[]).await;
    // Every slot held by a long poll: no connection is idle or behind on a request.
    let poll = json_post(
        "localhost",
        "ReceiveMessage",
        &format!(r#"{{"QueueUrl":"{url}","WaitTimeSeconds":3}}"#),
    );
    let mut polls = Vec::new();
    for _ in 0..CAP {
        let mut stream = TcpStream::connect(server.local_addr()).await?;
        stream.write_all(poll.as_bytes()).await?;
        polls.push(stream);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let refused = tokio::time::timeout(
        Duration::from_secs(2),
        raw(&server, json_post("localhost", "ListQueues", "{}")),
    )
    .await?;
    assert!(
        refused.starts_with("HTTP/1.1 503"),
        "answered after {:?}: {refused}",
        started.elapsed()
    );
    assert!(refused.contains("Retry-After: 1"), "{refused}");
    assert!(started.elapsed() < Duration::from_secs(1));
    // The long polls were not disturbed, and once they end new clients are served again.
    for stream in &mut polls {
        let (answer, _) = read_until_closed(stream, Duration::from_secs(10)).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let served = raw(&server, json_post("localhost", "ListQueues", "{}")).await;
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn requests_sent_slower_than_the_minimum_rate_are_cut_off_after_the_grace() -> TestResult {
    // The default timeouts (30 s for headers, 60 s for a body) are far off: what closes these
    // connections is the minimum data rate.
    let server = Server::start(ServerConfig::default())?;
    let dribble = |opening: &'static str| {
        let addr = server.local_addr();
        tokio::spawn(async move {
            let mut stream = TcpStream::connect(addr).await.expect("connect");
            stream.write_all(opening.as_bytes()).await.expect("write");
            let started = Instant::now();
            let mut got = Vec::new();
            let mut buffer = [0u8; 1024];
            loop {
                tokio::select! {
                    read = stream.read(&mut buffer) => match read {
                        Ok(n) if n > 0 => got.extend_from_slice(&buffer[..n]),
                        _ => break,
                    },
                    () = tokio::time::sleep(Duration::from_millis(200)) => {
                        if stream.write_all(b"a").await.is_err() {
                            break;
                        }
                    }
                }
                assert!(
                    started.elapsed() < Duration::from_secs(15),
                    "a client sending 5 bytes a second was still served after 15 s"
                );
            }
            (
                String::from_utf8_lossy(&got).into_owned(),
                started.elapsed(),
            )
        })
    };
    let headers = dribble("POST / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
    let body = dribble(
        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: 100000\r\n\r\n{",
    );
    let (answer, after) = headers.await?;
    assert!(answer.is_empty(), "{answer}");
    assert!(
        after >= Duration::from_millis(4_500),
        "closed after {after:?}"
    );
    let (answer, after) = body.await?;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(
        answer.contains("slower than 500 bytes per second"),
        "{answer}"
    );
    assert!(
        after >= Duration::from_millis(4_500),
        "answered after {after:?}"
    );
    server.shutdown().await;
    Ok(())
}
