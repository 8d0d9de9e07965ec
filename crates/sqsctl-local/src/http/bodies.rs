//! Request bodies: refused at once when they announce more bytes than any request may have,
//! read within the body timeout and at no less than the minimum data rate (see
//! [`super::conn_limits`]), and sharing one byte budget over all connections (a request past it
//! is refused, not queued).

use std::sync::atomic::Ordering;

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use tokio::sync::SemaphorePermit;

use super::conn_limits::{Activity, Limits, MIN_DATA_RATE, rate_allowance};
use crate::error::{ErrorKind, SqsError};

/// Request bodies above this are refused before parsing: a 1 MiB batch is at most a few MiB of
/// escaped JSON or form encoding.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Why a body was not read.
pub enum BodyError {
    TooLarge,
    Busy,
    TimedOut,
    TooSlow,
    Broken,
}

/// Reads a body within the body timeout and at no less than the minimum data rate, taking its
/// bytes from the shared budget; the permit it returns gives them back when the request is
/// answered.
pub async fn read_body<'a>(
    body: Incoming,
    limits: &'a Limits,
    activity: &Activity,
) -> Result<(Bytes, Option<SemaphorePermit<'a>>), BodyError> {
    let started = tokio::time::Instant::now();
    let timeout = started + limits.body_timeout;
    let mut body = body;
    // Most bodies arrive in one frame: kept as they are, they need no copy.
    let mut frames: Vec<Bytes> = Vec::new();
    let mut total = 0usize;
    let mut held: Option<SemaphorePermit<'a>> = None;
    loop {
        let slowest = started + rate_allowance(total as u64);
        let frame = match tokio::time::timeout_at(timeout.min(slowest), body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(_) if slowest < timeout => return Err(BodyError::TooSlow),
            Err(_) => return Err(BodyError::TimedOut),
        };
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
        activity.bytes.store(total as u64, Ordering::Relaxed);
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
        BodyError::TooSlow => SqsError::new(
            ErrorKind::InvalidParameterValue,
            format!(
                "The request body arrived slower than {MIN_DATA_RATE} bytes per second (the minimum data rate)."
            ),
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
