//! Removes credentials and signatures from text an endpoint sent back, before it is quoted in an
//! error or in `--verbose` output, and the values of the credentials in use from everything printed.
//!
//! A proxy, a captive portal or a misconfigured endpoint may answer with a page that echoes the
//! request: its `Authorization` header (the access key id in `Credential=`, the `Signature=`), the
//! `X-Amz-Security-Token`, or presigned query parameters. None of that may reach a terminal, a log
//! or a CI transcript. Two nets catch it: [`redact_secrets`] knows what a credential looks like
//! wherever it is named (the client's error classification and `app::report` pass every foreign
//! text through it), and [`KnownSecrets`] knows the values themselves, in whatever shape an
//! endpoint echoed them, once the credentials are resolved; the program's output passes every line
//! through it.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use aho_corasick::{AhoCorasick, MatchKind};
use parking_lot::RwLock;
use regex::Regex;

/// What replaces a secret.
pub const REDACTED: &str = "[redacted]";

/// Each pattern keeps its group 1 (the name of what is hidden, with its separator) and replaces
/// the rest of the match with [`REDACTED`].
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // An `Authorization` header or field: everything up to the end of its line or its quote.
        r#"(?i)(\bauthorization["']?\s*[:=]\s*\[?\s*["']?)[^\r\n"'<>]+"#,
        // Session tokens: `X-Amz-Security-Token: ...`, `X-Amz-Security-Token=...` in a query,
        // `"SessionToken": "..."`, `aws_session_token = ...`, and as a header map with a list of
        // values per name echoes it, `"x-amz-security-token": ["..."]`.
        r#"(?i)((?:security|session)[-_ ]?token["']?\s*[:=]\s*\[?\s*["']?)[^\s,&"'<>;\]]+"#,
        // The secret key, where something names it.
        r#"(?i)(secret[-_ ]?(?:access[-_ ]?)?key["']?\s*[:=]\s*\[?\s*["']?)[^\s,&"'<>;\]]+"#,
        // SigV4's `Credential=AKIA.../date/region/sqs/aws4_request` and `Signature=...`, also as
        // the presigned query parameters `X-Amz-Credential` and `X-Amz-Signature`.
        r#"(?i)((?:credential|signature)["']?\s*[:=]\s*\[?\s*["']?)[^\s,&"'<>;\]]+"#,
        // An access key id on its own: long-term (AKIA) and temporary (ASIA) keys.
        r"()\b(?:AKIA|ASIA)[A-Z0-9]{12,}",
    ]
    .iter()
    .filter_map(|pattern| Regex::new(pattern).ok())
    .collect()
});

/// `text` with every credential, session token and signature it quotes replaced by `[redacted]`.
/// Borrowed when there was nothing to hide.
pub fn redact_secrets(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for pattern in PATTERNS.iter() {
        if let Cow::Owned(replaced) = pattern.replace_all(&out, |caps: &regex::Captures<'_>| {
            format!("{}{REDACTED}", caps.get(1).map_or("", |m| m.as_str()))
        }) {
            out = Cow::Owned(replaced);
        }
    }
    out
}

/// Values shorter than this are never redacted: a stand-in credential such as `test` or `local`
/// is also an ordinary word, and replacing it would mangle output that has nothing secret in it.
/// AWS's own are far longer (an access key id has 16 characters or more, a secret key 40, a
/// session token hundreds).
pub const MIN_SECRET_CHARS: usize = 8;

/// The values of the credentials a run uses (access key id, secret access key, session token),
/// whatever their source: the environment, a profile, SSO, a role. Clones share the values, so the
/// printer and the client see the same set: the client adds the credentials each time it resolves
/// them, and the printer removes every value from what it writes. Debug output shows how many
/// values are known, never one of them.
#[derive(Clone, Default)]
pub struct KnownSecrets {
    inner: Arc<RwLock<Forms>>,
}

/// Every form of every value, and one automaton that finds them all in a single pass over a text
/// (the longest match wins where forms overlap: a value's encoded form over the value).
#[derive(Default)]
struct Forms {
    forms: Vec<String>,
    finder: Option<AhoCorasick>,
}

impl std::fmt::Debug for KnownSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KnownSecrets({} forms)", self.inner.read().forms.len())
    }
}

impl KnownSecrets {
    /// Adds a credential's value, in the forms an endpoint may echo it: as it is, percent-encoded
    /// (in a query string or a URL; a session token holds `/`, `+` and `=`), and with `/` escaped
    /// as `\/` (JSON may write it so). A value shorter than [`MIN_SECRET_CHARS`] is ignored.
    pub fn add(&self, value: &str) {
        let value = value.trim();
        if value.chars().count() < MIN_SECRET_CHARS {
            return;
        }
        let candidates = [
            value.to_string(),
            percent_encode(value, true),
            percent_encode(value, false),
            value.replace('/', "\\/"),
        ];
        let mut inner = self.inner.write();
        let before = inner.forms.len();
        for form in candidates {
            if !inner.forms.contains(&form) {
                inner.forms.push(form);
            }
        }
        if inner.forms.len() != before {
            // The forms are plain strings, so building cannot fail; should it, the text
            // patterns of [`redact_secrets`] are what is left.
            inner.finder = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&inner.forms)
                .ok();
        }
    }

    /// Whether no value is known (nothing to remove).
    pub fn is_empty(&self) -> bool {
        self.inner.read().forms.is_empty()
    }

    /// `text` with every known value replaced by `[redacted]`. Borrowed when none was in it.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let inner = self.inner.read();
        match &inner.finder {
            Some(finder) if finder.is_match(text) => {
                let mut out = String::with_capacity(text.len());
                finder.replace_all_with(text, &mut out, |_, _, out| {
                    out.push_str(REDACTED);
                    true
                });
                Cow::Owned(out)
            }
            _ => Cow::Borrowed(text),
        }
    }

    /// [`KnownSecrets::redact`], then [`redact_secrets`]: for text an endpoint sent.
    pub fn redact_all<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.redact(text) {
            Cow::Borrowed(text) => redact_secrets(text),
            Cow::Owned(text) => Cow::Owned(redact_secrets(&text).into_owned()),
        }
    }
}

/// `value` with every byte outside RFC 3986's unreserved set written as `%XX`, in upper or lower
/// case hex: how a URL or a query string carries it.
fn percent_encode(value: &str, upper: bool) -> String {
    let mut out = String::with_capacity(value.len() * 3);
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else if upper {
            out.push_str(&format!("%{byte:02X}"));
        } else {
            out.push_str(&format!("%{byte:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
    const TOKEN: &str = "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDtoken+/=";
    const SIGNATURE: &str = "fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024";

    #[test]
    fn echoed_request_headers_keep_their_names_and_lose_their_values() {
        let cases = [
            (
                format!(
                    "Authorization: AWS4-HMAC-SHA256 Credential={KEY_ID}/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature={SIGNATURE}\nHost: example"
                ),
                "Authorization: [redacted]\nHost: example",
            ),
            (
                format!("x-amz-security-token: {TOKEN}\r\nx-amz-date: 20260101T000000Z"),
                "x-amz-security-token: [redacted]\r\nx-amz-date: 20260101T000000Z",
            ),
            (
                format!("<td>Credential={KEY_ID}/20260101/us-east-1/sqs/aws4_request,</td>"),
                "<td>Credential=[redacted],</td>",
            ),
            (
                format!(
                    "GET /?X-Amz-Credential={KEY_ID}%2F2026&X-Amz-Signature={SIGNATURE}&X-Amz-Security-Token={TOKEN}&a=b"
                ),
                "GET /?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Security-Token=[redacted]&a=b",
            ),
            (
                format!(r#"{{"SessionToken": "{TOKEN}", "AccessKeyId": "ASIAIOSFODNN7EXAMPLE"}}"#),
                r#"{"SessionToken": "[redacted]", "AccessKeyId": "[redacted]"}"#,
            ),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".to_string(),
                "aws_secret_access_key = [redacted]",
            ),
            (format!("key {KEY_ID} was used"), "key [redacted] was used"),
            (
                format!(
                    r#"{{"authorization": ["AWS4-HMAC-SHA256 Credential={KEY_ID}/x"], "x-amz-security-token": ["{TOKEN}"], "host": ["h"]}}"#
                ),
                r#"{"authorization": ["[redacted]"], "x-amz-security-token": ["[redacted]"], "host": ["h"]}"#,
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(redact_secrets(&input), expected, "{input}");
        }
    }

    #[test]
    fn text_without_secrets_is_left_alone() {
        for text in [
            "<html><body>502 Bad Gateway</body></html>",
            "The specified queue does not exist.",
            "AKIA is a prefix",
            "",
        ] {
            assert!(matches!(redact_secrets(text), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn known_values_are_removed_in_every_form_an_endpoint_echoes() {
        let known = KnownSecrets::default();
        let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY+x=";
        known.add(secret);
        known.add(TOKEN);
        for text in [
            format!(r#"{{"x-amz-security-token": ["{TOKEN}"]}}"#),
            format!("token {TOKEN}."),
            format!("?t={}", percent_encode(TOKEN, true)),
            format!("?t={}", percent_encode(TOKEN, false)),
            format!(
                "?s={}",
                form_urlencoded::byte_serialize(secret.as_bytes()).collect::<String>()
            ),
            format!(r#"{{"s":"{}"}}"#, secret.replace('/', "\\/")),
            format!("{secret}{secret}"),
        ] {
            let redacted = known.redact(&text);
            assert!(redacted.contains(REDACTED), "{text} -> {redacted}");
            for part in ["wJalrXUtnFEMI", "IQoJb3JpZ2lu"] {
                assert!(!redacted.contains(part), "{text} -> {redacted}");
            }
        }
        // A clone shares the values: the client adds, the printer removes.
        let printer_side = known.clone();
        known.add("AKIAQUITEDISTINCT01");
        assert_eq!(
            printer_side.redact("id AKIAQUITEDISTINCT01"),
            "id [redacted]"
        );
        assert!(!format!("{known:?}").contains("AKIA"), "{known:?}");
    }

    #[test]
    fn short_values_are_not_secrets_worth_mangling_output_for() {
        let known = KnownSecrets::default();
        for stand_in in ["test", "local", "x", "  minio  ", "1234567"] {
            known.add(stand_in);
        }
        assert!(known.is_empty());
        let text = "sqsctl local: a test queue, 1234567 messages";
        assert!(matches!(known.redact(text), Cow::Borrowed(_)));
    }

    proptest! {
        #[test]
        fn no_key_id_token_or_signature_survives_in_any_surrounding(
            before in "[ -~\n]{0,40}",
            after in "[ -~\n]{0,40}",
            key in "(AKIA|ASIA)[A-Z0-9]{16}",
            token in "[A-Za-z0-9+/]{20,80}",
            signature in "[0-9a-f]{64}",
            form in 0usize..4,
        ) {
            let secret_part = match form {
                0 => format!("Authorization: AWS4-HMAC-SHA256 Credential={key}/x, Signature={signature}"),
                1 => format!("X-Amz-Security-Token: {token}"),
                2 => format!("?X-Amz-Credential={key}&X-Amz-Signature={signature}&X-Amz-Security-Token={token}"),
                _ => format!("id {key} "),
            };
            let text = format!("{before}\n{secret_part}\n{after}");
            let redacted = redact_secrets(&text);
            prop_assert!(!redacted.contains(&key), "{redacted}");
            prop_assert!(!redacted.contains(&signature), "{redacted}");
            if form == 1 || form == 2 {
                prop_assert!(!redacted.contains(&token), "{redacted}");
            }
        }
    }
}
