//! The hand-off to care: a signed client's start-of-care checklist, and what the
//! agency's scheduling system receives about the client (docs/handoff.md).

use serde::{Deserialize, Serialize};

use super::care_plan::{CarePlanService, WeeklySchedule};
use super::ids::{AssessmentId, ChecklistItemId, ContractId, IntakeId};

/// The items a new agency's checklist starts with.
pub const DEFAULT_START_OF_CARE_CHECKLIST: [&str; 4] = [
    "Caregiver matched",
    "Schedule set",
    "First visit",
    "First invoice",
];

/// What a contract was written for, kept with it when it is made: the care plan's terms
/// at that moment, so a later edit of the plan never changes what was signed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContractTerms {
    pub schedule: WeeklySchedule,
    pub services: Vec<CarePlanService>,
    pub total_weekly_hours: f64,
    pub proposed_start_date: Option<String>,
}

/// One item of a client's start-of-care checklist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StartOfCareItem {
    pub id: ChecklistItemId,
    pub version: i64,
    pub label: String,
    pub done: bool,
    /// When it was ticked (RFC 3339 UTC); None while it is not done.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub done_at: Option<String>,
    /// The name of the staff member who ticked it; None while it is not done.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub done_by: Option<String>,
}

/// A signed client's start-of-care checklist, for the contract signed last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StartOfCare {
    pub intake_id: IntakeId,
    pub contract_id: ContractId,
    pub signed_at: String,
    pub items: Vec<StartOfCareItem>,
    pub done_count: u32,
}

/// Ticking or unticking one checklist item; `version` is the item's as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StartOfCareItemInput {
    pub done: bool,
    pub version: i64,
}

/// The client as the scheduling system knows them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffClient {
    pub full_name: String,
    /// YYYY-MM-DD, empty when unknown.
    pub date_of_birth: String,
    pub phone: String,
    pub email: String,
}

/// Where care is given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffAddress {
    pub street: String,
    pub city: String,
    pub state: String,
    pub zip_code: String,
}

/// A person the agency may call about the client.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffContact {
    /// "Caller", "Primary Contact", "Family Member", "Emergency Contact" or "Other".
    pub kind: String,
    pub full_name: String,
    pub relationship: String,
    pub phone: String,
    pub email: String,
    pub is_primary: bool,
}

/// One day of the signed schedule that has hours.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffDay {
    /// "Monday" … "Sunday".
    pub day: String,
    /// The visit time as written on the care plan ("9:00 AM - 1:00 PM").
    pub time: String,
    pub hours: f64,
}

/// One daily activity the client needs help with, as the assessor rated it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffActivity {
    pub activity: String,
    pub level: String,
    pub notes: String,
}

/// The care needs the home assessment found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffCareNeeds {
    /// The assessment they come from; None when the client has no assessment.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub assessment_id: Option<AssessmentId>,
    /// The intake's description of the care needed.
    pub general_care_needs: String,
    /// Activities of daily living rated above Independent.
    pub activities: Vec<HandoffActivity>,
    pub equipment: Vec<String>,
    pub fall_risk: String,
    pub alertness: String,
    pub memory: String,
    pub communication: Vec<String>,
    pub home_safety: String,
    pub safety_concerns: String,
}

/// What the client and family asked for in a caregiver and a visit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandoffPreferences {
    /// "No Preference", "Female", "Male" or empty.
    pub caregiver_gender: String,
    pub preferred_days: Vec<String>,
    pub preferred_times: Vec<String>,
    pub schedule_notes: String,
    /// Free text: pets in the home, smoking, routines, anything else asked for.
    pub special_requests: String,
    pub social_preferences: String,
    pub hobbies: String,
}

/// Everything the scheduling system needs to start care for a signed client. The
/// schedule, hours, services and money are the contract's as signed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Handoff {
    pub client_id: IntakeId,
    pub contract_id: ContractId,
    pub signed_at: String,
    pub client: HandoffClient,
    pub address: HandoffAddress,
    pub contacts: Vec<HandoffContact>,
    /// YYYY-MM-DD; None when the care plan named no start date.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub start_date: Option<String>,
    pub schedule: Vec<HandoffDay>,
    pub total_weekly_hours: f64,
    pub hourly_rate: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    /// The services by their stored keys.
    pub service_keys: Vec<CarePlanService>,
    /// The services as the proposal names them.
    pub services: Vec<String>,
    pub care_needs: HandoffCareNeeds,
    pub preferences: HandoffPreferences,
}
