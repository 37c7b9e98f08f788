//! What each printed document says, as blocks: the intake form in five pages, the
//! assessment, the care plan letter and the contract.

use super::{Block, PrintDocument};
use crate::model::options::{
    LIVING_SITUATION, PREFERRED_METHOD, SERVICES_REQUIRED, SOURCE_OF_PAYMENT,
};
use crate::model::{
    Assessment, AssessmentForm, CarePlan, CarePlanService, Contract, GeneralSettings, Intake,
    PipelineStatus,
};
use crate::rules::contract_text::AGREEMENT_HEADING;
use crate::rules::format::{format_form_date, format_form_time, format_long_date, format_money};

fn field(label: &str, value: impl Into<String>) -> Block {
    Block::Field(label.to_owned(), value.into())
}

/// The pipeline status as the form prints it: an overdue client's label after a warning
/// sign, as staff see it on screen.
fn pipeline_status(status: &PipelineStatus) -> String {
    if status.overdue {
        format!("⚠️ {}", status.label)
    } else {
        status.label.to_string()
    }
}

fn checks(label: &str, options: &[&str], chosen: &[String]) -> Block {
    let mut items: Vec<(String, bool)> = options
        .iter()
        .map(|o| ((*o).to_owned(), chosen.iter().any(|c| c == o)))
        .collect();
    // Values typed outside the list still print, checked.
    for value in chosen {
        if !options.contains(&value.as_str()) {
            items.push((value.clone(), true));
        }
    }
    Block::Checks(label.to_owned(), items)
}

/// A form's date field, in words.
fn date(label: &str, value: &str) -> Block {
    field(label, format_form_date(value))
}

/// A form's time field, on the 12-hour clock.
fn time(label: &str, value: &str) -> Block {
    field(label, format_form_time(value))
}

fn list(values: &[String]) -> String {
    values.join("; ")
}

fn hours(value: Option<f64>) -> String {
    value.map(crate::export::number).unwrap_or_default()
}

/// The agency's address as lines (the setting may hold several).
pub(super) fn address_lines(agency: &GeneralSettings) -> Vec<String> {
    agency
        .postal_address
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// "Phone (555) 010-2000 · Fax … · office@…", the parts the agency filled in.
fn contact_line(agency: &GeneralSettings) -> Option<String> {
    let mut contact = Vec::new();
    if !agency.contact_phone.trim().is_empty() {
        contact.push(format!("Phone {}", agency.contact_phone.trim()));
    }
    if !agency.fax.trim().is_empty() {
        contact.push(format!("Fax {}", agency.fax.trim()));
    }
    if !agency.contact_email.trim().is_empty() {
        contact.push(agency.contact_email.trim().to_owned());
    }
    (!contact.is_empty()).then(|| contact.join(" · "))
}

/// The letterhead that opens every document: the agency's name, address and phone (the
/// logo is the document's own, added when it is printed).
pub(super) fn letterhead(agency: &GeneralSettings) -> Block {
    let mut lines = address_lines(agency);
    lines.extend(contact_line(agency));
    Block::Letterhead(agency.company_name.trim().to_owned(), lines)
}

/// The foot of every page: the agency's name and address, then its phone and fax.
pub(super) fn footer(agency: &GeneralSettings) -> Vec<String> {
    let mut first = vec![agency.company_name.trim().to_owned()];
    first.extend(address_lines(agency));
    let mut lines = vec![
        first
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" · "),
    ];
    lines.extend(contact_line(agency));
    lines.retain(|line| !line.is_empty());
    lines
}

/// A document of the agency's with its letterhead first.
pub(super) fn document(title: String, agency: &GeneralSettings, body: Vec<Block>) -> PrintDocument {
    let mut blocks = vec![letterhead(agency)];
    blocks.extend(body);
    PrintDocument {
        title,
        header: agency.company_name.clone(),
        footer: footer(agency),
        logo: None,
        blocks,
    }
}

/// The intake form: page 1 caller and client; 2 living situation, needs, services;
/// 3 medical, schedule, payment; 4 assessment and the not-scheduled follow-up; 5 office
/// use (with the additional comments and follow-up reminder).
pub fn intake_document(intake: &Intake, agency: &GeneralSettings) -> PrintDocument {
    let f = &intake.form;
    let blocks = vec![
        Block::Title("Client Intake Form".to_owned()),
        date("Date", &f.date),
        field("Staff Member Taking Call", &f.staff_member_taking_call),
        Block::Heading("Caller Information".to_owned()),
        field("Caller Name", &f.caller_name),
        field("Relationship to Client", &f.relationship_to_client),
        field("Phone", &f.caller_phone),
        field("Email", &f.caller_email),
        field("How Did You Hear About Us", &f.how_did_you_hear),
        Block::Heading("Client Information".to_owned()),
        field(
            "Client Is the Caller",
            if f.client_is_caller { "Yes" } else { "No" },
        ),
        field("Client Full Name", &f.client_full_name),
        date("Date of Birth", &f.date_of_birth),
        field("Address", &f.client_address),
        field("City", &f.city),
        field("State", &f.state),
        field("Zip Code", &f.zip_code),
        field("Client Phone", &f.client_phone),
        field("Client Email", &f.client_email),
        Block::PageBreak,
        Block::Heading("Living Situation".to_owned()),
        checks("Living Situation", LIVING_SITUATION, &f.living_situation),
        field("Other", &f.living_situation_other),
        Block::Heading("Client Needs".to_owned()),
        field("General Care Needs", &f.general_care_needs),
        Block::Heading("Services Required".to_owned()),
        checks("Services", SERVICES_REQUIRED, &f.services_required),
        field("Notes", &f.services_notes),
        Block::PageBreak,
        Block::Heading("Medical Information".to_owned()),
        field("Primary Diagnosis", &f.primary_diagnosis),
        field(
            "Primary Reason Care Is Needed",
            &f.primary_reason_care_needed,
        ),
        field(
            "Most Important to the Caller",
            &f.most_important_to_caller_selection,
        ),
        Block::Heading("Proposed Schedule".to_owned()),
        Block::Table(
            vec![1, 1, 1, 1, 1, 1, 1],
            vec![
                ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                    .map(str::to_owned)
                    .to_vec(),
                f.schedule_days()
                    .iter()
                    .map(|(_, hours)| (*hours).to_owned())
                    .collect(),
            ],
        ),
        date("Anticipated Start Date", &f.anticipated_start_date),
        field("Total Hours per Week", hours(f.total_hours_per_week)),
        Block::Heading("Source of Payment".to_owned()),
        checks("Payment", SOURCE_OF_PAYMENT, &f.source_of_payment),
        field("Other / Comments", &f.payment_other_comments),
        field("Insurance Company", &f.insurance_company),
        field("Policy Number", &f.policy_number),
        Block::PageBreak,
        Block::Heading("Assessment".to_owned()),
        date("Consultation Date", &f.consultation_date),
        time("Consultation Time", &f.consultation_time),
        field("Location", &f.consultation_location),
        field("Who Will You Meet With", &f.who_will_you_meet_with),
        field(
            "Staff Member Assigned for Visit",
            &f.staff_member_assigned_for_visit,
        ),
        Block::Heading("If Assessment Was Not Scheduled".to_owned()),
        field("Reason Not Scheduled", &f.reason_not_scheduled),
        date("Follow-up Date", &f.follow_up_date),
        time("Follow-up Time", &f.follow_up_time),
        checks("Preferred Method", PREFERRED_METHOD, &f.preferred_method),
        Block::PageBreak,
        Block::Heading("Additional Comments".to_owned()),
        Block::Text(if f.additional_comments.is_empty() {
            "—".to_owned()
        } else {
            f.additional_comments.clone()
        }),
        Block::Heading("Follow-up Reminder".to_owned()),
        date("Next Follow-up Date", &f.next_follow_up_date),
        time("Next Follow-up Time", &f.next_follow_up_time),
        field("Follow-up Notes", &f.follow_up_notes),
        Block::Heading("For Office Use Only".to_owned()),
        field(
            "Client ID",
            if f.client_id.is_empty() {
                intake.id.as_str()
            } else {
                &f.client_id
            },
        ),
        field("Assigned Coordinator", &f.assigned_coordinator),
        field("Status", pipeline_status(&intake.pipeline)),
        field("Referral Source Type", &f.referral_source_type),
        field("Priority Level", &f.priority_level),
        field("Completed By (Staff Name)", &f.completed_by_staff_name),
        date("Completed Date", &f.completed_date),
    ];
    document(
        format!("Intake - {}", intake.client_full_name),
        agency,
        blocks,
    )
}

/// The assessment form's sections in the order printed, each heading with what is under
/// it, values as the form holds them (an empty one stays empty). The printed assessment
/// and the visit packet's worksheet are both drawn from this one list.
pub(super) fn assessment_sections(f: &AssessmentForm) -> Vec<(&'static str, Vec<Block>)> {
    let activity_rows = |entries: &[(&'static str, &crate::model::Activity)]| {
        let mut rows = vec![vec![
            "Activity".to_owned(),
            "Level".to_owned(),
            "Notes".to_owned(),
        ]];
        rows.extend(
            entries
                .iter()
                .map(|(name, a)| vec![(*name).to_owned(), a.level.clone(), a.notes.clone()]),
        );
        rows
    };
    vec![
        (
            "Assessment Information",
            vec![
                date("Assessment Date", &f.assessment_date),
                time("Time In", &f.time_in),
                time("Time Out", &f.time_out),
                field("Coordinator", &f.coordinator_name),
                field("Location", &f.assessment_location),
            ],
        ),
        (
            "Client Information",
            vec![
                field("Client Name", &f.client_name),
                date("Date of Birth", &f.date_of_birth),
                field("Phone", &f.phone),
                field("Address", &f.address),
            ],
        ),
        (
            "Living Situation & Environment",
            vec![
                field(
                    "Living Arrangement",
                    format!("{} {}", f.living_arrangement, f.living_arrangement_other)
                        .trim()
                        .to_owned(),
                ),
                field("Home Type", &f.home_type),
                field("Number of Floors", &f.number_of_floors),
                field("Bedroom Location", &f.bedroom_location),
                field("Stairs Present", &f.stairs_present),
                field("Railings Present", &f.railings_present),
                field("Grab Bars Installed", list(&f.grab_bars_installed)),
                field("Home Safety Observations", &f.home_safety_observations),
            ],
        ),
        (
            "Activities of Daily Living (ADLs)",
            vec![Block::Table(
                vec![2, 2, 4],
                activity_rows(&f.adls.entries()),
            )],
        ),
        (
            "Instrumental Activities (IADLs)",
            vec![Block::Table(
                vec![2, 2, 4],
                activity_rows(&f.iadls.entries()),
            )],
        ),
        (
            "Equipment",
            vec![
                field("Equipment Used", list(&f.equipment_used)),
                field("Other", &f.equipment_other),
                field("Equipment Needed", &f.equipment_needed),
            ],
        ),
        (
            "Cognitive",
            vec![
                field("Alertness", &f.alertness),
                field("Memory", &f.memory_status),
                field("Communication", list(&f.communication_ability)),
                field("Notes", &f.cognitive_notes),
            ],
        ),
        (
            "Social",
            vec![
                field("General Mood", &f.general_mood),
                field("Social Preferences", &f.social_preferences),
                field("Hobbies", &f.hobbies),
            ],
        ),
        (
            "Family Support",
            vec![
                field("Primary Contact", &f.primary_contact),
                field("Relationship", &f.contact_relationship),
                field("Phone", &f.contact_phone),
                field("Family Involvement", &f.family_involvement),
                field("Support Services", list(&f.support_services)),
            ],
        ),
        (
            "Safety",
            vec![
                field("Fall Risk", &f.fall_risk),
                field("Fall History", &f.fall_history),
                field("Fall Circumstances", &f.fall_circumstances),
                field("Safety Concerns", &f.safety_concerns),
            ],
        ),
        (
            "Goals",
            vec![
                field("Client Goals", &f.client_goals),
                field(
                    "Caregiver Gender Preference",
                    &f.caregiver_gender_preference,
                ),
                field("Special Requests", &f.special_requests),
            ],
        ),
        (
            "Recommended Services & Schedule",
            vec![
                field("Recommended Services", list(&f.recommended_services)),
                field("Recommended Hours per Week", hours(f.recommended_hours)),
                date("Recommended Start Date", &f.recommended_start_date),
                field("Preferred Days", list(&f.preferred_days)),
                field("Preferred Times", list(&f.preferred_times)),
                field("Schedule Notes", &f.schedule_notes),
            ],
        ),
        ("Notes", vec![Block::Text(f.additional_notes.clone())]),
        (
            "Completed By",
            vec![
                field("Assessor", &f.assessor_name),
                date("Date", &f.assessor_date),
                Block::Signature("Assessor signature".to_owned()),
                field(
                    "Client / Representative",
                    format!("{} {}", f.client_ack_name, f.client_ack_relationship)
                        .trim()
                        .to_owned(),
                ),
                Block::Signature("Client or representative signature".to_owned()),
            ],
        ),
    ]
}

/// The non-medical assessment with the agency's details and signature lines.
pub fn assessment_document(assessment: &Assessment, agency: &GeneralSettings) -> PrintDocument {
    let mut blocks = vec![Block::Title("Non-Medical Assessment Form".to_owned())];
    for (heading, section) in assessment_sections(&assessment.form) {
        blocks.push(Block::Heading(heading.to_owned()));
        blocks.extend(section.into_iter().map(|block| match block {
            Block::Text(text) if text.is_empty() => Block::Text("—".to_owned()),
            block => block,
        }));
    }
    document(
        format!("Assessment - {}", assessment.client_name),
        agency,
        blocks,
    )
}

/// The care plan proposal letter sent to the family.
pub fn care_plan_document(plan: &CarePlan, agency: &GeneralSettings) -> PrintDocument {
    let family = if plan.family_contact_name.trim().is_empty() {
        "Family".to_owned()
    } else {
        plan.family_contact_name.trim().to_owned()
    };
    let mut blocks = vec![
        Block::Title(format!("Home Care Proposal for {}", plan.client_name)),
        Block::Text(format!("Dear {family},")),
        Block::Text(format!(
            "Thank you for letting us meet {}. Here is the care we propose, based on our assessment.",
            plan.client_name
        )),
        Block::Heading("Services We Will Provide".to_owned()),
    ];
    let services: Vec<(String, String)> = CarePlanService::ALL
        .into_iter()
        .filter(|service| plan.services.contains(service))
        .map(|service| (service.label().to_owned(), service.description().to_owned()))
        .collect();
    if !services.is_empty() {
        blocks.push(Block::Bullets(services));
    }
    if !plan.additional_notes.trim().is_empty() {
        blocks.push(field("Notes", &plan.additional_notes));
    }
    blocks.push(Block::Heading("Care Schedule".to_owned()));
    let mut rows = vec![vec![
        "Day".to_owned(),
        "Time".to_owned(),
        "Hours".to_owned(),
    ]];
    for (day, schedule) in plan.schedule.days() {
        if schedule.hours > 0.0 || !schedule.time.trim().is_empty() {
            rows.push(vec![
                day.to_owned(),
                schedule.time.clone(),
                crate::export::number(schedule.hours),
            ]);
        }
    }
    rows.push(vec![
        "Total".to_owned(),
        String::new(),
        crate::export::number(plan.total_weekly_hours),
    ]);
    blocks.push(Block::Table(vec![2, 3, 1], rows));
    blocks.push(Block::Space);
    blocks.push(date(
        "Proposed Start Date",
        plan.proposed_start_date.as_deref().unwrap_or_default(),
    ));
    blocks.push(Block::Heading("Cost of Care".to_owned()));
    blocks.push(Block::Boxed(vec![
        format!("Hourly rate: {}", format_money(plan.hourly_rate)),
        format!(
            "Weekly hours: {}",
            crate::export::number(plan.total_weekly_hours)
        ),
        format!("Weekly cost: {}", format_money(plan.weekly_cost)),
        format!(
            "Approximate monthly cost: {}",
            format_money(plan.monthly_cost)
        ),
    ]));
    blocks.push(Block::Heading("Just Reply YES to This Email".to_owned()));
    blocks.push(Block::Text(format!(
        "To get started, reply YES or call us at {}.",
        if agency.contact_phone.trim().is_empty() {
            "our office"
        } else {
            agency.contact_phone.trim()
        }
    )));
    blocks.push(Block::Space);
    let mut closing = vec!["Warm regards,".to_owned()];
    if !plan.care_coordinator_name.trim().is_empty() {
        closing.push(plan.care_coordinator_name.trim().to_owned());
    }
    closing.push(agency.company_name.trim().to_owned());
    blocks.push(Block::Text(closing.join("\n")));
    document(format!("Care Plan - {}", plan.client_name), agency, blocks)
}

/// Whether a line of a contract's text is a section title: "3. Cancellation" (as the
/// template numbers its sections) or a Markdown-style "# Title", short and not a
/// sentence.
fn section_title(line: &str) -> Option<&str> {
    let line = line.trim();
    if line.chars().count() > 80 || line.ends_with(['.', ':', ',', ';']) {
        return None;
    }
    if let Some(title) = line.strip_prefix('#') {
        return Some(title.trim_start_matches('#').trim()).filter(|t| !t.is_empty());
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = &line[digits..];
    (digits > 0 && digits <= 2 && rest.starts_with(". ") && rest.len() > 2).then_some(line)
}

/// A list item's text, if the line is one ("• Personal care", "- Meals").
fn bullet_item(line: &str) -> Option<&str> {
    let line = line.trim_start();
    ["• ", "- ", "* ", "· "]
        .iter()
        .find_map(|marker| line.strip_prefix(marker))
        .map(str::trim)
}

/// A line to sign on written into the text ("Client: ________  Date: ____"): the
/// document prints its own signature lines, with the signature itself once signed.
fn fill_in_line(line: &str) -> bool {
    line.contains("____")
}

/// The contract's text as blocks: section titles as headings, lists as bullets, every
/// other line as plain text, in the order written.
pub fn contract_blocks(content: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    for paragraph in content.split("\n\n") {
        let paragraph = paragraph.trim_matches('\n');
        if paragraph.trim().is_empty() {
            continue;
        }
        if paragraph.trim().eq_ignore_ascii_case(AGREEMENT_HEADING) {
            // The document's own title already says it.
            continue;
        }
        let mut text: Vec<&str> = Vec::new();
        let mut items: Vec<(String, String)> = Vec::new();
        let flush =
            |blocks: &mut Vec<Block>, text: &mut Vec<&str>, items: &mut Vec<(String, String)>| {
                if !text.is_empty() {
                    blocks.push(Block::Text(text.join("\n")));
                    text.clear();
                }
                if !items.is_empty() {
                    blocks.push(Block::Bullets(std::mem::take(items)));
                }
            };
        for line in paragraph.lines() {
            if line.trim().is_empty() || fill_in_line(line) {
                continue;
            }
            if let Some(title) = section_title(line) {
                flush(&mut blocks, &mut text, &mut items);
                blocks.push(Block::Heading(title.to_owned()));
            } else if let Some(item) = bullet_item(line) {
                if !text.is_empty() {
                    blocks.push(Block::Text(text.join("\n")));
                    text.clear();
                }
                items.push((String::new(), item.to_owned()));
            } else {
                if !items.is_empty() {
                    blocks.push(Block::Bullets(std::mem::take(&mut items)));
                }
                text.push(line.trim_end());
            }
        }
        flush(&mut blocks, &mut text, &mut items);
    }
    blocks
}

/// The contract with its filled sections and signature lines. It prints no status: the
/// family's copy is the agreement itself, whatever stage the office has it at.
pub fn contract_document(contract: &Contract, agency: &GeneralSettings) -> PrintDocument {
    let mut blocks = vec![
        Block::Title("Home Care Service Agreement".to_owned()),
        field("Agency", agency.company_name.trim()),
        field("Client", &contract.client_name),
        field(
            "Hourly Rate",
            format_money(contract.pricing_details.hourly_rate),
        ),
        field(
            "Weekly Cost",
            format_money(contract.pricing_details.weekly_cost),
        ),
        field(
            "Monthly Cost",
            format_money(contract.pricing_details.monthly_cost),
        ),
    ];
    let tz = crate::rules::clock::AgencyClock::zone_named(&agency.time_zone);
    let day = |moment: &str| {
        crate::rules::clock::parse_timestamp(moment)
            .map(|moment| format_long_date(moment.to_zoned(tz.clone()).date()))
    };
    // A signature is a fact of the agreement (unlike where the office has it in its
    // workflow): a signed contract says when.
    match contract.signed_at.as_deref().and_then(day) {
        Some(signed) if contract.status == crate::model::ContractStatus::Signed => {
            blocks.push(field("Signed", signed));
        }
        _ => {
            if let Some(prepared) = day(&contract.created_at) {
                blocks.push(field("Prepared", prepared));
            }
        }
    }
    blocks.push(Block::Space);
    blocks.extend(contract_blocks(&contract.contract_content));
    blocks.push(Block::Signature(format!(
        "Client or representative ({})",
        contract.client_name
    )));
    blocks.push(Block::Signature(format!("For {}", agency.company_name)));
    document(
        format!("Contract - {}", contract.client_name),
        agency,
        blocks,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Block {
        Block::Text(value.to_owned())
    }

    fn item(value: &str) -> (String, String) {
        (String::new(), value.to_owned())
    }

    /// The template's contract: numbered section titles are headings, the services and
    /// the schedule lines are a list and plain lines, never headings.
    #[test]
    fn contract_text_reads_as_headings_lists_and_text() {
        let content = "HOME CARE SERVICE AGREEMENT\n\nThis Home Care Service Agreement is made on March 3, 2026 between Sunrise Care (the Agency) and Rose Lee (the Client).\n\n1. Services Provided\n\nThe Agency agrees to provide Rose Lee with the following non-medical home care services:\n\n• Help with Daily Personal Care\n• Friendly Companionship\n\nServices will be provided on the following schedule:\n\nMonday: 9am-1pm (4 hours)\nWednesday: 2.5 hours\n\n2. Payment Terms\n\nServices are billed at $32.00 per hour.\n\nClient or Responsible Party: ______________________  Date: __________";
        assert_eq!(
            contract_blocks(content),
            vec![
                text(
                    "This Home Care Service Agreement is made on March 3, 2026 between Sunrise Care (the Agency) and Rose Lee (the Client)."
                ),
                Block::Heading("1. Services Provided".to_owned()),
                text(
                    "The Agency agrees to provide Rose Lee with the following non-medical home care services:"
                ),
                Block::Bullets(vec![
                    item("Help with Daily Personal Care"),
                    item("Friendly Companionship"),
                ]),
                text("Services will be provided on the following schedule:"),
                text("Monday: 9am-1pm (4 hours)\nWednesday: 2.5 hours"),
                Block::Heading("2. Payment Terms".to_owned()),
                text("Services are billed at $32.00 per hour."),
            ]
        );
    }

    #[test]
    fn titles_are_short_numbered_or_marked_lines() {
        assert_eq!(
            section_title("1. Services Provided"),
            Some("1. Services Provided")
        );
        assert_eq!(
            section_title("12. Term and Termination"),
            Some("12. Term and Termination")
        );
        assert_eq!(section_title("## Extra Terms"), Some("Extra Terms"));
        assert_eq!(section_title("• Help with Daily Personal Care"), None);
        assert_eq!(section_title("Monday: 9am-1pm (4 hours)"), None);
        assert_eq!(section_title("1. The Client agrees to pay on time."), None);
        assert_eq!(section_title("2026. A year"), None);
        assert_eq!(section_title("1."), None);
    }
}
