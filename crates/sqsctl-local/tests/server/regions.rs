//! Regions kept apart, as on SQS: a request sees the queues of the region it was signed for, the
//! same name may exist in several regions, and queue URLs and ARNs carry the region.

use aws_sdk_sqs::Client;
use aws_sdk_sqs::types::QueueAttributeName;
use sqsctl_local::{Server, ServerConfig};

use super::{TestResult, attribute, code, create, manual_server, raw, send};

fn client_in(server: &Server, region: &str) -> Client {
    super::client_at(server, region, 1)
}

async fn listed(sqs: &Client) -> Vec<String> {
    sqs.list_queues()
        .send()
        .await
        .expect("list queues")
        .queue_urls()
        .to_vec()
}

#[tokio::test]
async fn the_same_name_in_two_regions_is_two_queues() -> TestResult {
    let server = manual_server();
    let (us, eu) = (
        client_in(&server, "us-east-1"),
        client_in(&server, "eu-west-1"),
    );
    let us_url = create(&us, "orders", &[("VisibilityTimeout", "10")]).await;
    let eu_url = create(&eu, "orders", &[("VisibilityTimeout", "20")]).await;
    let endpoint = server.endpoint();
    assert_eq!(us_url, format!("{endpoint}/000000000000/orders"));
    assert_eq!(eu_url, format!("{endpoint}/eu-west-1/000000000000/orders"));
    assert_eq!(eu_url, server.queue_url_in("eu-west-1", "orders"));
    assert_eq!(
        attribute(&eu, &eu_url, "QueueArn").await,
        "arn:aws:sqs:eu-west-1:000000000000:orders"
    );
    assert_eq!(
        attribute(&us, &us_url, "QueueArn").await,
        "arn:aws:sqs:us-east-1:000000000000:orders"
    );
    assert_eq!(attribute(&eu, &eu_url, "VisibilityTimeout").await, "20");
    assert_eq!(attribute(&us, &us_url, "VisibilityTimeout").await, "10");

    create(&eu, "only-in-eu", &[]).await;
    assert_eq!(listed(&us).await, [us_url.as_str()]);
    assert_eq!(
        listed(&eu).await,
        [
            server.queue_url_in("eu-west-1", "only-in-eu"),
            eu_url.clone()
        ]
    );
    assert!(listed(&client_in(&server, "ap-south-1")).await.is_empty());
    let elsewhere = us.get_queue_url().queue_name("only-in-eu").send().await;
    assert_eq!(code(elsewhere), "AWS.SimpleQueueService.NonExistentQueue");
    let found = eu.get_queue_url().queue_name("orders").send().await?;
    assert_eq!(found.queue_url(), Some(eu_url.as_str()));

    // A URL names one queue: used with a signature of another region it names none.
    let sent = eu
        .send_message()
        .queue_url(&us_url)
        .message_body("x")
        .send();
    assert_eq!(code(sent.await), "AWS.SimpleQueueService.NonExistentQueue");
    let sent = us
        .send_message()
        .queue_url(&eu_url)
        .message_body("x")
        .send();
    assert_eq!(code(sent.await), "AWS.SimpleQueueService.NonExistentQueue");
    send(&eu, &eu_url, "for eu").await?;
    assert_eq!(
        attribute(&us, &us_url, "ApproximateNumberOfMessages").await,
        "0"
    );
    assert_eq!(
        attribute(&eu, &eu_url, "ApproximateNumberOfMessages").await,
        "1"
    );

    // Deleting one leaves the other, and the name's cooldown is the region's own.
    eu.delete_queue().queue_url(&eu_url).send().await?;
    assert_eq!(listed(&us).await, [us_url.as_str()]);
    let again = eu.create_queue().queue_name("orders").send().await;
    assert_eq!(code(again), "AWS.SimpleQueueService.QueueDeletedRecently");
    create(&client_in(&server, "eu-central-1"), "orders", &[]).await;
    Ok(())
}

#[tokio::test]
async fn dead_letter_queues_and_move_tasks_stay_in_their_region() -> TestResult {
    let server = manual_server();
    let (us, eu) = (
        client_in(&server, "us-east-1"),
        client_in(&server, "eu-west-1"),
    );
    create(&us, "orders-dlq", &[]).await;
    let us_dlq_arn = server.queue_arn("orders-dlq");
    let across = format!(r#"{{"deadLetterTargetArn":"{us_dlq_arn}","maxReceiveCount":3}}"#);
    let refused = eu
        .create_queue()
        .queue_name("orders")
        .attributes(QueueAttributeName::RedrivePolicy, &across)
        .send()
        .await;
    assert_eq!(code(refused), "InvalidParameterValue");
    let eu_source = create(&eu, "orders", &[]).await;
    let refused = eu
        .set_queue_attributes()
        .queue_url(&eu_source)
        .attributes(QueueAttributeName::RedrivePolicy, &across)
        .send()
        .await;
    assert_eq!(code(refused), "InvalidParameterValue");

    create(&eu, "orders-dlq", &[]).await;
    let eu_dlq_arn = "arn:aws:sqs:eu-west-1:000000000000:orders-dlq";
    let within = format!(r#"{{"deadLetterTargetArn":"{eu_dlq_arn}","maxReceiveCount":1}}"#);
    eu.set_queue_attributes()
        .queue_url(&eu_source)
        .attributes(QueueAttributeName::RedrivePolicy, &within)
        .send()
        .await?;
    let sources = eu
        .list_dead_letter_source_queues()
        .queue_url(server.queue_url_in("eu-west-1", "orders-dlq"))
        .send()
        .await?;
    assert_eq!(sources.queue_urls(), [eu_source.as_str()]);
    let sources = us
        .list_dead_letter_source_queues()
        .queue_url(server.queue_url("orders-dlq"))
        .send()
        .await?;
    assert!(sources.queue_urls().is_empty());

    // A move task is started in the region of its queues.
    let started = us
        .start_message_move_task()
        .source_arn(eu_dlq_arn)
        .send()
        .await;
    assert_eq!(code(started), "ResourceNotFoundException");
    let started = eu
        .start_message_move_task()
        .source_arn(eu_dlq_arn)
        .destination_arn(&us_dlq_arn)
        .send()
        .await;
    assert_eq!(code(started), "ResourceNotFoundException");
    eu.start_message_move_task()
        .source_arn(eu_dlq_arn)
        .send()
        .await?;
    Ok(())
}

/// A JSON-protocol request by hand, with the given extra headers (an `Authorization` or none).
fn signed_post(target: &str, headers: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.{target}\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

fn scoped_to(region: &str) -> String {
    format!(
        "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/{region}/sqs/aws4_request, SignedHeaders=host, Signature=00\r\n"
    )
}

#[tokio::test]
async fn unsigned_requests_and_inspection_use_the_default_region_and_urls() -> TestResult {
    let server = Server::start(ServerConfig {
        region: "eu-north-1".into(),
        ..ServerConfig::default()
    })?;
    let (default, other) = (
        client_in(&server, "eu-north-1"),
        client_in(&server, "us-west-2"),
    );
    let home = create(&default, "home", &[]).await;
    assert_eq!(home, format!("{}/000000000000/home", server.endpoint()));
    let away = create(&other, "away", &[]).await;
    send(&other, &away, "hello").await?;

    let unsigned = raw(&server, signed_post("ListQueues", "", "{}")).await;
    assert!(
        unsigned.contains(&home) && !unsigned.contains(&away),
        "{unsigned}"
    );
    let signed = raw(
        &server,
        signed_post("ListQueues", &scoped_to("us-west-2"), "{}"),
    )
    .await;
    assert!(
        signed.contains(&away) && !signed.contains(&home),
        "{signed}"
    );
    let bad = raw(
        &server,
        signed_post("ListQueues", &scoped_to("Not A Region"), "{}"),
    )
    .await;
    assert!(bad.starts_with("HTTP/1.1 403"), "{bad}");
    assert!(bad.contains("valid region"), "{bad}");

    // The Query protocol posted to a queue's URL, as older SDKs do: the path names the queue.
    let path = away.trim_start_matches(server.endpoint());
    let body = "Action=GetQueueAttributes&AttributeName.1=ApproximateNumberOfMessages";
    let query = raw(
        &server,
        format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n{}Content-Length: {}\r\n\r\n{body}",
            scoped_to("us-west-2"),
            body.len()
        ),
    )
    .await;
    assert!(query.contains("<Value>1</Value>"), "{query}");

    // The inspection endpoints are not signed: the URL says which queue.
    let listing = raw(
        &server,
        format!(
            "GET /_sqsctl/v1/messages?QueueUrl={away} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ),
    )
    .await;
    assert!(listing.contains(r#""Body":"hello""#), "{listing}");
    server.shutdown().await;
    Ok(())
}
