//! `sqsctl redrive`: its behaviour against the local server, its guarantees under faults, Ctrl-C
//! and `kill -9`, the journals of past runs, and the same moves against LocalStack.

mod cli;
mod destinations;
mod groups;
mod journals;
mod like_sqs;
mod localstack;
pub(crate) mod reliability;
mod rewrite;
