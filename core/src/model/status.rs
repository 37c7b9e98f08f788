//! Status values of every pipeline record, with their stored (snake_case) names.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

macro_rules! status_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub enum $name { $($variant),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }

            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl rusqlite::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::Borrowed(rusqlite::types::ValueRef::Text(self.as_str().as_bytes())))
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
                let text = value.as_str()?;
                Self::parse(text).ok_or_else(|| rusqlite::types::FromSqlError::Other(
                    format!("unknown {} {text:?}", stringify!($name)).into(),
                ))
            }
        }
    };
}

status_enum!(
    /// An intake's own status. The last five are the spec's "declined list": a client
    /// whose intake, assessment, care plan or contract carries one of them is archived.
    IntakeStatus {
        IntakeCreated => "intake_created",
        Pending => "pending",
        AssessmentCompleted => "assessment_completed",
        Declined => "declined",
        NotInterested => "not_interested",
        NotProceeding => "not_proceeding",
        Rejected => "rejected",
        Cancelled => "cancelled",
    }
);

status_enum!(
    /// Where an assessment visit stands: booked, called off, or held.
    VisitStatus {
        Scheduled => "scheduled",
        Cancelled => "cancelled",
        Done => "done",
    }
);

status_enum!(
    /// Why staff took a lead out of the pipeline (the archived statuses they can set).
    ArchiveStatus {
        Declined => "declined",
        NotInterested => "not_interested",
    }
);

impl ArchiveStatus {
    pub fn label(self) -> &'static str {
        match self {
            ArchiveStatus::Declined => "Declined",
            ArchiveStatus::NotInterested => "Not Interested",
        }
    }

    /// The intake status that carries it.
    pub fn intake_status(self) -> IntakeStatus {
        match self {
            ArchiveStatus::Declined => IntakeStatus::Declined,
            ArchiveStatus::NotInterested => IntakeStatus::NotInterested,
        }
    }
}

status_enum!(
    AssessmentStatus {
        Draft => "draft",
        Completed => "completed",
    }
);

status_enum!(
    CarePlanStatus {
        Draft => "draft",
        Sent => "sent",
        Approved => "approved",
        Declined => "declined",
        NotInterested => "not_interested",
        NotProceeding => "not_proceeding",
        Rejected => "rejected",
        Cancelled => "cancelled",
    }
);

status_enum!(
    ContractStatus {
        Draft => "draft",
        Sent => "sent",
        Signed => "signed",
        Declined => "declined",
        Cancelled => "cancelled",
    }
);

status_enum!(
    CommunicationStatus {
        Pending => "pending",
        Sent => "sent",
        Delivered => "delivered",
        Failed => "failed",
    }
);

status_enum!(
    CommunicationType {
        Email => "email",
        Sms => "sms",
        Note => "note",
        PhoneLog => "phone_log",
        SystemEvent => "system_event",
    }
);

status_enum!(
    /// Outbound: staff to the family; internal: notes and events; inbound: a reply the
    /// family texted back (through the SMS provider's webhook).
    Direction {
        Outbound => "outbound",
        Internal => "internal",
        Inbound => "inbound",
    }
);

status_enum!(
    Visibility {
        Internal => "internal",
        Client => "client",
    }
);

status_enum!(
    /// Where a client stands in the pipeline: the furthest record that exists.
    Stage {
        Intake => "intake",
        Assessment => "assessment",
        CarePlan => "care_plan",
        Contract => "contract",
    }
);

status_enum!(
    ContactType {
        Primary => "primary",
        Family => "family",
        Emergency => "emergency",
        Other => "other",
    }
);

status_enum!(
    MessageType {
        Email => "email",
        Sms => "sms",
    }
);

status_enum!(
    TemplateStage {
        General => "general",
        Intake => "intake",
        Assessment => "assessment",
        CarePlan => "care_plan",
        Contract => "contract",
    }
);

/// The spec's "declined list": any of these on any record of a client archives the client.
pub const ARCHIVED_STATUSES: &[&str] = &[
    "declined",
    "not_interested",
    "not_proceeding",
    "rejected",
    "cancelled",
];

impl ContactType {
    /// The label the spec gives each contact type.
    pub fn label(self) -> &'static str {
        match self {
            ContactType::Primary => "Primary Contact",
            ContactType::Family => "Family Member",
            ContactType::Emergency => "Emergency Contact",
            ContactType::Other => "Other",
        }
    }
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Intake => "Intake",
            Stage::Assessment => "Assessment",
            Stage::CarePlan => "Care Plan",
            Stage::Contract => "Contract",
        }
    }
}

/// The status line every list and the dashboard show for an intake, as
/// `rules::pipeline` derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PipelineStatus {
    /// The status in words, without any warning sign: each face draws `overdue` its own
    /// way (an icon, a "⚠️ " prefix, a colour).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub label: Cow<'static, str>,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub description: Cow<'static, str>,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub next_action: Cow<'static, str>,
    pub next_route: String,
    /// A follow-up is past due, or more than five days passed since the intake with
    /// nothing scheduled.
    pub overdue: bool,
    /// Whole calendar days since the client entered its current stage.
    pub days_in_stage: i64,
}
