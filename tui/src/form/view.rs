//! Draws the intake form: the section list on the left (the jump targets), the fields
//! on the right with required marks, and each field's validation message beside it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::fields::{FieldKind, SECTIONS};
use super::state::{FormState, slots};
use crate::app::App;

/// Width of the label column.
const LABEL_WIDTH: usize = 27;

pub fn render(frame: &mut Frame, area: Rect, app: &App, form: &FormState) {
    let theme = app.theme;
    let section_width = if area.width >= 100 { 34 } else { 24 };
    let [sections_area, fields_area] =
        Layout::horizontal([Constraint::Length(section_width), Constraint::Min(20)]).areas(area);

    let current = form.slot().section;
    let section_lines: Vec<Line> = SECTIONS
        .iter()
        .enumerate()
        .map(|(index, section)| {
            let has_error = section
                .fields
                .iter()
                .any(|field| form.errors.contains_key(field.key));
            let mark = if has_error { "!" } else { " " };
            let style = if index == current {
                theme.selected()
            } else if has_error {
                theme.error()
            } else {
                Style::default()
            };
            Line::from(Span::styled(format!("{mark}{}", section.title), style))
        })
        .collect();
    frame.render_widget(
        Paragraph::new(section_lines)
            .block(Block::default().borders(Borders::ALL).title(" Sections ")),
        sections_area,
    );

    let mut title = match (&form.status_banner, form.read_only) {
        (Some(status), _) => format!(" {status} "),
        (None, _) => " New Intake ".to_owned(),
    };
    if form.read_only {
        title.push_str("· read-only (e edits) ");
    }
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(fields_area);
    frame.render_widget(block, fields_area);

    let (lines, focus_line) = field_lines(app, form);
    let height = inner.height as usize;
    // Keep the focused field in the middle once the form is scrolled.
    let offset = focus_line
        .saturating_sub(height / 2)
        .min(lines.len().saturating_sub(height));
    frame.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
}

fn field_lines<'a>(app: &App, form: &'a FormState) -> (Vec<Line<'a>>, usize) {
    let theme = app.theme;
    let mut lines: Vec<Line> = Vec::new();
    let mut focus_line = 0;
    let focus = form.focus;
    let all = slots();
    let mut index = 0;
    while index < all.len() {
        let slot = all[index];
        let field = slot.field;
        if index == 0 || all[index - 1].section != slot.section {
            if index != 0 {
                lines.push(Line::default());
            }
            lines.push(Line::from(Span::styled(
                SECTIONS[slot.section].title.to_uppercase(),
                theme.header(),
            )));
        }
        let required = if field.required { " *" } else { "" };
        let label = format!("{}{required}", field.label);
        let label = format!("{label:<LABEL_WIDTH$}");
        let disabled = form.is_disabled(field);
        match field.kind {
            FieldKind::Multi(choices) => {
                lines.push(Line::from(Span::raw(label)));
                for (choice_index, choice) in choices.iter().enumerate() {
                    let slot_index = index + choice_index;
                    let tick = if form.is_chosen(field, choice) {
                        "[x]"
                    } else {
                        "[ ]"
                    };
                    let style = if slot_index == focus {
                        focus_line = lines.len();
                        theme.focus()
                    } else {
                        Style::default()
                    };
                    lines.push(Line::from(vec![
                        Span::raw("  "),
                        Span::styled(format!("{tick} {choice}"), style),
                    ]));
                }
                index += choices.len();
            }
            FieldKind::Flag => {
                let tick = if form.values.client_is_caller {
                    "[x]"
                } else {
                    "[ ]"
                };
                let style = if index == focus {
                    focus_line = lines.len();
                    theme.focus()
                } else {
                    Style::default()
                };
                lines.push(Line::from(vec![
                    Span::raw(label),
                    Span::styled(tick, style),
                ]));
                index += 1;
            }
            _ => {
                let value = form.text_value(field);
                let focused = index == focus;
                if focused {
                    focus_line = lines.len();
                }
                let placeholder = match field.kind {
                    FieldKind::Date => "YYYY-MM-DD",
                    FieldKind::Time => "HH:MM",
                    _ => "",
                };
                let value_span = if disabled {
                    Span::styled(format!("{value} (from caller)"), theme.dim())
                } else if focused && !form.read_only {
                    Span::styled(format!("{value}▏"), theme.focus())
                } else if focused {
                    Span::styled(value.clone(), theme.focus())
                } else if value.is_empty() {
                    Span::styled(placeholder, theme.dim())
                } else {
                    Span::raw(value.clone())
                };
                let label_style = if form.errors.contains_key(field.key) {
                    theme.error()
                } else {
                    Style::default()
                };
                lines.push(Line::from(vec![
                    Span::styled(label, label_style),
                    value_span,
                ]));
                index += 1;
            }
        }
        if let Some(message) = form.errors.get(field.key) {
            lines.push(Line::from(Span::styled(
                format!("  ↳ {message}"),
                theme.error(),
            )));
        }
    }
    (lines, focus_line)
}
