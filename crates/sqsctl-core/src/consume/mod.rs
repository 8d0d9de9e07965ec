//! The worker engine behind `sqsctl consume`: receive messages, run a command once per message,
//! delete the message when the command exits 0, release it for a retry when it fails.
//!
//! [`run`] is the run loop, driven by a [`Plan`] of finished values and the [`Options`] it needs
//! besides, on a [`Source`] queue; it tells its caller what happens through [`Update`]s, ends with
//! a [`Summary`], and prints nothing. Below it: which received message runs next (the
//! [`Scheduler`], with FIFO lanes), how long a message that failed stays hidden before its retry
//! ([`retry_delay`]), which held messages need their visibility extended ([`Holdings`], the
//! heartbeat's book), how a message appears to its command ([`message_env`]), each command's
//! process in a process group of its own, what they leave behind ([`family`]: the run adopts it
//! and stops it when it ends), and the [`watchdog`] process that stops the commands if the run is
//! killed.

mod child;
mod deliveries;
mod environment;
pub mod family;
mod holdings;
mod options;
mod outcome;
mod receive;
mod schedule;
mod settle;
mod source;
pub mod watchdog;
mod worker;

pub use child::{Ending, OutputMode, Stream, find_program};
pub use deliveries::{Deliveries, Delivery};
pub use environment::{env_name, message_env};
pub use holdings::Holdings;
pub use options::{Options, Plan};
pub use outcome::{Counts, DeadLetter, Outcome, Status, Stopped, Summary, Update};
pub use schedule::{Finished, JobId, Scheduler};
pub use source::Source;
pub use watchdog::Watchdog;
pub use worker::run;

use std::time::Duration;

pub use crate::client::limits::MAX_VISIBILITY;

/// The exit code that asks for a retry at once (sysexits' EX_TEMPFAIL, "try again later").
pub const EX_TEMPFAIL: i32 = 75;

/// How long a message that failed stays hidden before SQS delivers it again: `base` for its first
/// receive, doubling with each further receive, at most `max` (and SQS's 12 hours), in whole
/// seconds rounded up, as ChangeMessageVisibility counts them.
pub fn retry_delay(base: Duration, max: Duration, receive_count: u64) -> Duration {
    let doublings = receive_count.saturating_sub(1).min(32) as u32;
    let grown = base.saturating_mul(2u32.saturating_pow(doublings));
    let capped = grown.min(max).min(MAX_VISIBILITY);
    let whole = capped.as_secs() + u64::from(capped.subsec_nanos() > 0);
    Duration::from_secs(whole.min(MAX_VISIBILITY.as_secs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_delay_doubles_with_each_receive_up_to_its_cap() {
        let base = Duration::from_secs(10);
        let max = Duration::from_secs(300);
        let delays: Vec<u64> = (1..=7)
            .map(|count| retry_delay(base, max, count).as_secs())
            .collect();
        assert_eq!(delays, vec![10, 20, 40, 80, 160, 300, 300]);
        // A receive count of 0 (an attribute SQS did not send) reads as the first receive.
        assert_eq!(retry_delay(base, max, 0).as_secs(), 10);
    }

    #[test]
    fn retry_delay_is_whole_seconds_within_twelve_hours() {
        let tenth = Duration::from_millis(100);
        assert_eq!(
            retry_delay(tenth, MAX_VISIBILITY, 1),
            Duration::from_secs(1)
        );
        assert_eq!(
            retry_delay(Duration::ZERO, MAX_VISIBILITY, 9),
            Duration::ZERO
        );
        let huge = retry_delay(Duration::from_secs(3600), Duration::MAX, u64::MAX);
        assert_eq!(huge, MAX_VISIBILITY);
    }
}
