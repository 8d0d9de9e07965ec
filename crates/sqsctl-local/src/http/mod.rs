//! What is decided from HTTP alone: connection limits, request bodies, allowed `Host` headers,
//! web origins, and the region a request was signed for.

pub mod bodies;
pub mod conn_limits;
pub mod hosts;
pub mod origins;
pub mod region;
