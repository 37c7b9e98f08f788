//! The packet an assessor takes to a home visit: the visit (when, where with a map link,
//! how long, notes), the client's intake summary and contacts, the agency's contact
//! block, and the assessment worksheet, pre-filled where the intake already knows the
//! answer and with lines to write on where it does not.

use jiff::tz::TimeZone;

use super::documents::{address_lines, assessment_sections, document};
use super::{Block, PrintDocument};
use crate::model::{AssessmentForm, AssessmentVisit, Contact, GeneralSettings, Intake};
use crate::rules::clock::parse_timestamp;
use crate::rules::format::format_form_date;
use crate::rules::visits::{display_date, map_search_url};

/// What a packet is printed from, read together by the store.
pub struct VisitPacket<'a> {
    pub visit: &'a AssessmentVisit,
    pub intake: &'a Intake,
    pub contacts: &'a [Contact],
    /// The assessment form as the visit starts it (`rules::visits::packet_worksheet`).
    pub worksheet: &'a AssessmentForm,
}

/// A line to write an answer on, short enough to stay beside its label.
const ANSWER_LINE: &str = "________________________";
/// A line across the column, for the answers that take sentences.
const WRITING_LINE: &str = "______________________________________________";
/// How many writing lines a free-text section gets.
const WRITING_LINES: usize = 4;

fn field(label: &str, value: impl Into<String>) -> Block {
    Block::Field(label.to_owned(), value.into())
}

/// Values joined by "; ", the empty ones left out.
fn joined<'a>(values: impl IntoIterator<Item = &'a str>) -> String {
    values
        .into_iter()
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// "10:00 AM – 11:00 AM EST": the visit's hours in the agency's zone.
fn visit_hours(visit: &AssessmentVisit, zone: &TimeZone) -> String {
    let local = |text: &str| parse_timestamp(text).map(|moment| moment.to_zoned(zone.clone()));
    match (local(&visit.starts_at), local(&visit.ends_at)) {
        (Some(start), Some(end)) => format!(
            "{} – {}",
            start.strftime("%-I:%M %p"),
            end.strftime("%-I:%M %p %Z")
        ),
        _ => format!("{} – {}", visit.local_start_time, visit.local_end_time),
    }
}

/// "90 minutes", "1 hour", "2 hours 30 minutes".
fn visit_length(minutes: u32) -> String {
    let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (minutes / 60, minutes % 60) {
        (0, rest) => plural(rest, "minute"),
        (hours, 0) => plural(hours, "hour"),
        (hours, rest) => format!("{} {}", plural(hours, "hour"), plural(rest, "minute")),
    }
}

fn visit_blocks(visit: &AssessmentVisit, zone: &TimeZone) -> Vec<Block> {
    let day = crate::rules::clock::parse_date(&visit.local_date)
        .map(display_date)
        .unwrap_or_else(|| visit.local_date.clone());
    let mut blocks = vec![
        Block::Heading("Visit".to_owned()),
        field("Client", &visit.client_name),
        field("Date", day),
        field("Time", visit_hours(visit, zone)),
        field("Expected Length", visit_length(visit.duration_minutes)),
        field("Assessor", &visit.assessor_name),
        field("Status", &visit.status_label),
        field(
            "Notes for the Assessor",
            visit.notes.clone().unwrap_or_default(),
        ),
        Block::Heading("Address".to_owned()),
        field("Place", &visit.place),
        Block::Link("Map".to_owned(), map_search_url(&visit.place)),
    ];
    if let Some(reason) = visit.cancel_reason.as_deref().filter(|r| !r.is_empty()) {
        blocks.insert(7, field("Cancelled Because", reason));
    }
    blocks
}

/// What the intake says of the client and their needs.
fn intake_blocks(intake: &Intake, worksheet: &AssessmentForm) -> Vec<Block> {
    let f = &intake.form;
    let living = joined(
        f.living_situation
            .iter()
            .map(String::as_str)
            .chain([f.living_situation_other.as_str()]),
    );
    let schedule = joined(
        f.schedule_days()
            .iter()
            .filter(|(_, hours)| !hours.trim().is_empty())
            .map(|(day, hours)| format!("{day} {}", hours.trim()))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str),
    );
    vec![
        Block::Heading("Intake Summary".to_owned()),
        field("Client Name", &worksheet.client_name),
        field("Date of Birth", format_form_date(&f.date_of_birth)),
        field("Client Address", &worksheet.address),
        field("Client Phone", &f.client_phone),
        field("Client Email", &f.client_email),
        field("Living Situation", living),
        field("General Care Needs", &f.general_care_needs),
        field(
            "Services Required",
            joined(f.services_required.iter().map(String::as_str)),
        ),
        field("Service Notes", &f.services_notes),
        field("Primary Diagnosis", &f.primary_diagnosis),
        field(
            "Primary Reason Care Is Needed",
            &f.primary_reason_care_needed,
        ),
        field(
            "Most Important to the Caller",
            &f.most_important_to_caller_selection,
        ),
        field("Proposed Schedule (hours)", schedule),
        field(
            "Anticipated Start Date",
            format_form_date(&f.anticipated_start_date),
        ),
        field(
            "Source of Payment",
            joined(f.source_of_payment.iter().map(String::as_str)),
        ),
        field("Additional Comments", &f.additional_comments),
    ]
}

/// The caller from the intake, then every contact recorded for the client.
fn contact_blocks(intake: &Intake, contacts: &[Contact]) -> Vec<Block> {
    let f = &intake.form;
    let mut blocks = vec![Block::Heading("Contacts".to_owned())];
    let caller = joined([
        f.caller_name.as_str(),
        f.relationship_to_client.as_str(),
        f.caller_phone.as_str(),
        f.caller_email.as_str(),
    ]);
    if !caller.is_empty() {
        blocks.push(field("Caller", caller));
    }
    for contact in contacts {
        let label = if contact.is_primary {
            format!("{} (primary)", contact.contact_type_label)
        } else {
            contact.contact_type_label.clone()
        };
        let optional = |value: &Option<String>| value.clone().unwrap_or_default();
        blocks.push(field(
            &label,
            joined([
                contact.full_name.as_str(),
                optional(&contact.relationship).as_str(),
                optional(&contact.phone).as_str(),
                optional(&contact.email).as_str(),
                optional(&contact.address).as_str(),
            ]),
        ));
        if let Some(notes) = contact.notes.as_deref().filter(|n| !n.trim().is_empty()) {
            blocks.push(field("Notes", notes));
        }
    }
    if blocks.len() == 1 {
        blocks.push(Block::Text("No contacts recorded.".to_owned()));
    }
    blocks
}

/// Whom the assessor calls: the agency's name, address, phone and email from Settings.
fn agency_blocks(agency: &GeneralSettings) -> Vec<Block> {
    vec![
        Block::Heading("Agency Contact".to_owned()),
        field("Agency", agency.company_name.trim()),
        field("Address", address_lines(agency).join("\n")),
        field("Phone", agency.contact_phone.trim()),
        field("Email", agency.contact_email.trim()),
    ]
}

/// The assessment form's sections with a line to write on wherever the form is empty.
fn worksheet_blocks(worksheet: &AssessmentForm) -> Vec<Block> {
    let mut blocks = vec![
        Block::Title("Assessment Worksheet".to_owned()),
        Block::Text(
            "Filled in from the intake where it already had the answer; write the rest \
             during the visit."
                .to_owned(),
        ),
    ];
    for (heading, section) in assessment_sections(worksheet) {
        blocks.push(Block::Heading(heading.to_owned()));
        blocks.extend(section.into_iter().map(|block| match block {
            Block::Field(label, value) if value.trim().is_empty() => {
                Block::Field(label, ANSWER_LINE.to_owned())
            }
            Block::Text(text) if text.trim().is_empty() => {
                Block::Text([WRITING_LINE; WRITING_LINES].join("\n"))
            }
            block => block,
        }));
    }
    blocks
}

/// The whole packet: the visit, the agency's contact block, the intake summary and the
/// contacts on the first pages; the worksheet from a page of its own.
pub fn packet_document(
    packet: &VisitPacket<'_>,
    agency: &GeneralSettings,
    zone: &TimeZone,
) -> PrintDocument {
    let mut blocks = vec![Block::Title(format!(
        "Assessment Visit Packet: {}",
        packet.visit.client_name
    ))];
    blocks.extend(visit_blocks(packet.visit, zone));
    blocks.extend(agency_blocks(agency));
    blocks.extend(intake_blocks(packet.intake, packet.worksheet));
    blocks.extend(contact_blocks(packet.intake, packet.contacts));
    blocks.push(Block::PageBreak);
    blocks.extend(worksheet_blocks(packet.worksheet));
    document(
        format!("Visit Packet - {}", packet.visit.client_name),
        agency,
        blocks,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_read_as_people_say_them() {
        for (minutes, words) in [
            (15, "15 minutes"),
            (1, "1 minute"),
            (60, "1 hour"),
            (90, "1 hour 30 minutes"),
            (120, "2 hours"),
            (481, "8 hours 1 minute"),
        ] {
            assert_eq!(visit_length(minutes), words);
        }
    }

    #[test]
    fn the_worksheet_has_every_section_of_the_assessment_form_and_lines_where_empty() {
        let form = AssessmentForm {
            client_name: "Rose Lee".into(),
            ..AssessmentForm::default()
        };
        let blocks = worksheet_blocks(&form);
        let headings: Vec<&str> = blocks
            .iter()
            .filter_map(|block| match block {
                Block::Heading(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        let sections: Vec<&str> = assessment_sections(&form)
            .into_iter()
            .map(|(heading, _)| heading)
            .collect();
        assert_eq!(headings, sections);
        assert!(blocks.contains(&field("Client Name", "Rose Lee")));
        assert!(blocks.contains(&field("Home Type", ANSWER_LINE)));
        assert!(
            !blocks
                .iter()
                .any(|block| matches!(block, Block::Field(_, value) if value.is_empty()))
        );
    }
}
