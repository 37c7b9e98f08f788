//! Changes made by another process (the server, the CLI) show up on the next tick.

use carepath_tui::app::Screen;
use carepath_tui::{Action, update};
use crossterm::event::KeyCode;

use crate::support::{agency, intake_form, press};

#[test]
fn a_write_by_another_process_reloads_the_current_view() {
    let mut fixture = agency();
    let mut other = fixture.other_process();
    let admin = fixture.admin.clone();
    let recent = |app: &carepath_tui::App| match &app.screen {
        Screen::Dashboard(state) => state
            .data
            .as_ref()
            .map(|data| data.recent_activity.len())
            .unwrap_or_default(),
        _ => 0,
    };
    assert_eq!(recent(&fixture.app), 5);

    // Nothing changed: a tick reads nothing new.
    update(&mut fixture.app, Action::Tick);
    assert_eq!(recent(&fixture.app), 5);

    other
        .create_intake(&admin, intake_form("Frank Ortiz", "Ana Ortiz"))
        .expect("intake from the web");
    update(&mut fixture.app, Action::Tick);
    assert_eq!(recent(&fixture.app), 6);

    // The clients list reloads too, keeping its place.
    press(&mut fixture.app, KeyCode::Char('i'));
    other
        .create_intake(&admin, intake_form("Grace Kim", "Ben Kim"))
        .expect("intake from the CLI");
    update(&mut fixture.app, Action::Tick);
    let Screen::List(list) = &fixture.app.screen else {
        panic!("list");
    };
    assert_eq!(list.rows.len(), 7);
}
