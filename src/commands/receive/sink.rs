//! Where `receive` delivers: message records on stdout through the [`MessageWriter`], with the
//! progress line stepping aside, and into a pipe each message flushed on its own and delivered
//! only once the reader has taken it out of the pipe.

use indicatif::ProgressBar;

use crate::interrupt::Interrupt;
use crate::message::MessageRecord;
use crate::output::Printer;
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
}

impl Sink for Stdout<'_> {
    fn received(&mut self, count: usize) {
        if self.printer.verbosity() >= 2 {
            self.printer.debug(format!("received a batch of {count}"));
        }
    }

    async fn deliver(&mut self, batch: &[MessageRecord]) -> Delivery {
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
