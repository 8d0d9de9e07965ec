//! The engines behind sqsctl, with no command line, terminal or output format: [`client`] is the
//! thin layer over `aws-sdk-sqs` (retries, batches, reads that weigh their cost), [`redrive`] the
//! DLQ redrive engine and its journal, [`diagnose`] the FIFO and queue-settings analyzers,
//! [`select`] message filters, [`consume`] the worker that runs a command per message, and
//! [`message`] the message record every command reads and writes. The `sqsctl` crate wires them
//! to a terminal.

pub mod client;
pub mod consume;
pub mod delete;
pub mod diagnose;
pub mod error;
pub mod expression;
pub mod interrupt;
pub mod message;
pub mod queues;
pub mod read_ledger;
pub mod receive;
pub mod redrive;
pub mod select;
pub mod send;
pub mod state_file;
pub mod text;
