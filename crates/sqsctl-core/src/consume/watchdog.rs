//! The watchdog that takes `consume`'s commands down with it, however it dies (`kill -9`
//! included): no command outlives the run that started it and keeps working on a message that
//! SQS has meanwhile delivered to another consumer.
//!
//! A run starts one watchdog: the same binary, re-executed to run [`serve`] (`sqsctl` does so as a
//! hidden subcommand), in a process group of its own, with a pipe from the run as its stdin. The
//! run writes `+PGID` when a command starts (each command leads a process group of its own, see
//! [`super::child`]) and `-PGID` once it is over; a few bytes per message, on a pipe that nothing but the run holds
//! open (Rust opens pipes close-on-exec, so the commands do not inherit it). When the pipe reaches
//! end of file, the run is gone, whether it returned, exited or was killed; the watchdog then sends
//! SIGKILL to every group still listed, which takes each command together with what it started,
//! and exits. It ignores SIGINT, SIGTERM and SIGHUP: they are the run's to handle, and a watchdog
//! that died of one would leave the next `kill -9` of the run with orphans.
//!
//! This is the safe stand-in for `PR_SET_PDEATHSIG` in a `pre_exec` hook, which would need
//! `unsafe` and would reach only the command, not the processes it starts. Two gaps remain: a
//! command started in the instant before the run died, whose `+PGID` was not written yet, is not
//! listed; and a group whose leader exited is no longer listed, so what it left running in the
//! background (not waited for) is not stopped, as when the run lives on.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::sync::Mutex;

/// The run's end of the pipe to its watchdog.
#[derive(Debug)]
pub struct Watchdog {
    pipe: Mutex<std::process::ChildStdin>,
}

impl Watchdog {
    /// Starts the watchdog, `command`: a program that runs [`serve`], in a process group of its
    /// own (a Ctrl-C typed on the terminal reaches the run only).
    pub fn start(mut command: std::process::Command) -> std::io::Result<Watchdog> {
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let pipe = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("the watchdog has no stdin"))?;
        // Not waited for: it outlives the run by design, and is reaped by whoever inherits it.
        drop(child);
        Ok(Watchdog {
            pipe: Mutex::new(pipe),
        })
    }

    /// Lists a command's process group: killed if the run dies before [`Watchdog::forget`].
    pub fn watch(&self, group: u32) {
        self.tell(&format!("+{group}\n"));
    }

    /// Takes a command's process group off the list: it is over, and its id may be reused.
    pub fn forget(&self, group: u32) {
        self.tell(&format!("-{group}\n"));
    }

    fn tell(&self, line: &str) {
        // One write of a few bytes to a pipe is atomic and does not block while the watchdog
        // reads. If the watchdog is gone (killed by someone), there is nobody left to tell.
        if let Ok(mut pipe) = self.pipe.lock() {
            let _ = pipe.write_all(line.as_bytes());
        }
    }
}

/// The watchdog's process: reads the list from stdin until end of file, then kills the groups
/// left on it. An error means it could not stand aside from the signals that stop a run.
pub fn serve() -> std::io::Result<()> {
    // The signals a run stops on must not stop its watchdog; tokio's handlers, once installed,
    // replace the default action for good, and nothing needs to read what they record.
    #[cfg(unix)]
    let _runtime = {
        use tokio::signal::unix::{SignalKind, signal};
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let _entered = runtime.enter();
        for kind in [
            SignalKind::interrupt(),
            SignalKind::terminate(),
            SignalKind::hangup(),
        ] {
            let _installed = signal(kind)?;
        }
        runtime
    };
    for group in groups_left(std::io::stdin().lock()) {
        kill_group(group);
    }
    Ok(())
}

/// The groups listed and not taken off again by the time `input` ends. A line that is not a
/// `+`/`-` and a process id above 1 is ignored: the list must never name init or every process.
fn groups_left(input: impl BufRead) -> BTreeSet<u32> {
    let mut groups = BTreeSet::new();
    for line in input.split(b'\n') {
        let Ok(line) = line else {
            break;
        };
        let Ok(text) = std::str::from_utf8(&line) else {
            continue;
        };
        let (add, id) = match text.split_at_checked(1) {
            Some(("+", id)) => (true, id),
            Some(("-", id)) => (false, id),
            _ => continue,
        };
        let Some(group) = id.parse::<u32>().ok().filter(|&group| group > 1) else {
            continue;
        };
        if add {
            groups.insert(group);
        } else {
            groups.remove(&group);
        }
    }
    groups
}

fn kill_group(group: u32) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group};
        if let Some(pid) = i32::try_from(group).ok().and_then(Pid::from_raw) {
            // The group may be gone already.
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    #[cfg(not(unix))]
    {
        let _ = group;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_left_are_those_listed_and_not_forgotten() {
        let input = b"+100\n+200\n-100\n+300\n+300\n-300\n+400";
        assert_eq!(groups_left(&input[..]), BTreeSet::from([200, 400]));
    }

    #[test]
    fn nothing_but_a_group_above_1_is_listed() {
        let input = b"+0\n+1\n+-5\n+\n100\n*7\n+abc\n+4294967296\n+\xff\n+42\n";
        assert_eq!(groups_left(&input[..]), BTreeSet::from([42]));
    }
}
