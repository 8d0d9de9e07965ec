//! The server crate's parts import only downward: each folder (or top-level file) of `src/` may
//! name, with `crate::`, only the parts listed for it below. One crate cannot make the compiler
//! keep such a rule, so this test reads the sources and keeps it; docs/architecture.md has the
//! same map in words. Test modules (`#[cfg(test)]` to the end of a file, and the `*_props.rs`
//! property tests) may reach anywhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each part and what it may import besides itself, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("clock", &[]),
    ("faults", &[]),
    ("engine", &["error", "clock"]),
    ("storage", &["error", "engine"]),
    ("http", &["error"]),
    ("wire", &["error"]),
    (
        "service",
        &["error", "clock", "faults", "engine", "storage", "http"],
    ),
    (
        "api",
        &[
            "error", "clock", "faults", "engine", "storage", "http", "wire", "service",
        ],
    ),
    (
        "inspect",
        &["error", "clock", "engine", "http", "wire", "service", "api"],
    ),
    (
        "localstack",
        &[
            "error", "clock", "engine", "http", "wire", "service", "api", "inspect",
        ],
    ),
    (
        "router",
        &[
            "error",
            "clock",
            "faults",
            "engine",
            "http",
            "wire",
            "service",
            "api",
            "inspect",
            "localstack",
        ],
    ),
    (
        "init",
        &["error", "clock", "engine", "wire", "service", "api"],
    ),
    ("init_dir", &["error", "service", "init"]),
];

/// Parts that may import every other: the server that assembles them, and the crate root that
/// re-exports the public API.
const TOP: &[&str] = &["server", "lib"];

/// At most this many files at the top of `src/`: the rest is in the folders.
const MAX_TOP_FILES: usize = 15;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The part a file belongs to: its folder under `src/`, or its own name at the top.
fn part_of(path: &Path) -> String {
    let relative = path.strip_prefix(src()).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The code of a file without its comments and its test module.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod ") || next.contains(" mod "))
        {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The parts named by `crate::<part>` in `code`.
fn imports(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // `crate::Clock` and the like are the crate root's re-exports of the public API.
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            found.insert(name);
        }
    }
    found
}

#[test]
fn each_part_imports_only_the_parts_below_it() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy();
        if name.ends_with("_props.rs") {
            continue;
        }
        let part = part_of(file);
        let shown = file
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .display();
        if TOP.contains(&part.as_str()) {
            continue;
        }
        let Some((_, allowed)) = LAYERS.iter().find(|(p, _)| *p == part) else {
            wrong.push(format!(
                "{shown}: part `{part}` is not in the LAYERS table of tests/layers.rs: add it where it belongs"
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for target in imports(&code_of(&text)) {
            if target != part && !allowed.contains(&target.as_str()) {
                wrong.push(format!(
                    "{shown}: `{part}` imports `crate::{target}`, which is not below it"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run upward:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_table_has_no_loop() {
    // Listed lowest first, each part may import only parts listed before it.
    for (index, (part, allowed)) in LAYERS.iter().enumerate() {
        for below in *allowed {
            let position = LAYERS.iter().position(|(p, _)| p == below);
            assert!(
                position.is_some_and(|p| p < index),
                "`{part}` may import `{below}`, which is not listed before it"
            );
        }
    }
}

#[test]
fn the_top_of_src_holds_at_most_fifteen_files() {
    let top: Vec<String> = std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        top.len() <= MAX_TOP_FILES,
        "{} files at the top of src/ (at most {MAX_TOP_FILES}): {top:?}",
        top.len()
    );
}
