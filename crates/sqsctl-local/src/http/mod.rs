//! What is decided from HTTP alone: connection limits, request bodies, allowed `Host` headers,
//! web origins, the region a request was signed for, and the shapes of queue URLs.

pub mod bodies;
pub mod conn_limits;
pub mod hosts;
pub mod origins;
pub mod queue_urls;
pub mod region;
