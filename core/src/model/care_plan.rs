//! Care plan proposals: services, weekly schedule, rate and the costs derived from them.

use serde::{Deserialize, Serialize};

use super::ids::{AssessmentId, CarePlanId, ContractId, IntakeId, PricingTemplateId};
use super::status::{CarePlanStatus, ContractStatus};

/// The eight services a care plan can offer, under their stored keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CarePlanService {
    PersonalCare,
    Meals,
    Mobility,
    Housekeeping,
    Companionship,
    MedicationReminders,
    Transportation,
    Toileting,
}

impl CarePlanService {
    pub const ALL: [CarePlanService; 8] = [
        CarePlanService::PersonalCare,
        CarePlanService::Meals,
        CarePlanService::Mobility,
        CarePlanService::Housekeeping,
        CarePlanService::Companionship,
        CarePlanService::MedicationReminders,
        CarePlanService::Transportation,
        CarePlanService::Toileting,
    ];

    pub fn key(self) -> &'static str {
        match self {
            CarePlanService::PersonalCare => "personalCare",
            CarePlanService::Meals => "meals",
            CarePlanService::Mobility => "mobility",
            CarePlanService::Housekeeping => "housekeeping",
            CarePlanService::Companionship => "companionship",
            CarePlanService::MedicationReminders => "medicationReminders",
            CarePlanService::Transportation => "transportation",
            CarePlanService::Toileting => "toileting",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|service| service.key() == key)
    }

    /// The label the spec gives each service key.
    pub fn label(self) -> &'static str {
        match self {
            CarePlanService::PersonalCare => "Help with Daily Personal Care",
            CarePlanService::Meals => "Nutritious Meals & Eating Support",
            CarePlanService::Mobility => "Safe Mobility & Transfer Assistance",
            CarePlanService::Housekeeping => "Light Housekeeping & Laundry",
            CarePlanService::Companionship => "Friendly Companionship",
            CarePlanService::MedicationReminders => "Medication Reminders",
            CarePlanService::Transportation => "Transportation & Errands",
            CarePlanService::Toileting => "Toileting & Continence Care",
        }
    }

    /// The sentence the printed proposal letter puts under each checked service.
    pub fn description(self) -> &'static str {
        match self {
            CarePlanService::PersonalCare => {
                "Bathing, dressing, grooming and hygiene with dignity and respect."
            }
            CarePlanService::Meals => {
                "Planning and preparing healthy meals, and help with eating when needed."
            }
            CarePlanService::Mobility => {
                "Steady support walking, moving around the home and transferring safely."
            }
            CarePlanService::Housekeeping => {
                "Tidying, dishes, laundry and keeping the home clean and safe."
            }
            CarePlanService::Companionship => {
                "Conversation, activities and a caring presence to brighten each day."
            }
            CarePlanService::MedicationReminders => {
                "Timely reminders so medications are taken as prescribed."
            }
            CarePlanService::Transportation => {
                "Rides to appointments, shopping and errands around town."
            }
            CarePlanService::Toileting => "Respectful help with toileting and continence care.",
        }
    }
}

/// One day of the proposed schedule: free-text time and hours in 0.5 steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DaySchedule {
    pub time: String,
    pub hours: f64,
}

/// The weekly schedule, keyed monday..sunday as the spec stores it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeeklySchedule {
    pub monday: DaySchedule,
    pub tuesday: DaySchedule,
    pub wednesday: DaySchedule,
    pub thursday: DaySchedule,
    pub friday: DaySchedule,
    pub saturday: DaySchedule,
    pub sunday: DaySchedule,
}

impl WeeklySchedule {
    pub fn days(&self) -> [(&'static str, &DaySchedule); 7] {
        [
            ("Monday", &self.monday),
            ("Tuesday", &self.tuesday),
            ("Wednesday", &self.wednesday),
            ("Thursday", &self.thursday),
            ("Friday", &self.friday),
            ("Saturday", &self.saturday),
            ("Sunday", &self.sunday),
        ]
    }

    pub fn days_mut(&mut self) -> [&mut DaySchedule; 7] {
        [
            &mut self.monday,
            &mut self.tuesday,
            &mut self.wednesday,
            &mut self.thursday,
            &mut self.friday,
            &mut self.saturday,
            &mut self.sunday,
        ]
    }
}

/// What staff fill in on the care plan form. Costs are never taken from the client:
/// the store computes them from the schedule and the rate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarePlanInput {
    pub client_name: String,
    pub family_contact_name: String,
    pub family_contact_email: String,
    pub care_coordinator_name: String,
    pub services: Vec<CarePlanService>,
    pub additional_notes: String,
    pub schedule: WeeklySchedule,
    pub proposed_start_date: String,
    pub pricing_template_id: Option<PricingTemplateId>,
    #[serde(deserialize_with = "super::serde_form::lenient_number")]
    pub hourly_rate: Option<f64>,
}

/// What the cost box sends to be priced: the schedule, and the rate typed in or the
/// pricing template whose base rate applies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarePlanQuoteInput {
    pub schedule: WeeklySchedule,
    pub pricing_template_id: Option<PricingTemplateId>,
    #[serde(deserialize_with = "super::serde_form::lenient_number")]
    pub hourly_rate: Option<f64>,
    /// The plan's services, to say why a template was suggested for them.
    #[serde(default)]
    pub services: Vec<CarePlanService>,
}

/// A stored care plan proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarePlan {
    pub id: CarePlanId,
    pub version: i64,
    pub assessment_id: Option<AssessmentId>,
    pub intake_id: Option<IntakeId>,
    pub status: CarePlanStatus,
    pub client_name: String,
    pub family_contact_name: String,
    pub family_contact_email: String,
    pub care_coordinator_name: String,
    pub services: Vec<CarePlanService>,
    /// The services as the proposal names them ("Help with Daily Personal Care", …).
    pub service_labels: Vec<String>,
    pub additional_notes: String,
    pub schedule: WeeklySchedule,
    pub proposed_start_date: Option<String>,
    pub pricing_template_id: Option<PricingTemplateId>,
    pub hourly_rate: f64,
    pub total_weekly_hours: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    /// Saturday plus Sunday hours.
    pub weekend_hours: f64,
    /// The average rate with the template's weekend premium on weekend hours; None
    /// without weekend hours.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub blended_rate: Option<f64>,
    /// The plan's assessment was saved after the plan was last saved (Update Mode).
    pub assessment_changed: bool,
    pub marketing_email_content: Option<String>,
    pub sent_at: Option<String>,
    pub approved_at: Option<String>,
    pub date_of_birth: Option<String>,
    pub age: Option<u32>,
    pub days_in_stage: i64,
    pub contract_id: Option<ContractId>,
    pub contract_status: Option<ContractStatus>,
    /// Whether a contract can be generated from it (sent or approved, not deleted): the
    /// screens read this, never the status.
    pub can_generate_contract: bool,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
}
