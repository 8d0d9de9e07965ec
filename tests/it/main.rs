//! The integration tests of the `sqsctl` crate, in one binary: each module is a subject, and each
//! test runs the real binary (or the library's client) against a real server over HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod browse;
mod completion;
mod conformance;
mod connection;
mod consume;
mod delete;
mod demo;
mod diagnose;
mod envelope;
mod everyday_localstack;
mod faults;
mod formats;
mod generated;
mod groups;
mod help;
mod local;
mod lookup;
mod output;
mod peek;
mod prompts;
mod purge;
mod query;
mod queue;
mod queue_url_cache;
mod queues;
mod read_guard;
mod readme;
mod receive;
mod redrive;
mod selection;
mod send;
mod signals;
mod top;
mod values;
mod visibility;
