//! The values given on the command line that clap's own parsers do not cover: durations and byte
//! sizes, each checked against the range its flag allows (the same range its help shows),
//! `NAME=VALUE` options and typed message attributes. They check the text only; nothing here
//! calls AWS.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::time::Duration;

use clap::builder::TypedValueParser;

use crate::client::limits;
use crate::message::AttributeValue;
use crate::text::format_seconds;

/// The range of a duration flag, and its parser: a bare number is seconds (`90`, `2.5`), or a
/// duration with units (`90s`, `2m`, `1h30m`, `500ms`, `14d`). Every duration flag takes its value
/// through one of these, so `--wait 5s`, `--delay 1m` and `--visibility 2m` read alike everywhere,
/// and a value out of range is a usage error that names the flag and the range its help shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DurationRange {
    min: Duration,
    max: Duration,
    /// 0 is refused (a timeout, an interval).
    above_zero: bool,
    /// SQS counts this duration in whole seconds: a fraction is refused rather than rounded.
    whole_seconds: bool,
}

/// `receive --wait`, `consume --wait`, `queue set --wait`: a long poll of 0s to 20s.
pub const WAIT: DurationRange = DurationRange::seconds(Duration::ZERO, limits::MAX_WAIT);
/// A visibility timeout, 0s (visible at once) to 12h.
pub const VISIBILITY: DurationRange =
    DurationRange::seconds(Duration::ZERO, limits::MAX_VISIBILITY);
/// A visibility timeout that hides what it holds: 1s to 12h (`consume`, `redrive`).
pub const HOLD: DurationRange =
    DurationRange::seconds(Duration::from_secs(1), limits::MAX_VISIBILITY);
/// A delivery delay, 0s to 15m.
pub const DELAY: DurationRange = DurationRange::seconds(Duration::ZERO, limits::MAX_DELAY);
/// How long SQS keeps a message, 1m to 14d.
pub const RETENTION: DurationRange =
    DurationRange::seconds(limits::MIN_RETENTION, limits::MAX_RETENTION);
/// A network timeout or a refresh interval: more than 0, at most an hour.
pub const TIMEOUT: DurationRange = DurationRange::positive(Duration::from_secs(3600));
/// Time between two refreshes (`top --interval`, `diagnose --watch`): more than 0, at most an hour.
pub const INTERVAL: DurationRange = DurationRange::positive(Duration::from_secs(3600));
/// How long a retry waits, 0s to 12h (it becomes a visibility timeout).
pub const RETRY_DELAY: DurationRange =
    DurationRange::between(Duration::ZERO, limits::MAX_VISIBILITY);
/// A message's age (`--older-than`, `--newer-than`): any length.
pub const AGE: DurationRange = DurationRange::between(Duration::ZERO, Duration::MAX);
/// How long requests in flight may finish after Ctrl-C (`SQSCTL_INTERRUPT_GRACE`): 0s to 1h.
pub const GRACE: DurationRange = DurationRange::between(Duration::ZERO, Duration::from_secs(3600));
/// A length of time without a bound of its own (`consume --idle-exit`, `--timeout`): at most a
/// year, so that a deadline never overflows the clock.
pub const SPAN: DurationRange =
    DurationRange::between(Duration::ZERO, Duration::from_secs(365 * 86_400));

impl DurationRange {
    /// Whole seconds from `min` to `max`, as SQS takes them.
    pub const fn seconds(min: Duration, max: Duration) -> DurationRange {
        DurationRange {
            min,
            max,
            above_zero: false,
            whole_seconds: true,
        }
    }

    /// More than 0 and at most `max`, fractions of a second allowed.
    pub const fn positive(max: Duration) -> DurationRange {
        DurationRange {
            min: Duration::ZERO,
            max,
            above_zero: true,
            whole_seconds: false,
        }
    }

    /// From `min` to `max`, fractions of a second allowed.
    pub const fn between(min: Duration, max: Duration) -> DurationRange {
        DurationRange {
            min,
            max,
            above_zero: false,
            whole_seconds: false,
        }
    }

    /// The range as help and errors show it: `0s-20s`, `more than 0s, at most 1h`.
    pub fn text(&self) -> String {
        let max = show(self.max);
        if self.above_zero {
            format!("more than 0s, at most {max}")
        } else if self.max == Duration::MAX {
            format!("{} or more", show(self.min))
        } else {
            format!("{}-{max}", show(self.min))
        }
    }

    /// The duration `text` gives, within the range.
    pub fn parse(&self, text: &str) -> Result<Duration, String> {
        let text = text.trim();
        let duration = match text.parse::<f64>() {
            Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => {
                Duration::try_from_secs_f64(seconds).map_err(|_| self.out_of_range())?
            }
            Ok(_) => return Err(self.out_of_range()),
            Err(_) => humantime::parse_duration(text).map_err(|_| {
                let range = if self.max == Duration::MAX {
                    String::new()
                } else {
                    format!(", {}", self.text())
                };
                format!(
                    "expected seconds (30) or a duration with units (90s, 2m, 1h30m{}){range}",
                    if self.whole_seconds { "" } else { ", 500ms" },
                )
            })?,
        };
        if duration < self.min || duration > self.max || (self.above_zero && duration.is_zero()) {
            return Err(self.out_of_range());
        }
        if self.whole_seconds && duration.subsec_nanos() != 0 {
            return Err(format!(
                "SQS takes whole seconds here: must be {} in whole seconds",
                self.text()
            ));
        }
        Ok(duration)
    }

    fn out_of_range(&self) -> String {
        format!("must be {}", self.text())
    }
}

/// A bound in the largest units that divide it (`20s`, `12h`, `14d`, `500ms`).
fn show(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format_seconds(duration.as_secs())
    } else {
        humantime::format_duration(duration).to_string()
    }
}

/// A duration in whole seconds as SQS's requests carry them (the range checked that it fits).
pub fn whole_seconds(duration: Duration) -> i32 {
    i32::try_from(duration.as_secs()).unwrap_or(i32::MAX)
}

/// Makes a range type with `parse(&self, &str) -> Result<T, String>` a clap value parser.
macro_rules! value_parser_of {
    ($range:ty, $value:ty) => {
        impl TypedValueParser for $range {
            type Value = $value;

            fn parse_ref(
                &self,
                cmd: &clap::Command,
                arg: Option<&clap::Arg>,
                value: &OsStr,
            ) -> Result<$value, clap::Error> {
                // A closure parser renders the error as clap does for every value: the flag, the
                // value as given, and the reason.
                let range = *self;
                (move |text: &str| range.parse(text)).parse_ref(cmd, arg, value)
            }
        }
    };
}

value_parser_of!(DurationRange, Duration);
value_parser_of!(ByteSizeRange, u64);
value_parser_of!(ShareRange, f64);

/// The range of a share or probability flag (`--fault-rate 0.1`): a number from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShareRange {
    /// 0 is refused (a sample of nothing).
    pub above_zero: bool,
}

/// A probability, 0 to 1.
pub const RATE: ShareRange = ShareRange { above_zero: false };
/// A share that must take something: above 0, at most 1.
pub const SAMPLE: ShareRange = ShareRange { above_zero: true };

impl ShareRange {
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let share: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("expected a number, {}", self.text()))?;
        let low_ok = if self.above_zero {
            share > 0.0
        } else {
            share >= 0.0
        };
        if !(low_ok && share <= 1.0) {
            return Err(format!("must be {}", self.text()));
        }
        Ok(share)
    }

    /// The range as help and errors show it.
    pub fn text(&self) -> &'static str {
        if self.above_zero {
            "above 0, at most 1"
        } else {
            "from 0 to 1"
        }
    }
}

/// The range of a byte-size flag, and its parser: `1000000`, `512MiB`, `2GB`, `1.5 GiB` (SI units
/// are powers of 1000, IEC units powers of 1024).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSizeRange {
    pub min: u64,
    pub max: u64,
}

impl ByteSizeRange {
    /// The size `text` gives, in bytes, within the range.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        let bytes = parse_size::parse_size(text).map_err(|e| {
            format!("{e}: give a number of bytes, optionally with a unit (512MiB, 2GB, 1.5GiB)")
        })?;
        if !(self.min..=self.max).contains(&bytes) {
            return Err(format!("must be {}", self.text()));
        }
        Ok(bytes)
    }

    /// The range as help and errors show it: `at least 1KiB`, `1KiB-1MiB`.
    pub fn text(&self) -> String {
        if self.max == u64::MAX {
            format!("at least {}", show_bytes(self.min))
        } else {
            format!("{}-{}", show_bytes(self.min), show_bytes(self.max))
        }
    }
}

fn show_bytes(bytes: u64) -> String {
    for (unit, size) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes >= size && bytes % size == 0 {
            return format!("{}{unit}", bytes / size);
        }
    }
    format!("{bytes} bytes")
}

/// An engine's enum offered as a flag's values, without the engine knowing clap: the names and
/// what each means are given once, where the flag is declared, and [`choice`] parses them.
pub trait Choice: Sized + Copy + Send + Sync + 'static {
    /// Every value in the order help lists them, with its name and what it means.
    const ALL: &'static [(Self, &'static str, &'static str)];
}

/// The parser of a [`Choice`]: clap's own parser of possible values (its errors and suggestions
/// included), answering with the engine's value.
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(std::marker::PhantomData)
}

#[derive(Debug, Clone, Copy)]
pub struct ChoiceParser<T>(std::marker::PhantomData<T>);

impl<T: Choice> ChoiceParser<T> {
    fn possible() -> impl Iterator<Item = clap::builder::PossibleValue> {
        T::ALL
            .iter()
            .map(|(_, name, help)| clap::builder::PossibleValue::new(*name).help(*help))
    }
}

impl<T: Choice> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let name = clap::builder::PossibleValuesParser::new(Self::possible())
            .parse_ref(cmd, arg, value)?;
        T::ALL
            .iter()
            .find(|(_, known, _)| *known == name)
            .map(|(value, _, _)| *value)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Self::possible()))
    }
}

/// Splits `NAME=VALUE` (the value may itself hold `=`).
pub fn parse_name_value(text: &str, option: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        _ => anyhow::bail!("{option} expects NAME=VALUE, got `{text}`"),
    }
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
        let many: Vec<String> = (0..11).map(|i| format!("a{i}=v")).collect();
        assert!(parse_message_attributes(&many).is_err());
    }

    #[test]
    fn durations_take_bare_seconds_or_units_within_their_range() {
        assert_eq!(WAIT.parse("5"), Ok(Duration::from_secs(5)));
        assert_eq!(WAIT.parse("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(VISIBILITY.parse("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(VISIBILITY.parse("12h"), Ok(limits::MAX_VISIBILITY));
        assert_eq!(RETENTION.parse("14d"), Ok(limits::MAX_RETENTION));
        assert_eq!(DELAY.parse("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(TIMEOUT.parse("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(TIMEOUT.parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(AGE.parse("1day"), Ok(Duration::from_secs(86_400)));
        assert_eq!(WAIT.parse("21s"), Err("must be 0s-20s".to_string()));
        assert_eq!(DELAY.parse("16m"), Err("must be 0s-15m".to_string()));
        assert_eq!(HOLD.parse("0"), Err("must be 1s-12h".to_string()));
        assert_eq!(
            VISIBILITY.parse("1.5s"),
            Err("SQS takes whole seconds here: must be 0s-12h in whole seconds".to_string())
        );
        assert_eq!(
            TIMEOUT.parse("0"),
            Err("must be more than 0s, at most 1h".to_string())
        );
        for bad in ["-1", "NaN", "soon", "2h", "inf"] {
            assert!(TIMEOUT.parse(bad).is_err(), "{bad}");
        }
        assert_eq!(WAIT.text(), "0s-20s");
        assert_eq!(RETENTION.text(), "1m-14d");
        assert_eq!(AGE.text(), "0s or more");
    }

    #[test]
    fn byte_sizes_take_si_and_iec_units_within_their_range() {
        let any = ByteSizeRange {
            min: 0,
            max: u64::MAX,
        };
        assert_eq!(any.parse("1000"), Ok(1000));
        assert_eq!(any.parse("512MiB"), Ok(512 * 1024 * 1024));
        assert_eq!(any.parse("2GB"), Ok(2_000_000_000));
        assert!(any.parse("lots").is_err());
        let bounded = ByteSizeRange {
            min: 1024,
            max: u64::MAX,
        };
        assert_eq!(
            bounded.parse("1000"),
            Err("must be at least 1KiB".to_string())
        );
    }
}
