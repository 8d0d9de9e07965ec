//! The `Printer`: the one owner of stdout and stderr.
//!
//! stdout carries data only (tables, JSON, JSON Lines, plain text); everything meant for a person
//! (progress bars, warnings, prompts, summaries) goes to stderr, and is silenced by `--quiet` except
//! warnings and errors. Commands never print directly.

pub mod counts;
pub mod diagnose;
pub mod diagnose_report;
pub mod diagnose_words;
pub mod document;
pub mod groups;
pub mod journals;
pub mod messages;
pub mod pipe;
pub mod query;
pub mod queues;
pub mod redrive;
pub mod rows;
pub mod sanitize;
pub mod table;
pub mod template;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parking_lot::Mutex;
use serde::Serialize;

use crate::client::KnownSecrets;
pub use crate::output::document::{Document, Fields, Row, pairs_table};
use crate::output::query::Query;
pub use crate::output::table::{Column, Table};

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
    /// The values of the credentials in use: left out of every line written, on stdout and on
    /// stderr, whoever echoed them.
    secrets: KnownSecrets,
    /// JSON Lines records `--query` was applied to, and those it found nothing in (left out).
    queried_records: AtomicU64,
    empty_records: AtomicU64,
}

impl Printer {
    /// The printer for the output options as given; a combination it cannot honour is refused
    /// with a message that names it (a usage error).
    pub fn new(
        format_arg: OutputFormat,
        color: ColorChoice,
        no_color_env: bool,
        quiet: bool,
        verbose: u8,
        terminal: Terminal,
        query: Option<Query>,
    ) -> Result<Printer, String> {
        // A query works on JSON, and its result is written as JSON or as text; `auto` then means
        // the JSON document, on a terminal and in a pipe alike, so that the expression sees the
        // same document wherever the output goes.
        let format = match format_arg {
            OutputFormat::Table if query.is_some() => {
                return Err(
                    "--query selects from the JSON output and cannot be combined with \
                     -o table: use -o json, -o jsonl or -o text with it"
                        .to_string(),
                );
            }
            OutputFormat::Auto if query.is_some() => Format::Json,
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
        Ok(Printer {
            format,
            requested: format_arg,
            quiet,
            verbose,
            color,
            terminal,
            stdout: Mutex::new(BufWriter::new(io::stdout())),
            query,
            secrets: KnownSecrets::default(),
            queried_records: AtomicU64::new(0),
            empty_records: AtomicU64::new(0),
        })
    }

    /// Ends the run's output: flushes stdout, and says on stderr how many JSON Lines records
    /// `--query` found nothing in, which were left out rather than written as `"data": null`.
    pub fn finish(&self) -> io::Result<()> {
        self.flush()?;
        let empty = self.empty_records.load(Ordering::Relaxed);
        if let Some(query) = &self.query
            && empty > 0
        {
            let of = self.queried_records.load(Ordering::Relaxed);
            self.info(format!(
                "--query `{}` found nothing in {empty} of {}, left out: with -o jsonl it applies to \
                 each record's data; -o json applies it to the whole document",
                query.text(),
                crate::text::plural(of, "record")
            ));
        }
        Ok(())
    }

    /// The printer, leaving the values `secrets` holds (and those added to it later, once the
    /// client resolved its credentials) out of everything it writes.
    pub fn with_secrets(mut self, secrets: KnownSecrets) -> Printer {
        self.secrets = secrets;
        self
    }

    /// `text` without the values of the credentials in use: what every line written passes.
    fn unsecret<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        self.secrets.redact(text)
    }

    /// Writes a command's result in the chosen format: `--query` applied to the JSON document
    /// (to each record's data with JSON Lines), text escaped on a terminal, tables fitted to it.
    /// A result that is one value is written alone where a person or a shell variable reads it.
    pub fn emit(&self, document: &Document) -> io::Result<()> {
        if let Some(value) = &document.value
            && self.query.is_none()
            && (self.format == Format::Text
                || (self.format == Format::Jsonl && self.requested == OutputFormat::Auto))
        {
            self.line(&self.display(value))?;
            return self.flush();
        }
        match self.format {
            Format::Json => match (&self.query, &document.json) {
                (_, None) => {}
                (Some(query), Some(json)) => {
                    let result = query.apply(&parse(json)?)?;
                    self.line(&serde_json::to_string_pretty(&result)?)?;
                }
                (None, Some(json)) => self.line(json)?,
            },
            Format::Jsonl => {
                for (kind, data) in &document.records {
                    self.write_raw_record(kind, data)?;
                }
            }
            Format::Text => match (&self.query, &document.json) {
                (Some(_), None) => {}
                (Some(query), Some(json)) => {
                    let result = query.apply(&parse(json)?)?;
                    self.query_text(&result)?;
                }
                (None, _) => {
                    for fields in &document.text {
                        self.fields(fields)?;
                    }
                }
            },
            Format::Table => {
                if let Some(value) = &document.value {
                    self.line(&self.display(value))?;
                }
                for table in document.tables.iter().filter(|t| !t.is_empty()) {
                    self.table(table)?;
                }
                for note in &document.notes {
                    self.line(&self.display(note))?;
                }
                for aside in &document.asides {
                    self.info(aside);
                }
            }
        }
        self.flush()
    }

    /// A record written as it happens: with JSON Lines, at once (a long run's results as they
    /// come); in any other format nothing, as the document at the end holds it.
    pub fn stream<T: Serialize>(&self, kind: &str, data: &T) -> io::Result<()> {
        if self.format == Format::Jsonl {
            self.write_raw_record(kind, &serde_json::to_string(data)?)?;
            self.flush()?;
        }
        Ok(())
    }

    /// Refuses what cannot go with a `--format` template: a query, and a format other than text
    /// (the template's lines are the text).
    /// Refuses a `--query` written for the AWS CLI's answer of a receive (`Messages[*].Body`) in
    /// a command whose query sees each message record: it would find nothing in any record and
    /// write nothing, with exit 0.
    pub fn check_message_query(&self) -> Result<(), crate::error::UsageError> {
        let Some(query) = &self.query else {
            return Ok(());
        };
        if query.root_field() != Some("Messages") {
            return Ok(());
        }
        let equivalent = query.aws_cli_equivalent().map_or_else(
            || "-o json writes the messages as one array".to_string(),
            |q| format!("here `{}` is --query '{q}'", query.text()),
        );
        Err(crate::error::UsageError(format!(
            "--query applies to each message record (message_id, body, attributes, message_attributes, group_id, receipt_handle, ...), not to the AWS CLI's {{\"Messages\": [...]}} answer, so `{}` would find nothing: {equivalent}",
            query.text()
        )))
    }

    pub fn check_template(
        &self,
        template: Option<&template::Template>,
    ) -> Result<(), crate::error::UsageError> {
        if template.is_none() {
            return Ok(());
        }
        if self.query.is_some() {
            return Err(crate::error::UsageError(
                "--format and --query both choose what to write for each message: use one".into(),
            ));
        }
        match self.requested {
            OutputFormat::Auto | OutputFormat::Text => Ok(()),
            other => Err(crate::error::UsageError(format!(
                "--format writes lines of text and cannot be combined with -o {}: leave -o out \
                 or use -o text",
                format_name(other)
            ))),
        }
    }

    /// The `--query` that applies to what is written, if one does.
    pub fn query(&self) -> Option<&Query> {
        self.query.as_ref()
    }

    /// Whether a `--query` applies to what is written.
    pub fn has_query(&self) -> bool {
        self.query.is_some()
    }

    /// A value as `--query` makes it: the expression's result, or the value itself without one.
    pub fn queried<T: Serialize>(&self, value: &T) -> io::Result<serde_json::Value> {
        match &self.query {
            Some(query) => query.apply(value),
            None => serde_json::to_value(value).map_err(io::Error::other),
        }
    }

    /// A query's result as lines of text on stdout (`-o text --query`).
    fn query_text(&self, value: &serde_json::Value) -> io::Result<()> {
        for line in query::text_lines(value) {
            self.line(&self.display(&line))?;
        }
        Ok(())
    }

    /// The format after `auto` was decided: for the writers of this module.
    pub(crate) fn format(&self) -> Format {
        self.format
    }

    /// Whether `--output` was left at `auto`.
    pub fn output_is_auto(&self) -> bool {
        self.requested == OutputFormat::Auto
    }

    pub fn terminal(&self) -> Terminal {
        self.terminal
    }

    /// The width tables are fitted to: the terminal's (or `COLUMNS`), a default on a terminal
    /// that does not tell, and none in a pipe.
    pub fn table_width(&self) -> Option<usize> {
        match self.terminal.width {
            Some(width) => Some(usize::from(width)),
            None if self.terminal.stdout_is_tty => Some(usize::from(FALLBACK_WIDTH)),
            None => None,
        }
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

    /// One JSON Lines record in the `{"type": kind, "data": ...}` envelope, `--query` applied to
    /// its data. A record whose result is null is not written (see [`Printer::finish`]).
    pub fn record<T: Serialize>(&self, kind: &str, data: &T) -> io::Result<()> {
        match &self.query {
            Some(query) => self.write_queried_record(kind, query.apply(data)?),
            None => self.write_envelope(kind, &serde_json::to_string(data)?),
        }
    }

    /// A record whose data is JSON text already; `--query` is applied here.
    fn write_raw_record(&self, kind: &str, data: &str) -> io::Result<()> {
        match &self.query {
            Some(query) => self.write_queried_record(kind, query.apply(&parse(data)?)?),
            None => self.write_envelope(kind, data),
        }
    }

    /// A record's data as `--query` made it: written, unless the expression found nothing in it.
    fn write_queried_record(&self, kind: &str, result: serde_json::Value) -> io::Result<()> {
        self.queried_records.fetch_add(1, Ordering::Relaxed);
        if result.is_null() {
            self.empty_records.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        self.write_envelope(kind, &serde_json::to_string(&result)?)
    }

    fn write_envelope(&self, kind: &str, data: &str) -> io::Result<()> {
        let kind = serde_json::to_string(kind)?;
        self.line(&format!("{{\"type\":{kind},\"data\":{data}}}"))
    }

    /// A line of text on stdout. The caller decides whether it needs [`Printer::display`]; on a
    /// terminal, whatever it holds is written without escape sequences (JSON stays valid JSON).
    pub fn line(&self, text: &str) -> io::Result<()> {
        let text = self.unsecret(text);
        let text = self.on_stdout(&text);
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
        let bytes = self.unsecret_bytes(bytes);
        let mut out = self.stdout.lock();
        out.write_all(&bytes)?;
        out.flush()
    }

    /// Bytes on stderr as they are (a worker command's own output), less the credentials in use.
    pub fn write_err_bytes(&self, bytes: &[u8]) -> io::Result<()> {
        let bytes = self.unsecret_bytes(bytes);
        let mut err = io::stderr().lock();
        err.write_all(&bytes)?;
        err.flush()
    }

    /// [`Printer::unsecret`] for bytes that may not be text: bytes that are not UTF-8 pass as
    /// they are (a credential is ASCII, but a line cut inside a character could hide one).
    fn unsecret_bytes<'a>(&self, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        use std::borrow::Cow;
        if self.secrets.is_empty() {
            return Cow::Borrowed(bytes);
        }
        match String::from_utf8_lossy(bytes) {
            Cow::Borrowed(text) => match self.unsecret(text) {
                Cow::Borrowed(_) => Cow::Borrowed(bytes),
                Cow::Owned(clean) => Cow::Owned(clean.into_bytes()),
            },
            // Not UTF-8 throughout: the valid text is checked, the bytes written as they came
            // unless a credential was found in it.
            Cow::Owned(lossy) => match self.unsecret(&lossy) {
                Cow::Borrowed(_) => Cow::Borrowed(bytes),
                Cow::Owned(clean) => Cow::Owned(clean.into_bytes()),
            },
        }
    }

    /// Text on stdout as is, without a newline (for output streamed in pieces, such as a JSON
    /// array written one element at a time).
    pub fn write_raw(&self, text: &str) -> io::Result<()> {
        self.write_raw_counted(text).map(|_| ())
    }

    /// [`Printer::write_raw`], saying how many bytes went to stdout: what a reader at the other
    /// end of a pipe must take, which is not `text`'s length where a credential was left out.
    pub fn write_raw_counted(&self, text: &str) -> io::Result<u64> {
        let text = self.unsecret(text);
        let text = self.on_stdout(&text);
        self.stdout.lock().write_all(text.as_bytes())?;
        Ok(text.len() as u64)
    }

    /// A table on stdout, fitted to the terminal. Cells that hold text from the service (message
    /// ids, queue names, error messages) are escaped by the table, whichever command filled them.
    pub fn table(&self, table: &Table) -> io::Result<()> {
        // Cells are cleaned before the table cuts them: a cut value is no longer found whole.
        let text = if self.secrets.is_empty() {
            table.render(self.table_width())
        } else {
            table
                .map_cells(|cell| self.unsecret(cell).into_owned())
                .render(self.table_width())
        };
        let mut out = self.stdout.lock();
        writeln!(out, "{text}")?;
        out.flush()
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
            stderr_line(self.talk(message.as_ref()));
        }
    }

    /// Text for stderr: without the credentials in use, and without escape sequences.
    fn talk(&self, text: &str) -> String {
        sanitize::for_terminal_lines(&self.unsecret(text)).into_owned()
    }

    /// A line on stderr shown with `-v`.
    pub fn debug(&self, message: impl AsRef<str>) {
        if self.verbose > 0 {
            let message = self.talk(message.as_ref());
            stderr_line(format_args!("{} {message}", self.paint("debug:", "2")));
        }
    }

    /// A warning on stderr, shown even with `--quiet`.
    pub fn warn(&self, message: impl AsRef<str>) {
        let message = self.talk(message.as_ref());
        stderr_line(format_args!("{} {message}", self.paint("warning:", "1;33")));
    }

    /// A warning that opens with a count, `3 messages could not ...`, when the count is not 0:
    /// `noun` is the thing counted, in the singular, and `rest` what happened to them.
    pub fn warn_count(&self, count: u64, noun: &str, rest: &str) {
        if count > 0 {
            self.warn(format!("{} {rest}", crate::text::plural(count, noun)));
        }
    }

    /// The warning that `count` messages (`which`: " passed over", " not written", or nothing)
    /// held by sqsctl could not be made visible again, and come back by themselves `when`
    /// ("within 30 seconds", "when the visibility timeout ends"). One wording for every command.
    pub fn warn_not_released(&self, count: u64, which: &str, when: &str) {
        if count > 0 {
            let they = if count == 1 {
                "it returns"
            } else {
                "they return"
            };
            self.warn(format!(
                "{}{which} could not be made visible again; {they} by itself {when}",
                crate::text::plural(count, "message")
            ));
        }
    }

    /// The warning that a `--where` expression failed on messages of `queue`, when it did.
    pub fn warn_where_failures(
        &self,
        failures: Option<&crate::select::WhereFailures>,
        queue: &str,
    ) {
        if let Some(failures) = failures {
            self.warn(format!(
                "--where failed on {} (not counted as matching; they stay in {queue}); the first error: {}",
                crate::text::plural(failures.messages, "message"),
                failures.first_error
            ));
        }
    }

    /// A `hint: ...` line on stderr after a warning, shown even with `--quiet`.
    pub fn hint(&self, message: impl AsRef<str>) {
        let message = self.talk(message.as_ref());
        stderr_line(format_args!("{} {message}", self.paint("hint:", "1;36")));
    }

    /// An error block: `error: ...`, each `Caused by: ...`, and an optional `hint: ...`.
    pub fn error(&self, message: &str, causes: &[String], hint: Option<&str>) {
        let message = self.talk(message);
        stderr_line(format_args!("{} {message}", self.paint("error:", "1;31")));
        for cause in causes {
            let cause = self.talk(cause);
            stderr_line(format_args!("  {} {cause}", self.paint("Caused by:", "1")));
        }
        if let Some(hint) = hint {
            let hint = self.talk(hint);
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
        eprint!("{} [y/N] ", self.talk(question));
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

/// Documents written one after another as a run goes (each refresh of `top`): with `-o json` one
/// array of their JSON documents, streamed (`--query` applied to each), closed by
/// [`Series::finish`]; in the other formats each document as [`Printer::emit`] writes it.
pub struct Series<'a> {
    printer: &'a Printer,
    written: u64,
}

impl<'a> Series<'a> {
    pub fn new(printer: &'a Printer) -> Series<'a> {
        Series {
            printer,
            written: 0,
        }
    }

    pub fn push(&mut self, document: &Document) -> io::Result<()> {
        let printer = self.printer;
        if printer.format != Format::Json {
            self.written += 1;
            return printer.emit(document);
        }
        let Some(json) = &document.json else {
            return Ok(());
        };
        let element = match &printer.query {
            Some(query) => serde_json::to_string(&query.apply(&parse(json)?)?)?,
            None => serde_json::to_string(&parse(json)?)?,
        };
        let lead = if self.written == 0 { "[\n  " } else { ",\n  " };
        printer.write_raw(&format!("{lead}{element}"))?;
        self.written += 1;
        printer.flush()
    }

    /// Closes the JSON array (an empty one when nothing was written).
    pub fn finish(self) -> io::Result<()> {
        if self.printer.format == Format::Json {
            let close = if self.written == 0 { "[]\n" } else { "\n]\n" };
            self.printer.write_raw(close)?;
        }
        self.printer.flush()
    }
}

/// How a command that runs other commands writes: their output passed through, or records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// The commands' own output, as they write it (`-o text`, and by default).
    Through,
    /// JSON Lines records of their output and of each outcome (`-o jsonl`).
    Records,
}

impl Printer {
    /// Whether a command that runs other commands (`consume`) passes their output through or
    /// writes records; a table or one JSON document it cannot write, and `--query` applies to
    /// records only.
    pub fn passing(&self, what: &str) -> Result<Passing, crate::error::UsageError> {
        match self.requested {
            OutputFormat::Jsonl => Ok(Passing::Records),
            OutputFormat::Auto | OutputFormat::Text if self.query.is_some() => {
                Err(crate::error::UsageError(format!(
                    "{what} applies --query to its JSON Lines records only: add -o jsonl"
                )))
            }
            OutputFormat::Auto | OutputFormat::Text => Ok(Passing::Through),
            other => Err(crate::error::UsageError(format!(
                "{what} writes its commands' output as it comes and cannot write -o {}: use -o \
                 jsonl for records, or -o text (the default) for the output itself",
                format_name(other)
            ))),
        }
    }

    /// The `--output` that gives another run of sqsctl this run's format (the demo's steps).
    pub fn output_args(&self) -> [String; 2] {
        let name = match self.format {
            Format::Table => "table",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Text => "text",
        };
        ["--output".to_string(), name.to_string()]
    }

    /// Refuses `--query` for a command whose output is not records (the demo's narration).
    pub fn refuse_query(&self, what: &str) -> Result<(), crate::error::UsageError> {
        match self.query {
            Some(_) => Err(crate::error::UsageError(format!(
                "{what} cannot apply --query: its output is a narration, not JSON records"
            ))),
            None => Ok(()),
        }
    }

    /// Whether a view that refreshes may take the whole screen: a table was asked for (or left
    /// to `auto`) on a terminal.
    /// Whether stderr's messages are coloured (`--color`, `NO_COLOR`): a full-screen view follows
    /// the same choice.
    pub fn uses_color(&self) -> bool {
        self.color
    }

    pub fn may_take_screen(&self) -> bool {
        self.format == Format::Table && self.terminal.stdout_is_tty
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

/// Width given to tables on a terminal whose width is unknown (a forced terminal).
const FALLBACK_WIDTH: u16 = 100;

fn parse(json: &str) -> io::Result<serde_json::Value> {
    serde_json::from_str(json).map_err(io::Error::other)
}

/// `--output`'s spelling of a format.
fn format_name(format: OutputFormat) -> &'static str {
    match format {
        OutputFormat::Auto => "auto",
        OutputFormat::Table => "table",
        OutputFormat::Json => "json",
        OutputFormat::Jsonl => "jsonl",
        OutputFormat::Text => "text",
    }
}
