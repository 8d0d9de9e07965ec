//! The integration tests of the `sqsctl` crate, in one binary: each module is a subject, and each
//! test runs the real binary (or the library's client) against a real server over HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod conformance;
mod consume;
mod demo;
mod diagnose;
mod formats;
mod generated;
mod help;
mod live;
mod local;
mod local_persist;
mod messages;
mod on_call;
mod output;
mod queue_set;
mod queues;
mod readme;
mod redrive;
mod risk_guard;
mod signals;
mod tags_query;
mod top;
mod values;
