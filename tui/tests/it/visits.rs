//! Today's assessment visits on the dashboard: a visit booked elsewhere (the web) shows on
//! the next tick, today's only.

use carepath_core::model::VisitInput;
use carepath_tui::{Action, update};

use crate::support::{agency, screen};

#[test]
fn the_dashboard_lists_todays_visits() {
    let mut fixture = agency();
    let mut other = fixture.other_process();
    let admin = fixture.admin.clone();
    assert!(
        !screen(&fixture.app, 100, 30).contains("Today's Visits"),
        "no visits, no box"
    );
    let client = other
        .search("Harold Park")
        .expect("search")
        .into_iter()
        .next()
        .expect("Harold Park");
    let booking = |date: &str, time: &str| VisitInput {
        date: date.into(),
        start_time: time.into(),
        duration_minutes: 60,
        place: "4 Elm St,\nSpringfield".into(),
        assessor_id: admin.user_id.clone().expect("a user"),
        notes: String::new(),
    };
    other
        .schedule_visit(&admin, &client.id, &booking("2026-03-02", "16:00"))
        .expect("today's visit");
    other
        .schedule_visit(&admin, &client.id, &booking("2026-03-03", "10:00"))
        .expect("tomorrow's visit");
    update(&mut fixture.app, Action::Tick);
    let text = screen(&fixture.app, 100, 30);
    assert!(text.contains("Today's Visits (1)"), "{text}");
    assert!(text.contains("16:00–17:00"), "{text}");
    assert!(text.contains("4 Elm St, Springfield"), "{text}");
}
