//! Engines over queues as a whole: [`listing`] reads every queue's depth and dead-letter settings
//! (what `queues` lists), and [`rates`] samples the listing again and again and derives each queue's
//! rates (what `top` shows). Nothing here prints.

pub mod listing;
pub mod rates;
