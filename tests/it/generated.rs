//! The committed completions and man pages must match what the binary generates now.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn completions_and_man_pages_are_current() {
    let fresh = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_sqsctl"))
        .args(["generate", "--out-dir"])
        .arg(fresh.path())
        .env_clear()
        .status()
        .unwrap();
    assert!(status.success());
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for dir in ["completions", "man"] {
        let committed = repo.join(dir);
        let generated = fresh.path().join(dir);
        let (want, have) = (files(&generated), files(&committed));
        if want != have {
            stale.push(format!(
                "{dir}/: files differ: generated {want:?}, committed {have:?}"
            ));
            continue;
        }
        for name in want {
            let new = std::fs::read(generated.join(&name)).unwrap();
            let old = std::fs::read(committed.join(&name)).unwrap();
            if new != old {
                stale.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run `cargo run -- generate` and commit them): {stale:#?}"
    );
}

#[test]
fn help_documents_exit_codes() {
    let output = Command::new(env!("CARGO_BIN_EXE_sqsctl"))
        .arg("--help")
        .env_clear()
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for needle in [
        "Exit codes:",
        "130",
        "143",
        "129",
        "partially done",
        "6    declined",
    ] {
        assert!(help.contains(needle), "--help lacks {needle:?}:\n{help}");
    }
    let man = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/sqsctl.1"))
        .unwrap();
    assert!(
        man.contains("Exit codes:"),
        "the man page documents the exit codes"
    );
}

#[test]
fn man_pages_name_only_pages_that_exist_and_keep_examples_literal() {
    let man = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let pages = files(&man);
    for name in &pages {
        let text = std::fs::read_to_string(man.join(name)).unwrap();
        for line in text.lines() {
            if let Some(reference) = line.strip_suffix("(1)") {
                let page = format!("{}.1", reference.replace("\\-", "-"));
                assert!(
                    pages.contains(&page),
                    "{name} refers to {page}, which does not exist"
                );
            }
        }
        // An indented example line outside a `.nf` block would be filled into its neighbours.
        let mut literal = false;
        for line in text.lines() {
            match line {
                ".nf" => literal = true,
                ".fi" => literal = false,
                _ if line.starts_with("  ") => {
                    assert!(literal, "{name}: `{line}` is not in a literal block")
                }
                _ => {}
            }
        }
    }
}
