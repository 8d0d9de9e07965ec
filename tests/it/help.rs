//! The `--help` of `sqsctl` and of each command, as a user reads it: the words, the flags and the
//! exit codes, snapshotted, so any change to them shows up in review; and `--version`.

use crate::support::{self, snapshot::assert_snapshot};

/// `sqsctl <args> --help` in a cleared environment, which also fixes the width help wraps at.
fn help(args: &[&str]) -> String {
    help_with(args, "--help")
}

fn help_with(args: &[&str], flag: &str) -> String {
    let home = tempfile::tempdir().unwrap();
    let output = support::cleared_cmd(home.path())
        .args(args)
        .arg(flag)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?} --help failed");
    assert!(output.stderr.is_empty(), "{args:?} --help wrote to stderr");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn help_of_sqsctl() {
    assert_snapshot!(help(&[]));
}

/// Every visible command and subcommand, as paths of names (`["queue", "set"]`), from the
/// command-line definition itself: a new command gets a snapshot without being listed here.
fn command_paths() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, path: &[String], out: &mut Vec<Vec<String>>) {
        for sub in command.get_subcommands().filter(|c| !c.is_hide_set()) {
            let mut here = path.to_vec();
            here.push(sub.get_name().to_string());
            // A command with subcommands of its own (`redrive`, `queue`) has its own help too.
            out.push(here.clone());
            if sub.has_subcommands() {
                walk(sub, &here, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&sqsctl::cli::command(), &[], &mut out);
    out
}

#[test]
fn help_of_each_command() {
    let commands = command_paths();
    assert!(commands.contains(&vec!["queue".to_string(), "tag".to_string()]));
    for command in &commands {
        let name = command.join("_");
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        assert_snapshot!(name: name, help(&args));
    }
}

/// `-h` fits a screen: a command's own options and examples, and one line that says where the
/// global options are; `--help` has everything.
#[test]
fn short_help_fits_a_screen_and_points_at_the_global_options() {
    let mut commands = command_paths();
    commands.push(Vec::new());
    for command in &commands {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let short = help_with(&args, "-h");
        let lines = short.lines().count();
        assert!(lines <= 45, "sqsctl {args:?} -h is {lines} lines:\n{short}");
        assert!(
            short
                .trim_end()
                .ends_with(sqsctl::cli::GLOBAL_OPTIONS_POINTER),
            "sqsctl {args:?} -h does not end with the global options line:\n{short}"
        );
        assert!(!short.contains("--endpoint-url <URL>"), "{args:?}");
        let long = help(&args);
        assert!(long.contains("--endpoint-url <URL>"), "{args:?}");
    }
    assert_snapshot!(help_with(&["receive"], "-h"));
}

/// An unknown command gets clap's did-you-mean for a typo, and for a name people try (`stats`,
/// `list`, `tail`) the command that does the job; exit 2 either way.
#[test]
fn unknown_commands_name_the_command_that_does_the_job() {
    let home = tempfile::tempdir().unwrap();
    let mut out = String::new();
    for args in [
        vec!["stats"],
        vec!["ls"],
        vec!["get", "orders"],
        vec!["tail", "orders"],
        vec!["dlq"],
        vec!["recieve", "orders"],
        vec!["queue", "list"],
        vec!["queue", "purge", "orders"],
    ] {
        let output = support::cleared_cmd(home.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let shown: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("error:") || l.trim_start().starts_with("tip:"))
            .collect();
        out.push_str(&format!(
            "$ sqsctl {}\n{}\n",
            args.join(" "),
            shown.join("\n")
        ));
    }
    assert_snapshot!(out);
}

#[test]
fn version_names_the_release_and_the_commit() {
    let home = tempfile::tempdir().unwrap();
    let output = support::cleared_cmd(home.path())
        .arg("--version")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let expected_start = format!("sqsctl {} (", env!("CARGO_PKG_VERSION"));
    let commit = text
        .trim()
        .strip_prefix(&expected_start)
        .and_then(|rest| rest.strip_suffix(')'));
    let commit = commit.unwrap_or_else(|| panic!("unexpected --version output: {text}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "not a commit: {commit}"
    );
}
