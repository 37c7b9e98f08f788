//! Communications: emails, text messages, notes, phone logs and system events.

use serde::{Deserialize, Serialize};

use super::ids::{AssessmentId, CarePlanId, CommunicationId, ContractId, IntakeId, UserId};
use super::status::{CommunicationStatus, CommunicationType, Direction, Visibility};

/// The records a communication belongs to; any of them may be set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Parents {
    pub intake_id: Option<IntakeId>,
    pub assessment_id: Option<AssessmentId>,
    pub care_plan_id: Option<CarePlanId>,
    pub contract_id: Option<ContractId>,
}

impl Parents {
    /// A communication about the client alone, under no record of theirs.
    pub fn of_intake(intake_id: &IntakeId) -> Self {
        Self {
            intake_id: Some(intake_id.clone()),
            ..Self::default()
        }
    }
}

/// A file named on an email. Attachments are checked and listed, not sent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttachmentInfo {
    pub name: String,
    pub size: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailInput {
    #[serde(flatten)]
    pub parents: Parents,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub attachments: Vec<AttachmentInfo>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsInput {
    #[serde(flatten)]
    pub parents: Parents,
    pub to: String,
    pub message: String,
}

/// A text message a family sent to the agency's number, as the SMS provider reports it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Reply {
    /// The number it came from.
    pub from: String,
    pub body: String,
    /// The provider's id for the message; a retried report carries the same one.
    pub provider_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NoteInput {
    #[serde(flatten)]
    pub parents: Parents,
    pub subject: String,
    pub content: String,
    /// Notes are internal unless staff switch it off.
    pub internal: bool,
    pub tagged_user_ids: Vec<UserId>,
}

impl Default for NoteInput {
    fn default() -> Self {
        Self {
            parents: Parents::default(),
            subject: String::new(),
            content: String::new(),
            internal: true,
            tagged_user_ids: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CallLogInput {
    #[serde(flatten)]
    pub parents: Parents,
    pub phone: String,
    pub notes: String,
    pub duration: String,
    /// Calls are client-visible unless "Internal Call Only" is on.
    pub internal: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Communication {
    pub id: CommunicationId,
    pub version: i64,
    #[serde(flatten)]
    pub parents: Parents,
    pub client_name: Option<String>,
    pub communication_type: CommunicationType,
    pub direction: Direction,
    pub subject: Option<String>,
    pub content: String,
    pub recipient_email: Option<String>,
    pub recipient_phone: Option<String>,
    pub sender_user_id: Option<UserId>,
    pub sender_name: Option<String>,
    pub status: CommunicationStatus,
    pub failure_reason: Option<String>,
    pub sent_at: Option<String>,
    pub created_at: String,
    pub visibility: Visibility,
    pub tagged_user_ids: Vec<UserId>,
    pub tagged_user_names: Vec<String>,
    pub metadata: serde_json::Value,
    /// When staff read a reply from the family (an inbound communication); null while
    /// nobody has, and always null on what the agency sent or noted.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub read_at: Option<String>,
}
