//! The intake form's sections and fields, in the spec's order, as data: the form view
//! draws them and the form state edits them by their camelCase form names.

use carepath_core::model::IntakeForm;
use carepath_core::model::options::{
    LIVING_SITUATION, PREFERRED_METHOD, SERVICES_REQUIRED, SOURCE_OF_PAYMENT,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    /// `YYYY-MM-DD`.
    Date,
    /// `HH:MM`.
    Time,
    Number,
    /// An on/off switch (client is caller).
    Flag,
    /// Several choices from one of `model::options`.
    Multi(&'static [&'static str]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The form's name for it, also the key of its validation message.
    pub key: &'static str,
    pub label: &'static str,
    pub kind: FieldKind,
    /// Marked required (the spec marks more fields than it enforces).
    pub required: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Section {
    pub title: &'static str,
    pub fields: &'static [Field],
}

const fn field(key: &'static str, label: &'static str, kind: FieldKind) -> Field {
    Field {
        key,
        label,
        kind,
        required: false,
    }
}

const fn required(key: &'static str, label: &'static str, kind: FieldKind) -> Field {
    Field {
        key,
        label,
        kind,
        required: true,
    }
}

use FieldKind::{Date, Flag, Multi, Number, Text, Time};

pub const SECTIONS: &[Section] = &[
    Section {
        title: "Form Header",
        fields: &[
            required("date", "Date", Date),
            required("staffMemberTakingCall", "Staff Member Taking Call", Text),
        ],
    },
    Section {
        title: "Caller",
        fields: &[
            required("callerName", "Caller Name", Text),
            required("relationshipToClient", "Relationship to Client", Text),
            required("callerPhone", "Caller Phone", Text),
            field("callerEmail", "Caller Email", Text),
            field("howDidYouHear", "How Did You Hear About Us", Text),
        ],
    },
    Section {
        title: "Client",
        fields: &[
            field("clientIsCaller", "Client Is the Caller", Flag),
            required("clientFullName", "Client Full Name", Text),
            required("dateOfBirth", "Date of Birth", Date),
            field("clientAddress", "Address", Text),
            field("city", "City", Text),
            field("state", "State", Text),
            field("zipCode", "Zip Code", Text),
            field("clientPhone", "Client Phone", Text),
            field("clientEmail", "Client Email", Text),
        ],
    },
    Section {
        title: "Living Situation",
        fields: &[
            field(
                "livingSituation",
                "Living Situation",
                Multi(LIVING_SITUATION),
            ),
            field("livingSituationOther", "Other (describe)", Text),
        ],
    },
    Section {
        title: "Client Needs",
        fields: &[field("generalCareNeeds", "General Care Needs", Text)],
    },
    Section {
        title: "Services Required",
        fields: &[
            field(
                "servicesRequired",
                "Services Required",
                Multi(SERVICES_REQUIRED),
            ),
            field("servicesNotes", "Services Notes", Text),
        ],
    },
    Section {
        title: "Medical Information",
        fields: &[
            field("primaryDiagnosis", "Primary Diagnosis", Text),
            field(
                "primaryReasonCareNeeded",
                "Primary Reason Care Needed",
                Text,
            ),
            field(
                "mostImportantToCallerSelection",
                "Most Important to Caller",
                Text,
            ),
        ],
    },
    Section {
        title: "Proposed Schedule",
        fields: &[
            field("scheduleMon", "Monday (hours)", Text),
            field("scheduleTue", "Tuesday (hours)", Text),
            field("scheduleWed", "Wednesday (hours)", Text),
            field("scheduleThu", "Thursday (hours)", Text),
            field("scheduleFri", "Friday (hours)", Text),
            field("scheduleSat", "Saturday (hours)", Text),
            field("scheduleSun", "Sunday (hours)", Text),
            field("anticipatedStartDate", "Anticipated Start Date", Date),
            field("totalHoursPerWeek", "Total Hours per Week", Number),
        ],
    },
    Section {
        title: "Source of Payment",
        fields: &[
            field(
                "sourceOfPayment",
                "Source of Payment",
                Multi(SOURCE_OF_PAYMENT),
            ),
            field("paymentOtherComments", "Other / Comments", Text),
            field("insuranceCompany", "Insurance Company", Text),
            field("policyNumber", "Policy Number", Text),
        ],
    },
    Section {
        title: "Assessment",
        fields: &[
            field("consultationDate", "Consultation Date", Date),
            field("consultationTime", "Consultation Time", Time),
            field("consultationLocation", "Location", Text),
            field("whoWillYouMeetWith", "Who Will You Meet With", Text),
            field(
                "staffMemberAssignedForVisit",
                "Staff Assigned for Visit",
                Text,
            ),
        ],
    },
    Section {
        title: "If Assessment Was Not Scheduled",
        fields: &[
            field("reasonNotScheduled", "Reason Not Scheduled", Text),
            field("followUpDate", "Follow-up Date", Date),
            field("followUpTime", "Follow-up Time", Time),
            field(
                "preferredMethod",
                "Preferred Method",
                Multi(PREFERRED_METHOD),
            ),
        ],
    },
    Section {
        title: "Additional Comments",
        fields: &[field("additionalComments", "Additional Comments", Text)],
    },
    Section {
        title: "Follow-up Reminder",
        fields: &[
            field("nextFollowUpDate", "Next Follow-up Date", Date),
            field("nextFollowUpTime", "Next Follow-up Time", Time),
            field("followUpNotes", "Follow-up Notes", Text),
        ],
    },
    Section {
        title: "For Office Use Only",
        fields: &[
            field("clientId", "Client ID", Text),
            field("assignedCoordinator", "Assigned Coordinator", Text),
            field("status", "Status", Text),
            field("referralSourceType", "Referral Source Type", Text),
            field("priorityLevel", "Priority Level", Text),
            field("completedByStaffName", "Completed By (Staff)", Text),
            field("completedDate", "Completed Date", Date),
        ],
    },
];

/// The fields copied from the caller (and locked) while the client is the caller.
pub const COPIED_FROM_CALLER: &[&str] = &[
    "relationshipToClient",
    "clientFullName",
    "clientPhone",
    "clientEmail",
];

/// A text field's value by its form name (the number field is kept as text by the form
/// state, so it is not here).
pub fn text<'a>(form: &'a IntakeForm, key: &str) -> Option<&'a String> {
    Some(match key {
        "date" => &form.date,
        "staffMemberTakingCall" => &form.staff_member_taking_call,
        "callerName" => &form.caller_name,
        "relationshipToClient" => &form.relationship_to_client,
        "callerPhone" => &form.caller_phone,
        "callerEmail" => &form.caller_email,
        "howDidYouHear" => &form.how_did_you_hear,
        "clientFullName" => &form.client_full_name,
        "dateOfBirth" => &form.date_of_birth,
        "clientAddress" => &form.client_address,
        "city" => &form.city,
        "state" => &form.state,
        "zipCode" => &form.zip_code,
        "clientPhone" => &form.client_phone,
        "clientEmail" => &form.client_email,
        "livingSituationOther" => &form.living_situation_other,
        "generalCareNeeds" => &form.general_care_needs,
        "servicesNotes" => &form.services_notes,
        "primaryDiagnosis" => &form.primary_diagnosis,
        "primaryReasonCareNeeded" => &form.primary_reason_care_needed,
        "mostImportantToCallerSelection" => &form.most_important_to_caller_selection,
        "scheduleMon" => &form.schedule_mon,
        "scheduleTue" => &form.schedule_tue,
        "scheduleWed" => &form.schedule_wed,
        "scheduleThu" => &form.schedule_thu,
        "scheduleFri" => &form.schedule_fri,
        "scheduleSat" => &form.schedule_sat,
        "scheduleSun" => &form.schedule_sun,
        "anticipatedStartDate" => &form.anticipated_start_date,
        "paymentOtherComments" => &form.payment_other_comments,
        "insuranceCompany" => &form.insurance_company,
        "policyNumber" => &form.policy_number,
        "consultationDate" => &form.consultation_date,
        "consultationTime" => &form.consultation_time,
        "consultationLocation" => &form.consultation_location,
        "whoWillYouMeetWith" => &form.who_will_you_meet_with,
        "staffMemberAssignedForVisit" => &form.staff_member_assigned_for_visit,
        "reasonNotScheduled" => &form.reason_not_scheduled,
        "followUpDate" => &form.follow_up_date,
        "followUpTime" => &form.follow_up_time,
        "additionalComments" => &form.additional_comments,
        "nextFollowUpDate" => &form.next_follow_up_date,
        "nextFollowUpTime" => &form.next_follow_up_time,
        "followUpNotes" => &form.follow_up_notes,
        "clientId" => &form.client_id,
        "assignedCoordinator" => &form.assigned_coordinator,
        "status" => &form.status,
        "referralSourceType" => &form.referral_source_type,
        "priorityLevel" => &form.priority_level,
        "completedByStaffName" => &form.completed_by_staff_name,
        "completedDate" => &form.completed_date,
        _ => return None,
    })
}

pub fn text_mut<'a>(form: &'a mut IntakeForm, key: &str) -> Option<&'a mut String> {
    Some(match key {
        "date" => &mut form.date,
        "staffMemberTakingCall" => &mut form.staff_member_taking_call,
        "callerName" => &mut form.caller_name,
        "relationshipToClient" => &mut form.relationship_to_client,
        "callerPhone" => &mut form.caller_phone,
        "callerEmail" => &mut form.caller_email,
        "howDidYouHear" => &mut form.how_did_you_hear,
        "clientFullName" => &mut form.client_full_name,
        "dateOfBirth" => &mut form.date_of_birth,
        "clientAddress" => &mut form.client_address,
        "city" => &mut form.city,
        "state" => &mut form.state,
        "zipCode" => &mut form.zip_code,
        "clientPhone" => &mut form.client_phone,
        "clientEmail" => &mut form.client_email,
        "livingSituationOther" => &mut form.living_situation_other,
        "generalCareNeeds" => &mut form.general_care_needs,
        "servicesNotes" => &mut form.services_notes,
        "primaryDiagnosis" => &mut form.primary_diagnosis,
        "primaryReasonCareNeeded" => &mut form.primary_reason_care_needed,
        "mostImportantToCallerSelection" => &mut form.most_important_to_caller_selection,
        "scheduleMon" => &mut form.schedule_mon,
        "scheduleTue" => &mut form.schedule_tue,
        "scheduleWed" => &mut form.schedule_wed,
        "scheduleThu" => &mut form.schedule_thu,
        "scheduleFri" => &mut form.schedule_fri,
        "scheduleSat" => &mut form.schedule_sat,
        "scheduleSun" => &mut form.schedule_sun,
        "anticipatedStartDate" => &mut form.anticipated_start_date,
        "paymentOtherComments" => &mut form.payment_other_comments,
        "insuranceCompany" => &mut form.insurance_company,
        "policyNumber" => &mut form.policy_number,
        "consultationDate" => &mut form.consultation_date,
        "consultationTime" => &mut form.consultation_time,
        "consultationLocation" => &mut form.consultation_location,
        "whoWillYouMeetWith" => &mut form.who_will_you_meet_with,
        "staffMemberAssignedForVisit" => &mut form.staff_member_assigned_for_visit,
        "reasonNotScheduled" => &mut form.reason_not_scheduled,
        "followUpDate" => &mut form.follow_up_date,
        "followUpTime" => &mut form.follow_up_time,
        "additionalComments" => &mut form.additional_comments,
        "nextFollowUpDate" => &mut form.next_follow_up_date,
        "nextFollowUpTime" => &mut form.next_follow_up_time,
        "followUpNotes" => &mut form.follow_up_notes,
        "clientId" => &mut form.client_id,
        "assignedCoordinator" => &mut form.assigned_coordinator,
        "status" => &mut form.status,
        "referralSourceType" => &mut form.referral_source_type,
        "priorityLevel" => &mut form.priority_level,
        "completedByStaffName" => &mut form.completed_by_staff_name,
        "completedDate" => &mut form.completed_date,
        _ => return None,
    })
}

pub fn list<'a>(form: &'a IntakeForm, key: &str) -> &'a [String] {
    match key {
        "livingSituation" => &form.living_situation,
        "servicesRequired" => &form.services_required,
        "sourceOfPayment" => &form.source_of_payment,
        "preferredMethod" => &form.preferred_method,
        _ => &[],
    }
}

pub fn list_mut<'a>(form: &'a mut IntakeForm, key: &str) -> Option<&'a mut Vec<String>> {
    Some(match key {
        "livingSituation" => &mut form.living_situation,
        "servicesRequired" => &mut form.services_required,
        "sourceOfPayment" => &mut form.source_of_payment,
        "preferredMethod" => &mut form.preferred_method,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_reachable_by_its_form_name() {
        let mut form = IntakeForm::default();
        for section in SECTIONS {
            for field in section.fields {
                let reachable = match field.kind {
                    FieldKind::Multi(_) => list_mut(&mut form, field.key).is_some(),
                    FieldKind::Flag | FieldKind::Number => true,
                    _ => {
                        text_mut(&mut form, field.key).is_some() && text(&form, field.key).is_some()
                    }
                };
                assert!(reachable, "{}", field.key);
            }
        }
    }

    #[test]
    fn the_form_has_every_field_of_the_spec() {
        let names: Vec<&str> = SECTIONS
            .iter()
            .flat_map(|section| section.fields.iter().map(|field| field.key))
            .collect();
        let serialized = serde_json::to_value(IntakeForm::default()).unwrap_or_default();
        let object = serialized.as_object().cloned().unwrap_or_default();
        for key in object.keys() {
            assert!(names.contains(&key.as_str()), "{key} missing from the form");
        }
        assert_eq!(names.len(), object.len());
        assert_eq!(SECTIONS.len(), 14);
    }
}
