//! Drawing the [`Model`] of `browse` on a ratatui frame: the title, the list (columns dropped as
//! the terminal narrows, ids shortened to their first 8 characters below 100 columns so the body
//! keeps its room), the counts panel (hidden below [`PANEL_MIN_WIDTH`]
//! columns, saying so), the input line, the status line, and the overlays (detail, help, the
//! question before an action). Untrusted text (bodies, attributes, ids) is escaped before it is
//! drawn. Marks show as `*` and the cursor in reverse video, so both read without colour.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Wrap};

use super::model::{Mode, Model, Tone};
use crate::message::MessageRecord;
use crate::message::envelope::{human_bytes, unwrap};
use crate::output::sanitize::{for_terminal, truncate};

/// The narrowest terminal that shows the counts panel beside the list.
pub const PANEL_MIN_WIDTH: u16 = 100;
const PANEL_WIDTH: u16 = 32;
/// A body column narrower than this says nothing; other columns go first.
const MIN_BODY: u16 = 16;
/// A message id's width (SQS's are UUIDs).
const ID_WIDTH: u16 = 36;
/// A shortened id: its first 8 characters (a UUID's first group), enough to tell the messages of a
/// screen apart; the detail pane shows the whole id.
const SHORT_ID_WIDTH: u16 = 8;
/// The body a list with whole ids still leaves: below it, ids are shortened so the body shows.
const WIDE_BODY: u16 = 40;

/// The list's optional columns, in the order they go when the terminal is narrow (first goes
/// first): their header and width. A FIFO DLQ's group outlasts size and age: at 80 columns it is
/// what tells its messages apart (the counts by group are beside the list only from 100).
const OPTIONAL: [(&str, u16); 4] = [("size", 8), ("age", 6), ("group", 14), ("rcv", 4)];

/// The id column's width in a list `width` cells wide: whole ids when every column fits beside
/// them with a body of [`WIDE_BODY`] cells, else [`SHORT_ID_WIDTH`].
pub fn id_width(width: u16, with_groups: bool) -> u16 {
    if width >= full_list_width(with_groups, ID_WIDTH) - MIN_BODY + WIDE_BODY {
        ID_WIDTH
    } else {
        SHORT_ID_WIDTH
    }
}

/// The columns that fit `width` cells: the mark, the id and the body always; then those of
/// [`OPTIONAL`] that leave the body [`MIN_BODY`] cells. Returns the optional columns shown and
/// those dropped.
pub fn fitted_columns(width: u16, with_groups: bool) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut shown: Vec<(&str, u16)> = OPTIONAL
        .iter()
        .copied()
        .filter(|(name, _)| with_groups || *name != "group")
        .collect();
    let mut dropped = Vec::new();
    let fixed = 2 + id_width(width, with_groups) + 1 + MIN_BODY;
    while fixed + shown.iter().map(|(_, w)| w + 1).sum::<u16>() > width && !shown.is_empty() {
        dropped.push(shown.remove(0).0);
    }
    // Shown in the list's order.
    let order = ["rcv", "age", "group", "size"];
    let mut names: Vec<&str> = shown.iter().map(|(n, _)| *n).collect();
    names.sort_by_key(|n| order.iter().position(|o| o == n));
    (names, dropped)
}

/// The width the list needs to show every column, with ids `id` cells wide.
fn full_list_width(with_groups: bool, id: u16) -> u16 {
    2 + id
        + 1
        + MIN_BODY
        + OPTIONAL
            .iter()
            .filter(|(name, _)| with_groups || *name != "group")
            .map(|(_, w)| w + 1)
            .sum::<u16>()
}

fn width_of(column: &str) -> u16 {
    OPTIONAL
        .iter()
        .find(|(name, _)| *name == column)
        .map_or(0, |(_, w)| *w)
}

/// `42s`, `5m`, `3h`, `2d`: the largest unit, whole.
pub fn age(now_ms: u64, message: &MessageRecord) -> String {
    let Some(sent) = message.attribute_u64("SentTimestamp") else {
        return "-".into();
    };
    let s = now_ms.saturating_sub(sent) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

/// The body as the other views show it: an envelope as its marker and inner message; one line.
pub fn preview(message: &MessageRecord) -> String {
    let body = unwrap(message).map_or_else(|| message.body.clone(), |u| u.shown());
    for_terminal(&body.replace(['\n', '\r', '\t'], " ")).into_owned()
}

fn style(model: &Model, colored: Style) -> Style {
    if model.color { colored } else { Style::new() }
}

pub fn draw(frame: &mut Frame, model: &mut Model) {
    let area = frame.area();
    // A long status (a result naming its journal) takes up to 3 rows rather than being cut.
    let status_rows = wrap(&status_text(model).0, usize::from(area.width))
        .len()
        .clamp(1, 3);
    let [title, body, input, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(u16::try_from(status_rows).unwrap_or(1)),
        Constraint::Length(1),
    ])
    .areas(area);
    let panel = area.width >= PANEL_MIN_WIDTH;
    let (list_area, panel_area) = if panel {
        let [list, side] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(PANEL_WIDTH)]).areas(body);
        (list, Some(side))
    } else {
        (body, None)
    };
    draw_title(frame, model, title);
    let dropped = draw_list(frame, model, list_area);
    if let Some(side) = panel_area {
        draw_panel(frame, model, side);
    }
    draw_input(frame, model, input);
    draw_status(frame, model, status);
    let hints = match (panel, dropped.is_empty()) {
        (true, true) => "space mark  a all  u unmark  / filter  c count  r redrive  y copy  t to…  d delete  x export  e edit  ? help  q quit".to_string(),
        (false, true) => format!("? help  q quit | side panel hidden: widen to {PANEL_MIN_WIDTH} columns"),
        (_, false) => {
            let mut hidden: Vec<&str> = Vec::new();
            if !panel {
                hidden.push("side panel");
            }
            hidden.extend(&dropped);
            let with_groups = model.messages.iter().any(|m| m.effective_group_id().is_some());
            let needed = (full_list_width(with_groups, SHORT_ID_WIDTH) + PANEL_WIDTH)
                .max(PANEL_MIN_WIDTH);
            format!("? help | widen to {needed} columns for: {}", hidden.join(", "))
        }
    };
    frame.render_widget(
        Paragraph::new(truncate(&hints, usize::from(keys.width)).into_owned())
            .style(Style::new().add_modifier(Modifier::DIM)),
        keys,
    );
    if matches!(model.mode, Mode::Detail { .. }) {
        // Scrolled no further than the last line.
        let last = model
            .current()
            .map_or(0, |m| detail_text(m).lines().count().saturating_sub(1));
        if let Mode::Detail { scroll } = &mut model.mode {
            *scroll = (*scroll).min(u16::try_from(last).unwrap_or(u16::MAX));
        }
    }
    match &model.mode {
        Mode::Detail { scroll } => draw_detail(frame, model, *scroll, body),
        Mode::Help => draw_help(frame, area),
        Mode::Confirm(pending) => {
            let text = format!(
                "{}\n\n{}",
                pending.question, "y: yes    n or Esc: no (Ctrl-C: quit, nothing changed)"
            );
            draw_modal(frame, model, area, " confirm ", &text);
        }
        _ => {}
    }
}

fn draw_title(frame: &mut Frame, model: &Model, area: Rect) {
    // The counts first: on a narrow terminal the end of the line goes.
    let mut text = format!(
        "{} shown of {} read, {} marked | {} ({})",
        model.shown.len(),
        model.messages.len(),
        model.marked.len(),
        for_terminal(&model.place.queue),
        model.place.account_region,
    );
    if !model.read_note.is_empty() {
        text.push_str(&format!("; {}", model.read_note));
    }
    frame.render_widget(
        Paragraph::new(truncate(&text, usize::from(area.width)).into_owned())
            .style(Style::new().add_modifier(Modifier::BOLD)),
        area,
    );
}

/// Draws the list; returns the optional columns it could not show.
fn draw_list(frame: &mut Frame, model: &mut Model, area: Rect) -> Vec<&'static str> {
    let with_groups = model
        .messages
        .iter()
        .any(|m| m.effective_group_id().is_some());
    let (columns, dropped) = fitted_columns(area.width, with_groups);
    let id_width = id_width(area.width, with_groups);
    let rows_on_screen = usize::from(area.height.saturating_sub(1));
    let body_width = usize::from(
        area.width
            .saturating_sub(2 + id_width + 1)
            .saturating_sub(columns.iter().map(|c| width_of(c) + 1).sum::<u16>()),
    );
    model.scroll_to_cursor(rows_on_screen);
    if model.shown.is_empty() {
        let text = if model.messages.is_empty() {
            "no message read (R reads again)".to_string()
        } else {
            format!("no message matches {} (/ to change)", model.filter_text)
        };
        frame.render_widget(Paragraph::new(text), area);
        return dropped;
    }
    let id_header = if id_width == ID_WIDTH {
        "message id"
    } else {
        "id"
    };
    let mut header = vec![Cell::from(""), Cell::from(id_header)];
    header.extend(columns.iter().map(|c| Cell::from(*c)));
    header.push(Cell::from("body"));
    let rows = model
        .shown
        .iter()
        .enumerate()
        .skip(model.offset)
        .take(rows_on_screen)
        .map(|(position, &i)| {
            let message = &model.messages[i];
            let id = message.message_id.clone().unwrap_or_default();
            let marked = model.marked.contains(&id);
            let mut cells = vec![
                Cell::from(if marked { "*" } else { " " }),
                Cell::from(
                    for_terminal(&id)
                        .chars()
                        .take(usize::from(id_width))
                        .collect::<String>(),
                ),
            ];
            for column in &columns {
                let text = match *column {
                    "rcv" => message
                        .attributes
                        .get("ApproximateReceiveCount")
                        .cloned()
                        .unwrap_or_default(),
                    "age" => age(model.now_ms, message),
                    // A group longer than its column ends in `…`, as a cut body does.
                    "group" => truncate(
                        &for_terminal(message.effective_group_id().unwrap_or("")),
                        usize::from(width_of("group")),
                    )
                    .into_owned(),
                    _ => human_bytes(message.wire_size() as u64),
                };
                cells.push(Cell::from(text));
            }
            cells.push(Cell::from(
                truncate(&preview(message), body_width).into_owned(),
            ));
            let mut style = Style::new();
            if marked {
                style = style
                    .add_modifier(Modifier::BOLD)
                    .patch(self::style(model, Style::new().fg(Color::Yellow)));
            }
            if position == model.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Row::new(cells).style(style)
        });
    let mut widths = vec![Constraint::Length(1), Constraint::Length(id_width)];
    widths.extend(columns.iter().map(|c| Constraint::Length(width_of(c))));
    widths.push(Constraint::Min(MIN_BODY));
    frame.render_widget(
        Table::new(rows, widths)
            .header(Row::new(header).style(Style::new().add_modifier(Modifier::BOLD)))
            .column_spacing(1),
        area,
    );
    dropped
}

/// A key to count by as the panel names it: the built-in ones in words, others as given.
pub fn count_label(expr: &str) -> String {
    match expr {
        "group_id" => "by group".to_string(),
        "attributes.ApproximateReceiveCount" => "by receive count".to_string(),
        _ => match expr
            .strip_prefix("message_attributes.")
            .and_then(|rest| rest.strip_suffix(".value"))
        {
            Some(name) => format!("by attribute {name}"),
            None => format!("by {expr}"),
        },
    }
}

fn draw_panel(frame: &mut Frame, model: &Model, area: Rect) {
    let block = Block::new()
        .borders(Borders::LEFT)
        .title(" counts (c: next key) ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    match &model.counts {
        Some(counts) => {
            lines.push(Line::from(Span::styled(
                truncate(
                    &for_terminal(&count_label(&counts.expr)),
                    usize::from(inner.width),
                )
                .into_owned(),
                Style::new().add_modifier(Modifier::BOLD),
            )));
            for value in &counts.values {
                let shown = match &value.value {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Null => "(none)".to_string(),
                    other => other.to_string(),
                };
                let number = format!("{:>6} ", value.count);
                let room = usize::from(inner.width).saturating_sub(number.len());
                lines.push(Line::from(format!(
                    "{number}{}",
                    truncate(&for_terminal(&shown), room)
                )));
            }
        }
        None => lines.push(Line::from("nothing to count")),
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_input(frame: &mut Frame, model: &Model, area: Rect) {
    let text = match &model.mode {
        Mode::Input { purpose, text } => format!("{}{}_", purpose.prompt(), text),
        _ if !model.filter_text.is_empty() => format!("filter: {}", model.filter_text),
        _ => String::new(),
    };
    frame.render_widget(Paragraph::new(for_terminal(&text).into_owned()), area);
}

/// The status line's text (escaped) and style.
fn status_text(model: &Model) -> (String, Style) {
    let (text, style) = match (&model.mode, model.tone) {
        (Mode::Running(what), _) => (
            format!("{what} (Ctrl-C stops it)"),
            self::style(model, Style::new().fg(Color::Cyan)),
        ),
        (_, Tone::Error) => (
            format!("error: {}", model.status),
            self::style(model, Style::new().fg(Color::Red)).add_modifier(Modifier::BOLD),
        ),
        (_, Tone::Info) => (model.status.clone(), Style::new()),
    };
    (for_terminal(&text).into_owned(), style)
}

fn draw_status(frame: &mut Frame, model: &Model, area: Rect) {
    let (text, style) = status_text(model);
    let lines: Vec<Line> = wrap(&text, usize::from(area.width))
        .into_iter()
        .map(Line::from)
        .collect();
    frame.render_widget(Paragraph::new(lines).style(style), area);
}

/// The whole message: its body (pretty-printed when JSON), then every attribute.
pub fn detail_text(message: &MessageRecord) -> String {
    let pretty = |body: &str| {
        serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .unwrap_or_else(|| body.to_string())
    };
    let mut out = format!(
        "message id: {}\n",
        message.message_id.as_deref().unwrap_or("")
    );
    if let Some(unwrapped) = unwrap(message) {
        out.push_str(&format!("envelope: {}\n", unwrapped.marker()));
        if let Some(inner) = &unwrapped.inner_body {
            out.push_str("inner message:\n");
            out.push_str(&pretty(inner));
            out.push('\n');
        }
    }
    out.push_str("body:\n");
    out.push_str(&pretty(&message.body));
    out.push_str("\n\nattributes:\n");
    for (name, value) in &message.attributes {
        out.push_str(&format!("  {name}: {value}\n"));
    }
    if !message.message_attributes.is_empty() {
        out.push_str("message attributes:\n");
        for (name, value) in &message.message_attributes {
            out.push_str(&format!(
                "  {name} ({}): {}\n",
                value.data_type, value.value
            ));
        }
    }
    out
}

fn draw_detail(frame: &mut Frame, model: &Model, scroll: u16, area: Rect) {
    let Some(message) = model.current() else {
        return;
    };
    let text: Vec<Line> = detail_text(message)
        .lines()
        .map(|l| Line::from(for_terminal(l).into_owned()))
        .collect();
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(text)
            .block(Block::bordered().title(" message (Up/Down scroll, Esc back) "))
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        area,
    );
}

/// The keys, as the help overlay lists them.
pub const HELP: &str = "\
j/k Up/Down  move; PgUp/PgDn Home/End
Enter        the whole message, whole id (Esc back)
/            filter: regex, or --grep --where --attr ...
c C          count by the next key; by an expression typed
space        mark/unmark; a mark all shown; u unmark all
r            redrive marked (or current) to the source
y            copy them to the source; the DLQ keeps them
t            redrive to a queue you type
d            delete (as delete --message-id)
x            export to a JSON Lines file
e            edit in $EDITOR, then send it back
R            read the queue again
q Esc        quit; Ctrl-C quit, or stop an action
any key closes this help";

fn draw_help(frame: &mut Frame, area: Rect) {
    let width = area.width.min(60);
    let height = area.height.min(16);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(HELP)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" keys ")),
        rect,
    );
}

/// `text` broken into lines of at most `width` characters: at spaces where it can, inside a word
/// longer than the line where it must. The lines drawn are these (no further wrapping), so the box
/// they go in is as tall as they are and nothing at its end is cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let mut word: Vec<char> = word.chars().collect();
            let used = line.chars().count();
            if used > 0 && used + 1 + word.len() <= width {
                line.push(' ');
                line.extend(&word);
                continue;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
            }
            while word.len() > width {
                lines.push(word.drain(..width).collect());
            }
            line.extend(&word);
        }
        lines.push(line);
    }
    lines
}

fn draw_modal(frame: &mut Frame, model: &Model, area: Rect, title: &str, text: &str) {
    let width = area.width.saturating_sub(4).min(100);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let lines = wrap(&for_terminal_lines(text), inner);
    let height = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let rect = centered(area, width, height.saturating_add(2).min(area.height));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).block(
            Block::bordered()
                .title(title)
                .border_style(style(model, Style::new().fg(Color::Yellow))),
        ),
        rect,
    );
}

fn for_terminal_lines(text: &str) -> String {
    crate::output::sanitize::for_terminal_lines(text).into_owned()
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    Rect {
        x: area.x + (area.width.saturating_sub(width)) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width: width.min(area.width),
        height: height.min(area.height),
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::KeyCode;

    use super::*;
    use crate::commands::browse::model::tests::{key, message, model, typed};
    use crate::commands::browse::model::{Action, Pending};

    /// The screen as text, one line per row.
    fn render(model: &mut Model, width: u16, height: u16) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, model)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    fn id(i: usize) -> String {
        message(i).message_id.unwrap()
    }

    #[test]
    fn at_80_by_24_the_list_shows_short_ids_and_the_panel_is_hidden_saying_so() {
        let mut m = model(30);
        m.key(key(KeyCode::Char(' ')));
        let screen = render(&mut m, 80, 24);
        assert!(
            screen[0].starts_with(
                "30 shown of 30 read, 1 marked | orders-dlq (account 000000000000, us-east-1)"
            ),
            "{screen:#?}"
        );
        assert!(screen[1].starts_with("  id "), "{screen:#?}");
        assert!(
            screen[1].contains("rcv") && screen[1].contains("age") && screen[1].contains("size"),
            "every column fits beside short ids: {screen:#?}"
        );
        assert!(screen[1].contains("body"), "{screen:#?}");
        assert!(
            screen[2].starts_with(&format!("* {} ", &id(0)[..8])),
            "{screen:#?}"
        );
        assert!(
            screen[3].starts_with(&format!("  {} ", &id(1)[..8])),
            "{screen:#?}"
        );
        assert!(
            screen[2].contains(r#"{"order":0,"error":"timeout"}"#),
            "the body has the room the whole id would take: {screen:#?}"
        );
        assert!(screen[2].contains("1m"), "the age: {screen:#?}");
        assert!(
            !screen.iter().any(|l| l.contains("counts (c")),
            "{screen:#?}"
        );
        assert!(
            screen[23].contains("side panel hidden: widen to 100 columns"),
            "{screen:#?}"
        );
        // 20 rows of the list, the input line, the status line, the keys.
        assert_eq!(
            screen.iter().filter(|l| l.contains(r#"{"order":"#)).count(),
            19
        );
    }

    #[test]
    fn at_60_columns_short_ids_leave_the_body_room_and_the_hidden_panel_is_named() {
        let mut m = model(5);
        let screen = render(&mut m, 60, 20);
        assert!(
            screen[1].starts_with("  id ") && screen[1].contains("body"),
            "{screen:#?}"
        );
        assert!(screen[1].contains("size"), "{screen:#?}");
        assert!(
            screen[2].starts_with(&format!("  {} ", &id(0)[..8])),
            "{screen:#?}"
        );
        assert_eq!(
            screen[19],
            "? help  q quit | side panel hidden: widen to 100 columns"
        );
        assert!(screen[2].ends_with('…'), "a cut body says so: {screen:#?}");
    }

    #[test]
    fn at_120_by_40_the_counts_panel_shows_beside_the_list() {
        let mut m = model(6);
        m.key(key(KeyCode::Char('c')));
        m.key(key(KeyCode::Char('c')));
        let screen = render(&mut m, 120, 40);
        let panel = screen.join("\n");
        assert!(panel.contains("counts (c: next key)"), "{panel}");
        assert!(panel.contains("by attribute error"), "{panel}");
        assert!(panel.contains("     3 schema"), "{panel}");
        assert!(panel.contains("     3 timeout"), "{panel}");
        assert!(screen[1].contains("size"), "{screen:#?}");
        assert!(!screen[39].contains("hidden"), "{screen:#?}");
    }

    #[test]
    fn the_filter_line_shows_what_is_typed_and_an_error_shows_in_the_status_line() {
        let mut m = model(4);
        m.key(key(KeyCode::Char('/')));
        typed(&mut m, "--where 'x =='");
        let screen = render(&mut m, 80, 24);
        assert!(
            screen[21].starts_with("filter (regex, or --grep/--where/--attr ...): --where 'x =='_"),
            "{screen:#?}"
        );
        m.key(key(KeyCode::Enter));
        let screen = render(&mut m, 80, 24);
        // The error takes two rows rather than being cut.
        assert!(
            screen[21].starts_with("error: filter not applied: --where"),
            "{screen:#?}"
        );
        assert!(screen[22].starts_with("the expression ends"), "{screen:#?}");
        m.set_filter("bad input");
        let screen = render(&mut m, 80, 24);
        assert!(screen[0].starts_with("2 shown of 4 read"), "{screen:#?}");
        assert!(screen[21].starts_with("filter: bad input"), "{screen:#?}");
        assert!(
            screen[22].starts_with("2 of 4 match bad input"),
            "{screen:#?}"
        );
    }

    #[test]
    fn the_question_names_queue_account_region_and_destination() {
        let mut m = model(3);
        m.ask(Pending {
            action: Action::Redrive { to: None },
            ids: vec![id(0)],
            question: "Redrive 1 message\nfrom `orders-dlq` (account 000000000000, us-east-1)\nto `orders` (account 000000000000, us-east-1)?\njournal: /state/orders-dlq.jsonl".into(),
        });
        for (width, height) in [(80, 24), (60, 20)] {
            let screen = render(&mut m, width, height).join("\n");
            for line in [
                "confirm",
                "│Redrive 1 message",
                "│from `orders-dlq` (account 000000000000, us-east-1)",
                "│to `orders` (account 000000000000, us-east-1)?",
                "│journal: /state/orders-dlq.jsonl",
            ] {
                assert!(screen.contains(line), "{line} at {width}: {screen}");
            }
        }
        let screen = render(&mut m, 80, 24).join("\n");
        assert!(screen.contains("y: yes"), "{screen}");
        m.key(key(KeyCode::Char('n')));
        let screen = render(&mut m, 80, 24);
        assert!(
            screen[22].contains("redrive cancelled: nothing was changed"),
            "{screen:#?}"
        );
    }

    #[test]
    fn the_copy_question_says_the_dlq_keeps_them_and_names_both_queues_and_the_journal() {
        let mut m = model(3);
        let question = crate::commands::browse::actions::redrive_question(
            &Action::Copy,
            "3 messages",
            "`orders-dlq` (account 000000000000, us-east-1)",
            "`orders` (account 000000000000, us-east-1)",
            std::path::Path::new("/state/orders-dlq.jsonl"),
        );
        m.ask(Pending {
            action: Action::Copy,
            ids: vec![id(0), id(1), id(2)],
            question,
        });
        let at_80 = render(&mut m, 80, 24).join("\n");
        for line in [
            "│Copy 3 messages (a copy: nothing is deleted)",
            "│from `orders-dlq` (account 000000000000, us-east-1)",
            "│to `orders` (account 000000000000, us-east-1)?",
            "│The DLQ keeps its messages; their receive counts go up by one per receive.",
            "│journal: /state/orders-dlq.jsonl",
            "y: yes",
        ] {
            assert!(at_80.contains(line), "{line} at 80: {at_80}");
        }
        // A journal path longer than the box at 60 columns: the box grows, the answer keys stay.
        m.ask(Pending {
            action: Action::Copy,
            ids: vec![id(0)],
            question: crate::commands::browse::actions::redrive_question(
                &Action::Copy,
                "1 message",
                "`orders-dlq` (account 000000000000, us-east-1)",
                "`orders` (account 000000000000, us-east-1)",
                std::path::Path::new(
                    "/home/someone/.local/state/sqsctl/redrive/orders-dlq-20261202T080024Z.jsonl",
                ),
            ),
        });
        let long = render(&mut m, 60, 20).join("\n");
        assert!(long.contains("│y: yes"), "at 60: {long}");
        assert!(long.contains("080024Z.jsonl"), "at 60: {long}");
        m.key(key(KeyCode::Esc));
        m.ask(Pending {
            action: Action::Copy,
            ids: vec![id(0), id(1), id(2)],
            question: crate::commands::browse::actions::redrive_question(
                &Action::Copy,
                "3 messages",
                "`orders-dlq` (account 000000000000, us-east-1)",
                "`orders` (account 000000000000, us-east-1)",
                std::path::Path::new("/state/orders-dlq.jsonl"),
            ),
        });
        // At 60 columns the long lines wrap inside the box; every word is still there.
        let at_60 = render(&mut m, 60, 20);
        let boxed: String = at_60
            .iter()
            .filter_map(|l| l.trim_start().strip_prefix('│'))
            .map(|l| l.trim_end_matches('│').trim_end())
            .collect::<Vec<_>>()
            .join(" ");
        for words in [
            "Copy 3 messages (a copy: nothing is deleted)",
            "from `orders-dlq` (account 000000000000, us-east-1)",
            "to `orders` (account 000000000000, us-east-1)?",
            "The DLQ keeps its messages; their receive counts go up by one per receive.",
            "journal: /state/orders-dlq.jsonl",
        ] {
            assert!(boxed.contains(words), "{words} at 60: {at_60:#?}");
        }
        assert!(at_60.iter().all(|l| l.chars().count() <= 60), "{at_60:#?}");
        assert!(boxed.contains("y: yes"), "at 60: {at_60:#?}");
        m.key(key(KeyCode::Esc));
        let screen = render(&mut m, 80, 24);
        assert!(
            screen[22].contains("copy cancelled: nothing was changed"),
            "{screen:#?}"
        );
    }

    #[test]
    fn a_long_result_takes_more_status_rows_so_its_journal_path_shows() {
        let mut m = model(3);
        let journal = "/home/someone/.local/state/sqsctl/redrive/orders-dlq-20261202T080024Z.jsonl";
        m.say(
            Tone::Info,
            format!("copied 3 of 3 messages to `orders` (journal {journal})"),
        );
        for width in [80, 60] {
            let screen = render(&mut m, width, 24);
            let status: String = screen[20..23].concat();
            assert!(status.starts_with("copied 3 of 3"), "{screen:#?}");
            assert!(status.contains("080024Z.jsonl)"), "at {width}: {screen:#?}");
        }
        assert_eq!(
            wrap("ab cd efghij", 4),
            ["ab", "cd", "efgh", "ij"],
            "at spaces, inside a word too long"
        );
    }

    #[test]
    fn detail_shows_the_body_pretty_printed_and_every_attribute_and_help_lists_the_keys() {
        let mut m = model(2);
        m.key(key(KeyCode::Enter));
        let screen = render(&mut m, 80, 24).join("\n");
        assert!(screen.contains("\"order\": 0"), "{screen}");
        assert!(screen.contains("ApproximateReceiveCount: 1"), "{screen}");
        assert!(screen.contains("error (String): timeout"), "{screen}");
        // Scrolling stops at the last line, and comes back up at once.
        for _ in 0..50 {
            m.key(key(KeyCode::Down));
        }
        render(&mut m, 80, 24);
        m.key(key(KeyCode::Up));
        let screen = render(&mut m, 80, 24).join("\n");
        assert!(screen.contains("error (String): timeout"), "{screen}");
        assert!(!screen.contains("message id:"), "{screen}");
        m.key(key(KeyCode::Esc));
        m.key(key(KeyCode::Char('?')));
        let screen = render(&mut m, 80, 24).join("\n");
        assert!(
            screen.contains("redrive marked (or current) to the source"),
            "{screen}"
        );
        assert!(
            screen.contains("copy them to the source; the DLQ keeps them"),
            "{screen}"
        );
    }

    #[test]
    fn without_colour_marks_and_the_cursor_still_show() {
        let mut m = model(3);
        m.key(key(KeyCode::Char(' ')));
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|frame| draw(frame, &mut m)).unwrap();
        let buffer = terminal.backend().buffer();
        assert!(!m.color);
        for x in 0..80 {
            for y in 0..24 {
                assert_eq!(buffer[(x, y)].fg, Color::Reset, "no colour at {x},{y}");
            }
        }
        assert_eq!(buffer[(0, 2)].symbol(), "*");
        // The cursor moved to the second row: reverse video.
        assert!(buffer[(2, 3)].modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn an_envelope_shows_as_its_marker_and_inner_message_and_control_characters_are_escaped() {
        let sns = MessageRecord::with_body(
            r#"{"Type":"Notification","MessageId":"m-1","TopicArn":"arn:aws:sns:us-east-1:000000000000:orders","Message":"{\"order\":7}","Timestamp":"2024-01-01T00:00:00Z"}"#,
        );
        assert_eq!(preview(&sns), r#"[sns orders] {"order":7}"#);
        let detail = detail_text(&sns);
        assert!(detail.contains("envelope: [sns orders]"), "{detail}");
        assert!(
            detail.contains("inner message:\n{\n  \"order\": 7\n}"),
            "{detail}"
        );
        let hostile = MessageRecord::with_body("a\x1b[31mred\nline");
        assert_eq!(preview(&hostile), "a\\u{1b}[31mred line");
    }

    #[test]
    fn a_fifo_dlq_at_80_columns_shows_the_group_and_a_long_one_ends_in_an_ellipsis() {
        let mut m = model(0);
        let mut records = Vec::new();
        for (i, group) in ["customer-1", "customer-22-long-group-name"]
            .iter()
            .enumerate()
        {
            let mut record = message(i);
            record
                .attributes
                .insert("MessageGroupId".into(), group.to_string());
            records.push(record);
        }
        m.load(records, 1_700_000_060_000);
        let screen = render(&mut m, 80, 24);
        assert!(screen[1].contains("group"), "{screen:#?}");
        assert!(screen[2].contains(" customer-1 "), "{screen:#?}");
        assert!(screen[3].contains(" customer-22-l… "), "{screen:#?}");
    }

    #[test]
    fn columns_drop_in_order_as_the_width_shrinks() {
        assert_eq!(id_width(120, true), ID_WIDTH);
        assert_eq!(fitted_columns(120, true).1, Vec::<&str>::new());
        assert_eq!(id_width(100, false), ID_WIDTH);
        assert_eq!(id_width(99, false), SHORT_ID_WIDTH);
        assert_eq!(id_width(80, true), SHORT_ID_WIDTH);
        assert_eq!(fitted_columns(80, true).1, Vec::<&str>::new());
        assert_eq!(fitted_columns(60, true).1, ["size"]);
        assert_eq!(fitted_columns(60, true).0, ["rcv", "age", "group"]);
        assert_eq!(fitted_columns(60, false).1, Vec::<&str>::new());
        assert_eq!(fitted_columns(40, false).1, ["size"]);
        assert_eq!(fitted_columns(40, false).0, ["rcv", "age"]);
    }
}
