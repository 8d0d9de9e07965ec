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

/// Makes `dir` private: creates it (and its missing ancestors) with mode 0700, and brings an
/// existing one that others may read or enter down to 0700. Only `dir` itself is changed; the
/// directories above it are the user's.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    create_parent(&dir.join("_"))?;
    tighten(dir, DIR_MODE)
}

/// Takes away every permission of the group and of others on `path`, when it exists and has some:
/// `mode` (0600 for a file, 0700 for a directory) becomes its mode. Nothing is done elsewhere than
/// on Unix.
pub fn tighten(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = match std::fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(err) => return Err(err),
        };
        if !meta.file_type().is_symlink() && meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
        }
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

/// Replaces the file at `path` with `text`, whole: written to a temporary file beside it (mode
/// 0600, in a directory made private by [`private_dir`]) and renamed over it, so that a reader
/// never sees half of it and the file is private whatever mode the one it replaces had.
pub fn replace_private(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write as _;
    let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Err(io::Error::other(format!(
            "{} has no directory",
            path.display()
        )));
    };
    private_dir(dir)?;
    let temporary = dir.join(format!(
        ".{}.{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    // A temporary file left by a process that had this id is stale; it might have another mode.
    let _ = std::fs::remove_file(&temporary);
    let written = open(&temporary, OpenOptions::new().write(true).create_new(true))
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
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

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_and_its_directory_become_private_whatever_they_were() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().expect("tempdir");
        let dir = home.path().join("cache");
        let path = dir.join("entries");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        replace_private(&path, "a\n").expect("written");
        assert_eq!(mode(&dir), DIR_MODE);
        assert_eq!(mode(&path), FILE_MODE);
        // As an older version left them: readable by everyone.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        replace_private(&path, "b\n").expect("written");
        assert_eq!(mode(&dir), DIR_MODE);
        assert_eq!(mode(&path), FILE_MODE);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "b\n");
        // The user's own directory above is left as it was.
        assert_eq!(mode(home.path()), 0o755);
        let entries: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(entries.len(), 1, "no temporary file is left");
    }
}
