//! `sqsctl redrive`: its behaviour against the local server, its guarantees under faults, Ctrl-C
//! and `kill -9`, and the same moves against LocalStack.

mod cli;
mod groups;
mod like_sqs;
mod localstack;
pub(crate) mod reliability;
