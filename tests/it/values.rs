//! Values that every command reads the same way: a duration flag takes bare seconds or units
//! (`90`, `90s`, `2m`, `1h`) on every command, and a value out of its range is a usage error that
//! names the flag and the range its help shows.

use crate::support::{Run, TestEnv, snapshot::assert_snapshot};

#[test]
fn every_duration_flag_takes_units() {
    let env = TestEnv::start();
    let work = env.create_queue("work", &[]);
    env.create_queue("work-dlq", &[]);
    let run = env.run(&["send", "work", "--delay", "0s", "hello"]);
    run.assert_code(0);
    let run = env.run(&[
        "receive",
        "work",
        "--wait",
        "1s",
        "--visibility",
        "2m",
        "--connect-timeout",
        "5s",
        "--read-timeout",
        "1m",
        "-o",
        "jsonl",
    ]);
    run.assert_code(0);
    let handle = run.records()[0]["data"]["receipt_handle"]
        .as_str()
        .unwrap()
        .to_string();
    let run = env.run(&["visibility", "work", "--timeout", "10m", &handle]);
    run.assert_code(0);
    let run = env.run(&["send", "work", "--delay", "1m", "later"]);
    run.assert_code(0);
    for args in [
        vec![
            "queue",
            "set",
            "work",
            "--visibility",
            "2m",
            "--retention",
            "14d",
            "--wait",
            "5s",
            "--delay",
            "0",
            "--yes",
        ],
        vec![
            "queue",
            "create",
            "other",
            "--visibility",
            "90s",
            "--retention",
            "1h",
        ],
        vec![
            "redrive",
            "work-dlq",
            "--to",
            "work",
            "--delay",
            "1m",
            "--visibility",
            "2m",
            "--older-than",
            "30",
            "--dry-run",
        ],
        vec![
            "consume",
            "work",
            "--wait",
            "1s",
            "--visibility",
            "2m",
            "--idle-exit",
            "0s",
            "--retry-delay",
            "1m",
            "--timeout",
            "1h",
            "--newer-than",
            "1day",
            "--",
            "true",
        ],
        vec!["top", "--interval", "500ms", "--count", "1", "-o", "jsonl"],
    ] {
        let run = env.run(&args);
        assert!(run.code != 2, "{args:?}: {}", run.stderr);
    }
    let attrs = env.block_on(env.sqs().attributes(&work)).unwrap();
    assert_eq!(attrs.get("VisibilityTimeout"), Some("120"));
    assert_eq!(attrs.get("MessageRetentionPeriod"), Some("1209600"));
    assert_eq!(attrs.get("ReceiveMessageWaitTimeSeconds"), Some("5"));
    let other = env.block_on(env.sqs().resolve("other")).unwrap();
    let attrs = env.block_on(env.sqs().attributes(&other)).unwrap();
    assert_eq!(attrs.get("VisibilityTimeout"), Some("90"));
    assert_eq!(attrs.get("MessageRetentionPeriod"), Some("3600"));
}

#[test]
fn a_duration_out_of_range_names_the_flag_and_the_range() {
    let env = TestEnv::start();
    env.create_queue("work", &[]);
    let mut errors = String::new();
    for args in [
        vec!["receive", "work", "--wait", "21s"],
        vec!["receive", "work", "--visibility", "13h"],
        vec!["receive", "work", "--visibility", "1.5"],
        vec!["send", "work", "--delay", "16m", "x"],
        vec!["redrive", "work", "--delay", "1h"],
        vec!["redrive", "work", "--visibility", "0"],
        vec!["consume", "work", "--wait", "1m", "--", "true"],
        vec!["consume", "work", "--retry-delay", "1d", "--", "true"],
        vec!["queue", "set", "work", "--retention", "30s"],
        vec!["visibility", "work", "--timeout", "soon", "AQEB"],
        vec!["top", "--interval", "0"],
        vec!["diagnose", "work", "--watch", "2h"],
        vec!["queues", "--read-timeout", "0"],
        vec!["peek", "work", "--older-than", "yesterday"],
    ] {
        let run = env.run(&args);
        run.assert_code(2);
        let first = run.stderr.lines().next().unwrap_or_default().to_string();
        errors.push_str(&format!("$ sqsctl {}\n{first}\n", args.join(" ")));
    }
    assert_snapshot!(errors);
}

#[test]
fn a_spelling_of_another_command_is_kept_as_an_alias() {
    let env = TestEnv::start();
    env.create_queue("work-dlq", &[]);
    env.create_queue("work", &[]);
    // `redrive --visibility` and `--max` were `--visibility-timeout` and `--limit`.
    let run = env.run(&[
        "redrive",
        "work-dlq",
        "--to",
        "work",
        "--visibility-timeout",
        "30",
        "--limit",
        "5",
        "--dry-run",
    ]);
    assert!(run.code != 2, "{}", run.stderr);
}

#[test]
fn a_grace_period_that_is_not_a_duration_is_a_usage_error_before_anything_runs() {
    let env = TestEnv::start();
    let work = env.create_queue("work", &[]);
    let run = Run::from_output(
        env.cmd()
            .env("SQSCTL_INTERRUPT_GRACE", "soon")
            .args(["send", "work", "hello"])
            .output()
            .expect("binary runs"),
    );
    run.assert_code(2);
    assert_snapshot!(run.stderr);
    let attrs = env.block_on(env.sqs().attributes(&work)).unwrap();
    assert_eq!(
        attrs.get("ApproximateNumberOfMessages"),
        Some("0"),
        "nothing was sent"
    );
    let run = Run::from_output(
        env.cmd()
            .env("SQSCTL_INTERRUPT_GRACE", "2m")
            .args(["send", "work", "hello"])
            .output()
            .expect("binary runs"),
    );
    run.assert_code(0);
}

/// A variable sqsctl reads itself, set to what it cannot use, is a usage error that names the
/// variable and its value (the flag it stands for was never typed), before anything runs; the
/// flag, when given, wins over the variable.
#[test]
fn a_variable_that_is_not_a_value_names_itself_and_the_value() {
    let env = TestEnv::start();
    let work = env.create_queue("work", &[]);
    let mut refusals = String::new();
    for (name, value) in [
        ("SQSCTL_READ_TIMEOUT", "abc"),
        ("SQSCTL_CONNECT_TIMEOUT", "2h"),
        ("AWS_ENDPOINT_URL_SQS", "localhost:9324"),
        ("TOKIO_WORKER_THREADS", "abc"),
        ("SQSCTL_ASSUME_TTY", "yes"),
    ] {
        let run = Run::from_output(
            env.cmd()
                .env(name, value)
                .args(["send", "work", "hello"])
                .output()
                .expect("binary runs"),
        );
        run.assert_code(2);
        assert!(
            run.stderr.contains(&format!("{name}=\"{value}\"")),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("--"), "names no flag: {}", run.stderr);
        refusals.push_str(&format!(
            "$ {name}={value} sqsctl send work hello\n{}",
            run.stderr
        ));
    }
    assert_snapshot!(refusals);
    assert_eq!(env.depth(&work), 0, "nothing was sent");
    // A command that reaches no endpoint is not refused for one it would not use.
    let run = Run::from_output(
        env.cmd()
            .env("AWS_ENDPOINT_URL_SQS", "localhost:9324")
            .args(["redrive", "journals"])
            .output()
            .expect("binary runs"),
    );
    run.assert_code(0);
    let run = Run::from_output(
        env.cmd()
            .env("SQSCTL_READ_TIMEOUT", "abc")
            .args(["send", "work", "hello", "--read-timeout", "5"])
            .output()
            .expect("binary runs"),
    );
    run.assert_code(0);
}

#[test]
fn bad_numbers_and_unknown_queues_get_clear_errors() {
    let env = TestEnv::start();
    env.create_queue("payments", &[]);
    for args in [
        vec!["send", "payments", "--delay", "901", "x"],
        vec!["receive", "payments", "--wait", "21"],
        vec!["receive", "payments", "--max", "0"],
        vec!["receive", "payments", "--max", "ten"],
        vec!["peek", "payments", "--max", "-1"],
        vec!["send", "payments", "--attr", "novalue", "x"],
    ] {
        let run = env.run(&args);
        run.assert_code(2);
        assert_snapshot!(name: args.join("_"), run.stderr);
    }
    let run = env.run(&["send", "paymnets", "x"]);
    run.assert_code(1);
    assert_snapshot!(name: "did_you_mean", run.stderr);
    let run = env.run(&["receive", "no-such-queue-at-all"]);
    run.assert_code(1);
    assert_snapshot!(name: "no_such_queue", run.stderr);
}
