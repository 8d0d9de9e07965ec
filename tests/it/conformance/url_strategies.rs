//! LocalStack's five queue URL strategies, compared with LocalStack itself under the same
//! settings: for each strategy, LocalStack is switched to it through its configuration endpoint
//! (`POST /_localstack/config`, on when LocalStack runs with `ENABLE_CONFIG_UPDATES=1`, as
//! `scripts/localstack.sh` starts it) and `sqsctl local --localstack` is started with it; both
//! create a queue in two regions and must hand out the same URL.
//!
//! It changes a setting of the shared LocalStack, so it is not among the `conformance::localstack`
//! tests that run together: `.ci/run` runs it on its own afterwards, and it puts LocalStack back
//! on the `path` strategy the other tests expect.

use sqsctl::local::{Server, ServerConfig, UrlStrategy};

use super::{authority, http_exchange};
use crate::support;

const STRATEGIES: [(&str, UrlStrategy); 5] = [
    ("standard", UrlStrategy::Standard),
    ("domain", UrlStrategy::Domain),
    ("path", UrlStrategy::Path),
    ("off", UrlStrategy::Off),
    ("dynamic", UrlStrategy::Dynamic),
];

/// The strategy `scripts/localstack.sh` starts LocalStack with, restored at the end.
const LOCALSTACK_DEFAULT: &str = "path";

/// Sets LocalStack's `SQS_ENDPOINT_STRATEGY` at run time.
async fn set_localstack_strategy(endpoint: &str, strategy: &str) {
    let body = format!(r#"{{"variable":"SQS_ENDPOINT_STRATEGY","value":"{strategy}"}}"#);
    let (status, _, answer) = http_exchange(endpoint, |host| {
        format!(
            "POST /_localstack/config HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    })
    .await;
    assert_eq!(
        status, 200,
        "LocalStack's configuration endpoint refused SQS_ENDPOINT_STRATEGY={strategy} \
         (start LocalStack with ENABLE_CONFIG_UPDATES=1, as scripts/localstack.sh does): {answer}"
    );
}

/// Creates queue `name` in `region` through the SDK: its URL, with `endpoint`'s own authority (which
/// the `dynamic` strategy takes from the request) written as `<endpoint>`.
async fn queue_url(endpoint: &str, region: &str, name: &str) -> String {
    let config = support::sdk_config(endpoint)
        .to_builder()
        .region(aws_sdk_sqs::config::Region::new(region.to_owned()))
        .build();
    let client = aws_sdk_sqs::Client::from_conf(config);
    let url = client
        .create_queue()
        .queue_name(name)
        .send()
        .await
        .unwrap_or_else(|e| panic!("creating {name} in {region} at {endpoint}: {e:?}"))
        .queue_url()
        .unwrap()
        .to_owned();
    client.delete_queue().queue_url(&url).send().await.ok();
    url.replace(authority(endpoint), "<endpoint>")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs LocalStack with ENABLE_CONFIG_UPDATES=1 (SQSCTL_LOCALSTACK_ENDPOINT); .ci/run runs it alone"]
async fn each_url_strategy_gives_the_same_urls_on_both_servers() {
    let localstack = support::localstack();
    // LocalStack is started with LOCALSTACK_HOST=localhost:<its port>; ours gets the same.
    let port = authority(&localstack)
        .rsplit_once(':')
        .unwrap()
        .1
        .to_owned();
    let mut differences = Vec::new();
    for (name, strategy) in STRATEGIES {
        set_localstack_strategy(&localstack, name).await;
        let ours = Server::start(ServerConfig {
            localstack: true,
            url_strategy: Some(strategy),
            url_host: Some(format!("localhost:{port}")),
            ..ServerConfig::default()
        })
        .expect("the local server starts");
        for region in ["us-east-1", "eu-west-1"] {
            let queue = support::unique_name("url-shape");
            let theirs = queue_url(&localstack, region, &queue).await;
            let mine = queue_url(ours.endpoint(), region, &queue).await;
            if theirs != mine {
                differences.push(format!(
                    "{name} in {region}: LocalStack {theirs}, ours {mine}"
                ));
            }
        }
    }
    set_localstack_strategy(&localstack, LOCALSTACK_DEFAULT).await;
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
