//! `top` on a terminal: a full-screen table (ratatui on crossterm) redrawn on every refresh and
//! keystroke. The terminal is put back (raw mode off, the main screen back, the cursor shown)
//! however the view ends: `q`, Ctrl-C, an error, or a panic (ratatui's panic hook).

use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row as TableRow, Table};

use super::TopSettings;
use crate::commands::context::Context;
use crate::commands::keys::{Keys, Restore};
use crate::exit::ExitStatus;
use crate::output::queues::{dlq_mark, rate, tenants};
use crate::output::sanitize;
use crate::queues::rates::{QueueRates, Sampler, SortKey};

/// What the screen shows.
struct View {
    rows: Vec<QueueRates>,
    sort: SortKey,
    reverse: bool,
    refreshes: u64,
    took: Duration,
    prefix: Option<String>,
    interval: Duration,
}

pub async fn run(
    ctx: &Context,
    settings: &TopSettings,
    mut sampler: Sampler,
) -> anyhow::Result<ExitStatus> {
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    let mut keys = Keys::spawn();
    let mut view = View {
        rows: Vec::new(),
        sort: settings.sort,
        reverse: false,
        refreshes: 0,
        took: Duration::ZERO,
        prefix: settings.prefix.clone(),
        interval: settings.interval,
    };
    loop {
        terminal.draw(|frame| draw(frame, &view))?;
        tokio::select! {
            refresh = sampler.next() => {
                let Some(refresh) = refresh else { return Ok(ExitStatus::Success) };
                let refresh = refresh?;
                view.rows = refresh.queues;
                view.sort.sort(&mut view.rows, view.reverse);
                view.refreshes += 1;
                view.took = refresh.took;
                if settings.count.is_some_and(|count| view.refreshes >= count) {
                    terminal.draw(|frame| draw(frame, &view))?;
                    return Ok(ExitStatus::Success);
                }
            }
            key = keys.recv() => {
                let Some(Event::Key(key)) = key else { continue };
                if key.kind != KeyEventKind::Press {
                    continue;
                }
                match key.code {
                    KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                        return Ok(ExitStatus::Interrupted);
                    }
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(ExitStatus::Success),
                    KeyCode::Char('s') => {
                        view.sort = view.sort.next();
                        view.sort.sort(&mut view.rows, view.reverse);
                    }
                    KeyCode::Char('r') => {
                        view.reverse = !view.reverse;
                        view.sort.sort(&mut view.rows, view.reverse);
                    }
                    _ => {}
                }
            }
            () = ctx.interrupt.wait() => return Ok(ExitStatus::Interrupted),
        }
    }
}

/// The columns (by index) that fit `available` cells with a space between each: the tenants go
/// first, then the delayed count, the rates, and the in-flight count; the name, the marker and the
/// visible count stay.
fn shown_columns(widths: &[u16; 8], available: u16) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..widths.len()).collect();
    let total =
        |shown: &[usize]| -> u32 { shown.iter().map(|&c| u32::from(widths[c]) + 1).sum::<u32>() };
    for drop in [7, 4, 5, 6, 3] {
        if total(&shown) <= u32::from(available) + 1 {
            break;
        }
        shown.retain(|&c| c != drop);
    }
    shown
}

fn draw(frame: &mut ratatui::Frame, view: &View) {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let scope = match &view.prefix {
        Some(prefix) => format!("queues starting with `{}`", sanitize::for_terminal(prefix)),
        None => "all queues".to_string(),
    };
    let title = format!(
        "sqsctl top: {scope}, {} shown, every {}, refresh {} ({} ms), sorted by {}{}",
        view.rows.len(),
        humantime::format_duration(view.interval),
        view.refreshes,
        view.took.as_millis(),
        view.sort.label(),
        if view.reverse { " (reversed)" } else { "" }
    );
    frame.render_widget(Paragraph::new(title).bold(), header);
    // The marker comes right after the name, so that it stays on screen however narrow the
    // terminal; the columns that matter least go first when the screen is too narrow for all.
    let headers = [
        "queue",
        "",
        "~visible",
        "~in flight",
        "~delayed",
        "in/s",
        "out/s",
        "tenants",
    ];
    // The name column is as wide as the longest name: the numbers stay near the names on a wide
    // terminal.
    let name_width = view
        .rows
        .iter()
        .map(|row| sanitize::for_terminal(&row.name).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(10, 80) as u16;
    let mark_width = view
        .rows
        .iter()
        .map(|row| dlq_mark(row).len())
        .max()
        .unwrap_or(0) as u16;
    let tenant_cells: Vec<String> = view
        .rows
        .iter()
        .map(|row| {
            sanitize::truncate(&sanitize::for_terminal(&tenants(row)), TENANTS_WIDTH).into_owned()
        })
        .collect();
    let tenants_width = tenant_cells
        .iter()
        .map(|cell| cell.chars().count())
        .max()
        .unwrap_or(0)
        .max(7) as u16;
    let widths = [name_width, mark_width, 10, 10, 10, 9, 9, tenants_width + 1];
    let shown = shown_columns(&widths, body.width);
    let header_row = TableRow::new(shown.iter().map(|&column| {
        let h = headers[column];
        let text = Line::from(h);
        let cell = Cell::from(if column >= 2 {
            text.right_aligned()
        } else {
            text
        });
        if h == view.sort.label() || (h == "queue" && view.sort == SortKey::Name) {
            cell.add_modifier(Modifier::UNDERLINED)
        } else {
            cell
        }
    }))
    .bold();
    let rows = view.rows.iter().zip(tenant_cells).map(|(row, tenants)| {
        let cells = [
            Cell::from(sanitize::for_terminal(&row.name).into_owned()),
            Cell::from(dlq_mark(row)),
            Cell::from(Line::from(row.visible.to_string()).right_aligned()),
            Cell::from(Line::from(row.in_flight.to_string()).right_aligned()),
            Cell::from(Line::from(row.delayed.to_string()).right_aligned()),
            Cell::from(Line::from(rate(row.in_per_s)).right_aligned()),
            Cell::from(Line::from(rate(row.out_per_s)).right_aligned()),
            Cell::from(format!(" {tenants}")),
        ];
        let line = TableRow::new(
            cells
                .into_iter()
                .enumerate()
                .filter(|(column, _)| shown.contains(column))
                .map(|(_, cell)| cell),
        );
        if row.dlq && row.growing {
            line.style(Style::new().red().bold())
        } else {
            line
        }
    });
    let widths: Vec<Constraint> = shown
        .iter()
        .map(|&column| Constraint::Length(widths[column]))
        .collect();
    frame.render_widget(Table::new(rows, widths).header(header_row), body);
    frame.render_widget(
        Paragraph::new("s: sort key   r: reverse   q: quit   ~: SQS's approximate counts").dim(),
        footer,
    );
}

/// The widest a tenants cell is shown, noisy names included.
const TENANTS_WIDTH: usize = 30;

#[cfg(test)]
mod tests {
    use super::shown_columns;

    #[test]
    fn a_narrow_screen_drops_the_numbers_that_matter_least_and_keeps_the_marker() {
        let widths = [20, 11, 10, 10, 10, 9, 9, 20];
        assert_eq!(shown_columns(&widths, 200), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(shown_columns(&widths, 100), [0, 1, 2, 3, 4, 5, 6]);
        // 60 columns: the name, the marker, visible and in flight.
        assert_eq!(shown_columns(&widths, 60), [0, 1, 2, 3]);
        assert_eq!(shown_columns(&widths, 80), [0, 1, 2, 3, 5, 6]);
        assert_eq!(shown_columns(&widths, 30), [0, 1, 2]);
    }
}
