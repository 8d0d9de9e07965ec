//! `sqsctl purge` through the real binary against the local server: it reports the depth it purged
//! and refuses a second purge within SQS's minute.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use crate::receive::{numbered, send_bodies};
use support::TestEnv;
use support::snapshot::assert_snapshot;

#[test]
fn purge_reports_the_depth_and_refuses_a_second_purge_within_a_minute() {
    let env = TestEnv::start();
    let queue = env.create_queue("trash", &[]);
    send_bodies(&env, &queue, &numbered("t", 12));
    let run = env.run(&["purge", "trash"]);
    run.assert_code(2);
    assert_snapshot!(name: "without_yes", run.stderr);
    let run = env.run(&["purge", "trash", "--dry-run"]);
    run.assert_code(0);
    assert_eq!(env.depth(&queue), 12);
    let run = env.run(&["purge", "trash", "--yes"]);
    run.assert_code(0);
    assert_eq!(run.records_of("purge")[0]["messages"], 12);
    assert_snapshot!(name: "purged", run.stderr);
    assert_eq!(env.depth(&queue), 0);
    let run = env.run(&["purge", "trash", "--yes"]);
    run.assert_code(1);
    assert_snapshot!(name: "second_purge", run.stderr);
    let run = env.run_tty(&["purge", "trash"], "n\n");
    run.assert_code(6);
}
