//! Live views and streams: the filters and `--format` of every read (`peek`, `receive`,
//! `receive --follow`), and following a queue until Ctrl-C. `top` has its own module.

use sqsctl::client::QueueRef;
use sqsctl::message::{AttributeValue, MessageRecord};

use crate::support::{TestEnv, unique_name};

/// Sends `order-1..=n` (tenant acme for odd numbers, globex for even ones) and returns the queue.
fn orders(env: &TestEnv, n: usize) -> QueueRef {
    let queue = env.create_queue(&unique_name("orders"), &[]);
    let records = (1..=n)
        .map(|i| {
            let mut record = MessageRecord::with_body(format!(r#"{{"order":{i}}}"#));
            let tenant = if i % 2 == 1 { "acme" } else { "globex" };
            record
                .message_attributes
                .insert("tenant".into(), AttributeValue::string(tenant));
            record
        })
        .collect();
    env.send(&queue, records);
    queue
}

fn bodies(run: &crate::support::Run) -> Vec<String> {
    let mut out: Vec<String> = run
        .records_of("message")
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

fn visible(env: &TestEnv, queue: &QueueRef) -> (u64, u64) {
    let attrs = env.block_on(env.sqs().attributes(queue)).unwrap();
    (attrs.visible(), attrs.in_flight())
}

#[test]
fn peek_shows_only_what_matches_and_leaves_everything() {
    let env = TestEnv::start();
    let queue = orders(&env, 6);
    let run = env.run(&["peek", &queue.name, "--attr", "tenant=acme", "--max", "2"]);
    run.assert_code(0);
    let shown = bodies(&run);
    assert_eq!(shown.len(), 2, "{}", run.stderr);
    assert!(
        shown
            .iter()
            .all(|b| ["{\"order\":1}", "{\"order\":3}", "{\"order\":5}"].contains(&b.as_str())),
        "{shown:?}"
    );
    assert!(
        run.stderr.contains("2 matched --attr tenant=acme"),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &queue), (6, 0));

    let run = env.run(&["peek", &queue.name, "--where", "body.order > `4`"]);
    run.assert_code(0);
    assert_eq!(bodies(&run), ["{\"order\":5}", "{\"order\":6}"]);
}

#[test]
fn receive_delete_takes_only_what_matches_and_releases_the_rest_at_once() {
    let env = TestEnv::start();
    let queue = orders(&env, 8);
    let run = env.run(&[
        "receive",
        &queue.name,
        "--grep",
        r#""order":[1-4]\b"#,
        "--until-empty",
        "--delete",
        "--yes",
    ]);
    run.assert_code(0);
    assert_eq!(
        bodies(&run),
        [
            "{\"order\":1}",
            "{\"order\":2}",
            "{\"order\":3}",
            "{\"order\":4}"
        ]
    );
    // The others were made visible again at once, not after the 30 s visibility timeout.
    assert_eq!(visible(&env, &queue), (4, 0), "{}", run.stderr);
    let mut left = env.drain_bodies(&queue);
    left.sort();
    assert_eq!(
        left,
        [
            "{\"order\":5}",
            "{\"order\":6}",
            "{\"order\":7}",
            "{\"order\":8}"
        ]
    );
}

#[test]
fn receive_without_a_match_stops_and_leaves_the_queue_as_it_was() {
    let env = TestEnv::start();
    let queue = orders(&env, 5);
    let run = env.run(&["receive", &queue.name, "--grep", "nothing-like-this"]);
    run.assert_code(0);
    assert!(run.records_of("message").is_empty());
    assert_eq!(visible(&env, &queue), (5, 0), "{}", run.stderr);
}

#[test]
fn a_where_that_fails_on_a_message_is_reported_not_silent() {
    let env = TestEnv::start();
    let queue = orders(&env, 2);
    let run = env.run(&["peek", &queue.name, "--where", "length(body.items) > `0`"]);
    run.assert_code(0);
    assert!(run.records_of("message").is_empty());
    assert!(
        run.stderr.contains("--where failed on 2 messages"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_filters_are_usage_errors_before_anything_is_read() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    for args in [
        ["--grep", "("],
        ["--attr", "novalue"],
        ["--where", "body.["],
        ["--older-than", "soon"],
    ] {
        for command in ["peek", "receive"] {
            let run = env.run(&[command, &queue.name, args[0], args[1]]);
            run.assert_code(2);
            assert!(run.stderr.contains(args[0]), "{}", run.stderr);
        }
    }
    assert_eq!(visible(&env, &queue), (1, 0));
}

#[test]
fn format_writes_each_message_as_its_template_says() {
    let env = TestEnv::start();
    let queue = orders(&env, 3);
    let run = env.run(&[
        "receive",
        &queue.name,
        "--attr",
        "tenant=acme",
        "--format",
        r"{attr.tenant}\t{receives}\t{body}",
    ]);
    run.assert_code(0);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort();
    assert_eq!(lines, ["acme\t1\t{\"order\":1}", "acme\t1\t{\"order\":3}"]);

    // {sent} is the SentTimestamp in RFC 3339, {age} how long ago that was.
    let run = env.run(&[
        "peek",
        &queue.name,
        "--max",
        "1",
        "--format",
        "{id} {sent} {age}",
    ]);
    run.assert_code(0);
    let fields: Vec<&str> = run.stdout.trim_end().split(' ').collect();
    assert_eq!(fields.len(), 3, "{}", run.stdout);
    assert!(
        humantime::parse_rfc3339(fields[1]).is_ok(),
        "{}",
        run.stdout
    );
    assert!(
        fields[2].ends_with('s') || fields[2].ends_with('m'),
        "{}",
        run.stdout
    );
}

#[test]
fn format_escapes_message_text_on_a_terminal_but_not_in_a_pipe() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("hostile"), &[]);
    env.send(
        &queue,
        vec![MessageRecord::with_body("a\u{9b}31m\u{202e}b\tc\r")],
    );
    let format = r"<{body}>\t.";
    let run = env.run_tty(&["peek", &queue.name, "--format", format], "");
    run.assert_code(0);
    assert_eq!(run.stdout, "<a\\u{9b}31m\\u{202e}b\\tc\\r>\t.\n");
    let run = env.run(&["peek", &queue.name, "--format", format]);
    run.assert_code(0);
    assert_eq!(run.stdout, "<a\u{9b}31m\u{202e}b\tc\r>\t.\n");
}

#[test]
fn an_unknown_placeholder_is_a_usage_error() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    let run = env.run(&["receive", &queue.name, "--format", "{bodyy}"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("`{bodyy}` is not a placeholder"),
        "{}",
        run.stderr
    );
    assert_eq!(visible(&env, &queue), (1, 0));
}

/// `receive --follow` started with `args` into a pipe, once it is polling (its `-v` line says so).
struct Follow {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Follow {
    fn start(env: &TestEnv, args: &[&str]) -> Follow {
        use std::io::BufRead;
        let mut child = env.spawn_piped(&[&["receive", "--follow", "-v"], args].concat());
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while stderr.read_line(&mut line).unwrap() > 0 {
            if line.contains("receiving with") || line.contains("one batch at a time") {
                break;
            }
            line.clear();
        }
        // Keep draining stderr so the child never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Follow { child, lines }
    }

    fn next_line(&self) -> String {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("a message within 20 s")
    }

    /// Ctrl-C, and the exit code.
    fn interrupt(mut self) -> i32 {
        crate::support::sigint(self.child.id());
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

#[test]
fn follow_prints_what_arrives_after_it_started_and_stops_on_ctrl_c() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("follow"), &[]);
    let follow = Follow::start(&env, &[&queue.name, "--format", "{body}"]);
    env.send(&queue, vec![MessageRecord::with_body("first")]);
    assert_eq!(follow.next_line(), "first");
    // An empty long poll does not end the run: a later message is printed too.
    env.send(&queue, vec![MessageRecord::with_body("second")]);
    assert_eq!(follow.next_line(), "second");
    assert_eq!(follow.interrupt(), 130);
    // Without --delete, both are still in the queue.
    assert_eq!(env.depth(&queue), 2);
}

#[test]
fn follow_with_delete_and_a_filter_consumes_only_what_matches() {
    let env = TestEnv::start();
    let queue = env.create_queue(&unique_name("follow"), &[]);
    let follow = Follow::start(
        &env,
        &[
            &queue.name,
            "--delete",
            "--yes",
            "--grep",
            "^ERROR",
            "--format",
            "{body}",
        ],
    );
    env.send(
        &queue,
        vec![
            MessageRecord::with_body("INFO started"),
            MessageRecord::with_body("ERROR disk full"),
        ],
    );
    assert_eq!(follow.next_line(), "ERROR disk full");
    assert_eq!(follow.interrupt(), 130);
    assert_eq!(env.drain_bodies(&queue), ["INFO started"]);
}

#[test]
fn peek_follow_is_refused_with_the_reason() {
    let env = TestEnv::start();
    let queue = orders(&env, 1);
    let run = env.run(&["peek", &queue.name, "--follow"]);
    run.assert_code(2);
    assert!(run.stderr.contains("receive count"), "{}", run.stderr);
    assert!(
        run.stderr.contains("receive QUEUE --follow"),
        "{}",
        run.stderr
    );
    let run = env.run(&["receive", &queue.name, "--follow", "--until-empty"]);
    run.assert_code(2);
}

/// What bash completes for `line` (its last word being completed) with the script
/// `COMPLETE=bash sqsctl` prints, in the test environment of `cmd`.
fn bash_completions(cmd: &std::process::Command, line: &str) -> crate::support::Run {
    let words: Vec<&str> = line.split(' ').collect();
    let script = format!(
        r#"source <(COMPLETE=bash "{bin}")
COMP_WORDS=({words})
COMP_CWORD={cword}
COMP_LINE="{line}"
COMP_POINT=${{#COMP_LINE}}
COMP_TYPE=9
_clap_complete_sqsctl sqsctl "{current}" "{previous}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        bin = crate::support::BIN,
        words = words.join(" "),
        cword = words.len() - 1,
        current = words[words.len() - 1],
        previous = words[words.len() - 2],
    );
    let mut bash = std::process::Command::new("bash");
    bash.env_clear();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            bash.env(key, value);
        }
    }
    bash.args(["--norc", "--noprofile", "-c", &script]);
    crate::support::Run::from_output(bash.output().expect("bash runs"))
}

#[test]
fn bash_completes_queue_names_asked_of_the_server() {
    let env = TestEnv::start();
    let prefix = unique_name("cmpl");
    for name in ["orders", "orders-dlq", "payments"] {
        env.create_queue(&format!("{prefix}-{name}"), &[]);
    }
    let run = bash_completions(&env.cmd(), &format!("sqsctl receive {prefix}-or"));
    run.assert_code(0);
    let mut names: Vec<&str> = run.stdout.lines().collect();
    names.sort();
    assert_eq!(
        names,
        [format!("{prefix}-orders"), format!("{prefix}-orders-dlq")],
        "{}",
        run.stderr
    );
    // Options still complete as before.
    let run = bash_completions(&env.cmd(), &format!("sqsctl peek {prefix}-orders --fo"));
    assert!(
        run.stdout.lines().any(|l| l == "--format"),
        "{}",
        run.stdout
    );
}

#[test]
fn completion_without_a_reachable_server_completes_nothing_and_says_nothing() {
    let home = tempfile::tempdir().unwrap();
    // A port nothing listens on: the listing fails at once.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let cmd = crate::support::cmd_at(&endpoint, home.path());
    let run = bash_completions(&cmd, "sqsctl receive ord");
    run.assert_code(0);
    assert_eq!(run.stdout.trim(), "");
    assert_eq!(run.stderr, "");
}
