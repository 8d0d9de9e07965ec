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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_counts() {
        assert_eq!(plural(1, "message"), "1 message");
        assert_eq!(plural(0, "message"), "0 messages");
    }
}
