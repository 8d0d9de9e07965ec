//! Deduplication checks: ids reused on different bodies, ids derived from the time or from a
//! counter (which collide when producers run in parallel or restart), and content-based
//! deduplication on bodies that repeat. A FIFO queue accepts a duplicate send and silently drops
//! it for five minutes, so these problems lose messages without any error.

use super::finding::{Finding, Severity};
use super::observe::Observations;
use crate::text::{format_millis, plural};

/// Fewer dedup ids than this say nothing about their shape.
const MIN_IDS_FOR_SHAPE: usize = 5;
/// Timestamps within this distance of the send time (or of each other) count as time-derived.
const TIME_WINDOW_MS: u64 = 30 * 86_400 * 1000;
/// A counter whose values start below this looks like one that restarts with its producer.
const RESTARTING_COUNTER_BELOW: u64 = 1_000;
/// Plausible epoch seconds for a timestamp inside an id: 2001-09-09 .. 2100-01-01.
const EPOCH_SECONDS: std::ops::Range<u64> = 1_000_000_000..4_102_444_800;

/// Runs every dedup check.
pub fn check(obs: &Observations, content_based: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    findings.extend(collisions(obs));
    findings.extend(time_derived(obs));
    findings.extend(counters(obs));
    findings.extend(repeating_bodies(obs, content_based));
    findings
}

/// The same deduplication id on different bodies.
pub fn collisions(obs: &Observations) -> Option<Finding> {
    let mut colliding: Vec<_> = obs.collisions.iter().collect();
    if colliding.is_empty() {
        return None;
    }
    colliding.sort_by(|a, b| b.messages.cmp(&a.messages).then(a.id.cmp(&b.id)));
    let messages: u64 = colliding.iter().map(|e| e.messages).sum();
    let finding = Finding::new(
        "dedup-collision",
        Severity::Error,
        format!(
            "{} used for different messages",
            plural(colliding.len() as u64, "deduplication id")
        ),
    )
    .evidence(format!(
        "{} share {} with another, different body",
        plural(messages, "message"),
        plural(colliding.len() as u64, "id")
    ))
    .evidence_each(&colliding, 3, |entry| {
        format!(
            "id `{}` on {}, e.g. `{}` and `{}`",
            entry.id,
            plural(entry.messages, "message"),
            entry.examples.first().map(String::as_str).unwrap_or(""),
            entry.examples.get(1).map(String::as_str).unwrap_or("")
        )
    });
    Some(finding.advice(
        "SQS accepts a send whose deduplication id was used in the last 5 minutes and then drops \
         the message without an error. Derive the id from what makes the message unique (an \
         event or order id plus its version), or let the producer use a UUID per message.",
    ))
}

/// What a timestamp inside an id looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Seconds,
    Millis,
    Micros,
    Nanos,
    /// PHP's `uniqid()`: 8 hex digits of seconds and 5 of microseconds.
    HexSecondsMicros,
    HexSeconds,
    HexMillis,
}

impl TimeUnit {
    fn describe(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "decimal seconds",
            TimeUnit::Millis => "decimal milliseconds",
            TimeUnit::Micros => "decimal microseconds",
            TimeUnit::Nanos => "decimal nanoseconds",
            TimeUnit::HexSecondsMicros => "hex seconds + microseconds (uniqid-style)",
            TimeUnit::HexSeconds => "hex seconds",
            TimeUnit::HexMillis => "hex milliseconds",
        }
    }
}

/// The first plausible timestamp inside an id, in epoch milliseconds, with its unit.
pub fn embedded_time(id: &str) -> Option<(u64, TimeUnit)> {
    for token in id.split(|c: char| !c.is_ascii_alphanumeric()) {
        for run in runs(token, |c| c.is_ascii_digit()) {
            if let Some(found) = decimal_time(run) {
                return Some(found);
            }
        }
        for run in runs(token, |c| c.is_ascii_hexdigit()) {
            if run.bytes().any(|b| b.is_ascii_alphabetic())
                && let Some(found) = hex_time(run)
            {
                return Some(found);
            }
        }
    }
    None
}

fn runs(token: &str, keep: impl Fn(char) -> bool) -> impl Iterator<Item = &str> {
    token
        .split(move |c: char| !keep(c))
        .filter(|r| !r.is_empty())
}

fn decimal_time(run: &str) -> Option<(u64, TimeUnit)> {
    let (unit, divisor_to_ms, multiplier) = match run.len() {
        10 => (TimeUnit::Seconds, 1, 1000),
        13 => (TimeUnit::Millis, 1, 1),
        16 => (TimeUnit::Micros, 1000, 1),
        19 => (TimeUnit::Nanos, 1_000_000, 1),
        _ => return None,
    };
    let value: u64 = run.parse().ok()?;
    let ms = value / divisor_to_ms * multiplier;
    plausible(ms).then_some((ms, unit))
}

fn hex_time(run: &str) -> Option<(u64, TimeUnit)> {
    let (unit, ms) = match run.len() {
        13 => (
            TimeUnit::HexSecondsMicros,
            u64::from_str_radix(&run[..8], 16).ok()? * 1000,
        ),
        8 => (
            TimeUnit::HexSeconds,
            u64::from_str_radix(run, 16).ok()? * 1000,
        ),
        11 => (TimeUnit::HexMillis, u64::from_str_radix(run, 16).ok()?),
        _ => return None,
    };
    plausible(ms).then_some((ms, unit))
}

fn plausible(ms: u64) -> bool {
    EPOCH_SECONDS.contains(&(ms / 1000))
}

/// Weighs dedup ids derived from a counter or the time by what comes next: beside serialized
/// groups (one group id for everything), the advised fix lets producers and consumers run in
/// parallel, and ids that never met before start to collide. A note (`info`) becomes a warning
/// that says so.
pub fn weigh_with_groups(findings: &mut [Finding]) {
    if !findings.iter().any(|f| f.id == "serialized-groups") {
        return;
    }
    for finding in findings
        .iter_mut()
        .filter(|f| matches!(f.id, "dedup-id-counter" | "dedup-id-time-derived"))
    {
        if finding.severity == Severity::Info {
            finding.severity = Severity::Warning;
        }
        finding.evidence.push(
            "the message groups are serialized (see serialized-groups): once the group id is fixed, \
             producers and consumers run in parallel, and ids from a counter or a clock that never \
             met before start to collide, dropping messages for 5 minutes each"
                .into(),
        );
    }
}

/// Dedup ids that embed a timestamp close to when the message was sent.
pub fn time_derived(obs: &Observations) -> Option<Finding> {
    let sample = &obs.dedup_sample;
    if sample.len() < MIN_IDS_FOR_SHAPE {
        return None;
    }
    let found: Vec<(&str, u64, TimeUnit, Option<u64>)> = sample
        .iter()
        .filter_map(|(id, sent)| embedded_time(id).map(|(ms, unit)| (id.as_str(), ms, unit, *sent)))
        .collect();
    // Random hex can look like a timestamp; a real one sits near the send time (or, without send
    // times, near the other ids' timestamps).
    let mut times: Vec<u64> = found.iter().map(|f| f.1).collect();
    times.sort_unstable();
    let median = times.get(times.len() / 2).copied().unwrap_or(0);
    let near: Vec<&(&str, u64, TimeUnit, Option<u64>)> = found
        .iter()
        .filter(|(_, ms, _, sent)| ms.abs_diff(sent.unwrap_or(median)) <= TIME_WINDOW_MS)
        .collect();
    if near.len() * 2 < sample.len() {
        return None;
    }
    let (example, example_ms, unit, _) = near[0];
    let coarse = matches!(unit, TimeUnit::Seconds | TimeUnit::HexSeconds);
    let mut finding = Finding::new(
        "dedup-id-time-derived",
        if coarse {
            Severity::Error
        } else {
            Severity::Warning
        },
        "Deduplication ids are derived from the time",
    )
    .evidence(format!(
        "{} of {} dedup ids seen embed a timestamp ({}), e.g. `{example}` = {}",
        near.len(),
        sample.len(),
        unit.describe(),
        format_millis(*example_ms)
    ));
    // Ids that share their timestamp with another id only differ by what surrounds it; when
    // nothing does, they are the same id.
    let mut stamps: Vec<u64> = near.iter().map(|f| f.1).collect();
    stamps.sort_unstable();
    let shared = stamps.windows(2).filter(|w| w[0] == w[1]).count();
    if shared > 0 {
        finding = finding.evidence(format!(
            "{shared} of them carry the same timestamp as another id: two producers in the same {} \
             generate the same id",
            if coarse { "second" } else { "tick" }
        ));
    }
    Some(finding.advice(
        "A timestamp is not unique: parallel producers (or one fast producer) produce the same \
         value, and SQS silently drops the second message for 5 minutes. Use an id that is unique \
         per message (a UUID, or the business event id), or enable content-based deduplication \
         if identical bodies really are duplicates.",
    ))
}

/// Dedup ids that are a shared prefix and a small, dense counter.
pub fn counters(obs: &Observations) -> Option<Finding> {
    let sample: Vec<&str> = obs
        .dedup_sample
        .iter()
        .map(|(id, _)| id.as_str())
        .filter(|id| embedded_time(id).is_none())
        .collect();
    if sample.len() < MIN_IDS_FOR_SHAPE {
        return None;
    }
    let mut shapes: std::collections::HashMap<String, Vec<Vec<u64>>> = Default::default();
    for id in &sample {
        if let Some((shape, numbers)) = counter_shape(id) {
            shapes.entry(shape).or_default().push(numbers);
        }
    }
    let (shape, rows) = shapes.into_iter().max_by_key(|(_, rows)| rows.len())?;
    if rows.len() * 5 < sample.len() * 4 || rows.len() < MIN_IDS_FOR_SHAPE {
        return None;
    }
    // The counter is the number that varies most between ids (`order-17-v1`: 17, not the 1).
    let width = rows[0].len();
    let (position, mut numbers) = (0..width)
        .map(|k| (k, rows.iter().map(|r| r[k]).collect::<Vec<u64>>()))
        .max_by_key(|(_, values)| {
            values
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len()
        })?;
    numbers.sort_unstable();
    let span = numbers[numbers.len() - 1] - numbers[0] + 1;
    // Dense: the values seen cover a good part of their range, as a counter's do and random
    // numbers' do not. A value that never changes is a version or a constant, not a counter.
    if span > numbers.len() as u64 * 4 || span == 1 {
        return None;
    }
    let repeated = numbers.windows(2).filter(|w| w[0] == w[1]).count();
    // A counter that starts near zero, or overlaps itself, restarts with its producer; a large,
    // unique sequence is more likely shared (a database sequence) and only worth a note.
    let restarting = numbers[0] < RESTARTING_COUNTER_BELOW || repeated > 0;
    let mut finding = Finding::new(
        "dedup-id-counter",
        if restarting {
            Severity::Warning
        } else {
            Severity::Info
        },
        "Deduplication ids are a sequential counter",
    )
    .evidence(format!(
        "{} of {} dedup ids seen have the shape `{}` with N from {} to {}",
        numbers.len(),
        sample.len(),
        mark_counter(&shape, position),
        numbers[0],
        numbers[numbers.len() - 1]
    ));
    if repeated > 0 {
        finding = finding.evidence(format!(
            "{repeated} counter values occur more than once: counters of different producers overlap"
        ));
    }
    Some(finding.advice(
        "A counter kept by each producer restarts with the process and overlaps with other \
         producers' counters; a reused id within 5 minutes drops the message silently. Keep it \
         only if one sequence (a database sequence) is shared by every producer; otherwise use a \
         UUID or the business event id.",
    ))
}

/// The id with every digit run replaced by `#`, and the runs' values (runs longer than 12
/// digits are not counters).
fn counter_shape(id: &str) -> Option<(String, Vec<u64>)> {
    let mut shape = String::with_capacity(id.len());
    let mut numbers = Vec::new();
    let mut digits = String::new();
    for c in id.chars().chain(std::iter::once('\u{0}')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            if digits.len() > 12 {
                return None;
            }
            numbers.push(digits.parse().ok()?);
            digits.clear();
            shape.push('#');
        }
        if c != '\u{0}' {
            shape.push(c);
        }
    }
    (!numbers.is_empty()).then_some((shape, numbers))
}

/// The shape with the counter shown as `N` and other numbers as `#`.
fn mark_counter(shape: &str, position: usize) -> String {
    let mut seen = 0;
    shape
        .chars()
        .map(|c| {
            if c == '#' {
                seen += 1;
                if seen - 1 == position { 'N' } else { '#' }
            } else {
                c
            }
        })
        .collect()
}

/// Content-based deduplication on bodies that repeat.
pub fn repeating_bodies(obs: &Observations, content_based: bool) -> Option<Finding> {
    let content_based =
        content_based || (obs.with_dedup_id > 0 && obs.content_hash_ids * 2 >= obs.with_dedup_id);
    if !content_based {
        return None;
    }
    let mut repeated: Vec<&(u64, String)> = obs.repeated_bodies.values().collect();
    if repeated.is_empty() {
        return None;
    }
    repeated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let copies: u64 = repeated.iter().map(|(n, _)| n).sum();
    let finding = Finding::new(
        "dedup-content-repeats",
        Severity::Warning,
        "Content-based deduplication on bodies that repeat",
    )
    .evidence(format!(
        "{} more than once ({copies} of {} seen)",
        if repeated.len() == 1 {
            "1 distinct body occurs".to_string()
        } else {
            format!("{} distinct bodies occur", repeated.len())
        },
        plural(obs.messages, "message")
    ))
    .evidence_each(&repeated, 3, |(count, body)| {
        format!("`{body}` seen {count} times")
    });
    Some(finding.advice(
        "With content-based deduplication the id is the SHA-256 of the body, so every identical \
         body sent within 5 minutes of another is dropped silently. The repeats seen here were \
         sent far enough apart; those that were not are gone. Put something unique per event in \
         the body (an event id, a timestamp) or send an explicit MessageDeduplicationId.",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::observe::tests::fifo;

    const NOW_MS: u64 = 1_795_000_000_000;

    fn observe(ids: &[String], bodies: impl Fn(usize) -> String) -> Observations {
        let mut obs = Observations::new(false);
        for (i, id) in ids.iter().enumerate() {
            obs.add(&fifo("g", id, &bodies(i), NOW_MS + i as u64, 1));
        }
        obs
    }

    #[test]
    fn timestamps_are_found_in_many_spellings() {
        assert_eq!(
            embedded_time("1795000000").map(|t| t.1),
            Some(TimeUnit::Seconds)
        );
        assert_eq!(
            embedded_time("order-1795000000123").map(|t| t.1),
            Some(TimeUnit::Millis)
        );
        assert_eq!(
            embedded_time("1795000000123456").map(|t| t.1),
            Some(TimeUnit::Micros)
        );
        // uniqid(): 8 hex digits of seconds, then 5 of microseconds.
        let uniqid = format!("{:08x}{:05x}", 1_795_000_000u64, 12_345);
        assert_eq!(
            embedded_time(&uniqid),
            Some((1_795_000_000_000, TimeUnit::HexSecondsMicros))
        );
        assert_eq!(embedded_time("order-42"), None);
        assert_eq!(
            embedded_time("9999999999999"),
            None,
            "year 2286 is not plausible"
        );
    }

    #[test]
    fn millisecond_ids_are_time_derived_and_shared_stamps_counted() {
        let ids: Vec<String> = (0..20).map(|i| format!("evt-{}", NOW_MS + i / 2)).collect();
        let obs = observe(&ids, |i| format!("body {i}"));
        let finding = time_derived(&obs).expect("finding");
        assert_eq!(finding.id, "dedup-id-time-derived");
        assert_eq!(finding.severity, Severity::Warning);
        assert!(
            finding.evidence[0].plain().starts_with("20 of 20"),
            "{:?}",
            finding.evidence
        );
        assert!(
            finding.evidence[1].plain().starts_with("10 of them"),
            "{:?}",
            finding.evidence
        );
    }

    #[test]
    fn second_resolution_is_an_error_and_uuids_are_not_time() {
        let ids: Vec<String> = (0..6).map(|i| format!("{}", NOW_MS / 1000 + i)).collect();
        let obs = observe(&ids, |i| format!("b{i}"));
        assert_eq!(
            time_derived(&obs).map(|f| f.severity),
            Some(Severity::Error)
        );
        let uuids: Vec<String> = (0..50).map(|_| uuid::Uuid::new_v4().to_string()).collect();
        let obs = observe(&uuids, |i| format!("b{i}"));
        assert!(time_derived(&obs).is_none());
        assert!(counters(&obs).is_none());
        assert!(collisions(&obs).is_none());
    }

    #[test]
    fn counters_are_dense_numbers_behind_a_common_prefix() {
        let ids: Vec<String> = (0..30)
            .map(|i| format!("worker-7-{}", 100 + i % 20))
            .collect();
        let obs = observe(&ids, |i| format!("b{i}"));
        let finding = counters(&obs).expect("finding");
        assert!(
            finding.evidence[0].plain().contains("worker-#-N"),
            "{:?}",
            finding.evidence
        );
        assert!(finding.evidence[1].plain().starts_with("10 counter values"));
        assert_eq!(finding.severity, Severity::Warning);
        // Sparse random numbers are not a counter.
        let ids: Vec<String> = (0..30u64)
            .map(|i| format!("order-{}", i.wrapping_mul(2_654_435_761) % 1_000_000_000))
            .collect();
        assert!(counters(&observe(&ids, |i| format!("b{i}"))).is_none());
        // A constant version number is not a counter; the order number beside it is.
        let ids: Vec<String> = (0..30).map(|i| format!("order-{}-v1", 500 + i)).collect();
        let finding = counters(&observe(&ids, |i| format!("b{i}"))).expect("finding");
        assert!(
            finding.evidence[0]
                .plain()
                .contains("`order-N-v#` with N from 500 to 529")
        );
        assert_eq!(finding.evidence.len(), 1);
        assert_eq!(finding.severity, Severity::Warning);
        let ids: Vec<String> = (0..30).map(|i| format!("order-{}", 48_213 + i)).collect();
        let finding = counters(&observe(&ids, |i| format!("b{i}"))).expect("finding");
        assert_eq!(finding.severity, Severity::Info);
    }

    #[test]
    fn collisions_name_the_id_and_both_bodies() {
        let ids: Vec<String> = ["a", "b", "a", "c", "d"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let obs = observe(&ids, |i| format!("body {i}"));
        let finding = collisions(&obs).expect("finding");
        assert_eq!(finding.severity, Severity::Error);
        assert!(finding.evidence[1].plain().contains("`a` on 2 messages"));
        assert!(
            finding.evidence[1].plain().contains("body 0")
                && finding.evidence[1].plain().contains("body 2")
        );
        // Same id on the same body is a retry, not a collision.
        let obs = observe(&ids, |_| "same".to_string());
        assert!(collisions(&obs).is_none());
    }

    #[test]
    fn repeating_bodies_matter_only_with_content_based_dedup() {
        let ids: Vec<String> = (0..6).map(|i| format!("id{i}")).collect();
        let obs = observe(&ids, |i| {
            if i < 4 {
                "ping".into()
            } else {
                format!("b{i}")
            }
        });
        assert!(repeating_bodies(&obs, false).is_none());
        let finding = repeating_bodies(&obs, true).expect("finding");
        assert!(finding.evidence[1].plain().contains("`ping` seen 4 times"));
    }
}

#[cfg(test)]
mod weighing {
    use super::*;

    #[test]
    fn a_counter_beside_serialized_groups_is_a_warning_that_names_the_next_incident() {
        let counter = Finding::new("dedup-id-counter", Severity::Info, "counter");
        let alone = &mut [counter.clone()];
        weigh_with_groups(alone);
        assert_eq!(alone[0].severity, Severity::Info);
        assert!(alone[0].evidence.is_empty());

        let serialized = Finding::new("serialized-groups", Severity::Error, "one group");
        let together = &mut [serialized, counter];
        weigh_with_groups(together);
        assert_eq!(together[1].severity, Severity::Warning);
        assert!(
            together[1].evidence[0]
                .plain()
                .contains("once the group id is fixed")
        );
        assert_eq!(together[0].severity, Severity::Error);
    }
}
