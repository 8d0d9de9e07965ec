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
    fn truncation_counts_characters_not_bytes() {
        assert_eq!(truncate("héllo", 10), "héllo");
        assert_eq!(truncate("héllo world", 5), "héll…");
    }
}
