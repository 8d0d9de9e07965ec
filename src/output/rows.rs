//! Rows that come one at a time (a delete's outcomes, a visibility change's): each is written at
//! once as a JSON Lines record, and all of them as one document at the end in the other formats.

use std::io;
use std::ops::ControlFlow;

use super::{Document, Printer, Row};

pub struct RowStream<'p, R: Row> {
    printer: &'p Printer,
    rows: Vec<R>,
    error: Option<io::Error>,
}

impl<'p, R: Row> RowStream<'p, R> {
    pub fn new(printer: &'p Printer) -> Self {
        RowStream {
            printer,
            rows: Vec::new(),
            error: None,
        }
    }

    /// Streams `row` and keeps it for the document; `Break` once writing failed, which should
    /// stop the caller ([`RowStream::checked`] then says why).
    pub fn push(&mut self, row: R) -> ControlFlow<()> {
        if let Err(err) = self.printer.stream(R::KIND, &row) {
            self.error = Some(err);
            return ControlFlow::Break(());
        }
        self.rows.push(row);
        ControlFlow::Continue(())
    }

    pub fn rows(&self) -> &[R] {
        &self.rows
    }

    /// The error that stopped the stream, if one did.
    pub fn checked(&mut self) -> io::Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }

    /// Writes the document of every row kept (their JSON Lines records were written already).
    pub fn finish(&self) -> io::Result<()> {
        self.printer.emit(&Document::rows(&self.rows).streamed())
    }
}
