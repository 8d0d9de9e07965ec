//! The run's processes: the commands it starts, and what they leave behind in sessions or process
//! groups of their own (`setsid daemon &`), which stopping a command's process group does not
//! reach.
//!
//! On Linux the run makes itself a child subreaper ([`become_subreaper`]): a process whose parent
//! exits becomes the run's child instead of init's. Each time a command ends, the run looks among
//! its children for such orphans: it lists each one's process group with the [`Watchdog`] (which
//! stops it if the run is killed), and reaps those that exited. When the run ends,
//! [`Family::stop_orphans`] stops the rest as `--timeout` stops a command: SIGTERM to their process
//! groups, SIGKILL 2 s later. The run's own children are told apart from adopted ones by a list kept
//! under the same lock as each start, so a command that has just started is never taken for an
//! orphan. Elsewhere than on Linux nothing is adopted, and this only starts and lists commands.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use super::watchdog::Watchdog;

/// How long adopted orphans get between SIGTERM and SIGKILL when the run ends.
const ORPHANS_KILL_AFTER: Duration = Duration::from_secs(2);
/// Rounds of stopping orphans at the end: a stopped orphan's own children become orphans too.
const ORPHAN_ROUNDS: usize = 5;

/// Makes this process a child subreaper (Linux: `PR_SET_CHILD_SUBREAPER`), so that the orphans of
/// its commands' processes become its children. Returns whether it did: `false` where the system
/// has no such thing.
pub fn become_subreaper() -> std::io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        rustix::process::set_child_subreaper(Some(rustix::process::getpid()))?;
        Ok(true)
    }
    #[cfg(not(target_os = "linux"))]
    {
        Ok(false)
    }
}

/// The run's processes, shared by the tasks that run its commands.
#[derive(Debug)]
pub struct Family {
    watchdog: Option<Watchdog>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The run's own children: the commands running (each leads its process group) and the
    /// watchdog.
    own: HashSet<u32>,
    /// Process groups of adopted orphans listed with the watchdog.
    listed: HashSet<u32>,
}

impl Family {
    pub fn new(watchdog: Option<Watchdog>) -> Family {
        let mut state = State::default();
        if let Some(watchdog) = &watchdog {
            state.own.insert(watchdog.pid());
        }
        Family {
            watchdog,
            state: Mutex::new(state),
        }
    }

    /// Starts a command that leads a process group of its own, and lists the group with the
    /// watchdog.
    pub fn spawn(
        &self,
        command: &mut tokio::process::Command,
    ) -> std::io::Result<tokio::process::Child> {
        let mut state = self.lock();
        let child = command.spawn()?;
        if let Some(pid) = child.id() {
            state.own.insert(pid);
            if let Some(watchdog) = &self.watchdog {
                watchdog.watch(pid);
            }
        }
        Ok(child)
    }

    /// A command that led process group `group` was reaped: its group is taken off the
    /// watchdog's list, and what it left behind that the run adopted is listed instead.
    pub fn ended(&self, group: u32) {
        let mut state = self.lock();
        state.own.remove(&group);
        if let Some(watchdog) = &self.watchdog {
            watchdog.forget(group);
        }
        self.look_for_orphans(&mut state);
    }

    /// Stops every adopted orphan (SIGTERM to its process group, SIGKILL after a grace of 2 s)
    /// and reaps it; then the orphans those leave, for a few rounds. For the end of the run, once
    /// no command runs.
    pub async fn stop_orphans(&self) {
        for _ in 0..ORPHAN_ROUNDS {
            let groups = {
                let mut state = self.lock();
                self.look_for_orphans(&mut state);
                state.listed.clone()
            };
            if groups.is_empty() {
                return;
            }
            for &group in &groups {
                signal_group(group, Signal::Term);
            }
            let deadline = tokio::time::Instant::now() + ORPHANS_KILL_AFTER;
            while tokio::time::Instant::now() < deadline && !self.orphans_gone() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            for &group in &groups {
                signal_group(group, Signal::Kill);
            }
            let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
            while tokio::time::Instant::now() < deadline && !self.orphans_gone() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }

    /// Reaps the orphans that exited; whether none is left of those listed.
    fn orphans_gone(&self) -> bool {
        let mut state = self.lock();
        self.look_for_orphans(&mut state);
        state.listed.is_empty()
    }

    /// Finds the orphans the run adopted: lists the process group of each one alive with the
    /// watchdog, reaps each one that exited, and takes off the list the groups none is left of.
    fn look_for_orphans(&self, state: &mut State) {
        let orphans = adopted(&state.own);
        let mut alive = HashSet::new();
        for orphan in &orphans {
            if orphan.exited {
                reap(orphan.pid);
            } else {
                alive.insert(orphan.pgid);
            }
        }
        for &group in alive.difference(&state.listed) {
            if let Some(watchdog) = &self.watchdog {
                watchdog.watch(group);
            }
        }
        for &group in state.listed.difference(&alive) {
            if let Some(watchdog) = &self.watchdog {
                watchdog.forget(group);
            }
        }
        state.listed = alive;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves sets that are still whole.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A process as `/proc/PID/stat` describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Process {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    /// A zombie (or dead): it exited and waits to be reaped.
    pub exited: bool,
}

/// Every process this one may see (Linux: from `/proc`); none elsewhere.
pub(super) fn processes() -> Vec<Process> {
    #[cfg(target_os = "linux")]
    {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_str().is_some_and(is_number))
            .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
            .filter_map(|stat| parse_stat(&stat))
            .collect()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Vec::new()
    }
}

fn is_number(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// Reads `PID (COMM) STATE PPID PGRP ...`; COMM may hold spaces and parentheses, so the fields
/// after it are found from its last `)`.
fn parse_stat(stat: &str) -> Option<Process> {
    let (head, rest) = stat.rsplit_once(')')?;
    let pid = head.split_once(" (")?.0.trim().parse().ok()?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    Some(Process {
        pid,
        ppid,
        pgid,
        exited: matches!(state, "Z" | "X" | "x"),
    })
}

/// This process's children that it did not start: adopted orphans. `own` are the children it
/// started; a child in its own process group (something a library started) or in the group of a
/// command still running (handled when that command ends) is left alone.
fn adopted(own: &HashSet<u32>) -> Vec<Process> {
    #[cfg(target_os = "linux")]
    {
        let me = rustix::process::getpid().as_raw_nonzero().get() as u32;
        let my_group = rustix::process::getpgrp().as_raw_nonzero().get() as u32;
        processes()
            .into_iter()
            .filter(|p| {
                p.ppid == me
                    && !own.contains(&p.pid)
                    && !own.contains(&p.pgid)
                    && p.pgid != my_group
                    && p.pgid > 1
            })
            .collect()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = own;
        Vec::new()
    }
}

/// Collects an orphan that exited (only that one: the run's commands are reaped by their tasks).
fn reap(pid: u32) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, WaitOptions, waitpid};
        if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
            let _ = waitpid(Some(pid), WaitOptions::NOHANG);
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Signal {
    Term,
    Kill,
}

/// Sends a signal to a process group (a command and what it started, or an orphan's). The group
/// may be gone already: nothing is left to stop then.
pub(super) fn signal_group(group: u32, signal: Signal) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal as Sig, kill_process_group};
        let Some(pid) = i32::try_from(group)
            .ok()
            .filter(|&id| id > 1)
            .and_then(Pid::from_raw)
        else {
            return;
        };
        let signal = match signal {
            Signal::Term => Sig::TERM,
            Signal::Kill => Sig::KILL,
        };
        let _ = kill_process_group(pid, signal);
    }
    #[cfg(not(unix))]
    {
        let _ = (group, signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_past_a_command_name_with_spaces_and_parentheses() {
        let stat = "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 ...";
        assert_eq!(
            parse_stat(stat),
            Some(Process {
                pid: 4242,
                ppid: 17,
                pgid: 4242,
                exited: false
            })
        );
        let zombie = "77 (sh) Z 1 70 70 0";
        assert!(parse_stat(zombie).unwrap().exited);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_among_the_processes() {
        let me = std::process::id();
        assert!(processes().iter().any(|p| p.pid == me && !p.exited));
    }
}
