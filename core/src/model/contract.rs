//! Contracts generated from care plans.

use serde::{Deserialize, Serialize};

use super::ids::{CarePlanId, ContractId, IntakeId};
use super::status::ContractStatus;

/// The rate and costs a contract was written at, copied from its care plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricingDetails {
    pub hourly_rate: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
}

/// The contract text for a care plan, with the version of the plan it was made from: a
/// contract saved from the preview names that version, so it carries the figures shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractPreview {
    pub content: String,
    pub care_plan_version: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Contract {
    pub id: ContractId,
    pub version: i64,
    pub care_plan_proposal_id: CarePlanId,
    pub intake_id: Option<IntakeId>,
    pub client_name: String,
    pub family_contact_email: String,
    pub status: ContractStatus,
    /// Whether staff may still edit it (a draft): the screens read this, never the status.
    pub editable: bool,
    pub contract_content: String,
    pub pricing_details: PricingDetails,
    pub days_in_stage: i64,
    pub created_at: String,
    pub updated_at: String,
    pub sent_at: Option<String>,
    pub signed_at: Option<String>,
    pub deleted_at: Option<String>,
}
