//! The intake form: validation messages from core beside the fields, saving, drafts,
//! editing an existing intake and the read-only view.

use carepath_tui::app::{Screen, ToastKind};
use crossterm::event::KeyCode;

use crate::support::{agency, ctrl, press, screen_name, type_text};

fn form(app: &carepath_tui::App) -> &carepath_tui::form::FormState {
    match &app.screen {
        Screen::Form(form) => form,
        _ => panic!("not on the form"),
    }
}

#[test]
fn submitting_an_empty_form_shows_the_spec_messages() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    ctrl(app, 's');
    let state = form(app);
    for field in ["staffMemberTakingCall", "callerName", "clientFullName"] {
        assert_eq!(
            state.errors.get(field).map(String::as_str),
            Some("This field is required"),
            "{field}"
        );
    }
    assert_eq!(
        state.message.as_deref(),
        Some("Missing Required Fields: Please fill in 3 required field(s) highlighted in red.")
    );
    assert_eq!(
        state.slot().field.key,
        "staffMemberTakingCall",
        "focus on the first"
    );
    assert_eq!(app.toast.as_ref().map(|t| t.kind), Some(ToastKind::Error));

    // Editing a field clears its highlight only.
    type_text(app, "Sam");
    let state = form(app);
    assert!(!state.errors.contains_key("staffMemberTakingCall"));
    assert!(state.errors.contains_key("callerName"));
}

#[test]
fn client_is_caller_exempts_the_client_name() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    press(app, KeyCode::Tab);
    type_text(app, "Sam Staff");
    press(app, KeyCode::PageDown); // Caller
    type_text(app, "Ruth Adams");
    press(app, KeyCode::PageDown); // Client: the switch first
    press(app, KeyCode::Char(' '));
    ctrl(app, 's');
    assert_eq!(screen_name(app), "client", "saved: {:?}", app.toast);
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    let intake = client.intake.as_ref().expect("loaded");
    assert_eq!(intake.client_full_name, "Ruth Adams");
    assert_eq!(intake.form.relationship_to_client, "Self");
}

#[test]
fn a_new_intake_is_saved_and_opened() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    press(app, KeyCode::Tab);
    type_text(app, "Sam Staff");
    press(app, KeyCode::Tab);
    type_text(app, "Paul Grant");
    press(app, KeyCode::Tab);
    type_text(app, "Son");
    press(app, KeyCode::Tab);
    type_text(app, "(217) 555-0142");
    press(app, KeyCode::PageDown); // Client
    press(app, KeyCode::Tab);
    type_text(app, "Irene Grant");
    press(app, KeyCode::Tab);
    type_text(app, "1938-07-14");
    // Services: tick the second choice.
    for _ in 0..3 {
        press(app, KeyCode::PageDown);
    }
    assert_eq!(form(app).slot().field.key, "servicesRequired");
    press(app, KeyCode::Tab);
    press(app, KeyCode::Char(' '));
    ctrl(app, 's');
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Intake Saved Successfully")
    );
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    let intake = client.intake.as_ref().expect("loaded");
    assert_eq!(intake.client_full_name, "Irene Grant");
    assert_eq!(intake.caller_phone, "(217) 555-0142");
    assert_eq!(intake.services_required, vec!["Companionship"]);
    assert_eq!(intake.status.as_str(), "pending");
}

#[test]
fn core_date_rules_land_beside_the_field() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    press(app, KeyCode::Tab);
    type_text(app, "Sam");
    press(app, KeyCode::Tab);
    type_text(app, "Paul");
    press(app, KeyCode::PageDown);
    press(app, KeyCode::Tab);
    type_text(app, "Irene");
    press(app, KeyCode::Tab);
    type_text(app, "2030-01-01");
    ctrl(app, 's');
    let state = form(app);
    assert_eq!(state.slot().field.key, "dateOfBirth");
    assert!(state.errors.contains_key("dateOfBirth"));
}

#[test]
fn a_draft_needs_no_fields_and_goes_to_the_dashboard() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    ctrl(app, 'd');
    assert_eq!(screen_name(app), "dashboard");
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Draft Saved")
    );
    let Screen::Dashboard(dashboard) = &app.screen else {
        panic!("dashboard");
    };
    let recent = &dashboard.data.as_ref().expect("loaded").recent_activity;
    assert_eq!(recent[0].client_full_name, "Draft - Unnamed Client");
}

#[test]
fn an_existing_intake_is_viewed_read_only_then_edited() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'k');
    type_text(app, "Harold");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('v'));
    assert!(form(app).read_only);
    type_text(app, "x");
    assert_eq!(
        form(app).values.date,
        "2026-03-02",
        "read-only ignores typing"
    );
    press(app, KeyCode::Char('e'));
    assert!(!form(app).read_only);
    assert_eq!(form(app).status_banner.as_deref(), Some("PENDING"));
    // Date → Staff: replace the staff name.
    press(app, KeyCode::Tab);
    ctrl(app, 'u');
    type_text(app, "Priya Shah");
    ctrl(app, 's');
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some("Intake Updated Successfully")
    );
    let Screen::Client(client) = &app.screen else {
        panic!("client view");
    };
    let intake = client.intake.as_ref().expect("loaded");
    assert_eq!(intake.form.staff_member_taking_call, "Priya Shah");
}

#[test]
fn leaving_a_form_with_typing_takes_a_second_press() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    // An untouched form closes at once.
    ctrl(app, 'n');
    press(app, KeyCode::Esc);
    assert_eq!(screen_name(app), "dashboard");

    ctrl(app, 'n');
    press(app, KeyCode::Tab);
    type_text(app, "Sam Staff");
    // Ctrl+H is what some terminals send for Backspace: it must not lose the typing.
    ctrl(app, 'h');
    assert_eq!(screen_name(app), "form");
    assert_eq!(
        app.toast.as_ref().map(|t| t.text.as_str()),
        Some(carepath_tui::update::UNSAVED_CHANGES)
    );
    assert_eq!(form(app).values.staff_member_taking_call, "Sam Staff");
    // Typing on disarms it: the next Esc asks again, the one after leaves.
    type_text(app, "!");
    press(app, KeyCode::Esc);
    assert_eq!(screen_name(app), "form");
    press(app, KeyCode::Esc);
    assert_eq!(screen_name(app), "dashboard");
}
