//! Assessment visits in the terminal: today's on the dashboard (a visit booked elsewhere
//! shows on the next tick, today's only), and `v` lists the coming ones.

use carepath_core::model::VisitInput;
use carepath_tui::{Action, update};
use crossterm::event::KeyCode;

use crate::support::{agency, press, screen, screen_name};

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

#[test]
fn v_opens_the_coming_visits_and_enter_opens_the_client() {
    let mut fixture = agency();
    let admin = fixture.admin.clone();
    let mut other = fixture.other_process();
    let client = other
        .search("Harold Park")
        .expect("search")
        .into_iter()
        .next()
        .expect("Harold Park");
    other
        .schedule_visit(
            &admin,
            &client.id,
            &VisitInput {
                date: "2026-03-04".into(),
                start_time: "09:30".into(),
                duration_minutes: 45,
                place: "4 Elm St".into(),
                assessor_id: admin.user_id.clone().expect("a user"),
                notes: String::new(),
            },
        )
        .expect("visit");
    let app = &mut fixture.app;
    press(app, KeyCode::Char('v'));
    let text = screen(app, 100, 24);
    assert!(text.contains("Assessment Visits (1)"), "{text}");
    assert!(text.contains("2026-03-04"), "{text}");
    assert!(text.contains("09:30–10:15"), "{text}");
    press(app, KeyCode::Enter);
    assert_eq!(screen_name(app), "client");
}
