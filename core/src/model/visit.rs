//! Assessment visits: a home visit booked for an intake, with its time, place and
//! assessor (blueprint difference 17).

use serde::{Deserialize, Serialize};

use super::ids::{IntakeId, UserId, VisitId};
use super::status::VisitStatus;

impl VisitStatus {
    pub fn label(self) -> &'static str {
        match self {
            VisitStatus::Scheduled => "Scheduled",
            VisitStatus::Cancelled => "Cancelled",
            VisitStatus::Done => "Done",
        }
    }
}

/// What staff fill in to book or move a visit: the agency's local date and start time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VisitInput {
    /// YYYY-MM-DD in the agency's time zone.
    pub date: String,
    /// HH:MM (24-hour) in the agency's time zone.
    pub start_time: String,
    pub duration_minutes: u32,
    pub place: String,
    pub assessor_id: UserId,
    pub notes: String,
}

impl Default for VisitInput {
    fn default() -> Self {
        Self {
            date: String::new(),
            start_time: String::new(),
            duration_minutes: 60,
            place: String::new(),
            assessor_id: UserId::from(""),
            notes: String::new(),
        }
    }
}

/// A stored visit with what a list line shows of its client and assessor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssessmentVisit {
    pub id: VisitId,
    pub version: i64,
    /// How many times the invitation was changed (the calendar's SEQUENCE).
    pub sequence: i64,
    pub intake_id: IntakeId,
    pub client_name: String,
    /// UTC, RFC 3339.
    pub starts_at: String,
    pub ends_at: String,
    /// The start in the agency's zone: YYYY-MM-DD and HH:MM.
    pub local_date: String,
    pub local_start_time: String,
    pub local_end_time: String,
    pub duration_minutes: u32,
    pub place: String,
    pub assessor_id: UserId,
    pub assessor_name: String,
    pub assessor_email: String,
    pub notes: Option<String>,
    pub status: VisitStatus,
    pub status_label: String,
    pub cancel_reason: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A visit as saved, with what staff should know about it (outside business hours, the
/// assessor booked twice); warnings never refuse the booking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VisitAnswer {
    pub visit: AssessmentVisit,
    pub warnings: Vec<String>,
}
