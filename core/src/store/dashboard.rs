//! The dashboard: counts, follow-ups due today, recent activity.

use serde::Serialize;

use super::clients::OwnerFilter;
use super::intakes::{BRIEF_COLUMNS, SEARCH_LIMIT, brief_only};
use super::paging::{Filters, Keyset, Page};
use super::tallies::Moment;
use super::{Store, ts};
use crate::error::Result;
use crate::model::IntakeBrief;
use crate::rules::clock::AgencyClock;

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
    /// The first page of today's follow-ups, earliest first.
    pub follow_ups_due_today: Vec<IntakeBrief>,
    /// How many follow-ups are due today in all (the panel's "(n)").
    pub follow_ups_due_today_count: i64,
    /// Pass to `GET /api/dashboard/follow-ups` for the next page; None when this is all.
    pub follow_ups_next_cursor: Option<String>,
    pub recent_activity: Vec<IntakeBrief>,
    /// Settings → Workflow: alert when a client stays in a stage more than this many days.
    pub stage_alert_days: u32,
    /// Clients still in the pipeline (neither archived nor finished) in their stage more
    /// than `stage_alert_days`, longest first,
    /// at most 10 (the clients list flags every one).
    pub stage_alerts: Vec<IntakeBrief>,
    /// How many clients that is in all.
    pub stage_alert_count: i64,
}

const RECENT_ACTIVITY: u32 = SEARCH_LIMIT;
const STAGE_ALERT_LIMIT: u32 = 10;

/// Follow-ups due today per page.
pub const FOLLOW_UPS_PAGE: u32 = 20;

/// The newest clients, along `intakes_recent`: ties break on the row number, as the
/// index orders them, so SQLite reads the first rows of the index and sorts nothing.
fn recent_activity_sql() -> String {
    format!(
        "SELECT {BRIEF_COLUMNS} FROM intakes WHERE deleted_at IS NULL
         ORDER BY created_at DESC, list_seq DESC LIMIT {RECENT_ACTIVITY}"
    )
}

/// The clients longest in their stage past the cutoff (`?1`), along
/// `intakes_stage_alert`: a finished client (an Active Patient) is never among them.
fn stage_alerts_sql() -> String {
    format!(
        "SELECT {BRIEF_COLUMNS} FROM intakes
         WHERE deleted_at IS NULL AND archived = 0 AND stage_alert_from < ?1
         ORDER BY stage_alert_from, list_seq LIMIT {STAGE_ALERT_LIMIT}"
    )
}

/// Today in the agency's time zone, as the moments it starts and ends.
fn today_window(clock: &AgencyClock) -> (jiff::Timestamp, jiff::Timestamp) {
    let today = clock.start_of_today();
    let tomorrow = clock.start_of_day(clock.today().tomorrow().unwrap_or(clock.today()));
    (today, tomorrow)
}

/// The condition that keeps one owner's clients (`?{n}` binds the owner when there is one).
fn owner_condition(owner: &OwnerFilter, n: usize) -> String {
    match owner {
        OwnerFilter::User(_) => format!("owner_id = ?{n}"),
        OwnerFilter::Unassigned => "owner_id IS NULL".to_owned(),
    }
}

/// The owner's id to bind, none for the unassigned.
fn owner_value(owner: &OwnerFilter) -> Option<String> {
    match owner {
        OwnerFilter::User(user_id) => Some(user_id.as_str().to_owned()),
        OwnerFilter::Unassigned => None,
    }
}

impl Store {
    pub fn dashboard(&self) -> Result<Dashboard> {
        self.dashboard_for(None)
    }

    /// The dashboard of one owner's clients ("Mine", or a coordinator's): the cards count
    /// their clients by their latest records, the lists hold theirs only, each read along
    /// an index that starts with the owner. Without an owner, the agency's.
    pub fn dashboard_for(&self, owner: Option<&OwnerFilter>) -> Result<Dashboard> {
        let Some(owner) = owner else {
            return self.agency_dashboard();
        };
        self.snapshot(|| {
            let clock = self.clock()?;
            let value = owner_value(owner);
            let mine = owner_condition(owner, 1);
            let bound: Vec<&dyn rusqlite::ToSql> = match &value {
                Some(value) => vec![value as &dyn rusqlite::ToSql],
                None => Vec::new(),
            };
            let counts = super::query_row(
                self.conn(),
                &format!(
                    "SELECT
                        count(*) FILTER (WHERE stage = 'intake'),
                        count(*) FILTER (WHERE latest_assessment_status = 'draft'),
                        count(*) FILTER (WHERE latest_care_plan_status IN ('draft', 'sent', 'approved')),
                        count(*) FILTER (WHERE latest_contract_status = 'sent')
                     FROM intakes WHERE {mine} AND deleted_at IS NULL AND archived = 0"
                ),
                bound.as_slice(),
                |row| {
                    Ok(DashboardCounts {
                        new_intakes: row.get(0)?,
                        pending_assessments: row.get(1)?,
                        active_care_plans: row.get(2)?,
                        awaiting_signatures: row.get(3)?,
                    })
                },
            )?;
            let (today, tomorrow) = today_window(&clock);
            let (today, tomorrow) = (ts(today), ts(tomorrow));
            let mut values = bound.clone();
            values.push(&today);
            values.push(&tomorrow);
            let n = values.len();
            let follow_ups_due_today_count: i64 = super::query_row(
                self.conn(),
                &format!(
                    "SELECT count(*) FROM intakes INDEXED BY intakes_owner_follow_up
                     WHERE {mine} AND deleted_at IS NULL AND archived = 0
                       AND next_follow_up_date IS NOT NULL
                       AND next_follow_up_date >= ?{} AND next_follow_up_date < ?{n}",
                    n - 1
                ),
                values.as_slice(),
                |row| row.get(0),
            )?;
            let first = self.follow_ups_due_today_for(Some(owner), None)?;
            let mut statement = self.conn().prepare_cached(&format!(
                "SELECT {BRIEF_COLUMNS} FROM intakes WHERE {mine} AND deleted_at IS NULL
                 ORDER BY created_at DESC, list_seq DESC LIMIT {RECENT_ACTIVITY}"
            ))?;
            let recent_activity = statement
                .query_map(bound.as_slice(), |row| brief_only(row, &clock))?
                .collect::<Result<Vec<_>, _>>()?;
            let stage_alert_days = self.settings()?.workflow.stage_alert_days;
            let cutoff = ts(crate::rules::stage::stage_alert_cutoff(
                clock.now(),
                stage_alert_days,
            ));
            let mut values = bound.clone();
            values.push(&cutoff);
            let n = values.len();
            let alerted = format!(
                "FROM intakes INDEXED BY intakes_owner_stage_alert
                 WHERE {mine} AND deleted_at IS NULL AND archived = 0 AND stage_alert_from < ?{n}"
            );
            let stage_alert_count: i64 = super::query_row(
                self.conn(),
                &format!("SELECT count(*) {alerted}"),
                values.as_slice(),
                |row| row.get(0),
            )?;
            let mut statement = self.conn().prepare_cached(&format!(
                "SELECT {BRIEF_COLUMNS} {alerted}
                 ORDER BY stage_alert_from, list_seq LIMIT {STAGE_ALERT_LIMIT}"
            ))?;
            let stage_alerts = statement
                .query_map(values.as_slice(), |row| brief_only(row, &clock))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Dashboard {
                counts,
                follow_ups_due_today: first.items,
                follow_ups_due_today_count,
                follow_ups_next_cursor: first.next_cursor,
                recent_activity,
                stage_alert_days,
                stage_alerts,
                stage_alert_count,
            })
        })
    }

    fn agency_dashboard(&self) -> Result<Dashboard> {
        self.snapshot(|| {
            let clock = self.clock()?;
            let new_intakes: i64 = super::query_row(
                self.conn(),
                "SELECT coalesce(sum(n), 0) FROM intake_counts WHERE archived = 0 AND stage = 'intake'",
                [],
                |row| row.get(0),
            )?;
            // Each count reads a tally, so it costs the same however large the agency.
            let pending_assessments = self.record_count("assessment", &["draft"])?;
            let active_care_plans = self.record_count("care_plan", &["draft", "sent", "approved"])?;
            let awaiting_signatures = self.record_count("contract", &["sent"])?;
            let (today, tomorrow) = today_window(&clock);
            let follow_ups_due_today_count = self.follow_ups_count(today, tomorrow)?;
            let first = self.follow_ups_due_today(None)?;
            let mut statement = self.conn().prepare_cached(&recent_activity_sql())?;
            let recent_activity = statement
                .query_map([], |row| brief_only(row, &clock))?
                .collect::<Result<Vec<_>, _>>()?;
            let stage_alert_days = self.settings()?.workflow.stage_alert_days;
            let cutoff_moment =
                crate::rules::stage::stage_alert_cutoff(clock.now(), stage_alert_days);
            let stage_alert_count = self.moment_count(Moment::StageAlert, cutoff_moment)?;
            let cutoff = ts(cutoff_moment);
            let mut statement = self.conn().prepare_cached(&stage_alerts_sql())?;
            let stage_alerts = statement
                .query_map([&cutoff], |row| brief_only(row, &clock))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Dashboard {
                counts: DashboardCounts {
                    new_intakes,
                    pending_assessments,
                    active_care_plans,
                    awaiting_signatures,
                },
                follow_ups_due_today: first.items,
                follow_ups_due_today_count,
                follow_ups_next_cursor: first.next_cursor,
                recent_activity,
                stage_alert_days,
                stage_alerts,
                stage_alert_count,
            })
        })
    }

    /// One page of today's follow-ups of active clients (local midnight to the next), earliest first, in
    /// (date, id) order along the index; `cursor` continues after the previous page.
    pub fn follow_ups_due_today(&self, cursor: Option<&str>) -> Result<Page<IntakeBrief>> {
        self.follow_ups_due_today_for(None, cursor)
    }

    /// [`Store::follow_ups_due_today`] of one owner's clients, along
    /// `intakes_owner_follow_up`.
    pub fn follow_ups_due_today_for(
        &self,
        owner: Option<&OwnerFilter>,
        cursor: Option<&str>,
    ) -> Result<Page<IntakeBrief>> {
        let clock = self.clock()?;
        let (today, tomorrow) = today_window(&clock);
        let mut filters = Filters::new("deleted_at IS NULL AND archived = 0");
        match owner {
            None => {}
            Some(OwnerFilter::User(user_id)) => filters.equal("owner_id", Some(user_id.as_str())),
            Some(OwnerFilter::Unassigned) => filters.push("owner_id IS NULL"),
        }
        let (today, tomorrow) = (filters.bind(ts(today)), filters.bind(ts(tomorrow)));
        filters.push(format!(
            "next_follow_up_date >= {today} AND next_follow_up_date < {tomorrow}"
        ));
        // One owner's along their own index, which the planner might not prefer.
        let from = if owner.is_some() {
            "intakes INDEXED BY intakes_owner_follow_up"
        } else {
            "intakes"
        };
        filters
            .page(
                &format!("SELECT {BRIEF_COLUMNS} FROM {from}"),
                Keyset::intakes_ascending("next_follow_up_date"),
                cursor,
                FOLLOW_UPS_PAGE,
            )?
            .read(
                self.conn(),
                |row| brief_only(row, &clock),
                |row| {
                    (
                        row.next_follow_up_date.as_deref().unwrap_or_default(),
                        row.id.as_str(),
                    )
                },
            )
    }
}

#[cfg(test)]
mod tests {
    use super::{recent_activity_sql, stage_alerts_sql};
    use crate::store::Store;

    #[test]
    fn the_dashboard_lists_read_their_index_in_order_without_sorting() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("plan.db")).unwrap();
        let cutoff = "2026-11-20T00:00:00.000Z";
        for (sql, params, index) in [
            (recent_activity_sql(), vec![], "intakes_recent"),
            (
                stage_alerts_sql(),
                vec![&cutoff as &dyn rusqlite::ToSql],
                "intakes_stage_alert",
            ),
        ] {
            let plan = store.explain(&sql, &params).unwrap().join("\n");
            assert!(plan.contains(index), "{plan}");
            // Sorting the ties again is what made the dashboard grow with the agency.
            assert!(!plan.contains("TEMP B-TREE"), "{plan}");
        }
    }
}
