//! sqsctl: a command-line tool for Amazon SQS, and the libraries behind it.
//!
//! The engines live in crates of their own, which know nothing of clap or terminals: `sqsctl-core`
//! ([`client`], the thin layer over `aws-sdk-sqs`; [`redrive`], the DLQ redrive engine;
//! [`diagnose`], the FIFO and queue-settings analyzers; and the message, selection and worker
//! logic) and `sqsctl-local` ([`local`], the SQS-compatible server). Here, [`cli`] (clap structs),
//! [`commands`] (one file per subcommand) and [`output`] (the `Printer`) wire them to a terminal.

/// Queues with their depths and rates, from the engines' crate.
pub use sqsctl_core::queues;
/// The engines, from their own crate.
pub use sqsctl_core::{
    client, consume, diagnose, error, expression, interrupt, message, read_ledger, redrive, select,
    send, state_file, text,
};
pub use sqsctl_core::{delete, receive};
pub mod app;
pub mod cli;
pub mod commands;
pub mod completion;
pub mod exit;
pub mod hints;
/// The local SQS-compatible server, from its own crate.
pub use sqsctl_local as local;
pub mod output;
pub mod settings;
