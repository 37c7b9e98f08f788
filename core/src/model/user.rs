//! Staff users (the spec's profiles) and who did a change.

use serde::{Deserialize, Serialize};

use super::ids::UserId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct User {
    pub id: UserId,
    pub version: i64,
    pub email: String,
    pub full_name: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created_at: String,
    /// When the user last signed in (any way: password, magic link, recovery).
    pub last_sign_in_at: Option<String>,
    /// Their mobile number for texts on urgent updates (Settings → Notifications); empty
    /// when they have given none.
    pub phone: String,
}

/// A profile as the team-member picker shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Profile {
    pub id: UserId,
    pub full_name: String,
    pub email: String,
}

/// The face a change came through; recorded in the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Channel {
    Web,
    Tui,
    Cli,
    System,
    /// The family, through a personal approval or signing link (no staff account).
    Link,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::Tui => "tui",
            Channel::Cli => "cli",
            Channel::System => "system",
            Channel::Link => "link",
        }
    }
}

/// Who is making a change and through which face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub user_id: Option<UserId>,
    pub channel: Channel,
    pub is_admin: bool,
}

impl Actor {
    pub fn user(user_id: UserId, channel: Channel, is_admin: bool) -> Self {
        Self {
            user_id: Some(user_id),
            channel,
            is_admin,
        }
    }

    /// Demo data, imports run as nobody in particular, migrations.
    pub fn system(channel: Channel) -> Self {
        Self {
            user_id: None,
            channel,
            is_admin: true,
        }
    }
}

/// One soft-deleted record in the admin panel's trash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrashItem {
    /// `intake`, `assessment`, `care_plan` or `contract`.
    pub kind: String,
    pub id: String,
    pub client_name: String,
    pub deleted_at: String,
    /// Who deleted it (name, else email), from the audit log; None when unknown.
    pub deleted_by: Option<String>,
}
