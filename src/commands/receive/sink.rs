//! Where `receive` delivers: message records on stdout through the [`MessageWriter`], with the
//! progress line stepping aside, and into a pipe one message at a time, each delivered only once
//! the reader has taken it out of the pipe and written only after the one before was taken; or,
//! with `--count-by`, counts by key written once the run ends.

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

impl Stdout<'_> {
    /// Into a pipe, one message at a time: each piece is written, flushed and left alone until
    /// the reader has taken it out of the pipe, before the next one goes in. A reader takes what
    /// is in the pipe whole, whatever it then does with it (`head -1` reads a block and keeps one
    /// line): with only one message in the pipe, what it took is that message, and a message
    /// the reader did not take out is not delivered.
    async fn deliver_into_pipe(&mut self, batch: &[MessageRecord]) -> Delivery {
        let mut delivered = 0;
        for record in batch {
            let pieces = match self.writer.pipe_pieces(record) {
                Ok(pieces) => pieces,
                Err(err) => {
                    return Delivery {
                        delivered,
                        error: Some(err),
                    };
                }
            };
            for piece in pieces {
                // What reached the pipe, which is shorter than the piece where a credential in
                // use was left out of it.
                let written = self
                    .printer
                    .write_raw_counted(&piece)
                    .and_then(|written| self.printer.flush().map(|()| written));
                let written = match written {
                    Ok(written) => written,
                    Err(err) => {
                        return Delivery {
                            delivered,
                            error: Some(err),
                        };
                    }
                };
                if taken_by_reader(&[written], &self.interrupt).await == 0 {
                    return Delivery {
                        delivered,
                        error: None,
                    };
                }
            }
            delivered += 1;
        }
        Delivery {
            delivered,
            error: None,
        }
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
            self.deliver_into_pipe(batch).await
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
