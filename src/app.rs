//! The program's edge: parse the command line, build the [`Context`], dispatch, and turn the
//! outcome into an exit code. Errors are classified once, here, and printed as `error:`, each
//! `Caused by:`, and a `hint:` where the usual cause is known.

use std::time::Duration;

use crate::cli::{Cli, Command};
use crate::client::ClientError;
use crate::client::peek::PeekError;
use crate::commands::context::Context;
use crate::error::{Cancelled, CommandHint, Declined, HintedError, UsageError};
use crate::exit::ExitStatus;
use crate::interrupt::{Interrupt, StopSignal};
use crate::output::{Printer, Terminal, stderr_line};
use crate::settings::{Environment, GlobalSettings};

pub fn main() -> std::process::ExitCode {
    // `COMPLETE=bash sqsctl` prints the completion script, and the script calls back here with
    // the words typed so far: answered, then the process exits.
    clap_complete::CompleteEnv::with_factory(crate::cli::command).complete();
    let mut command = crate::cli::command();
    // Parsed in place: a copy of the whole command tree is a measurable part of a short run.
    let cli = match command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(err) => {
            let err = crate::cli::wrong_names::with_command_tip(err, &command);
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            // A usage error quotes the argument as typed: when an argument carries control
            // characters, the error is printed as plain text (clap's plain rendering drops escape
            // sequences; what is left is escaped), without clap's colours.
            let hostile =
                std::env::args_os().any(|a| a.to_string_lossy().chars().any(char::is_control));
            if err.use_stderr() && hostile {
                let plain = err.render().to_string();
                eprint!("{}", crate::output::sanitize::for_terminal_lines(&plain));
            } else {
                let _ = err.print();
            }
            return if err.use_stderr() {
                ExitStatus::Usage.into()
            } else {
                ExitStatus::Success.into()
            };
        }
    };
    // The tree is not needed past parsing; freeing its thousands of parts would cost a short
    // command a measurable part of its run just before it exits.
    std::mem::forget(command);
    // A `consume` run's watchdog only waits on a pipe: no runtime, no signal handling of ours.
    if matches!(cli.command, Command::ConsumeWatchdog) {
        return crate::commands::consume::watchdog::serve().into();
    }
    // Read before the runtime starts, which would panic on a value it cannot use.
    let worker_threads = match crate::settings::worker_threads(
        std::env::var(crate::settings::WORKER_THREADS_ENV).ok(),
    ) {
        Ok(threads) => threads,
        Err(message) => {
            eprintln!(
                "error: {}",
                crate::output::sanitize::for_terminal_lines(&message)
            );
            return ExitStatus::Usage.into();
        }
    };
    // A one-shot command runs on this thread alone: starting worker threads and handing the work
    // to them would cost more than the command itself.
    let one_shot = is_one_shot(&cli.command);
    let mut builder = if one_shot {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    if !one_shot && let Some(threads) = client_threads(&cli, worker_threads) {
        builder.worker_threads(threads);
    }
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: could not start the async runtime: {err}");
            return ExitStatus::Failure.into();
        }
    };
    // The command runs as a task on the runtime's workers, beside the tasks it spawns, instead of
    // on this thread: fewer hand-offs between threads for every batch in flight.
    let status = runtime.block_on(async move {
        if one_shot {
            return run(cli).await;
        }
        match tokio::spawn(run(cli)).await {
            Ok(status) => status,
            Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
            Err(_) => ExitStatus::Failure,
        }
    });
    if one_shot {
        // Its request was answered and its output written: what the runtime still holds (an idle
        // connection, the signal listener) ends with the process. Shutting it down first would
        // cost a one-message send about 0.12 ms, a twentieth of what it adds to a start.
        std::mem::forget(runtime);
    } else {
        // Background work (long polls, the local server) must not keep the process alive.
        runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    }
    status.into()
}

/// Most runtime threads a client command uses. It waits on the network: a few threads keep up
/// with thousands of requests in flight, and each thread more costs memory (the allocator gives
/// every thread its own heap), which a redrive of millions of messages on a many-core machine
/// would feel.
const CLIENT_THREADS: usize = 4;

/// The runtime threads of a command: `None` (one per core) for the local server, which serves
/// whatever its clients send; an explicit `TOKIO_WORKER_THREADS` (`requested`); at most
/// [`CLIENT_THREADS`] otherwise.
fn client_threads(cli: &Cli, requested: Option<usize>) -> Option<usize> {
    if requested.is_some() {
        return requested;
    }
    if matches!(cli.command, Command::Local(_)) {
        return None;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    Some(cores.min(CLIENT_THREADS))
}

async fn run(cli: Cli) -> ExitStatus {
    let env = Environment::read();
    let secrets = env.secrets.clone();
    let mut settings = match GlobalSettings::resolve(cli.aws, cli.global, env, Terminal::detect()) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!(
                "error: {}",
                crate::output::sanitize::for_terminal_lines(&secrets.redact(&message))
            );
            return ExitStatus::Usage;
        }
    };
    if let Some(cache) = &mut settings.aws.queue_url_cache {
        cache.serve = serves_cached_queue_urls(&cli.command);
    }
    let interrupt = Interrupt::with_grace(settings.grace);
    spawn_signal_handler(interrupt.clone());
    let ctx = Context::new(settings.printer, settings.aws, interrupt).with_editor(settings.editor);
    let result = crate::commands::dispatch(&ctx, cli.command).await;
    let flushed = ctx.printer.finish();
    let status =
        match result.and_then(|status| flushed.map(|()| status).map_err(anyhow::Error::from)) {
            Ok(status) => status,
            Err(err) => report(&ctx.printer, &err),
        };
    // Commands say "interrupted"; the signal that did it picks the code.
    match (status, ctx.interrupt.stopped_by()) {
        (ExitStatus::Interrupted, Some(signal)) => ExitStatus::stopped_by(signal),
        (status, _) => status,
    }
}

/// Whether a queue given by name resolves from the remembered URLs (skipping `GetQueueUrl`): for
/// one message sent, whose calls on the queue (the send, and the attributes of a FIFO queue) the
/// client makes again at the looked-up URL when the remembered one has no queue, so a stale entry
/// fails as a lookup would. Other commands prompt first, start many calls at once, or make calls
/// the client does not make again, and look the name up (keeping the cache current).
fn serves_cached_queue_urls(command: &Command) -> bool {
    matches!(command, Command::Send(send) if !send.lines && !send.jsonl)
}

/// Whether the command makes a request or two and ends (one message sent): it runs on a
/// current-thread runtime.
fn is_one_shot(command: &Command) -> bool {
    serves_cached_queue_urls(command)
}

/// How long after the grace period a command that still has not returned is stopped regardless:
/// time for it to write what it knows (a summary, a journal line) once its requests are abandoned.
const WRAP_UP: Duration = Duration::from_secs(2);

/// Ctrl-C, SIGTERM and SIGHUP, alike but for the exit code (128 + the first signal's number): at
/// a confirmation prompt, the first ends the process at once (nothing was changed yet). During
/// work, the first stops new work and gives requests in flight the grace period; a second (any of
/// the three), or the grace period running out, ends the process. Work abandoned so has an
/// unknown outcome, and commands that leave a journal have said how to resume ([`on_abort`]). A
/// command that stops its own work on the second signal (`consume` kills its child processes and
/// releases their messages) gets a moment for that first. A service manager's SIGTERM and a closed
/// terminal's SIGHUP so stop a command as cleanly as Ctrl-C does, instead of killing it mid-batch.
fn spawn_signal_handler(interrupt: Interrupt) {
    // Listening starts here, before the command runs: a signal that comes at once (right after a
    // server said it listens) is handled like any other, not by the signal's default action.
    let Some(mut signals) = StopSignals::listen() else {
        return;
    };
    tokio::spawn(async move {
        let first = loop {
            let Some(signal) = signals.next().await else {
                return;
            };
            // Ctrl-C typed in an editor that `browse` opened is the editor's.
            if !(signal == StopSignal::Interrupt && crate::commands::keys::terminal_is_lent()) {
                break signal;
            }
        };
        let code = i32::from(ExitStatus::stopped_by(first).code());
        if crate::output::prompt_is_open() {
            stderr_line("\ncancelled: nothing was changed");
            std::process::exit(code);
        }
        let grace = humantime::format_duration(interrupt.grace());
        stderr_line(match first {
            StopSignal::Interrupt => format!(
                "\nstopping: no new work; requests in flight have {grace} to finish (press Ctrl-C again to stop at once)"
            ),
            other => format!(
                "\nstopping on {}: no new work; requests in flight have {grace} to finish (a second signal or Ctrl-C stops at once)",
                other.name()
            ),
        });
        interrupt.trigger_by(first);
        let why = tokio::select! {
            second = signals.next() => if second.is_some() {
                if interrupt.abort_is_handled() {
                    // The command stops its own work (kills its children, releases what they
                    // held) and returns; this is the limit on how long that may take.
                    interrupt.abort();
                    tokio::time::sleep(WRAP_UP).await;
                }
                "aborted".to_string()
            } else {
                return;
            },
            () = tokio::time::sleep(interrupt.grace() + WRAP_UP) => format!(
                "stopped: requests in flight did not finish within {grace}; their outcome is unknown"
            ),
        };
        stderr_line(why);
        if let Some(note) = crate::interrupt::abort_note() {
            stderr_line(format_args!("hint: {note}"));
        }
        std::process::exit(code);
    });
}

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP, listened for from the moment [`StopSignals::listen`]
/// returns: from then on none of them has its default action (ending the process at once).
struct StopSignals {
    #[cfg(unix)]
    listening: [(StopSignal, tokio::signal::unix::Signal); 3],
}

impl StopSignals {
    fn listen() -> Option<StopSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |signal_kind: SignalKind, stop: StopSignal| {
                signal(signal_kind).ok().map(|listening| (stop, listening))
            };
            Some(StopSignals {
                listening: [
                    listen(SignalKind::interrupt(), StopSignal::Interrupt)?,
                    listen(SignalKind::terminate(), StopSignal::Terminate)?,
                    listen(SignalKind::hangup(), StopSignal::HangUp)?,
                ],
            })
        }
        #[cfg(not(unix))]
        {
            Some(StopSignals {})
        }
    }

    /// Resolves at the next of the signals; `None` when no more can come.
    async fn next(&mut self) -> Option<StopSignal> {
        #[cfg(unix)]
        {
            let [int, term, hup] = &mut self.listening;
            tokio::select! {
                Some(()) = int.1.recv() => Some(int.0),
                Some(()) = term.1.recv() => Some(term.0),
                Some(()) = hup.1.recv() => Some(hup.0),
                else => None,
            }
        }
        #[cfg(not(unix))]
        {
            tokio::signal::ctrl_c()
                .await
                .ok()
                .map(|()| StopSignal::Interrupt)
        }
    }
}

/// Prints an error and chooses the exit code for it.
pub fn report(printer: &Printer, err: &anyhow::Error) -> ExitStatus {
    if is_broken_pipe(err) {
        return ExitStatus::Success;
    }
    if err.chain().any(|cause| cause.is::<Cancelled>()) {
        printer.info(err.to_string());
        return ExitStatus::Interrupted;
    }
    // A "no" is an answer, not an error: said as such, with its own code.
    if err.chain().any(|cause| cause.is::<Declined>()) {
        printer.info(err.to_string());
        return ExitStatus::Declined;
    }
    // Every line printed here may quote an endpoint (an SDK message, a foreign body): none may
    // carry a credential it echoed.
    let redacted = |text: String| crate::client::redact_secrets(&text).into_owned();
    let mut causes: Vec<String> = Vec::new();
    for cause in err.chain().skip(1) {
        let text = redacted(cause.to_string());
        if !causes.contains(&text) && text != redacted(err.to_string()) {
            causes.push(text);
        }
    }
    // The outermost hint wins: a command's hint knows its own options better than an engine's.
    let hint = err.chain().find_map(crate::hints::of);
    let message = redacted(refusal_message(err).unwrap_or_else(|| err.to_string()));
    printer.error(&message, &causes, hint.as_deref());
    // What the SDK said, for `--verbose`: error codes and messages only, never the request.
    for cause in err.chain() {
        match client_error(cause) {
            Some(ClientError::NoCredentials { detail, .. }) => {
                printer.debug(redacted(format!("credential provider chain: {detail}")))
            }
            Some(client) => {
                if let Some(code) = client.code() {
                    printer.debug(redacted(format!("error code: {code}")));
                }
            }
            None => {}
        }
    }
    let usage = |c: &(dyn std::error::Error + 'static)| {
        c.is::<UsageError>()
            || c.downcast_ref::<HintedError>().is_some_and(|h| h.usage)
            || matches!(
                client_error(c),
                Some(
                    ClientError::InvalidEndpoint { .. }
                        | ClientError::InvalidEndpointVariable { .. }
                        | ClientError::EndpointRules { .. }
                )
            )
    };
    if err.chain().any(usage) {
        ExitStatus::Usage
    } else {
        ExitStatus::Failure
    }
}

/// The guard's refusal to read a queue, in the words every command uses for it: the limit and
/// the dead-letter queue are what the user needs to judge `--force`.
fn refusal_message(err: &anyhow::Error) -> Option<String> {
    let refusal = err.chain().find(|cause| !cause.is::<CommandHint>())?;
    match refusal.downcast_ref::<PeekError>()? {
        PeekError::WouldDeadLetter {
            queue,
            dlq,
            max_receive_count,
        } => Some(format!(
            "refusing to read `{queue}`: its redrive policy moves a message to `{dlq}` after maxReceiveCount {}, and every read counts as a receive, so a read could take a consumer's last try",
            crate::text::plural(u64::from(*max_receive_count), "receive")
        )),
        PeekError::LeftAtLimit {
            queue,
            dlq,
            max_receive_count,
            left,
        } => Some(format!(
            "refusing to read `{queue}`: the last read by sqsctl ({}) left {} at maxReceiveCount {max_receive_count}, and every read counts as a receive, so reading again would move {} to `{dlq}`",
            crate::text::format_millis(left.ended_ms),
            crate::text::plural(left.at_limit, "message"),
            if left.at_limit == 1 { "it" } else { "them" }
        )),
        PeekError::Client(_) => None,
    }
}

/// The client's error in a cause, also where a scan ([`PeekError`]) carries it: a transparent
/// variant does not appear in the chain on its own.
fn client_error<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a ClientError> {
    match cause.downcast_ref::<PeekError>() {
        Some(PeekError::Client(client)) => Some(client),
        _ => cause.downcast_ref::<ClientError>(),
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
