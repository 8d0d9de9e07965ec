//! Escaping untrusted text (message bodies, attributes, queue names from the service) before it
//! reaches a terminal, so a message cannot move the cursor, change colours or set the window title.

use std::borrow::Cow;

/// Escapes control characters (and the Unicode bidi overrides) as `\n`, `\t`, `\u{..}`.
/// Text meant for a pipe is written raw; this is only for a terminal.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Escapes like [`for_terminal`] but keeps line breaks and tabs: for messages on stderr, which may
/// span lines but must never carry escape sequences (a server's error text, an echoed argument).
pub fn for_terminal_lines(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| needs_escape(c) && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Escapes, inside JSON text, the characters a JSON encoder leaves raw but a terminal acts on (C1
/// controls such as U+009B, which some terminals read as an escape sequence, and the bidi
/// overrides) as `\uXXXX`: the result is the same JSON value. Line breaks and tabs are kept (a
/// JSON encoder never leaves them raw inside a string), so tab-separated text stays as it is.
pub fn json_for_terminal(json: &str) -> Cow<'_, str> {
    let escape = |c: char| needs_escape(c) && c != '\n' && c != '\t';
    if !json.chars().any(escape) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if escape(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// Shortens text to at most `max` characters for a table cell, marking the cut with `…`.
pub fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.chars().count() <= max {
        return Cow::Borrowed(text);
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralized() {
        assert_eq!(for_terminal("plain"), "plain");
        assert_eq!(for_terminal("a\x1b[31mred"), "a\\u{1b}[31mred");
        assert_eq!(for_terminal("line\nnext\ttab"), "line\\nnext\\ttab");
        assert_eq!(for_terminal("x\u{202E}y"), "x\\u{202e}y");
    }

    #[test]
    fn stderr_text_keeps_its_lines_but_no_escapes() {
        assert_eq!(for_terminal_lines("a\nb\tc"), "a\nb\tc");
        assert_eq!(
            for_terminal_lines("\x1b]0;pwned\x07title"),
            "\\u{1b}]0;pwned\\u{7}title"
        );
        assert_eq!(for_terminal_lines("x\u{9b}2J"), "x\\u{9b}2J");
    }

    #[test]
    fn json_on_a_terminal_escapes_c1_and_bidi_and_stays_the_same_value() {
        let value = serde_json::json!({"body": "a\u{9b}31m\u{202e}b\u{1b}"});
        let text = serde_json::to_string(&value).unwrap();
        let safe = json_for_terminal(&text);
        assert!(!safe.contains('\u{9b}') && !safe.contains('\u{202e}'));
        assert!(!safe.contains('\u{1b}'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn truncation_counts_characters_not_bytes() {
        assert_eq!(truncate("héllo", 10), "héllo");
        assert_eq!(truncate("héllo world", 5), "héll…");
    }
}
