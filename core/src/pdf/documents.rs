//! What each printed document says, as blocks: the intake form in five pages, the
//! assessment, the care plan letter and the contract.

use super::{Block, PrintDocument};
use crate::model::options::{
    LIVING_SITUATION, PREFERRED_METHOD, SERVICES_REQUIRED, SOURCE_OF_PAYMENT,
};
use crate::model::{
    Assessment, CarePlan, CarePlanService, Contract, GeneralSettings, Intake, PipelineStatus,
};

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

fn list(values: &[String]) -> String {
    values.join("; ")
}

fn hours(value: Option<f64>) -> String {
    value.map(crate::export::number).unwrap_or_default()
}

fn agency_footer(agency: &GeneralSettings) -> Vec<Block> {
    let mut lines = vec![agency.company_name.clone()];
    if !agency.postal_address.is_empty() {
        lines.push(agency.postal_address.clone());
    }
    let mut contact = Vec::new();
    if !agency.contact_phone.is_empty() {
        contact.push(format!("Phone {}", agency.contact_phone));
    }
    if !agency.fax.is_empty() {
        contact.push(format!("Fax {}", agency.fax));
    }
    if !contact.is_empty() {
        lines.push(contact.join(" · "));
    }
    vec![Block::Space, Block::Text(lines.join("\n"))]
}

/// The intake form: page 1 caller and client; 2 living situation, needs, services;
/// 3 medical, schedule, payment; 4 assessment and the not-scheduled follow-up; 5 office
/// use (with the additional comments and follow-up reminder).
pub fn intake_document(intake: &Intake, agency: &GeneralSettings) -> PrintDocument {
    let f = &intake.form;
    let mut blocks = vec![
        Block::Title("Client Intake Form".to_owned()),
        field("Date", &f.date),
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
        field("Date of Birth", &f.date_of_birth),
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
        field("Anticipated Start Date", &f.anticipated_start_date),
        field("Total Hours per Week", hours(f.total_hours_per_week)),
        Block::Heading("Source of Payment".to_owned()),
        checks("Payment", SOURCE_OF_PAYMENT, &f.source_of_payment),
        field("Other / Comments", &f.payment_other_comments),
        field("Insurance Company", &f.insurance_company),
        field("Policy Number", &f.policy_number),
        Block::PageBreak,
        Block::Heading("Assessment".to_owned()),
        field("Consultation Date", &f.consultation_date),
        field("Consultation Time", &f.consultation_time),
        field("Location", &f.consultation_location),
        field("Who Will You Meet With", &f.who_will_you_meet_with),
        field(
            "Staff Member Assigned for Visit",
            &f.staff_member_assigned_for_visit,
        ),
        Block::Heading("If Assessment Was Not Scheduled".to_owned()),
        field("Reason Not Scheduled", &f.reason_not_scheduled),
        field("Follow-up Date", &f.follow_up_date),
        field("Follow-up Time", &f.follow_up_time),
        checks("Preferred Method", PREFERRED_METHOD, &f.preferred_method),
        Block::PageBreak,
        Block::Heading("Additional Comments".to_owned()),
        Block::Text(if f.additional_comments.is_empty() {
            "—".to_owned()
        } else {
            f.additional_comments.clone()
        }),
        Block::Heading("Follow-up Reminder".to_owned()),
        field("Next Follow-up Date", &f.next_follow_up_date),
        field("Next Follow-up Time", &f.next_follow_up_time),
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
        field("Completed Date", &f.completed_date),
    ];
    // The agency's address, phone and fax close the form, as on the other documents.
    blocks.extend(agency_footer(agency));
    PrintDocument {
        title: format!("Intake - {}", intake.client_full_name),
        header: agency.company_name.clone(),
        blocks,
    }
}

/// The non-medical assessment with the agency's details and signature lines.
pub fn assessment_document(assessment: &Assessment, agency: &GeneralSettings) -> PrintDocument {
    let f = &assessment.form;
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
    let mut blocks = vec![
        Block::Title(agency.company_name.clone()),
        Block::Heading("Non-Medical Assessment Form".to_owned()),
        Block::Heading("Assessment Information".to_owned()),
        field("Assessment Date", &f.assessment_date),
        field("Time In", &f.time_in),
        field("Time Out", &f.time_out),
        field("Coordinator", &f.coordinator_name),
        field("Location", &f.assessment_location),
        Block::Heading("Client Information".to_owned()),
        field("Client Name", &f.client_name),
        field("Date of Birth", &f.date_of_birth),
        field("Phone", &f.phone),
        field("Address", &f.address),
        Block::Heading("Living Situation & Environment".to_owned()),
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
        Block::Heading("Activities of Daily Living (ADLs)".to_owned()),
        Block::Table(vec![2, 2, 4], activity_rows(&f.adls.entries())),
        Block::Heading("Instrumental Activities (IADLs)".to_owned()),
        Block::Table(vec![2, 2, 4], activity_rows(&f.iadls.entries())),
        Block::Heading("Equipment".to_owned()),
        field("Equipment Used", list(&f.equipment_used)),
        field("Other", &f.equipment_other),
        field("Equipment Needed", &f.equipment_needed),
        Block::Heading("Cognitive".to_owned()),
        field("Alertness", &f.alertness),
        field("Memory", &f.memory_status),
        field("Communication", list(&f.communication_ability)),
        field("Notes", &f.cognitive_notes),
        Block::Heading("Social".to_owned()),
        field("General Mood", &f.general_mood),
        field("Social Preferences", &f.social_preferences),
        field("Hobbies", &f.hobbies),
        Block::Heading("Family Support".to_owned()),
        field("Primary Contact", &f.primary_contact),
        field("Relationship", &f.contact_relationship),
        field("Phone", &f.contact_phone),
        field("Family Involvement", &f.family_involvement),
        field("Support Services", list(&f.support_services)),
        Block::Heading("Safety".to_owned()),
        field("Fall Risk", &f.fall_risk),
        field("Fall History", &f.fall_history),
        field("Fall Circumstances", &f.fall_circumstances),
        field("Safety Concerns", &f.safety_concerns),
        Block::Heading("Goals".to_owned()),
        field("Client Goals", &f.client_goals),
        field(
            "Caregiver Gender Preference",
            &f.caregiver_gender_preference,
        ),
        field("Special Requests", &f.special_requests),
        Block::Heading("Recommended Services & Schedule".to_owned()),
        field("Recommended Services", list(&f.recommended_services)),
        field("Recommended Hours per Week", hours(f.recommended_hours)),
        field("Recommended Start Date", &f.recommended_start_date),
        field("Preferred Days", list(&f.preferred_days)),
        field("Preferred Times", list(&f.preferred_times)),
        field("Schedule Notes", &f.schedule_notes),
        Block::Heading("Notes".to_owned()),
        Block::Text(if f.additional_notes.is_empty() {
            "—".to_owned()
        } else {
            f.additional_notes.clone()
        }),
        Block::Heading("Completed By".to_owned()),
        field("Assessor", &f.assessor_name),
        field("Date", &f.assessor_date),
        Block::Signature("Assessor signature".to_owned()),
        field(
            "Client / Representative",
            format!("{} {}", f.client_ack_name, f.client_ack_relationship)
                .trim()
                .to_owned(),
        ),
        Block::Signature("Client or representative signature".to_owned()),
    ];
    blocks.extend(agency_footer(agency));
    PrintDocument {
        title: format!("Assessment - {}", assessment.client_name),
        header: agency.company_name.clone(),
        blocks,
    }
}

/// The care plan proposal letter sent to the family.
pub fn care_plan_document(plan: &CarePlan, agency: &GeneralSettings) -> PrintDocument {
    let family = if plan.family_contact_name.trim().is_empty() {
        "Family".to_owned()
    } else {
        plan.family_contact_name.clone()
    };
    let mut blocks = vec![
        Block::Title(agency.company_name.clone()),
        Block::Heading(format!("Home Care Proposal for {}", plan.client_name)),
        Block::Space,
        Block::Text(format!("Dear {family},")),
        Block::Text(format!(
            "Thank you for letting us meet {}. Here is the care we propose, based on our assessment.",
            plan.client_name
        )),
        Block::Heading("Services We Will Provide".to_owned()),
    ];
    for service in CarePlanService::ALL {
        if plan.services.contains(&service) {
            blocks.push(Block::Field(
                format!("[x] {}", service.label()),
                service.description().to_owned(),
            ));
        }
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
    blocks.push(field(
        "Proposed Start Date",
        plan.proposed_start_date.clone().unwrap_or_default(),
    ));
    blocks.push(Block::Heading("Cost of Care".to_owned()));
    blocks.push(Block::Boxed(vec![
        format!("Hourly rate: ${:.2}", plan.hourly_rate),
        format!(
            "Weekly hours: {}",
            crate::export::number(plan.total_weekly_hours)
        ),
        format!("Weekly cost: ${:.2}", plan.weekly_cost),
        format!("Approximate monthly cost: ${:.2}", plan.monthly_cost),
    ]));
    blocks.push(Block::Heading("Just Reply YES to This Email".to_owned()));
    blocks.push(Block::Text(format!(
        "To get started, reply YES or call us at {}.",
        if agency.contact_phone.is_empty() {
            "our office"
        } else {
            &agency.contact_phone
        }
    )));
    if !plan.care_coordinator_name.trim().is_empty() {
        blocks.push(Block::Text(format!(
            "Warm regards,\n{}",
            plan.care_coordinator_name
        )));
    }
    blocks.extend(agency_footer(agency));
    PrintDocument {
        title: format!("Care Plan - {}", plan.client_name),
        header: agency.company_name.clone(),
        blocks,
    }
}

/// The contract with its filled sections and signature lines.
pub fn contract_document(contract: &Contract, agency: &GeneralSettings) -> PrintDocument {
    let mut blocks = vec![
        Block::Title("Home Care Service Agreement".to_owned()),
        field("Client", &contract.client_name),
        field("Status", contract.status.as_str()),
        field(
            "Hourly Rate",
            format!("${:.2}", contract.pricing_details.hourly_rate),
        ),
        field(
            "Weekly Cost",
            format!("${:.2}", contract.pricing_details.weekly_cost),
        ),
        field(
            "Monthly Cost",
            format!("${:.2}", contract.pricing_details.monthly_cost),
        ),
        Block::Space,
    ];
    for paragraph in contract.contract_content.split("\n\n") {
        let paragraph = paragraph.trim();
        if paragraph.is_empty() {
            continue;
        }
        let mut lines = paragraph.lines();
        let first = lines.next().unwrap_or_default();
        let rest: Vec<&str> = lines.collect();
        // A short first line without a full stop is a section title.
        if !rest.is_empty() && first.len() < 60 && !first.ends_with('.') {
            blocks.push(Block::Heading(
                first.trim_start_matches('#').trim().to_owned(),
            ));
            blocks.push(Block::Text(rest.join("\n")));
        } else {
            blocks.push(Block::Text(paragraph.to_owned()));
        }
    }
    blocks.push(Block::Signature(format!(
        "Client or representative ({})",
        contract.client_name
    )));
    blocks.push(Block::Signature(format!("For {}", agency.company_name)));
    blocks.extend(agency_footer(agency));
    PrintDocument {
        title: format!("Contract - {}", contract.client_name),
        header: agency.company_name.clone(),
        blocks,
    }
}
