//! The filter line of `browse`: a regular expression as `--grep` takes it, or the selection
//! options of the command line (`--grep`, `--grep-v`, `--attr`, `--where`, `--older-than`,
//! `--newer-than`), checked and compiled by the same code as every command's
//! ([`crate::commands::selection`]). An error is said in the words of the option.

use clap::Parser;

use crate::cli::browse::FilterLine;
use crate::cli::select::SelectArgs;
use crate::select::Selector;

/// The compiled filter (`None`: every message), or why it is not valid.
pub fn parse(text: &str) -> Result<Option<Selector>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let args = if text.starts_with('-') {
        let words = shlex::split(text).ok_or_else(|| "unbalanced quotes".to_string())?;
        FilterLine::try_parse_from(words)
            .map_err(|e| {
                let rendered = e.render().to_string();
                rendered
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches("error: ")
                    .to_string()
            })?
            .select
    } else {
        SelectArgs {
            grep: Some(text.to_string()),
            ..SelectArgs::default()
        }
    };
    let selection =
        crate::commands::selection::resolve(args, Vec::new()).map_err(|e| format!("{e:#}"))?;
    crate::commands::selection::selector(&selection).map_err(|e| format!("{e:#}"))
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::message::MessageRecord;

    #[test]
    fn plain_text_is_a_grep_and_options_read_as_on_the_command_line() {
        let hit = MessageRecord::with_body(r#"{"tenant":"acme"}"#);
        let miss = MessageRecord::with_body(r#"{"tenant":"other"}"#);
        let grep = parse("acme").unwrap().unwrap();
        assert!(grep.matches(&hit) && !grep.matches(&miss));
        let filter = parse("--where \"body.tenant == 'acme'\"").unwrap().unwrap();
        assert!(filter.matches(&hit) && !filter.matches(&miss));
        let inverted = parse("--grep-v acme").unwrap().unwrap();
        assert!(!inverted.matches(&hit) && inverted.matches(&miss));
        assert!(parse("  ").unwrap().is_none());
    }

    #[test]
    fn an_invalid_filter_names_its_option() {
        assert!(parse("(").unwrap_err().starts_with("--grep"));
        assert!(parse("--where 'a =='").unwrap_err().starts_with("--where"));
        assert!(parse("--nope").unwrap_err().contains("--nope"));
        assert!(parse("--grep 'open").unwrap_err().contains("quotes"));
    }
}
