//! Sign-in and settings: new passwords, the email for a magic link or recovery, and the
//! values of each settings tab.

use super::{
    IDLE_TIMEOUT_MINUTES, INVALID_EMAIL, INVALID_TIME, OFFLINE_RETENTION_DAYS, STAGE_ALERT_DAYS,
    add_text_bound_errors, check_email, looks_like_email, out_of_range, parse_time,
};
use crate::error::{Error, ValidationErrors};
use crate::model::{NumberBounds, Settings, SettingsTab};

pub const MIN_PASSWORD_CHARS: usize = 6;
pub const PASSWORDS_DIFFER: &str = "Passwords do not match";
pub const PASSWORD_TOO_SHORT: &str = "Password must be at least 6 characters";
pub const MAX_PASSWORD_CHARS: usize = 200;
pub const PASSWORD_TOO_LONG: &str = "Password must be at most 200 characters";
pub const EMAIL_ADDRESS_NEEDED: &str = "Please enter your email address.";
pub const UNKNOWN_TIME_ZONE: &str = "Unknown time zone";
pub const STAGE_ALERT_DAYS_TOO_LOW: &str = "Stage alert days must be at least 1";
pub const IDLE_TIMEOUT_TOO_LOW: &str = "Automatic log-off must be at least 1 minute";

/// How many items the start-of-care checklist may hold, and how long each may be: a
/// checklist is a handful of steps, each a short line on a client's card.
pub const MAX_CHECKLIST_ITEMS: usize = 20;
pub const MAX_CHECKLIST_ITEM_CHARS: usize = 80;
pub const CHECKLIST_TOO_LONG: &str = "The start-of-care checklist can hold at most 20 items.";
pub const CHECKLIST_ITEM_EMPTY: &str = "Please enter a name for this checklist item.";
pub const CHECKLIST_ITEM_TOO_LONG: &str = "A checklist item must be at most 80 characters.";
pub const CHECKLIST_ITEM_REPEATED: &str = "This item is already on the checklist.";

/// A staff member tried to change a setting only administrators may change.
pub const SETTINGS_ADMIN_ONLY: &str = "Only an administrator can change where emails and text messages come from and go to, the automatic log-off, how long family links last, who must use a second factor, or how long devices keep what they took offline.";

/// The fields only administrators may change, by tab: what `admin_only_changes` checks
/// and what the settings answer tells the screen.
pub const ADMIN_ONLY_SETTINGS: [(&str, &[&str]); 3] = [
    ("email", &["default_from", "reply_to", "default_cc", "bcc"]),
    ("sms", &["default_sender_number"]),
    (
        "workflow",
        &[
            "idle_timeout_minutes",
            "signing_link_days",
            "second_factor_required",
            "offline_retention_days",
        ],
    ),
];

/// The bounds of the settings' number fields, by tab then field.
pub fn settings_number_bounds() -> [(&'static str, &'static str, NumberBounds); 6] {
    let bounds = |(min, max): (u32, u32)| NumberBounds { min, max };
    [
        ("workflow", "stage_alert_days", bounds(STAGE_ALERT_DAYS)),
        (
            "workflow",
            "idle_timeout_minutes",
            bounds(IDLE_TIMEOUT_MINUTES),
        ),
        (
            "workflow",
            "signing_link_days",
            bounds((1, crate::rules::signing::MAX_LINK_DAYS)),
        ),
        (
            "workflow",
            "offline_retention_days",
            bounds(OFFLINE_RETENTION_DAYS),
        ),
        (
            "workflow",
            "proposal_follow_up_days",
            bounds(crate::rules::queue::WAITING_DAYS),
        ),
        (
            "workflow",
            "contract_follow_up_days",
            bounds(crate::rules::queue::WAITING_DAYS),
        ),
    ]
}

/// Fills what a settings answer says about its fields: which only administrators may
/// change, and the bounds of the numbers.
pub fn describe_settings(settings: &mut Settings) {
    settings.admin_only = ADMIN_ONLY_SETTINGS
        .iter()
        .map(|(tab, fields)| {
            (
                (*tab).to_owned(),
                fields.iter().map(|field| (*field).to_owned()).collect(),
            )
        })
        .collect();
    settings.bounds.clear();
    for (tab, field, bounds) in settings_number_bounds() {
        settings
            .bounds
            .entry(tab.to_owned())
            .or_default()
            .insert(field.to_owned(), bounds);
    }
}

/// The fields of a settings tab that only administrators may change, and that this
/// update would change. They route messages (a copy address would receive what the
/// agency sends families) or weaken security (a long idle timeout keeps a forgotten
/// browser signed in).
pub fn admin_only_changes(current: &Settings, tab: &SettingsTab) -> Vec<&'static str> {
    let mut changed = Vec::new();
    match tab {
        SettingsTab::Email(new) => {
            let old = &current.email;
            for (field, differs) in [
                (
                    "default_from",
                    new.default_from.trim() != old.default_from.trim(),
                ),
                ("reply_to", new.reply_to.trim() != old.reply_to.trim()),
                ("default_cc", new.default_cc.trim() != old.default_cc.trim()),
                ("bcc", new.bcc != old.bcc),
            ] {
                if differs {
                    changed.push(field);
                }
            }
        }
        SettingsTab::Sms(new) => {
            if new.default_sender_number.trim() != current.sms.default_sender_number.trim() {
                changed.push("default_sender_number");
            }
        }
        SettingsTab::Workflow(new) => {
            if new.idle_timeout_minutes != current.workflow.idle_timeout_minutes {
                changed.push("idle_timeout_minutes");
            }
            // How long a family's approval or signing link works.
            if new.signing_link_days != current.workflow.signing_link_days {
                changed.push("signing_link_days");
            }
            // Who must sign in with a second factor.
            if new.second_factor_required != current.workflow.second_factor_required {
                changed.push("second_factor_required");
            }
            // How long a device keeps the records it took offline.
            if new.offline_retention_days != current.workflow.offline_retention_days {
                changed.push("offline_retention_days");
            }
        }
        SettingsTab::General(_) | SettingsTab::Notifications(_) => {}
    }
    changed
}

/// Set new password: the confirmation must match and the password have at least six
/// characters (characters, not bytes: "pässwö" is six).
pub fn validate_new_password(password: &str, confirm: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if password != confirm {
        errors.add("confirm", PASSWORDS_DIFFER);
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        errors.add("password", PASSWORD_TOO_SHORT);
    } else if password.chars().nth(MAX_PASSWORD_CHARS).is_some() {
        errors.add("password", PASSWORD_TOO_LONG);
    }
    errors.into_result()
}

/// Sign in with Magic Link, Forgot password: an email address is needed.
pub fn validate_magic_link_email(email: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if email.trim().is_empty() {
        errors.add("email", EMAIL_ADDRESS_NEEDED);
    } else if !looks_like_email(email) {
        errors.add("email", INVALID_EMAIL);
    }
    errors.into_result()
}

/// One settings tab. Email addresses must look like addresses; the agency's time zone
/// must be one the clock knows (empty means the machine's zone); the workflow numbers
/// must be at least 1.
pub fn validate_settings(tab: &SettingsTab) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    match tab {
        SettingsTab::General(general) => {
            check_email(&mut errors, "contact_email", &general.contact_email);
            let zone = general.time_zone.trim();
            if !zone.is_empty() && jiff::tz::TimeZone::get(zone).is_err() {
                errors.add("time_zone", UNKNOWN_TIME_ZONE);
            }
        }
        SettingsTab::Email(email) => {
            check_email(&mut errors, "default_from", &email.default_from);
            check_email(&mut errors, "reply_to", &email.reply_to);
            for (index, cc) in email
                .default_cc
                .split([',', ';'])
                .filter(|cc| !cc.trim().is_empty())
                .enumerate()
            {
                if !looks_like_email(cc) {
                    errors.add(&format!("default_cc.{index}"), INVALID_EMAIL);
                }
            }
            for (index, bcc) in email.bcc.iter().enumerate() {
                if !looks_like_email(bcc) {
                    errors.add(&format!("bcc.{index}"), INVALID_EMAIL);
                }
            }
        }
        SettingsTab::Workflow(workflow) => {
            let (low, high) = STAGE_ALERT_DAYS;
            if workflow.stage_alert_days < low {
                errors.add("stage_alert_days", STAGE_ALERT_DAYS_TOO_LOW);
            } else if workflow.stage_alert_days > high {
                errors.add("stage_alert_days", out_of_range(low, high));
            }
            let (low, high) = IDLE_TIMEOUT_MINUTES;
            if workflow.idle_timeout_minutes < 1 {
                errors.add("idle_timeout_minutes", IDLE_TIMEOUT_TOO_LOW);
            } else if !(low..=high).contains(&workflow.idle_timeout_minutes) {
                errors.add("idle_timeout_minutes", out_of_range(low, high));
            }
            if !(1..=crate::rules::signing::MAX_LINK_DAYS).contains(&workflow.signing_link_days) {
                errors.add("signing_link_days", crate::rules::signing::LINK_DAYS_RANGE);
            }
            let (low, high) = OFFLINE_RETENTION_DAYS;
            if !(low..=high).contains(&workflow.offline_retention_days) {
                errors.add("offline_retention_days", out_of_range(low, high));
            }
            let (low, high) = crate::rules::queue::WAITING_DAYS;
            for (field, days) in [
                ("proposal_follow_up_days", workflow.proposal_follow_up_days),
                ("contract_follow_up_days", workflow.contract_follow_up_days),
            ] {
                if !(low..=high).contains(&days) {
                    errors.add(field, out_of_range(low, high));
                }
            }
            check_checklist(&mut errors, &workflow.start_of_care_checklist);
        }
        SettingsTab::Notifications(notifications) => {
            for (field, time) in [
                ("visit_reminder_time", &notifications.visit_reminder_time),
                (
                    "assessor_summary_time",
                    &notifications.assessor_summary_time,
                ),
            ] {
                if parse_time(time).is_none() {
                    errors.add(field, INVALID_TIME);
                }
            }
        }
        SettingsTab::Sms(_) => {}
    }
    match tab {
        SettingsTab::General(values) => add_text_bound_errors(values, &mut errors),
        SettingsTab::Email(values) => add_text_bound_errors(values, &mut errors),
        SettingsTab::Sms(values) => add_text_bound_errors(values, &mut errors),
        SettingsTab::Notifications(values) => add_text_bound_errors(values, &mut errors),
        SettingsTab::Workflow(values) => add_text_bound_errors(values, &mut errors),
    }
    errors.into_result()
}

/// The start-of-care checklist: at most [`MAX_CHECKLIST_ITEMS`] items, each named, at
/// most [`MAX_CHECKLIST_ITEM_CHARS`] characters and different from the others (compared
/// trimmed and without regard to case, as a reader would).
fn check_checklist(errors: &mut ValidationErrors, items: &[String]) {
    const FIELD: &str = "start_of_care_checklist";
    if items.len() > MAX_CHECKLIST_ITEMS {
        errors.add(FIELD, CHECKLIST_TOO_LONG);
        return;
    }
    let mut seen: Vec<String> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let field = format!("{FIELD}.{index}");
        let name = item.trim();
        if name.is_empty() {
            errors.add(&field, CHECKLIST_ITEM_EMPTY);
        } else if name.chars().count() > MAX_CHECKLIST_ITEM_CHARS {
            errors.add(&field, CHECKLIST_ITEM_TOO_LONG);
        } else {
            let key = name.to_lowercase();
            if seen.contains(&key) {
                errors.add(&field, CHECKLIST_ITEM_REPEATED);
            }
            seen.push(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, pairs};
    use super::*;
    use crate::model::{
        EmailSettings, GeneralSettings, NotificationSettings, SmsSettings, WorkflowSettings,
    };

    /// Every field of every tab, changed alone: exactly the listed ones need an
    /// administrator, so the list the screen reads agrees with the check the save runs.
    #[test]
    fn the_admin_only_list_is_what_the_save_checks() {
        let mut current = Settings::default();
        describe_settings(&mut current);
        let stored = serde_json::to_value(&current).unwrap();
        let mut seen = Vec::new();
        for tab in ["general", "email", "sms", "notifications", "workflow"] {
            let values = stored[tab].as_object().unwrap();
            for (field, value) in values {
                let changed = match value {
                    // A choice, not free text: another of its values.
                    serde_json::Value::String(_) if field == "second_factor_required" => {
                        "everyone".into()
                    }
                    serde_json::Value::String(text) => format!("{text}x@example.test").into(),
                    serde_json::Value::Bool(flag) => (!flag).into(),
                    serde_json::Value::Number(number) => (number.as_u64().unwrap() + 1).into(),
                    serde_json::Value::Array(_) => serde_json::json!(["copy@example.test"]),
                    other => panic!("{tab}.{field} is {other}"),
                };
                let mut new_values = values.clone();
                new_values.insert(field.clone(), changed);
                let update: SettingsTab =
                    serde_json::from_value(serde_json::json!({ "tab": tab, "values": new_values }))
                        .unwrap();
                let listed = current
                    .admin_only
                    .get(tab)
                    .is_some_and(|fields| fields.contains(field));
                let expected: Vec<&str> = if listed { vec![field.as_str()] } else { vec![] };
                assert_eq!(
                    admin_only_changes(&current, &update),
                    expected,
                    "{tab}.{field}"
                );
                if listed {
                    seen.push(format!("{tab}.{field}"));
                }
            }
        }
        let listed: usize = ADMIN_ONLY_SETTINGS
            .iter()
            .map(|(_, fields)| fields.len())
            .sum();
        assert_eq!(
            seen.len(),
            listed,
            "a listed field that no tab has: {seen:?}"
        );
        assert_eq!(
            current.bounds["workflow"]["signing_link_days"],
            NumberBounds { min: 1, max: 90 }
        );
    }

    #[test]
    fn new_passwords() {
        let cases = [
            ("secret", "secret", vec![]),
            ("pässwö", "pässwö", vec![]), // six characters, eight bytes
            ("a longer one", "a longer one", vec![]),
            ("secret", "Secret", vec![("confirm", PASSWORDS_DIFFER)]),
            ("short", "short", vec![("password", PASSWORD_TOO_SHORT)]),
            ("", "", vec![("password", PASSWORD_TOO_SHORT)]),
            (
                "short",
                "shorts",
                vec![
                    ("confirm", PASSWORDS_DIFFER),
                    ("password", PASSWORD_TOO_SHORT),
                ],
            ),
        ];
        for (password, confirm, expected) in cases {
            let (headline, actual) = messages(validate_new_password(password, confirm));
            assert_eq!(actual, pairs(&expected), "{password:?} {confirm:?}");
            // A mismatch is reported first, as the sign-in screen does.
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }

    #[test]
    fn magic_link_email() {
        let cases = [
            ("ann@example.com", ""),
            ("", EMAIL_ADDRESS_NEEDED),
            ("  ", EMAIL_ADDRESS_NEEDED),
            ("ann", INVALID_EMAIL),
        ];
        for (email, expected) in cases {
            let (headline, _) = messages(validate_magic_link_email(email));
            assert_eq!(headline, expected, "{email:?}");
        }
    }

    #[test]
    fn settings_tabs() {
        let cases = [
            (SettingsTab::General(GeneralSettings::default()), vec![]),
            (
                SettingsTab::General(GeneralSettings {
                    contact_email: "office@agency.example".into(),
                    time_zone: "America/Chicago".into(),
                    ..GeneralSettings::default()
                }),
                vec![],
            ),
            (
                SettingsTab::General(GeneralSettings {
                    contact_email: "office".into(),
                    time_zone: "Mars/Olympus".into(),
                    ..GeneralSettings::default()
                }),
                vec![
                    ("contact_email", INVALID_EMAIL),
                    ("time_zone", UNKNOWN_TIME_ZONE),
                ],
            ),
            (
                SettingsTab::Email(EmailSettings {
                    default_from: "care@agency.example".into(),
                    reply_to: "reply".into(),
                    default_cc: "a@agency.example; b@agency, ".into(),
                    bcc: vec!["x@agency.example".into(), "y".into()],
                    ..EmailSettings::default()
                }),
                vec![
                    ("reply_to", INVALID_EMAIL),
                    ("default_cc.1", INVALID_EMAIL),
                    ("bcc.1", INVALID_EMAIL),
                ],
            ),
            (SettingsTab::Sms(SmsSettings::default()), vec![]),
            (
                SettingsTab::Notifications(NotificationSettings::default()),
                vec![],
            ),
            (SettingsTab::Workflow(WorkflowSettings::default()), vec![]),
            (
                SettingsTab::Workflow(WorkflowSettings {
                    stage_alert_days: 0,
                    idle_timeout_minutes: 0,
                    ..WorkflowSettings::default()
                }),
                vec![
                    ("stage_alert_days", STAGE_ALERT_DAYS_TOO_LOW),
                    ("idle_timeout_minutes", IDLE_TIMEOUT_TOO_LOW),
                ],
            ),
            (
                SettingsTab::Workflow(WorkflowSettings {
                    proposal_follow_up_days: 0,
                    contract_follow_up_days: 61,
                    ..WorkflowSettings::default()
                }),
                vec![
                    ("proposal_follow_up_days", "Must be between 1 and 60."),
                    ("contract_follow_up_days", "Must be between 1 and 60."),
                ],
            ),
            (
                SettingsTab::Workflow(WorkflowSettings {
                    start_of_care_checklist: vec![
                        "Caregiver matched".into(),
                        "  ".into(),
                        "x".repeat(81),
                        " caregiver MATCHED ".into(),
                        "é".repeat(80),
                    ],
                    ..WorkflowSettings::default()
                }),
                vec![
                    ("start_of_care_checklist.1", CHECKLIST_ITEM_EMPTY),
                    ("start_of_care_checklist.2", CHECKLIST_ITEM_TOO_LONG),
                    ("start_of_care_checklist.3", CHECKLIST_ITEM_REPEATED),
                ],
            ),
            (
                SettingsTab::Workflow(WorkflowSettings {
                    start_of_care_checklist: (0..21).map(|n| format!("Step {n}")).collect(),
                    ..WorkflowSettings::default()
                }),
                vec![("start_of_care_checklist", CHECKLIST_TOO_LONG)],
            ),
            (
                SettingsTab::Workflow(WorkflowSettings {
                    start_of_care_checklist: Vec::new(),
                    ..WorkflowSettings::default()
                }),
                vec![],
            ),
        ];
        for (tab, expected) in cases {
            let (_, actual) = messages(validate_settings(&tab));
            assert_eq!(actual, pairs(&expected), "{tab:?}");
        }
    }
}
