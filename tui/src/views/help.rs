//! The `?` help: every key of the current view, straight from the key map.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::{App, Screen};
use crate::keymap::{self, Context};

/// The context under the help box (help describes the view, not itself).
fn described_context(app: &App) -> Context {
    match &app.screen {
        Screen::Dashboard(_) => Context::Dashboard,
        Screen::List(list) if list.kind == crate::app::ListKind::Clients => Context::ClientsList,
        Screen::List(_) => Context::List,
        Screen::Client(_) => Context::Client,
        Screen::Form(form) if form.read_only => Context::FormView,
        Screen::Form(_) => Context::Form,
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.theme;
    let context = described_context(app);
    let lines: Vec<Line> = keymap::help_lines(context)
        .into_iter()
        .map(|line| {
            Line::from(vec![
                Span::styled(format!(" {:<22}", line.keys.join(", ")), theme.key()),
                Span::raw(line.help),
            ])
        })
        .collect();
    let height = lines.len() as u16 + 2;
    let rect = super::overlay_area(frame, area, 60, height);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" Help: {} (Esc closes) ", context.title()));
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
