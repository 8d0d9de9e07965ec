//! Arguments of `sqsctl purge`.

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl purge orders-dlq            # asks first on a terminal
  sqsctl purge orders-dlq --yes      # in scripts

SQS allows one purge per queue every 60 seconds and takes up to a minute to finish deleting. The \
count shown is the queue's approximate depth (visible, in flight and delayed) just before the purge.

The question names the queue, its account and the region. Ctrl-C or Ctrl-D at it cancels with \
nothing purged (exit 130).")]
pub struct PurgeArgs {
    /// --dry-run shows how many messages would be removed
    #[command(flatten)]
    pub target: super::WholeQueueArgs,
}
