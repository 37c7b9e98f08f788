//! Validation of everything staff submit, with the spec's exact messages. Each check
//! returns every field's message at once (`Error::Validation`); field keys are the
//! form's camelCase names for the intake and assessment forms and the snake_case field
//! names of the other inputs.

mod account;
mod archive;
mod assessment;
mod bounds;
mod care_plan;
mod communications;
mod intake;
mod templates;

pub use account::*;
pub use archive::*;
pub use assessment::*;
pub use bounds::*;
pub use care_plan::*;
pub use communications::*;
pub use intake::*;
pub use templates::*;

use jiff::civil::Date;

use super::clock::{AgencyClock, parse_date};
use crate::error::ValidationErrors;

pub const FIELD_REQUIRED: &str = "This field is required";
pub const INVALID_DATE: &str = "Please enter a valid date";
pub const DATE_IN_PAST: &str = "Date should be in the future";
pub const BIRTH_DATE_IN_FUTURE: &str = "Date of birth cannot be in the future";
pub const INVALID_EMAIL: &str = "Please enter a valid email address";
pub const INVALID_TIME: &str = "Please enter a valid time";

/// A plain shape check (something@domain.tld, no spaces): what an email-typed input
/// accepts. Whether the address exists is the mail server's business.
pub fn looks_like_email(text: &str) -> bool {
    let text = text.trim();
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && !text.chars().any(char::is_whitespace)
        && domain.contains('.')
        && domain.split('.').all(|part| !part.is_empty())
}

/// Checks an optional email field: empty is fine, anything else must look like one.
pub(super) fn check_email(errors: &mut ValidationErrors, field: &str, value: &str) {
    if !value.trim().is_empty() && !looks_like_email(value) {
        errors.add(field, INVALID_EMAIL);
    }
}

/// Checks an optional date field whose minimum is today. Only a value that is new or
/// changed is held to it: a saved record whose start date has since passed must stay
/// editable.
fn check_future_date(
    errors: &mut ValidationErrors,
    field: &str,
    value: &str,
    previous: Option<&str>,
    clock: &AgencyClock,
) {
    let value = value.trim();
    if value.is_empty() || previous.map(str::trim) == Some(value) {
        return;
    }
    match parse_date(value) {
        None => errors.add(field, INVALID_DATE),
        Some(date) if clock.is_past_date(date) => errors.add(field, DATE_IN_PAST),
        Some(_) => {}
    }
}

/// Checks an optional date of birth: a real date, not after today.
fn check_birth_date(errors: &mut ValidationErrors, field: &str, value: &str, clock: &AgencyClock) {
    let value = value.trim();
    if value.is_empty() {
        return;
    }
    match parse_date(value) {
        None => errors.add(field, INVALID_DATE),
        Some(date) if date > clock.today() => errors.add(field, BIRTH_DATE_IN_FUTURE),
        Some(_) => {}
    }
}

/// Checks an optional date with no range rule; like the future dates, only when changed.
fn check_plain_date(
    errors: &mut ValidationErrors,
    field: &str,
    value: &str,
    previous: Option<&str>,
) {
    let value = value.trim();
    if value.is_empty() || previous.map(str::trim) == Some(value) {
        return;
    }
    if parse_date(value).is_none() {
        errors.add(field, INVALID_DATE);
    }
}

/// The spec's "start date must not be in the past" on the care plan: a warning shown
/// beside the field, never a reason to refuse the save.
pub fn date_in_past_warning(value: &str, clock: &AgencyClock) -> Option<&'static str> {
    parse_date(value)
        .filter(|date: &Date| clock.is_past_date(*date))
        .map(|_| DATE_IN_PAST)
}

#[cfg(test)]
pub(crate) mod test_support {
    use jiff::tz::TimeZone;

    use super::super::clock::AgencyClock;
    use crate::error::Error;

    /// 2026-11-22 at 10:00 in New York.
    pub fn clock() -> AgencyClock {
        AgencyClock::new(
            "2026-11-22T15:00:00Z".parse().unwrap(),
            TimeZone::get("America/New_York").unwrap(),
        )
    }

    /// The headline and the (field, message) pairs of a validation error; empty for Ok.
    pub fn messages(result: Result<(), Error>) -> (String, Vec<(String, String)>) {
        match result {
            Ok(()) => (String::new(), Vec::new()),
            Err(Error::Validation(errors)) => (errors.message, errors.fields.into_iter().collect()),
            Err(other) => panic!("expected a validation error, got {other:?}"),
        }
    }

    pub fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = expected
            .iter()
            .map(|(field, message)| (field.to_string(), message.to_string()))
            .collect();
        pairs.sort();
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::clock;
    use super::*;

    #[test]
    fn email_shapes() {
        let cases = [
            ("ann@example.com", true),
            ("ann.lee+care@mail.example.org", true),
            (" ann@example.com ", true),
            ("", false),
            ("ann", false),
            ("ann@", false),
            ("@example.com", false),
            ("ann@example", false),
            ("ann@example.", false),
            ("ann@.com", false),
            ("ann@@example.com", false),
            ("ann@exa mple.com", false),
            ("ann lee@example.com", false),
        ];
        for (text, expected) in cases {
            assert_eq!(looks_like_email(text), expected, "{text:?}");
        }
    }

    #[test]
    fn past_date_warning() {
        let clock = clock();
        let cases = [
            ("2026-11-21", Some(DATE_IN_PAST)),
            ("2026-11-22", None),
            ("2026-11-23", None),
            ("", None),
            ("soon", None),
        ];
        for (value, expected) in cases {
            assert_eq!(date_in_past_warning(value, &clock), expected, "{value:?}");
        }
    }
}
