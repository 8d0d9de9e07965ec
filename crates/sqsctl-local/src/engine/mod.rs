//! The queue engine: messages and where they are (visible, in flight, delayed), FIFO groups and
//! deduplication, the order of standard queues, fair delivery, the departures of `--like-sqs`,
//! queue settings and their validation (the `Policy` statements of AddPermission and
//! RemovePermission too), the memory bound, and the journal of changes that persistence writes.

pub mod attempts;
pub mod attrs;
pub mod fair;
#[cfg(test)]
mod fair_props;
pub mod fifo;
pub mod journal;
pub mod limits;
pub mod md5;
pub mod message;
pub mod policy;
pub mod queue;
pub mod realism;
pub mod receipt;
pub mod slab;
pub mod standard;
pub mod store;
pub mod validate;
