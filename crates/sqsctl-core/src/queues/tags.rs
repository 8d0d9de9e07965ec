//! The rules SQS holds queue tags to, checked before any call so that a bad tag changes nothing:
//! keys of 1-128 and values of up to 256 allowed characters, no key in AWS's own `aws:`
//! namespace, and at most [`MAX_TAGS`] tags on a queue.

/// Most tags one queue may have.
pub const MAX_TAGS: usize = 50;
const MAX_KEY_CHARS: usize = 128;
const MAX_VALUE_CHARS: usize = 256;

/// A tag SQS would refuse, and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TagError(pub String);

/// Checks a tag's key and value.
pub fn check_tag(key: &str, value: &str) -> Result<(), TagError> {
    check_key(key)?;
    check_text("value", key, value, 0, MAX_VALUE_CHARS)
}

/// Checks a tag key: 1-128 allowed characters, not in the reserved `aws:` namespace.
pub fn check_key(key: &str) -> Result<(), TagError> {
    check_text("key", key, key, 1, MAX_KEY_CHARS)?;
    if key.to_ascii_lowercase().starts_with("aws:") {
        return Err(TagError(format!(
            "the tag key `{key}` starts with `aws:`, which AWS reserves for its own tags"
        )));
    }
    Ok(())
}

fn check_text(what: &str, key: &str, text: &str, min: usize, max: usize) -> Result<(), TagError> {
    let chars = text.chars().count();
    let shown = || {
        let short: String = text.chars().take(40).collect();
        if chars > 40 {
            format!("`{short}...`")
        } else {
            format!("`{short}`")
        }
    };
    if chars < min {
        return Err(TagError("a tag key is empty".to_string()));
    }
    if chars > max {
        let of = if what == "key" {
            String::new()
        } else {
            format!(" of `{}`", key.chars().take(40).collect::<String>())
        };
        return Err(TagError(format!(
            "the tag {what}{of} {} is {chars} characters; the limit is {max}",
            shown()
        )));
    }
    if let Some(bad) = text.chars().find(|c| !allowed(*c)) {
        return Err(TagError(format!(
            "the tag {what} {} has the character {bad:?}; tags take letters, digits, spaces and _ . : / = + - @",
            shown()
        )));
    }
    Ok(())
}

fn allowed(c: char) -> bool {
    c.is_alphanumeric() || c == ' ' || "_.:/=+-@".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(key: &str, value: &str) -> String {
        check_tag(key, value).unwrap_err().0
    }

    #[test]
    fn tags_follow_sqs_rules() {
        assert!(check_tag("team", "payments").is_ok());
        assert!(check_tag("owner", "").is_ok());
        assert!(check_tag("path", "a/b:c@d+e").is_ok());
        let err = error(&"k".repeat(129), "x");
        assert!(
            err.contains("129 characters") && err.contains("limit is 128"),
            "{err}"
        );
        let err = error("k", &"v".repeat(257));
        assert!(
            err.contains("of `k`") && err.contains("limit is 256"),
            "{err}"
        );
        assert!(error("", "x").contains("empty"));
        assert!(error("aws:x", "1").contains("reserves"));
        assert!(error("a", "semi;colon").contains("';'"));
    }
}
