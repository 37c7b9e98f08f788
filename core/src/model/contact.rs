//! Family and emergency contacts of a client.

use serde::{Deserialize, Serialize};

use super::ids::{ContactId, IntakeId};
use super::status::ContactType;

/// What staff fill in on the contact form. Fields are trimmed and empty optional fields
/// are stored as null.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactInput {
    pub contact_type: ContactType,
    pub full_name: String,
    pub relationship: String,
    pub phone: String,
    pub email: String,
    pub address: String,
    pub notes: String,
    pub is_primary: bool,
}

impl Default for ContactInput {
    fn default() -> Self {
        Self {
            contact_type: ContactType::Family,
            full_name: String::new(),
            relationship: String::new(),
            phone: String::new(),
            email: String::new(),
            address: String::new(),
            notes: String::new(),
            is_primary: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Contact {
    pub id: ContactId,
    pub version: i64,
    pub intake_id: IntakeId,
    pub contact_type: ContactType,
    pub contact_type_label: String,
    pub full_name: String,
    pub relationship: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub address: Option<String>,
    pub notes: Option<String>,
    pub is_primary: bool,
    pub created_at: String,
}
