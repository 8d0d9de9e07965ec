//! `sqsctl generate`: shell completions and man pages, written from the clap definition so they
//! cannot drift from the real command line. The results are committed; a test regenerates them
//! into a temporary directory and fails when they differ.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap_complete::Shell;

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
        let mut cmd = crate::cli::command();
        clap_complete::generate_to(shell, &mut cmd, "sqsctl", &completions)
            .with_context(|| format!("writing {shell} completions"))?;
        written += 1;
    }
    // The committed pages carry the package version only: the commit hash would make them stale
    // at every commit.
    let mut cmd = crate::cli::command().version(env!("CARGO_PKG_VERSION"));
    cmd.build();
    written += write_man_pages(&cmd, "sqsctl", &man)?;
    Ok(written)
}

fn write_man_pages(cmd: &clap::Command, name: &str, dir: &Path) -> anyhow::Result<usize> {
    let mut pages = Vec::new();
    render_man_pages(cmd, name, &mut pages)?;
    let names: Vec<String> = pages.iter().map(|(page, _)| page.clone()).collect();
    for (page, text) in &pages {
        let path = dir.join(format!("{page}.1"));
        std::fs::write(&path, polish_man_page(text, &names))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(pages.len())
}

/// Renders the page of `cmd` and of each visible subcommand, as `(name, roff)`.
fn render_man_pages(
    cmd: &clap::Command,
    name: &str,
    pages: &mut Vec<(String, String)>,
) -> anyhow::Result<()> {
    if cmd.is_hide_set() {
        return Ok(());
    }
    let page = cmd.clone().name(name.to_string());
    let mut buffer = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buffer)
        .with_context(|| format!("rendering the man page of {name}"))?;
    let text = String::from_utf8(buffer)
        .with_context(|| format!("the man page of {name} is not UTF-8"))?;
    pages.push((name.to_string(), text));
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        render_man_pages(sub, &format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// What clap_mangen leaves to do: the free text after the options (examples, exit codes) comes
/// out as plain lines, which troff fills, justifies and hyphenates, so an example's lines run
/// together. Indented lines become literal `.nf` blocks and blank lines paragraph breaks. The
/// subcommand lists also name a page for `help`, which is not written: entries for pages that do
/// not exist are dropped.
fn polish_man_page(text: &str, pages: &[String]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut in_free_text = false;
    let mut in_literal = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with(".SH ") {
            if in_literal {
                out.push(".fi".into());
                in_literal = false;
            }
            in_free_text = line == ".SH EXTRA";
        }
        if line == ".TP"
            && let Some(target) = lines.get(i + 1).and_then(|next| page_reference(next))
            && !pages.contains(&target)
        {
            // Skip the entry: `.TP`, the reference, and its description up to the next macro.
            i += 2;
            while i < lines.len() && !lines[i].starts_with('.') {
                i += 1;
            }
            continue;
        }
        if in_free_text && !line.starts_with('.') {
            let indented = line.starts_with(' ');
            if indented && !in_literal {
                out.push(".nf".into());
                in_literal = true;
            } else if !indented && in_literal {
                out.push(".fi".into());
                in_literal = false;
            }
            if line.trim().is_empty() {
                out.push(".PP".into());
            } else {
                out.push(line.to_string());
            }
        } else {
            out.push(line.to_string());
        }
        i += 1;
    }
    if in_literal {
        out.push(".fi".into());
    }
    let mut polished = out.join("\n");
    polished.push('\n');
    polished
}

/// The page a subcommand entry names (`sqsctl\-queue\-help(1)` is `sqsctl-queue-help`).
fn page_reference(line: &str) -> Option<String> {
    let name = line.strip_suffix("(1)")?.replace("\\-", "-");
    (name.starts_with("sqsctl") && !name.contains(char::is_whitespace)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_become_literal_blocks_and_missing_pages_are_not_named() {
        let page = ".SH SUBCOMMANDS\n.TP\nsqsctl\\-queue(1)\nQueues\n.TP\nsqsctl\\-help(1)\nPrint this message\n.SH EXTRA\nExamples:\n  sqsctl queues\n  sqsctl peek q\n\nSafety: text\n.SH VERSION\nv1\n";
        let pages = ["sqsctl".to_string(), "sqsctl-queue".to_string()];
        assert_eq!(
            polish_man_page(page, &pages),
            ".SH SUBCOMMANDS\n.TP\nsqsctl\\-queue(1)\nQueues\n.SH EXTRA\nExamples:\n.nf\n  sqsctl queues\n  sqsctl peek q\n.fi\n.PP\nSafety: text\n.SH VERSION\nv1\n"
        );
    }
}
