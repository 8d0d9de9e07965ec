//! Queue lookup, which every command shares: an unknown queue gets a "did you mean" hint when a
//! name is really close, every command suggests the same way, and another account is named.

use crate::support::TestEnv;
use crate::support::snapshot::assert_snapshot;

#[test]
fn unknown_queues_get_a_did_you_mean_hint() {
    let env = TestEnv::start();
    env.create_queue("invoices.fifo", &[("FifoQueue", "true")]);
    let run = env.run(&["queue", "info", "invoices"]);
    run.assert_code(1);
    assert_snapshot!(name: "did_you_mean", run.stderr);
    let run = env.run(&["queue", "delete", "zzz-nothing", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_such_queue", run.stderr);
    let run = env.run(&["queue", "info", "arn:aws:sns:us-east-1:1:topic"]);
    run.assert_code(2);
    // A queue of the same name in the working region must not stand in for one in another region.
    env.create_queue("ledger", &[]);
    let run = env.run(&["queue", "info", "arn:aws:sqs:eu-west-1:000000000000:ledger"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "queue_in_another_region", run.stderr);
    let arn = env.server().queue_arn("ledger");
    env.run(&["queue", "info", &arn]).assert_code(0);
}

/// Every command that takes a queue name looks it up the same way: a typo gets the same
/// suggestion from redrive (its DLQ and --to), diagnose and queue set (--allow-sources).
#[test]
fn every_command_suggests_the_queue_a_typo_meant() {
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    env.create_queue("orders-dlq", &[]);
    for args in [
        &["redrive", "ordres-dlq", "--to", "orders", "--dry-run"][..],
        &["redrive", "orders-dlq", "--to", "ordrs", "--dry-run"],
        &["diagnose", "ordres"],
        &[
            "queue",
            "set",
            "orders-dlq",
            "--allow-sources",
            "ordrs",
            "--yes",
        ],
    ] {
        let run = env.run(args);
        assert_ne!(run.code, 0, "{args:?}");
        assert!(
            run.stderr.contains("hint: did you mean `orders"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn suggestions_need_real_similarity_and_another_account_is_named() {
    let env = TestEnv::start();
    for name in ["q", "a", "orders-dlq"] {
        env.create_queue(name, &[]);
    }
    let run = env.run(&["queue", "info", "ordres-dlq"]);
    run.assert_code(1);
    assert_snapshot!(name: "only_close_names", run.stderr);
    let run = env.run(&["queue", "info", "zz"]);
    run.assert_code(1);
    assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    // The queue of the same name in the caller's account must not be offered for another's.
    let arn = env.server().queue_arn("orders-dlq");
    let (prefix, _) = arn.rsplit_once(':').expect("an ARN");
    let (prefix, _) = prefix.rsplit_once(':').expect("an ARN");
    let run = env.run(&[
        "queue",
        "info",
        &format!("{prefix}:999999999999:orders-dlq"),
    ]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "another_account", run.stderr);
    let url = format!("{}/999999999999/orders-dlq", env.endpoint());
    let run = env.run(&["queue", "info", &url]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert_snapshot!(name: "another_account_url", run.stderr);
}
