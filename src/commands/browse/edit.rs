//! `browse`'s edit: a message's body written to a scratch file, opened in the user's editor, and
//! read back. The caller hands the terminal to the editor meanwhile, and passes SIGTERM or SIGHUP
//! on to it ([`signal`]).

use std::io::Write as _;

use crate::message::MessageRecord;

/// How long an editor has to end after browse passes on SIGTERM or SIGHUP, before SIGKILL.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// A message open in the user's editor: the running editor and its scratch file.
pub struct Editing {
    editor: String,
    path: std::path::PathBuf,
    original: String,
    child: std::process::Child,
}

/// The shell command line that runs `editor` on the file `$1`. A plain command line (words, no
/// shell control characters) is `exec`ed, so that the editor is the process browse started and a
/// signal browse passes on reaches it.
fn command_line(editor: &str) -> String {
    let plain = !editor.contains([';', '&', '|', '(', ')', '<', '>', '`', '\n'])
        && !editor
            .split_whitespace()
            .next()
            .is_some_and(|first| first.contains('='));
    if plain {
        format!("exec {editor} \"$1\"")
    } else {
        format!("{editor} \"$1\"")
    }
}

/// Writes the body to a scratch file under `state_dir` and starts `editor` (a shell command line,
/// given the file's path as its last argument) on it. The terminal is the editor's meanwhile: the
/// caller has put it back in its normal mode.
pub fn open(
    editor: &str,
    state_dir: &std::path::Path,
    message: &MessageRecord,
) -> Result<Editing, String> {
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
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg(command_line(editor))
        .arg("sh")
        .arg(&path)
        .spawn();
    match child {
        Ok(child) => Ok(Editing {
            editor: editor.to_string(),
            path,
            original: message.body.clone(),
            child,
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            Err(format!("cannot run the editor `{editor}`: {e}"))
        }
    }
}

impl Editing {
    /// The editor's process id, to pass a signal on to it while [`Editing::wait`] waits.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the editor (blocking) and removes the scratch file: the body as edited, or `None`
    /// when it was left unchanged. An editor that adds a final line break to a body that had none
    /// does not count as a change.
    pub fn wait(mut self) -> Result<Option<String>, String> {
        let status = self.child.wait();
        let edited = std::fs::read_to_string(&self.path);
        let _ = std::fs::remove_file(&self.path);
        let editor = &self.editor;
        match status {
            Ok(status) if status.success() => {}
            Ok(status) => {
                return Err(format!(
                    "the editor `{editor}` failed ({status}); nothing was sent"
                ));
            }
            Err(e) => return Err(format!("cannot wait for the editor `{editor}`: {e}")),
        }
        let mut edited = edited.map_err(|e| format!("cannot read the edited message: {e}"))?;
        if !self.original.ends_with('\n') && edited.ends_with('\n') {
            edited.pop();
        }
        Ok((edited != self.original).then_some(edited))
    }
}

/// Passes `signal` on to the editor `pid` (already gone: nothing to do).
pub fn signal(pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

#[cfg(test)]
mod tests {
    use super::command_line;

    #[test]
    fn a_plain_editor_is_execed_and_a_shell_construct_is_left_to_the_shell() {
        assert_eq!(command_line("vi"), "exec vi \"$1\"");
        assert_eq!(command_line("code --wait"), "exec code --wait \"$1\"");
        assert_eq!(command_line("TERM=xterm vim"), "TERM=xterm vim \"$1\"");
        assert_eq!(command_line("vim; true"), "vim; true \"$1\"");
    }
}
