//! Parsers of values given on the command line that clap's own parsers do not cover: `NAME=VALUE`
//! options and typed message attributes. They check the text only; nothing here calls AWS.

use std::collections::BTreeMap;

use crate::message::AttributeValue;

/// Splits `NAME=VALUE` (the value may itself hold `=`).
pub fn parse_name_value(text: &str, option: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        _ => anyhow::bail!("{option} expects NAME=VALUE, got `{text}`"),
    }
}

/// A duration given as seconds (`30`, `0.5`) or with units (`500ms`, `2m`, `1h30m`).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<f64>() {
        return std::time::Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("`{text}` is not a duration of 0 seconds or more"));
    }
    humantime::parse_duration(text).map_err(|_| {
        format!("`{text}` is not a duration: give seconds (30) or a duration (500ms, 5m, 1h30m)")
    })
}

/// Parses `--attr NAME=VALUE` or `NAME:TYPE=VALUE` message attributes (type String by default).
pub fn parse_message_attributes(
    values: &[String],
) -> anyhow::Result<BTreeMap<String, AttributeValue>> {
    let mut out = BTreeMap::new();
    for text in values {
        let (name, value) = parse_name_value(text, "--attr")?;
        let (name, data_type) = match name.split_once(':') {
            Some((name, data_type)) => (name.to_string(), data_type.to_string()),
            None => (name, "String".to_string()),
        };
        let base = data_type.split('.').next().unwrap_or_default();
        if !matches!(base, "String" | "Number" | "Binary") {
            anyhow::bail!(
                "--attr {text}: the type `{data_type}` is not String, Number or Binary (optionally with a .suffix)"
            );
        }
        if out
            .insert(name.clone(), AttributeValue { data_type, value })
            .is_some()
        {
            anyhow::bail!("--attr {name} is given twice");
        }
    }
    if out.len() > crate::client::batch::MAX_MESSAGE_ATTRIBUTES {
        anyhow::bail!(
            "{} message attributes given with --attr; SQS accepts at most {} per message",
            out.len(),
            crate::client::batch::MAX_MESSAGE_ATTRIBUTES
        );
    }
    Ok(out)
}

/// Parses a byte size: `1000000`, `512MiB`, `2GB`, `1.5 GiB` (SI units are powers of 1000, IEC
/// units powers of 1024).
pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    parse_size::parse_size(text).map_err(|e| {
        format!("{e}: give a number of bytes, optionally with a unit (512MiB, 2GB, 1.5GiB)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_value_pairs_and_attribute_types_parse() {
        assert_eq!(
            parse_name_value("a=b=c", "--attr").unwrap(),
            ("a".to_string(), "b=c".to_string())
        );
        assert!(parse_name_value("novalue", "--attr").is_err());
        assert!(parse_name_value("=x", "--attr").is_err());
        let attrs = parse_message_attributes(&["kind=order".into(), "n:Number=5".into()]).unwrap();
        assert_eq!(attrs["kind"].data_type, "String");
        assert_eq!(attrs["n"].data_type, "Number");
        assert!(parse_message_attributes(&["x:Date=1".into()]).is_err());
        assert_eq!(
            parse_duration("1.5"),
            Ok(std::time::Duration::from_millis(1500))
        );
        assert_eq!(
            parse_duration("2m"),
            Ok(std::time::Duration::from_secs(120))
        );
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("soon").is_err());
        let many: Vec<String> = (0..11).map(|i| format!("a{i}=v")).collect();
        assert!(parse_message_attributes(&many).is_err());
    }

    #[test]
    fn byte_sizes_take_si_and_iec_units() {
        assert_eq!(parse_byte_size("1000"), Ok(1000));
        assert_eq!(parse_byte_size("512MiB"), Ok(512 * 1024 * 1024));
        assert_eq!(parse_byte_size("2GB"), Ok(2_000_000_000));
        assert!(parse_byte_size("lots").is_err());
    }
}
