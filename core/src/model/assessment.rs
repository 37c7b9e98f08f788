//! The non-medical assessment form and the stored assessment.

use serde::{Deserialize, Serialize};

use super::ids::{AssessmentId, CarePlanId, IntakeId};
use super::status::{AssessmentStatus, CarePlanStatus};

/// A level of help for one daily activity, with the assessor's notes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Activity {
    pub level: String,
    pub notes: String,
}

/// Activities of daily living.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Adls {
    pub bathing: Activity,
    pub dressing: Activity,
    pub grooming: Activity,
    pub oral_care: Activity,
    pub toileting: Activity,
    pub continence: Activity,
    pub eating: Activity,
    pub mobility: Activity,
    pub transfers: Activity,
}

/// Instrumental activities of daily living.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Iadls {
    pub meal_prep: Activity,
    pub housekeeping: Activity,
    pub laundry: Activity,
    pub shopping: Activity,
    pub transportation: Activity,
    pub medication_mgmt: Activity,
    pub phone_use: Activity,
    pub finances: Activity,
}

impl Adls {
    pub fn entries(&self) -> [(&'static str, &Activity); 9] {
        [
            ("Bathing", &self.bathing),
            ("Dressing", &self.dressing),
            ("Grooming", &self.grooming),
            ("Oral Care", &self.oral_care),
            ("Toileting", &self.toileting),
            ("Continence", &self.continence),
            ("Eating", &self.eating),
            ("Mobility", &self.mobility),
            ("Transfers", &self.transfers),
        ]
    }
}

impl Iadls {
    pub fn entries(&self) -> [(&'static str, &Activity); 8] {
        [
            ("Meal Preparation", &self.meal_prep),
            ("Housekeeping", &self.housekeeping),
            ("Laundry", &self.laundry),
            ("Shopping", &self.shopping),
            ("Transportation", &self.transportation),
            ("Medication Management", &self.medication_mgmt),
            ("Phone Use", &self.phone_use),
            ("Finances", &self.finances),
        ]
    }
}

/// The whole assessment form, stored verbatim as `form_data`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssessmentForm {
    // Assessment Information
    pub assessment_date: String,
    pub time_in: String,
    pub time_out: String,
    pub coordinator_name: String,
    pub assessment_location: String,
    // Client Information
    pub client_name: String,
    pub date_of_birth: String,
    pub client_id: String,
    pub phone: String,
    pub address: String,
    /// Carried over from the intake so the care plan can address the family.
    pub caller_name: String,
    pub caller_email: String,
    // Living Situation & Environment
    pub living_arrangement: String,
    pub living_arrangement_other: String,
    pub home_type: String,
    pub number_of_floors: String,
    pub bedroom_location: String,
    pub home_safety_observations: String,
    pub stairs_present: String,
    pub railings_present: String,
    pub grab_bars_installed: Vec<String>,
    // ADLs and IADLs
    pub adls: Adls,
    pub iadls: Iadls,
    // Equipment
    pub equipment_used: Vec<String>,
    pub equipment_other: String,
    pub equipment_needed: String,
    // Cognitive
    pub alertness: String,
    pub memory_status: String,
    pub communication_ability: Vec<String>,
    pub cognitive_notes: String,
    // Social
    pub general_mood: String,
    pub social_preferences: String,
    pub hobbies: String,
    // Family support
    pub primary_contact: String,
    pub contact_relationship: String,
    pub contact_phone: String,
    pub family_involvement: String,
    pub support_services: Vec<String>,
    pub support_services_other: String,
    // Safety
    pub fall_risk: String,
    pub fall_history: String,
    pub fall_circumstances: String,
    pub safety_concerns: String,
    // Goals
    pub client_goals: String,
    pub caregiver_gender_preference: String,
    pub special_requests: String,
    // Recommended Services & Schedule
    pub recommended_services: Vec<String>,
    pub recommended_services_other: String,
    #[serde(deserialize_with = "super::serde_form::lenient_number")]
    pub recommended_hours: Option<f64>,
    pub recommended_start_date: String,
    pub preferred_days: Vec<String>,
    pub preferred_times: Vec<String>,
    pub schedule_notes: String,
    // Notes
    pub additional_notes: String,
    // Completed By
    pub assessor_name: String,
    pub assessor_date: String,
    pub client_ack_name: String,
    pub client_ack_relationship: String,
    pub client_ack_date: String,
}

impl AssessmentForm {
    /// Trims the fields that validation and the typed columns read.
    pub fn trimmed(mut self) -> Self {
        for field in [
            &mut self.client_name,
            &mut self.phone,
            &mut self.coordinator_name,
            &mut self.assessment_date,
            &mut self.date_of_birth,
            &mut self.caller_email,
            &mut self.caller_name,
        ] {
            let trimmed = field.trim();
            if trimmed.len() != field.len() {
                *field = trimmed.to_owned();
            }
        }
        for list in [
            &mut self.recommended_services,
            &mut self.preferred_days,
            &mut self.preferred_times,
            &mut self.equipment_used,
            &mut self.support_services,
            &mut self.grab_bars_installed,
            &mut self.communication_ability,
        ] {
            list.retain(|value| !value.trim().is_empty());
            list.dedup();
        }
        self
    }
}

/// A stored assessment with what lists need about its client and care plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Assessment {
    pub id: AssessmentId,
    pub version: i64,
    pub intake_id: Option<IntakeId>,
    pub status: AssessmentStatus,
    pub assessment_date: Option<String>,
    pub client_name: String,
    pub coordinator_name: String,
    pub recommended_services: Vec<String>,
    pub recommended_hours: Option<f64>,
    pub preferred_days: Vec<String>,
    pub date_of_birth: Option<String>,
    pub age: Option<u32>,
    pub days_in_stage: i64,
    pub care_plan_id: Option<CarePlanId>,
    pub care_plan_status: Option<CarePlanStatus>,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
    pub form: AssessmentForm,
}
