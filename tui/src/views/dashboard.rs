//! The Outreach Dashboard: the four counts, the user's queue (most late first), today's
//! assessment visits, follow-ups due today and recent activity.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};

use super::format::{age, date, status_label};
use crate::app::{App, DashboardState};

pub fn render(frame: &mut Frame, area: Rect, app: &App, state: &DashboardState) {
    let theme = app.theme;
    let Some(data) = &state.data else {
        frame.render_widget(Paragraph::new(" Loading…"), area);
        return;
    };
    let follow_ups = &data.follow_ups_due_today;
    let follow_up_height = if follow_ups.is_empty() {
        0
    } else {
        follow_ups.len().min(4) as u16 + 2
    };
    let queue_height = if state.queue.is_empty() {
        0
    } else {
        state.queue.len().min(4) as u16 + 2
    };
    let visits_height = if state.visits.is_empty() {
        0
    } else {
        state.visits.len().min(3) as u16 + 2
    };
    let [
        subtitle,
        cards,
        queue_area,
        visits_area,
        follow_area,
        recent_area,
    ] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Length(queue_height),
        Constraint::Length(visits_height),
        Constraint::Length(follow_up_height),
        Constraint::Min(3),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(Span::styled(
            " Next 7 days, plan your schedule effectively.",
            theme.dim(),
        )),
        subtitle,
    );

    // Borderless cards: "Pending Assessments" still fits a quarter of 80 columns.
    let counts = &data.counts;
    let card_areas = Layout::horizontal([Constraint::Fill(1); 4]).split(cards);
    let card_values = [
        ("New Intakes", counts.new_intakes, "i"),
        ("Pending Assessments", counts.pending_assessments, "a"),
        ("Active Care Plans", counts.active_care_plans, "c"),
        ("Awaiting Signatures", counts.awaiting_signatures, "t"),
    ];
    for ((card_label, value, key), card) in card_values.into_iter().zip(card_areas.iter()) {
        let lines = vec![
            Line::from(Span::styled(format!(" {card_label}"), theme.dim())),
            Line::from(vec![
                Span::styled(format!(" {value}"), theme.title()),
                Span::styled(format!("  [{key}]"), theme.dim()),
            ]),
        ];
        frame.render_widget(Paragraph::new(lines), *card);
    }

    if !state.queue.is_empty() {
        let rows = state.queue.iter().take(4).map(|item| {
            let row = Row::new(vec![
                item.when.clone(),
                item.client_name.clone(),
                item.title.clone(),
            ]);
            if item.late {
                row.style(theme.error())
            } else {
                row
            }
        });
        let table = Table::new(
            rows,
            [
                Constraint::Length(18),
                Constraint::Fill(2),
                Constraint::Fill(3),
            ],
        )
        .block(Block::default().borders(Borders::ALL).title(format!(
            " My Queue ({}{}) ",
            state.queue.len(),
            if state.queue_more { "+" } else { "" }
        )));
        frame.render_widget(table, queue_area);
    }

    if !state.visits.is_empty() {
        let rows = state.visits.iter().map(|visit| {
            Row::new(vec![
                format!("{}–{}", visit.local_start_time, visit.local_end_time),
                visit.client_name.clone(),
                visit.assessor_name.clone(),
                visit.place.replace(['\n', '\r'], " "),
            ])
        });
        let table = Table::new(
            rows,
            [
                Constraint::Length(11),
                Constraint::Fill(2),
                Constraint::Fill(2),
                Constraint::Fill(3),
            ],
        )
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" Today's Visits ({}) ", state.visits.len())),
        );
        frame.render_widget(table, visits_area);
    }

    // One selection runs over the follow-ups, then the recent activity.
    if !follow_ups.is_empty() {
        let rows = follow_ups.iter().map(|intake| {
            Row::new(vec![
                intake.client_full_name.clone(),
                age(intake.age),
                intake.follow_up_notes.clone().unwrap_or_default(),
                "Contact Now ⏎".to_owned(),
            ])
        });
        let table = Table::new(
            rows,
            [
                Constraint::Length(22),
                Constraint::Length(4),
                Constraint::Fill(1),
                Constraint::Length(13),
            ],
        )
        .block(Block::default().borders(Borders::ALL).title(format!(
            " Follow-ups Due Today ({}) ",
            data.follow_ups_due_today_count
        )))
        .row_highlight_style(theme.selected());
        let mut table_state = TableState::default();
        if state.selected < follow_ups.len() {
            table_state.select(Some(state.selected));
        }
        frame.render_stateful_widget(table, follow_area, &mut table_state);
    }

    let recent = &data.recent_activity;
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Recent Activity ");
    if recent.is_empty() {
        frame.render_widget(
            Paragraph::new(" No recent activity. Start by creating an intake.").block(block),
            recent_area,
        );
        return;
    }
    // Two lines a row, so status, description and the next action fit in 80 columns.
    let rows = recent.iter().map(|intake| {
        let pipeline = &intake.pipeline;
        let mark = if pipeline.overdue { "⚠" } else { " " };
        let row = Row::new(vec![
            Text::raw(mark),
            Text::from(vec![
                Line::raw(intake.client_full_name.clone()),
                Line::raw(format!("Age {}", age(intake.age))),
            ]),
            Text::from(vec![
                Line::raw(status_label(pipeline)),
                Line::raw(pipeline.description.clone()),
            ]),
            Text::raw(date(&intake.created_at, &app.time_zone)),
            Text::from(vec![
                Line::raw("Next:"),
                Line::raw(pipeline.next_action.clone()),
            ]),
        ])
        .height(2);
        if pipeline.overdue {
            row.style(theme.error())
        } else {
            row
        }
    });
    let header = Row::new(vec!["", "Name", "Status", "Created", "Next"]).style(theme.header());
    let table = Table::new(
        rows,
        [
            Constraint::Length(1),
            Constraint::Fill(2),
            Constraint::Fill(3),
            Constraint::Length(12),
            Constraint::Fill(3),
        ],
    )
    .header(header)
    .block(block)
    .row_highlight_style(theme.selected());
    let mut table_state = TableState::default();
    if state.selected >= follow_ups.len() {
        table_state.select(Some(state.selected - follow_ups.len()));
    }
    frame.render_stateful_widget(table, recent_area, &mut table_state);
}
