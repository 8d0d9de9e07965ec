//! Shell completion: bash completes queue names asked of the server, and completes nothing,
//! quietly, when no server answers.

use crate::support::{TestEnv, unique_name};

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
