//! The six holidays of the agency's holiday policy, billed at the holiday rate.

use jiff::civil::{Date, Weekday};

/// jiff's calendar range; a year outside it is clamped rather than failing.
const MIN_YEAR: i16 = -9999;
const MAX_YEAR: i16 = 9999;

fn date(year: i16, month: i8, day: i8) -> Date {
    Date::new(year, month, day).unwrap_or(Date::MIN)
}

/// The `nth` given weekday of a month (negative counts from the end of the month).
fn nth_weekday(year: i16, month: i8, nth: i8, weekday: Weekday) -> Date {
    let first = date(year, month, 1);
    first.nth_weekday_of_month(nth, weekday).unwrap_or(first)
}

/// New Year's Day, Memorial Day (last Monday of May), Independence Day, Labor Day (first
/// Monday of September), Thanksgiving Day (fourth Thursday of November) and Christmas
/// Day, in calendar order. Observed days (a Saturday holiday kept on the Friday) are not
/// part of the policy: the care happens on the day itself.
pub fn holidays(year: i16) -> [(&'static str, Date); 6] {
    let year = year.clamp(MIN_YEAR, MAX_YEAR);
    [
        ("New Year's Day", date(year, 1, 1)),
        ("Memorial Day", nth_weekday(year, 5, -1, Weekday::Monday)),
        ("Independence Day", date(year, 7, 4)),
        ("Labor Day", nth_weekday(year, 9, 1, Weekday::Monday)),
        (
            "Thanksgiving Day",
            nth_weekday(year, 11, 4, Weekday::Thursday),
        ),
        ("Christmas Day", date(year, 12, 25)),
    ]
}

/// The holiday a date falls on, if any.
pub fn holiday_on(day: Date) -> Option<&'static str> {
    holidays(day.year())
        .into_iter()
        .find(|(_, holiday)| *holiday == day)
        .map(|(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(year: i16, memorial: i8, labor: i8, thanksgiving: i8) {
        let expected = [
            ("New Year's Day", Date::constant(year, 1, 1)),
            ("Memorial Day", Date::constant(year, 5, memorial)),
            ("Independence Day", Date::constant(year, 7, 4)),
            ("Labor Day", Date::constant(year, 9, labor)),
            ("Thanksgiving Day", Date::constant(year, 11, thanksgiving)),
            ("Christmas Day", Date::constant(year, 12, 25)),
        ];
        let actual = holidays(year);
        assert_eq!(actual, expected, "{year}");
        assert_eq!(actual[1].1.weekday(), Weekday::Monday);
        assert_eq!(actual[3].1.weekday(), Weekday::Monday);
        assert_eq!(actual[4].1.weekday(), Weekday::Thursday);
    }

    #[test]
    fn holidays_by_year() {
        let cases = [
            // year, Memorial Day (May), Labor Day (Sep), Thanksgiving (Nov)
            (2026, 25, 7, 26),
            (2027, 31, 6, 25), // May 31 is a Monday: it is Memorial Day
            (2028, 29, 4, 23),
            (2021, 31, 6, 25), // May 31 a Monday
            (2022, 30, 5, 24), // May 31 a Tuesday: the day before
            (2025, 26, 1, 27), // Sep 1 a Monday: it is Labor Day
            (2030, 27, 2, 28), // Sep 1 a Sunday: the day after
            (2024, 27, 2, 28), // Nov 1 a Friday: Thanksgiving as late as it gets
            (2029, 28, 3, 22), // Nov 1 a Thursday: as early as it gets
            (2019, 27, 2, 28),
        ];
        for (year, memorial, labor, thanksgiving) in cases {
            check(year, memorial, labor, thanksgiving);
        }
    }

    #[test]
    fn holidays_on_dates() {
        let cases = [
            (Date::constant(2026, 11, 26), Some("Thanksgiving Day")),
            (Date::constant(2026, 11, 19), None),
            (Date::constant(2027, 5, 31), Some("Memorial Day")),
            (Date::constant(2026, 7, 4), Some("Independence Day")),
            (Date::constant(2026, 7, 3), None),
            (Date::constant(2026, 12, 25), Some("Christmas Day")),
            (Date::constant(2027, 1, 1), Some("New Year's Day")),
            (Date::constant(2025, 9, 1), Some("Labor Day")),
        ];
        for (day, expected) in cases {
            assert_eq!(holiday_on(day), expected, "{day}");
        }
    }

    #[test]
    fn years_outside_the_calendar_are_clamped() {
        assert_eq!(holidays(i16::MAX)[0].1, Date::constant(9999, 1, 1));
        assert_eq!(holidays(i16::MIN)[5].1, Date::constant(-9999, 12, 25));
    }
}
