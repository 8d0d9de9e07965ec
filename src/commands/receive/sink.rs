//! Where `receive` delivers: message records on stdout through the [`MessageWriter`], with the
//! progress line stepping aside, and into a pipe each message flushed on its own and delivered
//! only once the reader has taken it out of the pipe; or, with `--count-by`, counts by key
//! written once the run ends.

use indicatif::ProgressBar;

use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::message::count::Counter;
use crate::output::Printer;
use crate::output::counts::CountsReport;
use crate::output::messages::MessageWriter;
use crate::output::pipe::taken_by_reader;
use crate::receive::{Delivery, Sink};

pub struct Stdout<'a> {
    pub writer: MessageWriter<'a>,
    pub printer: &'a Printer,
    pub progress: ProgressBar,
    /// One batch at a time into a pipe: a message counts once the reader took it.
    pub into_pipe: bool,
    pub interrupt: Interrupt,
    /// With `--count-by`: messages are counted rather than written.
    pub counting: Option<Counting>,
}

/// What `--count-by` counts, and what the counts cover.
pub struct Counting {
    pub counter: Counter,
    pub queue: String,
    /// About how many messages the queue held visible before the run.
    pub visible: u64,
    /// Whether filters chose the messages counted.
    pub filtered: bool,
}

impl Counting {
    /// The counting of a run with `--count-by`, with the depth of the queue it covers.
    pub async fn start(
        sqs: &crate::client::Sqs,
        queue: &crate::client::QueueRef,
        count_by: &[String],
        filtered: bool,
    ) -> anyhow::Result<Option<Counting>> {
        let Some(counter) = crate::commands::selection::counter(count_by) else {
            return Ok(None);
        };
        Ok(Some(Counting {
            counter,
            queue: queue.name.clone(),
            visible: sqs.attributes(queue).await?.visible(),
            filtered,
        }))
    }
}

impl Stdout<'_> {
    /// Messages written (or counted).
    pub fn written(&self) -> u64 {
        match &self.counting {
            Some(counting) => counting.counter.counted(),
            None => self.writer.written(),
        }
    }

    /// Closes the output: the counts, or the end of the records.
    pub fn finish(&mut self, passed_over: u64) -> std::io::Result<()> {
        let Some(counting) = &self.counting else {
            return self.writer.finish();
        };
        let counted = counting.counter.counted();
        let report = CountsReport {
            queue: counting.queue.clone(),
            read: counted + passed_over,
            matched: counting.filtered.then_some(counted),
            visible: counting.visible,
            counts: counting.counter.counts(),
        };
        self.printer.emit(&report.document())
    }
}

impl Sink for Stdout<'_> {
    fn received(&mut self, count: usize) {
        if self.printer.verbosity() >= 2 {
            self.printer.debug(format!("received a batch of {count}"));
        }
    }

    async fn deliver(&mut self, batch: &[MessageRecord]) -> Delivery {
        if let Some(counting) = &mut self.counting {
            batch.iter().for_each(|m| counting.counter.add(m));
            self.progress.set_position(counting.counter.counted());
            return Delivery {
                delivered: batch.len(),
                error: None,
            };
        }
        let delivery = if self.into_pipe {
            let flushed = self.writer.write_each(batch);
            Delivery {
                delivered: taken_by_reader(&flushed.ends, &self.interrupt).await,
                error: flushed.error,
            }
        } else {
            // A table goes to the terminal the progress line is on: the line steps aside while
            // it is written, or it would be left above the table.
            match self.progress.suspend(|| self.writer.write_batch(batch)) {
                Ok(()) => Delivery {
                    delivered: batch.len(),
                    error: None,
                },
                Err(err) => Delivery {
                    delivered: 0,
                    error: Some(err),
                },
            }
        };
        self.progress.set_position(self.writer.written());
        delivery
    }
}
