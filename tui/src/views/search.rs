//! The "Search Clients" dialog (Ctrl+K): core's search from 2 typed characters.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};

use super::format::{age, date, status_label};
use crate::app::{App, SearchState};

pub fn render(frame: &mut Frame, area: Rect, app: &App, search: &SearchState) {
    let theme = app.theme;
    let rect = super::overlay_area(frame, area, 76, 16);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Search Clients ");
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let [input, hint, results] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
    ])
    .areas(inner);
    let input_line = if search.term.is_empty() {
        Line::from(vec![
            Span::raw(" > "),
            Span::styled("Search by name, phone, or email...", theme.dim()),
        ])
    } else {
        Line::from(vec![
            Span::raw(" > "),
            Span::styled(format!("{}▏", search.term), theme.focus()),
        ])
    };
    frame.render_widget(Paragraph::new(input_line), input);
    frame.render_widget(
        Paragraph::new(Span::styled(" Type at least 2 characters.", theme.dim())),
        hint,
    );
    let typed = search.term.trim().chars().count();
    if typed == 0 {
        frame.render_widget(Paragraph::new(" Start typing to search clients"), results);
        return;
    }
    if search.results.is_empty() {
        if typed >= 2 {
            let lines = vec![
                Line::from(format!(" No clients found for \"{}\"", search.term)),
                Line::from(Span::styled(" Enter: View All Clients", theme.dim())),
            ];
            frame.render_widget(Paragraph::new(lines), results);
        }
        return;
    }
    let rows = search.results.iter().map(|intake| {
        let badge_style = if intake.pipeline.overdue {
            theme.error()
        } else {
            theme.header()
        };
        Row::new(vec![
            ratatui::text::Text::raw(intake.client_full_name.clone()),
            ratatui::text::Text::raw(age(intake.age)),
            ratatui::text::Text::styled(status_label(&intake.pipeline), badge_style),
            ratatui::text::Text::raw(date(&intake.created_at, &app.time_zone)),
            ratatui::text::Text::raw(intake.pipeline.next_action.clone()),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Fill(3),
            Constraint::Length(3),
            Constraint::Fill(3),
            Constraint::Length(12),
            Constraint::Fill(3),
        ],
    )
    .row_highlight_style(theme.selected());
    let mut state = TableState::default();
    state.select(Some(search.selected));
    frame.render_stateful_widget(table, results, &mut state);
}
