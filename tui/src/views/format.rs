//! How stored values read on screen: dates in the agency's zone, the spec's timestamp
//! format, ages and money.

use carepath_core::model::PipelineStatus;
use carepath_core::rules::clock::{parse_date, parse_timestamp};
use jiff::tz::TimeZone;

/// "Jan 5, 2025" from a stored timestamp or a plain date; the raw text if neither.
pub fn date(stored: &str, zone: &TimeZone) -> String {
    if let Some(moment) = parse_timestamp(stored) {
        return moment
            .to_zoned(zone.clone())
            .strftime("%b %-d, %Y")
            .to_string();
    }
    match parse_date(stored) {
        Some(day) => day.strftime("%b %-d, %Y").to_string(),
        None => stored.to_owned(),
    }
}

/// The spec's "MMM d, yyyy h:mm a", e.g. "Jan 5, 2025 3:07 PM".
pub fn date_time(stored: &str, zone: &TimeZone) -> String {
    match parse_timestamp(stored) {
        Some(moment) => moment
            .to_zoned(zone.clone())
            .strftime("%b %-d, %Y %-I:%M %p")
            .to_string(),
        None => stored.to_owned(),
    }
}

/// A pipeline status as the terminal draws it: an overdue client's label after a plain
/// ⚠ (the emoji variation selector the web uses makes terminals disagree about its width).
pub fn status_label(status: &PipelineStatus) -> String {
    if status.overdue {
        format!("⚠ {}", status.label)
    } else {
        status.label.to_string()
    }
}

pub fn age(age: Option<u32>) -> String {
    age.map(|years| years.to_string())
        .unwrap_or_else(|| "—".to_owned())
}

pub fn optional_date(stored: Option<&str>, zone: &TimeZone) -> String {
    stored
        .map(|text| date(text, zone))
        .unwrap_or_else(|| "—".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_the_spec() {
        let utc = TimeZone::UTC;
        assert_eq!(date("2025-01-05T15:07:00.000Z", &utc), "Jan 5, 2025");
        assert_eq!(
            date_time("2025-01-05T15:07:00.000Z", &utc),
            "Jan 5, 2025 3:07 PM"
        );
        assert_eq!(date("2025-01-05", &utc), "Jan 5, 2025");
    }

    #[test]
    fn an_overdue_status_is_drawn_after_a_plain_warning_sign() {
        let mut status = PipelineStatus {
            label: "Intake".into(),
            description: "6 days since intake".into(),
            next_action: "Schedule Assessment".into(),
            next_route: "/assessments/new?intake_id=i1".to_owned(),
            overdue: true,
            days_in_stage: 6,
        };
        assert_eq!(status_label(&status), "⚠ Intake");
        status.overdue = false;
        assert_eq!(status_label(&status), "Intake");
    }
}
