//! The confirmation prompt of every destructive command, through a real pseudo-terminal: it says
//! where it acts, and Ctrl-C, end of input or a `no` leave everything as it was; a `no` is a
//! declined run, with its own exit code, not an error.

use crate::query::bodies;
use crate::support::TestEnv;
use crate::support::snapshot::assert_snapshot;

/// Every destructive command, with the queues it must leave alone made.
fn prompts(env: &TestEnv) -> Vec<Vec<&'static str>> {
    let orders = env.create_queue("orders", &[]);
    env.send(&orders, bodies(5));
    let dlq = env.create_queue("orders-dlq", &[]);
    env.send(&dlq, bodies(3));
    vec![
        vec!["purge", "orders"],
        vec!["queue", "delete", "orders"],
        vec!["receive", "orders", "--delete"],
        vec!["redrive", "orders-dlq", "--to", "orders"],
        vec!["queue", "set", "orders", "--visibility", "2m"],
        vec!["delete", "orders", "AQEBnot-a-real-handle"],
        vec![
            "queue",
            "permission",
            "add",
            "orders",
            "--label",
            "l",
            "--account",
            "111122223333",
            "--action",
            "SendMessage",
        ],
    ]
}

#[test]
fn ctrl_c_at_any_prompt_cancels_at_once_with_nothing_changed() {
    let env = TestEnv::start();
    for args in prompts(&env) {
        let mut pty = env.pty(&args, &[]);
        pty.expect("[y/N]", 20);
        pty.send("\x03");
        let code = pty.wait(10);
        assert_eq!(code, 130, "{args:?}: {}", pty.screen());
        // The prompt says where it acts; the answer to Ctrl-C says nothing changed.
        assert_snapshot!(name: &args.join("_"), pty.screen());
        // Typing `y` after the Ctrl-C reaches nobody: the process is gone.
        let orders = env
            .block_on(env.sqs().resolve("orders"))
            .expect("orders still exists");
        let dlq = env.block_on(env.sqs().resolve("orders-dlq")).unwrap();
        assert_eq!(env.depth(&orders), 5, "{args:?}");
        let settings = env.block_on(env.sqs().attributes(&orders)).unwrap();
        assert_eq!(settings.get("VisibilityTimeout"), Some("30"), "{args:?}");
        assert_eq!(settings.get("Policy"), None, "{args:?}");
        assert_eq!(env.depth(&dlq), 3, "{args:?}");
    }
}

#[test]
fn end_of_input_at_a_prompt_cancels_like_ctrl_c() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    env.send(&queue, bodies(5));
    let mut pty = env.pty(&["purge", "orders"], &[]);
    pty.expect("[y/N]", 20);
    pty.send("\x04");
    assert_eq!(pty.wait(10), 130, "{}", pty.screen());
    assert_snapshot!(pty.screen());
    assert_eq!(env.depth(&queue), 5);
}

#[test]
fn a_no_at_any_prompt_declines_with_exit_code_6_and_nothing_changed() {
    let env = TestEnv::start();
    for args in prompts(&env) {
        let mut pty = env.pty(&args, &[]);
        pty.expect("[y/N]", 20);
        pty.send("n\r");
        let code = pty.wait(10);
        let screen = pty.screen();
        // Neither a failure (1) nor an interruption (130): a script tells the three apart.
        assert_eq!(code, 6, "{args:?}: {screen}");
        assert!(
            screen.contains("declined: nothing was changed"),
            "{args:?}: {screen}"
        );
        assert!(!screen.contains("error"), "{args:?}: {screen}");
        if args == ["purge", "orders"] {
            assert_snapshot!(name: "declined", screen);
        }
        let orders = env
            .block_on(env.sqs().resolve("orders"))
            .expect("orders still exists");
        let dlq = env.block_on(env.sqs().resolve("orders-dlq")).unwrap();
        assert_eq!(env.depth(&orders), 5, "{args:?}");
        let settings = env.block_on(env.sqs().attributes(&orders)).unwrap();
        assert_eq!(settings.get("VisibilityTimeout"), Some("30"), "{args:?}");
        assert_eq!(settings.get("Policy"), None, "{args:?}");
        assert_eq!(env.depth(&dlq), 3, "{args:?}");
    }
}
