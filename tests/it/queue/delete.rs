//! `queue delete`: it asks first, and a dry run changes nothing.

use super::queue_exists;
use crate::support::TestEnv;

#[test]
fn queue_delete_asks_first_and_dry_run_changes_nothing() {
    let env = TestEnv::start();
    env.create_queue("scratch", &[]);
    let run = env.run(&["queue", "delete", "scratch"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
    let run = env.run(&["queue", "delete", "scratch", "--dry-run"]);
    run.assert_code(0);
    assert!(queue_exists(&env, "scratch"));
    let run = env.run_tty(&["queue", "delete", "scratch"], "no\n");
    run.assert_code(6);
    assert!(queue_exists(&env, "scratch"));
    let run = env.run_tty(&["queue", "delete", "scratch"], "y\n");
    run.assert_code(0);
    assert!(
        run.stderr.contains("Delete queue `scratch`"),
        "{}",
        run.stderr
    );
    assert!(!queue_exists(&env, "scratch"));
}
