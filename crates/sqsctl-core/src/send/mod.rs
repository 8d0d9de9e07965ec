//! What `send` needs below the command line: reading records from a stream, filling in defaults,
//! checking them against SQS's rules and grouping them into batches.

pub mod input;
