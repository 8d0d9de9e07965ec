//! `sqsctl demo`: the main job, end to end, on a local server and without an AWS account.
//!
//! It starts [`crate::local::Server`] inside this process, builds a scene through the client layer
//! (see [`scene`]), then runs the real binary, step by step, as a user would type it, with the
//! server's endpoint and fixed local credentials in the environment. Each step is explained on
//! stdout first, and its output goes straight to the terminal. The demo is a script of the product:
//! everything it shows is a public command. Unless `--keep` is given the server stops at the end.

mod scene;

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Instant;

use anyhow::Context as _;

use crate::cli::demo::DemoArgs;
use crate::client::{LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY, Sqs};
use crate::commands::context::Context;
use crate::error::hinted;
use crate::exit::ExitStatus;
use crate::local::{Server, ServerConfig};

#[derive(Debug, Clone)]
pub struct DemoSettings {
    pub bind: SocketAddr,
    pub keep: bool,
}

impl DemoSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: DemoArgs) -> anyhow::Result<DemoSettings> {
        Ok(DemoSettings {
            bind: args.bind,
            keep: args.keep,
        })
    }
}

/// One command of the demo, with what it shows and the exit codes that mean it worked.
struct Step {
    explain: String,
    args: Vec<String>,
    expected: &'static [i32],
}

fn step(explain: impl Into<String>, args: &str, expected: &'static [i32]) -> Step {
    Step {
        explain: explain.into(),
        args: args.split_whitespace().map(str::to_string).collect(),
        expected,
    }
}

fn steps() -> Vec<Step> {
    use scene::{MAX_RECEIVE_COUNT, ORDERS, ORDERS_DLQ, PAYMENTS, POISON, TRANSIENT};
    let dead = TRANSIENT + POISON;
    vec![
        step(
            format!(
                "The queues: a failing consumer pushed {dead} orders into {ORDERS_DLQ} (after {MAX_RECEIVE_COUNT} receives each); {PAYMENTS} is a busy FIFO queue."
            ),
            "queues",
            &[0],
        ),
        step(
            "A look into the DLQ without consuming it: peek receives, then makes each message visible again at once.",
            &format!("peek {ORDERS_DLQ} --max 5"),
            &[0],
        ),
        step(
            format!(
                "Diagnose {ORDERS}: with maxReceiveCount {MAX_RECEIVE_COUNT} a read leaves each message receives to spare, so diagnose reads the queue (each message once) and runs every check."
            ),
            &format!("diagnose {ORDERS}"),
            &[0, 4],
        ),
        step(
            format!(
                "Diagnose {PAYMENTS}: why adding consumers does not make it faster (exit code 4: problems found)."
            ),
            &format!("diagnose {PAYMENTS}"),
            &[4],
        ),
        step(
            "What a redrive of the timeouts only would move, and where (--dry-run changes nothing).",
            &format!("redrive {ORDERS_DLQ} --attr failure=timeout --dry-run"),
            &[0],
        ),
        step(
            format!(
                "Move the {TRANSIENT} timeouts back to {ORDERS} at 40 messages a second; the {POISON} poison messages stay in the DLQ."
            ),
            &format!("redrive {ORDERS_DLQ} --attr failure=timeout --rate 40 --yes"),
            &[0],
        ),
        step(
            format!(
                "The final counts: {ORDERS} holds the {TRANSIENT} redriven orders again, {ORDERS_DLQ} only the {POISON} poison ones."
            ),
            "queues",
            &[0],
        ),
    ]
}

pub async fn run(ctx: &Context, settings: DemoSettings) -> anyhow::Result<ExitStatus> {
    ctx.printer.refuse_query("demo")?;
    let started = Instant::now();
    if ctx.aws_settings().endpoint_url.is_some() || ctx.aws_settings().profile.is_some() {
        ctx.printer.warn(
            "the demo runs on its own local server: --endpoint-url and --profile are ignored",
        );
    }
    let region = ctx
        .aws_settings()
        .region
        .clone()
        .unwrap_or_else(|| crate::local::DEFAULT_REGION.to_string());
    let server = Server::start(ServerConfig {
        bind: settings.bind,
        region: region.clone(),
        ..ServerConfig::default()
    })
    .with_context(|| format!("could not start the local server on {}", settings.bind))?;
    // The steps' own files (redrive journals) belong to the demo, not to the user's state.
    let state_dir = std::env::temp_dir().join(format!("sqsctl-demo-{}", std::process::id()));
    let result = run_on(ctx, &settings, &server, &region, &state_dir, started).await;
    // Stopped on every path, so that nothing is left listening.
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&state_dir);
    result
}

async fn run_on(
    ctx: &Context,
    settings: &DemoSettings,
    server: &Server,
    region: &str,
    state_dir: &std::path::Path,
    started: Instant,
) -> anyhow::Result<ExitStatus> {
    let endpoint = server.endpoint();
    let lifetime = if settings.keep {
        "it keeps running after the demo, until Ctrl-C"
    } else {
        "it stops when the demo ends"
    };
    say(
        ctx,
        &format!("Local SQS server: {endpoint} (region {region}, inside this process; {lifetime})"),
    )?;
    let sqs = Sqs::for_endpoint(endpoint, region);
    let scene = scene::build(&sqs)
        .await
        .context("could not build the demo's queues")?;

    let exe = std::env::current_exe().context("could not find the sqsctl binary to run")?;
    for step in steps() {
        if ctx.interrupt.is_set() {
            return Ok(ExitStatus::Interrupted);
        }
        say(ctx, "")?;
        say(ctx, &format!("# {}", step.explain))?;
        say(ctx, &format!("$ sqsctl {}", step.args.join(" ")))?;
        let status = tokio::process::Command::new(&exe)
            .args(global_args(ctx))
            .args(&step.args)
            .envs(child_env(endpoint, region))
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env("XDG_STATE_HOME", state_dir)
            .env_remove("AWS_ENDPOINT_URL")
            .env_remove("AWS_PROFILE")
            .env_remove("AWS_DEFAULT_PROFILE")
            .env_remove("AWS_SESSION_TOKEN")
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .status()
            .await
            .with_context(|| format!("could not run {}", exe.display()))?;
        let shown = format!("sqsctl {}", step.args.join(" "));
        match status.code() {
            Some(code) if step.expected.contains(&code) => {}
            Some(130) => return Ok(ExitStatus::Interrupted),
            _ if ctx.interrupt.is_set() => return Ok(ExitStatus::Interrupted),
            Some(code) => {
                return Err(hinted(
                    format!(
                        "demo step `{shown}` exited with {code}, expected {}",
                        expected_text(step.expected)
                    ),
                    "its output above says what went wrong",
                ));
            }
            None => anyhow::bail!("demo step `{shown}` was killed by a signal"),
        }
    }

    scene::check_outcome(&sqs, &scene).await?;
    say(ctx, "")?;
    say(
        ctx,
        &format!(
            "Done: the {} transient failures are back in {}, the {} poison messages wait in {} for a person.",
            scene::TRANSIENT,
            scene::ORDERS,
            scene::POISON,
            scene::ORDERS_DLQ
        ),
    )?;
    ctx.printer.info(format!(
        "demo finished in {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    if settings.keep {
        keep_running(ctx, endpoint, region).await?;
    }
    Ok(ExitStatus::Success)
}

/// A line of the demo's narration on stdout, flushed so that it comes before the next step's
/// output.
fn say(ctx: &Context, text: &str) -> anyhow::Result<()> {
    ctx.printer.line(text)?;
    ctx.printer.flush()?;
    Ok(())
}

/// The demo's own output options, passed on so that every step prints the way the demo was asked
/// to.
fn global_args(ctx: &Context) -> Vec<String> {
    let mut args = ctx.printer.output_args().to_vec();
    if ctx.printer.is_quiet() {
        args.push("--quiet".into());
    }
    for _ in 0..ctx.printer.verbosity() {
        args.push("--verbose".into());
    }
    args
}

/// What a shell needs to talk to the demo's server.
fn child_env(endpoint: &str, region: &str) -> [(&'static str, String); 4] {
    [
        ("AWS_ENDPOINT_URL_SQS", endpoint.to_string()),
        ("AWS_REGION", region.to_string()),
        ("AWS_ACCESS_KEY_ID", LOCAL_ACCESS_KEY_ID.to_string()),
        ("AWS_SECRET_ACCESS_KEY", LOCAL_SECRET_ACCESS_KEY.to_string()),
    ]
}

fn expected_text(codes: &[i32]) -> String {
    let codes: Vec<String> = codes.iter().map(i32::to_string).collect();
    codes.join(" or ")
}

async fn keep_running(ctx: &Context, endpoint: &str, region: &str) -> anyhow::Result<()> {
    let exports: Vec<String> = child_env(endpoint, region)
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    say(ctx, "")?;
    say(
        ctx,
        "The server keeps running with the demo's queues. In another shell:",
    )?;
    say(ctx, "")?;
    say(ctx, &format!("export {}", exports.join(" ")))?;
    for example in [
        "sqsctl queues".to_string(),
        format!("sqsctl peek {} --max 3", scene::ORDERS_DLQ),
        format!("sqsctl fifo groups {}", scene::PAYMENTS),
        format!("sqsctl receive {} --max 5", scene::ORDERS),
        format!("sqsctl redrive {} --dry-run", scene::ORDERS_DLQ),
    ] {
        say(ctx, &example)?;
    }
    say(ctx, "")?;
    ctx.printer.info("Ctrl-C stops the server.");
    ctx.interrupt.wait().await;
    Ok(())
}
