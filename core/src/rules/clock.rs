//! The agency's clock: "now", "today" and day arithmetic in the agency's time zone.
//! Times are stored in UTC; every calendar question is answered here, so a follow-up at
//! 23:30 local time is "today" however far UTC has moved on.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Unit};

#[derive(Debug, Clone)]
pub struct AgencyClock {
    now: Timestamp,
    tz: TimeZone,
}

impl AgencyClock {
    pub fn new(now: Timestamp, tz: TimeZone) -> Self {
        Self { now, tz }
    }

    /// The real clock in the given zone.
    pub fn system(tz: TimeZone) -> Self {
        Self::new(Timestamp::now(), tz)
    }

    /// The zone named by the agency's settings, or the machine's zone when the setting is
    /// empty or unknown.
    pub fn zone_named(name: &str) -> TimeZone {
        let name = name.trim();
        if name.is_empty() {
            return TimeZone::system();
        }
        TimeZone::get(name).unwrap_or_else(|_| TimeZone::system())
    }

    pub fn now(&self) -> Timestamp {
        self.now
    }

    pub fn tz(&self) -> &TimeZone {
        &self.tz
    }

    pub fn today(&self) -> Date {
        self.local_date(self.now)
    }

    /// The calendar date a moment falls on in the agency's zone.
    pub fn local_date(&self, moment: Timestamp) -> Date {
        moment.to_zoned(self.tz.clone()).date()
    }

    /// The first moment of a date in the agency's zone (DST-safe: a day that starts in a
    /// gap starts at the first valid instant).
    pub fn start_of_day(&self, date: Date) -> Timestamp {
        date.to_zoned(self.tz.clone())
            .map(|zoned| zoned.timestamp())
            .unwrap_or_else(|_| {
                // Only dates at the very ends of the supported range fail; clamp.
                if date < Date::constant(1970, 1, 1) {
                    Timestamp::MIN
                } else {
                    Timestamp::MAX
                }
            })
    }

    pub fn start_of_today(&self) -> Timestamp {
        self.start_of_day(self.today())
    }

    /// Whole calendar days from the date of `moment` to today (negative for the future).
    pub fn days_since(&self, moment: Timestamp) -> i64 {
        days_between(self.local_date(moment), self.today())
    }

    /// Whole calendar days from today to `date` (negative for the past).
    pub fn days_until_date(&self, date: Date) -> i64 {
        days_between(self.today(), date)
    }

    /// The spec's "past": before the start of today.
    pub fn is_past_date(&self, date: Date) -> bool {
        date < self.today()
    }

    /// A moment `days` calendar days before the start of today.
    pub fn start_of_days_ago(&self, days: i64) -> Timestamp {
        let date = self
            .today()
            .checked_sub(jiff::Span::new().days(days))
            .unwrap_or(Date::MIN);
        self.start_of_day(date)
    }

    /// The first day of the current month, at its start, in the agency's zone.
    pub fn start_of_month(&self) -> Timestamp {
        self.start_of_day(self.today().first_of_month())
    }
}

/// Whole days from `from` to `to`.
pub fn days_between(from: Date, to: Date) -> i64 {
    from.until((Unit::Day, to))
        .map(|span| i64::from(span.get_days()))
        .unwrap_or(0)
}

/// Age in whole years on `today`; None for a birth date after today.
pub fn age_in_years(date_of_birth: Date, today: Date) -> Option<u32> {
    if date_of_birth > today {
        return None;
    }
    let mut years = i32::from(today.year()) - i32::from(date_of_birth.year());
    if (today.month(), today.day()) < (date_of_birth.month(), date_of_birth.day()) {
        years -= 1;
    }
    u32::try_from(years).ok()
}

/// Parses a `YYYY-MM-DD` form date; anything else is None.
pub fn parse_date(text: &str) -> Option<Date> {
    let text = text.trim();
    if text.len() != 10 {
        return None;
    }
    text.parse::<Date>().ok()
}

/// Parses a stored UTC timestamp.
pub fn parse_timestamp(text: &str) -> Option<Timestamp> {
    stored_timestamp(text.as_bytes()).or_else(|| text.trim().parse::<Timestamp>().ok())
}

/// The stored form, `2026-11-19T03:57:26.125Z`, read directly. A list row parses two to
/// four of them and the general parser costs several times more; anything else (another
/// width, an offset, a leap second, a day the month lacks) is left to it.
fn stored_timestamp(text: &[u8]) -> Option<Timestamp> {
    let layout = [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
    ];
    if text.len() != 24 || text[23] != b'Z' || layout.iter().any(|&(at, c)| text[at] != c) {
        return None;
    }
    let number = |from: usize, to: usize| {
        text[from..to].iter().try_fold(0i64, |n, &digit| {
            digit
                .is_ascii_digit()
                .then(|| n * 10 + i64::from(digit - b'0'))
        })
    };
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let millisecond = number(20, 23)?;
    // Checks the day against the month, leap years included.
    Date::new(
        i16::try_from(year).ok()?,
        i8::try_from(month).ok()?,
        i8::try_from(day).ok()?,
    )
    .ok()?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Days from 1970-01-01 to the civil date (H. Hinnant's days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second;
    Timestamp::new(seconds, i32::try_from(millisecond * 1_000_000).ok()?).ok()
}

/// The one format timestamps are stored in: fixed width, so text order is time order.
pub fn format_timestamp(moment: Timestamp) -> String {
    written_timestamp(moment)
        .unwrap_or_else(|| moment.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}

/// The stored form written directly for years 1000 to 9999: every write stamps a row or
/// two and the audit log, and the general formatter costs several times more.
fn written_timestamp(moment: Timestamp) -> Option<String> {
    let (mut seconds, mut nanoseconds) = (moment.as_second(), moment.subsec_nanosecond());
    if nanoseconds < 0 {
        seconds -= 1;
        nanoseconds += 1_000_000_000;
    }
    let millisecond = i64::from(nanoseconds / 1_000_000);
    let (days, second_of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // The civil date of a day count from 1970-01-01 (H. Hinnant's civil_from_days).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    if !(1000..=9999).contains(&year) {
        return None;
    }
    let mut text = String::with_capacity(24);
    for (value, width, after) in [
        (year, 4, '-'),
        (month, 2, '-'),
        (day, 2, 'T'),
        (second_of_day / 3_600, 2, ':'),
        (second_of_day / 60 % 60, 2, ':'),
        (second_of_day % 60, 2, '.'),
        (millisecond, 3, 'Z'),
    ] {
        for place in (0..width).rev() {
            let digit = value / 10_i64.pow(place) % 10;
            text.push(char::from(b'0' + u8::try_from(digit).ok()?));
        }
        text.push(after);
    }
    Some(text)
}

/// The spec's relative time label: Today, Yesterday, N days ago (under 7 days), N weeks
/// ago (under 30 days), then N months ago.
pub fn relative_label(moment: Timestamp, clock: &AgencyClock) -> String {
    let days = clock.days_since(moment);
    match days {
        i64::MIN..=0 => "Today".to_owned(),
        1 => "Yesterday".to_owned(),
        2..=6 => format!("{days} days ago"),
        7..=29 => {
            let weeks = days / 7;
            if weeks == 1 {
                "1 week ago".to_owned()
            } else {
                format!("{weeks} weeks ago")
            }
        }
        _ => {
            let months = (days / 30).max(1);
            if months == 1 {
                "1 month ago".to_owned()
            } else {
                format!("{months} months ago")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The direct reading of the stored form agrees with the general parser on every
        /// moment from year 1 to the last a timestamp holds (9999-12-30, 22:00), and on
        /// strings shaped like it with any digits.
        #[test]
        fn the_stored_form_reads_as_the_general_parser_reads_it(
            seconds in -62_135_596_800i64..Timestamp::MAX.as_second(),
            millisecond in 0i32..1000,
            digits in proptest::collection::vec(0u8..10, 17),
        ) {
            let moment = Timestamp::new(seconds, millisecond * 1_000_000).expect("in range");
            let text = format_timestamp(moment);
            prop_assert_eq!(stored_timestamp(text.as_bytes()), Some(moment));
            let d: Vec<char> = digits.iter().map(|d| char::from(b'0' + d)).collect();
            let shaped = format!(
                "{}{}{}{}-{}{}-{}{}T{}{}:{}{}:{}{}.{}{}{}Z",
                d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11],
                d[12], d[13], d[14], d[15], d[16]
            );
            if let Some(direct) = stored_timestamp(shaped.as_bytes()) {
                prop_assert_eq!(Some(direct), shaped.parse::<Timestamp>().ok());
            }
            prop_assert_eq!(parse_timestamp(&shaped), shaped.parse::<Timestamp>().ok());
        }

        /// The direct writing of the stored form agrees with the general formatter on
        /// every moment a timestamp can hold, years 1000 to 9999 (and before 1970) most.
        #[test]
        fn the_stored_form_is_written_as_the_general_formatter_writes_it(
            nanoseconds in prop_oneof![
                -30_610_224_000_000_000_000i128..253_402_207_200_000_000_000,
                Timestamp::MIN.as_nanosecond()..=Timestamp::MAX.as_nanosecond(),
            ],
        ) {
            let moment = Timestamp::from_nanosecond(nanoseconds).expect("in range");
            prop_assert_eq!(
                format_timestamp(moment),
                moment.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
            );
        }
    }

    use super::*;

    fn clock_at(now: &str, zone: &str) -> AgencyClock {
        AgencyClock::new(now.parse().unwrap(), TimeZone::get(zone).unwrap())
    }

    #[test]
    fn today_follows_the_agency_zone_not_utc() {
        // 03:30 UTC on the 22nd is still the evening of the 21st in New York.
        let clock = clock_at("2026-11-22T03:30:00Z", "America/New_York");
        assert_eq!(clock.today(), Date::constant(2026, 11, 21));
        let clock = clock_at("2026-11-22T05:00:00Z", "America/New_York");
        assert_eq!(clock.today(), Date::constant(2026, 11, 22));
    }

    #[test]
    fn start_of_day_on_dst_days() {
        let clock = clock_at("2026-03-08T12:00:00Z", "America/New_York");
        // Spring forward: midnight is still EST (UTC-5).
        assert_eq!(
            format_timestamp(clock.start_of_day(Date::constant(2026, 3, 8))),
            "2026-03-08T05:00:00.000Z"
        );
        // The next day starts in EDT (UTC-4): the DST day is 23 hours long.
        assert_eq!(
            format_timestamp(clock.start_of_day(Date::constant(2026, 3, 9))),
            "2026-03-09T04:00:00.000Z"
        );
        // Fall back: Nov 1 2026 is 25 hours long.
        assert_eq!(
            format_timestamp(clock.start_of_day(Date::constant(2026, 11, 2))),
            "2026-11-02T05:00:00.000Z"
        );
    }

    #[test]
    fn days_since_counts_calendar_days_in_the_zone() {
        let clock = clock_at("2026-11-22T05:30:00Z", "America/New_York"); // 00:30 local
        // 23:59 local yesterday is one day ago although only 31 minutes passed.
        assert_eq!(clock.days_since("2026-11-22T04:59:00Z".parse().unwrap()), 1);
        assert_eq!(clock.days_since("2026-11-22T05:00:00Z".parse().unwrap()), 0);
        // Across the fall-back day the count is still whole calendar days.
        assert_eq!(
            clock.days_since("2026-10-31T16:00:00Z".parse().unwrap()),
            22
        );
    }

    #[test]
    fn past_means_before_the_start_of_today() {
        let clock = clock_at("2026-11-22T15:00:00Z", "America/Chicago");
        assert!(clock.is_past_date(Date::constant(2026, 11, 21)));
        assert!(!clock.is_past_date(Date::constant(2026, 11, 22)));
        assert!(!clock.is_past_date(Date::constant(2026, 11, 23)));
    }

    #[test]
    fn age_in_whole_years() {
        let today = Date::constant(2026, 11, 22);
        let cases = [
            ((1950, 11, 22), Some(76)), // birthday today
            ((1950, 11, 23), Some(75)), // birthday tomorrow
            ((1950, 11, 21), Some(76)),
            ((2026, 11, 22), Some(0)),
            ((2026, 11, 23), None), // in the future
            ((1952, 2, 29), Some(74)),
        ];
        for ((y, m, d), expected) in cases {
            assert_eq!(
                age_in_years(Date::constant(y, m, d), today),
                expected,
                "{y}-{m}-{d}"
            );
        }
        // A 29 February birthday counts on 1 March in a common year.
        assert_eq!(
            age_in_years(Date::constant(2000, 2, 29), Date::constant(2027, 2, 28)),
            Some(26)
        );
        assert_eq!(
            age_in_years(Date::constant(2000, 2, 29), Date::constant(2027, 3, 1)),
            Some(27)
        );
    }

    #[test]
    fn relative_labels() {
        let clock = clock_at("2026-11-22T17:00:00Z", "UTC");
        let cases = [
            ("2026-11-22T00:00:00Z", "Today"),
            ("2026-11-21T23:59:59Z", "Yesterday"),
            ("2026-11-20T12:00:00Z", "2 days ago"),
            ("2026-11-16T12:00:00Z", "6 days ago"),
            ("2026-11-15T12:00:00Z", "1 week ago"),
            ("2026-11-08T12:00:00Z", "2 weeks ago"),
            ("2026-10-24T12:00:00Z", "4 weeks ago"), // 29 days
            ("2026-10-23T12:00:00Z", "1 month ago"), // 30 days
            ("2026-08-24T12:00:00Z", "3 months ago"),
            ("2026-11-23T12:00:00Z", "Today"), // the future is never "ago"
        ];
        for (moment, expected) in cases {
            assert_eq!(
                relative_label(moment.parse().unwrap(), &clock),
                expected,
                "{moment}"
            );
        }
    }

    #[test]
    fn stored_timestamps_are_fixed_width() {
        let moment: Timestamp = "2026-01-02T03:04:05Z".parse().unwrap();
        assert_eq!(format_timestamp(moment), "2026-01-02T03:04:05.000Z");
        let moment: Timestamp = "2026-01-02T03:04:05.123456Z".parse().unwrap();
        assert_eq!(format_timestamp(moment), "2026-01-02T03:04:05.123Z");
        // Before 1970, the last nanosecond of a day, and years the direct path leaves to
        // the general formatter.
        for text in [
            "1969-12-31T23:59:59.999999999Z",
            "2024-02-29T00:00:00Z",
            "1000-01-01T00:00:00Z",
            "9999-12-30T12:00:00.5Z",
            "0999-12-31T23:59:59.5Z",
            "0001-01-01T00:00:00Z",
        ] {
            let moment: Timestamp = text.parse().unwrap();
            assert_eq!(
                format_timestamp(moment),
                moment.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
                "{text}"
            );
        }
        assert_eq!(
            format_timestamp("1969-12-31T23:59:59.999999999Z".parse().unwrap()),
            "1969-12-31T23:59:59.999Z"
        );
    }

    #[test]
    fn form_dates() {
        assert_eq!(parse_date("2026-02-28"), Some(Date::constant(2026, 2, 28)));
        assert_eq!(parse_date("2026-02-30"), None);
        assert_eq!(parse_date("02/28/2026"), None);
        assert_eq!(parse_date(""), None);
    }
}
