//! Property tests of fair delivery: whatever the sends, receives, deletes, visibility changes,
//! move-task takes and clock moves, the per-tenant counts match the messages, every receive obeys
//! the noisy-neighbour rule, and every visible message can be received.

use std::collections::HashMap;

use proptest::prelude::*;

use crate::engine::fair::{Load, is_noisy};
use crate::engine::message::{State, StoredMessage};
use crate::engine::store::{Ask, Messages, VisibilityChange};

const T0: u64 = 1_700_000_000_000;
const TENANTS: [Option<&str>; 4] = [Some("a"), Some("b"), Some("c"), None];

#[derive(Debug, Clone)]
enum Op {
    Send { tenant: usize, count: usize },
    Receive { count: usize, visibility_ms: u64 },
    Delete { pick: usize },
    Release { pick: usize },
    Take { count: usize },
    Advance { ms: u64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..TENANTS.len(), 1..80usize).prop_map(|(tenant, count)| Op::Send { tenant, count }),
        (
            1..80usize,
            prop_oneof![Just(0u64), Just(5_000), Just(3_600_000)]
        )
            .prop_map(|(count, visibility_ms)| Op::Receive {
                count,
                visibility_ms
            }),
        any::<usize>().prop_map(|pick| Op::Delete { pick }),
        any::<usize>().prop_map(|pick| Op::Release { pick }),
        (1..15usize).prop_map(|count| Op::Take { count }),
        prop_oneof![Just(1_000u64), Just(10_000), Just(301_000)].prop_map(|ms| Op::Advance { ms }),
    ]
}

/// Each tenant's counts, recounted from the messages.
fn recount(messages: &Messages) -> HashMap<String, (usize, usize)> {
    let mut out: HashMap<String, (usize, usize)> = HashMap::new();
    for (_, message) in messages.iter() {
        let Some(group) = &message.group_id else {
            continue;
        };
        let counts = out.entry(group.to_string()).or_default();
        match message.state {
            State::Visible => counts.0 += 1,
            State::InFlight { .. } => counts.1 += 1,
            State::Delayed { .. } => {}
        }
    }
    out
}

fn in_flight(messages: &Messages) -> Vec<(u64, u32)> {
    let mut keys: Vec<(u64, u32)> = messages
        .iter()
        .filter(|(_, m)| matches!(m.state, State::InFlight { .. }))
        .map(|(key, m)| (key, m.receive_count))
        .collect();
    keys.sort_unstable();
    keys
}

/// Receives one message and checks the choice against the rule, as of the state before it.
fn receive_one(
    messages: &mut Messages,
    now: u64,
    visibility_ms: u64,
    last_sent: &HashMap<String, u64>,
) -> Result<(), TestCaseError> {
    let counts = recount(messages);
    let queue_in_flight = messages.counts().in_flight;
    let load = |group: &str| {
        let (visible, in_flight) = counts.get(group).copied().unwrap_or_default();
        Load {
            visible,
            in_flight,
            last_sent: last_sent.get(group).copied().unwrap_or(0),
        }
    };
    let noisy =
        |group: Option<&str>| group.is_some_and(|g| is_noisy(load(g), queue_in_flight, now));
    let visible: Vec<&StoredMessage> = messages
        .iter()
        .map(|(_, m)| m)
        .filter(|m| m.state == State::Visible)
        .collect();
    let quiet_waiting = visible.iter().any(|m| !noisy(m.group_id.as_deref()));
    let fewest_noisy = visible
        .iter()
        .filter_map(|m| m.group_id.as_deref())
        .filter(|g| noisy(Some(g)))
        .map(|g| load(g).in_flight)
        .min();
    let any_visible = !visible.is_empty();
    let got = messages.receive(now, Ask::new(1, visibility_ms), None);
    prop_assert_eq!(got.messages.len(), usize::from(any_visible));
    if let Some((_, message)) = got.messages.first() {
        let group = message.group_id.as_deref();
        if quiet_waiting {
            prop_assert!(
                !noisy(group),
                "noisy {group:?} served while a quiet one waited"
            );
        } else {
            prop_assert_eq!(group.map(|g| load(g).in_flight), fewest_noisy);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn counts_stay_exact_and_every_receive_obeys_the_rule(ops in prop::collection::vec(op(), 1..40)) {
        let mut messages = Messages::new(false);
        let mut now = T0;
        let mut last_sent: HashMap<String, u64> = HashMap::new();
        for op in ops {
            match op {
                Op::Send { tenant, count } => {
                    let group = TENANTS[tenant];
                    for i in 0..count {
                        messages.insert(StoredMessage::visible(format!("{i}"), now, group));
                    }
                    if let Some(group) = group {
                        last_sent.insert(group.to_string(), now);
                    }
                }
                Op::Receive { count, visibility_ms } => {
                    for _ in 0..count {
                        messages.tick(now, u64::MAX / 2);
                        receive_one(&mut messages, now, visibility_ms, &last_sent)?;
                    }
                }
                Op::Delete { pick } => {
                    let held = in_flight(&messages);
                    if !held.is_empty() {
                        let (key, generation) = held[pick % held.len()];
                        messages.delete(key, generation);
                    }
                }
                Op::Release { pick } => {
                    let held = in_flight(&messages);
                    if !held.is_empty() {
                        let (key, generation) = held[pick % held.len()];
                        let release = VisibilityChange {
                            key,
                            generation,
                            timeout_secs: 0,
                            now,
                            handle: "",
                        };
                        prop_assert!(messages.change_visibility(release).is_ok());
                    }
                }
                Op::Take { count } => {
                    messages.take_visible(count, now);
                }
                Op::Advance { ms } => {
                    now += ms;
                    messages.tick(now, u64::MAX / 2);
                }
            }
            for (group, (visible, in_flight)) in recount(&messages) {
                let load = messages.fair_load(&group);
                prop_assert_eq!(load.map(|l| (l.visible, l.in_flight)), Some((visible, in_flight)));
            }
        }
        // Nothing is held back: every visible message comes.
        messages.tick(now, u64::MAX / 2);
        let visible = messages.counts().visible;
        let got = messages.receive(now, Ask::new(visible + 1, 3_600_000), None);
        prop_assert_eq!(got.messages.len(), visible);
    }
}
