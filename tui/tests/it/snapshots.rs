//! Screens as text (insta snapshots of a TestBackend), at the smallest supported size
//! (80×24) and at the end-to-end test's 100×30.

use crossterm::event::KeyCode;

use crate::support::{agency, ctrl, empty, press, screen, type_text};

#[test]
fn dashboard() {
    let fixture = agency();
    insta::assert_snapshot!("dashboard_100x30", screen(&fixture.app, 100, 30));
    insta::assert_snapshot!("dashboard_80x24", screen(&fixture.app, 80, 24));
}

#[test]
fn empty_dashboard() {
    let fixture = empty();
    insta::assert_snapshot!(screen(&fixture.app, 80, 24));
}

#[test]
fn lists() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    for (key, name) in [
        ('i', "clients"),
        ('a', "assessments"),
        ('c', "care_plans"),
        ('t', "contracts"),
    ] {
        press(app, KeyCode::Char(key));
        insta::assert_snapshot!(format!("list_{name}"), screen(app, 100, 24));
    }
}

#[test]
fn intake_form_with_errors() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'n');
    ctrl(app, 's');
    insta::assert_snapshot!("intake_form_errors_80x24", screen(app, 80, 24));
    press(app, KeyCode::PageDown);
    press(app, KeyCode::PageDown);
    insta::assert_snapshot!("intake_form_client_section", screen(app, 100, 30));
}

#[test]
fn help() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    press(app, KeyCode::Char('?'));
    insta::assert_snapshot!("help_dashboard", screen(app, 80, 24));
    press(app, KeyCode::Esc);
    ctrl(app, 'n');
    handle_f1(app);
    insta::assert_snapshot!("help_form", screen(app, 80, 30));
}

fn handle_f1(app: &mut carepath_tui::App) {
    press(app, KeyCode::F(1));
}

#[test]
fn search_dialog() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'k');
    insta::assert_snapshot!("search_empty", screen(app, 80, 24));
    type_text(app, "Wa");
    insta::assert_snapshot!("search_results", screen(app, 80, 24));
    type_text(app, "zz");
    insta::assert_snapshot!("search_no_results", screen(app, 80, 24));
}

#[test]
fn client_view_with_note_box() {
    let mut fixture = agency();
    let app = &mut fixture.app;
    ctrl(app, 'k');
    type_text(app, "Dorothy");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('n'));
    type_text(app, "Confirmed Thursday visit");
    insta::assert_snapshot!("client_view", screen(app, 100, 30));
}
