//! How money, dates and moments read on every document, letter and email the family
//! gets: one formatter each, so a figure never appears as "$1974.48" in one place and
//! "$1,974.48" in another, and a time is in the agency's zone, never in ISO form.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::clock::{parse_date, parse_timestamp};

/// Dollars with thousands separators and cents: 1234.5 → "$1,234.50".
pub fn format_money(amount: f64) -> String {
    if !amount.is_finite() {
        return "$0.00".to_owned();
    }
    let cents = super::costs::round2(amount.abs());
    let text = format!("{cents:.2}");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, "00"));
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if amount < 0.0 && cents > 0.0 { "-" } else { "" };
    format!("{sign}${grouped}.{fraction}")
}

/// "November 22, 2026".
pub fn format_long_date(date: Date) -> String {
    date.strftime("%B %-d, %Y").to_string()
}

/// A date as a form holds it ("2026-03-03") in words ("March 3, 2026"); text that is
/// not a date (typed by hand, "ASAP") stays as it was written.
pub fn format_form_date(text: &str) -> String {
    match parse_date(text) {
        Some(date) => format_long_date(date),
        None => text.trim().to_owned(),
    }
}

/// A time as a form holds it ("14:30") on the 12-hour clock ("2:30 PM"); anything else
/// stays as it was written.
pub fn format_form_time(text: &str) -> String {
    let text = text.trim();
    match text.parse::<jiff::civil::Time>() {
        Ok(time) if text.len() <= 8 => time.strftime("%-I:%M %p").to_string(),
        _ => text.to_owned(),
    }
}

/// A moment in the agency's zone: "March 3, 2026 at 2:15 PM EST".
pub fn format_moment(moment: Timestamp, tz: &TimeZone) -> String {
    moment
        .to_zoned(tz.clone())
        .strftime("%B %-d, %Y at %-I:%M %p %Z")
        .to_string()
}

/// A stored moment ("2026-03-03T19:15:00.000Z") in the agency's zone; anything that is
/// not a moment stays as it was, and an empty one stays empty.
pub fn format_stored_moment(text: &str, tz: &TimeZone) -> String {
    match parse_timestamp(text) {
        Some(moment) => format_moment(moment, tz),
        None => text.trim().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money() {
        let cases = [
            (0.0, "$0.00"),
            (32.0, "$32.00"),
            (28.5, "$28.50"),
            (999.999, "$1,000.00"),
            (1234.5, "$1,234.50"),
            (1974.48, "$1,974.48"),
            (123456.78, "$123,456.78"),
            (1234567.0, "$1,234,567.00"),
            (1.005, "$1.01"),
            (-12.5, "-$12.50"),
            (-0.001, "$0.00"),
            (f64::NAN, "$0.00"),
        ];
        for (amount, expected) in cases {
            assert_eq!(format_money(amount), expected, "{amount}");
        }
    }

    #[test]
    fn dates_and_moments() {
        assert_eq!(format_form_date("2026-03-03"), "March 3, 2026");
        assert_eq!(format_form_date(" 2026-11-22 "), "November 22, 2026");
        assert_eq!(format_form_date("next week"), "next week");
        assert_eq!(format_form_date(""), "");
        assert_eq!(format_form_time("14:30"), "2:30 PM");
        assert_eq!(format_form_time("09:05"), "9:05 AM");
        assert_eq!(format_form_time("00:00"), "12:00 AM");
        assert_eq!(format_form_time("after lunch"), "after lunch");
        assert_eq!(format_form_time(""), "");
        let new_york = TimeZone::get("America/New_York").unwrap();
        assert_eq!(
            format_stored_moment("2026-03-03T19:15:00.000Z", &new_york),
            "March 3, 2026 at 2:15 PM EST"
        );
        // Summer time, and a UTC evening that is still the afternoon in New York.
        assert_eq!(
            format_stored_moment("2026-07-04T01:05:00.000Z", &new_york),
            "July 3, 2026 at 9:05 PM EDT"
        );
        assert_eq!(format_stored_moment("", &new_york), "");
        let chicago = TimeZone::get("America/Chicago").unwrap();
        let moment: Timestamp = "2026-01-02T15:00:00Z".parse().unwrap();
        assert_eq!(
            format_moment(moment, &chicago),
            "January 2, 2026 at 9:00 AM CST"
        );
    }
}
