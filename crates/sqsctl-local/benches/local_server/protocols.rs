//! The Query protocol's throughput beside AWS JSON 1.0, through the same minimal keep-alive
//! HTTP/1.1 client for both, so the ratio measures the server's two codecs and not two SDKs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::support::BenchResult;

#[derive(Debug, Clone, Copy)]
pub enum Protocol {
    Json,
    Query,
}

/// One keep-alive connection.
struct Connection {
    stream: BufReader<TcpStream>,
}

impl Connection {
    async fn open(addr: std::net::SocketAddr) -> BenchResult<Connection> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            stream: BufReader::new(stream),
        })
    }

    /// One request; the answer's body, or an error for a status other than 200.
    async fn call(&mut self, protocol: Protocol, action: &str, body: &str) -> BenchResult<String> {
        let headers = match protocol {
            Protocol::Json => format!(
                "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.{action}\r\n"
            ),
            Protocol::Query => "Content-Type: application/x-www-form-urlencoded\r\n".to_string(),
        };
        let head = format!(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Content-Length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let ok = line.starts_with("HTTP/1.1 200");
        let mut length = 0usize;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse()?;
            }
        }
        let mut answer = vec![0u8; length];
        self.stream.read_exact(&mut answer).await?;
        let answer = String::from_utf8(answer)?;
        if !ok {
            return Err(format!("{action} failed: {answer}").into());
        }
        Ok(answer)
    }
}

fn form(params: &[(&str, &str)]) -> String {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("Version", "2012-11-05");
    for (name, value) in params {
        form.append_pair(name, value);
    }
    form.finish()
}

/// Every `<tag>` text of an XML answer (receipt handles need no unescaping).
fn xml_texts<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    xml.split(open.as_str())
        .skip(1)
        .filter_map(|part| part.split(close.as_str()).next())
        .collect()
}

/// One round: a batch of ten sends, a receive of up to ten and a batch delete of what came back.
/// Returns the messages deleted.
async fn round(
    conn: &mut Connection,
    protocol: Protocol,
    url: &str,
    body: &str,
) -> BenchResult<usize> {
    let handles: Vec<String> = match protocol {
        Protocol::Json => {
            let entries: Vec<_> = (0..10)
                .map(|i| serde_json::json!({"Id": format!("m{i}"), "MessageBody": body}))
                .collect();
            let send = serde_json::json!({"QueueUrl": url, "Entries": entries}).to_string();
            conn.call(protocol, "SendMessageBatch", &send).await?;
            let receive =
                serde_json::json!({"QueueUrl": url, "MaxNumberOfMessages": 10}).to_string();
            let got: serde_json::Value =
                serde_json::from_str(&conn.call(protocol, "ReceiveMessage", &receive).await?)?;
            got["Messages"]
                .as_array()
                .map(|m| {
                    m.iter()
                        .filter_map(|m| m["ReceiptHandle"].as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        }
        Protocol::Query => {
            let mut params = vec![
                ("Action".to_string(), "SendMessageBatch".to_string()),
                ("QueueUrl".into(), url.into()),
            ];
            for i in 1..=10 {
                params.push((
                    format!("SendMessageBatchRequestEntry.{i}.Id"),
                    format!("m{i}"),
                ));
                params.push((
                    format!("SendMessageBatchRequestEntry.{i}.MessageBody"),
                    body.into(),
                ));
            }
            let pairs: Vec<(&str, &str)> = params
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            conn.call(protocol, "SendMessageBatch", &form(&pairs))
                .await?;
            let receive = form(&[
                ("Action", "ReceiveMessage"),
                ("QueueUrl", url),
                ("MaxNumberOfMessages", "10"),
            ]);
            let got = conn.call(protocol, "ReceiveMessage", &receive).await?;
            xml_texts(&got, "ReceiptHandle")
                .into_iter()
                .map(String::from)
                .collect()
        }
    };
    if handles.is_empty() {
        return Ok(0);
    }
    match protocol {
        Protocol::Json => {
            let entries: Vec<_> = handles
                .iter()
                .enumerate()
                .map(|(i, h)| serde_json::json!({"Id": format!("d{i}"), "ReceiptHandle": h}))
                .collect();
            let delete = serde_json::json!({"QueueUrl": url, "Entries": entries}).to_string();
            conn.call(protocol, "DeleteMessageBatch", &delete).await?;
        }
        Protocol::Query => {
            let mut params = vec![
                ("Action".to_string(), "DeleteMessageBatch".to_string()),
                ("QueueUrl".into(), url.into()),
            ];
            for (i, handle) in handles.iter().enumerate() {
                params.push((
                    format!("DeleteMessageBatchRequestEntry.{}.Id", i + 1),
                    format!("d{i}"),
                ));
                params.push((
                    format!("DeleteMessageBatchRequestEntry.{}.ReceiptHandle", i + 1),
                    handle.clone(),
                ));
            }
            let pairs: Vec<(&str, &str)> = params
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            conn.call(protocol, "DeleteMessageBatch", &form(&pairs))
                .await?;
        }
    }
    Ok(handles.len())
}

/// Rounds from `concurrency` connections for `window`; returns messages deleted per second.
pub async fn throughput(
    addr: std::net::SocketAddr,
    protocol: Protocol,
    url: &str,
    concurrency: usize,
    window: Duration,
) -> BenchResult<f64> {
    let deleted = Arc::new(AtomicUsize::new(0));
    let body: Arc<str> = "x".repeat(100).into();
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (url, body, deleted) = (url.to_string(), body.clone(), deleted.clone());
        workers.spawn(async move {
            let mut conn = Connection::open(addr).await?;
            while started.elapsed() < window {
                let n = round(&mut conn, protocol, &url, &body).await?;
                deleted.fetch_add(n, Ordering::SeqCst);
            }
            BenchResult::Ok(())
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined??;
    }
    Ok(deleted.load(Ordering::SeqCst) as f64 / started.elapsed().as_secs_f64())
}
