//! Visit reminders: when the family's reminder of an assessment visit (the day before)
//! and each assessor's summary of their day fall due in the agency's zone, how late one
//! may still go out after the server was down, and the texts they carry.

use jiff::civil::{Date, Time};
use jiff::{SignedDuration, Timestamp};

use super::clock::AgencyClock;
use super::validation::parse_time;
use super::visits::{display_date, display_time, display_when};

/// A reminder whose moment passed less than this long ago is still sent (the server
/// was down or restarting); an older one is recorded as skipped, since a text arriving
/// in the middle of the night or after the visit helps nobody.
pub const CATCH_UP: SignedDuration = SignedDuration::from_hours(6);

/// How many times a reminder is tried before it is left failed.
pub const MAX_ATTEMPTS: i64 = 3;

/// The family's reminder is due the day before the visit, so only visits starting within
/// this long can have one due now (the day before at 23:59 is under two days ahead).
pub const FAMILY_LOOKAHEAD: SignedDuration = SignedDuration::from_hours(72);

/// The defaults of Settings → Notifications, used when a stored time does not parse.
pub const DEFAULT_VISIT_REMINDER_TIME: Time = Time::constant(17, 0, 0, 0);
pub const DEFAULT_ASSESSOR_SUMMARY_TIME: Time = Time::constant(7, 0, 0, 0);

/// Why a family reminder was recorded without being sent.
pub const SKIPPED_TOO_LATE: &str = "Its moment passed while reminders were not running";
pub const SKIPPED_BOOKED_LATE: &str = "The visit was booked or moved after its reminder was due";
pub const SKIPPED_NO_CONTACT: &str = "The family contact has no phone number or email address";
pub const SKIPPED_NO_ASSESSOR_EMAIL: &str = "The assessor has no email address";

/// Where a reminder stands at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dueness {
    /// Its moment has not come.
    NotYet,
    /// Send it now.
    Due,
    /// Its moment passed too long ago, or what it announces has begun: skip it.
    Missed,
}

/// A settings time ("17:00"), or the default when it is not one.
pub fn setting_time(text: &str, default: Time) -> Time {
    parse_time(text).unwrap_or(default)
}

/// The moment a local day and time of day name in the agency's zone. A time the clocks
/// skip that day (spring forward) is taken as the moment just after the gap, and a time
/// that happens twice (fall back) as the first: a reminder is never lost to a clock
/// change, and never sent twice for one.
pub fn local_moment(day: Date, time: Time, clock: &AgencyClock) -> Timestamp {
    let ambiguous = clock.tz().to_ambiguous_timestamp(day.to_datetime(time));
    ambiguous
        .compatible()
        .unwrap_or_else(|_| clock.start_of_day(day))
}

/// When the family's reminder of a visit starting at `visit_start` is due: the day
/// before the visit's local day, at the reminder time.
pub fn family_reminder_due(visit_start: Timestamp, at: Time, clock: &AgencyClock) -> Timestamp {
    let day = clock.local_date(visit_start);
    let before = day.yesterday().unwrap_or(day);
    local_moment(before, at, clock)
}

/// When an assessor's summary of `day` is due: that day at the summary time.
pub fn summary_due(day: Date, at: Time, clock: &AgencyClock) -> Timestamp {
    local_moment(day, at, clock)
}

/// Whether a reminder due at `due` is to be sent at `now`: from its moment for
/// [`CATCH_UP`], and never once `until` (the visit's start, the summary's day's end) has
/// come.
pub fn dueness(due: Timestamp, until: Timestamp, now: Timestamp) -> Dueness {
    if now < due {
        Dueness::NotYet
    } else if now >= until || now.duration_since(due) >= CATCH_UP {
        Dueness::Missed
    } else {
        Dueness::Due
    }
}

/// What the family's reminder names.
#[derive(Debug, Clone, Copy)]
pub struct FamilyReminder<'a> {
    pub agency: &'a str,
    pub agency_phone: &'a str,
    pub contact_name: &'a str,
    pub client: &'a str,
    pub visit_start: Timestamp,
    pub place: &'a str,
    pub assessor: &'a str,
}

impl FamilyReminder<'_> {
    fn questions(&self) -> String {
        let phone = self.agency_phone.trim();
        if phone.is_empty() {
            "To change it, please contact us.".to_owned()
        } else {
            format!("To change it, please call {phone}.")
        }
    }

    /// The text message.
    pub fn sms(&self, clock: &AgencyClock) -> String {
        format!(
            "Reminder from {}: the home assessment visit for {} is on {}, at {}. {}",
            self.agency.trim(),
            self.client.trim(),
            display_when(self.visit_start, clock),
            self.place.trim(),
            self.questions()
        )
    }

    /// The email's subject, when the family has no phone number.
    pub fn email_subject(&self, clock: &AgencyClock) -> String {
        format!(
            "Reminder: home assessment visit on {}",
            display_when(self.visit_start, clock)
        )
    }

    /// The email's text.
    pub fn email_body(&self, clock: &AgencyClock) -> String {
        let greeting = match self.contact_name.trim() {
            "" => "Hello,".to_owned(),
            name => format!("Dear {name},"),
        };
        format!(
            "{greeting}\n\nThis is a reminder that {} will visit for {}'s home assessment on {}.\n\nWhere: {}\nAssessor: {}\n\n{}\n",
            self.agency.trim(),
            self.client.trim(),
            display_when(self.visit_start, clock),
            self.place.trim(),
            self.assessor.trim(),
            self.questions()
        )
    }
}

/// One line of an assessor's summary.
#[derive(Debug, Clone)]
pub struct SummaryVisit {
    pub starts_at: Timestamp,
    pub ends_at: Timestamp,
    pub client: String,
    pub place: String,
    pub notes: Option<String>,
}

/// The subject of an assessor's summary of `day`.
pub fn summary_subject(day: Date, count: usize) -> String {
    let visits = if count == 1 { "visit" } else { "visits" };
    format!(
        "Your assessment visits on {}: {count} {visits}",
        display_date(day)
    )
}

/// The text of an assessor's summary: each scheduled visit of the day, soonest first.
pub fn summary_body(
    assessor: &str,
    day: Date,
    visits: &[SummaryVisit],
    clock: &AgencyClock,
) -> String {
    let mut body = format!(
        "Hello {},\n\nYour assessment visits on {}:\n",
        assessor.trim(),
        display_date(day)
    );
    for visit in visits {
        body.push_str(&format!(
            "\n{} - {}  {}\n  Where: {}\n",
            display_time(visit.starts_at, clock),
            display_time(visit.ends_at, clock),
            visit.client.trim(),
            visit.place.trim()
        ));
        if let Some(notes) = visit
            .notes
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            body.push_str(&format!("  Notes: {notes}\n"));
        }
    }
    body
}

/// The timeline line written on each client of an assessor's summary when it is sent.
pub fn summary_event(assessor: &str, day: Date) -> String {
    format!(
        "The visit was in {}'s summary of the day's visits, emailed for {}",
        assessor.trim(),
        display_date(day)
    )
}

/// The timeline line of a family reminder recorded without being sent.
pub fn skipped_event(visit_start: Timestamp, reason: &str, clock: &AgencyClock) -> String {
    format!(
        "No reminder of the assessment visit on {} was sent: {}",
        display_when(visit_start, clock),
        reason.to_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chicago(now: &str) -> AgencyClock {
        AgencyClock::new(
            now.parse().unwrap(),
            AgencyClock::zone_named("America/Chicago"),
        )
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn the_family_is_reminded_the_evening_before_in_the_agencys_zone() {
        let clock = chicago("2026-11-20T12:00:00Z");
        // 10:00 Chicago on the 27th (CST, UTC-6): due 17:00 on the 26th = 23:00 UTC.
        let due = family_reminder_due(
            at("2026-11-27T16:00:00Z"),
            Time::constant(17, 0, 0, 0),
            &clock,
        );
        assert_eq!(due, at("2026-11-26T23:00:00Z"));
        // A visit at 00:30 local is reminded the evening before too, not the same night.
        let due = family_reminder_due(
            at("2026-11-27T06:30:00Z"),
            Time::constant(17, 0, 0, 0),
            &clock,
        );
        assert_eq!(due, at("2026-11-26T23:00:00Z"));
    }

    #[test]
    fn a_clock_change_moves_neither_reminder_off_its_local_time() {
        let clock = chicago("2026-03-01T12:00:00Z");
        // Clocks go forward on Sunday 8 March 2026 at 2:00: 17:00 that day is CDT.
        let due = family_reminder_due(
            at("2026-03-09T15:00:00Z"),
            Time::constant(17, 0, 0, 0),
            &clock,
        );
        assert_eq!(due, at("2026-03-08T22:00:00Z"));
        // A summary time inside the gap goes out just after it.
        let day = Date::constant(2026, 3, 8);
        assert_eq!(
            summary_due(day, Time::constant(2, 30, 0, 0), &clock),
            at("2026-03-08T08:30:00Z")
        );
        // Fall back (1 November 2026): 1:30 happens twice; the first one counts.
        let day = Date::constant(2026, 11, 1);
        assert_eq!(
            summary_due(day, Time::constant(1, 30, 0, 0), &clock),
            at("2026-11-01T06:30:00Z")
        );
    }

    #[test]
    fn dueness_has_a_catch_up_window_and_ends_with_the_visit() {
        let due = at("2026-11-26T23:00:00Z");
        let visit = at("2026-11-27T16:00:00Z");
        assert_eq!(
            dueness(due, visit, at("2026-11-26T22:59:59Z")),
            Dueness::NotYet
        );
        assert_eq!(dueness(due, visit, due), Dueness::Due);
        assert_eq!(
            dueness(due, visit, at("2026-11-27T04:59:59Z")),
            Dueness::Due
        );
        assert_eq!(
            dueness(due, visit, at("2026-11-27T05:00:00Z")),
            Dueness::Missed
        );
        // A visit booked late the evening before, starting in minutes.
        assert_eq!(
            dueness(due, at("2026-11-27T00:00:00Z"), at("2026-11-27T00:00:00Z")),
            Dueness::Missed
        );
    }

    #[test]
    fn texts_name_the_visit_and_how_to_change_it() {
        let clock = chicago("2026-11-20T12:00:00Z");
        let reminder = FamilyReminder {
            agency: "Carepath Home Care",
            agency_phone: "(217) 555-0100",
            contact_name: "Dana Doe",
            client: "Mary Doe",
            visit_start: at("2026-11-27T16:00:00Z"),
            place: "12 Oak St, Springfield",
            assessor: "Sam Staff",
        };
        assert_eq!(
            reminder.sms(&clock),
            "Reminder from Carepath Home Care: the home assessment visit for Mary Doe is on \
             Friday, November 27, 2026 at 10:00 AM, at 12 Oak St, Springfield. To change it, \
             please call (217) 555-0100."
        );
        assert!(reminder.email_body(&clock).starts_with("Dear Dana Doe,"));
        assert_eq!(
            summary_subject(Date::constant(2026, 11, 27), 2),
            "Your assessment visits on Friday, November 27, 2026: 2 visits"
        );
        assert_eq!(
            setting_time("nonsense", DEFAULT_VISIT_REMINDER_TIME),
            DEFAULT_VISIT_REMINDER_TIME
        );
        assert_eq!(
            setting_time("07:30", DEFAULT_ASSESSOR_SUMMARY_TIME),
            Time::constant(7, 30, 0, 0)
        );
    }
}
