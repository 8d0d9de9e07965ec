//! What the server crate's test binaries share: an SDK client for a server, configured in code
//! (credentials, region, HTTP client), so the environment running the tests does not matter.

use aws_sdk_sqs::Client;
use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region, retry::RetryConfig};
use sqsctl_local::Server;

/// A client signing for `region`, trying each call `attempts` times.
pub fn client_at(server: &Server, region: &str, attempts: u32) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .region(Region::new(region.to_string()))
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(server.endpoint())
        .retry_config(RetryConfig::standard().with_max_attempts(attempts))
        .build();
    Client::from_conf(config)
}
