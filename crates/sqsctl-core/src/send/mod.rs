//! What `send` needs below the command line: reading records from a stream, filling in defaults,
//! checking them against SQS's rules and grouping them into batches ([`input`]), and sending the
//! batches with each entry's outcome tallied ([`stream`]).

pub mod input;
pub mod stream;
