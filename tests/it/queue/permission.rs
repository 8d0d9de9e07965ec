//! `queue permission list|add|remove` through the real binary against the local server: a
//! permission added is the statement SQS writes, listed and removed by its label; a dry run and a
//! declined question change nothing; bad labels, accounts and actions are refused before any
//! call; and an error of SQS's own reaches the user with its code and words.

use crate::support::TestEnv;
use crate::support::snapshot::{assert_snapshot, transcript};

/// The queue's `Policy` as the server holds it, read with the SDK rather than the command under
/// test; `None` when the queue has none.
fn policy(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> Option<serde_json::Value> {
    let attributes = env.block_on(env.sqs().attributes(queue)).unwrap();
    attributes
        .get("Policy")
        .filter(|p| !p.is_empty())
        .map(|p| serde_json::from_str(p).unwrap())
}

fn labels(env: &TestEnv, queue: &sqsctl::client::QueueRef) -> Vec<String> {
    policy(env, queue)
        .map(|p| {
            p["Statement"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["Sid"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// `queue permission add` of one account and action on `orders`, without `--yes`.
const ADD_BILLING: [&str; 10] = [
    "queue",
    "permission",
    "add",
    "orders",
    "--label",
    "billing",
    "--account",
    "111122223333",
    "--action",
    "SendMessage",
];

#[test]
fn add_list_and_remove_by_label() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let arn = env.block_on(env.sqs().attributes(&queue)).unwrap().0["QueueArn"].clone();
    let run = env.run(&[
        "queue",
        "permission",
        "add",
        "orders",
        "--label",
        "billing",
        "--account",
        "111122223333,444455556666",
        "--action",
        "sqs:sendmessage",
        "--action",
        "GetQueueAttributes",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let expected = serde_json::json!({
        "Sid": "billing",
        "Effect": "Allow",
        "Principal": {"AWS": ["arn:aws:iam::111122223333:root", "arn:aws:iam::444455556666:root"]},
        "Action": ["SQS:SendMessage", "SQS:GetQueueAttributes"],
        "Resource": arn,
    });
    let server = policy(&env, &queue).unwrap();
    assert_eq!(server["Statement"], serde_json::json!([expected.clone()]));
    assert_eq!(server["Version"], "2008-10-17");
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["statement"], expected, "{}", run.stdout);
    assert_eq!(report["applied"], true);
    assert_eq!(
        report["statements"][0]["principals"],
        serde_json::json!(["111122223333", "444455556666"])
    );

    env.run(&[
        "queue",
        "permission",
        "add",
        "orders",
        "--label",
        "audit",
        "--account",
        "444455556666",
        "--action",
        "*",
        "--yes",
    ])
    .assert_code(0);
    let run = env.run(&["queue", "permission", "list", "orders", "-o", "text"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "billing\tAllow\t111122223333,444455556666\tSQS:SendMessage,SQS:GetQueueAttributes\n\
         audit\tAllow\t444455556666\tSQS:*\n"
    );
    let run = env.run_tty(&["queue", "permission", "list", "orders"], "");
    run.assert_code(0);
    assert_snapshot!(name: "list_table", run.stdout);

    let run = env.run(&[
        "queue",
        "permission",
        "remove",
        "orders",
        "--label",
        "billing",
        "--yes",
        "-o",
        "text",
    ]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "- billing: Allow 111122223333, 444455556666: SQS:SendMessage, SQS:GetQueueAttributes\n\
         audit\tAllow\t444455556666\tSQS:*\n"
    );
    assert_eq!(labels(&env, &queue), ["audit"]);
    env.run(&[
        "queue",
        "permission",
        "remove",
        "orders",
        "--label",
        "audit",
        "--yes",
    ])
    .assert_code(0);
    assert_eq!(
        policy(&env, &queue),
        None,
        "the last statement took the policy"
    );
    let run = env.run(&["queue", "permission", "list", "orders", "-o", "json"]);
    run.assert_code(0);
    let listed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(listed["statements"], serde_json::json!([]));
    assert!(
        run.stderr.contains("has no policy statements"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_dry_run_shows_the_statement_and_changes_nothing() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let add = [&ADD_BILLING[..], &["--dry-run"]].concat();
    let run = env.run(&add);
    run.assert_code(0);
    assert_eq!(
        run.records_of("queue_permission")[0]["statement"]["Action"],
        "SQS:SendMessage"
    );
    assert_eq!(run.records_of("queue_permission")[0]["applied"], false);
    let run = env.run_tty(&add, "");
    run.assert_code(0);
    assert_snapshot!(name: "add", transcript(&add, &run) + &run.stdout);
    assert_eq!(policy(&env, &queue), None);

    let mut real = add.to_vec();
    real.pop();
    real.push("--yes");
    env.run(&real).assert_code(0);
    let before = policy(&env, &queue);
    let remove = [
        "queue",
        "permission",
        "remove",
        "orders",
        "--label",
        "billing",
        "--dry-run",
        "-o",
        "text",
    ];
    let run = env.run(&remove);
    run.assert_code(0);
    assert_snapshot!(name: "remove", transcript(&remove, &run) + &run.stdout);
    assert_eq!(policy(&env, &queue), before);
}

#[test]
fn a_change_needs_a_yes_or_a_terminal_answer() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let add = ADD_BILLING;
    let run = env.run(&add);
    run.assert_code(2);
    assert!(run.stderr.contains("pass --yes"), "{}", run.stderr);
    let run = env.run_tty(&add, "n\n");
    run.assert_code(6);
    assert_snapshot!(name: "declined", run.stderr);
    assert_eq!(policy(&env, &queue), None);
    env.run_tty(&add, "y\n").assert_code(0);
    assert_eq!(labels(&env, &queue), ["billing"]);

    let remove = [
        "queue",
        "permission",
        "remove",
        "orders",
        "--label",
        "billing",
    ];
    let run = env.run_tty(&remove, "n\n");
    run.assert_code(6);
    assert!(
        run.stderr
            .contains("Remove permission billing from `orders` (account 000000000000, us-east-1)?"),
        "{}",
        run.stderr
    );
    assert_eq!(labels(&env, &queue), ["billing"]);
    env.run_tty(&remove, "y\n").assert_code(0);
    assert_eq!(policy(&env, &queue), None);
}

#[test]
fn bad_permissions_are_refused_before_any_call_and_sqs_errors_are_shown() {
    let env = TestEnv::start();
    let queue = env.create_queue("orders", &[]);
    let add = |label: &'static str, account: &'static str, action: &'static str| {
        vec![
            "queue",
            "permission",
            "add",
            "orders",
            "--label",
            label,
            "--account",
            account,
            "--action",
            action,
            "--yes",
        ]
    };
    let eight = "SendMessage,ReceiveMessage,DeleteMessage,ChangeMessageVisibility,GetQueueAttributes,GetQueueUrl,PurgeQueue,ListDeadLetterSourceQueues";
    let cases = [
        add("a b", "111122223333", "SendMessage"),
        add("ok", "1111-2222-3333", "SendMessage"),
        add("ok", "arn:aws:iam::111122223333:root", "SendMessage"),
        add("ok", "111122223333", "Fly"),
        add("ok", "111122223333", "DeleteQueue"),
        add("ok", "111122223333", "SendMessageBatch"),
        add("ok", "111122223333", eight),
        vec![
            "queue",
            "permission",
            "remove",
            "orders",
            "--label",
            "never",
            "--yes",
        ],
    ];
    let mut refusals = String::new();
    for args in &cases {
        let run = env.run(args);
        run.assert_code(2);
        refusals.push_str(&transcript(args, &run));
    }
    env.run(&add("taken", "111122223333", "SendMessage"))
        .assert_code(0);
    let args = add("taken", "444455556666", "ReceiveMessage");
    let run = env.run(&args);
    run.assert_code(2);
    refusals.push_str(&transcript(&args, &run));
    assert_snapshot!(name: "refusals", refusals);
    assert_eq!(labels(&env, &queue), ["taken"]);

    // SQS holds a queue to 20 statements: the 21st is its own error, shown with its code.
    let names: Vec<String> = (1..20).map(|i| format!("p{i}")).collect();
    for name in &names {
        let mut args = add("x", "111122223333", "SendMessage");
        args[5] = name;
        env.run(&args).assert_code(0);
    }
    let args = add("one-more", "111122223333", "SendMessage");
    let run = env.run(&args);
    run.assert_code(1);
    assert_snapshot!(name: "over_limit", transcript(&args, &run));
    assert_eq!(labels(&env, &queue).len(), 20);
}
