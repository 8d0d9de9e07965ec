//! The selection options every read shares (`redrive`, `peek`, `receive`): one clap struct,
//! flattened into each command, so a filter is spelled and documented the same everywhere.

/// `--grep`, `--grep-v`, `--attr`, `--where`, `--older-than`, `--newer-than`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SelectArgs {
    /// Only messages whose body matches this regular expression
    ///
    /// For an SNS notification or an EventBridge event, the inner message may match instead.
    #[arg(long, value_name = "REGEX", help_heading = "Selection")]
    pub grep: Option<String>,

    /// Leave out messages whose body matches this regular expression
    ///
    /// For an SNS notification or an EventBridge event, a match in the inner message counts too.
    #[arg(long = "grep-v", value_name = "REGEX", help_heading = "Selection")]
    pub grep_v: Option<String>,

    /// Only messages with this message attribute value (repeatable)
    ///
    /// Given more than once, all must match.
    #[arg(long = "attr", value_name = "NAME=VALUE", help_heading = "Selection")]
    pub attributes: Vec<String>,

    /// Only messages for which this JMESPath expression is true
    ///
    /// The expression sees the message record, with a JSON body parsed (e.g. "body.amount >
    /// `100`"), an envelope decoded ("message.order_id == `7`", "envelope.topic == 'orders'")
    /// and `age` in seconds. Messages it fails on do not match, and are counted and reported.
    #[arg(long = "where", value_name = "EXPR", help_heading = "Selection")]
    pub where_expr: Option<String>,

    /// Only messages sent longer ago than this (e.g. 30m, 2h, 1day)
    #[arg(long, value_name = "DURATION", value_parser = super::values::AGE, help_heading = "Selection")]
    pub older_than: Option<std::time::Duration>,

    /// Only messages sent more recently than this
    #[arg(long, value_name = "DURATION", value_parser = super::values::AGE, help_heading = "Selection")]
    pub newer_than: Option<std::time::Duration>,
}
