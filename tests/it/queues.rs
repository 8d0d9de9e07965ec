//! `sqsctl queues` through the real binary against the local server: depths, type and DLQ, with a
//! prefix filter.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use sqsctl::message::MessageRecord;
use support::TestEnv;
use support::snapshot::assert_snapshot;

#[test]
fn queues_lists_depths_type_and_dlq_with_a_prefix_filter() {
    let env = TestEnv::start();
    let dlq_arn = env.server().queue_arn("app-dlq");
    env.create_queue("app-dlq", &[]);
    let policy = format!("{{\"deadLetterTargetArn\":\"{dlq_arn}\",\"maxReceiveCount\":\"3\"}}");
    let app = env.create_queue("app-main", &[("RedrivePolicy", &policy)]);
    env.create_queue("app-jobs.fifo", &[("FifoQueue", "true")]);
    env.create_queue("other", &[]);
    let records: Vec<MessageRecord> = (0..3)
        .map(|i| MessageRecord::with_body(format!("{i}")))
        .collect();
    env.block_on(env.sqs().send_batch(&app, &records)).unwrap();

    let run = env.run(&["queues", "app"]);
    run.assert_code(0);
    let rows = run.records_of("queue");
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["app-dlq", "app-jobs.fifo", "app-main"]);
    let main = &rows[2];
    assert_eq!(main["visible"], 3);
    assert_eq!(main["in_flight"], 0);
    assert_eq!(main["delayed"], 0);
    assert_eq!(main["dlq"], "app-dlq");
    assert_eq!(main["max_receive_count"], 3);
    assert_eq!(rows[1]["fifo"], true);
    assert_eq!(rows[0]["fifo"], false);

    let run = env.run(&["queues"]);
    assert_eq!(run.records_of("queue").len(), 4);

    let table = env.run_tty(&["queues"], "");
    table.assert_code(0);
    assert_snapshot!(name: "queues_table", table.stdout);

    let json = env.run(&["queues", "app-m", "-o", "json"]);
    json.assert_code(0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc.as_array().unwrap().len(), 1);

    let run = env.run(&["queues", "bad prefix"]);
    run.assert_code(2);
}
