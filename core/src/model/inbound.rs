//! Replies that come back: the mailbox Settings → Email reads them from, the files an
//! emailed reply carried, and a reply that reads as the family's acceptance.

use serde::{Deserialize, Serialize};

use super::ids::{CarePlanId, CommunicationId, IntakeId};
use super::status::CommunicationType;

/// How Carepath signs in to the reply mailbox.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ImapAuth {
    /// IMAP LOGIN with the account's password (an app password where the provider has
    /// them).
    #[default]
    Password,
    /// SASL XOAUTH2 with an OAuth2 access token (providers that refuse passwords).
    Oauth2,
}

/// The reply-to mailbox as Settings show it: the secret is never sent back, only
/// whether one is set. Always IMAP over TLS from the first byte.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplyMailbox {
    /// False: replies are not fetched.
    pub enabled: bool,
    pub host: String,
    pub port: u16,
    pub username: String,
    pub auth: ImapAuth,
    /// The folder replies arrive in (INBOX unless the agency files them elsewhere).
    pub folder: String,
    /// A password (or access token, with OAuth2) is saved.
    pub secret_set: bool,
    /// When replies were last fetched, whether that worked, and what went wrong in words.
    pub checked_at: Option<String>,
    pub check_ok: bool,
    pub check_answer: String,
    pub version: i64,
}

/// The reply-to mailbox saved from Settings → Email.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplyMailboxForm {
    /// The mailbox's version as read (0 when none was saved).
    pub version: i64,
    pub enabled: bool,
    #[serde(default)]
    pub host: String,
    #[serde(default = "imaps_port")]
    pub port: u16,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub auth: ImapAuth,
    #[serde(default)]
    pub folder: String,
    /// A new password or access token; absent keeps the saved one, empty removes it.
    #[serde(default)]
    pub secret: Option<String>,
}

fn imaps_port() -> u16 {
    993
}

/// A file an emailed reply carried, kept with it (GET
/// /api/communications/{id}/attachments/{attachment_id}).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAttachment {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A reply that reads as the family's yes to a proposal waiting for them: staff are
/// offered the approval, one click away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingAcceptance {
    pub intake_id: IntakeId,
    pub client_name: Option<String>,
    pub care_plan_id: CarePlanId,
    /// The reply (an inbound email or text message).
    pub communication_id: CommunicationId,
    pub communication_type: CommunicationType,
    /// What the family wrote, quoted text and signature left out.
    pub text: String,
    pub received_at: String,
    /// "Family replied YES to the proposal — approve?"
    pub prompt: String,
}

/// The client an unmatched reply belongs to, as an administrator chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssignReplyInput {
    pub intake_id: IntakeId,
}
