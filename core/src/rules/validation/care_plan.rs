//! The care plan proposal: what Save Care Plan requires, and the checks before its
//! marketing email is generated or sent.

use super::{INVALID_EMAIL, MAX_HOURS_PER_DAY, MAX_MONEY, add_text_bound_errors, check_text};
use crate::error::{Error, ValidationErrors};
use crate::model::{CarePlanInput, DaySchedule, WeeklySchedule};

pub const CARE_PLAN_NEEDS_CLIENT: &str =
    "Client name and family email are required for sending the care plan.";
pub const CARE_PLAN_NEEDS_SERVICE: &str = "At least one service must be selected.";
pub const CARE_PLAN_NEEDS_HOURS: &str = "Schedule must include at least one day with hours.";
pub const CARE_PLAN_NEEDS_RATE: &str = "Hourly rate is required and must be greater than 0.";
pub const INVALID_SCHEDULE_HOURS: &str = "Hours must be between 0 and 24, in steps of 0.5.";
/// A quote or a save named a pricing template that does not exist (any more).
pub const UNKNOWN_PRICING_TEMPLATE: &str =
    "This pricing template no longer exists. Choose another template.";
/// The highest hourly rate a quote or a plan accepts: well above any real rate, low
/// enough that a week's cost stays an amount people can read.
pub const MAX_HOURLY_RATE: f64 = MAX_MONEY;
pub const RATE_OUT_OF_RANGE: &str = "Hourly rate must be greater than 0 and at most 10000.";
/// Email generation needs a saved plan.
pub const CARE_PLAN_NOT_SAVED: &str = "Please save the care plan first before generating an email.";
/// Sending the proposal email needs a recipient and content.
pub const CARE_PLAN_EMAIL_INCOMPLETE: &str = "Please provide recipient email and email content.";

/// Hours of one day: finite, not negative, in half-hour steps.
pub fn valid_schedule_hours(hours: f64) -> bool {
    hours.is_finite() && hours >= 0.0 && (hours * 2.0).fract() == 0.0
}

/// Adds a message for every day whose hours are not valid, keyed `schedule.monday` …
pub fn check_schedule_hours(errors: &mut ValidationErrors, schedule: &WeeklySchedule) {
    for (day, DaySchedule { hours, .. }) in schedule.days() {
        if !valid_schedule_hours(*hours) || *hours > MAX_HOURS_PER_DAY {
            errors.add(
                &format!("schedule.{}", day.to_ascii_lowercase()),
                INVALID_SCHEDULE_HOURS,
            );
        }
    }
}

/// Save Care Plan. The headline is the first failed requirement in the spec's order.
pub fn validate_care_plan(input: &CarePlanInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if input.client_name.trim().is_empty() {
        errors.add("client_name", CARE_PLAN_NEEDS_CLIENT);
    }
    let email = input.family_contact_email.trim();
    if email.is_empty() {
        errors.add("family_contact_email", CARE_PLAN_NEEDS_CLIENT);
    } else if !super::looks_like_email(email) {
        errors.add("family_contact_email", INVALID_EMAIL);
    }
    if input.services.is_empty() {
        errors.add("services", CARE_PLAN_NEEDS_SERVICE);
    }
    let has_hours = input
        .schedule
        .days()
        .iter()
        .any(|(_, day)| valid_schedule_hours(day.hours) && day.hours > 0.0);
    if !has_hours {
        errors.add("schedule", CARE_PLAN_NEEDS_HOURS);
    }
    check_schedule_hours(&mut errors, &input.schedule);
    if !input
        .hourly_rate
        .is_some_and(|rate| rate.is_finite() && rate > 0.0)
    {
        errors.add("hourly_rate", CARE_PLAN_NEEDS_RATE);
    } else if input.hourly_rate.is_some_and(|rate| rate > MAX_HOURLY_RATE) {
        // The same words as the quote's, so the form and its cost box agree.
        errors.add("hourly_rate", RATE_OUT_OF_RANGE);
    }
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Generate proposal email: only for a saved plan.
pub fn check_care_plan_saved(saved: bool) -> Result<(), Error> {
    if saved {
        Ok(())
    } else {
        Err(Error::Rejected(CARE_PLAN_NOT_SAVED.to_owned()))
    }
}

/// A cost quote: every day's hours valid, and a rate, when one is given, above 0 and at
/// most [`MAX_HOURLY_RATE`].
pub fn validate_quote(schedule: &WeeklySchedule, hourly_rate: Option<f64>) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    check_schedule_hours(&mut errors, schedule);
    if let Some(rate) = hourly_rate
        && !(rate.is_finite() && rate > 0.0 && rate <= MAX_HOURLY_RATE)
    {
        errors.add("hourly_rate", RATE_OUT_OF_RANGE);
    }
    errors.into_result()
}

/// Send Email in the care plan email dialog.
pub fn validate_care_plan_email(recipient: &str, content: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if recipient.trim().is_empty() {
        errors.add("to", CARE_PLAN_EMAIL_INCOMPLETE);
    } else if !super::looks_like_email(recipient) {
        errors.add("to", INVALID_EMAIL);
    }
    if content.trim().is_empty() {
        errors.add("body", CARE_PLAN_EMAIL_INCOMPLETE);
    }
    check_text(&mut errors, "to", recipient);
    check_text(&mut errors, "body", content);
    errors.into_result()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, pairs};
    use super::*;
    use crate::model::CarePlanService;

    fn complete() -> CarePlanInput {
        let mut input = CarePlanInput {
            client_name: "Rose Lee".into(),
            family_contact_email: "ann@example.com".into(),
            services: vec![CarePlanService::Companionship],
            hourly_rate: Some(28.5),
            ..CarePlanInput::default()
        };
        input.schedule.monday.hours = 4.0;
        input
    }

    fn check(input: CarePlanInput, headline: &str, fields: &[(&str, &str)]) {
        let (message, actual) = messages(validate_care_plan(&input));
        assert_eq!(message, headline, "headline of {input:?}");
        assert_eq!(actual, pairs(fields), "fields of {input:?}");
    }

    #[test]
    fn a_quote_checks_hours_and_a_given_rate() {
        let mut schedule = WeeklySchedule::default();
        schedule.saturday.hours = 3.5;
        assert!(validate_quote(&schedule, None).is_ok());
        assert!(validate_quote(&schedule, Some(28.5)).is_ok());
        for rate in [0.0, -1.0, f64::NAN, MAX_HOURLY_RATE + 0.01] {
            let (message, fields) = messages(validate_quote(&schedule, Some(rate)));
            assert_eq!(message, RATE_OUT_OF_RANGE, "{rate}");
            assert_eq!(fields, pairs(&[("hourly_rate", RATE_OUT_OF_RANGE)]));
        }
        schedule.sunday.hours = 1.25;
        let (message, _) = messages(validate_quote(&schedule, None));
        assert_eq!(message, INVALID_SCHEDULE_HOURS);
    }

    #[test]
    fn a_complete_care_plan_passes() {
        check(complete(), "", &[]);
    }

    #[test]
    fn requirements_in_the_spec_order() {
        check(
            CarePlanInput::default(),
            CARE_PLAN_NEEDS_CLIENT,
            &[
                ("client_name", CARE_PLAN_NEEDS_CLIENT),
                ("family_contact_email", CARE_PLAN_NEEDS_CLIENT),
                ("services", CARE_PLAN_NEEDS_SERVICE),
                ("schedule", CARE_PLAN_NEEDS_HOURS),
                ("hourly_rate", CARE_PLAN_NEEDS_RATE),
            ],
        );
        type Breaker = fn(&mut CarePlanInput);
        let cases: [(Breaker, &str, &str); 10] = [
            (
                |i| i.client_name = " ".into(),
                "client_name",
                CARE_PLAN_NEEDS_CLIENT,
            ),
            (
                |i| i.family_contact_email.clear(),
                "family_contact_email",
                CARE_PLAN_NEEDS_CLIENT,
            ),
            (
                |i| i.family_contact_email = "ann@".into(),
                "family_contact_email",
                INVALID_EMAIL,
            ),
            (|i| i.services.clear(), "services", CARE_PLAN_NEEDS_SERVICE),
            (
                |i| i.schedule.monday.hours = 0.0,
                "schedule",
                CARE_PLAN_NEEDS_HOURS,
            ),
            (
                |i| i.hourly_rate = None,
                "hourly_rate",
                CARE_PLAN_NEEDS_RATE,
            ),
            (
                |i| i.hourly_rate = Some(0.0),
                "hourly_rate",
                CARE_PLAN_NEEDS_RATE,
            ),
            (
                |i| i.hourly_rate = Some(-5.0),
                "hourly_rate",
                CARE_PLAN_NEEDS_RATE,
            ),
            (
                |i| i.hourly_rate = Some(f64::NAN),
                "hourly_rate",
                CARE_PLAN_NEEDS_RATE,
            ),
            (
                |i| i.hourly_rate = Some(f64::INFINITY),
                "hourly_rate",
                CARE_PLAN_NEEDS_RATE,
            ),
        ];
        for (breaker, field, message) in cases {
            let mut input = complete();
            breaker(&mut input);
            check(input, message, &[(field, message)]);
        }
        let input = CarePlanInput {
            hourly_rate: Some(0.01),
            ..complete()
        };
        check(input, "", &[]);
    }

    #[test]
    fn schedule_hours() {
        let cases = [
            (0.0, true),
            (0.5, true),
            (1.0, true),
            (7.5, true),
            (24.0, true),
            (0.25, false),
            (1.2, false),
            (-0.5, false),
            (f64::NAN, false),
            (f64::INFINITY, false),
        ];
        for (hours, valid) in cases {
            assert_eq!(valid_schedule_hours(hours), valid, "{hours}");
        }
        // A bad day is named; the good day still counts as a day with hours.
        let mut input = complete();
        input.schedule.saturday.hours = 2.25;
        check(
            input,
            INVALID_SCHEDULE_HOURS,
            &[("schedule.saturday", INVALID_SCHEDULE_HOURS)],
        );
        // Only bad days: both messages, the missing hours first.
        let mut input = complete();
        input.schedule.monday.hours = -4.0;
        check(
            input,
            CARE_PLAN_NEEDS_HOURS,
            &[
                ("schedule", CARE_PLAN_NEEDS_HOURS),
                ("schedule.monday", INVALID_SCHEDULE_HOURS),
            ],
        );
        let mut input = complete();
        input.schedule.monday.hours = 0.0;
        input.schedule.sunday.hours = 0.5;
        check(input, "", &[]);
    }

    #[test]
    fn email_steps() {
        assert!(check_care_plan_saved(true).is_ok());
        match check_care_plan_saved(false) {
            Err(Error::Rejected(message)) => assert_eq!(
                message,
                "Please save the care plan first before generating an email."
            ),
            other => panic!("{other:?}"),
        }
        let cases = [
            ("ann@example.com", "Dear Ann", vec![]),
            ("", "Dear Ann", vec![("to", CARE_PLAN_EMAIL_INCOMPLETE)]),
            (
                "ann@example.com",
                " \n",
                vec![("body", CARE_PLAN_EMAIL_INCOMPLETE)],
            ),
            (
                "",
                "",
                vec![
                    ("to", CARE_PLAN_EMAIL_INCOMPLETE),
                    ("body", CARE_PLAN_EMAIL_INCOMPLETE),
                ],
            ),
            ("ann", "Dear Ann", vec![("to", INVALID_EMAIL)]),
        ];
        for (to, body, expected) in cases {
            let (headline, actual) = messages(validate_care_plan_email(to, body));
            assert_eq!(actual, pairs(&expected), "{to:?} {body:?}");
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }
}
