//! The intake form being filled in: its values, which field has the focus, and the
//! validation messages core returned, keyed by form name.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use carepath_core::model::{Intake, IntakeForm, IntakeId};

use super::fields::{self, COPIED_FROM_CALLER, Field, FieldKind, SECTIONS};

/// One place the focus can rest: a text field, a switch, or one choice of a multi-choice
/// field (so Tab walks through the choices as it does through checkboxes on the web).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub section: usize,
    pub field: &'static Field,
    pub choice: Option<usize>,
}

/// Every slot of the form, in order.
pub fn slots() -> &'static [Slot] {
    static SLOTS: OnceLock<Vec<Slot>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let mut slots = Vec::new();
        for (section, spec) in SECTIONS.iter().enumerate() {
            for field in spec.fields {
                match field.kind {
                    FieldKind::Multi(choices) => {
                        slots.extend((0..choices.len()).map(|choice| Slot {
                            section,
                            field,
                            choice: Some(choice),
                        }));
                    }
                    _ => slots.push(Slot {
                        section,
                        field,
                        choice: None,
                    }),
                }
            }
        }
        slots
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct FormState {
    /// The intake being edited and the version read, None for a new intake.
    pub existing: Option<(IntakeId, i64)>,
    /// The saved intake's status, as the banner shows it.
    pub status_banner: Option<String>,
    pub values: IntakeForm,
    /// Total hours per week as typed; parsed on save so "abc" gets core's message.
    pub hours_text: String,
    pub focus: usize,
    /// Validation messages by form name, from core.
    pub errors: BTreeMap<String, String>,
    /// The headline of the last failed save (the spec's toast).
    pub message: Option<String>,
    pub read_only: bool,
    /// The values as opened, to tell whether leaving would lose typing.
    opened: (IntakeForm, String),
}

impl FormState {
    /// A new intake; the form date defaults to today.
    pub fn new(today: &str) -> Self {
        let values = IntakeForm {
            date: today.to_owned(),
            ..IntakeForm::default()
        };
        Self::with_values(None, None, values, false)
    }

    pub fn from_intake(intake: &Intake, read_only: bool) -> Self {
        let banner = intake.status.as_str().to_uppercase().replace('_', " ");
        Self::with_values(
            Some((intake.id.clone(), intake.version)),
            Some(banner),
            intake.form.clone(),
            read_only,
        )
    }

    fn with_values(
        existing: Option<(IntakeId, i64)>,
        status_banner: Option<String>,
        values: IntakeForm,
        read_only: bool,
    ) -> Self {
        let hours_text = values
            .total_hours_per_week
            .filter(|hours| hours.is_finite())
            .map(|hours| hours.to_string())
            .unwrap_or_default();
        Self {
            existing,
            status_banner,
            opened: (values.clone(), hours_text.clone()),
            values,
            hours_text,
            focus: 0,
            errors: BTreeMap::new(),
            message: None,
            read_only,
        }
    }

    /// Whether something was typed that leaving the form would lose.
    pub fn has_unsaved_changes(&self) -> bool {
        !self.read_only && (self.values != self.opened.0 || self.hours_text != self.opened.1)
    }

    pub fn slot(&self) -> Slot {
        let all = slots();
        all[self.focus.min(all.len() - 1)]
    }

    /// True when the focused slot takes typed text.
    pub fn focus_is_text(&self) -> bool {
        !matches!(
            self.slot().field.kind,
            FieldKind::Flag | FieldKind::Multi(_)
        )
    }

    /// Locked while the client is the caller: those values are the caller's.
    pub fn is_disabled(&self, field: &Field) -> bool {
        self.values.client_is_caller && COPIED_FROM_CALLER.contains(&field.key)
    }

    /// The text shown for a text, date, time or number field.
    pub fn text_value(&self, field: &Field) -> String {
        match field.kind {
            FieldKind::Number => self.hours_text.clone(),
            _ => fields::text(&self.values, field.key)
                .cloned()
                .unwrap_or_default(),
        }
    }

    pub fn is_chosen(&self, field: &Field, choice: &str) -> bool {
        fields::list(&self.values, field.key)
            .iter()
            .any(|value| value == choice)
    }

    pub fn next_field(&mut self) {
        self.move_focus(1);
    }

    pub fn prev_field(&mut self) {
        self.move_focus(-1);
    }

    fn move_focus(&mut self, step: isize) {
        let all = slots();
        let mut index = self.focus as isize;
        loop {
            index += step;
            if index < 0 || index >= all.len() as isize {
                return;
            }
            let slot = all[index as usize];
            if !self.is_disabled(slot.field) {
                self.focus = index as usize;
                return;
            }
        }
    }

    /// Jumps to the first field of the next (or previous) section.
    pub fn jump_section(&mut self, forward: bool) {
        let current = self.slot().section;
        let target = if forward {
            (current + 1).min(SECTIONS.len() - 1)
        } else {
            current.saturating_sub(1)
        };
        self.focus_section(target);
    }

    pub fn focus_section(&mut self, section: usize) {
        if let Some(index) = slots().iter().position(|slot| slot.section == section) {
            self.focus = index;
            if self.is_disabled(self.slot().field) {
                self.next_field();
            }
        }
    }

    /// Moves the focus to the first field (in form order) that has a message.
    pub fn focus_first_error(&mut self) {
        if let Some(index) = slots()
            .iter()
            .position(|slot| self.errors.contains_key(slot.field.key))
        {
            self.focus = index;
        }
    }

    pub fn input(&mut self, c: char) {
        if self.read_only {
            return;
        }
        let slot = self.slot();
        if !self.focus_is_text() {
            if c == ' ' {
                self.toggle();
            }
            return;
        }
        if self.is_disabled(slot.field) {
            return;
        }
        match slot.field.kind {
            FieldKind::Number => self.hours_text.push(c),
            _ => {
                if let Some(text) = fields::text_mut(&mut self.values, slot.field.key) {
                    text.push(c);
                }
            }
        }
        self.edited(slot.field.key);
    }

    pub fn backspace(&mut self) {
        self.edit_text(|text| {
            text.pop();
        });
    }

    pub fn clear(&mut self) {
        self.edit_text(String::clear);
    }

    fn edit_text(&mut self, edit: impl FnOnce(&mut String)) {
        let slot = self.slot();
        if self.read_only || !self.focus_is_text() || self.is_disabled(slot.field) {
            return;
        }
        match slot.field.kind {
            FieldKind::Number => edit(&mut self.hours_text),
            _ => {
                if let Some(text) = fields::text_mut(&mut self.values, slot.field.key) {
                    edit(text);
                }
            }
        }
        self.edited(slot.field.key);
    }

    /// Space: ticks or unticks a choice, flips a switch, or types a space.
    pub fn toggle(&mut self) {
        if self.read_only {
            return;
        }
        let slot = self.slot();
        match (slot.field.kind, slot.choice) {
            (FieldKind::Flag, _) => {
                self.values.client_is_caller = !self.values.client_is_caller;
                self.edited(slot.field.key);
            }
            (FieldKind::Multi(choices), Some(choice)) => {
                let value = choices[choice];
                if let Some(list) = fields::list_mut(&mut self.values, slot.field.key) {
                    if let Some(at) = list.iter().position(|v| v == value) {
                        list.remove(at);
                    } else {
                        // Keep the options' order, whatever order they were ticked in.
                        list.push(value.to_owned());
                        list.sort_by_key(|v| choices.iter().position(|c| c == v));
                    }
                }
                self.edited(slot.field.key);
            }
            _ => self.input(' '),
        }
    }

    /// A field changed: its highlight clears, and the client's copies of the caller's
    /// details follow the caller while the client is the caller.
    fn edited(&mut self, key: &str) {
        self.errors.remove(key);
        if self.values.client_is_caller {
            self.values.apply_client_is_caller();
            for copied in COPIED_FROM_CALLER {
                self.errors.remove(*copied);
            }
        }
    }

    /// The form as core takes it.
    pub fn to_form(&self) -> IntakeForm {
        let mut form = self.values.clone();
        let hours = self.hours_text.trim();
        form.total_hours_per_week = if hours.is_empty() {
            None
        } else {
            // Core reports a non-number with its own message.
            Some(hours.parse::<f64>().unwrap_or(f64::NAN))
        };
        form
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn focus_on(state: &mut FormState, key: &str) {
        state.focus = slots()
            .iter()
            .position(|slot| slot.field.key == key)
            .unwrap_or_default();
    }

    #[test]
    fn typing_clears_that_fields_message() {
        let mut state = FormState::new("2026-03-02");
        state.errors.insert(
            "callerName".into(),
            carepath_core::rules::validation::FIELD_REQUIRED.into(),
        );
        state.errors.insert(
            "clientFullName".into(),
            carepath_core::rules::validation::FIELD_REQUIRED.into(),
        );
        focus_on(&mut state, "callerName");
        state.input('A');
        assert_eq!(state.values.caller_name, "A");
        assert!(!state.errors.contains_key("callerName"));
        assert!(state.errors.contains_key("clientFullName"));
    }

    #[test]
    fn client_is_caller_copies_and_locks_the_client_fields() {
        let mut state = FormState::new("2026-03-02");
        focus_on(&mut state, "callerName");
        for c in "Ann Lee".chars() {
            state.input(c);
        }
        focus_on(&mut state, "clientIsCaller");
        state.toggle();
        assert_eq!(state.values.client_full_name, "Ann Lee");
        assert_eq!(state.values.relationship_to_client, "Self");
        state.next_field();
        assert_eq!(
            state.slot().field.key,
            "dateOfBirth",
            "locked fields are skipped"
        );
    }

    #[test]
    fn choices_keep_the_options_order() {
        let mut state = FormState::new("2026-03-02");
        focus_on(&mut state, "servicesRequired");
        state.next_field();
        state.toggle();
        state.prev_field();
        state.toggle();
        assert_eq!(
            state.values.services_required,
            vec!["Personal Care (ADLs)", "Companionship"]
        );
        state.toggle();
        assert_eq!(state.values.services_required, vec!["Companionship"]);
    }

    #[test]
    fn hours_are_parsed_on_save() {
        let mut state = FormState::new("2026-03-02");
        state.hours_text = "12.5".into();
        assert_eq!(state.to_form().total_hours_per_week, Some(12.5));
        state.hours_text = "lots".into();
        assert!(
            state
                .to_form()
                .total_hours_per_week
                .is_some_and(f64::is_nan)
        );
    }
}
