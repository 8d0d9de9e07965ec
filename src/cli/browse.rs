//! Arguments of `sqsctl browse`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl browse orders-dlq
  sqsctl browse orders-dlq --count-by message_attributes.error.value
  sqsctl browse orders-dlq --max 200 --force

browse is the on-call workbench for a dead-letter queue: the messages a `peek` shows, in a \
full-screen list (id, age, receive count, group, size, body; SNS and EventBridge envelopes shown \
as their marker and inner message), counts by a key beside it, a filter, a detail pane, and \
actions on the messages you mark, each run through the engine of the command it stands for.

Keys:
  Up/Down j/k, PgUp/PgDn, Home/End   move
  Enter        the whole message: body pretty-printed, every attribute (Up/Down scroll, Esc back)
  /            filter: a regex as --grep takes it, or the selection options themselves
               (--grep R, --grep-v R, --attr NAME=VALUE, --where EXPR, --older-than, --newer-than);
               an empty filter shows every message again
  c            count by the next key (the --count-by keys, group, receive count, each message
               attribute seen);  C  count by a JMESPath expression you type, as --count-by takes it
  space        mark or unmark the message under the cursor
  a            mark every message shown;   u  unmark all
  r            redrive the marked messages (or the one under the cursor) to the queue's source
  y            copy them to the source (yank, as vi says): sent as `redrive --copy` sends, nothing
               deleted; the DLQ keeps them (each receive raises their receive count)
  t            redrive them to a queue you type
  d            delete them (as `sqsctl delete --message-id`)
  x            export them to a file you type, as JSON Lines (the records of `peek -o jsonl`)
  e            edit the message under the cursor in $VISUAL or $EDITOR (vi without either) and
               send it back to the source queue: a redrive of that message with the edited body
               in place of its own (unchanged: nothing is sent)
  R            read the queue again
  ?            these keys;   q or Esc  quit

Each action asks first, naming the queue, its account and region and the destination. A redrive or a \
copy writes a journal under the state directory (its path is shown): if it is stopped, \
`sqsctl redrive --resume FILE` completes it. A delete deletes only the messages it found and \
confirmed deleted.

Reading costs what a peek costs: on `sqsctl local` nothing (the inspection endpoint lists the \
messages; nothing is received), on SQS one receive of each message read per read, said in the \
status line. browse obeys peek's read guard: a queue with a maxReceiveCount below 3, or whose last \
read left messages at their maxReceiveCount, is refused without --force.

Ctrl-C, SIGTERM and SIGHUP end browse cleanly: at the list or a question nothing is changed; \
during an action it stops as the command does (the redrive's journal resumable) and says so. In \
the editor, Ctrl-C is the editor's; SIGTERM or SIGHUP closes the editor (passed on to it) and ends \
browse, nothing sent. The terminal is restored however browse ends. browse needs a terminal on stdin and stdout; in a pipe, \
use `sqsctl peek`.

Exit codes: 0 quit; 130 Ctrl-C (143 SIGTERM, 129 SIGHUP); 1 error; 2 usage (no terminal).")]
pub struct BrowseArgs {
    /// Queue name, URL or ARN
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::queue_names))]
    pub queue: String,
    /// Read at most this many messages
    #[arg(long, short = 'n', value_name = "N", default_value_t = crate::client::peek::DEFAULT_SCAN_LIMIT, value_parser = super::parse_count)]
    pub max: u64,
    /// Read a queue the guard refuses (a maxReceiveCount of 1 or 2, or messages the last read
    /// left at their maxReceiveCount) anyway; each read counts toward it
    #[arg(long)]
    pub force: bool,
    /// A key to count messages by in the side panel (repeatable; a JMESPath expression over the
    /// record --where sees, e.g. message_attributes.error.value)
    #[arg(long, value_name = "EXPR")]
    pub count_by: Vec<String>,
}

/// The filter line typed in `browse` when it starts with an option: the selection options of the
/// command line, parsed by the same clap struct.
#[derive(Debug, clap::Parser)]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true
)]
pub struct FilterLine {
    #[command(flatten)]
    pub select: super::select::SelectArgs,
}
