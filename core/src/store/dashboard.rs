//! The dashboard: counts, follow-ups due today, recent activity.

use rusqlite::params;
use serde::Serialize;

use super::intakes::{SEARCH_LIMIT, SUMMARY_COLUMNS, summary_from_row};
use super::{Store, ts};
use crate::error::Result;
use crate::model::IntakeSummary;

/// The four count cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DashboardCounts {
    /// Clients at the intake stage.
    pub new_intakes: i64,
    /// Assessments saved as draft, not yet completed.
    pub pending_assessments: i64,
    /// Care plans in draft, sent or approved.
    pub active_care_plans: i64,
    /// Contracts sent and not yet signed.
    pub awaiting_signatures: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Dashboard {
    pub counts: DashboardCounts,
    pub follow_ups_due_today: Vec<IntakeSummary>,
    pub recent_activity: Vec<IntakeSummary>,
    /// Settings → Workflow: alert when a client stays in a stage more than this many days.
    pub stage_alert_days: u32,
    /// Clients (not archived) in their stage more than `stage_alert_days`, longest first,
    /// at most 100.
    pub stage_alerts: Vec<IntakeSummary>,
    /// How many clients that is in all.
    pub stage_alert_count: i64,
}

const RECENT_ACTIVITY: u32 = SEARCH_LIMIT;
const STAGE_ALERT_LIMIT: u32 = 100;

impl Store {
    pub fn dashboard(&self) -> Result<Dashboard> {
        let clock = self.clock()?;
        let new_intakes: i64 = super::query_row(
            self.conn(),
            "SELECT coalesce(sum(n), 0) FROM intake_counts WHERE archived = 0 AND stage = 'intake'",
            [],
            |row| row.get(0),
        )?;
        let (pending_assessments, active_care_plans, awaiting_signatures) = super::query_row(self.conn(),
            // An archived client's records are not active work.
            "SELECT
                (SELECT count(*) FROM assessments r WHERE deleted_at IS NULL AND status = 'draft' AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)),
                (SELECT count(*) FROM care_plan_proposals r WHERE deleted_at IS NULL AND status IN ('draft', 'sent', 'approved') AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)),
                (SELECT count(*) FROM contracts r WHERE deleted_at IS NULL AND status = 'sent' AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1))",
            [],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )?;
        let today = clock.start_of_today();
        let tomorrow = clock.start_of_day(clock.today().tomorrow().unwrap_or(clock.today()));
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM intakes
             WHERE deleted_at IS NULL AND archived = 0
               AND next_follow_up_date >= ?1 AND next_follow_up_date < ?2
             ORDER BY next_follow_up_date, id LIMIT 100"
        ))?;
        let follow_ups_due_today = statement
            .query_map(params![ts(today), ts(tomorrow)], |row| {
                summary_from_row(row, &clock)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM intakes WHERE deleted_at IS NULL
             ORDER BY created_at DESC, id DESC LIMIT {RECENT_ACTIVITY}"
        ))?;
        let recent_activity = statement
            .query_map([], |row| summary_from_row(row, &clock))?
            .collect::<Result<Vec<_>, _>>()?;
        let stage_alert_days = self.settings()?.workflow.stage_alert_days;
        let cutoff = self.stage_alert_cutoff(&clock)?;
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM intakes
             WHERE deleted_at IS NULL AND archived = 0 AND stage_entered_at < ?1
             ORDER BY stage_entered_at, id LIMIT {STAGE_ALERT_LIMIT}"
        ))?;
        let stage_alerts = statement
            .query_map([&cutoff], |row| summary_from_row(row, &clock))?
            .collect::<Result<Vec<_>, _>>()?;
        let stage_alert_count: i64 = super::query_row(
            self.conn(),
            "SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND archived = 0 AND stage_entered_at < ?1",
            [&cutoff],
            |row| row.get(0),
        )?;
        Ok(Dashboard {
            counts: DashboardCounts {
                new_intakes,
                pending_assessments,
                active_care_plans,
                awaiting_signatures,
            },
            follow_ups_due_today,
            recent_activity,
            stage_alert_days,
            stage_alerts,
            stage_alert_count,
        })
    }
}
