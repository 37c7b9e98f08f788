//! The client view: stage, journey, next action, contacts, the latest communications
//! and the quick capture box for a note or a call log.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::format::{age, date, date_time, status_label};
use crate::app::{App, ClientState};

pub fn render(frame: &mut Frame, area: Rect, app: &App, client: &ClientState) {
    let theme = app.theme;
    let Some(profile) = &client.profile else {
        frame.render_widget(Paragraph::new(" Loading…"), area);
        return;
    };
    let intake = &profile.intake;
    let capture_height = if client.capture.is_some() { 3 } else { 0 };
    let [facts, lists, capture_area] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Min(4),
        Constraint::Length(capture_height),
    ])
    .areas(area);

    let (phone, email) = match &client.intake {
        Some(full) if !full.form.client_phone.is_empty() || !full.form.client_email.is_empty() => (
            full.form.client_phone.clone(),
            full.form.client_email.clone(),
        ),
        _ => (intake.caller_phone.clone(), intake.caller_email.clone()),
    };
    let pipeline = &intake.pipeline;
    let stage = if intake.position.archived {
        "Archived / Declined".to_owned()
    } else {
        intake.position.stage.label().to_owned()
    };
    let mut status = vec![
        Span::raw(" Stage: "),
        Span::styled(stage, theme.header()),
        Span::raw("   Status: "),
        Span::styled(
            status_label(pipeline),
            if pipeline.overdue {
                theme.error()
            } else {
                theme.header()
            },
        ),
        Span::raw(format!(" ({})", pipeline.description)),
    ];
    if pipeline.overdue {
        status.push(Span::styled(" ⚠", theme.error()));
    }
    let journey: Vec<Span> = std::iter::once(Span::raw(" Journey: "))
        .chain(
            profile
                .journey
                .iter()
                .enumerate()
                .flat_map(|(index, step)| {
                    let mark = if step.complete { "✓" } else { "·" };
                    let arrow = if index + 1 < profile.journey.len() {
                        " → "
                    } else {
                        ""
                    };
                    let style = if step.complete {
                        theme.success()
                    } else {
                        theme.dim()
                    };
                    [
                        Span::styled(format!("{mark} {}", step.label), style),
                        Span::raw(arrow),
                    ]
                }),
        )
        .collect();
    let lines = vec![
        Line::from(vec![
            Span::styled(format!(" {}", intake.client_full_name), theme.title()),
            Span::raw(format!(
                " · Age {} · {} · {} · since {}",
                age(intake.age),
                if phone.is_empty() { "no phone" } else { &phone },
                if email.is_empty() { "no email" } else { &email },
                date(&intake.created_at, &app.time_zone)
            )),
        ]),
        Line::from(status),
        Line::from(journey),
        Line::from({
            let mut next = vec![
                Span::raw(" Next: "),
                Span::styled(pipeline.next_action.clone(), theme.header()),
            ];
            // An archived lead says why, and how to bring it back.
            if let Some(reason) = &profile.archive_reason {
                next.push(Span::styled(
                    format!(" (o) · {}: {reason}", status_label(pipeline)),
                    theme.dim(),
                ));
            }
            next
        }),
        Line::from(Span::styled(
            format!(
                " Caller: {} · {} · {}",
                intake.caller_name, intake.caller_phone, intake.caller_email
            ),
            theme.dim(),
        )),
    ];
    frame.render_widget(Paragraph::new(lines), facts);

    let [contacts_area, comms_area] =
        Layout::horizontal([Constraint::Percentage(35), Constraint::Percentage(65)]).areas(lists);
    let contact_lines: Vec<Line> = if client.contacts.is_empty() {
        vec![Line::from(Span::styled(" No contacts yet.", theme.dim()))]
    } else {
        client
            .contacts
            .iter()
            .flat_map(|contact| {
                let primary = if contact.is_primary {
                    " · Primary"
                } else {
                    ""
                };
                [
                    Line::from(Span::styled(
                        format!(" {}{primary}", contact.full_name),
                        theme.header(),
                    )),
                    Line::from(format!(
                        "   {} · {}",
                        contact.contact_type_label,
                        contact.phone.clone().unwrap_or_default()
                    )),
                ]
            })
            .collect()
    };
    frame.render_widget(
        Paragraph::new(contact_lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" Contacts ({}) ", client.contacts.len())),
        ),
        contacts_area,
    );

    let comm_lines: Vec<Line> = if client.communications.is_empty() {
        vec![Line::from(Span::styled(
            " No communications yet.",
            theme.dim(),
        ))]
    } else {
        client
            .communications
            .iter()
            .flat_map(|communication| {
                let kind = match communication.communication_type.as_str() {
                    // A text the family sent back (the SMS provider's webhook).
                    "sms" if communication.direction.as_str() == "inbound" => "Reply",
                    "phone_log" => "Call",
                    "system_event" => "Event",
                    "sms" => "SMS",
                    "email" => "Email",
                    _ => "Note",
                };
                let visibility = match communication.visibility.as_str() {
                    "internal" => "Internal",
                    _ => "Client",
                };
                let subject = communication.subject.clone().unwrap_or_default();
                [
                    Line::from(vec![
                        Span::styled(format!(" {kind:<5} "), theme.header()),
                        Span::raw(date_time(&communication.created_at, &app.time_zone)),
                        Span::styled(
                            format!(" · {visibility} · {}", communication.status),
                            theme.dim(),
                        ),
                    ]),
                    Line::from(format!(
                        "   {}{}",
                        if subject.is_empty() {
                            String::new()
                        } else {
                            format!("{subject}: ")
                        },
                        communication.content.replace('\n', " ")
                    )),
                ]
            })
            .collect()
    };
    frame.render_widget(
        Paragraph::new(comm_lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Latest Communications "),
        ),
        comms_area,
    );

    if let Some(capture) = &client.capture {
        let block = Block::default().borders(Borders::ALL).title(format!(
            " {} (Enter saves, Esc cancels) ",
            capture.kind.title()
        ));
        frame.render_widget(
            Paragraph::new(Span::styled(format!("{}▏", capture.text), theme.focus()))
                .wrap(Wrap { trim: false })
                .block(block),
            capture_area,
        );
    }
}
