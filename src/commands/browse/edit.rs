//! `browse`'s edit: a message's body written to a scratch file, opened in the user's editor, and
//! read back. The caller hands the terminal to the editor meanwhile.

use std::io::Write as _;

use crate::message::MessageRecord;

/// The body as edited in `editor` (a shell command line, given the file's path as its last
/// argument), or `None` when it was left unchanged. The terminal is the editor's meanwhile: the
/// caller has put it back in its normal mode. An editor that adds a final line break to a body
/// that had none does not count as a change.
pub fn edit(
    editor: &str,
    state_dir: &std::path::Path,
    message: &MessageRecord,
) -> Result<Option<String>, String> {
    let id = message.message_id.as_deref().unwrap_or("message");
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    std::fs::create_dir_all(state_dir)
        .map_err(|e| format!("cannot create {}: {e}", state_dir.display()))?;
    let path = state_dir.join(format!("edit-{safe}-{}.txt", super::actions::now_ms()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut f| f.write_all(message.body.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .status();
    let edited = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => {
            return Err(format!(
                "the editor `{editor}` failed ({status}); nothing was sent"
            ));
        }
        Err(e) => return Err(format!("cannot run the editor `{editor}`: {e}")),
    }
    let mut edited = edited.map_err(|e| format!("cannot read the edited message: {e}"))?;
    if !message.body.ends_with('\n') && edited.ends_with('\n') {
        edited.pop();
    }
    Ok((edited != message.body).then_some(edited))
}
