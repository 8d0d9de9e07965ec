//! The settings every command runs with, resolved once: the global options, what the environment
//! says (`COLUMNS`, `NO_COLOR`, `SQSCTL_INTERRUPT_GRACE`, `AWS_PROFILE`, `VISUAL`...) and the terminal. The
//! environment is read in one place, [`Environment::read`]; a value sqsctl cannot use is a usage
//! error naming the variable, never a silent default.

use std::time::Duration;

use crate::cli::{AwsArgs, GlobalArgs, values};
use crate::client::{
    AwsEnvironment, AwsSettings, KnownSecrets, QueueUrlCacheSettings, SettingNames,
};
use crate::output::query::Query;
use crate::output::{Printer, Terminal};

/// Set to `1` to make the binary behave as on a terminal (tables, progress bars, prompts); for
/// tests of what a person sees.
pub const ASSUME_TTY_ENV: &str = "SQSCTL_ASSUME_TTY";

/// The grace period's variable: how long requests in flight may finish after the first Ctrl-C.
pub const INTERRUPT_GRACE_ENV: &str = "SQSCTL_INTERRUPT_GRACE";

/// The runtime's number of worker threads, which tokio reads too (and panics on a value it cannot
/// use): checked by [`worker_threads`] before the runtime starts.
pub const WORKER_THREADS_ENV: &str = "TOKIO_WORKER_THREADS";

/// `TOKIO_WORKER_THREADS` as set (`None` when unset), checked: a whole number above 0.
pub fn worker_threads(value: Option<String>) -> Result<Option<usize>, String> {
    let Some(text) = value else {
        return Ok(None);
    };
    match text.trim().parse::<usize>() {
        Ok(threads) if threads > 0 => Ok(Some(threads)),
        _ => Err(format!(
            "{WORKER_THREADS_ENV}={text:?}: expected a whole number of threads, 1 or more"
        )),
    }
}

/// `--connect-timeout`'s variable.
pub const CONNECT_TIMEOUT_ENV: &str = "SQSCTL_CONNECT_TIMEOUT";

/// `--read-timeout`'s variable.
pub const READ_TIMEOUT_ENV: &str = "SQSCTL_READ_TIMEOUT";

/// The flags that set the client's settings, named by its errors (`(from --region)`, `no
/// connection within 10s (--connect-timeout)`).
pub const AWS_FLAGS: SettingNames = SettingNames {
    region: "--region",
    endpoint_url: "--endpoint-url",
    connect_timeout: "--connect-timeout",
    read_timeout: "--read-timeout",
};

/// The variables that hold credentials: their values are never printed.
const CREDENTIAL_VARS: [&str; 3] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];

/// What sqsctl reads from its environment, beside what the AWS SDK's chain reads for itself.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// `SQSCTL_ASSUME_TTY`, as set.
    pub assume_tty: Option<String>,
    /// `COLUMNS`, as set (a width the terminal does not tell).
    pub columns: Option<String>,
    /// `NO_COLOR`, set and not empty.
    pub no_color: bool,
    /// `SQSCTL_INTERRUPT_GRACE`, as set.
    pub interrupt_grace: Option<String>,
    /// `SQSCTL_CONNECT_TIMEOUT`, as set.
    pub connect_timeout: Option<String>,
    /// `SQSCTL_READ_TIMEOUT`, as set.
    pub read_timeout: Option<String>,
    /// The user's cache directory (`XDG_CACHE_HOME`, `~/.cache`, `~/Library/Caches`), where queue
    /// URLs are remembered; `None` leaves them unremembered.
    pub cache_dir: Option<std::path::PathBuf>,
    /// `$VISUAL`, else `$EDITOR` (the first set and not blank): a shell command line.
    pub editor: Option<String>,
    pub aws: AwsEnvironment,
    /// The credentials the environment holds (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`): left out of everything printed from the start, before the client
    /// resolves the ones it uses (which it adds).
    pub secrets: KnownSecrets,
}

impl Environment {
    pub fn read() -> Environment {
        Environment {
            cache_dir: dirs::cache_dir(),
            ..Environment::from_lookup(|name| std::env::var(name).ok())
        }
    }

    /// The same from any lookup of variables (tests give a map), without a cache directory.
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Environment {
        Environment {
            assume_tty: var(ASSUME_TTY_ENV),
            columns: var("COLUMNS"),
            no_color: var("NO_COLOR").is_some_and(|v| !v.is_empty()),
            interrupt_grace: var(INTERRUPT_GRACE_ENV).filter(|v| !v.trim().is_empty()),
            connect_timeout: var(CONNECT_TIMEOUT_ENV).filter(|v| !v.trim().is_empty()),
            read_timeout: var(READ_TIMEOUT_ENV).filter(|v| !v.trim().is_empty()),
            cache_dir: None,
            editor: ["VISUAL", "EDITOR"]
                .into_iter()
                .filter_map(&var)
                .find(|value| !value.trim().is_empty()),
            aws: AwsEnvironment::from_lookup(&var),
            secrets: {
                let secrets = KnownSecrets::default();
                for name in CREDENTIAL_VARS {
                    if let Some(value) = var(name) {
                        secrets.add(&value);
                    }
                }
                secrets
            },
        }
    }
}

/// What every command receives: the printer (format, query, colour, terminal), where and how to
/// reach AWS, the grace period after Ctrl-C, and the editor.
pub struct GlobalSettings {
    pub printer: Printer,
    pub aws: AwsSettings,
    pub grace: Duration,
    /// The user's editor ([`Environment::editor`]), else [`DEFAULT_EDITOR`].
    pub editor: String,
}

/// The editor without `$VISUAL` or `$EDITOR`.
pub const DEFAULT_EDITOR: &str = "vi";

impl GlobalSettings {
    /// Resolves the global options against the environment and the terminal the process has. An
    /// error is a usage error's message.
    pub fn resolve(
        aws: AwsArgs,
        global: GlobalArgs,
        env: Environment,
        detected: Terminal,
    ) -> Result<GlobalSettings, String> {
        let terminal = match env.assume_tty.as_deref().map(str::trim) {
            Some("1") => Terminal::all(),
            None | Some("" | "0") => detected,
            Some(_) => {
                return Err(format!(
                    "{ASSUME_TTY_ENV}={:?}: expected 1 (behave as on a terminal) or 0",
                    env.assume_tty.unwrap_or_default()
                ));
            }
        };
        // `COLUMNS` stands in for a width the terminal does not tell (and for tests' forced
        // terminal); one that is not a width is ignored, as shells and other tools do.
        let terminal = Terminal {
            width: terminal.width.or_else(|| {
                env.columns
                    .as_deref()
                    .and_then(|v| v.trim().parse().ok())
                    .filter(|&cols: &u16| cols > 0)
            }),
            ..terminal
        };
        let query = global.query.as_deref().map(Query::parse).transpose()?;
        let printer = Printer::new(
            global.output,
            global.color,
            env.no_color,
            global.quiet,
            global.verbose,
            terminal,
            query,
        )?
        .with_secrets(env.secrets.clone());
        let grace = match &env.interrupt_grace {
            None => crate::interrupt::DEFAULT_GRACE,
            Some(text) => values::GRACE
                .parse(text)
                .map_err(|why| format!("{INTERRUPT_GRACE_ENV}={text:?}: {why}"))?,
        };
        // A flag wins over its variable; an error about the value names the one it came from.
        let mut names = AWS_FLAGS;
        let timeout =
            |flag: Option<Duration>, variable: &'static str, value: &Option<String>| match (
                flag, value,
            ) {
                (Some(duration), _) => Ok((Some(duration), false)),
                (None, None) => Ok((None, false)),
                (None, Some(text)) => values::TIMEOUT
                    .parse(text)
                    .map(|duration| (Some(duration), true))
                    .map_err(|why| format!("{variable}={text:?}: {why}")),
            };
        let (connect_timeout, from_env) = timeout(
            aws.connect_timeout,
            CONNECT_TIMEOUT_ENV,
            &env.connect_timeout,
        )?;
        if from_env {
            names.connect_timeout = CONNECT_TIMEOUT_ENV;
        }
        let (read_timeout, from_env) =
            timeout(aws.read_timeout, READ_TIMEOUT_ENV, &env.read_timeout)?;
        if from_env {
            names.read_timeout = READ_TIMEOUT_ENV;
        }
        Ok(GlobalSettings {
            printer,
            aws: AwsSettings {
                profile: aws.profile,
                region: aws.region,
                endpoint_url: aws.endpoint_url,
                max_attempts: None,
                connect_timeout,
                read_timeout,
                environment: env.aws,
                // Kept current by every command; served only where `app` says so.
                queue_url_cache: env.cache_dir.map(|dir| QueueUrlCacheSettings {
                    dir: dir.join("sqsctl"),
                    serve: false,
                }),
                names,
                secrets: env.secrets,
            },
            grace,
            editor: env.editor.unwrap_or_else(|| DEFAULT_EDITOR.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{ColorChoice, OutputFormat};

    fn resolve(vars: &[(&str, &str)]) -> Result<GlobalSettings, String> {
        let env = Environment::from_lookup(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        });
        let aws = AwsArgs {
            profile: None,
            region: None,
            endpoint_url: None,
            connect_timeout: None,
            read_timeout: None,
        };
        let global = GlobalArgs {
            output: OutputFormat::Auto,
            query: None,
            color: ColorChoice::Auto,
            quiet: false,
            verbose: 0,
        };
        let terminal = Terminal {
            stdout_is_tty: false,
            stderr_is_tty: false,
            stdin_is_tty: false,
            width: None,
        };
        GlobalSettings::resolve(aws, global, env, terminal)
    }

    #[test]
    fn the_editor_is_visual_else_editor_else_vi_and_a_blank_one_does_not_count() {
        let editor = |vars: &[(&str, &str)]| resolve(vars).map(|s| s.editor);
        assert_eq!(editor(&[]), Ok("vi".to_string()));
        assert_eq!(editor(&[("EDITOR", "nano")]), Ok("nano".to_string()));
        assert_eq!(
            editor(&[("VISUAL", "code --wait"), ("EDITOR", "nano")]),
            Ok("code --wait".to_string())
        );
        assert_eq!(
            editor(&[("VISUAL", "  "), ("EDITOR", "nano")]),
            Ok("nano".to_string())
        );
        assert_eq!(editor(&[("EDITOR", "")]), Ok("vi".to_string()));
    }

    #[test]
    fn the_grace_period_takes_a_duration_and_refuses_what_is_not_one() {
        assert_eq!(
            resolve(&[]).map(|s| s.grace),
            Ok(crate::interrupt::DEFAULT_GRACE)
        );
        let grace = |v: &str| resolve(&[(INTERRUPT_GRACE_ENV, v)]).map(|s| s.grace);
        assert_eq!(grace("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(grace("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(grace("0"), Ok(Duration::ZERO));
        let err = grace("soon").err().unwrap_or_default();
        assert!(
            err.starts_with("SQSCTL_INTERRUPT_GRACE=\"soon\": expected seconds"),
            "{err}"
        );
        assert!(grace("-1").is_err());
        assert!(grace("2h").is_err());
    }

    #[test]
    fn every_variable_sqsctl_reads_names_itself_and_its_value_when_it_is_wrong() {
        for (name, value, expected) in [
            (
                READ_TIMEOUT_ENV,
                "abc",
                "SQSCTL_READ_TIMEOUT=\"abc\": expected seconds",
            ),
            (
                CONNECT_TIMEOUT_ENV,
                "0",
                "SQSCTL_CONNECT_TIMEOUT=\"0\": must be more than 0s",
            ),
            (INTERRUPT_GRACE_ENV, "2h", "SQSCTL_INTERRUPT_GRACE=\"2h\": "),
            (
                ASSUME_TTY_ENV,
                "yes",
                "SQSCTL_ASSUME_TTY=\"yes\": expected 1",
            ),
        ] {
            let err = resolve(&[(name, value)]).err().unwrap_or_default();
            assert!(err.starts_with(expected), "{name}={value}: {err}");
        }
        // Values that are fine, and where the timeouts' errors then point.
        let aws = resolve(&[(READ_TIMEOUT_ENV, "2.5"), (CONNECT_TIMEOUT_ENV, "3s")])
            .map(|s| s.aws)
            .ok();
        assert_eq!(
            aws.as_ref().and_then(|a| a.read_timeout),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(
            aws.as_ref().and_then(|a| a.connect_timeout),
            Some(Duration::from_secs(3))
        );
        assert_eq!(aws.map(|a| a.names.read_timeout), Some(READ_TIMEOUT_ENV));
        let tty = |value: &str| {
            resolve(&[(ASSUME_TTY_ENV, value)]).map(|s| s.printer.terminal().stdout_is_tty)
        };
        assert_eq!(tty("1"), Ok(true));
        assert_eq!(tty("0"), Ok(false));
        assert_eq!(worker_threads(None), Ok(None));
        assert_eq!(worker_threads(Some("3".into())), Ok(Some(3)));
        for bad in ["0", "abc", "-1", ""] {
            let err = worker_threads(Some(bad.into())).err().unwrap_or_default();
            assert!(
                err.starts_with(&format!(
                    "TOKIO_WORKER_THREADS={bad:?}: expected a whole number"
                )),
                "{err}"
            );
        }
    }

    #[test]
    fn aws_profile_and_credentials_come_from_the_environment_once() {
        let settings = resolve(&[("AWS_PROFILE", "ops"), ("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")]);
        let aws = settings.map(|s| s.aws).ok();
        assert_eq!(aws.as_ref().and_then(|a| a.selected_profile()), Some("ops"));
        assert!(aws.is_some_and(|a| a.environment.has_credentials));
        let blank = resolve(&[("AWS_PROFILE", " ")]).map(|s| s.aws).ok();
        assert_eq!(blank.as_ref().and_then(|a| a.selected_profile()), None);
    }
}
