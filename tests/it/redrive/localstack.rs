//! `sqsctl redrive` against LocalStack, an independent SQS implementation: the engine and the
//! native move task both return a dead-letter queue's messages, with their attributes, to the
//! source queue. Ignored unless asked for (`-- --ignored`, with `SQSCTL_LOCALSTACK_ENDPOINT` set), as
//! `.ci/run` does.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use sqsctl_core::client::Delete;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sqsctl::client::{QueueRef, ReceiveOptions, Sqs};
use sqsctl::message::{AttributeValue, MessageRecord};
use support::TestEnv;

struct Queues {
    sqs: Sqs,
    dlq: QueueRef,
    source: QueueRef,
}

impl Queues {
    async fn create(endpoint: &str) -> Queues {
        let sqs = Sqs::from_sdk(support::sdk_client(endpoint), "us-east-1");
        let dlq = sqs
            .create_queue(&support::unique_name("rd-dlq"), BTreeMap::new())
            .await
            .unwrap();
        let arn = sqs
            .attributes(&dlq)
            .await
            .unwrap()
            .arn()
            .unwrap()
            .to_string();
        let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"3"}}"#);
        let source = sqs
            .create_queue(
                &support::unique_name("rd-src"),
                [("RedrivePolicy".to_string(), policy)]
                    .into_iter()
                    .collect(),
            )
            .await
            .unwrap();
        Queues { sqs, dlq, source }
    }

    async fn fill(&self, prefix: &str, n: usize) {
        let records: Vec<MessageRecord> = (0..n)
            .map(|i| {
                let mut m = MessageRecord::with_body(format!("{prefix}{i}"));
                m.message_attributes
                    .insert("tenant".into(), AttributeValue::string("acme"));
                m
            })
            .collect();
        for chunk in records.chunks(10) {
            let outcomes = self.sqs.send_batch(&self.dlq, chunk).await.unwrap();
            assert!(outcomes.iter().all(|o| o.is_ok()));
        }
    }

    async fn drain_source(&self) -> Vec<MessageRecord> {
        let mut out = Vec::new();
        loop {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(60),
            };
            let batch = self.sqs.receive(&self.source, options).await.unwrap();
            if batch.is_empty() {
                return out;
            }
            let handles: Vec<&str> = batch
                .iter()
                .filter_map(|m| m.receipt_handle.as_deref())
                .collect();
            self.sqs
                .batch(Delete, &self.source, &handles)
                .await
                .unwrap();
            out.extend(batch);
        }
    }

    async fn delete(self) {
        let _ = self.sqs.delete_queue(&self.source).await;
        let _ = self.sqs.delete_queue(&self.dlq).await;
    }
}

#[test]
#[ignore = "needs LocalStack: SQSCTL_LOCALSTACK_ENDPOINT (.ci/run runs it)"]
fn engine_and_native_mode_against_localstack() {
    let endpoint = support::localstack();
    let env = TestEnv::start();
    let queues = env.block_on(Queues::create(&endpoint));
    let run = |args: &[&str]| {
        let output = env
            .cmd()
            .env("AWS_ENDPOINT_URL_SQS", &endpoint)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}\n{stdout}\n{stderr}"
        );
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    env.block_on(queues.fill("engine-", 25));
    let summary = run(&["redrive", &queues.dlq.url, "--yes", "-o", "json"]);
    assert_eq!(summary["moved"], 25, "{summary}");
    assert_eq!(summary["destination"], queues.source.name.as_str());
    let moved = env.block_on(queues.drain_source());
    assert_eq!(moved.len(), 25);
    assert!(
        moved
            .iter()
            .all(|m| m.message_attributes["tenant"].value == "acme")
    );

    env.block_on(queues.fill("native-", 15));
    let summary = run(&[
        "redrive",
        &queues.dlq.url,
        "--native",
        "--yes",
        "-o",
        "json",
    ]);
    assert_eq!(summary["status"], "COMPLETED", "{summary}");
    // LocalStack's task may report before the last message lands: wait briefly for all 15.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut moved = Vec::new();
    while moved.len() < 15 && Instant::now() < deadline {
        moved.extend(env.block_on(queues.drain_source()));
    }
    assert_eq!(moved.len(), 15);
    let tasks = run(&["redrive", "status", &queues.dlq.url, "-o", "json"]);
    assert_eq!(tasks[0]["status"], "COMPLETED", "{tasks}");
    env.block_on(queues.delete());
}
