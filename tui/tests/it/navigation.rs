//! Keys in, state out: moving between screens, the shortcut rules, search and paging.

use carepath_tui::app::{ListKind, ListRows, Overlay, Screen};
use crossterm::event::KeyCode;

use crate::support::{agency, ctrl, empty, now, press, screen, screen_name, type_text};

fn list_kind(app: &carepath_tui::App) -> Option<ListKind> {
    match &app.screen {
        Screen::List(list) => Some(list.kind),
        _ => None,
    }
}

#[test]
fn letters_open_the_lists_and_q_goes_back() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('i'));
    assert_eq!(list_kind(app), Some(ListKind::Clients));
    press(app, KeyCode::Char('a'));
    assert_eq!(list_kind(app), Some(ListKind::Assessments));
    press(app, KeyCode::Char('c'));
    assert_eq!(list_kind(app), Some(ListKind::CarePlans));
    press(app, KeyCode::Char('t'));
    assert_eq!(list_kind(app), Some(ListKind::Contracts));
    press(app, KeyCode::Char('q'));
    assert_eq!(list_kind(app), Some(ListKind::CarePlans));
    press(app, KeyCode::Esc);
    assert_eq!(list_kind(app), Some(ListKind::Assessments));
    ctrl(app, 'h');
    assert_eq!(screen_name(app), "dashboard");
    assert!(app.history.is_empty());
    press(app, KeyCode::Char('q'));
    assert!(app.quit, "q on the dashboard quits");
}

#[test]
fn shortcuts_are_inactive_while_typing() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    assert_eq!(screen_name(app), "form");
    press(app, KeyCode::Tab); // Date → Staff Member Taking Call
    type_text(app, "icat?q");
    let Screen::Form(form) = &app.screen else {
        panic!("still on the form");
    };
    assert_eq!(form.values.staff_member_taking_call, "icat?q");
    assert!(app.overlay.is_none(), "? typed, help not opened");

    // Ctrl shortcuts still work while typing.
    ctrl(app, 'k');
    assert!(matches!(app.overlay, Some(Overlay::Search(_))));
    type_text(app, "ia");
    let Some(Overlay::Search(search)) = &app.overlay else {
        panic!("search still open");
    };
    assert_eq!(search.term, "ia");
    press(app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(screen_name(app), "form");
}

#[test]
fn help_lists_the_keys_and_closes() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('?'));
    assert_eq!(app.overlay, Some(Overlay::Help));
    press(app, KeyCode::Char('i'));
    assert_eq!(screen_name(app), "dashboard", "help swallows single keys");
    press(app, KeyCode::Esc);
    assert!(app.overlay.is_none());
}

#[test]
fn search_dialog_finds_a_client_and_opens_it() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'k');
    type_text(app, "d");
    let Some(Overlay::Search(search)) = &app.overlay else {
        panic!("search open");
    };
    assert!(search.results.is_empty(), "one character searches nothing");
    type_text(app, "oro");
    let Some(Overlay::Search(search)) = &app.overlay else {
        panic!("search open");
    };
    assert_eq!(search.results.len(), 1);
    press(app, KeyCode::Enter);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    let profile = client.profile.as_ref().expect("loaded");
    assert_eq!(profile.intake.client_full_name, "Dorothy Chen");
    assert_eq!(client.contacts.len(), 1);
}

#[test]
fn list_search_filters_and_escape_clears_it() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('i'));
    press(app, KeyCode::Char('/'));
    type_text(app, "walt");
    let Screen::List(list) = &app.screen else {
        panic!("list");
    };
    assert_eq!(list.rows.len(), 1);
    press(app, KeyCode::Enter);
    // Search done: single keys work again.
    press(app, KeyCode::Enter);
    assert_eq!(screen_name(app), "client");
    press(app, KeyCode::Esc);
    press(app, KeyCode::Char('/'));
    press(app, KeyCode::Esc);
    let Screen::List(list) = &app.screen else {
        panic!("list");
    };
    assert_eq!(list.rows.len(), 5);
}

#[test]
fn stage_and_urgency_filters_cycle() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('i'));
    press(app, KeyCode::Char('s')); // Intake
    let Screen::List(list) = &app.screen else {
        panic!("list");
    };
    assert_eq!(
        list.rows.len(),
        3,
        "Margaret, Harold, Dorothy are at intake"
    );
    press(app, KeyCode::Char('s')); // Assessment
    press(app, KeyCode::Char('s')); // Care Plan
    press(app, KeyCode::Char('s')); // Contract
    let Screen::List(list) = &app.screen else {
        panic!("list");
    };
    assert_eq!(list.rows.len(), 1, "Walter has a contract");
    press(app, KeyCode::Char('s')); // Archived
    press(app, KeyCode::Char('s')); // All
    press(app, KeyCode::Char('u')); // Overdue
    let Screen::List(list) = &app.screen else {
        panic!("list");
    };
    let ListRows::Clients(rows) = &list.rows else {
        panic!("client rows");
    };
    let names: Vec<&str> = rows
        .iter()
        .map(|row| row.intake.client_full_name.as_str())
        .collect();
    assert_eq!(names, vec!["Margaret Ellis"]);
}

#[test]
fn dashboard_enter_opens_the_rows_next_step() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    // Row 0 is the follow-up due today: Contact Now goes to the client's next step.
    press(app, KeyCode::Enter);
    assert!(matches!(screen_name(app), "client" | "form"));
    ctrl(app, 'h');
    // The overdue intake's next step (Schedule Assessment) has no TUI form: the client.
    let Screen::Dashboard(dashboard) = &app.screen else {
        panic!("dashboard");
    };
    let overdue = dashboard
        .rows()
        .iter()
        .position(|row| row.pipeline.overdue)
        .expect("an overdue row");
    for _ in 0..overdue {
        press(app, KeyCode::Down);
    }
    press(app, KeyCode::Enter);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    assert_eq!(
        client
            .profile
            .as_ref()
            .map(|p| p.intake.client_full_name.as_str()),
        Some("Margaret Ellis")
    );
    // `v` opens the intake read-only.
    press(app, KeyCode::Char('v'));
    let Screen::Form(form) = &app.screen else {
        panic!("intake form");
    };
    assert!(form.read_only);
}

#[test]
fn quick_note_and_call_in_three_keystrokes() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    let before = app.store.latest_audit_seq().expect("audit");
    ctrl(app, 'k');
    type_text(app, "Harold");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('n'));
    type_text(app, "Left a voicemail");
    press(app, KeyCode::Enter);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    assert!(client.capture.is_none());
    assert_eq!(client.communications[0].content, "Left a voicemail");
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Note added successfully!")
    );
    press(app, KeyCode::Char('l'));
    type_text(app, "Spoke with June");
    press(app, KeyCode::Enter);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    assert_eq!(
        client.communications[0].communication_type.as_str(),
        "phone_log"
    );

    // Both are recorded as the TUI's user, through the TUI channel.
    let entries = app.store.audit_since(before, 10).expect("audit");
    assert!(entries.len() >= 2);
    for entry in entries {
        assert_eq!(entry.channel, "tui");
        assert_eq!(entry.user_id.as_deref(), Some(app.user.id.as_str()));
    }
}

#[test]
fn an_empty_note_keeps_the_box_open_with_the_spec_message() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('i'));
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('n'));
    press(app, KeyCode::Enter);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    assert!(client.capture.is_some());
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Please enter a note")
    );
}

#[test]
fn lists_page_through_keyset_cursors() {
    let mut fixture = empty();
    fixture.add_intakes(120);
    let app = &mut fixture.app;
    press(app, KeyCode::Char('i'));
    let loaded = |app: &carepath_tui::App| match &app.screen {
        Screen::List(list) => (list.rows.len(), list.has_more()),
        _ => (0, false),
    };
    assert_eq!(loaded(app), (50, true), "one page at a time");
    press(app, KeyCode::End);
    assert_eq!(loaded(app), (100, true));
    press(app, KeyCode::End);
    assert_eq!(loaded(app), (120, false));
}

#[test]
fn an_unknown_email_is_a_clear_error() {
    let fixture = empty();
    let store = fixture.other_process();
    let error = match carepath_tui::App::new(
        store,
        Some("nobody@agency.test"),
        carepath_tui::theme::Theme::plain(),
    ) {
        Err(error) => error.to_string(),
        Ok(_) => panic!("an unknown user must be refused"),
    };
    assert!(error.contains("nobody@agency.test"), "{error}");
}

#[test]
fn a_familys_text_reply_shows_in_the_client_view_as_a_reply() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    let (reply, _) = app
        .store
        .record_reply(&carepath_core::model::Reply {
            from: "+12175550101".into(),
            body: "Tuesday works for us".into(),
            provider_id: "SM42".into(),
        })
        .expect("reply");
    let intake_id = reply.parents.intake_id.expect("matched by caller phone");
    let name = app
        .store
        .get_intake_summary(&intake_id)
        .expect("intake")
        .client_full_name;
    ctrl(app, 'k');
    type_text(app, &name);
    press(app, KeyCode::Enter);
    let shown = screen(app, 140, 50);
    let line = shown
        .lines()
        .position(|line| line.contains("Tuesday works for us"))
        .expect("the reply is listed");
    assert!(
        shown.lines().nth(line - 1).unwrap().contains("Reply"),
        "{shown}"
    );
}

#[test]
fn the_dashboard_s_queue_says_when_more_are_due_than_it_holds() {
    let mut fixture = empty();
    // 30 clients taken a month ago: each is past its stage alert, so 30 rows are due
    // and the queue holds the first page of 25.
    fixture
        .app
        .store
        .set_now(Some(now() - jiff::SignedDuration::from_hours(24 * 30)));
    fixture.add_intakes(30);
    fixture.app.store.set_now(Some(now()));
    carepath_tui::update::update(&mut fixture.app, carepath_tui::Action::GoDashboard);
    assert!(
        screen(&fixture.app, 100, 30).contains("My Queue (25+)"),
        "{}",
        screen(&fixture.app, 100, 30)
    );
}
