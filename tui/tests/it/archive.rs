//! Losing a lead from the client view: `d` or `x` asks why, Enter archives it, `o`
//! reopens it; the screen (ratatui's test backend) says so.

use carepath_core::model::IntakeStatus;
use carepath_tui::app::Screen;
use crossterm::event::KeyCode;

use crate::support::{agency, ctrl, press, screen, type_text};

fn open_harold(app: &mut carepath_tui::App) {
    ctrl(app, 'k');
    type_text(app, "Harold");
    press(app, KeyCode::Enter);
    assert!(matches!(app.screen, Screen::Client(_)), "client view");
}

fn profile(app: &carepath_tui::App) -> &carepath_core::store::ClientProfile {
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    client.profile.as_deref().expect("loaded")
}

#[test]
fn a_client_is_marked_not_interested_with_a_reason_and_reopened() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    open_harold(app);
    let before = profile(app).intake.status;

    // The box asks for the reason; an empty one is refused and the box stays open.
    press(app, KeyCode::Char('x'));
    let shown = screen(app, 100, 30);
    assert!(shown.contains("Mark Not Interested: reason"), "{shown}");
    press(app, KeyCode::Enter);
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Please enter a reason")
    );
    assert_eq!(profile(app).archive_status, None);

    // Letters are typed into the box, not taken as shortcuts.
    type_text(app, "Family decided to wait");
    press(app, KeyCode::Enter);
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Client marked Not Interested")
    );
    let archived = profile(app);
    assert_eq!(archived.intake.status, IntakeStatus::NotInterested);
    assert_eq!(
        archived.archive_reason.as_deref(),
        Some("Family decided to wait")
    );
    let shown = screen(app, 100, 30);
    assert!(shown.contains("Archived / Declined"), "{shown}");
    assert!(
        shown.contains("Not Interested: Family decided to wait"),
        "{shown}"
    );
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    assert_eq!(
        client.communications[0].content,
        "Client marked Not Interested: Family decided to wait"
    );

    // Archiving again is refused with core's message; `o` reopens.
    press(app, KeyCode::Char('d'));
    type_text(app, "Again");
    press(app, KeyCode::Enter);
    assert!(
        app.toast
            .as_ref()
            .is_some_and(|t| t.text.contains("already archived")),
        "{:?}",
        app.toast
    );
    press(app, KeyCode::Esc);
    press(app, KeyCode::Char('o'));
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Client reopened")
    );
    let reopened = profile(app);
    assert_eq!(reopened.intake.status, before);
    assert_eq!(reopened.archive_status, None);
    assert!(!screen(app, 100, 30).contains("Archived / Declined"));
}
