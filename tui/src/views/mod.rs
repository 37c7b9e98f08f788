//! Views: functions that draw the app's state and do nothing else (no IO, no state
//! changes). `render` lays out the frame: title, screen, message line, key-help bar.

mod bar;
mod client;
mod dashboard;
mod format;
mod help;
mod list;
mod search;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::app::{App, Overlay, Screen, ToastKind};

pub use format::{date, date_time};

pub fn render(frame: &mut Frame, app: &App) {
    let [title, body, message, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    render_title(frame, title, app);
    match &app.screen {
        Screen::Dashboard(state) => dashboard::render(frame, body, app, state),
        Screen::List(state) => list::render(frame, body, app, state),
        Screen::Client(state) => client::render(frame, body, app, state),
        Screen::Form(state) => crate::form::view::render(frame, body, app, state),
    }
    render_message(frame, message, app);
    bar::render(frame, keys, app);
    match &app.overlay {
        Some(Overlay::Help) => help::render(frame, body, app),
        Some(Overlay::Search(search)) => search::render(frame, body, app, search),
        None => {}
    }
}

fn screen_title(app: &App) -> String {
    match &app.screen {
        Screen::Dashboard(_) => "Outreach Dashboard".to_owned(),
        Screen::List(list) => list.kind.title().to_owned(),
        Screen::Client(client) => client
            .profile
            .as_ref()
            .map(|profile| profile.intake.client_full_name.clone())
            .unwrap_or_else(|| "Client".to_owned()),
        Screen::Form(form) if form.read_only => "Intake (read-only)".to_owned(),
        Screen::Form(form) if form.existing.is_some() => "Edit Intake".to_owned(),
        Screen::Form(_) => "New Intake".to_owned(),
    }
}

fn render_title(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.theme;
    let user = format!("{} ", app.user.full_name);
    let left = Line::from(vec![
        Span::styled(" Carepath", theme.title()),
        Span::raw(" │ "),
        Span::styled(screen_title(app), theme.header()),
    ]);
    let [left_area, right_area] = Layout::horizontal([
        Constraint::Min(10),
        Constraint::Length(user.chars().count() as u16),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(left), left_area);
    frame.render_widget(Paragraph::new(Span::styled(user, theme.dim())), right_area);
}

fn render_message(frame: &mut Frame, area: Rect, app: &App) {
    let Some(toast) = &app.toast else {
        return;
    };
    let style = match toast.kind {
        ToastKind::Success => app.theme.success(),
        ToastKind::Error => app.theme.error(),
    };
    frame.render_widget(
        Paragraph::new(Span::styled(format!(" {}", toast.text), style)),
        area,
    );
}

/// A box of the given size centred in `area` (clipped to it), cleared for an overlay.
pub(crate) fn overlay_area(frame: &mut Frame, area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    rect
}
