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

mod api_messages;
mod api_queues;
mod api_receive;
mod attempts;
mod attrs;
mod clock;
mod conn_limits;
mod disk;
#[cfg(test)]
mod dispatch_props;
mod error;
mod fair;
#[cfg(test)]
mod fair_props;
mod faults;
mod fifo;
mod hosts;
mod init;
mod inspect;
mod inspect_groups;
mod journal;
mod limits;
mod md5;
mod message;
mod origins;
mod persist;
mod protocol;
mod query;
mod query_decode;
mod query_encode;
mod query_shapes;
mod queue;
mod realism;
mod receipt;
mod recover;
mod region;
mod server;
mod service;
mod slab;
mod store;
mod tasks;
mod validate;
mod wal;

pub use clock::Clock;
pub use faults::Stats;
pub use init::{AttributeValue, InitError, InitReport, InitSpec, QueueSpec};
pub use limits::default_max_bytes;
pub use persist::Restored;
pub use realism::{MAX_COUNT_LAG, MAX_REORDER_WINDOW, Realism, SMALL_QUEUE};
pub use recover::{Recovery, recover};
pub use server::{DEFAULT_REGION, Ready, Server, ServerConfig, serve_until};
