//! What the root crate's benchmarks share: the server crate's benchmark support (the SDK client,
//! the server's start-up, environment knobs, memory from /proc), included from there so that
//! each exists once in the workspace.

#[path = "../../crates/sqsctl-local/benches/support/mod.rs"]
mod shared;

pub use shared::*;
