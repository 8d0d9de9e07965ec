//! Tables that fit the terminal: each column says how it may give way (an id is never cut, only
//! shown in a short form; free text is cut with `…` or wrapped; a short value is kept whole) and
//! which columns may be dropped first, and [`Table::render`] lays the table out within a width. No
//! line of a rendered table is wider than that width unless even the columns that cannot give way
//! do not fit. Cells are escaped for a terminal here, whoever filled them; comfy-table draws the
//! fitted table.

use unicode_width::UnicodeWidthStr;

use crate::output::sanitize;

/// How a column's cells give way when the table is too wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// A short value (a count, a flag, a time, a marker such as `DLQ`): always whole.
    Whole,
    /// An identifier: never cut mid-way, but shown as its first [`SHORT_ID`] characters and `…`
    /// when nothing else gives way.
    Id,
    /// Free text cut with `…` to at most `max` characters, and down to `min` on a narrow terminal.
    Cut { min: usize, max: usize },
    /// Free text wrapped at word boundaries to at most `max` characters a line, and down to `min`.
    Wrap { min: usize, max: usize },
}

/// The characters an id keeps in its short form, before the `…`.
pub const SHORT_ID: usize = 8;

/// One column: its header, how it gives way, and whether it may be dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub header: String,
    pub fit: Fit,
    /// `Some(n)`: dropped when the table does not fit otherwise, lowest `n` first; `None`: kept.
    pub drop_order: Option<u8>,
    /// Free text: the width it keeps while a droppable column can go instead (its minimum
    /// otherwise).
    pub keep: usize,
}

impl Column {
    /// A column whose values are short and always whole.
    pub fn whole(header: impl Into<String>) -> Column {
        Column {
            header: header.into(),
            fit: Fit::Whole,
            drop_order: None,
            keep: 0,
        }
    }

    /// A column of identifiers (message ids, queue names, group ids).
    pub fn id(header: impl Into<String>) -> Column {
        Column {
            fit: Fit::Id,
            ..Column::whole(header)
        }
    }

    /// A column of free text, cut with `…`.
    pub fn cut(header: impl Into<String>, min: usize, max: usize) -> Column {
        Column {
            fit: Fit::Cut { min, max },
            ..Column::whole(header)
        }
    }

    /// A column of free text, wrapped.
    pub fn wrap(header: impl Into<String>, min: usize, max: usize) -> Column {
        Column {
            fit: Fit::Wrap { min, max },
            ..Column::whole(header)
        }
    }

    /// May be dropped on a narrow terminal; columns with a lower `order` go first.
    pub fn droppable(mut self, order: u8) -> Column {
        self.drop_order = Some(order);
        self
    }

    /// Free text that keeps `width` characters while a droppable column can go instead, and
    /// gives way down to its minimum only once none is left.
    pub fn keeping(mut self, width: usize) -> Column {
        self.keep = width;
        self
    }
}

/// A table: a header and rows of cells, one per column. A cell may hold several lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

/// What each column takes besides its content: one space either side and a border.
const PER_COLUMN: usize = 3;

/// How far free text gives way while a table is fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floor {
    /// Down to the width it keeps ([`Column::keeping`]), while a droppable column can go.
    Kept,
    /// Down to its minimum.
    Min,
    /// Down to one character: nothing else is left to give way.
    One,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing cells are empty, extra cells are ignored.
    pub fn row(&mut self, mut cells: Vec<String>) {
        cells.resize(self.columns.len(), String::new());
        self.rows.push(cells);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The same table with each cell replaced by what `f` makes of it.
    pub fn map_cells(&self, f: impl Fn(&str) -> String) -> Table {
        Table {
            columns: self.columns.clone(),
            rows: self
                .rows
                .iter()
                .map(|row| row.iter().map(|cell| f(cell)).collect())
                .collect(),
        }
    }

    /// Leaves out the columns that are empty in every row (no group on a standard queue).
    pub fn without_empty_columns(mut self) -> Table {
        let keep: Vec<bool> = (0..self.columns.len())
            .map(|c| self.rows.iter().any(|row| !row[c].is_empty()))
            .collect();
        self.retain(&keep);
        self
    }

    fn retain(&mut self, keep: &[bool]) {
        let mut flags = keep.iter();
        self.columns.retain(|_| *flags.next().unwrap_or(&true));
        for row in &mut self.rows {
            let mut flags = keep.iter();
            row.retain(|_| *flags.next().unwrap_or(&true));
        }
    }

    /// The table as lines of text no wider than `width` (when given), each cell escaped for a
    /// terminal. Free text gives way first (down to what it keeps), then droppable columns go
    /// (lowest order first), then free text gives way down to its minimum, then ids take their
    /// short form, then free text goes below its minimum.
    pub fn render(&self, width: Option<usize>) -> String {
        let mut table = self.clone();
        for row in &mut table.rows {
            for cell in row.iter_mut() {
                *cell = cell
                    .split('\n')
                    .map(|line| sanitize::for_terminal(line).into_owned())
                    .collect::<Vec<_>>()
                    .join("\n");
            }
        }
        let (widths, short_ids) = loop {
            let natural = table.natural_widths();
            let Some(width) = width else {
                break (natural, false);
            };
            let droppable = table
                .columns
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.drop_order.map(|order| (order, i)))
                .min();
            let floor = if droppable.is_some() {
                Floor::Kept
            } else {
                Floor::Min
            };
            let shrunk = table.shrink(natural.clone(), width, floor);
            if total(&shrunk) <= width {
                break (shrunk, false);
            }
            if let Some((_, drop)) = droppable {
                let keep: Vec<bool> = (0..table.columns.len()).map(|c| c != drop).collect();
                table.retain(&keep);
                continue;
            }
            let mut widths = natural;
            for (column, w) in table.columns.iter().zip(widths.iter_mut()) {
                if column.fit == Fit::Id {
                    *w = (*w).min(SHORT_ID + 1).max(width_of(&column.header));
                }
            }
            let widths = table.shrink(widths, width, Floor::One);
            break (widths, true);
        };
        table.draw(&widths, short_ids)
    }

    /// Each column's width with nothing given way: its widest line (free text up to its maximum).
    fn natural_widths(&self) -> Vec<usize> {
        self.columns
            .iter()
            .enumerate()
            .map(|(c, column)| {
                let widest = self
                    .rows
                    .iter()
                    .flat_map(|row| row[c].split('\n'))
                    .map(width_of)
                    .max()
                    .unwrap_or(0);
                let cap = match column.fit {
                    Fit::Cut { max, .. } | Fit::Wrap { max, .. } => max,
                    Fit::Whole | Fit::Id => usize::MAX,
                };
                widest.min(cap).max(width_of(&column.header))
            })
            .collect()
    }

    /// Narrows the free-text columns, widest first, until the table fits `width` or each is at
    /// its floor.
    fn shrink(&self, mut widths: Vec<usize>, width: usize, floor: Floor) -> Vec<usize> {
        let floor = |column: &Column| match (column.fit, floor) {
            (Fit::Cut { min, .. } | Fit::Wrap { min, .. }, Floor::Kept | Floor::Min) => {
                let min = min.max(width_of(&column.header).min(min));
                if floor == Floor::Kept {
                    min.max(column.keep)
                } else {
                    min
                }
            }
            (Fit::Cut { .. } | Fit::Wrap { .. }, Floor::One) => 1,
            (Fit::Whole | Fit::Id, _) => usize::MAX,
        };
        while total(&widths) > width {
            let widest = self
                .columns
                .iter()
                .zip(&widths)
                .enumerate()
                .filter(|(_, (column, w))| **w > floor(column))
                .max_by_key(|(_, (_, w))| **w)
                .map(|(i, _)| i);
            match widest {
                Some(i) => widths[i] -= 1,
                None => break,
            }
        }
        widths
    }

    /// Draws the fitted table with comfy-table: each column exactly its width (comfy-table wraps
    /// the free text of a `Wrap` column within it), ids and cut text already laid out here.
    fn draw(&self, widths: &[usize], short_ids: bool) -> String {
        let mut out = comfy_table::Table::new();
        out.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
            .set_width(u16::try_from(total(widths)).unwrap_or(u16::MAX))
            .set_header(self.columns.iter().map(|c| c.header.clone()));
        for row in &self.rows {
            out.add_row(
                self.columns
                    .iter()
                    .zip(row)
                    .zip(widths)
                    .map(|((column, cell), &w)| lay_out(cell, column.fit, w, short_ids)),
            );
        }
        for (column, &w) in out.column_iter_mut().zip(widths) {
            let padded = u16::try_from(w + 2).unwrap_or(u16::MAX);
            column.set_constraint(comfy_table::ColumnConstraint::Absolute(
                comfy_table::Width::Fixed(padded),
            ));
        }
        out.to_string()
    }
}

/// A cell laid out for its column: an id whole or in its short form, free text cut with `…`;
/// text to wrap is left to comfy-table.
fn lay_out(cell: &str, fit: Fit, width: usize, short_ids: bool) -> String {
    cell.split('\n')
        .map(|line| match fit {
            Fit::Id if short_ids && width_of(line) > width => short_form(line, width),
            Fit::Cut { .. } => cut(line, width),
            Fit::Whole | Fit::Id | Fit::Wrap { .. } => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// An id's short form: its first characters and `…`, within `width`.
fn short_form(id: &str, width: usize) -> String {
    cut(id, width.clamp(2, SHORT_ID + 1))
}

/// `text` cut to `width` columns, the cut marked with `…`.
pub fn cut(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

fn width_of(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// The width of a table whose columns have these content widths.
fn total(widths: &[usize]) -> usize {
    widths.iter().map(|w| w + PER_COLUMN).sum::<usize>() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widest_line(text: &str) -> usize {
        text.lines().map(width_of).max().unwrap_or(0)
    }

    fn messages() -> Table {
        let mut table = Table::new(vec![
            Column::whole("#"),
            Column::id("message id"),
            Column::id("group").droppable(3),
            Column::whole("receives").droppable(1),
            Column::whole("sent").droppable(2),
            Column::cut("attributes", 12, 40).droppable(4),
            Column::cut("body", 12, 60),
        ]);
        table.row(vec![
            "1".into(),
            "0b5f1a2c-6d7e-4f80-9a1b-2c3d4e5f6a7b".into(),
            "customer-1".into(),
            "3".into(),
            "2024-01-02T03:04:05Z".into(),
            "failure=timeout, tenant=acme".into(),
            "{\"order\":1,\"note\":\"a body long enough that a narrow terminal cannot show it\"}"
                .into(),
        ]);
        table
    }

    #[test]
    fn a_wide_terminal_shows_everything_with_the_body_cut_at_its_maximum() {
        let text = messages().render(Some(200));
        assert!(text.contains("2024-01-02T03:04:05Z"), "{text}");
        assert!(
            text.contains("0b5f1a2c-6d7e-4f80-9a1b-2c3d4e5f6a7b"),
            "{text}"
        );
        assert!(text.contains('…'), "{text}");
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[test]
    fn narrow_terminals_drop_columns_by_order_and_keep_ids_whole() {
        for width in [60, 80, 100] {
            let text = messages().render(Some(width));
            assert!(widest_line(&text) <= width, "{width}:\n{text}");
            assert!(
                text.contains("0b5f1a2c-6d7e-4f80-9a1b-2c3d4e5f6a7b"),
                "{width}:\n{text}"
            );
            assert_eq!(
                text.lines().count(),
                5,
                "one line a message at {width}:\n{text}"
            );
        }
        let text = messages().render(Some(80));
        assert!(!text.contains("receives"), "{text}");
        assert!(text.contains("failure="), "{text}");
    }

    /// A body that keeps 32 characters: the droppable columns go before it gives way, and it
    /// gives way down to its minimum only once none is left, before ids are shortened.
    #[test]
    fn a_kept_width_drops_columns_before_the_text_gives_way() {
        let kept = |width| {
            let mut table = messages();
            table.columns[6] = Column::cut("body", 12, 60).keeping(32);
            table.render(Some(width))
        };
        let text = kept(80);
        assert!(widest_line(&text) <= 80, "{text}");
        assert!(!text.contains("failure="), "attributes went first:\n{text}");
        assert!(text.contains(r#"{"order":1,"note":"a body"#), "{text}");
        assert!(
            text.contains("0b5f1a2c-6d7e-4f80-9a1b-2c3d4e5f6a7b"),
            "{text}"
        );
        let text = kept(60);
        assert!(widest_line(&text) <= 60, "{text}");
        assert!(
            text.contains("0b5f1a2c-6d7e-4f80-9a1b-2c3d4e5f6a7b"),
            "ids stay whole while the text can give way to its minimum:\n{text}"
        );
        // Without it, the attributes stay at 80 and the body is what gives way.
        let text = messages().render(Some(80));
        assert!(text.contains("failure="), "{text}");
    }

    #[test]
    fn very_narrow_terminals_shorten_ids_rather_than_wrap_them() {
        let text = messages().render(Some(40));
        assert!(widest_line(&text) <= 40, "{text}");
        assert!(text.contains("0b5f1a2c…"), "{text}");
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[test]
    fn wrapped_text_stays_within_its_column() {
        let mut table = Table::new(vec![Column::whole("id"), Column::wrap("advice", 8, 30)]);
        table.row(vec![
            "a".into(),
            "one two three four five six seven eight nine ten eleven twelve".into(),
        ]);
        let text = table.render(Some(30));
        assert!(widest_line(&text) <= 30, "{text}");
        assert!(
            text.lines().count() > 5,
            "wrapped onto several lines:\n{text}"
        );
        assert!(text.contains("twelve"), "nothing is lost:\n{text}");
    }

    #[test]
    fn cuts_are_marked_and_counted_in_columns() {
        assert_eq!(cut("héllo world", 5), "héll…");
        assert_eq!(cut("short", 5), "short");
    }

    #[test]
    fn cells_are_escaped_for_a_terminal() {
        let mut table = Table::new(vec![Column::cut("body", 5, 40)]);
        table.row(vec!["a\x1b[31mred\tx".into()]);
        let text = table.render(None);
        assert!(text.contains("a\\u{1b}[31mred\\tx"), "{text}");
    }
}
