//! Arguments of `sqsctl queues`.

use crate::commands::queues::QueuesSettings;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  sqsctl queues
  sqsctl queues orders          # names starting with `orders`
  sqsctl queues -o jsonl | jq -r 'select(.data.visible > 0) | .data.name'

Counts are SQS's approximate numbers: visible, in flight (received, not yet deleted) and delayed.")]
pub struct QueuesArgs {
    /// Only queues whose name starts with this
    pub prefix: Option<String>,
}

impl QueuesArgs {
    pub fn resolve(self) -> anyhow::Result<QueuesSettings> {
        if let Some(prefix) = &self.prefix
            && !prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            anyhow::bail!("`{prefix}` cannot start a queue name (letters, digits, - and _ only)");
        }
        Ok(QueuesSettings {
            prefix: self.prefix.filter(|p| !p.is_empty()),
        })
    }
}
