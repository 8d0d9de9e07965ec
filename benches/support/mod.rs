//! What the root crate's benchmarks share: the server crate's benchmark support (the SDK client,
//! the server's start-up, environment knobs, memory from /proc), included from there so that
//! each exists once in the workspace.

#[path = "../../crates/sqsctl-local/benches/support/mod.rs"]
mod shared;

pub use shared::*;

/// The `sqsctl` binary of this build in a cleared environment aimed at the local server at
/// `endpoint`, with `home` as its home: no input, output discarded, stderr kept.
#[allow(dead_code)]
pub fn sqsctl(endpoint: &str, home: &std::path::Path) -> std::process::Command {
    use std::process::Stdio;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sqsctl"));
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("AWS_CONFIG_FILE", home.join("aws-config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", home.join("aws-credentials"))
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ENDPOINT_URL_SQS", endpoint)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}
