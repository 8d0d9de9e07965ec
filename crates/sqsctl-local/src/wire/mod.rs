//! The Query protocol's codec: form parameters in, XML out, driven by the actions' shapes.

pub mod query;
pub mod query_decode;
pub mod query_encode;
pub mod query_shapes;
