//! Assessment visits: what a booking must satisfy (a real local time, not in the past,
//! bounded text and length) and what staff are warned about without being refused
//! (outside the agency's business hours, an assessor booked twice).

use jiff::civil::{Date, Time};
use jiff::{SignedDuration, Timestamp};

use super::clock::{AgencyClock, parse_date};
use super::validation::{
    ADDRESS_TEXT_MAX, INVALID_DATE, INVALID_TIME, LONG_TEXT_MAX, parse_time,
    prefill_assessment_from_intake, text_too_long,
};
use crate::error::{Error, ValidationErrors};
use crate::model::{AssessmentForm, AssessmentVisit, IntakeForm, VisitInput};

/// The shortest and longest visit, in minutes: a quick check-in to a whole working day.
pub const VISIT_MINUTES: (u32, u32) = (15, 480);

pub const VISIT_IN_PAST: &str = "The visit cannot be in the past";
pub const VISIT_TIME_SKIPPED: &str =
    "This time does not exist on that day (the clocks go forward); please choose another time";
pub const VISIT_DURATION_OUT_OF_RANGE: &str = "Expected length must be between 15 and 480 minutes";
pub const VISIT_PLACE_NEEDED: &str = "Please enter where the visit takes place";
pub const VISIT_ASSESSOR_NEEDED: &str = "Please choose an assessor";
pub const VISIT_ASSESSOR_UNKNOWN: &str = "The assessor must be an active staff user";
pub const VISIT_CANCEL_REASON_NEEDED: &str = "Please enter a reason";
/// Long enough for a few sentences; the timeline line repeats it.
pub const MAX_CANCEL_REASON_CHARS: usize = 500;
pub const VISIT_CANCEL_REASON_TOO_LONG: &str = "Reason must be at most 500 characters";
pub const VISIT_NOT_SCHEDULED: &str = "This visit is no longer scheduled.";

/// A booking that passed every check: its moments in UTC and its cleaned text.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedVisit {
    pub starts_at: Timestamp,
    pub ends_at: Timestamp,
    pub duration_minutes: u32,
    pub place: String,
    pub notes: Option<String>,
}

/// The moment a local date and time names in the agency's zone. A time the clocks skip
/// (spring forward) is refused rather than moved, so a family is never told a time staff
/// did not choose; a time that happens twice (fall back) is the first of the two.
pub fn local_moment(date: Date, time: Time, clock: &AgencyClock) -> Option<Timestamp> {
    let ambiguous = clock.tz().to_ambiguous_timestamp(date.to_datetime(time));
    if matches!(ambiguous.offset(), jiff::tz::AmbiguousOffset::Gap { .. }) {
        return None;
    }
    ambiguous.earlier().ok()
}

/// Checks a booking and turns its local date and time into UTC.
pub fn validate_visit(input: &VisitInput, clock: &AgencyClock) -> Result<PlannedVisit, Error> {
    let mut errors = ValidationErrors::new();
    let date = parse_date(&input.date);
    let time = parse_time(&input.start_time);
    if date.is_none() {
        errors.add("date", INVALID_DATE);
    }
    if time.is_none() {
        errors.add("start_time", INVALID_TIME);
    }
    let (low, high) = VISIT_MINUTES;
    if !(low..=high).contains(&input.duration_minutes) {
        errors.add("duration_minutes", VISIT_DURATION_OUT_OF_RANGE);
    }
    let place = input.place.trim();
    if place.is_empty() {
        errors.add("place", VISIT_PLACE_NEEDED);
    } else if place.chars().count() > ADDRESS_TEXT_MAX {
        errors.add("place", text_too_long(ADDRESS_TEXT_MAX));
    }
    if input.assessor_id.as_str().trim().is_empty() {
        errors.add("assessor_id", VISIT_ASSESSOR_NEEDED);
    }
    let notes = input.notes.trim();
    if notes.chars().count() > LONG_TEXT_MAX {
        errors.add("notes", text_too_long(LONG_TEXT_MAX));
    }
    let mut starts_at = None;
    if let (Some(date), Some(time)) = (date, time) {
        match local_moment(date, time, clock) {
            None => errors.add("start_time", VISIT_TIME_SKIPPED),
            Some(moment) if moment < clock.now() => errors.add("date", VISIT_IN_PAST),
            Some(moment) => starts_at = Some(moment),
        }
    }
    errors.into_result()?;
    let starts_at = starts_at.expect("a valid date and time were checked above");
    let ends_at = starts_at
        .checked_add(SignedDuration::from_mins(i64::from(input.duration_minutes)))
        .map_err(|_| Error::Validation(ValidationErrors::single("date", INVALID_DATE)))?;
    Ok(PlannedVisit {
        starts_at,
        ends_at,
        duration_minutes: input.duration_minutes,
        place: place.to_owned(),
        notes: (!notes.is_empty()).then(|| notes.to_owned()),
    })
}

/// A cancellation's reason: required and bounded.
pub fn validate_cancel_reason(reason: &str) -> Result<String, Error> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::Validation(ValidationErrors::single(
            "reason",
            VISIT_CANCEL_REASON_NEEDED,
        )));
    }
    if reason.chars().count() > MAX_CANCEL_REASON_CHARS {
        return Err(Error::Validation(ValidationErrors::single(
            "reason",
            VISIT_CANCEL_REASON_TOO_LONG,
        )));
    }
    Ok(reason.to_owned())
}

/// Reads the Settings' business hours ("9:00 AM - 5:00 PM", "09:00-17:00"). None when
/// the text says something else ("By appointment"): then no visit is outside them.
pub fn parse_business_hours(text: &str) -> Option<(Time, Time)> {
    let (open, close) = text.split_once(['-', '–', '—'])?;
    let open = parse_clock_time(open)?;
    let close = parse_clock_time(close)?;
    (open < close).then_some((open, close))
}

/// "9:00 AM", "9 am", "17:00", "5:30pm".
fn parse_clock_time(text: &str) -> Option<Time> {
    let text = text.trim().to_ascii_lowercase().replace('.', "");
    let (digits, meridiem) = if let Some(rest) = text.strip_suffix("am") {
        (rest.trim(), Some(false))
    } else if let Some(rest) = text.strip_suffix("pm") {
        (rest.trim(), Some(true))
    } else {
        (text.as_str(), None)
    };
    let (hour, minute) = match digits.split_once(':') {
        Some((h, m)) => (h.trim().parse::<i8>().ok()?, m.trim().parse::<i8>().ok()?),
        None => (digits.parse::<i8>().ok()?, 0),
    };
    let hour = match meridiem {
        None if (0..24).contains(&hour) => hour,
        Some(pm) if (1..=12).contains(&hour) => (hour % 12) + if pm { 12 } else { 0 },
        _ => return None,
    };
    Time::new(hour, minute, 0, 0).ok()
}

/// The warning for a visit that starts before or ends after the business hours.
pub fn business_hours_warning(
    business_hours: &str,
    starts_at: Timestamp,
    ends_at: Timestamp,
    clock: &AgencyClock,
) -> Option<String> {
    let (open, close) = parse_business_hours(business_hours)?;
    let start = starts_at.to_zoned(clock.tz().clone());
    let end = ends_at.to_zoned(clock.tz().clone());
    let outside = start.time() < open || end.date() != start.date() || end.time() > close;
    outside.then(|| {
        format!(
            "This visit is outside the agency's business hours ({}).",
            business_hours.trim()
        )
    })
}

/// Whether two visits share any minute (one ending as the other starts does not).
pub fn overlaps(a: (Timestamp, Timestamp), b: (Timestamp, Timestamp)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// The warning for an assessor who already has a visit at an overlapping time.
pub fn double_booking_warning(
    assessor_name: &str,
    client_name: &str,
    starts_at: Timestamp,
    ends_at: Timestamp,
    clock: &AgencyClock,
) -> String {
    format!(
        "{assessor_name} already has a visit with {client_name} on {} from {} to {}.",
        display_date(clock.local_date(starts_at)),
        display_time(starts_at, clock),
        display_time(ends_at, clock),
    )
}

/// "Friday, November 27, 2026".
pub fn display_date(date: Date) -> String {
    date.strftime("%A, %B %-d, %Y").to_string()
}

/// "10:00 AM" in the agency's zone.
pub fn display_time(moment: Timestamp, clock: &AgencyClock) -> String {
    moment
        .to_zoned(clock.tz().clone())
        .strftime("%-I:%M %p")
        .to_string()
}

/// "Friday, November 27, 2026 at 10:00 AM": how the timeline and the invitation name a
/// visit's time.
pub fn display_when(moment: Timestamp, clock: &AgencyClock) -> String {
    format!(
        "{} at {}",
        display_date(clock.local_date(moment)),
        display_time(moment, clock)
    )
}

/// Where a map search for an address starts: OpenStreetMap's search, which needs no key.
pub const MAP_SEARCH_BASE: &str = "https://www.openstreetmap.org/search?query=";

/// The map link printed beside a visit's address: OpenStreetMap's search for it, the
/// address URL-encoded whole (lines joined by commas), so nothing typed in it can end the
/// query or add another.
pub fn map_search_url(address: &str) -> String {
    let address = address
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let query: String = form_urlencoded::byte_serialize(address.as_bytes()).collect();
    format!("{MAP_SEARCH_BASE}{query}")
}

/// The assessment worksheet a visit's packet prints: the form as a new assessment of the
/// client would start (what the intake already says), on the visit's day and place, with
/// its assessor; everything else is left for the assessor to fill in on site.
pub fn packet_worksheet(
    intake: &IntakeForm,
    visit: &AssessmentVisit,
    clock: &AgencyClock,
) -> AssessmentForm {
    let mut form = prefill_assessment_from_intake(intake, clock);
    form.assessment_date = visit.local_date.clone();
    form.assessment_location = visit.place.clone();
    form.assessor_name = visit.assessor_name.clone();
    form
}

/// The timeline line of a visit's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VisitEvent<'a> {
    Scheduled { when: &'a str, assessor: &'a str },
    Rescheduled { when: &'a str, assessor: &'a str },
    Cancelled { when: &'a str, reason: &'a str },
    Done { when: &'a str },
}

impl VisitEvent<'_> {
    pub fn description(&self) -> String {
        match self {
            VisitEvent::Scheduled { when, assessor } => {
                format!("Assessment visit scheduled for {when} with {assessor}")
            }
            VisitEvent::Rescheduled { when, assessor } => {
                format!("Assessment visit moved to {when} with {assessor}")
            }
            VisitEvent::Cancelled { when, reason } => {
                format!("Assessment visit of {when} cancelled: {}", reason.trim())
            }
            VisitEvent::Done { when } => format!("Assessment visit of {when} held"),
        }
    }
}

#[cfg(test)]
mod tests {
    use jiff::tz::TimeZone;

    use super::*;
    use crate::model::UserId;

    const ZONE: &str = "America/New_York";
    /// 10:00 local (EST) on Sunday 22 November 2026.
    const NOW: &str = "2026-11-22T15:00:00Z";

    #[test]
    fn map_links_search_the_whole_address_encoded() {
        for (address, url) in [
            (
                "12 Oak St, Springfield",
                "https://www.openstreetmap.org/search?query=12+Oak+St%2C+Springfield",
            ),
            (
                "Apt 4 & 5\n  Main St #2?x=1 ",
                "https://www.openstreetmap.org/search?query=Apt+4+%26+5%2C+Main+St+%232%3Fx%3D1",
            ),
            (
                "Café Straße",
                "https://www.openstreetmap.org/search?query=Caf%C3%A9+Stra%C3%9Fe",
            ),
            ("", "https://www.openstreetmap.org/search?query="),
        ] {
            assert_eq!(map_search_url(address), url, "{address:?}");
        }
    }

    fn clock_at(now: &str) -> AgencyClock {
        AgencyClock::new(now.parse().unwrap(), TimeZone::get(ZONE).unwrap())
    }

    fn input(date: &str, time: &str, minutes: u32, place: &str) -> VisitInput {
        VisitInput {
            date: date.to_owned(),
            start_time: time.to_owned(),
            duration_minutes: minutes,
            place: place.to_owned(),
            assessor_id: UserId::from("u1"),
            notes: String::new(),
        }
    }

    fn fields(result: Result<PlannedVisit, Error>) -> Vec<(String, String)> {
        match result {
            Err(Error::Validation(errors)) => errors.fields.into_iter().collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn a_local_time_becomes_utc_with_dst() {
        // (now, date, time, expected UTC start)
        let cases = [
            // Winter: EST is UTC-5.
            (NOW, "2026-11-23", "10:00", "2026-11-23T15:00:00Z"),
            // Summer: EDT is UTC-4.
            (NOW, "2027-07-01", "10:00", "2027-07-01T14:00:00Z"),
            // The day the clocks go forward (14 March 2027), after the gap.
            (NOW, "2027-03-14", "10:00", "2027-03-14T14:00:00Z"),
            // The day the clocks go back (7 November 2027): 01:30 happens twice; the first.
            (NOW, "2027-11-07", "01:30", "2027-11-07T05:30:00Z"),
            // Later today is not the past.
            (NOW, "2026-11-22", "10:30", "2026-11-22T15:30:00Z"),
        ];
        for (now, date, time, expected) in cases {
            let planned = validate_visit(&input(date, time, 60, "12 Oak St"), &clock_at(now))
                .unwrap_or_else(|e| panic!("{date} {time}: {e:?}"));
            assert_eq!(planned.starts_at.to_string(), expected, "{date} {time}");
            assert_eq!(
                planned.ends_at.duration_since(planned.starts_at),
                SignedDuration::from_hours(1)
            );
        }
    }

    #[test]
    fn bad_bookings_are_refused_with_their_messages() {
        let long_place = "x".repeat(ADDRESS_TEXT_MAX + 1);
        let cases: Vec<(VisitInput, Vec<(&str, String)>)> = vec![
            (
                input("", "", 60, "12 Oak St"),
                vec![
                    ("date", INVALID_DATE.into()),
                    ("start_time", INVALID_TIME.into()),
                ],
            ),
            (
                input("2026-02-30", "25:00", 60, "12 Oak St"),
                vec![
                    ("date", INVALID_DATE.into()),
                    ("start_time", INVALID_TIME.into()),
                ],
            ),
            (
                input("2026-11-22", "09:59", 60, "12 Oak St"),
                vec![("date", VISIT_IN_PAST.into())],
            ),
            (
                input("2026-11-21", "12:00", 60, "12 Oak St"),
                vec![("date", VISIT_IN_PAST.into())],
            ),
            (
                input("2027-03-14", "02:30", 60, "12 Oak St"),
                vec![("start_time", VISIT_TIME_SKIPPED.into())],
            ),
            (
                input("2026-11-23", "10:00", 14, "12 Oak St"),
                vec![("duration_minutes", VISIT_DURATION_OUT_OF_RANGE.into())],
            ),
            (
                input("2026-11-23", "10:00", 481, "12 Oak St"),
                vec![("duration_minutes", VISIT_DURATION_OUT_OF_RANGE.into())],
            ),
            (
                input("2026-11-23", "10:00", 60, "  \n "),
                vec![("place", VISIT_PLACE_NEEDED.into())],
            ),
            (
                input("2026-11-23", "10:00", 60, &long_place),
                vec![("place", text_too_long(ADDRESS_TEXT_MAX))],
            ),
            (
                VisitInput {
                    notes: "n".repeat(LONG_TEXT_MAX + 1),
                    assessor_id: UserId::from(" "),
                    ..input("2026-11-23", "10:00", 60, "12 Oak St")
                },
                vec![
                    ("assessor_id", VISIT_ASSESSOR_NEEDED.into()),
                    ("notes", text_too_long(LONG_TEXT_MAX)),
                ],
            ),
        ];
        for (given, expected) in cases {
            let mut expected: Vec<(String, String)> = expected
                .into_iter()
                .map(|(f, m)| (f.to_owned(), m))
                .collect();
            expected.sort();
            assert_eq!(
                fields(validate_visit(&given, &clock_at(NOW))),
                expected,
                "{given:?}"
            );
        }
    }

    #[test]
    fn bounds_are_inclusive_and_text_is_trimmed() {
        for minutes in [VISIT_MINUTES.0, VISIT_MINUTES.1] {
            let planned = validate_visit(
                &VisitInput {
                    notes: "  bring the forms \n".to_owned(),
                    ..input(
                        "2026-11-23",
                        "10:00",
                        minutes,
                        &"é".repeat(ADDRESS_TEXT_MAX),
                    )
                },
                &clock_at(NOW),
            )
            .unwrap();
            assert_eq!(planned.duration_minutes, minutes);
            assert_eq!(planned.notes.as_deref(), Some("bring the forms"));
        }
        let planned = validate_visit(
            &input("2026-11-23", "10:00", 60, " 1 Elm St "),
            &clock_at(NOW),
        )
        .unwrap();
        assert_eq!((planned.place.as_str(), planned.notes), ("1 Elm St", None));
    }

    #[test]
    fn business_hours_are_read_in_common_spellings() {
        let t = |h, m| Some(Time::new(h, m, 0, 0).unwrap());
        let cases = [
            ("9:00 AM - 5:00 PM", t(9, 0).zip(t(17, 0))),
            ("9am-5pm", t(9, 0).zip(t(17, 0))),
            ("08:30 – 17:30", t(8, 30).zip(t(17, 30))),
            ("12:00 PM - 8:00 PM", t(12, 0).zip(t(20, 0))),
            ("By appointment", None),
            ("5:00 PM - 9:00 AM", None),
            ("", None),
            ("13 PM - 2 PM", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_business_hours(text), expected, "{text}");
        }
    }

    #[test]
    fn a_visit_outside_business_hours_is_a_warning() {
        let clock = clock_at(NOW);
        let at = |date: &str, time: &str| {
            local_moment(date.parse().unwrap(), time.parse().unwrap(), &clock).unwrap()
        };
        let hours = "9:00 AM - 5:00 PM";
        // (start, end, warned)
        let cases = [
            (at("2026-11-23", "09:00"), at("2026-11-23", "17:00"), false),
            (at("2026-11-23", "08:59"), at("2026-11-23", "10:00"), true),
            (at("2026-11-23", "16:30"), at("2026-11-23", "17:30"), true),
            (at("2026-11-23", "23:30"), at("2026-11-24", "00:30"), true),
            // Summer time: 10:00 EDT is still inside.
            (at("2027-07-01", "10:00"), at("2027-07-01", "11:00"), false),
        ];
        for (start, end, warned) in cases {
            let warning = business_hours_warning(hours, start, end, &clock);
            assert_eq!(warning.is_some(), warned, "{start}");
            if let Some(warning) = warning {
                assert_eq!(
                    warning,
                    "This visit is outside the agency's business hours (9:00 AM - 5:00 PM)."
                );
            }
        }
        assert_eq!(
            business_hours_warning("By appointment", cases[1].0, cases[1].1, &clock),
            None
        );
    }

    #[test]
    fn overlapping_visits_share_a_minute() {
        let t = |text: &str| text.parse::<Timestamp>().unwrap();
        let ten = (t("2026-11-23T15:00:00Z"), t("2026-11-23T16:00:00Z"));
        let cases = [
            ((t("2026-11-23T15:30:00Z"), t("2026-11-23T16:30:00Z")), true),
            ((t("2026-11-23T14:00:00Z"), t("2026-11-23T17:00:00Z")), true),
            (
                (t("2026-11-23T16:00:00Z"), t("2026-11-23T17:00:00Z")),
                false,
            ),
            (
                (t("2026-11-23T14:00:00Z"), t("2026-11-23T15:00:00Z")),
                false,
            ),
        ];
        for (other, expected) in cases {
            assert_eq!(overlaps(ten, other), expected, "{other:?}");
            assert_eq!(overlaps(other, ten), expected, "{other:?}");
        }
        assert_eq!(
            double_booking_warning("Dana Lee", "Ruth Hale", ten.0, ten.1, &clock_at(NOW)),
            "Dana Lee already has a visit with Ruth Hale on Monday, November 23, 2026 \
             from 10:00 AM to 11:00 AM."
        );
    }

    #[test]
    fn a_cancellation_needs_a_bounded_reason() {
        assert_eq!(
            validate_cancel_reason(" Family away ").unwrap(),
            "Family away"
        );
        for (reason, expected) in [
            ("", VISIT_CANCEL_REASON_NEEDED),
            (" \n", VISIT_CANCEL_REASON_NEEDED),
            (
                &*"x".repeat(MAX_CANCEL_REASON_CHARS + 1),
                VISIT_CANCEL_REASON_TOO_LONG,
            ),
        ] {
            match validate_cancel_reason(reason) {
                Err(Error::Validation(errors)) => assert_eq!(errors.message, expected),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn each_move_has_its_own_line() {
        let when = "Monday, November 23, 2026 at 10:00 AM";
        let cases = [
            (
                VisitEvent::Scheduled {
                    when,
                    assessor: "Dana Lee",
                },
                "Assessment visit scheduled for Monday, November 23, 2026 at 10:00 AM with Dana Lee",
            ),
            (
                VisitEvent::Rescheduled {
                    when,
                    assessor: "Dana Lee",
                },
                "Assessment visit moved to Monday, November 23, 2026 at 10:00 AM with Dana Lee",
            ),
            (
                VisitEvent::Cancelled {
                    when,
                    reason: " Family away ",
                },
                "Assessment visit of Monday, November 23, 2026 at 10:00 AM cancelled: Family away",
            ),
            (
                VisitEvent::Done { when },
                "Assessment visit of Monday, November 23, 2026 at 10:00 AM held",
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(event.description(), expected);
        }
    }
}
