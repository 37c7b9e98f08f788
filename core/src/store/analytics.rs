//! Analytics for a date range: the funnel with conversion and drop-off, days from intake
//! to each later step (median and 90th percentile), leads and signed contracts by
//! referral source, new intakes per week, speed to lead with the clients still waiting
//! for a first contact, and declined reasons. The range picks a cohort: the clients whose
//! intake was created in it; every figure is about that cohort.

use jiff::civil::Date;
use jiff::{Span, Timestamp};
use rusqlite::params;
use serde::Serialize;

use super::{Store, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::ARCHIVED_STATUSES;
use crate::rules::analytics::{
    DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, conversion_percent, median, percentile_90, round1,
    status_label,
};
use crate::rules::clock::{parse_date, parse_timestamp};

/// At most this many clients waiting for a first contact are listed (the count covers all).
pub const WAITING_LIMIT: usize = 50;

/// The dates a report covers, both included, in the agency's time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalyticsRange {
    pub from: Date,
    pub to: Date,
}

impl AnalyticsRange {
    /// The range from the query's `from` and `to` (`YYYY-MM-DD`, both optional): by default
    /// the last 90 days up to today. Refuses unreadable dates, `from` after `to` and
    /// ranges over about three years.
    pub fn parse(from: Option<&str>, to: Option<&str>, today: Date) -> Result<Self> {
        let mut errors = ValidationErrors::new();
        let mut read = |field: &str, text: Option<&str>| match text.map(str::trim) {
            None | Some("") => None,
            Some(text) => {
                let date = parse_date(text);
                if date.is_none() {
                    errors.add(field, "Enter a date as YYYY-MM-DD");
                }
                date
            }
        };
        let to_date = read("to", to);
        let from_date = read("from", from);
        errors.into_result()?;
        let to = to_date.unwrap_or(today);
        let from = from_date.unwrap_or_else(|| {
            to.checked_sub(Span::new().days(DEFAULT_RANGE_DAYS - 1))
                .unwrap_or(to)
        });
        if from > to {
            return Err(Error::Validation(ValidationErrors::single(
                "from",
                "The start date must be on or before the end date",
            )));
        }
        if crate::rules::clock::days_between(from, to) > MAX_RANGE_DAYS {
            return Err(Error::Validation(ValidationErrors::single(
                "from",
                "Choose a range of at most three years",
            )));
        }
        Ok(Self { from, to })
    }
}

/// One step of the funnel.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FunnelStage {
    /// `intake`, `assessment`, `care_plan`, `contract` or `signed`.
    pub stage: String,
    pub label: String,
    /// Clients of the range that reached this step.
    pub count: i64,
    /// Share of the previous step's clients that reached this one (0–100, one decimal);
    /// None for the first step or when the previous step had no one.
    pub conversion_percent: Option<f64>,
    /// Clients of the previous step that did not reach this one (0 for the first step).
    pub drop_off: i64,
}

/// Days from intake to one later step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DurationStat {
    /// `assessment`, `proposal` or `signed`.
    pub step: String,
    pub label: String,
    /// Clients of the range that reached the step.
    pub clients: i64,
    /// Median days, one decimal.
    pub median_days: Option<f64>,
    /// 90th percentile days (nearest rank), one decimal.
    pub p90_days: Option<f64>,
}

/// Leads and signed contracts of one referral source.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SourceStat {
    pub source: String,
    pub leads: i64,
    pub signed: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeekCount {
    /// The Monday the week starts on.
    pub week_start: String,
    pub count: i64,
}

/// A client of the range with no outbound email, SMS or call yet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaitingClient {
    pub intake_id: String,
    pub client_name: String,
    pub created_at: String,
    /// Hours since the intake was created, one decimal.
    pub hours_waiting: f64,
}

/// Time from an intake's creation to its first outbound email, SMS or call (failed
/// sends do not count: the family heard nothing).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpeedToLead {
    /// Clients of the range contacted at least once.
    pub contacted: i64,
    pub median_hours: Option<f64>,
    pub p90_hours: Option<f64>,
    /// Clients of the range (not archived) still waiting for a first contact.
    pub waiting_count: i64,
    /// The longest-waiting of them, at most 50.
    pub waiting: Vec<WaitingClient>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReasonCount {
    pub reason: String,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Analytics {
    /// First day of the range (`YYYY-MM-DD`).
    pub from: String,
    /// Last day of the range, included.
    pub to: String,
    pub funnel: Vec<FunnelStage>,
    pub durations: Vec<DurationStat>,
    pub sources: Vec<SourceStat>,
    pub intakes_per_week: Vec<WeekCount>,
    pub speed_to_lead: SpeedToLead,
    /// Archived (declined-type) clients of the range by reason.
    pub declined_reasons: Vec<ReasonCount>,
}

/// The cohort's figures as the rows go by: counts, and the durations the medians are
/// taken from. The rows are read once and never kept.
#[derive(Default)]
struct Tally {
    clients: i64,
    /// Clients that reached assessment, care plan, contract and signed.
    reached: [i64; 4],
    to_assessment: Vec<f64>,
    to_proposal: Vec<f64>,
    to_signed: Vec<f64>,
    contact_hours: Vec<f64>,
    sources: Vec<SourceStat>,
    /// New intakes per week of `week_starts`.
    per_week: Vec<i64>,
    waiting_count: i64,
    /// Archived clients per declined-type status.
    declined: Vec<(String, i64)>,
}

fn moment(text: &str) -> Option<Timestamp> {
    parse_timestamp(text)
}

fn duration_stat(step: &str, label: &str, values: &[f64]) -> DurationStat {
    DurationStat {
        step: step.to_owned(),
        label: label.to_owned(),
        clients: values.len() as i64,
        median_days: median(values).map(round1),
        p90_days: percentile_90(values).map(round1),
    }
}

fn monday_of(date: Date) -> Date {
    date.checked_sub(Span::new().days(i64::from(date.weekday().to_monday_zero_offset())))
        .unwrap_or(date)
}

impl Store {
    /// The analytics of the clients whose intake was created in `range`, read in one
    /// snapshot: the waiting list agrees with the counts beside it.
    pub fn analytics(&self, range: AnalyticsRange) -> Result<Analytics> {
        self.snapshot(|| self.read_analytics(range))
    }

    fn read_analytics(&self, range: AnalyticsRange) -> Result<Analytics> {
        let clock = self.clock()?;
        let (start, end) = (
            clock.start_of_day(range.from),
            clock.start_of_day(range.to.tomorrow().unwrap_or(range.to)),
        );
        let now = clock.now();

        // The weeks the range touches, each from its Monday; a creation moment falls in
        // the last week that starts at or before it (the range ends before the next).
        let mut weeks: Vec<Date> = Vec::new();
        let mut week = monday_of(range.from);
        while week <= range.to {
            weeks.push(week);
            match week.checked_add(Span::new().weeks(1)) {
                Ok(next) => week = next,
                Err(_) => break,
            }
        }
        let week_starts: Vec<i64> = weeks
            .iter()
            .map(|monday| clock.start_of_day(*monday).as_second())
            .collect();

        let mut tally = Tally {
            per_week: vec![0; weeks.len()],
            ..Tally::default()
        };
        self.analytics_cohort(start, end, &week_starts, &mut tally)?;
        let Tally {
            clients,
            reached,
            to_assessment,
            to_proposal,
            to_signed,
            contact_hours,
            mut sources,
            per_week,
            waiting_count,
            declined,
        } = tally;

        let steps: [(&str, &str, i64); 5] = [
            ("intake", "Intake", clients),
            ("assessment", "Assessment", reached[0]),
            ("care_plan", "Care Plan", reached[1]),
            ("contract", "Contract", reached[2]),
            ("signed", "Signed", reached[3]),
        ];
        let mut funnel: Vec<FunnelStage> = Vec::new();
        for (stage, label, count) in steps {
            let previous = funnel.last().map(|step| step.count);
            funnel.push(FunnelStage {
                stage: stage.to_owned(),
                label: label.to_owned(),
                count,
                conversion_percent: previous
                    .and_then(|previous| conversion_percent(count, previous)),
                drop_off: previous
                    .map(|previous| (previous - count).max(0))
                    .unwrap_or(0),
            });
        }

        let durations = vec![
            duration_stat("assessment", "Intake to assessment", &to_assessment),
            duration_stat("proposal", "Intake to proposal sent", &to_proposal),
            duration_stat("signed", "Intake to signed contract", &to_signed),
        ];

        sources.sort_by(|a, b| b.leads.cmp(&a.leads).then_with(|| a.source.cmp(&b.source)));

        let intakes_per_week = weeks
            .iter()
            .zip(per_week)
            .map(|(start, count)| WeekCount {
                week_start: start.to_string(),
                count,
            })
            .collect();

        let waiting = self.analytics_waiting(start, end, now)?;
        let speed_to_lead = SpeedToLead {
            contacted: contact_hours.len() as i64,
            median_hours: median(&contact_hours).map(round1),
            p90_hours: percentile_90(&contact_hours).map(round1),
            waiting_count,
            waiting,
        };

        let mut declined_reasons: Vec<ReasonCount> = declined
            .into_iter()
            .map(|(status, count)| ReasonCount {
                reason: status_label(&status),
                count,
            })
            .collect();
        declined_reasons
            .sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.reason.cmp(&b.reason)));

        Ok(Analytics {
            from: range.from.to_string(),
            to: range.to.to_string(),
            funnel,
            durations,
            sources,
            intakes_per_week,
            speed_to_lead,
            declined_reasons,
        })
    }

    /// Adds to `tally` each client whose intake was created in `[start, end)`, from the
    /// `intakes_cohort` index alone (migration 24, whose expressions the query names as
    /// written there): the first moment it reached each step is kept on the intake row
    /// (migration 22). Deleted intakes and deleted records do not count. `week_starts` are
    /// the weeks' first moments, in Unix seconds.
    fn analytics_cohort(
        &self,
        start: Timestamp,
        end: Timestamp,
        week_starts: &[i64],
        tally: &mut Tally,
    ) -> Result<()> {
        let mut statement = self.conn().prepare_cached(&cohort_sql())?;
        let mut rows = statement.query(params![ts(start), ts(end)])?;
        while let Some(row) = rows.next()? {
            let created: Option<i64> = row.get(0)?;
            // Days from the intake to a step; a step recorded before its intake counts as 0.
            let days = |at: Option<i64>| Some((at? - created?).max(0) as f64 / 86_400.0);
            let source = row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?;
            let archived: bool = row.get(2)?;
            let to_assessment = days(row.get(3)?);
            let care_plan: bool = row.get(4)?;
            let to_proposal = days(row.get(5)?);
            let contract: bool = row.get(6)?;
            let to_signed = days(row.get(7)?);
            let to_contact = days(row.get(8)?);

            tally.clients += 1;
            let steps = [
                to_assessment.is_some(),
                care_plan,
                contract,
                to_signed.is_some(),
            ];
            for (count, reached) in tally.reached.iter_mut().zip(steps) {
                *count += i64::from(reached);
            }
            tally.to_assessment.extend(to_assessment);
            tally.to_proposal.extend(to_proposal);
            tally.to_signed.extend(to_signed);
            tally
                .contact_hours
                .extend(to_contact.map(|days| days * 24.0));

            let signed = i64::from(to_signed.is_some());
            match tally.sources.iter_mut().find(|s| s.source == source) {
                Some(stat) => {
                    stat.leads += 1;
                    stat.signed += signed;
                }
                None => tally.sources.push(SourceStat {
                    source: source.to_owned(),
                    leads: 1,
                    signed,
                }),
            }

            if let Some(created) = created
                && let Some(week) = week_starts
                    .partition_point(|start| *start <= created)
                    .checked_sub(1)
            {
                tally.per_week[week] += 1;
            }

            tally.waiting_count += i64::from(to_contact.is_none() && !archived);

            if let Some(status) = row
                .get_ref(9)?
                .as_str_or_null()
                .map_err(rusqlite::Error::from)?
            {
                match tally.declined.iter_mut().find(|(known, _)| known == status) {
                    Some((_, count)) => *count += 1,
                    None => tally.declined.push((status.to_owned(), 1)),
                }
            }
        }
        Ok(())
    }

    /// The longest-waiting clients of `[start, end)` with no first contact yet (not
    /// archived), at most `WAITING_LIMIT`: the index finds them in creation order, and only
    /// their rows are read for the name.
    fn analytics_waiting(
        &self,
        start: Timestamp,
        end: Timestamp,
        now: Timestamp,
    ) -> Result<Vec<WaitingClient>> {
        let mut statement = self.conn().prepare_cached(WAITING_SQL)?;
        let rows =
            statement.query_map(params![ts(start), ts(end), WAITING_LIMIT as i64], |row| {
                let created_at: String = row.get(2)?;
                let hours_waiting = moment(&created_at)
                    .map(|at| round1((now.as_second() - at.as_second()).max(0) as f64 / 3600.0))
                    .unwrap_or(0.0);
                Ok(WaitingClient {
                    intake_id: row.get(0)?,
                    client_name: row.get(1)?,
                    created_at,
                    hours_waiting,
                })
            })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// The clients of the range (`?1` to `?2`) with no first contact yet, not archived, the
/// longest-waiting first, at most `?3`. The filter is read from the index; only the rows
/// listed are read, for the name.
const WAITING_SQL: &str = "SELECT i.id, i.client_full_name, i.created_at
     FROM intakes i INDEXED BY intakes_cohort
     WHERE i.deleted_at IS NULL AND i.created_at >= ?1 AND i.created_at < ?2
       AND unixepoch(i.first_contact_at) IS NULL AND NOT i.archived
     ORDER BY i.created_at, i.list_seq
     LIMIT +?3";

/// One row per client of the range (`?1` to `?2`): the columns `analytics_cohort` reads.
fn cohort_sql() -> String {
    let declined_list = declined_list();
    // The declined list is the model's constant, never input. Named, the index is
    // used even where the planner, without statistics, would read the rows instead.
    format!(
        "SELECT unixepoch(i.created_at),
                coalesce(nullif(trim(i.referral_source), ''), 'Not recorded'), i.archived,
                unixepoch(i.first_assessment_at),
                i.first_care_plan_at IS NOT NULL,
                unixepoch(i.first_proposal_sent_at),
                i.first_contract_at IS NOT NULL,
                unixepoch(i.first_signed_at),
                unixepoch(i.first_contact_at),
                CASE WHEN i.archived THEN CASE
                  WHEN i.status IN ({declined_list}) THEN i.status
                  WHEN i.latest_assessment_status IN ({declined_list}) THEN i.latest_assessment_status
                  WHEN i.latest_care_plan_status IN ({declined_list}) THEN i.latest_care_plan_status
                  WHEN i.latest_contract_status IN ({declined_list}) THEN i.latest_contract_status
                END END
         FROM intakes i INDEXED BY intakes_cohort
         WHERE i.deleted_at IS NULL AND i.created_at >= ?1 AND i.created_at < ?2"
    )
}

/// The archived statuses as an SQL list of literals.
fn declined_list() -> String {
    ARCHIVED_STATUSES
        .iter()
        .map(|status| format!("'{status}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursors `sql`'s program reads values from, and which of them are indexes.
    fn cursors_read(store: &Store, sql: &str) -> (Vec<i64>, Vec<i64>) {
        let mut statement = store.conn().prepare(&format!("EXPLAIN {sql}")).unwrap();
        let mut rows = statement.query(params!["a", "b"]).unwrap();
        let (mut read, mut indexes) = (Vec::new(), Vec::new());
        while let Some(row) = rows.next().unwrap() {
            let opcode: String = row.get(1).unwrap();
            let cursor: i64 = row.get(2).unwrap();
            let p4: Option<String> = row.get(5).unwrap();
            match opcode.as_str() {
                // An index's cursor is opened with its key's description, `k(…)`.
                "OpenRead" if p4.is_some_and(|key| key.starts_with("k(")) => indexes.push(cursor),
                "Column" | "Rowid" => read.push(cursor),
                _ => {}
            }
        }
        (read, indexes)
    }

    /// The report reads the index alone: a query whose expressions differed from the
    /// index's by a character would read each client's row as well, a 90-day report at
    /// 100,000 clients five times slower. SQLite opens the table but seeks in it only when
    /// a value must come from there.
    #[test]
    fn the_report_reads_its_index_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("analytics.db")).unwrap();
        let plan = store
            .explain(&cohort_sql(), &[&"a", &"b"])
            .unwrap()
            .join("\n");
        assert!(
            plan.contains("USING INDEX intakes_cohort (created_at>? AND created_at<?)")
                || plan.contains("USING COVERING INDEX intakes_cohort (created_at>? AND"),
            "{plan}"
        );
        let (read, indexes) = cursors_read(&store, &cohort_sql());
        assert!(
            !read.is_empty() && read.iter().all(|cursor| indexes.contains(cursor)),
            "{read:?} {indexes:?}"
        );

        // The waiting list reads rows for the clients it lists, filtered by the index.
        let plan = store
            .explain(WAITING_SQL, &[&"a", &"b", &50])
            .unwrap()
            .join("\n");
        assert!(
            plan.contains("USING INDEX intakes_cohort (created_at>? AND created_at<?)")
                && !plan.contains("TEMP B-TREE"),
            "{plan}"
        );
    }
}
