//! Engines over queues as a whole, behind `queues`, `top` and `queue`: [`listing`] reads every
//! queue's depth and dead-letter settings, and [`rates`] samples the listing again and again and
//! derives each queue's rates; [`info`] describes one queue; [`attributes`] holds the rules of the
//! settable attributes, [`dlq`] the dead-letter queue wiring, [`tags`] the rules of queue tags and
//! [`permissions`] those of permissions and the policy statements they are; [`create`] and
//! [`change`] create a queue and change its settings. Nothing here prints.

pub mod attributes;
pub mod change;
pub mod create;
pub mod dlq;
pub mod info;
pub mod listing;
pub mod permissions;
pub mod rates;
pub mod tags;
