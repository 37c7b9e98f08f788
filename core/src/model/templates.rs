//! Message templates, pricing templates and the contract template with its versions.

use serde::{Deserialize, Serialize};

use super::ids::{ContractTemplateId, MessageTemplateId, PricingTemplateId};
use super::status::{MessageType, TemplateStage};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageTemplateInput {
    pub name: String,
    pub message_type: MessageType,
    pub stage: TemplateStage,
    pub subject_template: String,
    pub ai_prompt_template: String,
    pub is_active: bool,
}

impl Default for MessageTemplateInput {
    fn default() -> Self {
        Self {
            name: String::new(),
            message_type: MessageType::Email,
            stage: TemplateStage::General,
            subject_template: String::new(),
            ai_prompt_template: String::new(),
            is_active: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageTemplate {
    pub id: MessageTemplateId,
    pub version: i64,
    pub name: String,
    pub message_type: MessageType,
    pub stage: TemplateStage,
    pub subject_template: Option<String>,
    pub ai_prompt_template: String,
    pub is_active: bool,
    pub created_at: String,
}

/// Premiums a pricing template adds to its base rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Premiums {
    pub weekend: f64,
    pub evening: f64,
    pub overnight: f64,
    pub holiday_multiplier: f64,
}

impl Default for Premiums {
    fn default() -> Self {
        Self {
            weekend: 0.0,
            evening: 0.0,
            overnight: 0.0,
            holiday_multiplier: 1.5,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricingTemplateInput {
    pub name: String,
    #[serde(deserialize_with = "super::serde_form::lenient_number")]
    pub base_rate: Option<f64>,
    pub premiums: Premiums,
    pub is_active: bool,
    pub is_default: bool,
    pub notes: String,
}

impl Default for PricingTemplateInput {
    fn default() -> Self {
        Self {
            name: String::new(),
            base_rate: None,
            premiums: Premiums::default(),
            is_active: true,
            is_default: false,
            notes: String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricingTemplate {
    pub id: PricingTemplateId,
    pub version: i64,
    pub name: String,
    pub base_rate: f64,
    pub premiums: Premiums,
    pub is_active: bool,
    pub is_default: bool,
    pub notes: Option<String>,
    pub created_at: String,
}

/// One numbered section of the contract template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractSection {
    pub id: String,
    pub title: String,
    pub content: String,
    pub order: u32,
    pub required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractTemplateInput {
    pub name: String,
    pub sections: Vec<ContractSection>,
}

/// The contract template as one saved version. Versions are kept; the newest is current.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractTemplate {
    pub id: ContractTemplateId,
    /// Row version for optimistic concurrency of the current template.
    pub version: i64,
    /// The template's own version number as staff see it: 1.0, 1.1, 1.2 …
    pub template_version: String,
    pub name: String,
    pub sections: Vec<ContractSection>,
    pub created_at: String,
}

/// One holiday of the holiday policy with its date in a given year.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Holiday {
    pub name: String,
    /// `YYYY-MM-DD`.
    pub date: String,
}

/// The holiday policy card: the six holidays billed at the holiday rate, dated for the
/// agency's current year.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HolidayPolicy {
    pub year: i16,
    /// The default holiday multiplier (a template may set its own).
    pub multiplier: f64,
    pub holidays: Vec<Holiday>,
}
