//! `--exec`: a shell command run once per message, the body on its stdin and the new body on its
//! stdout.
//!
//! The command runs as `sh -c COMMAND` (so pipes and quoting work as in a shell), in its own process
//! group, with `SQSCTL_MESSAGE_ID` (the DLQ message id) and, when the message has one,
//! `SQSCTL_GROUP_ID` in its environment. Its stdout, less one trailing newline, is the new body;
//! the message keeps its attributes and ids. A command that exits non-zero, is killed, or does not
//! finish within the timeout fails the message (with the first line of its stderr), which stays in
//! the DLQ; a command still running at the timeout is killed with its process group.

use std::process::Stdio;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

/// How long `--exec` may take on one message, unless the run says otherwise.
pub const DEFAULT_EXEC_TIMEOUT: Duration = Duration::from_secs(30);

/// A command to run per message, as the plan records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exec {
    /// Run by `sh -c`.
    pub command: String,
    /// Seconds the command may take on one message.
    pub timeout_secs: u64,
}

impl Exec {
    /// `sh -c COMMAND` for one message: its environment, its pipes, a process group of its own.
    fn command(&self, message_id: &str, group_id: Option<&str>) -> std::process::Command {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .env("SQSCTL_MESSAGE_ID", message_id)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(group) = group_id {
            command.env("SQSCTL_GROUP_ID", group);
        }
        command
    }

    /// Runs the command on one message's body; the new body, or why there is none.
    pub async fn run(
        &self,
        body: &str,
        message_id: &str,
        group_id: Option<&str>,
    ) -> Result<String, String> {
        let mut child = tokio::process::Command::from(self.command(message_id, group_id))
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("`sh -c` could not start: {e}"))?;
        let pid = child.id();
        let mut stdin = child.stdin.take();
        let input = body.as_bytes().to_vec();
        let work = async move {
            if let Some(stdin) = stdin.as_mut() {
                // A command that does not read its stdin closes it: that is not a failure.
                let _ = stdin.write_all(&input).await;
            }
            drop(stdin);
            child.wait_with_output().await
        };
        let timeout = Duration::from_secs(self.timeout_secs);
        let output = match tokio::time::timeout(timeout, work).await {
            Ok(Ok(output)) => output,
            Ok(Err(e)) => return Err(format!("the command failed: {e}")),
            Err(_) => {
                if let Some(pid) = pid.and_then(|p| rustix::process::Pid::from_raw(p as i32)) {
                    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                }
                return Err(format!(
                    "the command did not finish within {} s (killed)",
                    self.timeout_secs
                ));
            }
        };
        answer(output)
    }
}

impl Exec {
    /// [`Exec::run`] on this thread, for a dry run's preview (which looks at one message at a
    /// time, outside the async workers): the same command, environment, timeout and answers.
    pub fn run_blocking(
        &self,
        body: &str,
        message_id: &str,
        group_id: Option<&str>,
    ) -> Result<String, String> {
        use std::io::{Read, Write};
        let mut child = self
            .command(message_id, group_id)
            .spawn()
            .map_err(|e| format!("`sh -c` could not start: {e}"))?;
        let input = body.as_bytes().to_vec();
        let stdin = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                let _ = stdin.write_all(&input);
            }
        });
        let read = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = read(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = read(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(self.timeout_secs);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => {
                    if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
                        let _ =
                            rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                    }
                    let _ = child.wait();
                    return Err(format!(
                        "the command did not finish within {} s (killed)",
                        self.timeout_secs
                    ));
                }
                Err(e) => return Err(format!("the command failed: {e}")),
            }
        };
        let _ = writer.join();
        let output = std::process::Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        };
        answer(output)
    }
}

/// The new body a finished command gave, or why it gave none.
fn answer(output: std::process::Output) -> Result<String, String> {
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let status = match output.status.code() {
            Some(code) => format!("exited with {code}"),
            None => "was killed by a signal".to_string(),
        };
        return Err(if first.is_empty() {
            format!("the command {status}")
        } else {
            format!("the command {status}: {}", first.trim())
        });
    }
    let mut body = String::from_utf8(output.stdout)
        .map_err(|_| "the command's output is not valid UTF-8".to_string())?;
    if body.ends_with('\n') {
        body.pop();
        if body.ends_with('\r') {
            body.pop();
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(command: &str, timeout_secs: u64) -> Exec {
        Exec {
            command: command.into(),
            timeout_secs,
        }
    }

    #[tokio::test]
    async fn the_body_goes_in_and_the_output_less_its_newline_comes_out() {
        let out = exec("tr a-z A-Z; echo \" $SQSCTL_MESSAGE_ID\"", 5)
            .run("hello", "m-1", None)
            .await
            .unwrap();
        assert_eq!(out, "HELLO m-1");
    }

    #[tokio::test]
    async fn a_failure_a_timeout_and_a_kill_say_so() {
        let err = exec("echo nope >&2; exit 3", 5)
            .run("x", "m", None)
            .await
            .unwrap_err();
        assert_eq!(err, "the command exited with 3: nope");
        let err = exec("sleep 30", 1).run("x", "m", None).await.unwrap_err();
        assert!(err.contains("did not finish within 1 s"), "{err}");
        let err = exec("kill -9 $$", 5).run("x", "m", None).await.unwrap_err();
        assert!(err.contains("killed by a signal"), "{err}");
    }

    #[test]
    fn on_this_thread_it_answers_alike() {
        let upper = exec("tr a-z A-Z", 5).run_blocking("hello\n", "m", None);
        assert_eq!(upper.unwrap(), "HELLO");
        let err = exec("echo nope >&2; exit 3", 5)
            .run_blocking("x", "m", None)
            .unwrap_err();
        assert_eq!(err, "the command exited with 3: nope");
        let err = exec("sleep 30", 1)
            .run_blocking("x", "m", None)
            .unwrap_err();
        assert!(err.contains("did not finish within 1 s"), "{err}");
    }
}
