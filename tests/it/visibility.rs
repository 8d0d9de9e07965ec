//! `sqsctl visibility`: receipt handles from the arguments or stdin get a new visibility timeout,
//! each is reported, and a timeout past SQS's limit is refused naming it.

use crate::query::bodies;
use crate::support::TestEnv;
use crate::support::snapshot::assert_snapshot;

/// Receives `count` messages through the client, hidden for 10 minutes; their receipt handles.
fn receive_hidden(env: &TestEnv, queue: &sqsctl::client::QueueRef, count: i32) -> Vec<String> {
    let options = sqsctl::client::ReceiveOptions {
        max_messages: count,
        wait_seconds: Some(0),
        visibility_timeout: Some(600),
    };
    let received = env.block_on(env.sqs().receive(queue, options)).unwrap();
    assert_eq!(received.len(), count as usize);
    received
        .into_iter()
        .map(|m| m.receipt_handle.unwrap())
        .collect()
}

fn visible(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> u64 {
    env.block_on(env.sqs().attributes(queue)).unwrap().visible()
}

#[test]
fn visibility_zero_releases_the_messages_given_by_handle() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(3));
    let handles = receive_hidden(&env, &queue, 3);
    assert_eq!(visible(&env, &queue), 0);

    let mut args = vec!["visibility", "work", "--timeout", "0"];
    args.extend(handles.iter().take(2).map(String::as_str));
    let run = env.run(&args);
    run.assert_code(0);
    let results = run.records_of("visibility");
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| r["status"] == "changed"),
        "{results:?}"
    );
    assert_eq!(visible(&env, &queue), 2);
}

#[test]
fn visibility_reads_handles_from_stdin_and_reports_each() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(12));
    let mut handles = receive_hidden(&env, &queue, 10);
    handles.extend(receive_hidden(&env, &queue, 2));
    let stdin = format!("{}\n\n", handles.join("\n"));
    let run = env.run_stdin(&["visibility", "work", "--timeout", "0s"], &stdin);
    run.assert_code(0);
    assert_eq!(run.records_of("visibility").len(), 12);
    assert_eq!(visible(&env, &queue), 12);
}

#[test]
fn visibility_reports_a_handle_it_could_not_change_and_exits_3() {
    let env = TestEnv::start();
    let queue = env.create_queue("work", &[]);
    env.send(&queue, bodies(1));
    let handles = receive_hidden(&env, &queue, 1);
    let run = env.run(&[
        "visibility",
        "work",
        "--timeout",
        "2m",
        &handles[0],
        "not-a-receipt-handle",
    ]);
    run.assert_code(3);
    let results = run.records_of("visibility");
    assert_eq!(results[0]["status"], "changed");
    assert_eq!(results[0]["visibility_timeout"], 120);
    assert_eq!(results[1]["status"], "failed");
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .contains("ReceiptHandle")
    );
}

#[test]
fn visibility_over_twelve_hours_is_refused_naming_the_limit() {
    let env = TestEnv::start();
    env.create_queue("work", &[]);
    let run = env.run(&["visibility", "work", "--timeout", "13h", "AQEB"]);
    run.assert_code(2);
    assert_snapshot!(run.stderr);
}
