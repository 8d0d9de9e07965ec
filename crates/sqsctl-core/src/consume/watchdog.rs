//! The watchdog that takes `consume`'s commands down with it, however it dies (`kill -9`
//! included): no command outlives the run that started it and keeps working on a message that
//! SQS has meanwhile delivered to another consumer.
//!
//! A run starts one watchdog: the same binary, re-executed to run [`serve`] (`sqsctl` does so as a
//! hidden subcommand), in a process group of its own, with a pipe from the run as its stdin. The
//! run writes `+PGID` when a command starts (each command leads a process group of its own, see
//! [`super::child`]) and `-PGID` once it is over; a few bytes per message, on a pipe that nothing but the run holds
//! open (Rust opens pipes close-on-exec, so the commands do not inherit it). When the pipe reaches
//! end of file, the run is gone, whether it returned, exited or was killed; the watchdog then stops
//! every group still listed with SIGKILL, together with every process descended from their members
//! (on Linux, where `/proc` tells parents: a command's `setsid daemon &` leads a session of its own,
//! out of the command's group), and exits. It freezes them with SIGSTOP first, looking again until
//! no new descendant turns up, so that none forks away meanwhile. It ignores SIGINT, SIGTERM and
//! SIGHUP: they are the run's to handle, and a watchdog that died of one would leave the next
//! `kill -9` of the run with orphans.
//!
//! The run lists orphans too: what a command left behind when it ended is adopted by the run (see
//! [`super::family`]), and its process group listed here, so a `kill -9` of the run stops it.
//!
//! This is the safe stand-in for `PR_SET_PDEATHSIG` in a `pre_exec` hook, which would need
//! `unsafe` and would reach only the command, not the processes it starts. One gap remains: a
//! command started, or an orphan adopted, in the instant before the run died, whose `+PGID` was not
//! written yet, is not listed.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::sync::Mutex;

/// The run's end of the pipe to its watchdog.
#[derive(Debug)]
pub struct Watchdog {
    pipe: Mutex<std::process::ChildStdin>,
    /// The watchdog's process id: a child of the run, never one of its orphans.
    pid: u32,
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
        let pid = child.id();
        let pipe = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("the watchdog has no stdin"))?;
        // Not waited for: it outlives the run by design, and is reaped by whoever inherits it.
        drop(child);
        Ok(Watchdog {
            pipe: Mutex::new(pipe),
            pid,
        })
    }

    /// The watchdog's process id.
    pub fn pid(&self) -> u32 {
        self.pid
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
    stop(&groups_left(std::io::stdin().lock()));
    Ok(())
}

/// Freezes the members of `groups` and every process descended from them, then kills them all.
fn stop(groups: &BTreeSet<u32>) {
    if groups.is_empty() {
        return;
    }
    let me = std::process::id();
    let mut frozen: BTreeSet<u32> = BTreeSet::new();
    let mut leaders: BTreeSet<u32> = BTreeSet::new();
    // Each round freezes what the last one found; what they forked meanwhile shows in the next.
    for _ in 0..FREEZE_ROUNDS {
        let found = descendants(&super::family::processes(), groups);
        let new: Vec<_> = found
            .iter()
            .filter(|p| p.pid != me && !frozen.contains(&p.pid))
            .collect();
        if new.is_empty() {
            break;
        }
        for process in new {
            signal_process(process.pid, Signal::Stop);
            frozen.insert(process.pid);
            if process.pid == process.pgid {
                leaders.insert(process.pgid);
            }
        }
    }
    for &group in groups.iter().chain(&leaders) {
        super::family::signal_group(group, super::family::Signal::Kill);
    }
    for &pid in &frozen {
        signal_process(pid, Signal::Kill);
    }
}

/// Rounds of looking for descendants to freeze before the kill.
const FREEZE_ROUNDS: usize = 10;

/// The members of `groups` and the processes descended from them, among `all`.
fn descendants(
    all: &[super::family::Process],
    groups: &BTreeSet<u32>,
) -> Vec<super::family::Process> {
    let mut found: BTreeSet<u32> = all
        .iter()
        .filter(|p| !p.exited && groups.contains(&p.pgid))
        .map(|p| p.pid)
        .collect();
    loop {
        let more: Vec<u32> = all
            .iter()
            .filter(|p| !p.exited && found.contains(&p.ppid) && !found.contains(&p.pid))
            .map(|p| p.pid)
            .collect();
        if more.is_empty() {
            break;
        }
        found.extend(more);
    }
    all.iter()
        .filter(|p| found.contains(&p.pid))
        .copied()
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Signal {
    Stop,
    Kill,
}

fn signal_process(pid: u32, signal: Signal) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal as Sig, kill_process};
        let signal = match signal {
            Signal::Stop => Sig::STOP,
            Signal::Kill => Sig::KILL,
        };
        if let Some(pid) = i32::try_from(pid)
            .ok()
            .filter(|&id| id > 1)
            .and_then(Pid::from_raw)
        {
            let _ = kill_process(pid, signal);
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (pid, signal);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_left_are_those_listed_and_not_forgotten() {
        let input = b"+100\n+200\n-100\n+300\n+300\n-300\n+400";
        assert_eq!(groups_left(&input[..]), BTreeSet::from([200, 400]));
    }

    #[test]
    fn descendants_are_found_through_parents_out_of_the_listed_groups() {
        use super::super::family::Process;
        let process = |pid, ppid, pgid| Process {
            pid,
            ppid,
            pgid,
            exited: false,
        };
        let all = [
            process(100, 1, 100),   // a command, leading its group
            process(101, 100, 100), // `sleep &`
            process(102, 100, 102), // `setsid daemon &`: a session of its own
            process(103, 102, 102), // what the daemon started
            process(104, 103, 104), // and what that started in a session of its own
            process(200, 1, 200),   // something else
            process(201, 200, 100), // not descended, but in the group: a member all the same
        ];
        let found: BTreeSet<u32> = descendants(&all, &BTreeSet::from([100]))
            .iter()
            .map(|p| p.pid)
            .collect();
        assert_eq!(found, BTreeSet::from([100, 101, 102, 103, 104, 201]));
    }

    #[test]
    fn nothing_but_a_group_above_1_is_listed() {
        let input = b"+0\n+1\n+-5\n+\n100\n*7\n+abc\n+4294967296\n+\xff\n+42\n";
        assert_eq!(groups_left(&input[..]), BTreeSet::from([42]));
    }
}
