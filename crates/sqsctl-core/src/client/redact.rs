//! Removes credentials and signatures from text an endpoint sent back, before it is quoted in an
//! error or in `--verbose` output.
//!
//! A proxy, a captive portal or a misconfigured endpoint may answer with a page that echoes the
//! request: its `Authorization` header (the access key id in `Credential=`, the `Signature=`), the
//! `X-Amz-Security-Token`, or presigned query parameters. None of that may reach a terminal, a log
//! or a CI transcript. [`redact_secrets`] is the one place that knows what a credential looks like;
//! the client's error classification and `app::report` pass every foreign text through it.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// What replaces a secret.
pub const REDACTED: &str = "[redacted]";

/// Each pattern keeps its group 1 (the name of what is hidden, with its separator) and replaces
/// the rest of the match with [`REDACTED`].
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // An `Authorization` header or field: everything up to the end of its line or its quote.
        r#"(?i)(\bauthorization["']?\s*[:=]\s*["']?)[^\r\n"'<>]+"#,
        // Session tokens: `X-Amz-Security-Token: ...`, `X-Amz-Security-Token=...` in a query,
        // `"SessionToken": "..."`, `aws_session_token = ...`.
        r#"(?i)((?:security|session)[-_ ]?token["']?\s*[:=]\s*["']?)[^\s,&"'<>;]+"#,
        // The secret key, where something names it.
        r#"(?i)(secret[-_ ]?(?:access[-_ ]?)?key["']?\s*[:=]\s*["']?)[^\s,&"'<>;]+"#,
        // SigV4's `Credential=AKIA.../date/region/sqs/aws4_request` and `Signature=...`, also as
        // the presigned query parameters `X-Amz-Credential` and `X-Amz-Signature`.
        r#"(?i)((?:credential|signature)["']?\s*[:=]\s*["']?)[^\s,&"'<>;]+"#,
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
