//! The `Printer`: the one owner of stdout and stderr.
//!
//! stdout carries data only (tables, JSON, JSON Lines, plain text); everything meant for a person
//! (progress bars, warnings, prompts, summaries) goes to stderr, and is silenced by `--quiet` except
//! warnings and errors. Commands never print directly.

pub mod messages;
pub mod query;
pub mod sanitize;
pub mod template;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parking_lot::Mutex;
use serde::Serialize;

use crate::message::Envelope;
use crate::output::query::Query;

/// `--output` as the user gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A table on a terminal, JSON Lines when piped.
    Auto,
    /// A table, also when piped.
    Table,
    /// One JSON document.
    Json,
    /// One JSON record per line, each `{"type": ..., "data": ...}`.
    Jsonl,
    /// Plain text: message bodies one per line, or tab-separated columns.
    Text,
}

/// The format after `auto` was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Jsonl,
    Text,
}

/// `--color` as the user gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Terminal facts, decided once in `app` (tests can force a terminal with an environment switch).
#[derive(Debug, Clone, Copy)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    pub stderr_is_tty: bool,
    pub stdin_is_tty: bool,
    /// The width of the terminal stdout writes to, in columns, when known.
    pub width: Option<u16>,
}

impl Terminal {
    pub fn detect() -> Terminal {
        Terminal {
            stdout_is_tty: io::stdout().is_terminal(),
            stderr_is_tty: io::stderr().is_terminal(),
            stdin_is_tty: io::stdin().is_terminal(),
            width: stdout_width(),
        }
    }

    pub fn all() -> Terminal {
        Terminal {
            stdout_is_tty: true,
            stderr_is_tty: true,
            stdin_is_tty: true,
            width: None,
        }
    }
}

/// The window size of the terminal on stdout, if stdout is one.
fn stdout_width() -> Option<u16> {
    let stdout = io::stdout();
    if !stdout.is_terminal() {
        return None;
    }
    rustix::termios::tcgetwinsize(&stdout)
        .ok()
        .map(|size| size.ws_col)
        .filter(|&cols| cols > 0)
}

/// Why stdout cannot take data that a command is about to act on (delete once written).
#[derive(Debug, thiserror::Error)]
pub enum StdoutUnusable {
    /// The process started with stdout closed (`>&-`): the runtime put /dev/null in its place, so
    /// every write would "succeed" into nothing.
    #[error("stdout is closed (the run was started with `>&-` or without a stdout)")]
    Closed,
    /// Stdout was opened for reading only: the runtime reports such writes as done.
    #[error("stdout is open for reading only")]
    ReadOnly,
}

/// Checks that what is written to stdout can reach somewhere. Rust's runtime replaces a closed
/// stdout with /dev/null opened read-write at start (a shell's `> /dev/null` opens it write-only,
/// which is the user's own choice and passes), and it reports writes to a read-only stdout as
/// done: both would let a command act on output that went nowhere.
pub fn check_stdout() -> Result<(), StdoutUnusable> {
    use rustix::fs::{FileType, OFlags};
    let stdout = io::stdout();
    let Ok(flags) = rustix::fs::fcntl_getfl(&stdout) else {
        return Err(StdoutUnusable::Closed);
    };
    let mode = flags & OFlags::ACCMODE;
    if mode == OFlags::RDONLY {
        return Err(StdoutUnusable::ReadOnly);
    }
    let stat = rustix::fs::fstat(&stdout).map_err(|_| StdoutUnusable::Closed)?;
    let is_null = FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice
        && rustix::fs::major(stat.st_rdev) == 1
        && rustix::fs::minor(stat.st_rdev) == 3;
    if is_null && mode == OFlags::RDWR {
        return Err(StdoutUnusable::Closed);
    }
    Ok(())
}

pub struct Printer {
    format: Format,
    /// `--output` as given, before `auto` was decided.
    requested: OutputFormat,
    quiet: bool,
    verbose: u8,
    color: bool,
    terminal: Terminal,
    stdout: Mutex<BufWriter<io::Stdout>>,
    query: Option<Query>,
    /// `-o text` with `--query`: commands write JSON, and the query's result is written as text.
    query_as_text: bool,
}

impl Printer {
    pub fn new(
        format_arg: OutputFormat,
        color: ColorChoice,
        no_color_env: bool,
        quiet: bool,
        verbose: u8,
        terminal: Terminal,
        query: Option<Query>,
    ) -> Printer {
        // A query works on JSON: a table has none to work on, so it gives way to JSON, and text
        // is the query's result written as text.
        let format = format_arg;
        let query_as_text = query.is_some() && format == OutputFormat::Text;
        let format = match format {
            OutputFormat::Auto | OutputFormat::Table | OutputFormat::Text if query.is_some() => {
                if format == OutputFormat::Auto && !terminal.stdout_is_tty {
                    Format::Jsonl
                } else {
                    Format::Json
                }
            }
            OutputFormat::Auto if terminal.stdout_is_tty => Format::Table,
            OutputFormat::Auto | OutputFormat::Jsonl => Format::Jsonl,
            OutputFormat::Table => Format::Table,
            OutputFormat::Json => Format::Json,
            OutputFormat::Text => Format::Text,
        };
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stderr_is_tty && !no_color_env,
        };
        Printer {
            format,
            requested: format_arg,
            quiet,
            verbose,
            color,
            terminal,
            stdout: Mutex::new(BufWriter::new(io::stdout())),
            query,
            query_as_text,
        }
    }

    /// Whether a `--query` applies to what is written as JSON.
    pub fn has_query(&self) -> bool {
        self.query.is_some()
    }

    /// Whether `-o text` writes a `--query`'s result: JSON documents then come out as lines of
    /// text (see [`query::text_lines`]).
    pub fn query_as_text(&self) -> bool {
        self.query_as_text
    }

    /// A value as `--query` makes it: the expression's result, or the value itself without one.
    pub fn queried<T: Serialize>(&self, value: &T) -> io::Result<serde_json::Value> {
        match &self.query {
            Some(query) => query.apply(value),
            None => serde_json::to_value(value).map_err(io::Error::other),
        }
    }

    /// A query's result as lines of text on stdout (`-o text --query`).
    pub fn query_text(&self, value: &serde_json::Value) -> io::Result<()> {
        for line in query::text_lines(value) {
            self.line(&self.display(&line))?;
        }
        Ok(())
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// `--output` as given: for commands whose default output is not records even in a pipe
    /// (`consume` passes its commands' output through unless `-o jsonl` asks for records).
    pub fn requested_format(&self) -> OutputFormat {
        self.requested
    }

    pub fn terminal(&self) -> Terminal {
        self.terminal
    }

    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    pub fn verbosity(&self) -> u8 {
        self.verbose
    }

    /// Whether text written to stdout lands on a terminal (and so must be sanitized).
    pub fn stdout_is_terminal(&self) -> bool {
        self.terminal.stdout_is_tty
    }

    /// Text for stdout, sanitized when stdout is a terminal and raw when piped.
    pub fn display<'a>(&self, untrusted: &'a str) -> std::borrow::Cow<'a, str> {
        if self.terminal.stdout_is_tty {
            sanitize::for_terminal(untrusted)
        } else {
            std::borrow::Cow::Borrowed(untrusted)
        }
    }

    /// One JSON Lines record in the `{"type": kind, "data": ...}` envelope.
    pub fn record<T: Serialize>(&self, kind: &str, data: &T) -> io::Result<()> {
        if self.query.is_some() {
            let data = self.queried(data)?;
            return self.write_record(kind, &data);
        }
        self.write_record(kind, data)
    }

    fn write_record<T: Serialize>(&self, kind: &str, data: &T) -> io::Result<()> {
        let envelope = Envelope {
            kind: kind.to_string(),
            data,
        };
        if self.terminal.stdout_is_tty {
            let text = serde_json::to_string(&envelope)?;
            return self.line(&text);
        }
        let mut out = self.stdout.lock();
        serde_json::to_writer(&mut *out, &envelope)?;
        out.write_all(b"\n")
    }

    /// A whole JSON document, pretty-printed.
    pub fn json<T: Serialize>(&self, value: &T) -> io::Result<()> {
        if self.query.is_some() {
            let result = self.queried(value)?;
            if self.query_as_text {
                self.query_text(&result)?;
                return self.flush();
            }
            let text = serde_json::to_string_pretty(&result)?;
            self.line(&text)?;
            return self.flush();
        }
        let text = serde_json::to_string_pretty(value)?;
        self.line(&text)?;
        self.flush()
    }

    /// A line of text on stdout. The caller decides whether it needs [`Printer::display`]; on a
    /// terminal, whatever it holds is written without escape sequences (JSON stays valid JSON).
    pub fn line(&self, text: &str) -> io::Result<()> {
        let text = self.on_stdout(text);
        let mut out = self.stdout.lock();
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")
    }

    /// One line of tab-separated fields on stdout (`-o text`). Each field is made safe for a
    /// terminal on its own, so the separators stay real tabs where a field's own tabs and line
    /// breaks are escaped.
    pub fn fields<S: AsRef<str>>(&self, fields: &[S]) -> io::Result<()> {
        let line = fields
            .iter()
            .map(|field| self.display(field.as_ref()))
            .collect::<Vec<_>>()
            .join("\t");
        self.line(&line)
    }

    /// Text bound for stdout, made safe for a terminal when stdout is one. JSON escapes keep JSON
    /// valid, and already escaped text is left as it is.
    fn on_stdout<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.terminal.stdout_is_tty {
            sanitize::json_for_terminal(text)
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// Bytes on stdout exactly as given, flushed: another program's output passed through.
    pub fn write_bytes(&self, bytes: &[u8]) -> io::Result<()> {
        let mut out = self.stdout.lock();
        out.write_all(bytes)?;
        out.flush()
    }

    /// Text on stdout as is, without a newline (for output streamed in pieces, such as a JSON
    /// array written one element at a time).
    pub fn write_raw(&self, text: &str) -> io::Result<()> {
        let text = self.on_stdout(text);
        self.stdout.lock().write_all(text.as_bytes())
    }

    /// A table on stdout. Cells that hold text from the service (message ids, queue names, error
    /// messages) are escaped here, whichever command filled them.
    pub fn table(&self, table: &comfy_table::Table) -> io::Result<()> {
        let text = table.to_string();
        let text = if self.terminal.stdout_is_tty {
            sanitize::for_terminal_lines(&text)
        } else {
            std::borrow::Cow::Borrowed(text.as_str())
        };
        let mut out = self.stdout.lock();
        writeln!(out, "{text}")?;
        out.flush()
    }

    /// A table with the project's style: header row, no colour unless enabled.
    pub fn new_table(&self, header: &[&str]) -> comfy_table::Table {
        let mut table = comfy_table::Table::new();
        table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
        table.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
        if !self.color {
            table.force_no_tty();
        }
        table.set_header(header.iter().map(comfy_table::Cell::new));
        table
    }

    /// Flushes stdout. Commands that delete after output call this first, so nothing is deleted
    /// that did not reach its reader.
    pub fn flush(&self) -> io::Result<()> {
        self.stdout.lock().flush()
    }

    // Everything on stderr is talk for a person, and much of it quotes text from elsewhere (a
    // server's error message, a queue name, an argument as typed): it is always written without
    // escape sequences, on a terminal or in a log that a terminal may show later.

    /// An informational line on stderr, unless `--quiet`.
    pub fn info(&self, message: impl AsRef<str>) {
        if !self.quiet {
            stderr_line(sanitize::for_terminal_lines(message.as_ref()));
        }
    }

    /// A line on stderr shown with `-v`.
    pub fn debug(&self, message: impl AsRef<str>) {
        if self.verbose > 0 {
            let message = sanitize::for_terminal_lines(message.as_ref());
            stderr_line(format_args!("{} {message}", self.paint("debug:", "2")));
        }
    }

    /// A warning on stderr, shown even with `--quiet`.
    pub fn warn(&self, message: impl AsRef<str>) {
        let message = sanitize::for_terminal_lines(message.as_ref());
        stderr_line(format_args!("{} {message}", self.paint("warning:", "1;33")));
    }

    /// A `hint: ...` line on stderr after a warning, shown even with `--quiet`.
    pub fn hint(&self, message: impl AsRef<str>) {
        let message = sanitize::for_terminal_lines(message.as_ref());
        stderr_line(format_args!("{} {message}", self.paint("hint:", "1;36")));
    }

    /// An error block: `error: ...`, each `Caused by: ...`, and an optional `hint: ...`.
    pub fn error(&self, message: &str, causes: &[String], hint: Option<&str>) {
        let message = sanitize::for_terminal_lines(message);
        stderr_line(format_args!("{} {message}", self.paint("error:", "1;31")));
        for cause in causes {
            let cause = sanitize::for_terminal_lines(cause);
            stderr_line(format_args!("  {} {cause}", self.paint("Caused by:", "1")));
        }
        if let Some(hint) = hint {
            let hint = sanitize::for_terminal_lines(hint);
            stderr_line(format_args!("{} {hint}", self.paint("hint:", "1;36")));
        }
    }

    fn paint(&self, text: &str, sgr: &str) -> String {
        if self.color {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A progress bar on stderr, hidden unless stderr is a terminal and not `--quiet`.
    /// `len` 0 makes a spinner.
    pub fn progress(&self, len: u64, template: &str) -> ProgressBar {
        if self.quiet || !self.terminal.stderr_is_tty {
            return ProgressBar::hidden();
        }
        let bar = if len == 0 {
            ProgressBar::new_spinner()
        } else {
            ProgressBar::new(len)
        };
        // A command that stops early (an error, Ctrl-C) drops its bar unfinished: the line is
        // cleared then too, not left above what comes next.
        let bar = bar.with_finish(indicatif::ProgressFinish::AndClear);
        bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
        if let Ok(style) = ProgressStyle::with_template(template) {
            // `{rate}`: per second, whole numbers (indicatif's `{per_sec}` shows four decimals).
            let rate = |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = write!(out, "{:.0}/s", state.per_sec());
            };
            bar.set_style(style.progress_chars("=> ").with_key("rate", rate));
        }
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        bar
    }

    /// Asks a yes/no question on the terminal. While the question is open, Ctrl-C ends the
    /// process at once with nothing changed (see [`prompt_is_open`]); end of input cancels too.
    pub fn confirm(&self, question: &str) -> io::Result<Answer> {
        if !(self.terminal.stdin_is_tty && self.terminal.stderr_is_tty) {
            return Ok(Answer::NoTerminal);
        }
        let _open = OpenPrompt::new();
        eprint!("{} [y/N] ", sanitize::for_terminal_lines(question));
        io::stderr().flush()?;
        let mut answer = String::new();
        let read = read_stdin_line(&mut answer)?;
        if read == 0 {
            eprintln!();
            return Ok(Answer::Cancelled);
        }
        Ok(
            if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                Answer::Yes
            } else {
                Answer::No
            },
        )
    }
}

/// What a confirmation prompt got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// End of input at the prompt: nothing is done, as for Ctrl-C.
    Cancelled,
    /// There is no terminal to ask on (the caller then requires `--yes`).
    NoTerminal,
}

static PROMPT_OPEN: AtomicBool = AtomicBool::new(false);

/// Writes a line to stderr, ignoring a failure: stderr may be a terminal that was closed (SIGHUP)
/// or a pipe nobody reads any more, and losing talk must not end a run that is still settling its
/// messages, as the panic of `eprintln!` would.
pub fn stderr_line(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// True while a confirmation prompt waits for an answer: nothing has been changed yet, so Ctrl-C
/// may end the process at once.
pub fn prompt_is_open() -> bool {
    PROMPT_OPEN.load(Ordering::SeqCst)
}

struct OpenPrompt;

impl OpenPrompt {
    fn new() -> OpenPrompt {
        PROMPT_OPEN.store(true, Ordering::SeqCst);
        OpenPrompt
    }
}

impl Drop for OpenPrompt {
    fn drop(&mut self) {
        PROMPT_OPEN.store(false, Ordering::SeqCst);
    }
}

/// Reads a line from stdin. On the multi-threaded runtime the read tells the runtime it blocks, so
/// the Ctrl-C handler keeps running on another worker while a person thinks.
fn read_stdin_line(answer: &mut String) -> io::Result<usize> {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_thread {
        tokio::task::block_in_place(|| io::stdin().read_line(answer))
    } else {
        io::stdin().read_line(answer)
    }
}

/// Width given to tables whose terminal width is unknown (piped, or a forced terminal), so long
/// evidence wraps instead of making one very wide line.
const FALLBACK_WIDTH: u16 = 100;

/// Gives a table a width when the terminal's cannot be detected.
pub fn fit_width(table: &mut comfy_table::Table) {
    if table.width().is_none() {
        table.set_width(FALLBACK_WIDTH);
    }
}
