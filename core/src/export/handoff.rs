//! The hand-off export: one row per signed client for the agency's scheduling system,
//! its columns fixed and documented column by column in docs/handoff.md; and the same
//! records as JSON.

use std::io::Write;
use std::str::FromStr;

use super::{CsvEncoder, money, number};
use crate::error::{Error, Result};
use crate::model::{Handoff, HandoffContact};

/// CSV or JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HandoffFormat {
    #[default]
    Csv,
    Json,
}

impl HandoffFormat {
    pub fn name(self) -> &'static str {
        match self {
            HandoffFormat::Csv => "csv",
            HandoffFormat::Json => "json",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            HandoffFormat::Csv => "text/csv; charset=utf-8",
            HandoffFormat::Json => "application/json",
        }
    }
}

impl FromStr for HandoffFormat {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "csv" => Ok(HandoffFormat::Csv),
            "json" => Ok(HandoffFormat::Json),
            _ => Err(Error::Rejected(format!(
                "Unknown format \"{text}\". Choose csv or json."
            ))),
        }
    }
}

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The header row, in order. docs/handoff.md describes each; a test keeps the two equal.
pub const HANDOFF_COLUMNS: [&str; 52] = [
    "Client ID",
    "Contract ID",
    "Signed At",
    "Client Name",
    "Date of Birth",
    "Client Phone",
    "Client Email",
    "Street Address",
    "City",
    "State",
    "ZIP Code",
    "Primary Contact Name",
    "Primary Contact Relationship",
    "Primary Contact Phone",
    "Primary Contact Email",
    "Other Contacts",
    "Start Date",
    "Monday Time",
    "Monday Hours",
    "Tuesday Time",
    "Tuesday Hours",
    "Wednesday Time",
    "Wednesday Hours",
    "Thursday Time",
    "Thursday Hours",
    "Friday Time",
    "Friday Hours",
    "Saturday Time",
    "Saturday Hours",
    "Sunday Time",
    "Sunday Hours",
    "Total Weekly Hours",
    "Hourly Rate",
    "Weekly Cost",
    "Monthly Cost",
    "Services",
    "Care Needs",
    "General Care Needs",
    "Equipment",
    "Fall Risk",
    "Alertness",
    "Memory",
    "Communication",
    "Home Safety",
    "Safety Concerns",
    "Caregiver Gender Preference",
    "Preferred Days",
    "Preferred Times",
    "Schedule Notes",
    "Special Requests",
    "Social Preferences",
    "Hobbies",
];

/// The contact a scheduler calls first: the one marked primary, else the first.
pub fn primary_contact(handoff: &Handoff) -> Option<&HandoffContact> {
    handoff
        .contacts
        .iter()
        .find(|contact| contact.is_primary)
        .or_else(|| handoff.contacts.first())
}

/// "Name (Kind, relationship) phone email", the parts that are known.
fn describe_contact(contact: &HandoffContact) -> String {
    let mut text = contact.full_name.clone();
    let mut roles = vec![contact.kind.as_str()];
    if !contact.relationship.is_empty() {
        roles.push(&contact.relationship);
    }
    text.push_str(&format!(" ({})", roles.join(", ")));
    for part in [&contact.phone, &contact.email] {
        if !part.is_empty() {
            text.push(' ');
            text.push_str(part);
        }
    }
    text
}

/// The header row.
pub fn write_header<W: Write>(encoder: &mut CsvEncoder<W>) -> std::io::Result<()> {
    for column in HANDOFF_COLUMNS {
        encoder.text(column)?;
    }
    encoder.end_row()
}

/// One client's row, cells in the order of [`HANDOFF_COLUMNS`].
pub fn write_row<W: Write>(encoder: &mut CsvEncoder<W>, handoff: &Handoff) -> std::io::Result<()> {
    encoder.text(handoff.client_id.as_str())?;
    encoder.text(handoff.contract_id.as_str())?;
    encoder.text(&handoff.signed_at)?;
    let client = &handoff.client;
    for cell in [
        &client.full_name,
        &client.date_of_birth,
        &client.phone,
        &client.email,
    ] {
        encoder.text(cell)?;
    }
    let address = &handoff.address;
    for cell in [
        &address.street,
        &address.city,
        &address.state,
        &address.zip_code,
    ] {
        encoder.text(cell)?;
    }
    let primary = primary_contact(handoff);
    match primary {
        Some(contact) => {
            for cell in [
                &contact.full_name,
                &contact.relationship,
                &contact.phone,
                &contact.email,
            ] {
                encoder.text(cell)?;
            }
        }
        None => {
            for _ in 0..4 {
                encoder.empty()?;
            }
        }
    }
    let others: Vec<String> = handoff
        .contacts
        .iter()
        .filter(|contact| !primary.is_some_and(|primary| std::ptr::eq(primary, *contact)))
        .map(describe_contact)
        .collect();
    encoder.list(others.iter().map(String::as_str))?;
    encoder.text(handoff.start_date.as_deref().unwrap_or_default())?;
    for name in DAYS {
        match handoff.schedule.iter().find(|day| day.day == name) {
            Some(day) => {
                encoder.text(&day.time)?;
                encoder.raw(&number(day.hours))?;
            }
            None => {
                encoder.empty()?;
                encoder.raw("0")?;
            }
        }
    }
    encoder.raw(&number(handoff.total_weekly_hours))?;
    encoder.raw(&money(handoff.hourly_rate))?;
    encoder.raw(&money(handoff.weekly_cost))?;
    encoder.raw(&money(handoff.monthly_cost))?;
    encoder.list(handoff.services.iter().map(String::as_str))?;
    let needs = &handoff.care_needs;
    let activities: Vec<String> = needs
        .activities
        .iter()
        .map(|activity| {
            if activity.notes.is_empty() {
                format!("{}: {}", activity.activity, activity.level)
            } else {
                format!(
                    "{}: {} ({})",
                    activity.activity, activity.level, activity.notes
                )
            }
        })
        .collect();
    encoder.list(activities.iter().map(String::as_str))?;
    encoder.text(&needs.general_care_needs)?;
    encoder.list(needs.equipment.iter().map(String::as_str))?;
    encoder.text(&needs.fall_risk)?;
    encoder.text(&needs.alertness)?;
    encoder.text(&needs.memory)?;
    encoder.list(needs.communication.iter().map(String::as_str))?;
    encoder.text(&needs.home_safety)?;
    encoder.text(&needs.safety_concerns)?;
    let preferences = &handoff.preferences;
    encoder.text(&preferences.caregiver_gender)?;
    encoder.list(preferences.preferred_days.iter().map(String::as_str))?;
    encoder.list(preferences.preferred_times.iter().map(String::as_str))?;
    encoder.text(&preferences.schedule_notes)?;
    encoder.text(&preferences.special_requests)?;
    encoder.text(&preferences.social_preferences)?;
    encoder.text(&preferences.hobbies)?;
    encoder.end_row()
}

/// The records of one export as they are written: a CSV with its header row, or a JSON
/// array, one record at a time.
pub struct HandoffWriter<W: Write> {
    format: HandoffFormat,
    encoder: CsvEncoder<W>,
    rows: u64,
}

impl<W: Write> HandoffWriter<W> {
    /// Starts the file (the header row, or the array's opening bracket).
    pub fn start(format: HandoffFormat, out: W) -> std::io::Result<Self> {
        let mut encoder = CsvEncoder::new(out);
        match format {
            HandoffFormat::Csv => write_header(&mut encoder)?,
            HandoffFormat::Json => encoder.append_rows(b"[")?,
        }
        Ok(Self {
            format,
            encoder,
            rows: 0,
        })
    }

    pub fn record(&mut self, handoff: &Handoff) -> std::io::Result<()> {
        match self.format {
            HandoffFormat::Csv => write_row(&mut self.encoder, handoff)?,
            HandoffFormat::Json => {
                let separator: &[u8] = if self.rows == 0 { b"\n" } else { b",\n" };
                let json = serde_json::to_vec(handoff).map_err(std::io::Error::other)?;
                self.encoder.append_rows(separator)?;
                self.encoder.append_rows(&json)?;
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Ends the file; answers how many records it holds.
    pub fn finish(mut self) -> std::io::Result<u64> {
        if self.format == HandoffFormat::Json {
            self.encoder.append_rows(b"\n]\n")?;
        }
        self.encoder.flush()?;
        Ok(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_every_day_twice_and_each_column_once() {
        let mut seen = std::collections::BTreeSet::new();
        for column in HANDOFF_COLUMNS {
            assert!(seen.insert(column), "{column} twice");
        }
        for day in DAYS {
            assert!(seen.contains(format!("{day} Time").as_str()));
            assert!(seen.contains(format!("{day} Hours").as_str()));
        }
    }

    #[test]
    fn formats_parse_from_their_names() {
        assert_eq!("CSV".parse::<HandoffFormat>().unwrap(), HandoffFormat::Csv);
        assert_eq!(
            "json".parse::<HandoffFormat>().unwrap(),
            HandoffFormat::Json
        );
        assert!("xml".parse::<HandoffFormat>().is_err());
    }
}
