//! The intake form (every field of the spec, under its camelCase form name) and the
//! stored intake record.

use serde::{Deserialize, Serialize};

use super::PipelineStatus;
use super::ids::{AssessmentId, CarePlanId, ContractId, IntakeId};
use super::status::{AssessmentStatus, CarePlanStatus, ContractStatus, IntakeStatus, Stage};

/// The whole intake form as staff fill it in. Stored verbatim as `form_data`; the
/// queryable fields are copied into typed columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IntakeForm {
    // Form Header
    pub date: String,
    pub staff_member_taking_call: String,
    // Caller
    pub caller_name: String,
    pub relationship_to_client: String,
    pub caller_phone: String,
    pub caller_email: String,
    pub how_did_you_hear: String,
    // Client
    pub client_is_caller: bool,
    pub client_full_name: String,
    pub date_of_birth: String,
    pub client_address: String,
    pub city: String,
    pub state: String,
    pub zip_code: String,
    pub client_phone: String,
    pub client_email: String,
    // Living Situation
    pub living_situation: Vec<String>,
    pub living_situation_other: String,
    // Client Needs
    pub general_care_needs: String,
    // Services Required
    pub services_required: Vec<String>,
    pub services_notes: String,
    // Medical Information
    pub primary_diagnosis: String,
    pub primary_reason_care_needed: String,
    pub most_important_to_caller_selection: String,
    // Proposed Schedule
    pub schedule_mon: String,
    pub schedule_tue: String,
    pub schedule_wed: String,
    pub schedule_thu: String,
    pub schedule_fri: String,
    pub schedule_sat: String,
    pub schedule_sun: String,
    pub anticipated_start_date: String,
    #[serde(deserialize_with = "super::serde_form::lenient_number")]
    pub total_hours_per_week: Option<f64>,
    // Source of Payment
    pub source_of_payment: Vec<String>,
    pub payment_other_comments: String,
    pub insurance_company: String,
    pub policy_number: String,
    // Assessment
    pub consultation_date: String,
    pub consultation_time: String,
    pub consultation_location: String,
    pub who_will_you_meet_with: String,
    pub staff_member_assigned_for_visit: String,
    // If Assessment Was Not Scheduled
    pub reason_not_scheduled: String,
    pub follow_up_date: String,
    pub follow_up_time: String,
    pub preferred_method: Vec<String>,
    // Additional Comments
    pub additional_comments: String,
    // Follow-up Reminder
    pub next_follow_up_date: String,
    pub next_follow_up_time: String,
    pub follow_up_notes: String,
    // For Office Use Only
    pub client_id: String,
    pub assigned_coordinator: String,
    pub status: String,
    pub referral_source_type: String,
    pub priority_level: String,
    pub completed_by_staff_name: String,
    pub completed_date: String,
}

impl IntakeForm {
    /// The seven schedule day fields with the day names used for preferred days.
    pub fn schedule_days(&self) -> [(&'static str, &str); 7] {
        [
            ("Monday", &self.schedule_mon),
            ("Tuesday", &self.schedule_tue),
            ("Wednesday", &self.schedule_wed),
            ("Thursday", &self.schedule_thu),
            ("Friday", &self.schedule_fri),
            ("Saturday", &self.schedule_sat),
            ("Sunday", &self.schedule_sun),
        ]
    }

    /// When the client is the caller, the relationship becomes "Self" and the client's
    /// name, phone and email are the caller's.
    pub fn apply_client_is_caller(&mut self) {
        if self.client_is_caller {
            self.relationship_to_client = "Self".to_owned();
            self.client_full_name = self.caller_name.clone();
            self.client_phone = self.caller_phone.clone();
            self.client_email = self.caller_email.clone();
        }
    }

    /// Trims every free-text field, so "  " never counts as filled in.
    pub fn trimmed(mut self) -> Self {
        for field in self.text_fields_mut() {
            let trimmed = field.trim();
            if trimmed.len() != field.len() {
                *field = trimmed.to_owned();
            }
        }
        for list in [
            &mut self.living_situation,
            &mut self.services_required,
            &mut self.source_of_payment,
            &mut self.preferred_method,
        ] {
            list.retain(|value| !value.trim().is_empty());
            for value in list.iter_mut() {
                *value = value.trim().to_owned();
            }
            list.dedup();
        }
        self
    }

    fn text_fields_mut(&mut self) -> Vec<&mut String> {
        vec![
            &mut self.date,
            &mut self.staff_member_taking_call,
            &mut self.caller_name,
            &mut self.relationship_to_client,
            &mut self.caller_phone,
            &mut self.caller_email,
            &mut self.how_did_you_hear,
            &mut self.client_full_name,
            &mut self.date_of_birth,
            &mut self.client_address,
            &mut self.city,
            &mut self.state,
            &mut self.zip_code,
            &mut self.client_phone,
            &mut self.client_email,
            &mut self.living_situation_other,
            &mut self.general_care_needs,
            &mut self.services_notes,
            &mut self.primary_diagnosis,
            &mut self.primary_reason_care_needed,
            &mut self.most_important_to_caller_selection,
            &mut self.schedule_mon,
            &mut self.schedule_tue,
            &mut self.schedule_wed,
            &mut self.schedule_thu,
            &mut self.schedule_fri,
            &mut self.schedule_sat,
            &mut self.schedule_sun,
            &mut self.anticipated_start_date,
            &mut self.payment_other_comments,
            &mut self.insurance_company,
            &mut self.policy_number,
            &mut self.consultation_date,
            &mut self.consultation_time,
            &mut self.consultation_location,
            &mut self.who_will_you_meet_with,
            &mut self.staff_member_assigned_for_visit,
            &mut self.reason_not_scheduled,
            &mut self.follow_up_date,
            &mut self.follow_up_time,
            &mut self.additional_comments,
            &mut self.next_follow_up_date,
            &mut self.next_follow_up_time,
            &mut self.follow_up_notes,
            &mut self.client_id,
            &mut self.assigned_coordinator,
            &mut self.status,
            &mut self.referral_source_type,
            &mut self.priority_level,
            &mut self.completed_by_staff_name,
            &mut self.completed_date,
        ]
    }
}

/// Where an intake stands, kept on its row by the store in the same transaction as the
/// change that moves it, so lists filter by stage and urgency through an index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PipelinePosition {
    pub stage: Stage,
    /// UTC RFC 3339.
    pub stage_entered_at: String,
    pub archived: bool,
    pub latest_assessment_id: Option<AssessmentId>,
    pub latest_assessment_status: Option<AssessmentStatus>,
    pub latest_care_plan_id: Option<CarePlanId>,
    pub latest_care_plan_status: Option<CarePlanStatus>,
    pub latest_contract_id: Option<ContractId>,
    pub latest_contract_status: Option<ContractStatus>,
}

/// One stored intake with everything a screen needs about it.
// The form is parsed (`IntakeForm`) for the code that reads it, or its JSON text for an
// answer that only passes it on (`Store::get_intake_answer`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Intake<F = IntakeForm> {
    pub id: IntakeId,
    pub version: i64,
    pub status: IntakeStatus,
    pub client_full_name: String,
    pub date_of_birth: Option<String>,
    pub age: Option<u32>,
    pub caller_name: String,
    pub caller_phone: String,
    pub caller_email: String,
    pub services_required: Vec<String>,
    pub assigned_coordinator: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub last_contact_date: Option<String>,
    pub next_follow_up_date: Option<String>,
    pub follow_up_notes: Option<String>,
    pub assessment_scheduled_date: Option<String>,
    pub is_draft: bool,
    pub deleted_at: Option<String>,
    pub position: PipelinePosition,
    pub pipeline: PipelineStatus,
    #[cfg_attr(feature = "openapi", schema(value_type = IntakeForm))]
    pub form: F,
}

/// An intake form as the JSON text [`IntakeForm`] serializes to, for an answer that only
/// passes the form on: serde_json writes a `RawValue` as it is, so the form is neither
/// built nor written again. Only the store makes one, from a stored form it has checked.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct FormJson(Box<serde_json::value::RawValue>);

impl FormJson {
    pub(crate) fn new(json: String) -> serde_json::Result<Self> {
        serde_json::value::RawValue::from_string(json).map(FormJson)
    }

    pub fn as_str(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for FormJson {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for FormJson {}

/// An intake as lists show it: the typed columns and the derived status, no form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IntakeSummary {
    pub id: IntakeId,
    pub version: i64,
    pub status: IntakeStatus,
    pub client_full_name: String,
    pub date_of_birth: Option<String>,
    pub age: Option<u32>,
    pub caller_name: String,
    pub caller_phone: String,
    pub caller_email: String,
    pub services_required: Vec<String>,
    pub created_at: String,
    pub last_contact_date: Option<String>,
    pub next_follow_up_date: Option<String>,
    pub follow_up_notes: Option<String>,
    pub is_draft: bool,
    pub position: PipelinePosition,
    pub pipeline: PipelineStatus,
}

/// An intake as a list line shows it: who, when, where in the pipeline and what next.
/// The dashboard sends this, not the summary, and a clients row is built from it: a
/// fraction of the bytes to read, build and send.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IntakeBrief {
    pub id: IntakeId,
    pub client_full_name: String,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub age: Option<u32>,
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub last_contact_date: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next_follow_up_date: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub follow_up_notes: Option<String>,
    pub stage: Stage,
    pub archived: bool,
    pub pipeline: PipelineStatus,
}

/// Marking a lead declined or not interested: why, in staff's words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArchiveInput {
    pub status: super::status::ArchiveStatus,
    pub reason: String,
}
