//! Small wording helpers that every layer may use (the analyzers' findings as much as the commands'
//! summaries), so that a count or a time reads the same everywhere. Pure functions; no I/O.

/// `1 message`, `2 messages`.
pub fn plural(count: u64, word: &str) -> String {
    if count == 1 {
        format!("{count} {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// [`plural`] for a word whose plural is not `word` + `s`: `1 delivery`, `2 deliveries`.
pub fn plural_with(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// How many messages a read saw against the queue's count of visible messages at its start:
/// `3 messages of about 5 visible in work`. SQS's counts lag behind sends, so a read can see more
/// than the count said: then the count is told for what it is, not as the whole.
pub fn seen_of_visible(seen: u64, visible: u64, queue: &str) -> String {
    if seen <= visible {
        format!(
            "{} of about {visible} visible in {queue}",
            plural(seen, "message")
        )
    } else {
        format!(
            "{} in {queue} (SQS counted {visible} visible at the start: its counts lag behind recent sends)",
            plural(seen, "message")
        )
    }
}

/// `n` with a comma between each group of three digits: `3,000`, `1,250,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count with its noun and the verb that agrees: `counted(1, "message", "was", "were")` is
/// `1 message was`, with 2 `2 messages were`.
pub fn counted(count: u64, word: &str, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        plural(count, word),
        if count == 1 { one } else { many }
    )
}

/// An effective parallelism (messages divided by those of the largest group, a fraction) as the
/// whole number of consumers it amounts to: `1 consumer`, `167 consumers` (none below 1 while
/// anything can progress).
pub fn consumers(parallelism: f64) -> String {
    let whole = if parallelism > 0.0 {
        parallelism.round().max(1.0) as u64
    } else {
        0
    };
    plural(whole, "consumer")
}

/// Milliseconds since the epoch as an RFC 3339 time, to the second.
pub fn format_millis(millis: u64) -> String {
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(millis);
    humantime::format_rfc3339_seconds(time).to_string()
}

/// A JMESPath parse error in one line, without the parser's internal terms: its `Display` draws
/// the expression over several lines and speaks of "nud tokens".
pub fn jmespath_parse_reason(err: &jmespath::JmespathError) -> String {
    let reason = err.reason.to_string();
    let reason = reason.strip_prefix("Parse error: ").unwrap_or(&reason);
    if reason.contains("found Eof") {
        return "the expression ends too early".to_string();
    }
    reason
        .replace("Unexpected nud token", "unexpected token")
        .replace("Unexpected led token", "unexpected token")
}

/// Whole seconds in the largest units that divide them: `14d`, `2m`, `1m30s`, `0s`.
pub fn format_seconds(seconds: u64) -> String {
    if seconds == 0 {
        return "0s".into();
    }
    let mut rest = seconds;
    let mut out = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if rest >= size {
            out.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    out
}

/// Queue attributes whose value is a count of seconds.
const SECONDS_ATTRIBUTES: &[&str] = &[
    "DelaySeconds",
    "KmsDataKeyReusePeriodSeconds",
    "MessageRetentionPeriod",
    "ReceiveMessageWaitTimeSeconds",
    "VisibilityTimeout",
];

/// A queue attribute's value with its human reading beside it: `14d (1209600 s)` for durations,
/// `2026-11-24T14:39:19Z (1795530000)` for timestamps, `256 KiB (262144 bytes)` for sizes. Other
/// values, and values that do not parse, come back as they are.
pub fn attribute_with_units(name: &str, value: &str) -> String {
    let Ok(number) = value.trim().parse::<u64>() else {
        return value.to_string();
    };
    if SECONDS_ATTRIBUTES.contains(&name) {
        let reading = format_seconds(number);
        // `30s` says it all; `30s (30 s)` would say it twice.
        if number < 60 {
            reading
        } else {
            format!("{reading} ({number} s)")
        }
    } else if name.ends_with("Timestamp") {
        // SQS reports queue timestamps in seconds since the epoch.
        format!("{} ({number})", format_millis(number.saturating_mul(1000)))
    } else if name == "MaximumMessageSize" && number > 0 && number % 1_048_576 == 0 {
        format!("{} MiB ({number} bytes)", number / 1_048_576)
    } else if name == "MaximumMessageSize" && number % 1024 == 0 {
        format!("{} KiB ({number} bytes)", number / 1024)
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_takes_the_singular_only_for_one() {
        assert_eq!(plural(1, "run"), "1 run");
        assert_eq!(plural(0, "run"), "0 runs");
        let deliveries = |n| plural_with(n, "delivery", "deliveries");
        assert_eq!(deliveries(1), "1 delivery");
        assert_eq!(deliveries(3), "3 deliveries");
    }

    #[test]
    fn a_read_is_told_against_the_count_unless_it_saw_more_than_the_count_said() {
        assert_eq!(
            seen_of_visible(3, 5, "work"),
            "3 messages of about 5 visible in work"
        );
        assert_eq!(
            seen_of_visible(1, 1, "work"),
            "1 message of about 1 visible in work"
        );
        assert_eq!(
            seen_of_visible(4, 0, "dlq"),
            "4 messages in dlq (SQS counted 0 visible at the start: its counts lag behind recent sends)"
        );
    }

    #[test]
    fn seconds_read_in_the_largest_units() {
        assert_eq!(format_seconds(1_209_600), "14d");
        assert_eq!(format_seconds(120), "2m");
        assert_eq!(format_seconds(90), "1m30s");
        assert_eq!(format_seconds(0), "0s");
        assert_eq!(
            attribute_with_units("MessageRetentionPeriod", "1209600"),
            "14d (1209600 s)"
        );
        assert_eq!(
            attribute_with_units("CreatedTimestamp", "0"),
            "1970-01-01T00:00:00Z (0)"
        );
        assert_eq!(attribute_with_units("VisibilityTimeout", "30"), "30s");
        assert_eq!(
            attribute_with_units("VisibilityTimeout", "90"),
            "1m30s (90 s)"
        );
        assert_eq!(attribute_with_units("QueueArn", "arn:x"), "arn:x");
    }

    #[test]
    fn plural_counts() {
        assert_eq!(plural(1, "message"), "1 message");
        assert_eq!(plural(0, "message"), "0 messages");
        assert_eq!(counted(1, "message", "was", "were"), "1 message was");
        assert_eq!(counted(3, "message", "was", "were"), "3 messages were");
        assert_eq!(consumers(166.7), "167 consumers");
        assert_eq!(consumers(0.4), "1 consumer");
        assert_eq!(consumers(0.0), "0 consumers");
    }
}
