//! Engines over queues as a whole: [`listing`] reads every queue's depth and dead-letter settings
//! (what `queues` lists), and [`rates`] samples the listing again and again and derives each queue's
//! rates (what `top` shows); [`attributes`] holds the rules of the settable attributes, [`dlq`] the
//! dead-letter queue wiring, [`tags`] the rules of queue tags, and [`create`] and [`change`] create
//! a queue and change its settings.
//! Nothing here prints.

pub mod attributes;
pub mod change;
pub mod create;
pub mod dlq;
pub mod listing;
pub mod rates;
pub mod tags;
