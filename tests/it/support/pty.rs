//! The binary on a pseudo-terminal, for what only a terminal shows: prompts, tables, and Ctrl-C
//! typed as a key.

use std::io::Write;

use super::{BIN, TestEnv};

/// The pseudo-terminal's size.
const ROWS: u16 = 40;
const COLS: u16 = 200;

/// The binary on a pseudo-terminal: what a person at a terminal sees and types, Ctrl-C included
/// (a `\x03` written to the terminal reaches the process as SIGINT, as from a keyboard).
pub struct PtyRun {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    screen: std::sync::Arc<std::sync::Mutex<String>>,
    // Kept open so the terminal is not closed under the child.
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl TestEnv {
    /// Starts the binary on a pseudo-terminal, with the same cleared environment as [`TestEnv::cmd`]
    /// plus `extra_env`.
    pub fn pty(&self, args: &[&str], extra_env: &[(&str, &str)]) -> PtyRun {
        use portable_pty::{CommandBuilder, PtySize, native_pty_system};
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal opens");
        let mut cmd = CommandBuilder::new(BIN);
        cmd.env_clear();
        let template = self.cmd();
        for (key, value) in template.get_envs() {
            if let Some(value) = value {
                cmd.env(key, value);
            }
        }
        for (key, value) in extra_env {
            cmd.env(key, value);
        }
        cmd.args(args);
        cmd.cwd(self.home());
        let child = pair.slave.spawn_command(cmd).expect("binary starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let screen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = screen.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut reader, &mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        PtyRun {
            child,
            writer,
            screen,
            _master: pair.master,
        }
    }
}

impl PtyRun {
    /// Everything the terminal has shown so far.
    pub fn screen(&self) -> String {
        self.screen.lock().unwrap().clone()
    }

    /// Waits until the terminal shows `text`; panics with the screen after `secs`.
    #[track_caller]
    pub fn expect(&self, text: &str, secs: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        while std::time::Instant::now() < deadline {
            if self.screen().contains(text) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!(
            "the terminal never showed {text:?}; it shows:\n{}",
            self.screen()
        );
    }

    /// What a full-screen view shows now: the bytes written so far, played through a terminal
    /// emulator of the pseudo-terminal's size (ratatui redraws only the cells that changed).
    pub fn rendered(&self) -> String {
        let mut parser = vt100::Parser::new(ROWS, COLS, 0);
        parser.process(self.screen().as_bytes());
        parser.screen().contents()
    }

    /// Waits until [`PtyRun::rendered`] shows `text`; panics with the screen after `secs`.
    #[track_caller]
    pub fn expect_rendered(&self, text: &str, secs: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        while std::time::Instant::now() < deadline {
            if self.rendered().contains(text) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!(
            "the screen never showed {text:?}; it shows:\n{}",
            self.rendered()
        );
    }

    /// The process id of the binary, to send it signals.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("the binary runs")
    }

    /// Types `bytes` (`"\x03"` is Ctrl-C, `"\x04"` end of input at the start of a line).
    pub fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).expect("typed");
        self.writer.flush().expect("typed");
    }

    /// Waits for the process to end and returns its exit code; kills it and panics after `secs`.
    #[track_caller]
    pub fn wait(&mut self, secs: u64) -> u32 {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("child status") {
                // Let the reader thread take the last of the output.
                std::thread::sleep(std::time::Duration::from_millis(100));
                return status.exit_code();
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!(
            "still running after {secs} s; the terminal shows:\n{}",
            self.screen()
        );
    }
}
