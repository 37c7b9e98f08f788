//! The dashboard (counts, follow-ups due today, recent activity) and analytics.

use rusqlite::params;
use serde::Serialize;

use super::intakes::{SEARCH_LIMIT, SUMMARY_COLUMNS, next_cursor, summary_from_row};
use super::{Page, Store, decode_cursor, encode_cursor, ts};
use crate::error::Result;
use crate::model::IntakeSummary;
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
    pub follow_ups_due_today: Vec<IntakeSummary>,
    /// How many follow-ups are due today in all (the panel's "(n)").
    pub follow_ups_due_today_count: i64,
    /// Pass to `GET /api/dashboard/follow-ups` for the next page; None when this is all.
    pub follow_ups_next_cursor: Option<String>,
    pub recent_activity: Vec<IntakeSummary>,
}

/// One step of the funnel.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FunnelStage {
    pub stage: String,
    pub label: String,
    /// Clients that reached this step.
    pub count: i64,
    /// Share of the previous step's clients that reached this one (0–100).
    pub conversion_percent: Option<f64>,
    /// Median whole days from entering the previous step to reaching this one.
    pub median_days: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SourceCount {
    pub source: String,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeekCount {
    /// The Monday the week starts on.
    pub week_start: String,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Analytics {
    pub funnel: Vec<FunnelStage>,
    pub leads_by_source: Vec<SourceCount>,
    pub intakes_per_week: Vec<WeekCount>,
}

const RECENT_ACTIVITY: u32 = SEARCH_LIMIT;

/// Follow-ups due today per page.
pub const FOLLOW_UPS_PAGE: u32 = 20;

/// Today in the agency's time zone, as the moments it starts and ends.
fn today_window(clock: &AgencyClock) -> (jiff::Timestamp, jiff::Timestamp) {
    let today = clock.start_of_today();
    let tomorrow = clock.start_of_day(clock.today().tomorrow().unwrap_or(clock.today()));
    (today, tomorrow)
}

impl Store {
    pub fn dashboard(&self) -> Result<Dashboard> {
        let clock = self.clock()?;
        let new_intakes: i64 = super::query_row(
            self.conn(),
            "SELECT coalesce(sum(n), 0) FROM intake_counts WHERE archived = 0 AND stage = 'intake'",
            [],
            |row| row.get(0),
        )?;
        let pending_assessments = self.record_count("assessment", &["draft"])?;
        let active_care_plans = self.record_count("care_plan", &["draft", "sent", "approved"])?;
        let awaiting_signatures = self.record_count("contract", &["sent"])?;
        let (today, tomorrow) = today_window(&clock);
        let follow_ups_due_today_count = self.follow_ups_count(today, tomorrow)?;
        let first = self.follow_ups_due_today(None)?;
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM intakes WHERE deleted_at IS NULL
             ORDER BY created_at DESC, id DESC LIMIT {RECENT_ACTIVITY}"
        ))?;
        let recent_activity = statement
            .query_map([], |row| summary_from_row(row, &clock))?
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
        })
    }

    /// One page of today's follow-ups (local midnight to the next), earliest first, in
    /// (date, id) order along the index; `cursor` continues after the previous page.
    pub fn follow_ups_due_today(&self, cursor: Option<&str>) -> Result<Page<IntakeSummary>> {
        let clock = self.clock()?;
        let (today, tomorrow) = today_window(&clock);
        let (after_date, after_id) = match cursor {
            Some(cursor) => {
                let mut parts = decode_cursor(cursor, 2)?;
                let id = parts.pop().unwrap_or_default();
                (parts.pop().unwrap_or_default(), id)
            }
            None => (String::new(), String::new()),
        };
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM intakes
             WHERE deleted_at IS NULL AND next_follow_up_date >= ?1 AND next_follow_up_date < ?2
               AND (next_follow_up_date, id) > (?3, ?4)
             ORDER BY next_follow_up_date, id LIMIT {}",
            FOLLOW_UPS_PAGE + 1
        ))?;
        let mut items = statement
            .query_map(
                params![ts(today), ts(tomorrow), after_date, after_id],
                |row| summary_from_row(row, &clock),
            )?
            .collect::<Result<Vec<_>, _>>()?;
        let next_cursor = next_cursor(&mut items, FOLLOW_UPS_PAGE, |row| {
            encode_cursor(&[
                row.next_follow_up_date.as_deref().unwrap_or_default(),
                row.id.as_str(),
            ])
        });
        Ok(Page { items, next_cursor })
    }

    /// Funnel counts and conversion, median days between steps, leads by source and new
    /// intakes for each of the last 12 weeks.
    pub fn analytics(&self) -> Result<Analytics> {
        let clock = self.clock()?;
        // (stage, label, SQL condition for "reached", span measured from → to)
        type Step<'a> = (&'a str, &'a str, &'a str, Option<(&'a str, &'a str)>);
        let steps: [Step<'_>; 5] = [
            ("intake", "Intake", "1", None),
            (
                "assessment",
                "Assessment",
                "latest_assessment_at IS NOT NULL",
                Some(("created_at", "latest_assessment_at")),
            ),
            (
                "care_plan",
                "Care Plan",
                "latest_care_plan_at IS NOT NULL",
                Some(("latest_assessment_at", "latest_care_plan_at")),
            ),
            (
                "contract",
                "Contract",
                "latest_contract_at IS NOT NULL",
                Some(("latest_care_plan_at", "latest_contract_at")),
            ),
            (
                "signed",
                "Active Patient",
                "latest_contract_status = 'signed'",
                None,
            ),
        ];
        let mut funnel: Vec<FunnelStage> = Vec::new();
        for (stage, label, condition, span) in steps {
            let count: i64 = super::query_row(
                self.conn(),
                &format!("SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND {condition}"),
                [],
                |row| row.get(0),
            )?;
            let median_days = match span {
                Some((from, to)) => self.median_days(from, to, condition)?,
                None => None,
            };
            let conversion_percent = funnel.last().and_then(|previous| {
                (previous.count > 0)
                    .then(|| ((count as f64 / previous.count as f64) * 1000.0).round() / 10.0)
            });
            funnel.push(FunnelStage {
                stage: stage.to_owned(),
                label: label.to_owned(),
                count,
                conversion_percent,
                median_days,
            });
        }
        let mut statement = self.conn().prepare_cached(
            "SELECT coalesce(referral_source, 'Not recorded'), count(*) FROM intakes
             WHERE deleted_at IS NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20",
        )?;
        let leads_by_source = statement
            .query_map([], |row| {
                Ok(SourceCount {
                    source: row.get(0)?,
                    count: row.get(1)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let today = clock.today();
        let monday = today
            .checked_sub(jiff::Span::new().days(i64::from(today.weekday().to_monday_zero_offset())))
            .unwrap_or(today);
        let mut intakes_per_week = Vec::new();
        for weeks_back in (0..12).rev() {
            let start = monday
                .checked_sub(jiff::Span::new().weeks(weeks_back))
                .unwrap_or(monday);
            let end = start
                .checked_add(jiff::Span::new().weeks(1))
                .unwrap_or(start);
            let count: i64 = super::query_row(
                self.conn(),
                "SELECT count(*) FROM intakes WHERE deleted_at IS NULL AND created_at >= ?1 AND created_at < ?2",
                params![ts(clock.start_of_day(start)), ts(clock.start_of_day(end))],
                |row| row.get(0),
            )?;
            intakes_per_week.push(WeekCount {
                week_start: start.to_string(),
                count,
            });
        }
        Ok(Analytics {
            funnel,
            leads_by_source,
            intakes_per_week,
        })
    }

    fn median_days(&self, from: &str, to: &str, condition: &str) -> Result<Option<f64>> {
        // Column names come from the fixed table above, never from input.
        let sql = format!(
            "WITH spans AS (
                SELECT julianday({to}) - julianday({from}) AS days FROM intakes
                WHERE deleted_at IS NULL AND {condition} AND {from} IS NOT NULL
             )
             SELECT avg(days) FROM (
                SELECT days FROM spans ORDER BY days
                LIMIT 2 - (SELECT count(*) FROM spans) % 2
                OFFSET ((SELECT count(*) FROM spans) - 1) / 2
             )"
        );
        let median: Option<f64> = super::query_row(self.conn(), &sql, [], |row| row.get(0))?;
        Ok(median.map(|days| (days.max(0.0) * 10.0).round() / 10.0))
    }
}
