//! Shared fixtures: a small agency on a temp file with a pinned clock, key helpers and
//! the screen as text.

use carepath_core::model::{
    Actor, AssessmentForm, Channel, ContactInput, IntakeForm, NoteInput, Parents, SettingsTab,
};
use carepath_core::store::{AssessmentSave, NewUser, Store};
use carepath_tui::app::Screen;
use carepath_tui::theme::Theme;
use carepath_tui::{App, handle_key, views};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jiff::Timestamp;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tempfile::TempDir;

/// Monday 2 March 2026, 15:00 UTC; the agency works in UTC.
pub const NOW: &str = "2026-03-02T15:00:00Z";

pub fn now() -> Timestamp {
    NOW.parse().expect("a valid timestamp")
}

fn days_ago(days: i64) -> Timestamp {
    now() - jiff::SignedDuration::from_hours(24 * days)
}

pub struct Fixture {
    pub app: App,
    /// Kept so the database file lives as long as the fixture.
    _dir: TempDir,
    pub admin: Actor,
}

impl Fixture {
    /// `count` intakes taken by the admin in one transaction, named "Client 000" on
    /// (three digits, so their names sort as they were taken).
    pub fn add_intakes(&mut self, count: usize) {
        let admin = self.admin.clone();
        self.app
            .store
            .batch(|store| {
                for n in 0..count {
                    store
                        .create_intake(&admin, intake_form(&format!("Client {n:03}"), "Caller"))?;
                }
                Ok(())
            })
            .expect("intakes");
    }

    /// Another connection to the same file, as the server or the CLI would hold.
    pub fn other_process(&self) -> Store {
        let mut store = Store::open(self.app.store.path()).expect("open");
        store.set_now(Some(now()));
        store
    }
}

pub fn intake_form(name: &str, caller: &str) -> IntakeForm {
    IntakeForm {
        date: "2026-03-02".into(),
        staff_member_taking_call: "Sam Staff".into(),
        caller_name: caller.into(),
        relationship_to_client: "Daughter".into(),
        caller_phone: "(217) 555-0101".into(),
        caller_email: "family@example.com".into(),
        client_full_name: name.into(),
        date_of_birth: "1941-03-09".into(),
        services_required: vec!["Companionship".into()],
        ..IntakeForm::default()
    }
}

fn assessment_form(name: &str) -> AssessmentForm {
    AssessmentForm {
        assessment_date: "2026-03-03".into(),
        coordinator_name: "Priya Shah".into(),
        client_name: name.into(),
        phone: "(217) 555-0101".into(),
        recommended_services: vec!["Companionship".into()],
        recommended_hours: Some(12.0),
        preferred_days: vec!["Monday".into(), "Friday".into()],
        ..AssessmentForm::default()
    }
}

/// An empty agency with one admin.
pub fn empty() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(dir.path().join("carepath.db")).expect("open");
    store.set_now(Some(now()));
    let system = Actor::system(Channel::Cli);
    let admin = store
        .create_user(
            &system,
            NewUser {
                email: "admin@agency.test".into(),
                full_name: "Ada Admin".into(),
                password: Some("secret-admin".into()),
                is_admin: true,
            },
        )
        .expect("admin");
    let admin = Actor::user(admin.id, Channel::Cli, true);
    let settings = store.settings().expect("settings");
    let mut general = settings.general.clone();
    general.time_zone = "UTC".into();
    store
        .update_settings(&admin, 0, SettingsTab::General(general))
        .expect("settings saved");
    let app = App::new(store, None, Theme::plain()).expect("app");
    Fixture {
        app,
        _dir: dir,
        admin,
    }
}

/// A small agency: clients at several stages, a follow-up due today, an overdue intake.
pub fn agency() -> Fixture {
    let mut fixture = empty();
    let admin = fixture.admin.clone();
    let store = &mut fixture.app.store;

    store.set_now(Some(days_ago(8)));
    store
        .create_intake(&admin, intake_form("Margaret Ellis", "Tom Ellis"))
        .expect("intake");

    store.set_now(Some(days_ago(4)));
    let walter = store
        .create_intake(&admin, intake_form("Walter Brooks", "Nina Brooks"))
        .expect("intake");
    let assessment = store
        .save_assessment(
            &admin,
            AssessmentSave {
                existing: None,
                intake_id: Some(walter.id.clone()),
                form: assessment_form("Walter Brooks"),
                complete: true,
            },
        )
        .expect("assessment");
    let prefill = store.care_plan_prefill(&assessment.id).expect("prefill");
    let mut plan = prefill.plan.clone();
    plan.family_contact_email = "nina@example.com".into();
    let plan = store
        .create_care_plan(&admin, Some(&assessment.id), plan)
        .expect("care plan");
    store.mark_care_plan_sent(&admin, &plan.id).expect("sent");
    let preview = store.contract_preview(&plan.id).expect("preview").content;
    let contract = store
        .create_contract(&admin, &plan.id, None, &preview)
        .expect("contract");
    store
        .mark_contract_sent(&admin, &contract.id)
        .expect("contract sent");

    store.set_now(Some(days_ago(2)));
    store
        .create_intake(&admin, intake_form("Harold Park", "June Park"))
        .expect("intake");

    store.set_now(Some(days_ago(1)));
    let evelyn = store
        .create_intake(&admin, intake_form("Evelyn Moore", "Rita Moore"))
        .expect("intake");
    store
        .save_assessment(
            &admin,
            AssessmentSave {
                existing: None,
                intake_id: Some(evelyn.id.clone()),
                form: assessment_form("Evelyn Moore"),
                complete: false,
            },
        )
        .expect("draft assessment");

    store.set_now(Some(now()));
    let mut dorothy = intake_form("Dorothy Chen", "Lily Chen");
    dorothy.next_follow_up_date = "2026-03-02".into();
    dorothy.next_follow_up_time = "18:00".into();
    dorothy.follow_up_notes = "Call back about weekend hours".into();
    let dorothy = store.create_intake(&admin, dorothy).expect("intake");
    store
        .add_contact(
            &admin,
            &dorothy.id,
            ContactInput {
                full_name: "Lily Chen".into(),
                relationship: "Daughter".into(),
                phone: "(217) 555-0199".into(),
                is_primary: true,
                ..ContactInput::default()
            },
        )
        .expect("contact");
    store
        .add_note(
            &admin,
            &NoteInput {
                parents: Parents {
                    intake_id: Some(dorothy.id.clone()),
                    ..Parents::default()
                },
                content: "Prefers mornings.".into(),
                ..NoteInput::default()
            },
        )
        .expect("note");

    // Start where a user starts: a freshly loaded dashboard.
    fixture.app.data_version = fixture.app.store.data_version().expect("data version");
    carepath_tui::update(&mut fixture.app, carepath_tui::Action::GoDashboard);
    fixture
}

pub fn press(app: &mut App, code: KeyCode) {
    handle_key(app, KeyEvent::new(code, KeyModifiers::NONE));
}

pub fn ctrl(app: &mut App, c: char) {
    handle_key(app, KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// The screen as plain text, one line per row, trailing blanks trimmed.
pub fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| views::render(frame, app))
        .expect("draw");
    let buffer = terminal.backend().buffer();
    let mut lines = Vec::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buffer[(x, y)].symbol());
        }
        lines.push(line.trim_end().to_owned());
    }
    lines.join("\n")
}

pub fn screen_name(app: &App) -> &'static str {
    match &app.screen {
        Screen::Dashboard(_) => "dashboard",
        Screen::List(_) => "list",
        Screen::Form(_) => "form",
        Screen::Client(_) => "client",
    }
}
