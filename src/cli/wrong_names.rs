//! Names people type for a command that sqsctl calls otherwise (`stats`, `list`, `get`, `tail`),
//! and the commands that do the job: an unknown subcommand gets them as a `tip:` beside clap's
//! own did-you-mean, which only catches typos.

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// Each group of wrong names, and what to use instead.
const WRONG_NAMES: &[(&[&str], &str)] = &[
    (
        &["stats", "stat", "count", "depth", "metrics", "size"],
        "`sqsctl queue info QUEUE` shows one queue's counts and settings; `sqsctl top` watches every queue's depth and rates",
    ),
    (
        &["list", "ls", "list-queues", "all"],
        "`sqsctl queues` lists the queues (`sqsctl queues PREFIX` those whose name starts with PREFIX)",
    ),
    (
        &[
            "get",
            "pop",
            "read",
            "recv",
            "pull",
            "fetch",
            "dequeue",
            "sub",
            "subscribe",
        ],
        "`sqsctl receive QUEUE` receives messages (--delete consumes them); `sqsctl peek QUEUE` looks without consuming",
    ),
    (
        &[
            "put", "publish", "pub", "push", "write", "enqueue", "produce", "post",
        ],
        "`sqsctl send QUEUE BODY` sends a message (--lines or --jsonl: many from stdin)",
    ),
    (
        &[
            "move",
            "mv",
            "replay",
            "requeue",
            "retry",
            "dlq",
            "redrive-dlq",
            "unpoison",
        ],
        "`sqsctl redrive DLQ` moves messages from a dead-letter queue back to their source (--to QUEUE: elsewhere); `sqsctl queue info QUEUE` shows a queue's dead-letter queue",
    ),
    (
        &["tail", "watch", "follow", "listen", "monitor", "stream"],
        "`sqsctl receive QUEUE --follow` writes messages as they arrive; `sqsctl top` watches queue depths",
    ),
    (
        &[
            "info",
            "show",
            "describe",
            "inspect",
            "attributes",
            "attrs",
            "get-queue-attributes",
        ],
        "`sqsctl queue info QUEUE` shows a queue's attributes, its dead-letter queue and its sources",
    ),
    (
        &["create", "new", "mk", "add", "create-queue"],
        "`sqsctl queue create NAME` creates a queue (--dlq NAME: with a dead-letter queue)",
    ),
    (
        &["rm", "remove", "del", "ack", "delete-queue"],
        "`sqsctl delete QUEUE RECEIPT_HANDLE` deletes messages; `sqsctl queue delete QUEUE` deletes a queue",
    ),
    (
        &["clear", "empty", "flush", "truncate", "wipe"],
        "`sqsctl purge QUEUE` deletes every message in a queue",
    ),
    (
        &["drain"],
        "`sqsctl receive QUEUE --until-empty --delete` takes every message out; `sqsctl purge QUEUE` deletes them unread",
    ),
    (
        &["url", "get-queue-url"],
        "`sqsctl queue url NAME` prints a queue's URL",
    ),
    (
        &[
            "set",
            "config",
            "configure",
            "update",
            "edit",
            "set-queue-attributes",
        ],
        "`sqsctl queue set QUEUE` changes a queue's attributes (--visibility, --retention, --dlq...)",
    ),
    (
        &["group", "tenants", "tenant"],
        "`sqsctl groups QUEUE` shows a queue's message groups (FIFO) or tenants (fair queue)",
    ),
    (
        &["server", "serve", "emulator", "mock", "localstack", "start"],
        "`sqsctl local` runs a local SQS-compatible server; `sqsctl demo` shows sqsctl on one",
    ),
    (
        &["release", "nack", "extend", "hide", "change-visibility"],
        "`sqsctl visibility QUEUE --timeout 0 RECEIPT_HANDLE` releases a message (a longer timeout hides it longer)",
    ),
    (
        &["doctor", "check", "lint", "debug", "why", "health"],
        "`sqsctl diagnose QUEUE` finds what is wrong with a queue",
    ),
    (
        &["tag", "untag", "tags"],
        "`sqsctl queue tag QUEUE KEY=VALUE` and `sqsctl queue untag QUEUE KEY` change tags; `sqsctl queue info QUEUE` lists them",
    ),
    (
        &[
            "permission",
            "permissions",
            "add-permission",
            "remove-permission",
            "grant",
            "share",
        ],
        "`sqsctl queue permission add QUEUE --label L --account ID --action SendMessage` lets another account use a queue; `sqsctl queue permission list QUEUE` lists permissions",
    ),
    (
        &["worker", "work", "run", "process", "exec", "handle"],
        "`sqsctl consume QUEUE -- COMMAND` runs a command per message and deletes it on success",
    ),
    (
        &["status", "cancel"],
        "`sqsctl redrive status DLQ` and `sqsctl redrive cancel DLQ` follow a native redrive; `sqsctl top` watches queue depths",
    ),
];

/// What to use instead of the command `name`, if it is a name people try.
pub fn instead_of(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    WRONG_NAMES
        .iter()
        .find(|(names, _)| names.contains(&name.as_str()))
        .map(|(_, hint)| *hint)
}

/// Adds a `tip:` naming the command that does the job to clap's error for an unknown subcommand
/// (clap's did-you-mean stays), or one naming a top-level command typed under another
/// (`sqsctl queue purge`). Other errors come back as they are.
pub fn with_command_tip(mut err: clap::Error, cli: &clap::Command) -> clap::Error {
    if err.kind() != ErrorKind::InvalidSubcommand {
        return err;
    }
    let Some(ContextValue::String(name)) = err.get(ContextKind::InvalidSubcommand) else {
        return err;
    };
    let tip = match instead_of(name) {
        Some(tip) => tip.to_string(),
        None if cli.find_subcommand(name).is_some() => {
            format!("`{name}` is a command of its own: `sqsctl {name} --help`")
        }
        None => return err,
    };
    let mut tips = match err.get(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => tips.clone(),
        _ => Vec::new(),
    };
    tips.push(StyledStr::from(tip));
    err.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wrong_name_is_not_a_command_and_appears_once() {
        let cli = crate::cli::command();
        let mut seen = std::collections::HashSet::new();
        for (names, _) in WRONG_NAMES {
            for name in *names {
                assert!(cli.find_subcommand(name).is_none(), "`{name}` is a command");
                assert!(seen.insert(*name), "`{name}` is listed twice");
            }
        }
        assert!(instead_of("Stats").is_some_and(|t| t.contains("queue info")));
        assert_eq!(instead_of("recieve"), None);
    }
}
