//! sqsctl: a command-line tool for Amazon SQS, and the libraries behind it.
//!
//! The crate is split so that each engine can be used without the command line: [`local`] is an
//! SQS-compatible server, [`client`] the thin layer over `aws-sdk-sqs`, [`redrive`] the DLQ redrive
//! engine and [`diagnose`] the FIFO and queue-settings analyzers. [`cli`] (clap structs),
//! [`commands`] (one file per subcommand) and [`output`] (the `Printer`) wire them to a terminal.

pub mod app;
pub mod cli;
pub mod client;
pub mod commands;
pub mod completion;
pub mod consume;
pub mod diagnose;
pub mod error;
pub mod exit;
pub mod interrupt;
/// The local SQS-compatible server, from its own crate.
pub use sqsctl_local as local;
pub mod message;
pub mod output;
pub mod read_ledger;
pub mod redrive;
pub mod select;
pub mod state_file;
pub mod text;
