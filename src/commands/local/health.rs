//! `sqsctl local --health-check`: asks a running server whether it is healthy, for container
//! health checks that have neither a shell nor curl.
//!
//! One plain HTTP/1.1 GET of `/_sqsctl/health` over a TCP connection, with a short bound on the
//! whole exchange; the answer is healthy only when it is the server's own `200` with its
//! `{"status":"ok"}` body, so another program on the port does not pass for it.

use std::io::{Read as _, Write as _};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::commands::context::Context;
use crate::exit::ExitStatus;

/// The whole exchange: connect, ask, read the answer. A container runtime runs the check every
/// few seconds, and a server that takes longer than this to answer is not healthy.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The health answer is a few hundred bytes; anything far larger is not the server's.
const MAX_ANSWER: u64 = 16 * 1024;
const HEALTH_PATH: &str = "/_sqsctl/health";

/// Where to ask: the bound address, except that a wildcard bind (0.0.0.0, ::) is reached on
/// loopback.
pub fn probe_address(bind: SocketAddr) -> SocketAddr {
    let ip = match bind.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, bind.port())
}

pub fn run(ctx: &Context, bind: SocketAddr) -> anyhow::Result<ExitStatus> {
    let addr = probe_address(bind);
    let started = Instant::now();
    let (status, body) = ask(addr)
        .map_err(|err| anyhow::anyhow!("unhealthy: no answer from a server on {addr}: {err}"))?;
    if status != 200 || !body.contains(r#""status":"ok""#) {
        bail!(
            "unhealthy: {addr} answered GET {HEALTH_PATH} with HTTP {status}, not sqsctl local's health answer"
        );
    }
    ctx.printer.line(&format!(
        "healthy: sqsctl local on {addr} answered in {} ms",
        started.elapsed().as_millis()
    ))?;
    Ok(ExitStatus::Success)
}

/// The status code and body of `GET /_sqsctl/health` on `addr`, within [`TIMEOUT`].
fn ask(addr: SocketAddr) -> std::io::Result<(u16, String)> {
    let deadline = Instant::now() + TIMEOUT;
    let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT)?;
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "it did not answer within {}",
                        humantime::format_duration(TIMEOUT)
                    ),
                )
            })
    };
    stream.set_write_timeout(Some(left()?))?;
    // One write: `write!` on the socket would send each piece apart, and a server that answers
    // after the first could close before the rest, failing the check on a broken pipe.
    let request =
        format!("GET {HEALTH_PATH} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    let mut reader = (&stream).take(MAX_ANSWER);
    let mut chunk = [0u8; 4096];
    loop {
        stream.set_read_timeout(Some(left()?))?;
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(left().err().unwrap_or(err));
            }
            Err(err) => return Err(err),
        }
    }
    let text = String::from_utf8_lossy(&answer);
    let invalid = || std::io::Error::new(std::io::ErrorKind::InvalidData, "its answer is not HTTP");
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(invalid)?;
    let status = head
        .strip_prefix("HTTP/1.")
        .and_then(|rest| rest.get(2..5))
        .and_then(|code| code.parse().ok())
        .ok_or_else(invalid)?;
    Ok((status, body.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_bind_is_asked_on_loopback() {
        let cases = [
            ("0.0.0.0:4566", "127.0.0.1:4566"),
            ("[::]:4566", "[::1]:4566"),
            ("127.0.0.1:9324", "127.0.0.1:9324"),
            ("10.1.2.3:80", "10.1.2.3:80"),
        ];
        for (bind, asked) in cases {
            assert_eq!(
                probe_address(bind.parse().unwrap()).to_string(),
                asked,
                "{bind}"
            );
        }
    }
}
