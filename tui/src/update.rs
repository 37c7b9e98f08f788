//! `update`: the only place the app's state changes. Keys arrive as actions (see the
//! keymap); core is called here, never from the views.

use crossterm::event::KeyEvent;

use carepath_core::Error;
use carepath_core::model::{
    ArchiveInput, ArchiveStatus, CallLogInput, IntakeId, NoteInput, Parents,
};

use crate::action::Action;
use crate::app::{
    App, Capture, CaptureKind, ClientState, DashboardState, ListKind, ListState, Overlay,
    STAGE_FILTERS, Screen, SearchState, TOAST_FOR, ToastKind,
};
use crate::form::FormState;
use crate::keymap;
use crate::load;

/// How many screens `q` can go back through.
const HISTORY_LIMIT: usize = 20;

/// What a first attempt to leave a form with unsaved changes says.
pub const UNSAVED_CHANGES: &str =
    "Unsaved changes: press again to leave without saving, or Ctrl+S to save.";

/// Rows a page key moves.
const PAGE_ROWS: usize = 10;

/// Looks the key up in the current context's key map and applies its action.
pub fn handle_key(app: &mut App, key: KeyEvent) {
    if let Some(action) = keymap::action_for(app.context(), &key) {
        update(app, action);
    }
}

pub fn update(app: &mut App, action: Action) {
    if action != Action::Tick && !confirm_leaving(app, &action) {
        return;
    }
    match action {
        Action::Quit => app.quit = true,
        Action::Tick => tick(app),
        Action::Refresh => {
            load::reload(app);
            if let Some(Overlay::Search(search)) = &mut app.overlay {
                search.results = app.store.search(&search.term).unwrap_or_default();
            }
        }
        Action::ToggleHelp => {
            app.overlay = match app.overlay {
                Some(Overlay::Help) => None,
                _ => Some(Overlay::Help),
            };
        }
        Action::OpenSearch => app.overlay = Some(Overlay::Search(SearchState::default())),
        Action::GoDashboard => {
            app.overlay = None;
            app.history.clear();
            app.screen = Screen::Dashboard(DashboardState::default());
            load::reload(app);
        }
        Action::GoClients => open_list(app, ListKind::Clients),
        Action::GoAssessments => open_list(app, ListKind::Assessments),
        Action::GoCarePlans => open_list(app, ListKind::CarePlans),
        Action::GoContracts => open_list(app, ListKind::Contracts),
        Action::GoVisits => open_list(app, ListKind::Visits),
        Action::NewIntake => {
            app.overlay = None;
            let today = app
                .store
                .clock()
                .map(|clock| clock.today().to_string())
                .unwrap_or_default();
            navigate(app, Screen::Form(Box::new(FormState::new(&today))));
        }
        Action::Back => back(app),
        _ if app.overlay.is_some() => search_action(app, action),
        _ => screen_action(app, action),
    }
}

/// Leaving a form with unsaved changes (back, dashboard, quit) takes a second press, so a
/// stray Esc or Ctrl+H (which some terminals send for Backspace) loses no typing. False
/// when the action is held back.
fn confirm_leaving(app: &mut App, action: &Action) -> bool {
    let leaves = match action {
        Action::Back => app.overlay.is_none(),
        Action::GoDashboard | Action::Quit => true,
        _ => false,
    };
    let unsaved = matches!(&app.screen, Screen::Form(form) if form.has_unsaved_changes());
    if !leaves || !unsaved {
        app.leave_armed = false;
        return true;
    }
    if app.leave_armed {
        app.leave_armed = false;
        return true;
    }
    app.leave_armed = true;
    app.toast(ToastKind::Error, UNSAVED_CHANGES);
    false
}

/// Expires the toast and notices writes made by the server or the CLI.
fn tick(app: &mut App) {
    if app
        .toast
        .as_ref()
        .is_some_and(|toast| toast.shown_at.elapsed() >= TOAST_FOR)
    {
        app.toast = None;
    }
    // PRAGMA data_version is one cheap statement and holds no read transaction open.
    if let Ok(version) = app.store.data_version()
        && version != app.data_version
    {
        app.data_version = version;
        update(app, Action::Refresh);
    }
}

/// Opens a screen, keeping the current one to come back to.
pub fn navigate(app: &mut App, screen: Screen) {
    let previous = std::mem::replace(&mut app.screen, screen);
    app.history.push(previous);
    if app.history.len() > HISTORY_LIMIT {
        app.history.remove(0);
    }
    load::reload(app);
}

fn open_list(app: &mut App, kind: ListKind) {
    app.overlay = None;
    if matches!(&app.screen, Screen::List(list) if list.kind == kind) {
        return;
    }
    navigate(app, Screen::List(ListState::new(kind)));
}

/// Esc/q: close the overlay or box, else go back; on the dashboard with nothing to go
/// back to, quit.
fn back(app: &mut App) {
    if app.overlay.take().is_some() {
        return;
    }
    match app.history.pop() {
        Some(screen) => {
            app.screen = screen;
            load::reload(app);
        }
        None if matches!(app.screen, Screen::Dashboard(_)) => app.quit = true,
        None => {
            app.screen = Screen::Dashboard(DashboardState::default());
            load::reload(app);
        }
    }
}

fn search_action(app: &mut App, action: Action) {
    let Some(Overlay::Search(search)) = &mut app.overlay else {
        return;
    };
    let mut term_changed = false;
    match action {
        Action::Input(c) => {
            search.term.push(c);
            term_changed = true;
        }
        Action::Backspace => {
            search.term.pop();
            term_changed = true;
        }
        Action::ClearInput => {
            search.term.clear();
            term_changed = true;
        }
        Action::Up => search.selected = search.selected.saturating_sub(1),
        Action::Down => {
            search.selected = (search.selected + 1).min(search.results.len().saturating_sub(1))
        }
        Action::Cancel => app.overlay = None,
        Action::Open => {
            let chosen = search
                .results
                .get(search.selected)
                .map(|row| row.id.clone());
            let term_long_enough = search.term.trim().chars().count() >= 2;
            app.overlay = None;
            match chosen {
                Some(id) => open_client(app, id),
                // The empty result's "View All Clients".
                None if term_long_enough => open_list(app, ListKind::Clients),
                None => {}
            }
        }
        _ => {}
    }
    if term_changed && let Some(Overlay::Search(search)) = &mut app.overlay {
        search.selected = 0;
        // Core finds nothing under 2 characters, as the spec asks; errors are ignored.
        search.results = app.store.search(&search.term).unwrap_or_default();
    }
}

fn screen_action(app: &mut App, action: Action) {
    match &mut app.screen {
        Screen::Dashboard(_) => dashboard_action(app, action),
        Screen::List(_) => list_action(app, action),
        Screen::Client(_) => client_action(app, action),
        Screen::Form(_) => form_action(app, action),
    }
}

fn dashboard_action(app: &mut App, action: Action) {
    let Screen::Dashboard(state) = &mut app.screen else {
        return;
    };
    let rows = state.rows().len();
    match action {
        Action::Up => state.selected = state.selected.saturating_sub(1),
        Action::Down => state.selected = (state.selected + 1).min(rows.saturating_sub(1)),
        Action::Open => {
            let Some(row) = state.rows().get(state.selected).copied() else {
                return;
            };
            let (id, route) = (row.id.clone(), row.pipeline.next_route.clone());
            open_next_step(app, id, &route);
        }
        _ => {}
    }
}

/// A row's next step: the intake form for intake routes, else the client view (the TUI
/// has no assessment, care plan or contract forms).
pub fn open_next_step(app: &mut App, id: IntakeId, route: &str) {
    if route.starts_with("/intake") {
        open_intake(app, &id, true);
    } else {
        open_client(app, id);
    }
}

fn open_client(app: &mut App, id: IntakeId) {
    navigate(app, Screen::Client(ClientState::new(id)));
}

fn open_intake(app: &mut App, id: &IntakeId, read_only: bool) {
    match app.store.get_intake(id) {
        Ok(intake) => navigate(
            app,
            Screen::Form(Box::new(FormState::from_intake(&intake, read_only))),
        ),
        Err(error) => app.toast(ToastKind::Error, format!("Failed to load intake: {error}")),
    }
}

fn list_action(app: &mut App, action: Action) {
    let Screen::List(list) = &mut app.screen else {
        return;
    };
    let rows = list.rows.len();
    let last = rows.saturating_sub(1);
    let mut reload = false;
    let mut wants_more = false;
    if list.editing_search {
        match action {
            Action::Input(c) => {
                list.search.push(c);
                reload = true;
            }
            Action::Backspace => {
                list.search.pop();
                reload = true;
            }
            Action::ClearInput => {
                list.search.clear();
                reload = true;
            }
            Action::Submit => list.editing_search = false,
            Action::Cancel => {
                list.editing_search = false;
                reload = !list.search.is_empty();
                list.search.clear();
            }
            _ => {}
        }
    } else {
        match action {
            Action::Up => list.selected = list.selected.saturating_sub(1),
            Action::Down => {
                list.selected = (list.selected + 1).min(last);
                wants_more = list.selected + 1 >= rows;
            }
            Action::PageUp => list.selected = list.selected.saturating_sub(PAGE_ROWS),
            Action::PageDown => {
                wants_more = list.selected + PAGE_ROWS >= rows;
                list.selected = (list.selected + PAGE_ROWS).min(last);
            }
            Action::Home => list.selected = 0,
            Action::End => {
                list.selected = last;
                wants_more = true;
            }
            Action::StartFilter => list.editing_search = true,
            Action::CycleStage if list.kind == ListKind::Clients => {
                list.stage = match list.stage {
                    None => Some(0),
                    Some(index) if index + 1 < STAGE_FILTERS.len() => Some(index + 1),
                    Some(_) => None,
                };
                reload = true;
            }
            Action::CycleUrgency if list.kind == ListKind::Clients => {
                list.urgency = load::next_urgency(list.urgency);
                reload = true;
            }
            Action::Open => {
                let selected = list.selected;
                match list.rows.intake_id(selected) {
                    Some(id) => open_client(app, id),
                    None if rows == 0 => {}
                    None => app.toast(ToastKind::Error, "This record has no client intake."),
                }
                return;
            }
            _ => {}
        }
    }
    if reload {
        list.selected = 0;
        list.rows = ListState::new(list.kind).rows;
        load::reload(app);
    } else if wants_more {
        let before = list.rows.len();
        load::load_more(app);
        // PgDn at the end lands on the first new row once it has arrived.
        if let Screen::List(list) = &mut app.screen
            && action == Action::PageDown
            && list.rows.len() > before
        {
            list.selected = (list.selected + 1).min(list.rows.len() - 1);
        }
    }
}

fn client_action(app: &mut App, action: Action) {
    let Screen::Client(client) = &mut app.screen else {
        return;
    };
    if let Some(capture) = &mut client.capture {
        match action {
            Action::Input(c) => capture.text.push(c),
            Action::Backspace => {
                capture.text.pop();
            }
            Action::ClearInput => capture.text.clear(),
            Action::Cancel => client.capture = None,
            Action::Submit => save_capture(app),
            _ => {}
        }
        return;
    }
    match action {
        Action::AddNote => {
            client.capture = Some(Capture {
                kind: CaptureKind::Note,
                text: String::new(),
            })
        }
        Action::LogCall => {
            client.capture = Some(Capture {
                kind: CaptureKind::Call,
                text: String::new(),
            })
        }
        Action::MarkDeclined | Action::MarkNotInterested => {
            let status = if action == Action::MarkDeclined {
                ArchiveStatus::Declined
            } else {
                ArchiveStatus::NotInterested
            };
            client.capture = Some(Capture {
                kind: CaptureKind::Archive(status),
                text: String::new(),
            })
        }
        Action::Reopen => {
            let id = client.id.clone();
            match app.store.reopen_client(&app.actor, &id) {
                Ok(()) => {
                    app.toast(ToastKind::Success, "Client reopened");
                    load::reload(app);
                }
                Err(error) => app.toast(ToastKind::Error, error.to_string()),
            }
        }
        Action::EditIntake => {
            let id = client.id.clone();
            open_intake(app, &id, false);
        }
        Action::ViewIntake | Action::Open => {
            let id = client.id.clone();
            open_intake(app, &id, true);
        }
        _ => {}
    }
}

/// Saves the quick note or call log through core, with the spec's messages.
fn save_capture(app: &mut App) {
    let Screen::Client(client) = &mut app.screen else {
        return;
    };
    let Some(capture) = client.capture.clone() else {
        return;
    };
    let parents = Parents {
        intake_id: Some(client.id.clone()),
        ..Parents::default()
    };
    let result = match capture.kind {
        CaptureKind::Note => app
            .store
            .add_note(
                &app.actor,
                &NoteInput {
                    parents,
                    content: capture.text.clone(),
                    ..NoteInput::default()
                },
            )
            .map(|_| "Note added successfully!".to_owned()),
        CaptureKind::Call => {
            // The call is to the number on the intake: the client's, else the caller's.
            let phone = client
                .intake
                .as_ref()
                .map(|intake| {
                    if intake.form.client_phone.trim().is_empty() {
                        intake.caller_phone.clone()
                    } else {
                        intake.form.client_phone.clone()
                    }
                })
                .unwrap_or_default();
            app.store
                .log_call(
                    &app.actor,
                    &CallLogInput {
                        parents,
                        phone,
                        notes: capture.text.clone(),
                        ..CallLogInput::default()
                    },
                )
                .map(|_| "Call logged successfully!".to_owned())
        }
        CaptureKind::Archive(status) => app
            .store
            .archive_client(
                &app.actor,
                &client.id,
                &ArchiveInput {
                    status,
                    reason: capture.text.clone(),
                },
            )
            .map(|()| format!("Client marked {}", status.label())),
    };
    match result {
        Ok(message) => {
            if let Screen::Client(client) = &mut app.screen {
                client.capture = None;
            }
            app.toast(ToastKind::Success, message);
            load::reload(app);
        }
        // The box stays open with what was typed, so nothing is lost.
        Err(Error::Validation(errors)) => app.toast(ToastKind::Error, errors.message),
        Err(error) => {
            let failed = match capture.kind {
                CaptureKind::Note => "Failed to add note",
                CaptureKind::Call => "Failed to log call",
                CaptureKind::Archive(_) => "Failed to archive client",
            };
            app.toast(ToastKind::Error, format!("{failed}: {error}"));
        }
    }
}

fn form_action(app: &mut App, action: Action) {
    let Screen::Form(form) = &mut app.screen else {
        return;
    };
    match action {
        Action::NextField | Action::Down => form.next_field(),
        Action::PrevField | Action::Up => form.prev_field(),
        Action::NextSection | Action::PageDown => form.jump_section(true),
        Action::PrevSection | Action::PageUp => form.jump_section(false),
        Action::Toggle => form.toggle(),
        Action::Input(c) => form.input(c),
        Action::Backspace => form.backspace(),
        Action::ClearInput => form.clear(),
        Action::EditIntake if form.read_only => {
            form.read_only = false;
            // Land on the first field that can be edited.
            let section = form.slot().section;
            form.focus_section(section);
        }
        Action::Save if !form.read_only => save_form(app, false),
        Action::SaveDraft if !form.read_only => save_form(app, true),
        _ => {}
    }
}

/// Submit Intake / Update Intake / Save as Draft through core. Validation messages land
/// beside their fields and the focus moves to the first one.
fn save_form(app: &mut App, draft: bool) {
    let Screen::Form(form) = &mut app.screen else {
        return;
    };
    let values = form.to_form();
    let existing = form.existing.clone();
    let result = match (&existing, draft) {
        (_, true) => app.store.save_intake_draft(
            &app.actor,
            existing.as_ref().map(|(id, version)| (id, *version)),
            values,
        ),
        (Some((id, version)), false) => app.store.update_intake(&app.actor, id, *version, values),
        (None, false) => app.store.create_intake(&app.actor, values),
    };
    match result {
        Ok(intake) => {
            let message = match (draft, existing.is_some()) {
                (true, _) => "Draft Saved",
                (false, true) => "Intake Updated Successfully",
                (false, false) => "Intake Saved Successfully",
            };
            // The form is done with: it is not a screen to come back to.
            app.screen = Screen::Dashboard(DashboardState::default());
            if draft {
                // A draft save goes to the dashboard.
                app.history.clear();
                load::reload(app);
            } else {
                app.screen = Screen::Client(ClientState::new(intake.id));
                load::reload(app);
            }
            app.toast(ToastKind::Success, message);
        }
        Err(Error::Validation(errors)) => {
            form.errors = errors.fields;
            form.message = Some(errors.message.clone());
            form.focus_first_error();
            app.toast(ToastKind::Error, errors.message);
        }
        Err(conflict @ Error::Conflict { .. }) => {
            form.message = Some(conflict.to_string());
            app.toast(ToastKind::Error, conflict.to_string());
        }
        Err(error) => {
            let failed = if draft {
                "Failed to save draft"
            } else {
                "Failed to save intake form"
            };
            app.toast(ToastKind::Error, format!("{failed}: {error}"));
        }
    }
}
