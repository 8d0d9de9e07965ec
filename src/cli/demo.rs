//! Arguments of `sqsctl demo`.
//!
//! The server's region is the global `--region` (default us-east-1), as for `sqsctl local`.

use std::net::SocketAddr;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The demo needs no AWS account and touches none: it starts a local SQS-compatible server inside this process, builds the queues, runs each step as `sqsctl <command>` against it and stops the server at the end (unless --keep). Each step is explained on stdout before its output."
)]
pub struct DemoArgs {
    /// Address and port of the demo's server (default: a free port on 127.0.0.1)
    #[arg(long, default_value = "127.0.0.1:0", value_name = "ADDR:PORT")]
    pub bind: SocketAddr,
    /// Leave the server and its queues running after the demo, until Ctrl-C, to go on by hand
    #[arg(long)]
    pub keep: bool,
}
