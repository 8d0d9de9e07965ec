//! The `--help` of `sqsctl` and of each command, as a user reads it: the words, the flags and the
//! exit codes, snapshotted, so any change to them shows up in review.

use crate::support::{self, snapshot::assert_snapshot};

/// `sqsctl <args> --help` in a cleared environment, which also fixes the width help wraps at.
fn help(args: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    let output = support::cleared_cmd(home.path())
        .args(args)
        .arg("--help")
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

#[test]
fn help_of_each_command() {
    let commands: &[&[&str]] = &[
        &["queues"],
        &["queue", "info"],
        &["queue", "create"],
        &["queue", "delete"],
        &["send"],
        &["receive"],
        &["peek"],
        &["consume"],
        &["delete"],
        &["purge"],
        &["visibility"],
        &["redrive"],
        &["fifo", "groups"],
        &["diagnose"],
        &["local"],
        &["demo"],
    ];
    for command in commands {
        let name = command.join("_");
        assert_snapshot!(name: name, help(command));
    }
}
