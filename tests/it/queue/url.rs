//! `queue url`: the URL of a queue, by name or with `--account`, and the hint for a typo.

use crate::support::TestEnv;

#[test]
fn queue_url_prints_the_url() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let run = env.run(&["queue", "url", "orders", "-o", "text"]);
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), queue.url);

    let account = queue.account().unwrap().to_string();
    let run = env.run(&[
        "queue",
        "url",
        "orders",
        "--account",
        &account,
        "-o",
        "text",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), queue.url);

    env.run(&["queue", "url", "orders", "--account", "12"])
        .assert_code(2);
    let run = env.run(&["queue", "url", "ordres"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("did you mean `orders`"),
        "{}",
        run.stderr
    );
}
