//! The lists (clients, assessments, care plans, contracts, assessment visits): counts, the
//! search and filters, and a table of the loaded pages.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};

use super::format::{age, date, optional_date};
use crate::app::{App, ListKind, ListRows, ListState, ListSummary, STAGE_FILTERS};

pub fn render(frame: &mut Frame, area: Rect, app: &App, list: &ListState) {
    let theme = app.theme;
    let [summary, filters, table_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(3),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(summary_line(list)), summary);

    let mut spans = vec![Span::raw(" Search: ")];
    if list.editing_search {
        spans.push(Span::styled(format!("{}▏", list.search), theme.focus()));
    } else if list.search.is_empty() {
        spans.push(Span::styled("(press /)", theme.dim()));
    } else {
        spans.push(Span::styled(list.search.clone(), theme.header()));
    }
    if list.kind == ListKind::Clients {
        let stage = list
            .stage
            .map(|index| STAGE_FILTERS[index].1)
            .unwrap_or("All Stages");
        let urgency = list.urgency.map(|u| u.label()).unwrap_or("All");
        spans.push(Span::raw("   Stage [s]: "));
        spans.push(Span::styled(stage, theme.header()));
        spans.push(Span::raw("   Urgency [u]: "));
        spans.push(Span::styled(urgency, theme.header()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), filters);

    let loaded = list.rows.len();
    let more = if list.has_more() { "+" } else { "" };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} ({loaded}{more}) ", list.kind.title()));
    if list.rows.is_empty() {
        frame.render_widget(Paragraph::new(empty_text(list)).block(block), table_area);
        return;
    }
    let (header, widths, rows) = table_parts(app, &list.rows);
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme.header()))
        .block(block)
        .row_highlight_style(theme.selected());
    let mut state = TableState::default();
    state.select(Some(list.selected));
    frame.render_stateful_widget(table, table_area, &mut state);
}

fn summary_line(list: &ListState) -> String {
    match &list.summary {
        ListSummary::Clients(c) => format!(
            " Total {} · Intake {} · Assessment {} · Care Plan {} · Contract {} · Overdue {} · Archived {}",
            c.total, c.intake, c.assessment, c.care_plan, c.contract, c.overdue, c.archived
        ),
        ListSummary::Assessments(s) => format!(
            " Pending/Draft {} · Completed {} · Care Plans Generated {} · Total {}",
            s.pending, s.completed, s.care_plans_generated, s.total
        ),
        ListSummary::Contracts(s) => format!(
            " Awaiting Signatures {} · Sent This Week {} · Signed This Month {}",
            s.awaiting_signatures, s.sent_this_week, s.signed_this_month
        ),
        ListSummary::None => String::new(),
    }
}

fn empty_text(list: &ListState) -> String {
    let text = match list.kind {
        ListKind::Clients => "No clients found",
        ListKind::Assessments => "No assessments yet. Create your first one!",
        ListKind::CarePlans => "No care plans yet. Create your first care plan from an assessment.",
        ListKind::Contracts => {
            "No contracts yet. Generate your first contract from an approved care plan."
        }
        ListKind::Visits => "No assessment visits scheduled.",
    };
    format!(" {text}")
}

fn journey_marks(row: &carepath_core::store::ClientRow) -> String {
    row.journey
        .iter()
        .map(|step| if step.complete { '●' } else { '○' })
        .collect()
}

type TableParts<'a> = (Vec<&'static str>, Vec<Constraint>, Vec<Row<'a>>);

fn table_parts<'a>(app: &App, rows: &'a ListRows) -> TableParts<'a> {
    let theme = app.theme;
    let zone = &app.time_zone;
    match rows {
        ListRows::Clients(rows) => (
            vec![
                "Client",
                "Age",
                "Stage",
                "Days",
                "Next Action",
                "Last Contact",
                "Journey",
            ],
            vec![
                Constraint::Fill(3),
                Constraint::Length(3),
                Constraint::Length(12),
                Constraint::Length(4),
                Constraint::Fill(3),
                Constraint::Length(12),
                Constraint::Length(7),
            ],
            rows.iter()
                .map(|row| {
                    let intake = &row.intake;
                    let overdue =
                        row.urgency == carepath_core::rules::stage::ClientUrgency::Overdue;
                    let stage = if intake.archived {
                        "Archived".to_owned()
                    } else {
                        let mark = if overdue { "⚠ " } else { "" };
                        format!("{mark}{}", intake.stage.label())
                    };
                    let stage_style = if overdue {
                        theme.error()
                    } else {
                        Style::default()
                    };
                    Row::new(vec![
                        Text::raw(intake.client_full_name.clone()),
                        Text::raw(age(intake.age)),
                        Text::styled(stage, stage_style),
                        Text::raw(intake.pipeline.days_in_stage.to_string()),
                        Text::raw(intake.pipeline.next_action.clone()),
                        Text::raw(
                            intake
                                .last_contact_date
                                .as_deref()
                                .map(|d| date(d, zone))
                                .unwrap_or_else(|| "Never".to_owned()),
                        ),
                        Text::raw(journey_marks(row)),
                    ])
                })
                .collect(),
        ),
        ListRows::Assessments(rows) => (
            vec![
                "Client Name",
                "Age",
                "Date",
                "Days",
                "Coordinator",
                "Status",
            ],
            vec![
                Constraint::Fill(3),
                Constraint::Length(3),
                Constraint::Length(12),
                Constraint::Length(4),
                Constraint::Fill(2),
                Constraint::Fill(2),
            ],
            rows.iter()
                .map(|row| {
                    let mut status = row.status.as_str().to_owned();
                    if row.care_plan_id.is_some() {
                        status.push_str(" · Care Plan");
                    }
                    Row::new(vec![
                        row.client_name.clone(),
                        age(row.age),
                        optional_date(row.assessment_date.as_deref(), zone),
                        row.days_in_stage.to_string(),
                        row.coordinator_name.clone(),
                        status,
                    ])
                })
                .collect(),
        ),
        ListRows::CarePlans(rows) => (
            vec![
                "Client Name",
                "Age",
                "Days",
                "Services",
                "Weekly Cost",
                "Status",
            ],
            vec![
                Constraint::Fill(3),
                Constraint::Length(3),
                Constraint::Length(4),
                Constraint::Fill(4),
                Constraint::Length(11),
                Constraint::Length(9),
            ],
            rows.iter()
                .map(|row| {
                    let services = if row.services.is_empty() {
                        "Not specified".to_owned()
                    } else {
                        row.services
                            .iter()
                            .map(|service| service.label())
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    Row::new(vec![
                        row.client_name.clone(),
                        age(row.age),
                        row.days_in_stage.to_string(),
                        services,
                        carepath_core::rules::format::format_money(row.weekly_cost),
                        row.status.as_str().to_owned(),
                    ])
                })
                .collect(),
        ),
        ListRows::Contracts(rows) => (
            vec!["Client Name", "Days", "Created", "Sent", "Signed", "Status"],
            vec![
                Constraint::Fill(3),
                Constraint::Length(4),
                Constraint::Length(12),
                Constraint::Length(12),
                Constraint::Length(12),
                Constraint::Length(8),
            ],
            rows.iter()
                .map(|row| {
                    Row::new(vec![
                        row.client_name.clone(),
                        row.days_in_stage.to_string(),
                        date(&row.created_at, zone),
                        optional_date(row.sent_at.as_deref(), zone),
                        optional_date(row.signed_at.as_deref(), zone),
                        row.status.as_str().to_owned(),
                    ])
                })
                .collect(),
        ),
        ListRows::Visits(rows) => (
            vec!["Date", "Time", "Client", "Assessor", "Place"],
            vec![
                Constraint::Length(10),
                Constraint::Length(11),
                Constraint::Fill(2),
                Constraint::Fill(2),
                Constraint::Fill(3),
            ],
            rows.iter()
                .map(|visit| {
                    Row::new(vec![
                        visit.local_date.clone(),
                        format!("{}–{}", visit.local_start_time, visit.local_end_time),
                        visit.client_name.clone(),
                        visit.assessor_name.clone(),
                        visit.place.replace(['\n', '\r'], " "),
                    ])
                })
                .collect(),
        ),
    }
}
