//! LocalStack mode: queue URLs in each of LocalStack's shapes, handed out and accepted back in
//! every region, LocalStack's host names on a loopback bind, and the developer endpoint's rules
//! that the conformance tests cannot set up on LocalStack alike (FIFO groups held in flight).

use sqsctl_local::{Server, ServerConfig, UrlStrategy};

use super::{TestResult, create, raw, raw_get, send, status_head_body};

fn localstack_server(strategy: Option<UrlStrategy>) -> std::io::Result<Server> {
    Server::start(ServerConfig {
        localstack: true,
        url_strategy: strategy,
        ..ServerConfig::default()
    })
}

/// Each strategy's URL for a queue `q` of `region`, on LocalStack's default host and the bound
/// port, as LocalStack builds them.
fn expected(strategy: UrlStrategy, region: &str, port: u16) -> String {
    let host = format!("localhost.localstack.cloud:{port}");
    match (strategy, region) {
        (UrlStrategy::Standard, _) => format!("http://sqs.{region}.{host}/000000000000/q"),
        (UrlStrategy::Domain, "us-east-1") => format!("http://queue.{host}/000000000000/q"),
        (UrlStrategy::Domain, _) => format!("http://{region}.queue.{host}/000000000000/q"),
        (UrlStrategy::Path, _) => format!("http://{host}/queue/{region}/000000000000/q"),
        _ => format!("http://{host}/000000000000/q"),
    }
}

#[tokio::test]
async fn each_strategys_urls_are_handed_out_and_accepted_in_every_region() -> TestResult {
    for strategy in [
        None,
        Some(UrlStrategy::Domain),
        Some(UrlStrategy::Path),
        Some(UrlStrategy::Off),
    ] {
        let server = localstack_server(strategy)?;
        let port = server.local_addr().port();
        for region in ["us-east-1", "eu-west-1"] {
            let sqs = super::client_at(&server, region, 1);
            let url = create(&sqs, "q", &[]).await;
            let want = expected(strategy.unwrap_or(UrlStrategy::Standard), region, port);
            assert_eq!(url, want, "{strategy:?} {region}");
            // The URL names the queue of its region when used, whatever else it carries.
            send(&sqs, &url, &format!("to {region}")).await?;
            let got = sqs
                .receive_message()
                .queue_url(&url)
                .send()
                .await
                .map_err(|e| format!("{strategy:?} {region} {url}: {e:?}"))?;
            assert_eq!(got.messages().len(), 1, "{strategy:?} {region}");
            assert_eq!(
                got.messages()[0].body(),
                Some(format!("to {region}").as_str())
            );
        }
    }
    Ok(())
}

#[tokio::test]
async fn dynamic_urls_follow_the_requests_host() -> TestResult {
    let server = localstack_server(Some(UrlStrategy::Dynamic))?;
    let sqs = super::client_at(&server, "us-east-1", 1);
    create(&sqs, "dyn", &[]).await;
    let port = server.local_addr().port();
    // The SDK's endpoint host: a plain host is `path`-shaped on that host.
    let by_sdk = sqs.get_queue_url().queue_name("dyn").send().await?;
    assert_eq!(
        by_sdk.queue_url(),
        Some(format!("http://127.0.0.1:{port}/queue/us-east-1/000000000000/dyn").as_str())
    );
    for (host, want) in [
        (
            format!("sqs.us-east-1.localhost.localstack.cloud:{port}"),
            format!("http://sqs.us-east-1.localhost.localstack.cloud:{port}/000000000000/dyn"),
        ),
        (
            format!("localhost:{port}"),
            format!("http://localhost:{port}/queue/us-east-1/000000000000/dyn"),
        ),
    ] {
        let answer = raw(
            &server,
            format!(
                "GET /?Action=GetQueueUrl&QueueName=dyn HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
            ),
        )
        .await;
        let (status, _, body) = status_head_body(&answer);
        assert_eq!(status, 200, "{body}");
        assert!(
            body.contains(&format!("<QueueUrl>{want}</QueueUrl>")),
            "{host}: {body}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn localstack_host_names_are_served_only_in_localstack_mode() -> TestResult {
    let request = "GET /_localstack/health HTTP/1.1\r\nHost: sqs.us-east-1.localhost.localstack.cloud:4566\r\nConnection: close\r\n\r\n";
    let plain = Server::start(ServerConfig::default())?;
    let (status, _, body) = status_head_body(&raw(&plain, request).await).to_owned_parts();
    assert_eq!(status, 403, "{body}");
    let localstack = localstack_server(None)?;
    let (status, _, body) = status_head_body(&raw(&localstack, request).await).to_owned_parts();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""sqs":"running""#), "{body}");
    // Our own endpoints keep answering beside LocalStack's.
    let (status, _, body) =
        status_head_body(&raw_get(&localstack, "/_sqsctl/health", "").await).to_owned_parts();
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));
    Ok(())
}

trait OwnedParts {
    fn to_owned_parts(self) -> (u16, String, String);
}

impl OwnedParts for (u16, &str, &str) {
    fn to_owned_parts(self) -> (u16, String, String) {
        (self.0, self.1.to_owned(), self.2.to_owned())
    }
}

#[tokio::test]
async fn developer_endpoint_holds_fifo_groups_in_flight_back_unless_asked() -> TestResult {
    let server = localstack_server(None)?;
    let sqs = super::client_at(&server, "us-east-1", 1);
    let url = create(
        &sqs,
        "held.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    )
    .await;
    for (group, body) in [("a", "a1"), ("a", "a2"), ("b", "b1")] {
        sqs.send_message()
            .queue_url(&url)
            .message_body(body)
            .message_group_id(group)
            .send()
            .await?;
    }
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(1)
        .send()
        .await?;
    assert_eq!(got.messages()[0].body(), Some("a1"));
    let list = |flags: &'static str| {
        let server = &server;
        async move {
            let answer = raw_get(
                server,
                &format!("/_aws/sqs/messages/us-east-1/000000000000/held.fifo{flags}"),
                "",
            )
            .await;
            let (status, _, body) = status_head_body(&answer);
            assert_eq!(status, 200, "{body}");
            body.split("<Body>")
                .skip(1)
                .filter_map(|b| b.split_once("</Body>").map(|(b, _)| b.to_owned()))
                .collect::<Vec<_>>()
        }
    };
    // a2 waits behind a1 in flight: not receivable, so listed only with ShowInvisible.
    assert_eq!(list("").await, ["b1"]);
    assert_eq!(list("?ShowInvisible=true").await, ["a1", "a2", "b1"]);
    Ok(())
}

/// A JSON ReceiveMessage of up to `max` from `url` with LocalStack's override header `header`:
/// how many messages came back.
async fn receive_with_override(server: &Server, url: &str, max: u32, header: &str) -> usize {
    let body = format!(r#"{{"QueueUrl":"{url}","MaxNumberOfMessages":{max}}}"#);
    let answer = raw(
        server,
        format!(
            "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n{header}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    let (status, _, body) = status_head_body(&answer);
    assert_eq!(status, 200, "{body}");
    body.matches("\"ReceiptHandle\"").count()
}

#[tokio::test]
async fn localstacks_message_count_override_is_honoured_only_in_localstack_mode() -> TestResult {
    for (localstack, want) in [(true, 15), (false, 10)] {
        let server = Server::start(ServerConfig {
            localstack,
            ..ServerConfig::default()
        })?;
        let sqs = super::client_at(&server, "us-east-1", 1);
        let url = create(&sqs, "many", &[]).await;
        for n in 0..20 {
            send(&sqs, &url, &format!("m{n}")).await?;
        }
        let header = "x-localstack-sqs-override-message-count: 15";
        assert_eq!(
            receive_with_override(&server, &url, 10, header).await,
            want,
            "{localstack}"
        );
    }
    Ok(())
}

/// LocalStack's wait override (what its Lambda pollers send for a batching window) makes a
/// receive wait for its full batch; without LocalStack mode the header is ignored and the
/// receive, a short poll, returns what is there.
#[tokio::test]
async fn localstacks_wait_override_collects_a_full_batch_only_in_localstack_mode() -> TestResult {
    for (localstack, want) in [(true, 5), (false, 3)] {
        let server = Server::start(ServerConfig {
            localstack,
            ..ServerConfig::default()
        })?;
        let sqs = super::client_at(&server, "us-east-1", 1);
        let url = create(&sqs, "batched", &[]).await;
        for n in 0..3 {
            send(&sqs, &url, &format!("early {n}")).await?;
        }
        let late = {
            let (sqs, url) = (sqs.clone(), url.clone());
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                for n in 0..2 {
                    send(&sqs, &url, &format!("late {n}"))
                        .await
                        .map_err(|e| e.to_string())?;
                }
                Ok::<(), String>(())
            })
        };
        let header = "x-localstack-sqs-override-wait-time-seconds: 30";
        assert_eq!(
            receive_with_override(&server, &url, 5, header).await,
            want,
            "{localstack}"
        );
        late.await??;
    }
    Ok(())
}

#[tokio::test]
async fn query_requests_posted_to_a_queue_urls_path_reach_its_queue() -> TestResult {
    let server = localstack_server(Some(UrlStrategy::Path))?;
    let sqs = super::client_at(&server, "eu-west-1", 1);
    let url = create(&sqs, "posted", &[]).await;
    let signed = "Authorization: AWS4-HMAC-SHA256 Credential=k/20260101/eu-west-1/sqs/aws4_request, SignedHeaders=host, Signature=x\r\n";
    let port = server.local_addr().port();
    // As old SDKs send: to the queue URL's path, without QueueUrl; the path strategy's path, and
    // the standard strategy's, whose region is in the host.
    for (path, host) in [
        (
            "/queue/eu-west-1/000000000000/posted",
            "localhost".to_string(),
        ),
        (
            "/000000000000/posted",
            format!("sqs.eu-west-1.localhost.localstack.cloud:{port}"),
        ),
    ] {
        let body = "Action=SendMessage&MessageBody=hi";
        let answer = raw(
            &server,
            format!(
                "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{signed}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        )
        .await;
        let (status, _, body) = status_head_body(&answer);
        assert_eq!(status, 200, "{path} {host}: {body}");
    }
    let got = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .send()
        .await?;
    assert_eq!(got.messages().len(), 2);
    Ok(())
}
