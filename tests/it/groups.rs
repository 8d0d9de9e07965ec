//! `sqsctl groups` on fair queues (standard queues whose messages carry group ids), and
//! `diagnose`'s checks of their tenants. FIFO layouts are tested in `diagnose.rs`.

use crate::diagnose::{PROBLEMS_FOUND, assert_finding, json};
use crate::support;

use serde_json::Value;
use sqsctl::client::{QueueRef, ReceiveOptions};
use sqsctl::message::MessageRecord;
use support::snapshot::assert_snapshot;
use support::{Run, TestEnv};

fn tenant_record(tenant: &str, body: String) -> MessageRecord {
    MessageRecord {
        group_id: Some(tenant.into()),
        ..MessageRecord::with_body(body)
    }
}

/// Tenant `A` sends 5,000 messages, then `B` and `C` 20 each; a consumer holds 60 in flight
/// (received with a long visibility timeout, not deleted).
fn flooded(env: &TestEnv) -> QueueRef {
    let queue = env.create_queue("events", &[]);
    env.send(
        &queue,
        (0..5_000)
            .map(|i| tenant_record("A", format!("a {i}")))
            .collect(),
    );
    for tenant in ["B", "C"] {
        env.send(
            &queue,
            (0..20)
                .map(|i| tenant_record(tenant, format!("{tenant} {i}")))
                .collect(),
        );
    }
    env.block_on(async {
        for _ in 0..6 {
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(600),
            };
            env.sqs().receive(&queue, options).await.unwrap();
        }
    });
    queue
}

fn tenant<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["tenants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tenant"] == name)
        .unwrap_or_else(|| panic!("no tenant {name} in {report:#}"))
}

/// Ages change from run to run (`5s` on a quiet machine, `12s` on a busy one): each run of
/// digits before an `s` becomes one `#`, and the line keeps its width with spaces after the `s`
/// (which the cell's padding follows).
fn without_ages(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if c == 's' && !digits.is_empty() {
            out.push_str("#s");
            out.push_str(&" ".repeat(digits.len() - 1));
        } else {
            out.push_str(&digits);
            out.push(c);
        }
        digits.clear();
    }
    out.push_str(&digits);
    out
}

fn at_width(env: &TestEnv, args: &[&str], columns: usize) -> Run {
    let mut cmd = env.cmd();
    cmd.args(args)
        .env("SQSCTL_ASSUME_TTY", "1")
        .env("COLUMNS", columns.to_string());
    support::run_with_stdin(cmd, "")
}

#[test]
fn a_flooding_tenant_is_noisy_and_the_quiet_ones_are_not_in_every_format() {
    let env = TestEnv::with_inspection();
    flooded(&env);

    let run = env.run(&["groups", "events", "-o", "json"]);
    run.assert_code(0);
    let report = json(&run);
    assert_eq!(report["source"], "inspection");
    assert_eq!(report["totals"]["in_flight"], 60);
    assert_eq!(report["totals"]["noisy"], serde_json::json!(["A"]));
    let a = tenant(&report, "A");
    assert_eq!(a["noisy"], true);
    assert!(a["in_flight"].as_u64().unwrap() >= 30, "{report:#}");
    for quiet in ["B", "C"] {
        assert_eq!(tenant(&report, quiet)["noisy"], false, "{report:#}");
    }

    let run = env.run(&["groups", "events", "-o", "jsonl"]);
    let tenants: Vec<Value> = run.records_of("tenant");
    assert_eq!(tenants.len(), 3);
    assert_eq!(tenants[0]["tenant"], "A");
    assert_eq!(tenants[0]["noisy"], true);
    assert_eq!(run.records_of("totals")[0]["noisy"][0], "A");

    let run = env.run(&["groups", "events", "-o", "text"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("A\t") && lines[0].ends_with("\tnoisy"),
        "{}",
        run.stdout
    );
    assert!(
        lines[1..].iter().all(|l| l.ends_with("\tquiet")),
        "{}",
        run.stdout
    );

    let run = env.run(&[
        "groups",
        "events",
        "-o",
        "json",
        "--query",
        "totals.noisy[0]",
    ]);
    assert_eq!(run.stdout.trim(), "\"A\"");

    // The alias reads the same.
    let run = env.run(&["fifo", "groups", "events", "-o", "json"]);
    assert_eq!(json(&run)["totals"]["noisy"][0], "A");

    for columns in [80, 60] {
        let run = at_width(&env, &["groups", "events"], columns);
        run.assert_code(0);
        assert!(
            run.stdout.lines().all(|l| l.chars().count() <= columns),
            "{}",
            run.stdout
        );
        assert_snapshot!(name: &format!("table_{columns}"), without_ages(&run.stdout));
    }

    // diagnose names the noisy tenant and exits with the findings code.
    let run = env.run(&["diagnose", "events", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let noisy = assert_finding(&report, "noisy-tenant", "warning");
    assert!(
        noisy["title"].as_str().unwrap().contains("`A`"),
        "{noisy:#}"
    );
    assert!(
        noisy["evidence"][0]
            .as_str()
            .unwrap()
            .contains("of the 60 in flight"),
        "{noisy:#}"
    );
}

#[test]
fn without_the_inspection_endpoint_the_backlog_is_shown_and_in_flight_is_not_guessed() {
    let env = TestEnv::start();
    let queue = env.create_queue("events", &[]);
    env.send(
        &queue,
        (0..30)
            .map(|i| tenant_record(["acme", "globex", "acme"][i % 3], format!("e {i}")))
            .collect(),
    );
    env.settle_counts();
    let run = env.run(&["groups", "events", "-o", "json"]);
    run.assert_code(0);
    let report = json(&run);
    assert_eq!(report["source"], "scan");
    assert_eq!(tenant(&report, "acme")["visible"], 20);
    assert_eq!(tenant(&report, "globex")["visible"], 10);
    assert!(tenant(&report, "acme")["in_flight"].is_null());
    assert!(tenant(&report, "acme")["noisy"].is_null());
    assert_eq!(report["totals"]["exact"], false);
}

/// A standard queue whose settings draw no finding: a long poll and a dead-letter queue (after a
/// maxReceiveCount that a few reads do not come near).
fn well_set(env: &TestEnv, name: &str) -> QueueRef {
    let dlq = env.create_queue(
        &format!("{name}-dlq"),
        &[("MessageRetentionPeriod", "1209600")],
    );
    let dlq_arn = env.arn(&dlq);
    env.create_queue(
        name,
        &[
            ("ReceiveMessageWaitTimeSeconds", "20"),
            (
                "RedrivePolicy",
                &format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":10}}"#),
            ),
        ],
    )
}

fn customer_bodies(customers: &[(&str, usize)]) -> Vec<MessageRecord> {
    let mut records = Vec::new();
    for (customer, count) in customers {
        for i in 0..*count {
            records.push(MessageRecord::with_body(format!(
                r#"{{"customer":"{customer}","order":{i}}}"#
            )));
        }
    }
    records
}

#[test]
fn a_tenant_key_finds_the_value_that_dominates_a_queue_without_group_ids() {
    let env = TestEnv::start();
    let queue = well_set(&env, "invoices");
    env.send(
        &queue,
        customer_bodies(&[("acme", 60), ("globex", 15), ("initech", 5)]),
    );
    let args = ["diagnose", "invoices", "--tenant-key", "body.customer"];
    let run = env.run(&[&args[..], &["-o", "json"]].concat());
    run.assert_code(PROBLEMS_FOUND);
    let report = json(&run);
    let found = assert_finding(&report, "tenant-dominates-backlog", "warning");
    assert_eq!(
        found["title"],
        "\"acme\" holds 75% of the messages read by `body.customer`: the other tenants' messages wait behind it",
        "{report:#}"
    );
    assert_eq!(
        report["findings"].as_array().unwrap().len(),
        1,
        "{report:#}"
    );
    assert_eq!(env.depth(&queue), 80, "nothing consumed");
    let run = env.run(&[&args[..], &["-o", "jsonl"]].concat());
    run.assert_code(PROBLEMS_FOUND);
    let finding = &run.records_of("finding")[0];
    assert_eq!(finding["id"], "tenant-dominates-backlog");
    let table = at_width(&env, &args, 80);
    table.assert_code(PROBLEMS_FOUND);
    assert_snapshot!(table.stdout);

    // The same customers in balance: nothing to say.
    let balanced = well_set(&env, "receipts");
    env.send(
        &balanced,
        customer_bodies(&[("acme", 30), ("globex", 30), ("initech", 30)]),
    );
    let run = env.run(&[
        "diagnose",
        "receipts",
        "--tenant-key",
        "body.customer",
        "-o",
        "json",
    ]);
    let report = json(&run);
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    run.assert_code(0);
}

#[test]
fn a_tenant_key_is_not_checked_where_group_ids_name_the_tenants_and_must_be_valid() {
    let env = TestEnv::start();
    let queue = well_set(&env, "orders");
    env.send(
        &queue,
        (0..40)
            .map(|i| tenant_record(["acme", "globex"][i % 2], format!("order {i}")))
            .collect(),
    );
    let run = env.run(&["diagnose", "orders", "--tenant-key", "body", "-o", "json"]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "--tenant-key was not checked: the messages carry group ids already: those are the queue's tenants"
        ),
        "{}",
        run.stderr
    );
    let run = env.run(&["diagnose", "orders", "--tenant-key", "body.["]);
    run.assert_code(2);
    assert_snapshot!(run.stderr);
}

#[test]
fn a_constant_tenant_id_is_flagged_and_a_healthy_multi_tenant_queue_is_clean() {
    let env = TestEnv::with_inspection();
    let one = env.create_queue("emails", &[]);
    env.send(
        &one,
        (0..50)
            .map(|i| tenant_record("default", format!("mail {i}")))
            .collect(),
    );
    let run = env.run(&["diagnose", "emails", "-o", "json"]);
    run.assert_code(PROBLEMS_FOUND);
    assert_finding(&json(&run), "tenant-id-constant", "warning");

    let dlq = env.create_queue("orders-dlq", &[("MessageRetentionPeriod", "1209600")]);
    let dlq_arn = env.arn(&dlq);
    let queue = env.create_queue(
        "orders",
        &[
            ("ReceiveMessageWaitTimeSeconds", "20"),
            (
                "RedrivePolicy",
                &format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":5}}"#),
            ),
        ],
    );
    env.send(
        &queue,
        (0..90)
            .map(|i| tenant_record(["acme", "globex", "initech"][i % 3], format!("order {i}")))
            .collect(),
    );
    let run = env.run(&["diagnose", "orders", "-o", "json"]);
    let report = json(&run);
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    run.assert_code(0);
    assert_eq!(report["tenants"]["totals"]["tenants"], 3);
}

/// `pay.fifo` on the exact server: 1,000 messages, 944 of them in group `hot` and the others in 14
/// groups of 4, interleaved as producers send them.
fn pay_fifo(env: &TestEnv) -> QueueRef {
    let queue = env.create_queue("pay.fifo", &[("FifoQueue", "true")]);
    let records = (0..1_000)
        .map(|i| {
            let group = if i % 18 == 0 && i / 18 < 56 {
                format!("account-{}", i / 18 % 14)
            } else {
                "hot".to_string()
            };
            MessageRecord {
                group_id: Some(group),
                dedup_id: Some(format!("m{i}")),
                ..MessageRecord::with_body(format!("payment {i}"))
            }
        })
        .collect();
    env.send(&queue, records);
    queue
}

/// The totals of `groups -o json` hold together: every visible message is either seen or not
/// delivered, and groups can have more behind only when some were not delivered.
#[track_caller]
fn assert_consistent(layout: &Value) {
    let totals = &layout["totals"];
    let seen = totals["messages_seen"].as_u64().unwrap();
    let visible = totals["visible_at_start"].as_u64().unwrap();
    let not_delivered = totals["not_delivered"].as_u64().unwrap();
    assert_eq!(seen + not_delivered, visible, "{layout:#}");
    let more_behind = layout["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["more_behind"] == true)
        .count() as u64;
    assert_eq!(totals["groups_with_more_behind"], more_behind, "{layout:#}");
    if not_delivered == 0 {
        assert_eq!(more_behind, 0, "nothing behind the heads: {layout:#}");
    }
    assert!(
        totals["messages_in_those_groups"].as_u64().unwrap() <= visible,
        "{layout:#}"
    );
}

#[test]
fn groups_on_the_exact_server_shows_numbers_that_hold_together() {
    // Listed whole through the inspection endpoint: every group is seen to its end.
    let env = TestEnv::with_inspection();
    pay_fifo(&env);
    let run = env.run(&["groups", "pay.fifo", "-o", "json"]);
    run.assert_code(0);
    let layout = json(&run);
    assert_consistent(&layout);
    let totals = &layout["totals"];
    assert_eq!(
        (
            &totals["messages_seen"],
            &totals["not_delivered"],
            &totals["groups_with_more_behind"]
        ),
        (&Value::from(1_000), &Value::from(0), &Value::from(0)),
        "{layout:#}"
    );
    assert_eq!(totals["largest_group"], "hot");
    assert_eq!(totals["largest_group_share_percent"], 94);
    assert_eq!(totals["exact"], true);
    let table = at_width(&env, &["groups", "pay.fifo", "--limit", "3"], 80);
    table.assert_code(0);
    assert_snapshot!(without_ages(&table.stdout));

    // Read by receives, as on SQS: the heads only, and the rest counted behind them.
    let env = TestEnv::exact("asserts the exact number of messages behind the group heads");
    pay_fifo(&env);
    let run = env.run(&["groups", "pay.fifo", "-o", "json"]);
    run.assert_code(0);
    let layout = json(&run);
    assert_consistent(&layout);
    assert!(
        layout["totals"]["not_delivered"].as_u64().unwrap() > 0,
        "{layout:#}"
    );
}

/// A fair queue `name` where tenant `acme` sent 80 messages and `globex`, `initech` and `umbrella`
/// 5 each. A consumer holds 30 of acme's in flight, which makes acme noisy, so fair delivery hands
/// it the quiet tenants' messages next, which it processes (deletes). With `release`, it then lets
/// acme's go back to the queue (as a consumer that stops does).
fn quiet_tenants_drained(env: &TestEnv, name: &str, release: bool) {
    let queue = env.create_queue(name, &[]);
    env.send(
        &queue,
        (0..80)
            .map(|i| tenant_record("acme", format!("acme {i}")))
            .collect(),
    );
    for tenant in ["globex", "initech", "umbrella"] {
        env.send(
            &queue,
            (0..5)
                .map(|i| tenant_record(tenant, format!("{tenant} {i}")))
                .collect(),
        );
    }
    env.block_on(async {
        let mut held = std::collections::HashMap::new();
        let mut quiet = std::collections::HashSet::new();
        for _ in 0..100 {
            if quiet.len() == 15 && held.len() >= 30 {
                break;
            }
            let options = ReceiveOptions {
                max_messages: 10,
                wait_seconds: Some(1),
                visibility_timeout: Some(600),
            };
            for message in env.sqs().receive(&queue, options).await.unwrap() {
                let handle = message.receipt_handle.clone().unwrap();
                let id = message.message_id.clone().unwrap();
                if message.group_id.as_deref() == Some("acme") {
                    held.insert(id, handle);
                } else {
                    env.sqs()
                        .batch(sqsctl::client::Delete, &queue, &[handle.as_str()])
                        .await
                        .unwrap();
                    quiet.insert(id);
                }
            }
        }
        assert_eq!(quiet.len(), 15, "every quiet tenant's message processed");
        if release {
            let handles: Vec<&str> = held.values().map(String::as_str).collect();
            env.sqs().release(&queue, &handles).await.unwrap();
        }
    });
    env.settle_counts();
}

#[test]
fn groups_no_constant_tenant_is_reported_after_fair_delivery_drained_the_quiet_tenants() {
    for env in [TestEnv::start(), TestEnv::with_inspection()] {
        quiet_tenants_drained(&env, "held", false);
        quiet_tenants_drained(&env, "released", true);
        for queue in ["held", "released"] {
            let run = env.run(&["diagnose", queue, "-o", "json"]);
            let report = json(&run);
            // Only acme is left (on SQS, and a `--like-sqs` server, a copy of a message a
            // consumer deleted may still come once).
            assert!(
                report["tenants"]["tenants"][0]["tenant"] == "acme"
                    && report["tenants"]["tenants"][0]["visible"].as_u64() >= Some(30),
                "{queue}: {report:#}"
            );
            assert!(
                crate::diagnose::finding(&report, "tenant-id-constant").is_none(),
                "{queue}: {report:#}"
            );
        }
    }
}
