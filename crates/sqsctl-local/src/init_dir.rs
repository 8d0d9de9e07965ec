//! The init directory (`--init-dir`, LocalStack's `ready.d` hooks): once the server listens, its
//! entries run once, one after the other, in the order given (the command line sorts them by
//! name). A queue file is applied as `--init` is; a script runs with the environment pointed at
//! the server. A failing entry is reported and the next one runs, as LocalStack does: a hook is a
//! convenience, not a condition of serving. `/_localstack/init/ready` shows how far they got.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use crate::init::{self, InitSpec};
use crate::service::{InitDirEntry, InitDirStatus, Service};

/// One entry of the init directory.
#[derive(Debug, Clone, PartialEq)]
pub enum InitStep {
    /// A queue file, read and checked when the server starts.
    Queues { name: String, spec: InitSpec },
    /// An executable file, run with its own interpreter.
    Script { name: String, path: PathBuf },
}

impl InitStep {
    pub fn name(&self) -> &str {
        match self {
            InitStep::Queues { name, .. } | InitStep::Script { name, .. } => name,
        }
    }
}

/// What happened to one entry, for the command line to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitOutcome {
    Applied {
        name: String,
        created: Vec<String>,
    },
    Succeeded {
        name: String,
    },
    /// A script that ran and failed: its exit status, or the signal that ended it.
    Failed {
        name: String,
        why: String,
    },
}

/// Receives each entry's outcome as it happens.
#[derive(Clone)]
pub struct InitObserver(pub Arc<dyn Fn(InitOutcome) + Send + Sync>);

impl std::fmt::Debug for InitObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InitObserver")
    }
}

pub fn announce(svc: &Service, steps: &[InitStep]) {
    *svc.init_dir.lock() = InitDirStatus {
        completed: steps.is_empty(),
        entries: steps
            .iter()
            .map(|step| InitDirEntry {
                name: step.name().to_string(),
                kind: match step {
                    InitStep::Queues { .. } => "queues",
                    InitStep::Script { .. } => "script",
                },
                state: "UNKNOWN",
            })
            .collect(),
    };
}

fn set_state(svc: &Service, index: usize, state: &'static str) {
    if let Some(entry) = svc.init_dir.lock().entries.get_mut(index) {
        entry.state = state;
    }
}

/// Runs the entries in order; `endpoint` is what scripts get as `AWS_ENDPOINT_URL`.
pub async fn run(
    svc: Arc<Service>,
    steps: Vec<InitStep>,
    endpoint: String,
    observer: Option<InitObserver>,
) {
    let report = |outcome: InitOutcome| {
        if let Some(observer) = &observer {
            (observer.0)(outcome);
        }
    };
    for (index, step) in steps.into_iter().enumerate() {
        if svc.is_stopping() {
            return;
        }
        set_state(&svc, index, "RUNNING");
        let outcome = match step {
            InitStep::Queues { name, spec } => match init::apply(&svc, &spec) {
                Ok(done) => InitOutcome::Applied {
                    name,
                    created: done.created,
                },
                Err(err) => InitOutcome::Failed {
                    name,
                    why: err.to_string(),
                },
            },
            InitStep::Script { name, path } => match script(&path, &endpoint, &svc.region).await {
                Ok(()) => InitOutcome::Succeeded { name },
                Err(why) => InitOutcome::Failed { name, why },
            },
        };
        let failed = matches!(outcome, InitOutcome::Failed { .. });
        set_state(&svc, index, if failed { "ERROR" } else { "SUCCESSFUL" });
        if let Err(err) = svc.journal.flush() {
            report(InitOutcome::Failed {
                name: "data directory".into(),
                why: err.to_string(),
            });
        }
        report(outcome);
    }
    svc.init_dir.lock().completed = true;
}

/// Runs one script to its end. Its stdout goes to stderr: the server's stdout is for the
/// environment lines a shell evaluates.
async fn script(path: &std::path::Path, endpoint: &str, region: &str) -> Result<(), String> {
    let mut command = tokio::process::Command::new(path);
    command
        .env("AWS_ENDPOINT_URL", endpoint)
        .env("AWS_ENDPOINT_URL_SQS", endpoint)
        .env("AWS_REGION", region)
        .env("AWS_DEFAULT_REGION", region)
        // The server accepts any credentials; these keep SDKs from looking for real ones.
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .stdin(Stdio::null())
        .stdout(std::io::stderr())
        .kill_on_drop(true);
    if let Some(dir) = path.parent() {
        command.current_dir(dir);
    }
    let status = command
        .status()
        .await
        .map_err(|err| format!("could not be started: {err}"))?;
    if status.success() {
        return Ok(());
    }
    if let Some(code) = status.code() {
        return Err(format!("exited with status {code}"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return Err(format!("was ended by signal {signal}"));
        }
    }
    Err(format!("failed ({status})"))
}
