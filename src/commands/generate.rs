//! `sqsctl generate`: shell completions and man pages, written from the clap definition so they
//! cannot drift from the real command line. The results are committed; a test regenerates them
//! into a temporary directory and fails when they differ.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::cli::generate::GenerateArgs;
use crate::commands::context::Context;
use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct GenerateSettings {
    pub out_dir: PathBuf,
}

impl GenerateSettings {
    /// Checks the command line's values and fills in the defaults (an error here is a usage
    /// error).
    pub fn resolve(args: GenerateArgs) -> anyhow::Result<GenerateSettings> {
        Ok(GenerateSettings {
            out_dir: args.out_dir,
        })
    }
}

pub async fn run(ctx: &Context, settings: GenerateSettings) -> anyhow::Result<ExitStatus> {
    let written = write_all(&settings.out_dir)?;
    ctx.printer.info(format!(
        "wrote {written} files under {}",
        settings.out_dir.display()
    ));
    Ok(ExitStatus::Success)
}

/// Writes completions for every supported shell and one man page per command; returns the count.
pub fn write_all(out_dir: &Path) -> anyhow::Result<usize> {
    let completions = out_dir.join("completions");
    let man = out_dir.join("man");
    std::fs::create_dir_all(&completions)
        .with_context(|| format!("creating {}", completions.display()))?;
    std::fs::create_dir_all(&man).with_context(|| format!("creating {}", man.display()))?;
    let mut written = 0;
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut cmd = Cli::command();
        clap_complete::generate_to(shell, &mut cmd, "sqsctl", &completions)
            .with_context(|| format!("writing {shell} completions"))?;
        written += 1;
    }
    // The committed pages carry the package version only: the commit hash would make them stale
    // at every commit.
    let mut cmd = Cli::command().version(env!("CARGO_PKG_VERSION"));
    cmd.build();
    written += write_man_pages(&cmd, "sqsctl", &man)?;
    Ok(written)
}

fn write_man_pages(cmd: &clap::Command, name: &str, dir: &Path) -> anyhow::Result<usize> {
    let mut written = 0;
    if cmd.is_hide_set() {
        return Ok(0);
    }
    let page = cmd.clone().name(name.to_string());
    let mut buffer = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buffer)
        .with_context(|| format!("rendering the man page of {name}"))?;
    let path = dir.join(format!("{name}.1"));
    std::fs::write(&path, buffer).with_context(|| format!("writing {}", path.display()))?;
    written += 1;
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        written += write_man_pages(sub, &format!("{name}-{}", sub.get_name()), dir)?;
    }
    Ok(written)
}
