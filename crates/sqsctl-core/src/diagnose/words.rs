//! The words of findings: prose about the queue and SQS, with, in places, something sqsctl itself
//! does about it (a command to run, an option of the run). The analyzers name that as a fact, a
//! [`Tool`] (which command, on which queue, changing which setting to what); the binary spells it
//! as a command line or a flag, so sqsctl's command lines and flag names live beside the CLI that
//! defines them, never here.

/// An evidence line, a piece of advice or a skipped check's reason: text and tools in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words(Vec<Part>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Tool(Tool),
}

/// Something sqsctl does, named in a finding's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tool {
    /// Look at messages without consuming them: those of `queue`, or of the queue in question.
    Peek { queue: Option<String> },
    /// Run every check on `queue`.
    Diagnose { queue: String },
    /// Run every check on an export of `queue`'s messages instead of the live queue.
    DiagnoseExport { queue: String },
    /// Receive `queue`'s messages into a file (which consumes them).
    Export { queue: String },
    /// Change settings of `queue` (`None` when the queue is not known: a file analyzed alone).
    SetQueue {
        queue: Option<String>,
        changes: Vec<QueueChange>,
    },
    /// Move the messages of the dead-letter queue `dlq` back. `sources` queues feed it: when
    /// several do, a plain move back refuses, and the way to name is one that returns each
    /// message to its own queue or one that moves them all to `to` (`None`: a queue to choose).
    Redrive {
        dlq: String,
        sources: usize,
        to: Option<String>,
    },
    /// The commands that read a queue without consuming it; each read counts as a receive.
    LookingReads,
    /// The option that reads a queue even where a read could move messages to its dead-letter
    /// queue.
    ForceRead,
    /// The option that sets how many messages a scan reads at most.
    SampleSize,
}

/// One setting of a queue, and the value to give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueueChange {
    VisibilityTimeoutSeconds(u64),
    ReceiveWaitSeconds(u64),
    RetentionSeconds(u64),
    /// A redrive policy to the dead-letter queue `dlq`; `create`: create `dlq` if it is missing.
    DeadLetter {
        dlq: String,
        max_receive_count: u32,
        create: bool,
    },
    /// Any other attribute, by its SQS name.
    Attribute {
        name: String,
        value: String,
    },
}

impl Words {
    /// These words followed by `more`.
    pub fn then(mut self, more: impl Into<Words>) -> Words {
        self.0.extend(more.into().0);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The tools named, in order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.0.iter().filter_map(|part| match part {
            Part::Tool(tool) => Some(tool),
            Part::Text(_) => None,
        })
    }

    /// The words as one string, each tool spelled by `spell`.
    pub fn render(&self, mut spell: impl FnMut(&Tool) -> String) -> String {
        let mut out = String::new();
        for part in &self.0 {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Tool(tool) => out.push_str(&spell(tool)),
            }
        }
        out
    }

    /// The words with each tool as its `Debug` form, for tests of the prose.
    #[cfg(test)]
    pub(crate) fn plain(&self) -> String {
        self.render(|tool| format!("{tool:?}"))
    }
}

impl From<String> for Words {
    fn from(text: String) -> Words {
        Words(vec![Part::Text(text)])
    }
}

impl From<&str> for Words {
    fn from(text: &str) -> Words {
        Words::from(text.to_string())
    }
}

impl From<Tool> for Words {
    fn from(tool: Tool) -> Words {
        Words(vec![Part::Tool(tool)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_tools_render_in_order() {
        let words = Words::from("look with ")
            .then(Tool::Peek { queue: None })
            .then(", then fix it");
        assert_eq!(
            words.tools().collect::<Vec<_>>(),
            [&Tool::Peek { queue: None }]
        );
        assert_eq!(
            words.render(|_| "PEEK".into()),
            "look with PEEK, then fix it"
        );
        assert!(Words::default().is_empty());
    }
}
