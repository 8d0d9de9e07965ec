//! Files sqsctl writes for the user (redrive journals and archives, scan logs): they hold message
//! bodies or say which queues were touched, so each is created readable by its owner only (0600),
//! in directories created for the owner only (0700). Names that come from queues (a name in an ARN
//! or URL, which the server does not check for us) are validated before they become part of a
//! path. This module knows nothing of what the files contain.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// The mode of a file sqsctl creates.
pub const FILE_MODE: u32 = 0o600;
/// The mode of a directory sqsctl creates.
pub const DIR_MODE: u32 = 0o700;

/// A queue name that cannot be part of a file name.
#[derive(Debug, thiserror::Error)]
#[error(
    "`{0}` is not a valid queue name (1-80 letters, digits, - and _, with .fifo at the end of FIFO names), so no file is named after it"
)]
pub struct InvalidQueueName(pub String);

/// Checks that `name` is a queue name as SQS allows them, and so safe as part of a file name: no
/// `/`, no `..`, nothing a terminal or a shell would read differently.
pub fn queue_file_name(name: &str) -> Result<&str, InvalidQueueName> {
    let stem = name.strip_suffix(".fifo").unwrap_or(name);
    let valid = !stem.is_empty()
        && name.len() <= 80
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(name)
    } else {
        Err(InvalidQueueName(name.to_string()))
    }
}

/// Creates the directory `path` goes in (and its missing ancestors) with mode 0700. A parent that
/// exists but is not a directory is said so plainly (`create_dir_all` would report it as "already
/// exists").
pub fn create_parent(path: &Path) -> io::Result<()> {
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    for dir in parent.ancestors() {
        if dir.as_os_str().is_empty() {
            break;
        }
        if let Ok(meta) = std::fs::metadata(dir) {
            if meta.is_dir() {
                break;
            }
            return Err(io::Error::other(format!(
                "{} is not a directory",
                dir.display()
            )));
        }
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(DIR_MODE);
    }
    builder.create(parent)
}

/// Opens a file with `options`; a file it creates gets mode 0600 (an existing file keeps its
/// mode).
pub fn open(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(FILE_MODE);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_names_that_could_leave_a_directory_are_refused() {
        for good in ["orders", "orders-dlq", "a_b", "jobs.fifo", &"x".repeat(80)] {
            assert!(queue_file_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".fifo",
            "..",
            "../../../pwn",
            "a/b",
            "a.b",
            "a..fifo",
            "tab\tname",
            &"x".repeat(81),
        ] {
            assert!(queue_file_name(bad).is_err(), "{bad:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn files_and_directories_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a").join("b").join("f.jsonl");
        create_parent(&path).expect("parent");
        open(&path, OpenOptions::new().append(true).create(true)).expect("open");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&path), FILE_MODE);
        assert_eq!(mode(&dir.path().join("a")), DIR_MODE);
        assert_eq!(mode(&dir.path().join("a").join("b")), DIR_MODE);
    }
}
