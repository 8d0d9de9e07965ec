//! Queue URLs remembered by name: `send` given a name resolved before skips the lookup, and a remembered URL that no longer holds the queue is never trusted: the name is
//! looked up again, so a queue that moved gets the message and one that is gone fails as it
//! always did.

use std::path::PathBuf;

use crate::support::TestEnv;

/// The cache files under the test's home (one per endpoint, region and credentials).
fn cache_files(env: &TestEnv) -> Vec<PathBuf> {
    let dir = env.home().join(".cache").join("sqsctl");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("queue-urls-"))
        })
        .collect()
}

fn cached_text(env: &TestEnv) -> String {
    let files = cache_files(env);
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read_to_string(&files[0]).unwrap()
}

#[test]
fn a_name_resolved_once_is_remembered_and_a_stale_url_is_looked_up_again() {
    let env = TestEnv::start();
    let orders = env.create_queue("orders", &[]);
    env.run(&["send", "orders", "one"]).assert_code(0);
    assert_eq!(cached_text(&env), format!("orders\t{}\n", orders.url));

    // A remembered URL where no queue is: the message goes to the queue the name means now, and
    // the cache is fixed.
    let stale = orders.url.replace("/orders", "/orders-before");
    std::fs::write(&cache_files(&env)[0], format!("orders\t{stale}\n")).unwrap();
    env.run(&["send", "orders", "two"]).assert_code(0);
    assert_eq!(cached_text(&env), format!("orders\t{}\n", orders.url));
    let mut bodies = env.drain_bodies(&orders);
    bodies.sort();
    assert_eq!(bodies, ["one", "two"]);

    // A FIFO queue's attributes are read first (for its deduplication): both calls go where the
    // queue is.
    let fifo = env.create_queue(
        "jobs.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    );
    env.run(&["send", "jobs.fifo", "one", "--group-id", "g"])
        .assert_code(0);
    let stale = fifo.url.replace("/jobs.fifo", "/jobs-before.fifo");
    std::fs::write(&cache_files(&env)[0], format!("jobs.fifo\t{stale}\n")).unwrap();
    env.run(&["send", "jobs.fifo", "two", "--group-id", "g"])
        .assert_code(0);
    assert_eq!(env.drain_bodies(&fifo), ["one", "two"]);
}

#[test]
fn a_remembered_queue_that_is_gone_fails_as_an_unknown_name_does() {
    let env = TestEnv::start();
    let orders = env.create_queue("orders", &[]);
    env.create_queue("orders-dlq", &[]);
    env.run(&["send", "orders", "one"]).assert_code(0);
    env.block_on(env.sqs().delete_queue(&orders)).unwrap();

    let remembered = env.run(&["send", "orders", "two"]);
    remembered.assert_code(1);
    assert!(
        !cached_text(&env).contains("orders\t"),
        "{}",
        cached_text(&env)
    );
    // Without the entry the name is looked up at once: the error is the same, word for word.
    let looked_up = env.run(&["send", "orders", "two"]);
    looked_up.assert_code(1);
    assert_eq!(remembered.stderr, looked_up.stderr);
    assert!(
        remembered
            .stderr
            .contains("hint: did you mean `orders-dlq`"),
        "{}",
        remembered.stderr
    );
}

#[test]
fn deleting_a_queue_forgets_it_and_other_credentials_do_not_share_the_cache() {
    let env = TestEnv::start();
    env.run(&["queue", "create", "jobs"]).assert_code(0);
    assert!(cached_text(&env).starts_with("jobs\t"));
    env.run(&["queue", "delete", "jobs", "--yes"])
        .assert_code(0);
    assert_eq!(cached_text(&env), "");

    env.create_queue("tasks", &[]);
    env.run(&["send", "tasks", "one"]).assert_code(0);
    let other = env
        .cmd()
        .env("AWS_ACCESS_KEY_ID", "another")
        .args(["send", "tasks", "two"])
        .output()
        .unwrap();
    assert!(other.status.success(), "{other:?}");
    assert_eq!(cache_files(&env).len(), 2);
    assert!(cache_files(&env).iter().all(|file| {
        std::fs::read_to_string(file)
            .unwrap()
            .starts_with("tasks\t")
    }));
}

/// The names and URLs say which accounts and queues the user works with: the cache is the user's
/// alone, also where an older version left it readable by everyone.
#[cfg(unix)]
#[test]
fn the_cache_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let env = TestEnv::start();
    env.create_queue("orders", &[]);
    let dir = env.home().join(".cache").join("sqsctl");
    env.run(&["send", "orders", "one"]).assert_code(0);
    let file = &cache_files(&env)[0];
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(file), 0o600);

    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
    // A send that finds the name remembered reads the file, and writes nothing.
    env.run(&["send", "orders", "two"]).assert_code(0);
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(file), 0o600);
}
