//! Queue references (name, URL or ARN) and decoded queue attributes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How the user named a queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueueSpec {
    Name(String),
    Url(String),
    Arn {
        region: String,
        account: String,
        name: String,
    },
}

impl QueueSpec {
    pub fn parse(text: &str) -> Result<QueueSpec, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("the queue name is empty".into());
        }
        if text.starts_with("http://") || text.starts_with("https://") {
            return Ok(QueueSpec::Url(text.to_string()));
        }
        if let Some(rest) = text.strip_prefix("arn:") {
            let parts: Vec<&str> = rest.split(':').collect();
            return match parts.as_slice() {
                [_partition, "sqs", region, account, name] if !name.is_empty() => {
                    Ok(QueueSpec::Arn {
                        region: region.to_string(),
                        account: account.to_string(),
                        name: name.to_string(),
                    })
                }
                _ => Err(format!(
                    "`{text}` is not an SQS queue ARN (arn:aws:sqs:REGION:ACCOUNT:NAME)"
                )),
            };
        }
        if text.len() > 80
            || !text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        {
            return Err(format!(
                "`{text}` is not a queue name, URL or ARN (names are 1-80 letters, digits, - and _, FIFO names end in .fifo)"
            ));
        }
        Ok(QueueSpec::Name(text.to_string()))
    }
}

impl QueueSpec {
    /// The region a queue URL or ARN names: an ARN's, an AWS URL's host
    /// (`sqs.REGION.amazonaws.com`, or the older `REGION.queue.amazonaws.com`), or the first path
    /// segment of `sqsctl local`'s URLs of a region other than its default
    /// (`http://HOST/REGION/ACCOUNT/NAME`). `None` for a name, or a URL that does not say.
    pub fn region(&self) -> Option<String> {
        match self {
            QueueSpec::Name(_) => None,
            QueueSpec::Arn { region, .. } => Some(region.clone()),
            QueueSpec::Url(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
                let host = authority.rsplit('@').next().unwrap_or(authority);
                let host = host.split(':').next().unwrap_or(host);
                let labels: Vec<&str> = host.split('.').collect();
                let from_host = match labels.as_slice() {
                    ["sqs", region, ..] | [region, "queue", "amazonaws", ..] => {
                        Some(region.to_string())
                    }
                    _ => None,
                };
                let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
                let from_path = match segments.as_slice() {
                    [region, _account, _name] => Some(region.to_string()),
                    _ => None,
                };
                from_host
                    .or(from_path)
                    .filter(|region| super::is_region_name(region))
            }
        }
    }
}

/// A resolved queue: its URL (what the API takes) and its name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueRef {
    pub url: String,
    pub name: String,
}

impl QueueRef {
    pub fn from_url(url: impl Into<String>) -> QueueRef {
        let url = url.into();
        let name = url
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_string();
        QueueRef { url, name }
    }

    pub fn is_fifo(&self) -> bool {
        self.name.ends_with(".fifo")
    }

    /// The AWS account that owns the queue, read from its URL (`.../ACCOUNT/NAME`), when the URL
    /// has that shape.
    pub fn account(&self) -> Option<&str> {
        let mut segments = self.url.trim_end_matches('/').rsplit('/');
        segments.next()?;
        let account = segments.next()?;
        (account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit())).then_some(account)
    }
}

/// `RedrivePolicy` of a source queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedrivePolicy {
    #[serde(rename = "deadLetterTargetArn")]
    pub dead_letter_target_arn: String,
    #[serde(rename = "maxReceiveCount", deserialize_with = "number_or_string")]
    pub max_receive_count: u32,
}

fn number_or_string<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(String),
    }
    match Either::deserialize(deserializer)? {
        Either::Number(n) => Ok(n),
        Either::Text(s) => s.trim().parse().map_err(serde::de::Error::custom),
    }
}

/// All attributes of a queue, with typed accessors for the ones commands reason about.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(transparent)]
pub struct QueueAttributes(pub BTreeMap<String, String>);

impl QueueAttributes {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    fn number(&self, name: &str) -> Option<u64> {
        self.get(name).and_then(|v| v.parse().ok())
    }

    pub fn visible(&self) -> u64 {
        self.number("ApproximateNumberOfMessages").unwrap_or(0)
    }

    pub fn in_flight(&self) -> u64 {
        self.number("ApproximateNumberOfMessagesNotVisible")
            .unwrap_or(0)
    }

    pub fn delayed(&self) -> u64 {
        self.number("ApproximateNumberOfMessagesDelayed")
            .unwrap_or(0)
    }

    pub fn total(&self) -> u64 {
        self.visible() + self.in_flight() + self.delayed()
    }

    pub fn is_fifo(&self) -> bool {
        self.get("FifoQueue") == Some("true")
    }

    pub fn content_based_dedup(&self) -> bool {
        self.get("ContentBasedDeduplication") == Some("true")
    }

    pub fn arn(&self) -> Option<&str> {
        self.get("QueueArn")
    }

    pub fn visibility_timeout(&self) -> Option<u64> {
        self.number("VisibilityTimeout")
    }

    pub fn retention_seconds(&self) -> Option<u64> {
        self.number("MessageRetentionPeriod")
    }

    pub fn receive_wait_seconds(&self) -> Option<u64> {
        self.number("ReceiveMessageWaitTimeSeconds")
    }

    pub fn redrive_policy(&self) -> Option<RedrivePolicy> {
        self.get("RedrivePolicy")
            .and_then(|text| serde_json::from_str(text).ok())
    }
}

/// The queue name inside an SQS ARN.
pub fn name_from_arn(arn: &str) -> Option<&str> {
    arn.rsplit(':').next().filter(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_region_of_a_queue_comes_from_its_arn_or_url() {
        let region = |text: &str| QueueSpec::parse(text).expect("parses").region();
        assert_eq!(region("orders"), None);
        assert_eq!(
            region("arn:aws:sqs:eu-west-1:123456789012:orders").as_deref(),
            Some("eu-west-1")
        );
        assert_eq!(
            region("https://sqs.us-west-2.amazonaws.com/123456789012/orders").as_deref(),
            Some("us-west-2")
        );
        assert_eq!(
            region("https://ap-south-1.queue.amazonaws.com/123456789012/orders").as_deref(),
            Some("ap-south-1")
        );
        assert_eq!(
            region("http://127.0.0.1:9324/eu-west-1/000000000000/orders").as_deref(),
            Some("eu-west-1")
        );
        assert_eq!(region("http://127.0.0.1:9324/000000000000/orders"), None);
        assert_eq!(
            region("http://localhost:4566/queue/x/000000000000/orders"),
            None
        );
    }

    #[test]
    fn names_urls_and_arns_parse() {
        assert_eq!(
            QueueSpec::parse("orders").unwrap(),
            QueueSpec::Name("orders".into())
        );
        assert_eq!(
            QueueSpec::parse("https://sqs.eu-west-1.amazonaws.com/123/orders.fifo").unwrap(),
            QueueSpec::Url("https://sqs.eu-west-1.amazonaws.com/123/orders.fifo".into())
        );
        assert_eq!(
            QueueSpec::parse("arn:aws:sqs:eu-west-1:123456789012:orders-dlq").unwrap(),
            QueueSpec::Arn {
                region: "eu-west-1".into(),
                account: "123456789012".into(),
                name: "orders-dlq".into()
            }
        );
        assert!(QueueSpec::parse("arn:aws:sns:eu-west-1:1:topic").is_err());
        assert!(QueueSpec::parse("has space").is_err());
        assert!(QueueSpec::parse("").is_err());
    }

    #[test]
    fn urls_give_names_and_fifo_flag() {
        let q = QueueRef::from_url("http://127.0.0.1:9324/000000000000/jobs.fifo");
        assert_eq!(q.name, "jobs.fifo");
        assert!(q.is_fifo());
    }

    #[test]
    fn redrive_policy_accepts_string_or_number_counts() {
        let mut attrs = QueueAttributes::default();
        attrs.0.insert(
            "RedrivePolicy".into(),
            r#"{"deadLetterTargetArn":"arn:aws:sqs:r:1:d","maxReceiveCount":"5"}"#.into(),
        );
        assert_eq!(attrs.redrive_policy().unwrap().max_receive_count, 5);
        attrs.0.insert(
            "RedrivePolicy".into(),
            r#"{"deadLetterTargetArn":"arn:aws:sqs:r:1:d","maxReceiveCount":3}"#.into(),
        );
        assert_eq!(attrs.redrive_policy().unwrap().max_receive_count, 3);
    }
}
