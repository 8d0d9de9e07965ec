//! An in-process SQS-compatible server, for tests, benchmarks and `sqsctl local`.
//!
//! It serves both protocols SQS clients speak, AWS JSON 1.0 (current SDKs) and the older Query
//! protocol (form-encoded requests, XML answers), from one action table, with SQS's semantics
//! (visibility timeouts, delays, retention, FIFO groups and deduplication, fair delivery on standard
//! queues with group ids, dead-letter queues, message move tasks) and its error codes. With a data directory it keeps its state across
//! restarts. Every timing rule reads a [`Clock`] that tests can freeze and advance, and faults and latency can be injected for reliability tests. Exact by
//! default, it can also behave as SQS does where SQS is not exact ([`Realism`]: short polls that
//! sample, duplicate deliveries, best-effort order, lagging counts). It is a crate
//! of its own so that nothing of the command line can creep into it: the compiler keeps that
//! boundary.
//!
//! ```no_run
//! let server = sqsctl_local::Server::start(sqsctl_local::ServerConfig::default())?;
//! println!("export AWS_ENDPOINT_URL_SQS={}", server.endpoint());
//! # Ok::<(), std::io::Error>(())
//! ```

mod api;
mod clock;
#[cfg(test)]
mod dispatch_props;
mod engine;
mod error;
mod faults;
mod http;
mod init;
mod init_dir;
mod inspect;
mod localstack;
mod router;
mod server;
mod service;
mod storage;
mod wire;

pub use clock::Clock;
pub use engine::limits::{MAX_IN_FLIGHT, default_max_bytes};
pub use engine::realism::{MAX_COUNT_LAG, MAX_REORDER_WINDOW, Realism, SMALL_QUEUE};
pub use faults::Stats;
pub use http::conn_limits::{DATA_RATE_GRACE, MIN_DATA_RATE, raise_open_file_limit};
pub use http::queue_urls::UrlStrategy;
pub use init::{AttributeValue, InitError, InitReport, InitSpec, QueueSpec};
pub use init_dir::{InitObserver, InitOutcome, InitStep};
pub use server::{DEFAULT_REGION, Ready, Server, ServerConfig, serve_until};
pub use service::persist::Restored;
pub use storage::disk::DiskError;
pub use storage::recover::{Recovery, recover};
