//! The key map, as data: which key does what in each context, with the text the help
//! screen and the key-help bar show. Nothing else in the crate matches on key codes.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::action::Action;

/// Where the keys go; each context has its own bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Dashboard,
    List,
    ClientsList,
    /// Typing the incremental search of a list.
    ListFilter,
    Client,
    /// Typing a quick note or call log in the client view.
    Capture,
    /// The intake form being filled in.
    Form,
    /// The intake form opened read-only.
    FormView,
    Search,
    Help,
}

impl Context {
    /// While typing, single-key shortcuts are off and characters go to the field.
    pub fn is_typing(self) -> bool {
        matches!(
            self,
            Context::ListFilter | Context::Capture | Context::Form | Context::Search
        )
    }

    pub fn title(self) -> &'static str {
        match self {
            Context::Dashboard => "Dashboard",
            Context::List => "List",
            Context::ClientsList => "Clients",
            Context::ListFilter => "List search",
            Context::Client => "Client",
            Context::Capture => "Quick capture",
            Context::Form => "Intake form",
            Context::FormView => "Intake (read-only)",
            Context::Search => "Search Clients",
            Context::Help => "Help",
        }
    }
}

/// A key with the modifiers that matter (Shift is ignored for characters: `?` arrives
/// with Shift on some terminals and without on others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

impl Key {
    pub const fn code(code: KeyCode) -> Self {
        Self { code, ctrl: false }
    }
    pub const fn ch(c: char) -> Self {
        Self::code(KeyCode::Char(c))
    }
    pub const fn ctrl(c: char) -> Self {
        Self {
            code: KeyCode::Char(c),
            ctrl: true,
        }
    }

    pub fn matches(self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let code = match event.code {
            // Some terminals report Ctrl+letter with an upper-case letter.
            KeyCode::Char(c) if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
            other => other,
        };
        self.code == code && self.ctrl == ctrl
    }

    pub fn label(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) if self.ctrl => c.to_ascii_uppercase().to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            KeyCode::Tab => "Tab".to_owned(),
            KeyCode::BackTab => "Shift+Tab".to_owned(),
            KeyCode::Backspace => "Backspace".to_owned(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("Ctrl+{base}")
        } else {
            base
        }
    }
}

/// One entry of the key map.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub keys: &'static [Key],
    pub action: Action,
    pub help: &'static str,
    /// Shown in the key-help bar (everything is shown in help).
    pub in_bar: bool,
}

const fn bind(keys: &'static [Key], action: Action, help: &'static str, in_bar: bool) -> Binding {
    Binding {
        keys,
        action,
        help,
        in_bar,
    }
}

use KeyCode::{BackTab, Backspace, Down, End, Enter, Esc, F, Home, PageDown, PageUp, Tab, Up};

/// Ctrl keys work everywhere, even while typing.
pub const GLOBAL: &[Binding] = &[
    bind(&[Key::ctrl('n')], Action::NewIntake, "new intake", true),
    bind(&[Key::ctrl('h')], Action::GoDashboard, "dashboard", false),
    bind(
        &[Key::ctrl('k')],
        Action::OpenSearch,
        "search clients",
        true,
    ),
    bind(&[Key::code(F(1))], Action::ToggleHelp, "help", false),
    bind(&[Key::ctrl('c')], Action::Quit, "quit", false),
];

/// Single keys, inactive while a field is being edited.
pub const SHORTCUTS: &[Binding] = &[
    bind(&[Key::ch('i')], Action::GoClients, "clients", false),
    bind(&[Key::ch('a')], Action::GoAssessments, "assessments", false),
    bind(&[Key::ch('c')], Action::GoCarePlans, "care plans", false),
    bind(&[Key::ch('t')], Action::GoContracts, "contracts", false),
    bind(
        &[Key::ch('v')],
        Action::GoVisits,
        "assessment visits",
        false,
    ),
    bind(&[Key::ch('?')], Action::ToggleHelp, "help", true),
    bind(
        &[Key::ch('q'), Key::code(Esc)],
        Action::Back,
        "back / quit",
        true,
    ),
];

const MOVE: &[Binding] = &[
    bind(&[Key::code(Up), Key::ch('k')], Action::Up, "move up", false),
    bind(
        &[Key::code(Down), Key::ch('j')],
        Action::Down,
        "move down",
        false,
    ),
    bind(&[Key::code(PageUp)], Action::PageUp, "page up", false),
    bind(
        &[Key::code(PageDown)],
        Action::PageDown,
        "page down (loads more)",
        false,
    ),
    bind(&[Key::code(Home)], Action::Home, "first row", false),
    bind(&[Key::code(End)], Action::End, "last loaded row", false),
];

const DASHBOARD: &[Binding] = &[
    bind(&[Key::code(Up), Key::ch('k')], Action::Up, "move up", false),
    bind(
        &[Key::code(Down), Key::ch('j')],
        Action::Down,
        "move down",
        false,
    ),
    bind(&[Key::code(Enter)], Action::Open, "open next step", true),
];

const LIST: &[Binding] = &[
    bind(&[Key::code(Enter)], Action::Open, "open client", true),
    bind(&[Key::ch('/')], Action::StartFilter, "search", true),
];

const CLIENTS_LIST: &[Binding] = &[
    bind(&[Key::code(Enter)], Action::Open, "open client", true),
    bind(&[Key::ch('/')], Action::StartFilter, "search", true),
    bind(&[Key::ch('s')], Action::CycleStage, "stage filter", true),
    bind(
        &[Key::ch('u')],
        Action::CycleUrgency,
        "urgency filter",
        true,
    ),
];

const TYPING_BOX: &[Binding] = &[
    bind(&[Key::code(Enter)], Action::Submit, "done", true),
    bind(&[Key::code(Esc)], Action::Cancel, "cancel", true),
    bind(
        &[Key::code(Backspace)],
        Action::Backspace,
        "delete a character",
        false,
    ),
    bind(&[Key::ctrl('u')], Action::ClearInput, "clear", false),
];

const CLIENT: &[Binding] = &[
    bind(&[Key::ch('n')], Action::AddNote, "add note", true),
    bind(&[Key::ch('l')], Action::LogCall, "log call", true),
    bind(&[Key::ch('e')], Action::EditIntake, "edit intake", true),
    bind(
        &[Key::ch('v'), Key::code(Enter)],
        Action::ViewIntake,
        "view intake",
        false,
    ),
    bind(
        &[Key::ch('d')],
        Action::MarkDeclined,
        "mark declined (asks why)",
        false,
    ),
    bind(
        &[Key::ch('x')],
        Action::MarkNotInterested,
        "mark not interested (asks why)",
        false,
    ),
    bind(
        &[Key::ch('o')],
        Action::Reopen,
        "reopen an archived client",
        false,
    ),
];

const CAPTURE: &[Binding] = &[
    bind(&[Key::code(Enter)], Action::Submit, "save", true),
    bind(&[Key::code(Esc)], Action::Cancel, "cancel", true),
    bind(
        &[Key::code(Backspace)],
        Action::Backspace,
        "delete a character",
        false,
    ),
    bind(&[Key::ctrl('u')], Action::ClearInput, "clear", false),
];

const FORM_MOVE: &[Binding] = &[
    bind(
        &[Key::code(Tab), Key::code(Down)],
        Action::NextField,
        "next field",
        true,
    ),
    bind(
        &[Key::code(BackTab), Key::code(Up)],
        Action::PrevField,
        "previous field",
        false,
    ),
    bind(
        &[Key::code(PageDown)],
        Action::NextSection,
        "next section",
        true,
    ),
    bind(
        &[Key::code(PageUp)],
        Action::PrevSection,
        "previous section",
        false,
    ),
];

const FORM: &[Binding] = &[
    bind(
        &[Key::code(Tab), Key::code(Down), Key::code(Enter)],
        Action::NextField,
        "next field",
        true,
    ),
    bind(
        &[Key::code(BackTab), Key::code(Up)],
        Action::PrevField,
        "previous field",
        false,
    ),
    bind(
        &[Key::code(PageDown)],
        Action::NextSection,
        "next section",
        true,
    ),
    bind(
        &[Key::code(PageUp)],
        Action::PrevSection,
        "previous section",
        false,
    ),
    bind(&[Key::ch(' ')], Action::Toggle, "tick a choice", false),
    bind(&[Key::ctrl('s')], Action::Save, "save", true),
    bind(&[Key::ctrl('d')], Action::SaveDraft, "save as draft", true),
    bind(
        &[Key::code(Backspace)],
        Action::Backspace,
        "delete a character",
        false,
    ),
    bind(&[Key::ctrl('u')], Action::ClearInput, "clear field", false),
    bind(&[Key::code(Esc)], Action::Back, "cancel", true),
];

const FORM_VIEW_EXTRA: &[Binding] = &[bind(&[Key::ch('e')], Action::EditIntake, "edit", true)];

const SEARCH: &[Binding] = &[
    bind(&[Key::code(Up)], Action::Up, "previous result", false),
    bind(&[Key::code(Down)], Action::Down, "next result", false),
    bind(&[Key::code(Enter)], Action::Open, "open client", true),
    bind(&[Key::code(Esc)], Action::Cancel, "close", true),
    bind(
        &[Key::code(Backspace)],
        Action::Backspace,
        "delete a character",
        false,
    ),
    bind(&[Key::ctrl('u')], Action::ClearInput, "clear", false),
];

const HELP: &[Binding] = &[bind(
    &[Key::code(Esc), Key::ch('q'), Key::ch('?'), Key::code(F(1))],
    Action::ToggleHelp,
    "close help",
    true,
)];

/// The context's own bindings, most specific first.
pub fn bindings(context: Context) -> Vec<&'static [Binding]> {
    match context {
        Context::Dashboard => vec![DASHBOARD],
        Context::List => vec![LIST, MOVE],
        Context::ClientsList => vec![CLIENTS_LIST, MOVE],
        Context::ListFilter => vec![TYPING_BOX],
        Context::Client => vec![CLIENT],
        Context::Capture => vec![CAPTURE],
        Context::Form => vec![FORM],
        Context::FormView => vec![FORM_VIEW_EXTRA, FORM_MOVE],
        Context::Search => vec![SEARCH],
        Context::Help => vec![HELP],
    }
}

/// Every table that applies in a context, in lookup order.
fn tables(context: Context) -> Vec<&'static [Binding]> {
    let mut tables = bindings(context);
    if context != Context::Help {
        tables.push(GLOBAL);
        if !context.is_typing() {
            tables.push(SHORTCUTS);
        }
    }
    tables
}

/// What a key does in a context. While typing, an unbound plain character is input.
pub fn action_for(context: Context, event: &KeyEvent) -> Option<Action> {
    for table in tables(context) {
        for binding in table {
            if binding.keys.iter().any(|key| key.matches(event)) {
                return Some(binding.action);
            }
        }
    }
    let plain = !event
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    match event.code {
        KeyCode::Char(c) if context.is_typing() && plain => Some(Action::Input(c)),
        _ => None,
    }
}

/// One line of help: the keys and what they do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLine {
    pub keys: Vec<String>,
    pub action: Action,
    pub help: &'static str,
    pub in_bar: bool,
}

/// Every key of a context, for the help screen (the bar shows the `in_bar` ones).
pub fn help_lines(context: Context) -> Vec<HelpLine> {
    tables(context)
        .into_iter()
        .flatten()
        .map(|binding| HelpLine {
            keys: binding.keys.iter().map(|key| key.label()).collect(),
            action: binding.action,
            help: binding.help,
            in_bar: binding.in_bar,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn single_keys_are_inactive_while_typing() {
        let i = key(KeyCode::Char('i'), KeyModifiers::NONE);
        assert_eq!(action_for(Context::Dashboard, &i), Some(Action::GoClients));
        for typing in [
            Context::Form,
            Context::Search,
            Context::ListFilter,
            Context::Capture,
        ] {
            assert_eq!(
                action_for(typing, &i),
                Some(Action::Input('i')),
                "{typing:?}"
            );
        }
    }

    #[test]
    fn ctrl_keys_work_while_typing() {
        let ctrl_k = key(KeyCode::Char('k'), KeyModifiers::CONTROL);
        assert_eq!(action_for(Context::Form, &ctrl_k), Some(Action::OpenSearch));
        let ctrl_h = key(KeyCode::Char('H'), KeyModifiers::CONTROL);
        assert_eq!(
            action_for(Context::Capture, &ctrl_h),
            Some(Action::GoDashboard)
        );
    }

    #[test]
    fn every_context_has_bar_entries() {
        for context in [
            Context::Dashboard,
            Context::List,
            Context::ClientsList,
            Context::ListFilter,
            Context::Client,
            Context::Capture,
            Context::Form,
            Context::FormView,
            Context::Search,
            Context::Help,
        ] {
            assert!(
                help_lines(context).iter().any(|line| line.in_bar),
                "{context:?}"
            );
        }
    }
}
