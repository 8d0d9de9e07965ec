//! The user-facing error kinds that commands raise and `app::report` renders: a usage error, a
//! cancelled prompt, an error with a hint, and an engine's error with the hint of the command that
//! met it. Plain thiserror types; nothing here prints.

/// An error in how the command was called (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A confirmation prompt was answered with Ctrl-C or end of input: nothing was changed (exit code
/// 130, as for any interruption).
#[derive(Debug, thiserror::Error)]
#[error("cancelled: nothing was changed")]
pub struct Cancelled;

/// A confirmation prompt was answered with no: nothing was changed, and the run ends with its own
/// exit code (6), which is neither a failure nor an interruption.
#[derive(Debug, thiserror::Error)]
#[error("declined: nothing was changed")]
pub struct Declined;

/// An error with a next step for the user.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct HintedError {
    pub message: String,
    pub hint: String,
    /// The command line asked for something that cannot be done as given (exit code 2).
    pub usage: bool,
}

/// Builds an error that prints a `hint:` line.
pub fn hinted(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(HintedError {
        message: message.into(),
        hint: hint.into(),
        usage: false,
    })
}

/// A usage error (exit code 2) that prints a `hint:` line.
pub fn hinted_usage(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(HintedError {
        message: message.into(),
        hint: hint.into(),
        usage: true,
    })
}

/// An engine's error with the hint of the command that met it, for when the engine's own hint
/// names options this command does not have. It reads as the error itself, which stays in the
/// chain for `app::report` to classify.
#[derive(Debug, thiserror::Error)]
#[error("{source}")]
pub struct CommandHint {
    #[source]
    pub source: Box<dyn std::error::Error + Send + Sync + 'static>,
    pub hint: String,
}

/// Gives `err` the hint `hint` in place of its own.
pub fn with_hint(
    err: impl std::error::Error + Send + Sync + 'static,
    hint: impl Into<String>,
) -> anyhow::Error {
    anyhow::Error::new(CommandHint {
        source: Box::new(err),
        hint: hint.into(),
    })
}
