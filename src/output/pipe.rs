//! `receive --delete` into a pipe: what can be known of the reader at the other end. Whether stdout
//! is a pipe at all, a pipe buffer shrunk so little sits unread in it, and how much of what was
//! written the reader has taken out of the pipe, which is what may be deleted. A reader takes what
//! the pipe holds in one read, whatever it then uses of it, so what was taken out says something of
//! one message only while the pipe holds no other: the caller writes the next once the pipe is
//! empty. Linux tells how full a pipe is; elsewhere what was written counts as taken.

use std::time::Duration;

use crate::interrupt::Interrupt;

/// The pipe buffer asked for when `--delete` writes into a pipe: one page, the least Linux allows.
const PIPE_BYTES: usize = 4096;

/// Whether stdout is a pipe or a socket, where a reader may stop early and what sits unread in
/// between is lost: not a file, a terminal or a device such as /dev/null.
pub fn stdout_is_stream() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
}

/// Asks for the smallest pipe buffer on stdout, so that little can sit unread between this process
/// and its reader. Only Linux can; elsewhere, and for a socket, the size stays.
pub fn shrink_pipe() {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsFd;
        let _ = rustix::pipe::fcntl_setpipe_size(std::io::stdout().as_fd(), PIPE_BYTES);
    }
}

/// How many of the messages just written (`ends`: the bytes written up to the end of each) the
/// reader has taken out of the pipe: waits until the pipe is empty, the reader went away, or the
/// grace period after Ctrl-C ran out (a reader that is still reading gets that long to take what
/// was already written). Where the pipe's fill cannot be read, everything written counts as taken.
pub async fn taken_by_reader(ends: &[u64], interrupt: &Interrupt) -> usize {
    use std::os::fd::AsFd;
    let Some(&written) = ends.last() else {
        return 0;
    };
    let stdout = std::io::stdout();
    let taken_when = |unread: u64| {
        let taken = written.saturating_sub(unread);
        ends.iter().take_while(|&&end| end <= taken).count()
    };
    let mut pause = Duration::from_millis(1);
    let grace_over = interrupt.grace_over();
    tokio::pin!(grace_over);
    loop {
        let Ok(unread) = rustix::io::ioctl_fionread(stdout.as_fd()) else {
            return ends.len();
        };
        if unread == 0 {
            return ends.len();
        }
        if reader_gone(&stdout) {
            return taken_when(unread);
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = &mut grace_over => {
                return rustix::io::ioctl_fionread(stdout.as_fd()).map_or(ends.len(), taken_when);
            }
        }
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Whether the read end of the stdout pipe was closed.
fn reader_gone(stdout: &std::io::Stdout) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(stdout, PollFlags::OUT)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match poll(&mut fds, Some(&now)) {
        Ok(_) => fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP),
        Err(_) => false,
    }
}
