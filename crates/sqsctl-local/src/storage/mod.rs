//! The data directory: its SQLite file and write-ahead log, and recovery of a damaged one.

pub mod disk;
pub mod recover;
pub mod rows;
pub mod salvage;
pub mod wal;
