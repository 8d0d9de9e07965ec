//! Queues with their depths as rows: those `queues` lists and those each refresh of `top` shows.
//! Both share the depth columns (visible, in flight, delayed), which give way alike on a narrow
//! terminal: the delayed count first, the in-flight count late.

use crate::output::{Column, Row};
use crate::queues::listing::ListedQueue;
use crate::queues::rates::QueueRates;

/// The visible, in-flight and delayed columns.
fn depth_columns() -> [Column; 3] {
    [
        Column::whole("visible"),
        Column::whole("in flight").droppable(4),
        Column::whole("delayed").droppable(1),
    ]
}

fn depth_cells(visible: u64, in_flight: u64, delayed: u64) -> [String; 3] {
    [
        visible.to_string(),
        in_flight.to_string(),
        delayed.to_string(),
    ]
}

/// A queue that `queues` lists: with `-o text` a line of name, visible, in flight, delayed,
/// `fifo` or `standard`, and the dead-letter queue or `-`.
impl Row for ListedQueue {
    const KIND: &'static str = "queue";

    fn columns() -> Vec<Column> {
        let mut columns = vec![Column::id("name")];
        columns.extend(depth_columns());
        columns.push(Column::whole("FIFO").droppable(2));
        columns.push(Column::id("DLQ").droppable(5));
        columns
    }

    fn cells(&self) -> Vec<String> {
        let dlq = match (&self.dlq, self.max_receive_count) {
            (Some(dlq), Some(max)) => format!("{dlq} (after {max})"),
            (Some(dlq), None) => dlq.clone(),
            _ => String::new(),
        };
        let mut cells = vec![self.name.clone()];
        cells.extend(depth_cells(self.visible, self.in_flight, self.delayed));
        cells.push(if self.fifo { "yes" } else { "" }.to_string());
        cells.push(dlq);
        cells
    }

    fn fields(&self) -> Vec<String> {
        let mut fields = vec![self.name.clone()];
        fields.extend(depth_cells(self.visible, self.in_flight, self.delayed));
        fields.push((if self.fifo { "fifo" } else { "standard" }).to_string());
        fields.push(self.dlq.clone().unwrap_or_else(|| "-".to_string()));
        fields
    }
}

/// A queue in a refresh of `top`: with `-o table` a row (a dead-letter queue marked `DLQ`, kept
/// however narrow the terminal), with `-o text` a line: name, visible, in flight, delayed, in/s,
/// out/s (`-` before the second refresh), and `dlq` or `-`.
impl Row for QueueRates {
    const KIND: &'static str = "queue";

    fn columns() -> Vec<Column> {
        let mut columns = vec![Column::id("queue"), Column::whole("")];
        // `top` watches the counts move, where their lag shows: `~` says they are approximate.
        columns.extend([
            Column::whole("~visible"),
            Column::whole("~in flight").droppable(4),
            Column::whole("~delayed").droppable(1),
        ]);
        columns.push(Column::whole("in/s").droppable(2));
        columns.push(Column::whole("out/s").droppable(3));
        columns.push(Column::cut("tenants", 7, 30).droppable(0));
        columns
    }

    fn cells(&self) -> Vec<String> {
        let mut cells = vec![self.name.clone(), dlq_mark(self).to_string()];
        cells.extend(depth_cells(self.visible, self.in_flight, self.delayed));
        cells.push(rate(self.in_per_s));
        cells.push(rate(self.out_per_s));
        cells.push(tenants(self));
        cells
    }

    fn fields(&self) -> Vec<String> {
        let mut fields = vec![self.name.clone()];
        fields.extend(depth_cells(self.visible, self.in_flight, self.delayed));
        fields.push(rate(self.in_per_s));
        fields.push(rate(self.out_per_s));
        fields.push(if self.dlq { "dlq" } else { "-" }.to_string());
        fields.push(self.tenants.as_ref().map_or_else(
            || "-".to_string(),
            |t| format!("{}{}", t.tenants, if t.truncated { "+" } else { "" }),
        ));
        fields
    }
}

/// A fair queue's tenants: their number, and the noisy ones by name (`3, noisy acme`); `-` where
/// they are not known.
pub fn tenants(queue: &QueueRates) -> String {
    let Some(summary) = &queue.tenants else {
        return "-".to_string();
    };
    let count = format!(
        "{}{}",
        summary.tenants,
        if summary.truncated { "+" } else { "" }
    );
    if summary.noisy.is_empty() {
        count
    } else {
        format!("{count}, noisy {}", summary.noisy.join(", "))
    }
}

/// `DLQ` for a dead-letter queue, `DLQ growing` while it grows.
pub fn dlq_mark(queue: &QueueRates) -> &'static str {
    match (queue.dlq, queue.growing) {
        (true, true) => "DLQ growing",
        (true, false) => "DLQ",
        _ => "",
    }
}

/// Messages per second with one decimal, `-` before there is a rate.
pub fn rate(per_s: Option<f64>) -> String {
    per_s.map_or_else(|| "-".to_string(), |r| format!("{r:.1}"))
}
