//! The non-medical assessment: what Save Assessment requires, what a draft becomes, and
//! how a new assessment is pre-filled from its intake.

use super::{
    MAX_HOURS_PER_WEEK, add_text_bound_errors, check_birth_date, check_future_date, out_of_range,
};
use crate::error::{Error, ValidationErrors};
use crate::model::options::RECOMMENDED_SERVICES;
use crate::model::{AssessmentForm, IntakeForm};
use crate::rules::clock::AgencyClock;

pub const ASSESSMENT_NEEDS_CLIENT: &str =
    "Client name and phone number are required for messaging purposes.";
pub const ASSESSMENT_NEEDS_COORDINATOR: &str = "Coordinator name is required.";
pub const ASSESSMENT_NEEDS_SERVICE: &str = "At least one recommended service must be selected.";
pub const ASSESSMENT_NEEDS_HOURS: &str =
    "Recommended hours per week is required and must be greater than 0.";
pub const ASSESSMENT_NEEDS_DAY: &str =
    "At least one preferred day must be selected for the schedule.";
pub const DRAFT_ASSESSMENT_NAME: &str = "Draft Assessment";
/// Shown when a care plan is asked for before the assessment was saved.
pub const SAVE_FIRST: &str = "Save First";

fn blank(value: &str) -> bool {
    value.trim().is_empty()
}

/// Save Assessment / Update Assessment. The headline is the first failed requirement in
/// the spec's order; every field's message is returned with it. `previous` is the stored
/// form when updating: an assessment date that has not changed is not held to "today or
/// later".
pub fn validate_assessment_complete(
    form: &AssessmentForm,
    previous: Option<&AssessmentForm>,
    clock: &AgencyClock,
) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if blank(&form.client_name) {
        errors.add("clientName", ASSESSMENT_NEEDS_CLIENT);
    }
    if blank(&form.phone) {
        errors.add("phone", ASSESSMENT_NEEDS_CLIENT);
    }
    if blank(&form.coordinator_name) {
        errors.add("coordinatorName", ASSESSMENT_NEEDS_COORDINATOR);
    }
    if form
        .recommended_services
        .iter()
        .all(|service| blank(service))
    {
        errors.add("recommendedServices", ASSESSMENT_NEEDS_SERVICE);
    }
    if !form
        .recommended_hours
        .is_some_and(|hours| hours.is_finite() && hours > 0.0)
    {
        errors.add("recommendedHours", ASSESSMENT_NEEDS_HOURS);
    } else if form
        .recommended_hours
        .is_some_and(|hours| hours > MAX_HOURS_PER_WEEK)
    {
        errors.add("recommendedHours", out_of_range(0.5, MAX_HOURS_PER_WEEK));
    }
    if form.preferred_days.iter().all(|day| blank(day)) {
        errors.add("preferredDays", ASSESSMENT_NEEDS_DAY);
    }
    check_future_date(
        &mut errors,
        "assessmentDate",
        &form.assessment_date,
        previous.map(|before| before.assessment_date.as_str()),
        clock,
    );
    check_birth_date(&mut errors, "dateOfBirth", &form.date_of_birth, clock);
    add_text_bound_errors(form, &mut errors);
    errors.into_result()
}

/// Save as Draft: nothing is required; an unnamed draft is "Draft Assessment".
pub fn prepare_assessment_draft(form: AssessmentForm) -> AssessmentForm {
    let mut form = form.trimmed();
    if form.client_name.is_empty() {
        form.client_name = DRAFT_ASSESSMENT_NAME.to_owned();
    }
    form
}

/// A schedule day "has hours" when staff wrote something other than zero in it.
fn day_has_hours(text: &str) -> bool {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(hours) => hours > 0.0,
        Err(_) => !text.is_empty(),
    }
}

fn joined_address(intake: &IntakeForm) -> String {
    let state_zip = [intake.state.trim(), intake.zip_code.trim()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    [
        intake.client_address.trim(),
        intake.city.trim(),
        state_zip.as_str(),
    ]
    .into_iter()
    .filter(|part| !part.is_empty())
    .collect::<Vec<_>>()
    .join(", ")
}

/// A new assessment from an intake: the client's details, the caller as the family
/// contact, the services required (those an assessment can recommend; Skilled Nursing
/// (RN) is not one), the schedule days that have hours as preferred days, and today as
/// the assessment date.
pub fn prefill_assessment_from_intake(intake: &IntakeForm, clock: &AgencyClock) -> AssessmentForm {
    let client_name = if intake.client_is_caller {
        &intake.caller_name
    } else {
        &intake.client_full_name
    };
    let phone = if blank(&intake.client_phone) {
        &intake.caller_phone
    } else {
        &intake.client_phone
    };
    let mut recommended_services: Vec<String> = Vec::new();
    for service in &intake.services_required {
        let service = service.trim();
        if RECOMMENDED_SERVICES.contains(&service)
            && !recommended_services.iter().any(|s| s == service)
        {
            recommended_services.push(service.to_owned());
        }
    }
    AssessmentForm {
        assessment_date: clock.today().to_string(),
        client_name: client_name.trim().to_owned(),
        date_of_birth: intake.date_of_birth.trim().to_owned(),
        phone: phone.trim().to_owned(),
        address: joined_address(intake),
        caller_name: intake.caller_name.trim().to_owned(),
        caller_email: intake.caller_email.trim().to_owned(),
        recommended_services,
        recommended_hours: intake
            .total_hours_per_week
            .filter(|h| h.is_finite() && *h > 0.0),
        recommended_start_date: intake.anticipated_start_date.trim().to_owned(),
        preferred_days: intake
            .schedule_days()
            .into_iter()
            .filter(|(_, hours)| day_has_hours(hours))
            .map(|(day, _)| day.to_owned())
            .collect(),
        ..AssessmentForm::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{clock, messages, pairs};
    use super::super::{BIRTH_DATE_IN_FUTURE, DATE_IN_PAST, INVALID_DATE};
    use super::*;

    fn complete() -> AssessmentForm {
        AssessmentForm {
            assessment_date: "2026-11-22".into(),
            client_name: "Rose Lee".into(),
            phone: "555-0100".into(),
            coordinator_name: "Maria".into(),
            recommended_services: vec!["Companionship".into()],
            recommended_hours: Some(12.0),
            preferred_days: vec!["Monday".into()],
            ..AssessmentForm::default()
        }
    }

    fn check(
        form: AssessmentForm,
        previous: Option<AssessmentForm>,
        headline: &str,
        fields: &[(&str, &str)],
    ) {
        let (message, actual) = messages(validate_assessment_complete(
            &form,
            previous.as_ref(),
            &clock(),
        ));
        assert_eq!(message, headline, "headline of {form:?}");
        assert_eq!(actual, pairs(fields), "fields of {form:?}");
    }

    #[test]
    fn a_complete_assessment_passes() {
        check(complete(), None, "", &[]);
    }

    #[test]
    fn requirements_in_the_spec_order() {
        check(
            AssessmentForm::default(),
            None,
            ASSESSMENT_NEEDS_CLIENT,
            &[
                ("clientName", ASSESSMENT_NEEDS_CLIENT),
                ("phone", ASSESSMENT_NEEDS_CLIENT),
                ("coordinatorName", ASSESSMENT_NEEDS_COORDINATOR),
                ("recommendedServices", ASSESSMENT_NEEDS_SERVICE),
                ("recommendedHours", ASSESSMENT_NEEDS_HOURS),
                ("preferredDays", ASSESSMENT_NEEDS_DAY),
            ],
        );
        // Each requirement alone, and the headline it gives.
        type Breaker = fn(&mut AssessmentForm);
        let cases: [(Breaker, &str, &str); 10] = [
            (
                |f| f.client_name = " ".into(),
                "clientName",
                ASSESSMENT_NEEDS_CLIENT,
            ),
            (|f| f.phone.clear(), "phone", ASSESSMENT_NEEDS_CLIENT),
            (
                |f| f.coordinator_name.clear(),
                "coordinatorName",
                ASSESSMENT_NEEDS_COORDINATOR,
            ),
            (
                |f| f.recommended_services.clear(),
                "recommendedServices",
                ASSESSMENT_NEEDS_SERVICE,
            ),
            (
                |f| f.recommended_services = vec![" ".into()],
                "recommendedServices",
                ASSESSMENT_NEEDS_SERVICE,
            ),
            (
                |f| f.recommended_hours = None,
                "recommendedHours",
                ASSESSMENT_NEEDS_HOURS,
            ),
            (
                |f| f.recommended_hours = Some(0.0),
                "recommendedHours",
                ASSESSMENT_NEEDS_HOURS,
            ),
            (
                |f| f.recommended_hours = Some(-2.0),
                "recommendedHours",
                ASSESSMENT_NEEDS_HOURS,
            ),
            (
                |f| f.recommended_hours = Some(f64::NAN),
                "recommendedHours",
                ASSESSMENT_NEEDS_HOURS,
            ),
            (
                |f| f.preferred_days.clear(),
                "preferredDays",
                ASSESSMENT_NEEDS_DAY,
            ),
        ];
        for (breaker, field, message) in cases {
            let mut form = complete();
            breaker(&mut form);
            check(form, None, message, &[(field, message)]);
        }
        // The coordinator comes before the services in the headline.
        let form = AssessmentForm {
            coordinator_name: String::new(),
            preferred_days: Vec::new(),
            ..complete()
        };
        check(
            form,
            None,
            ASSESSMENT_NEEDS_COORDINATOR,
            &[
                ("coordinatorName", ASSESSMENT_NEEDS_COORDINATOR),
                ("preferredDays", ASSESSMENT_NEEDS_DAY),
            ],
        );
        let form = AssessmentForm {
            recommended_hours: Some(0.5),
            ..complete()
        };
        check(form, None, "", &[]);
    }

    #[test]
    fn dates() {
        let cases = [
            ("2026-11-22", None, "1940-01-01", vec![]),
            ("2026-11-30", None, "", vec![]),
            ("", None, "", vec![]),
            (
                "2026-11-21",
                None,
                "",
                vec![("assessmentDate", DATE_IN_PAST)],
            ),
            // Editing a completed assessment from last week keeps its date.
            ("2026-11-15", Some("2026-11-15"), "", vec![]),
            (
                "2026-11-16",
                Some("2026-11-15"),
                "",
                vec![("assessmentDate", DATE_IN_PAST)],
            ),
            (
                "2026-11-31",
                None,
                "",
                vec![("assessmentDate", INVALID_DATE)],
            ),
            ("2026-11-22", None, "2026-11-22", vec![]),
            (
                "2026-11-22",
                None,
                "2026-11-23",
                vec![("dateOfBirth", BIRTH_DATE_IN_FUTURE)],
            ),
            (
                "2026-11-22",
                None,
                "1940",
                vec![("dateOfBirth", INVALID_DATE)],
            ),
        ];
        for (date, previous, birth, expected) in cases {
            let form = AssessmentForm {
                assessment_date: date.into(),
                date_of_birth: birth.into(),
                ..complete()
            };
            let previous = previous.map(|p| AssessmentForm {
                assessment_date: p.into(),
                ..complete()
            });
            let headline = expected.first().map(|(_, m)| *m).unwrap_or("");
            check(form, previous, headline, &expected);
        }
        // A missing requirement stays the headline over a date error.
        let form = AssessmentForm {
            assessment_date: "2026-11-01".into(),
            phone: String::new(),
            ..complete()
        };
        check(
            form,
            None,
            ASSESSMENT_NEEDS_CLIENT,
            &[
                ("phone", ASSESSMENT_NEEDS_CLIENT),
                ("assessmentDate", DATE_IN_PAST),
            ],
        );
    }

    #[test]
    fn drafts() {
        let draft = prepare_assessment_draft(AssessmentForm::default());
        assert_eq!(draft.client_name, DRAFT_ASSESSMENT_NAME);
        let draft = prepare_assessment_draft(AssessmentForm {
            client_name: "  ".into(),
            ..AssessmentForm::default()
        });
        assert_eq!(draft.client_name, DRAFT_ASSESSMENT_NAME);
        let draft = prepare_assessment_draft(AssessmentForm {
            client_name: " Rose ".into(),
            ..AssessmentForm::default()
        });
        assert_eq!(draft.client_name, "Rose");
    }

    #[test]
    fn prefill_from_an_intake() {
        let intake = IntakeForm {
            caller_name: " Ann Lee ".into(),
            caller_phone: "555-0100".into(),
            caller_email: "ann@example.com".into(),
            client_full_name: "Rose Lee".into(),
            date_of_birth: "1940-05-01".into(),
            client_phone: "555-0199".into(),
            client_address: "12 Elm St".into(),
            city: "Springfield".into(),
            state: "IL".into(),
            zip_code: "62701".into(),
            services_required: vec![
                "Personal Care (ADLs)".into(),
                "Skilled Nursing (RN)".into(),
                "Companionship".into(),
                "24-Hour Care".into(),
            ],
            schedule_mon: "4".into(),
            schedule_tue: "0".into(),
            schedule_wed: "9am-1pm".into(),
            schedule_thu: " ".into(),
            schedule_fri: "2.5".into(),
            schedule_sat: String::new(),
            schedule_sun: "3".into(),
            total_hours_per_week: Some(13.5),
            anticipated_start_date: "2026-12-01".into(),
            ..IntakeForm::default()
        };
        let form = prefill_assessment_from_intake(&intake, &clock());
        assert_eq!(form.assessment_date, "2026-11-22");
        assert_eq!(form.client_name, "Rose Lee");
        assert_eq!(form.date_of_birth, "1940-05-01");
        assert_eq!(form.phone, "555-0199");
        assert_eq!(form.address, "12 Elm St, Springfield, IL 62701");
        assert_eq!(form.caller_name, "Ann Lee");
        assert_eq!(form.caller_email, "ann@example.com");
        assert_eq!(
            form.recommended_services,
            ["Personal Care (ADLs)", "Companionship", "24-Hour Care"]
        );
        assert_eq!(
            form.preferred_days,
            ["Monday", "Wednesday", "Friday", "Sunday"]
        );
        assert_eq!(form.recommended_hours, Some(13.5));
        assert_eq!(form.recommended_start_date, "2026-12-01");
        assert_eq!(form.coordinator_name, "");

        // The client is the caller; no client phone; partial address; no hours.
        let intake = IntakeForm {
            client_is_caller: true,
            caller_name: "Ann".into(),
            caller_phone: "555-0100".into(),
            client_full_name: String::new(),
            city: "Springfield".into(),
            zip_code: "62701".into(),
            total_hours_per_week: Some(f64::NAN),
            ..IntakeForm::default()
        };
        let form = prefill_assessment_from_intake(&intake, &clock());
        assert_eq!(form.client_name, "Ann");
        assert_eq!(form.phone, "555-0100");
        assert_eq!(form.address, "Springfield, 62701");
        assert_eq!(form.recommended_hours, None);
        assert!(form.preferred_days.is_empty());
        assert!(form.recommended_services.is_empty());
    }
}
