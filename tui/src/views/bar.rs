//! The key-help bar: always on the last line, fed by the current context's key map.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::action::Action;
use crate::app::App;
use crate::keymap::{self, Context};

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.theme;
    let context = app.context();
    let lines = keymap::help_lines(context);
    // How to get help comes first, so it survives a narrow terminal.
    let help_key = if context.is_typing() { "F1" } else { "?" };
    let mut spans = Vec::new();
    if context != Context::Help {
        spans.push(Span::styled(format!(" {help_key}"), theme.key()));
        spans.push(Span::raw(" help "));
    }
    for line in lines.iter().filter(|line| {
        line.in_bar && (line.action != Action::ToggleHelp || context == Context::Help)
    }) {
        // The first key of a binding is enough for the bar; help lists them all.
        let key = line.keys.first().cloned().unwrap_or_default();
        spans.push(Span::styled(format!(" {key}"), theme.key()));
        spans.push(Span::raw(format!(" {} ", line.help)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
