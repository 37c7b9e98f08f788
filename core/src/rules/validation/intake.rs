//! The intake form: what Submit Intake enforces, what a draft becomes, and when a
//! follow-up reminder is due.

use jiff::Timestamp;
use jiff::civil::Time;

use super::{
    FIELD_REQUIRED, INVALID_TIME, add_text_bound_errors, check_birth_date, check_email,
    check_future_date, check_plain_date,
};
use crate::error::{Error, ValidationErrors};
use crate::model::IntakeForm;
use crate::rules::clock::{AgencyClock, parse_date};

pub const DRAFT_CLIENT_NAME: &str = "Draft - Unnamed Client";
pub const INVALID_TOTAL_HOURS: &str = "Total hours per week must be a number of 0 or more";

/// The toast when required fields are missing.
pub fn missing_required_message(missing: usize) -> String {
    format!(
        "Missing Required Fields: Please fill in {missing} required field(s) highlighted in red."
    )
}

/// Submit Intake / Update Intake. Expects the form as the store saves it (trimmed, with
/// client-is-caller applied). `previous` is the stored form when updating: the dates
/// whose minimum is today are only checked when they are new or changed.
pub fn validate_intake_submit(
    form: &IntakeForm,
    previous: Option<&IntakeForm>,
    clock: &AgencyClock,
) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();

    let mut enforced = vec![
        ("staffMemberTakingCall", &form.staff_member_taking_call),
        ("callerName", &form.caller_name),
    ];
    if !form.client_is_caller {
        enforced.push(("clientFullName", &form.client_full_name));
    }
    let mut missing = 0;
    for (field, value) in enforced {
        if value.trim().is_empty() {
            errors.add(field, FIELD_REQUIRED);
            missing += 1;
        }
    }

    check_email(&mut errors, "callerEmail", &form.caller_email);
    check_email(&mut errors, "clientEmail", &form.client_email);
    check_birth_date(&mut errors, "dateOfBirth", &form.date_of_birth, clock);

    let before = |pick: fn(&IntakeForm) -> &str| previous.map(pick);
    check_plain_date(&mut errors, "date", &form.date, before(|f| &f.date));
    check_future_date(
        &mut errors,
        "anticipatedStartDate",
        &form.anticipated_start_date,
        before(|f| &f.anticipated_start_date),
        clock,
    );
    check_future_date(
        &mut errors,
        "consultationDate",
        &form.consultation_date,
        before(|f| &f.consultation_date),
        clock,
    );
    check_future_date(
        &mut errors,
        "followUpDate",
        &form.follow_up_date,
        before(|f| &f.follow_up_date),
        clock,
    );
    check_future_date(
        &mut errors,
        "nextFollowUpDate",
        &form.next_follow_up_date,
        before(|f| &f.next_follow_up_date),
        clock,
    );
    check_plain_date(
        &mut errors,
        "completedDate",
        &form.completed_date,
        before(|f| &f.completed_date),
    );

    // A reminder whose time cannot be read would silently never fire.
    let time = form.next_follow_up_time.trim();
    if !time.is_empty() && parse_time(time).is_none() {
        errors.add("nextFollowUpTime", INVALID_TIME);
    }

    if let Some(hours) = form.total_hours_per_week
        && !(hours.is_finite() && hours >= 0.0)
    {
        errors.add("totalHoursPerWeek", INVALID_TOTAL_HOURS);
    }

    if missing > 0 {
        errors = errors.with_message(missing_required_message(missing));
    }
    add_text_bound_errors(form, &mut errors);
    errors.into_result()
}

/// Save as Draft: no field is required. The form is trimmed, client-is-caller applied,
/// and a draft without a client name gets a placeholder name for the lists.
pub fn prepare_intake_draft(form: IntakeForm) -> IntakeForm {
    let mut form = form.trimmed();
    form.apply_client_is_caller();
    if form.client_full_name.is_empty() {
        form.client_full_name = DRAFT_CLIENT_NAME.to_owned();
    }
    form
}

/// Reads a form time: `HH:MM` (what a time input sends) or `HH:MM:SS`.
pub fn parse_time(text: &str) -> Option<Time> {
    let text = text.trim();
    if !(text.len() == 5 || text.len() == 8) {
        return None;
    }
    text.parse::<Time>().ok()
}

/// The follow-up moment, stored only when both a date and a time are given. The date
/// and time are the agency's local time; a time that does not exist on a spring-forward
/// day moves forward by the gap.
pub fn follow_up_timestamp(date: &str, time: &str, clock: &AgencyClock) -> Option<Timestamp> {
    let date = parse_date(date)?;
    let time = parse_time(time)?;
    date.to_datetime(time)
        .to_zoned(clock.tz().clone())
        .ok()
        .map(|zoned| zoned.timestamp())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{clock, messages, pairs};
    use super::super::{BIRTH_DATE_IN_FUTURE, DATE_IN_PAST, INVALID_DATE, INVALID_EMAIL};
    use super::*;
    use crate::rules::clock::format_timestamp;

    fn complete() -> IntakeForm {
        IntakeForm {
            date: "2026-11-22".into(),
            staff_member_taking_call: "Maria".into(),
            caller_name: "Ann Lee".into(),
            caller_phone: "555-0100".into(),
            caller_email: "ann@example.com".into(),
            relationship_to_client: "Daughter".into(),
            client_full_name: "Rose Lee".into(),
            date_of_birth: "1940-05-01".into(),
            ..IntakeForm::default()
        }
    }

    fn check(
        form: IntakeForm,
        previous: Option<IntakeForm>,
        headline: &str,
        fields: &[(&str, &str)],
    ) {
        let (message, actual) =
            messages(validate_intake_submit(&form, previous.as_ref(), &clock()));
        assert_eq!(actual, pairs(fields), "fields of {form:?}");
        assert_eq!(message, headline, "headline of {form:?}");
    }

    #[test]
    fn a_complete_intake_passes() {
        check(complete(), None, "", &[]);
        // Only the three enforced fields matter; the others marked required are not.
        let form = IntakeForm {
            staff_member_taking_call: "Maria".into(),
            caller_name: "Ann".into(),
            client_full_name: "Rose".into(),
            ..IntakeForm::default()
        };
        check(form, None, "", &[]);
    }

    #[test]
    fn enforced_fields_are_counted() {
        check(
            IntakeForm::default(),
            None,
            "Missing Required Fields: Please fill in 3 required field(s) highlighted in red.",
            &[
                ("staffMemberTakingCall", FIELD_REQUIRED),
                ("callerName", FIELD_REQUIRED),
                ("clientFullName", FIELD_REQUIRED),
            ],
        );
        let form = IntakeForm {
            staff_member_taking_call: "   ".into(),
            ..complete()
        };
        check(
            form,
            None,
            "Missing Required Fields: Please fill in 1 required field(s) highlighted in red.",
            &[("staffMemberTakingCall", FIELD_REQUIRED)],
        );
        // The client is the caller: the client name is not asked for.
        let form = IntakeForm {
            client_is_caller: true,
            client_full_name: String::new(),
            caller_name: String::new(),
            ..complete()
        };
        check(
            form,
            None,
            "Missing Required Fields: Please fill in 1 required field(s) highlighted in red.",
            &[("callerName", FIELD_REQUIRED)],
        );
        // Missing fields and a date error together: the count only counts missing ones.
        let form = IntakeForm {
            caller_name: String::new(),
            date_of_birth: "2030-01-01".into(),
            ..complete()
        };
        check(
            form,
            None,
            "Missing Required Fields: Please fill in 1 required field(s) highlighted in red.",
            &[
                ("callerName", FIELD_REQUIRED),
                ("dateOfBirth", BIRTH_DATE_IN_FUTURE),
            ],
        );
    }

    #[test]
    fn birth_dates() {
        let cases = [
            ("", None),
            ("1940-05-01", None),
            ("2026-11-22", None), // born today
            ("2026-11-23", Some(BIRTH_DATE_IN_FUTURE)),
            ("2026-02-30", Some(INVALID_DATE)),
            ("05/01/1940", Some(INVALID_DATE)),
        ];
        for (value, expected) in cases {
            let form = IntakeForm {
                date_of_birth: value.into(),
                ..complete()
            };
            let expected: Vec<(&str, &str)> =
                expected.map(|m| ("dateOfBirth", m)).into_iter().collect();
            let headline = expected.first().map(|(_, m)| *m).unwrap_or("");
            check(form, None, headline, &expected);
        }
    }

    #[test]
    fn dates_with_a_minimum_of_today() {
        type Setter = fn(&mut IntakeForm, &str);
        let fields: [(&str, Setter); 4] = [
            ("anticipatedStartDate", |f, v| {
                f.anticipated_start_date = v.into()
            }),
            ("consultationDate", |f, v| f.consultation_date = v.into()),
            ("followUpDate", |f, v| f.follow_up_date = v.into()),
            ("nextFollowUpDate", |f, v| f.next_follow_up_date = v.into()),
        ];
        // (value, previous value, expected)
        let cases = [
            ("", None, None),
            ("2026-11-22", None, None), // today is allowed
            ("2026-11-23", None, None),
            ("2026-11-21", None, Some(DATE_IN_PAST)),
            ("2026-13-01", None, Some(INVALID_DATE)),
            ("tomorrow", None, Some(INVALID_DATE)),
            // Unchanged since it was saved: an old intake stays editable.
            ("2026-11-01", Some("2026-11-01"), None),
            // Changed to another past date: refused.
            ("2026-11-02", Some("2026-11-01"), Some(DATE_IN_PAST)),
            ("2026-11-02", Some(""), Some(DATE_IN_PAST)),
            ("2026-12-01", Some("2026-11-01"), None),
        ];
        for (field, set) in fields {
            for (value, previous, expected) in cases {
                let mut form = complete();
                set(&mut form, value);
                let previous = previous.map(|p| {
                    let mut before = complete();
                    set(&mut before, p);
                    before
                });
                let expected: Vec<(&str, &str)> =
                    expected.map(|m| (field, m)).into_iter().collect();
                let headline = expected.first().map(|(_, m)| *m).unwrap_or("");
                check(form, previous, headline, &expected);
            }
        }
    }

    #[test]
    fn today_is_the_agency_s_today() {
        // 01:00 UTC on the 23rd is still the 22nd in New York: the 22nd is not past.
        let clock = AgencyClock::new(
            "2026-11-23T01:00:00Z".parse().unwrap(),
            jiff::tz::TimeZone::get("America/New_York").unwrap(),
        );
        let form = IntakeForm {
            anticipated_start_date: "2026-11-22".into(),
            ..complete()
        };
        assert!(validate_intake_submit(&form, None, &clock).is_ok());
        let form = IntakeForm {
            date_of_birth: "2026-11-23".into(),
            ..complete()
        };
        assert!(validate_intake_submit(&form, None, &clock).is_err());
    }

    #[test]
    fn other_fields() {
        let cases: Vec<(IntakeForm, Vec<(&str, &str)>)> = vec![
            (
                IntakeForm {
                    caller_email: "ann.example.com".into(),
                    client_email: "rose@".into(),
                    ..complete()
                },
                vec![
                    ("callerEmail", INVALID_EMAIL),
                    ("clientEmail", INVALID_EMAIL),
                ],
            ),
            (
                IntakeForm {
                    client_email: "rose@example.org".into(),
                    ..complete()
                },
                vec![],
            ),
            (
                IntakeForm {
                    total_hours_per_week: Some(-1.0),
                    ..complete()
                },
                vec![("totalHoursPerWeek", INVALID_TOTAL_HOURS)],
            ),
            (
                IntakeForm {
                    total_hours_per_week: Some(f64::NAN),
                    ..complete()
                },
                vec![("totalHoursPerWeek", INVALID_TOTAL_HOURS)],
            ),
            (
                IntakeForm {
                    total_hours_per_week: Some(f64::INFINITY),
                    ..complete()
                },
                vec![("totalHoursPerWeek", INVALID_TOTAL_HOURS)],
            ),
            (
                IntakeForm {
                    total_hours_per_week: Some(0.0),
                    ..complete()
                },
                vec![],
            ),
            (
                IntakeForm {
                    total_hours_per_week: Some(20.5),
                    ..complete()
                },
                vec![],
            ),
            (
                IntakeForm {
                    date: "22/11/2026".into(),
                    completed_date: "x".into(),
                    ..complete()
                },
                vec![("date", INVALID_DATE), ("completedDate", INVALID_DATE)],
            ),
            (
                IntakeForm {
                    next_follow_up_time: "25:00".into(),
                    ..complete()
                },
                vec![("nextFollowUpTime", INVALID_TIME)],
            ),
            (
                IntakeForm {
                    next_follow_up_time: "14:30".into(),
                    ..complete()
                },
                vec![],
            ),
        ];
        for (form, expected) in cases {
            // Without missing fields the headline is the first field message recorded.
            let (headline, _) = messages(validate_intake_submit(&form, None, &clock()));
            assert_eq!(
                headline.is_empty(),
                expected.is_empty(),
                "headline {headline:?} for {expected:?}"
            );
            if let Some((_, first)) = expected.first() {
                assert_eq!(headline, *first);
            }
            check(form, None, &headline, &expected);
        }
    }

    #[test]
    fn drafts() {
        let draft = prepare_intake_draft(IntakeForm::default());
        assert_eq!(draft.client_full_name, DRAFT_CLIENT_NAME);

        let draft = prepare_intake_draft(IntakeForm {
            client_full_name: "  Rose Lee ".into(),
            caller_name: " Ann ".into(),
            ..IntakeForm::default()
        });
        assert_eq!(draft.client_full_name, "Rose Lee");
        assert_eq!(draft.caller_name, "Ann");

        let draft = prepare_intake_draft(IntakeForm {
            client_is_caller: true,
            caller_name: " Ann ".into(),
            caller_phone: "555".into(),
            caller_email: "ann@example.com".into(),
            client_full_name: "someone else".into(),
            ..IntakeForm::default()
        });
        assert_eq!(draft.client_full_name, "Ann");
        assert_eq!(draft.client_phone, "555");
        assert_eq!(draft.client_email, "ann@example.com");
        assert_eq!(draft.relationship_to_client, "Self");

        let draft = prepare_intake_draft(IntakeForm {
            client_is_caller: true,
            ..IntakeForm::default()
        });
        assert_eq!(draft.client_full_name, DRAFT_CLIENT_NAME);
    }

    #[test]
    fn follow_up_timestamps() {
        let clock = clock();
        let cases = [
            ("2026-11-25", "14:30", Some("2026-11-25T19:30:00.000Z")), // EST, UTC-5
            ("2026-07-01", "09:00", Some("2026-07-01T13:00:00.000Z")), // EDT, UTC-4
            ("2026-11-25", "23:30:15", Some("2026-11-26T04:30:15.000Z")),
            ("2026-11-25", "00:00", Some("2026-11-25T05:00:00.000Z")),
            // 02:30 does not exist on 8 March 2026 in New York: it means 03:30 EDT.
            ("2026-03-08", "02:30", Some("2026-03-08T07:30:00.000Z")),
            // 01:30 happens twice on 1 November 2026: the first (EDT) one.
            ("2026-11-01", "01:30", Some("2026-11-01T05:30:00.000Z")),
            ("2026-11-25", "", None),
            ("", "14:30", None),
            ("2026-11-25", "2:30 PM", None),
            ("2026-11-25", "24:00", None),
            ("2026-02-30", "14:30", None),
        ];
        for (date, time, expected) in cases {
            let actual = follow_up_timestamp(date, time, &clock).map(format_timestamp);
            assert_eq!(actual.as_deref(), expected, "{date} {time}");
        }
    }
}
