//! The message commands (`send`, `receive`, `peek`, `delete`, `purge`) and the peek scan beneath
//! them: against the local server, under injected faults, and against LocalStack.

mod cli;
mod faults;
mod localstack;
mod peek_scan;
mod receive_truth;
