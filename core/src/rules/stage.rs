//! Where a client stands at a glance: archived or not, and how urgent its lead is.
//!
//! The spec reads urgency two ways (the intakes list says "fewer than 3 days" is recent,
//! the filter says "3 or fewer"); blueprint fix 9 settles on one rule everywhere:
//! 3 days or fewer is New, 4–5 is Attention, more than 5 is Urgent.

use serde::{Deserialize, Serialize};

use super::pipeline::OVERDUE_AFTER_DAYS;
use crate::model::ARCHIVED_STATUSES;

/// Days at or below which a lead is still new (or on track).
pub const NEW_UP_TO_DAYS: i64 = 3;

/// True when any status of a client's records is in the spec's declined list.
pub fn is_archived(statuses: &[&str]) -> bool {
    statuses
        .iter()
        .any(|status| ARCHIVED_STATUSES.contains(status))
}

/// The moment before which entering a stage means staying in it "more than N days"
/// (Settings → Workflow's stage alert): exactly N × 24 hours before now.
pub fn stage_alert_cutoff(now: jiff::Timestamp, alert_days: u32) -> jiff::Timestamp {
    now.checked_sub(jiff::SignedDuration::from_hours(i64::from(alert_days) * 24))
        .unwrap_or(jiff::Timestamp::MIN)
}

/// True when a client still in the pipeline (neither archived nor finished: see
/// [`super::pipeline::finished`]) entered its stage before the cutoff. Times are
/// fixed-width UTC text, so text order is time order.
pub fn past_stage_alert(
    archived: bool,
    finished: bool,
    stage_entered_at: &str,
    cutoff: &str,
) -> bool {
    !archived && !finished && stage_entered_at < cutoff
}

/// The intakes list's urgency by days since creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Urgency {
    New,
    Attention,
    Urgent,
}

impl Urgency {
    pub const ALL: [Urgency; 3] = [Urgency::New, Urgency::Attention, Urgency::Urgent];

    pub fn label(self) -> &'static str {
        match self {
            Urgency::New => "New",
            Urgency::Attention => "Attention",
            Urgency::Urgent => "Urgent",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::New => "new",
            Urgency::Attention => "attention",
            Urgency::Urgent => "urgent",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|urgency| urgency.as_str() == text)
    }
}

pub fn urgency_for_days(days: i64) -> Urgency {
    if days <= NEW_UP_TO_DAYS {
        Urgency::New
    } else if days <= OVERDUE_AFTER_DAYS {
        Urgency::Attention
    } else {
        Urgency::Urgent
    }
}

/// The clients list's urgency filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ClientUrgency {
    Overdue,
    DueSoon,
    OnTrack,
}

impl ClientUrgency {
    pub const ALL: [ClientUrgency; 3] = [
        ClientUrgency::Overdue,
        ClientUrgency::DueSoon,
        ClientUrgency::OnTrack,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ClientUrgency::Overdue => "Overdue",
            ClientUrgency::DueSoon => "Due Soon (4-5 days)",
            ClientUrgency::OnTrack => "On Track (3 days or fewer)",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ClientUrgency::Overdue => "overdue",
            ClientUrgency::DueSoon => "due_soon",
            ClientUrgency::OnTrack => "on_track",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|urgency| urgency.as_str() == text)
    }
}

/// Overdue when the pipeline flags it or it has been more than 5 days in its stage;
/// otherwise due soon at 4–5 days and on track at 3 or fewer. A client out of the
/// pipeline (archived, or finished: an Active Patient) is never urgent; the urgency
/// filters leave it out.
pub fn client_urgency(
    archived: bool,
    finished: bool,
    overdue_flag: bool,
    days_in_stage: i64,
) -> ClientUrgency {
    if archived || finished {
        ClientUrgency::OnTrack
    } else if overdue_flag || days_in_stage > OVERDUE_AFTER_DAYS {
        ClientUrgency::Overdue
    } else if days_in_stage > NEW_UP_TO_DAYS {
        ClientUrgency::DueSoon
    } else {
        ClientUrgency::OnTrack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_alert_flags_clients_past_the_days() {
        let now: jiff::Timestamp = "2026-11-22T15:00:00Z".parse().unwrap();
        let cutoff = crate::rules::clock::format_timestamp(stage_alert_cutoff(now, 7));
        assert_eq!(cutoff, "2026-11-15T15:00:00.000Z");
        // (archived, finished, stage entered, flagged)
        let cases = [
            (false, false, "2026-11-15T14:59:59.999Z", true),
            (false, false, "2026-11-15T15:00:00.000Z", false), // exactly 7 days: not more
            (false, false, "2026-11-20T09:00:00.000Z", false),
            (true, false, "2026-10-01T09:00:00.000Z", false), // archived: never flagged
            (false, true, "2026-10-01T09:00:00.000Z", false), // signed: never flagged
            (false, true, "2026-11-20T09:00:00.000Z", false),
        ];
        for (archived, finished, entered, expected) in cases {
            assert_eq!(
                past_stage_alert(archived, finished, entered, &cutoff),
                expected,
                "{entered}"
            );
        }
    }

    #[test]
    fn archived_when_any_status_is_declined_type() {
        let cases: &[(&[&str], bool)] = &[
            (&[], false),
            (&["pending"], false),
            (&["pending", "completed", "sent", "signed"], false),
            (&["pending", "declined"], true),
            (&["not_interested"], true),
            (
                &["assessment_completed", "completed", "not_proceeding"],
                true,
            ),
            (&["pending", "completed", "rejected"], true),
            (&["pending", "completed", "sent", "cancelled"], true),
            // Exact names only: a label or a different case is not a status.
            (&["Declined"], false),
            (&["declined "], false),
        ];
        for (statuses, expected) in cases {
            assert_eq!(is_archived(statuses), *expected, "{statuses:?}");
        }
    }

    #[test]
    fn urgency_by_days_since_creation() {
        let cases = [
            (-1, Urgency::New),
            (0, Urgency::New),
            (3, Urgency::New),
            (4, Urgency::Attention),
            (5, Urgency::Attention),
            (6, Urgency::Urgent),
            (400, Urgency::Urgent),
        ];
        for (days, expected) in cases {
            assert_eq!(urgency_for_days(days), expected, "{days} days");
        }
    }

    #[test]
    fn urgency_names() {
        let cases = [
            (Urgency::New, "New", "new"),
            (Urgency::Attention, "Attention", "attention"),
            (Urgency::Urgent, "Urgent", "urgent"),
        ];
        for (urgency, label, stored) in cases {
            assert_eq!(urgency.label(), label);
            assert_eq!(urgency.as_str(), stored);
            assert_eq!(Urgency::parse(stored), Some(urgency));
            assert_eq!(
                serde_json::to_value(urgency).unwrap(),
                serde_json::json!(stored)
            );
        }
        assert_eq!(Urgency::parse("New"), None);
    }

    #[test]
    fn client_urgency_rule() {
        use ClientUrgency::{DueSoon, OnTrack, Overdue};
        // (archived, finished, overdue flag, days in stage, urgency)
        let cases = [
            (false, false, false, 0, OnTrack),
            (false, false, false, 3, OnTrack),
            (false, false, false, 4, DueSoon),
            (false, false, false, 5, DueSoon),
            (false, false, false, 6, Overdue),
            (false, false, false, 90, Overdue),
            // The flag wins at any age (an overdue follow-up on a fresh client).
            (false, false, true, 0, Overdue),
            (false, false, true, 3, Overdue),
            (false, false, true, 4, Overdue),
            (false, false, true, 6, Overdue),
            // Out of the pipeline: archived, or finished (an Active Patient).
            (true, false, true, 90, OnTrack),
            (false, true, false, 4, OnTrack),
            (false, true, false, 90, OnTrack),
            (false, true, true, 90, OnTrack),
        ];
        for (archived, finished, flag, days, expected) in cases {
            assert_eq!(
                client_urgency(archived, finished, flag, days),
                expected,
                "archived {archived}, finished {finished}, flag {flag}, {days} days"
            );
        }
    }

    #[test]
    fn client_urgency_names() {
        let cases = [
            (ClientUrgency::Overdue, "Overdue", "overdue"),
            (ClientUrgency::DueSoon, "Due Soon (4-5 days)", "due_soon"),
            (
                ClientUrgency::OnTrack,
                "On Track (3 days or fewer)",
                "on_track",
            ),
        ];
        for (urgency, label, stored) in cases {
            assert_eq!(urgency.label(), label);
            assert_eq!(ClientUrgency::parse(stored), Some(urgency));
            assert_eq!(
                serde_json::to_value(urgency).unwrap(),
                serde_json::json!(stored)
            );
            let parsed: ClientUrgency = serde_json::from_value(serde_json::json!(stored)).unwrap();
            assert_eq!(parsed, urgency);
        }
        assert_eq!(ClientUrgency::parse("dueSoon"), None);
        assert_eq!(ClientUrgency::parse(""), None);
    }
}
