//! One run of the user's command for one message: started in a process group of its own (so a
//! Ctrl-C on the terminal reaches sqsctl, not the commands it lets finish, a timeout stops the
//! command together with what it started, and the run's [`Watchdog`](super::Watchdog) can stop
//! the group if the run dies; see [`Family`]), fed the message on stdin, its output handed line by
//! line to the run's event loop, and its end reported as an [`Ending`].

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::family::{Family, Signal, signal_group};
use super::worker::Event;
use crate::consume::JobId;
use crate::interrupt::Interrupt;

/// How long a command stopped by its timeout gets between SIGTERM and SIGKILL.
const KILL_AFTER: Duration = Duration::from_secs(2);
/// How long, after the command exited, its output is waited for: a process it left running in
/// the background may hold the pipes open indefinitely.
const OUTPUT_AFTER_EXIT: Duration = Duration::from_secs(1);

/// Where a command's stdout and stderr go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputMode {
    /// Straight to sqsctl's own stdout and stderr (one command at a time, no progress line).
    Inherit,
    /// Line by line through the event loop (prefixed, as records, or beside a progress line).
    Lines,
}

/// Which of the command's streams a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// How a command's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it (not one sqsctl sent).
    Signaled(i32),
    /// It ran longer than its timeout and was stopped.
    TimedOut,
    /// sqsctl stopped it: Ctrl-C, after the grace period or a second time.
    Killed,
    /// It could not be started.
    NotStarted(String),
}

impl Ending {
    /// Whether a signal that stops a run (SIGINT, SIGTERM, SIGHUP) ended the command: while the
    /// run stops, that is most likely whoever stops the run, signalling the command as well (as
    /// systemd does to every process of a service), not a failure of the command.
    pub fn by_stop_signal(&self) -> bool {
        #[cfg(unix)]
        {
            use rustix::process::Signal;
            let Ending::Signaled(signal) = self else {
                return false;
            };
            [Signal::INT, Signal::TERM, Signal::HUP]
                .iter()
                .any(|stop| stop.as_raw() == *signal)
        }
        #[cfg(not(unix))]
        {
            false
        }
    }
}

/// What every run of the command shares.
#[derive(Debug)]
pub struct CommandSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub output: OutputMode,
    pub timeout: Option<Duration>,
    /// Variables of the run, the same for every message (the queue's URL and name).
    pub env: Vec<(String, String)>,
    /// The run's processes: each command starts through it, and the watchdog is told of its
    /// process group while it runs.
    pub family: Family,
}

/// Finds `program` as the operating system would when starting it: a path as given, a bare name
/// on `PATH`. Checked before any message is received, so a typo fails no message.
pub fn find_program(program: &str) -> Result<PathBuf, String> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return if is_executable(&path) {
            Ok(path)
        } else if path.exists() {
            Err(format!("`{program}` is not an executable file"))
        } else {
            Err(format!("`{program}` does not exist"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
        .map(|_| PathBuf::from(program))
        .ok_or_else(|| format!("`{program}` is not a command on PATH"))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Runs the command for `job` with `stdin` as its input and `env` on top of sqsctl's environment;
/// reports its output and then its end on `events`. `kill` set to true stops it at once.
/// `interrupt` is the run's stop signal: see [`STOP_SIGNAL_WINDOW`].
pub async fn run(
    job: JobId,
    spec: Arc<CommandSpec>,
    stdin: Vec<u8>,
    env: Vec<(String, String)>,
    events: mpsc::Sender<Event>,
    mut kill: watch::Receiver<bool>,
    interrupt: Interrupt,
) {
    let started = Instant::now();
    let mut command = tokio::process::Command::new(&spec.program);
    command
        .args(&spec.args)
        .envs(spec.env.iter().cloned())
        .envs(env)
        .stdin(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    match spec.output {
        OutputMode::Inherit => command.stdout(Stdio::inherit()).stderr(Stdio::inherit()),
        OutputMode::Lines => command.stdout(Stdio::piped()).stderr(Stdio::piped()),
    };
    let mut child = match spec.family.spawn(&mut command) {
        Ok(child) => child,
        Err(err) => {
            let ending = Ending::NotStarted(err.to_string());
            let _ = events
                .send(Event::Exited {
                    job,
                    ending,
                    took: started.elapsed(),
                })
                .await;
            return;
        }
    };
    let group = child.id();
    if let Some(mut pipe) = child.stdin.take() {
        // A command that does not read its input, or exits first, is not an error.
        tokio::spawn(async move {
            let _ = pipe.write_all(&stdin).await;
        });
    }
    let mut readers = tokio::task::JoinSet::new();
    if let Some(out) = child.stdout.take() {
        readers.spawn(forward(job, Stream::Stdout, out, events.clone()));
    }
    if let Some(err) = child.stderr.take() {
        readers.spawn(forward(job, Stream::Stderr, err, events.clone()));
    }
    let timeout = async {
        match spec.timeout {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    enum Stop {
        Exited(std::io::Result<std::process::ExitStatus>),
        TimedOut,
        Killed,
    }
    let stop = tokio::select! {
        status = child.wait() => Stop::Exited(status),
        () = timeout => Stop::TimedOut,
        _ = kill.wait_for(|kill| *kill) => Stop::Killed,
    };
    let ending = match stop {
        Stop::Exited(status) => ending_of(status),
        Stop::TimedOut => {
            signal_group_of(group, Signal::Term);
            if tokio::time::timeout(KILL_AFTER, child.wait())
                .await
                .is_err()
            {
                signal_group_of(group, Signal::Kill);
                let _ = child.wait().await;
            }
            Ending::TimedOut
        }
        Stop::Killed => {
            signal_group_of(group, Signal::Kill);
            let _ = child.wait().await;
            Ending::Killed
        }
    };
    if matches!(ending, Ending::TimedOut | Ending::Killed) {
        // What the command started goes with it.
        signal_group_of(group, Signal::Kill);
    }
    if let Some(group) = group {
        // Reaped: its process group is over, and what it left behind is the run's to find.
        spec.family.ended(group);
    }
    let took = started.elapsed();
    let _ = tokio::time::timeout(OUTPUT_AFTER_EXIT, async {
        while readers.join_next().await.is_some() {}
    })
    .await;
    readers.detach_all();
    if ending.by_stop_signal() && !interrupt.is_set() {
        // Whoever stops the run (systemd, a closed terminal) signals sqsctl and the commands at
        // once, and a command may end before sqsctl's own handler has run: wait a moment for it,
        // so that the command counts as stopped with the run, not as failed.
        let _ = tokio::time::timeout(STOP_SIGNAL_WINDOW, interrupt.wait()).await;
    }
    let _ = events.send(Event::Exited { job, ending, took }).await;
}

/// How long a command that a stop signal (SIGINT, SIGTERM, SIGHUP) ended waits for sqsctl's run to
/// be stopped by the same signal before it counts as failed.
const STOP_SIGNAL_WINDOW: Duration = Duration::from_millis(500);

fn ending_of(status: std::io::Result<std::process::ExitStatus>) -> Ending {
    match status {
        Ok(status) => match status.code() {
            Some(code) => Ending::Exited(code),
            None => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    Ending::Signaled(status.signal().unwrap_or(0))
                }
                #[cfg(not(unix))]
                {
                    Ending::Signaled(0)
                }
            }
        },
        Err(err) => Ending::NotStarted(err.to_string()),
    }
}

/// Hands each line the command writes to the event loop, bytes as written.
async fn forward(
    job: JobId,
    stream: Stream,
    pipe: impl AsyncRead + Unpin,
    events: mpsc::Sender<Event>,
) {
    let mut reader = BufReader::new(pipe);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if events
                    .send(Event::Output { job, stream, line })
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
    }
}

/// Sends a signal to a command's process group (the command and what it started).
fn signal_group_of(group: Option<u32>, signal: Signal) {
    if let Some(group) = group {
        signal_group(group, signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_on_path_or_by_their_path() {
        assert!(find_program("sh").is_ok());
        assert!(find_program("/bin/sh").is_ok());
        let err = find_program("no-such-command-here").unwrap_err();
        assert!(err.contains("PATH"), "{err}");
        let err = find_program("./no/such/file").unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
        let err = find_program("/").unwrap_err();
        assert!(err.contains("not an executable"), "{err}");
    }
}
