//! What a web page open in a browser can make the server do: the requests browsers send without a
//! CORS preflight (`<img>` GETs, links, frames, form POSTs, `fetch` with `no-cors`) are refused
//! unless their origin is allowed, while SDK-shaped requests, which carry no `Origin` and no
//! `Sec-Fetch-*`, are served, state changes through GET included, as SQS serves them. Also the Query
//! protocol's strictness on what a page could smuggle in: repeated parameters and text that is not
//! UTF-8.

use aws_sdk_sqs::Client;
use sqsctl_local::{Server, ServerConfig};

use super::query_protocol::{Answer, assert_error, encode};
use super::{TestResult, attribute, client, create, raw};

/// A request with the extra header lines `headers` (each ending in `\r\n`).
fn request(method: &str, target: &str, headers: &str, body: &str) -> String {
    format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const FORM: &str = "Content-Type: application/x-www-form-urlencoded\r\n";

async fn queue_exists(server: &Server, name: &str) -> bool {
    client(server)
        .get_queue_url()
        .queue_name(name)
        .send()
        .await
        .is_ok()
}

#[tokio::test]
async fn pages_cannot_delete_queues_through_img_tags_forms_or_repeated_actions() -> TestResult {
    let server = Server::start(ServerConfig::default())?;
    let url = create(&client(&server), "precious", &[]).await;
    let delete = encode(&[("Action", "DeleteQueue"), ("QueueUrl", &url)]);

    // `<img src="http://127.0.0.1:9324/?Action=DeleteQueue&QueueUrl=...">`, as a browser sends it.
    let img = Answer::parse(
        &raw(
            &server,
            request(
                "GET",
                &format!("/?{delete}"),
                "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: image\r\n",
                "",
            ),
        )
        .await,
    );
    assert_error(&img, 403, "AccessDenied");
    assert!(img.text("Message").contains("Sec-Fetch-Site: cross-site"));

    // A link to the same URL, opened from a mail or a chat: the browser says the request comes
    // from no site (`none`), as for a URL typed in, but also that it is a navigation.
    let link = Answer::parse(
        &raw(
            &server,
            request(
                "GET",
                &format!("/?{delete}"),
                "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\nSec-Fetch-Dest: document\r\n",
                "",
            ),
        )
        .await,
    );
    assert_error(&link, 403, "AccessDenied");
    assert!(
        link.text("Message")
            .contains("DeleteQueue changes state and is refused through GET when a browser sends it for a page or a link (Sec-Fetch-Mode: navigate)"),
        "{}",
        link.body
    );
    // A frame or an image whose browser sends only the destination is refused the same way.
    let frame = Answer::parse(
        &raw(
            &server,
            request(
                "GET",
                &format!("/?{delete}"),
                "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Dest: iframe\r\n",
                "",
            ),
        )
        .await,
    );
    assert_error(&frame, 403, "AccessDenied");
    assert!(
        frame.text("Message").contains("Sec-Fetch-Dest: iframe"),
        "{}",
        frame.body
    );

    // An auto-submitted `<form method=post>` carries its page's Origin.
    let form = Answer::parse(
        &raw(
            &server,
            request(
                "POST",
                "/",
                &format!("{FORM}Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n"),
                &delete,
            ),
        )
        .await,
    );
    assert_error(&form, 403, "AccessDenied");
    assert!(
        form.text("Message")
            .contains("--allow-origin https://evil.example"),
        "{}",
        form.body
    );

    // A harmless action with DeleteQueue appended: which one counts is not left to chance.
    let smuggled = format!("Action=SendMessage&MessageBody=hi&{delete}");
    let repeated = Answer::parse(&raw(&server, request("POST", "/", FORM, &smuggled)).await);
    assert_error(&repeated, 403, "AccessDenied");
    assert!(
        repeated
            .text("Message")
            .contains("Action is given more than once"),
        "{}",
        repeated.body
    );

    // `fetch(url, {method: "POST", mode: "no-cors", body})` in the JSON protocol's shape.
    let json = raw(
        &server,
        request(
            "POST",
            "/",
            "Content-Type: text/plain\r\nX-Amz-Target: AmazonSQS.DeleteQueue\r\nOrigin: null\r\n",
            &format!(r#"{{"QueueUrl":"{url}"}}"#),
        ),
    )
    .await;
    assert!(json.starts_with("HTTP/1.1 403"), "{json}");
    assert!(
        json.contains("x-amzn-query-error: AccessDenied;Sender"),
        "{json}"
    );
    assert!(json.contains(r#""__type":"com.amazon.coral.service#AccessDeniedException""#));

    // The server's own paths are refused to pages too.
    let stats = raw(
        &server,
        request(
            "GET",
            "/_sqsctl/stats",
            "Sec-Fetch-Site: cross-site\r\n",
            "",
        ),
    )
    .await;
    assert!(stats.starts_with("HTTP/1.1 403"), "{stats}");

    assert!(queue_exists(&server, "precious").await);
    server.shutdown().await;
    Ok(())
}

/// A form POST of a SendMessage `body` to a queue that was empty: it is answered 200 and the
/// message waits in the queue.
async fn post_one_message(server: &Server, sqs: &Client, url: &str, body: &str) {
    let sent = Answer::parse(&raw(server, request("POST", "/", FORM, body)).await);
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(
        attribute(sqs, url, "ApproximateNumberOfMessages").await,
        "1"
    );
}

/// A server on the real clock, a client for it and the URL of a new queue `name`.
async fn server_with_queue(name: &str) -> Result<(Server, Client, String), std::io::Error> {
    let server = Server::start(ServerConfig::default())?;
    let sqs = client(&server);
    let url = create(&sqs, name, &[]).await;
    Ok((server, sqs, url))
}

#[tokio::test]
async fn clients_without_an_origin_and_read_only_gets_are_served() -> TestResult {
    let (server, sqs, url) = server_with_queue("readable").await?;

    // Read-only actions stay on GET, as SQS serves them; so do a browser's own navigations
    // (Sec-Fetch-Site: none is a URL typed in the address bar).
    for headers in [
        "",
        "Sec-Fetch-Site: none\r\n",
        "Sec-Fetch-Site: same-origin\r\n",
    ] {
        let query = encode(&[
            ("Action", "GetQueueAttributes"),
            ("QueueUrl", &url),
            ("AttributeName.1", "ApproximateNumberOfMessages"),
        ]);
        let get =
            Answer::parse(&raw(&server, request("GET", &format!("/?{query}"), headers, "")).await);
        assert_eq!(get.status, 200, "{headers}: {}", get.body);
    }
    let list = Answer::parse(
        &raw(
            &server,
            request(
                "GET",
                &format!("/?{}", encode(&[("Action", "ListQueues")])),
                "",
                "",
            ),
        )
        .await,
    );
    assert_eq!(list.text("QueueUrl"), url);
    let unknown = Answer::parse(&raw(&server, request("GET", "/?Action=Bogus", "", "")).await);
    assert_error(&unknown, 400, "InvalidAction");

    // A form POST without browser headers is how aws-sdk-js v2 and old boto3 speak.
    let body = encode(&[
        ("Action", "SendMessage"),
        ("QueueUrl", &url),
        ("MessageBody", "hi"),
    ]);
    post_one_message(&server, &sqs, &url, &body).await;
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn programs_change_state_through_get_as_sqs_serves_them() -> TestResult {
    let (server, sqs, url) = server_with_queue("by-get").await?;
    // curl, an SDK's presigned URL, a script: no Origin, no Sec-Fetch-*.
    let send = encode(&[
        ("Action", "SendMessage"),
        ("QueueUrl", &url),
        ("MessageBody", "sent by GET"),
    ]);
    let sent = Answer::parse(&raw(&server, request("GET", &format!("/?{send}"), "", "")).await);
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(
        attribute(&sqs, &url, "ApproximateNumberOfMessages").await,
        "1"
    );
    // A page's fetch() is no navigation: from an origin --allow-origin names, it is served.
    let page = Server::start(ServerConfig {
        allowed_origins: vec!["http://localhost:3000".into()],
        ..ServerConfig::default()
    })?;
    let page_url = create(&client(&page), "from-fetch", &[]).await;
    let purge = encode(&[("Action", "PurgeQueue"), ("QueueUrl", &page_url)]);
    let fetched = Answer::parse(
        &raw(
            &page,
            request(
                "GET",
                &format!("/?{purge}"),
                "Origin: http://localhost:3000\r\nSec-Fetch-Site: same-site\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n",
                "",
            ),
        )
        .await,
    );
    assert_eq!(fetched.status, 200, "{}", fetched.body);
    // DeleteQueue by GET, the state change a page must never make, from a program.
    let delete = encode(&[("Action", "DeleteQueue"), ("QueueUrl", &url)]);
    let deleted =
        Answer::parse(&raw(&server, request("GET", &format!("/?{delete}"), "", "")).await);
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert!(!queue_exists(&server, "by-get").await);
    page.shutdown().await;
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn allowed_origins_are_served_with_cors_headers() -> TestResult {
    let server = Server::start(ServerConfig {
        allowed_origins: vec!["http://localhost:3000".into()],
        ..ServerConfig::default()
    })?;
    let origin = "Origin: http://localhost:3000\r\nSec-Fetch-Site: same-site\r\n";
    let preflight = raw(
        &server,
        request(
            "OPTIONS",
            "/",
            &format!("{origin}Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type,x-amz-target\r\n"),
            "",
        ),
    )
    .await;
    assert!(preflight.starts_with("HTTP/1.1 204"), "{preflight}");
    assert!(preflight.contains("access-control-allow-origin: http://localhost:3000"));
    assert!(preflight.contains("access-control-allow-methods: GET, POST"));
    assert!(preflight.contains("x-amz-target"), "{preflight}");

    let created = raw(
        &server,
        request(
            "POST",
            "/",
            &format!("{origin}Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.CreateQueue\r\n"),
            r#"{"QueueName":"from-page"}"#,
        ),
    )
    .await;
    assert!(created.starts_with("HTTP/1.1 200"), "{created}");
    assert!(created.contains("access-control-allow-origin: http://localhost:3000"));
    assert!(created.contains("access-control-expose-headers: x-amzn-requestid"));

    let other = raw(
        &server,
        request(
            "POST",
            "/",
            "Origin: http://localhost:3001\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.CreateQueue\r\n",
            r#"{"QueueName":"from-other-page"}"#,
        ),
    )
    .await;
    assert!(other.starts_with("HTTP/1.1 403"), "{other}");
    assert!(!other.contains("access-control-allow-origin"));
    assert!(queue_exists(&server, "from-page").await);
    assert!(!queue_exists(&server, "from-other-page").await);
    server.shutdown().await;
    Ok(())
}

#[tokio::test]
async fn text_that_is_not_utf8_is_refused_in_both_protocols() -> TestResult {
    let (server, sqs, url) = server_with_queue("text").await?;

    // The JSON protocol's answer, which the Query protocol mirrors.
    let mut json = request(
        "POST",
        "/",
        "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.SendMessage\r\n",
        &format!(r#"{{"QueueUrl":"{url}","MessageBody":"a?b"}}"#),
    )
    .into_bytes();
    let at = json.iter().rposition(|b| *b == b'?').unwrap_or_default();
    json[at] = 0xFF;
    let json = raw(&server, &json).await;
    assert!(json.starts_with("HTTP/1.1 400"), "{json}");
    assert!(json.contains(r#""__type":"com.amazon.coral.service#SerializationException""#));

    let encoded = format!(
        "Action=SendMessage&QueueUrl={}&MessageBody=a%FFb",
        form_urlencoded::byte_serialize(url.as_bytes()).collect::<String>()
    );
    let percent = Answer::parse(&raw(&server, request("POST", "/", FORM, &encoded)).await);
    assert_error(&percent, 400, "MalformedQueryString");
    assert!(
        percent.text("Message").contains("not valid UTF-8"),
        "{}",
        percent.body
    );

    let mut raw_byte = request("POST", "/", FORM, &encoded.replace("%FF", "?")).into_bytes();
    let at = raw_byte
        .iter()
        .rposition(|b| *b == b'?')
        .unwrap_or_default();
    raw_byte[at] = 0xFE;
    let unencoded = Answer::parse(&raw(&server, &raw_byte).await);
    assert_error(&unencoded, 400, "MalformedQueryString");

    // Valid multi-byte text, encoded or not, still goes through.
    let accented = encoded.replace("a%FFb", "caf%C3%A9");
    post_one_message(&server, &sqs, &url, &accented).await;
    server.shutdown().await;
    Ok(())
}
