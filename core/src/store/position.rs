//! Keeps each intake's pipeline position (stage, latest records, archived, overdue_at) up
//! to date. Every operation that adds, changes or removes an assessment, care plan or
//! contract calls [`refresh`] in its own transaction.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;
use crate::model::{
    AssessmentId, AssessmentStatus, CarePlanId, CarePlanStatus, ContractId, ContractStatus,
    IntakeId, IntakeStatus,
};
use crate::rules::clock::{AgencyClock, parse_date, parse_timestamp};
use crate::rules::pipeline::{
    PipelineFacts, PipelineStatus, archived_status, derive_status, finished, overdue_at, stage_of,
};
use crate::rules::stage::is_archived;

use super::ts;

struct Latest {
    id: String,
    status: String,
    created_at: String,
}

fn latest(tx: &Connection, table: &str, intake_id: &IntakeId) -> Result<Option<Latest>> {
    // `table` is one of three fixed names below, never input.
    let sql = format!(
        "SELECT id, status, created_at FROM {table}
         WHERE intake_id = ?1 AND deleted_at IS NULL
         ORDER BY created_at DESC, id DESC LIMIT 1"
    );
    Ok(super::query_row(tx, &sql, [intake_id], |row| {
        Ok(Latest {
            id: row.get(0)?,
            status: row.get(1)?,
            created_at: row.get(2)?,
        })
    })
    .optional()?)
}

/// When a client becomes overdue, from the stored follow-up, stage-entered and latest
/// contract status columns (a signed contract: never).
pub(crate) fn stored_overdue_at(
    next_follow_up: Option<&str>,
    stage_entered_at: &str,
    latest_contract_status: Option<&str>,
    clock: &AgencyClock,
) -> Timestamp {
    let entered = parse_timestamp(stage_entered_at).unwrap_or(clock.now());
    let finished = finished(latest_contract_status.and_then(ContractStatus::parse));
    overdue_at(
        next_follow_up.and_then(parse_timestamp),
        entered,
        finished,
        clock,
    )
}

/// Recomputes the position of one intake from its records.
pub(crate) fn refresh(tx: &Connection, intake_id: &IntakeId, clock: &AgencyClock) -> Result<()> {
    let Some((status, created_at, next_follow_up)) = super::query_row(
        tx,
        "SELECT status, created_at, next_follow_up_date FROM intakes WHERE id = ?1",
        [intake_id],
        |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, Option<String>>(2)?,
            ))
        },
    )
    .optional()?
    else {
        return Ok(());
    };
    let assessment = latest(tx, "assessments", intake_id)?;
    let care_plan = latest(tx, "care_plan_proposals", intake_id)?;
    let contract = latest(tx, "contracts", intake_id)?;

    let stage_entered_at = contract
        .as_ref()
        .or(care_plan.as_ref())
        .or(assessment.as_ref())
        .map(|record| record.created_at.clone())
        .unwrap_or_else(|| created_at.clone());
    let statuses: Vec<&str> = [
        Some(status.as_str()),
        assessment.as_ref().map(|a| a.status.as_str()),
        care_plan.as_ref().map(|c| c.status.as_str()),
        contract.as_ref().map(|c| c.status.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let archived = is_archived(&statuses);
    let stage = if contract.is_some() {
        "contract"
    } else if care_plan.is_some() {
        "care_plan"
    } else if assessment.is_some() {
        "assessment"
    } else {
        "intake"
    };
    let overdue = stored_overdue_at(
        next_follow_up.as_deref(),
        &stage_entered_at,
        contract.as_ref().map(|c| c.status.as_str()),
        clock,
    );

    super::exec(
        tx,
        "UPDATE intakes SET stage = ?2, stage_entered_at = ?3, overdue_at = ?4, archived = ?5,
            latest_assessment_id = ?6, latest_assessment_status = ?7, latest_assessment_at = ?8,
            latest_care_plan_id = ?9, latest_care_plan_status = ?10, latest_care_plan_at = ?11,
            latest_contract_id = ?12, latest_contract_status = ?13, latest_contract_at = ?14
         WHERE id = ?1
           -- An unchanged position writes nothing: the row is not rewritten.
           AND (stage IS NOT ?2 OR stage_entered_at IS NOT ?3 OR overdue_at IS NOT ?4
             OR archived IS NOT ?5 OR latest_assessment_id IS NOT ?6
             OR latest_assessment_status IS NOT ?7 OR latest_assessment_at IS NOT ?8
             OR latest_care_plan_id IS NOT ?9 OR latest_care_plan_status IS NOT ?10
             OR latest_care_plan_at IS NOT ?11 OR latest_contract_id IS NOT ?12
             OR latest_contract_status IS NOT ?13 OR latest_contract_at IS NOT ?14)",
        params![
            intake_id,
            stage,
            stage_entered_at,
            ts(overdue),
            archived,
            assessment.as_ref().map(|a| &a.id),
            assessment.as_ref().map(|a| &a.status),
            assessment.as_ref().map(|a| &a.created_at),
            care_plan.as_ref().map(|c| &c.id),
            care_plan.as_ref().map(|c| &c.status),
            care_plan.as_ref().map(|c| &c.created_at),
            contract.as_ref().map(|c| &c.id),
            contract.as_ref().map(|c| &c.status),
            contract.as_ref().map(|c| &c.created_at),
        ],
    )?;
    Ok(())
}

/// Recomputes `overdue_at` for every intake; needed when the agency's time zone changes,
/// because day boundaries move.
pub(crate) fn refresh_all_overdue(tx: &Connection, clock: &AgencyClock) -> Result<usize> {
    // In slices along the rowid, so memory stays flat however many clients there are.
    const SLICE: i64 = 1_000;
    let mut select = tx.prepare_cached(
        "SELECT seq, id, stage_entered_at, next_follow_up_date, latest_contract_status
         FROM intakes WHERE seq > ?1 ORDER BY seq LIMIT +?2",
    )?;
    let mut update = tx.prepare_cached("UPDATE intakes SET overdue_at = ?2 WHERE id = ?1")?;
    // Rowids are positive when SQLite picks them, but a row inserted by hand may not be.
    let (mut after, mut total) = (i64::MIN, 0_usize);
    loop {
        let rows = select
            .query_map(params![after, SLICE], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Option<String>>(3)?,
                    row.get::<_, Option<String>>(4)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let Some(last) = rows.last() else {
            return Ok(total);
        };
        after = last.0;
        total += rows.len();
        for (_, id, entered, follow_up, contract_status) in &rows {
            let overdue = stored_overdue_at(
                follow_up.as_deref(),
                entered,
                contract_status.as_deref(),
                clock,
            );
            update.execute(params![id, ts(overdue)])?;
        }
    }
}

/// The position of one row and the status derived from it.
pub(crate) struct RowPosition {
    pub position: crate::model::PipelinePosition,
    pub pipeline: PipelineStatus,
    pub created_at: String,
}

/// A text column as borrowed text, for values that are only parsed.
pub(crate) fn text<'a>(
    row: &'a rusqlite::Row<'_>,
    index: usize,
) -> rusqlite::Result<Option<&'a str>> {
    row.get_ref(index)?.as_str_or_null().map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(
            index,
            rusqlite::types::Type::Text,
            Box::new(error),
        )
    })
}

/// Reads the position columns (`intakes::position_columns!`) starting at column `start`
/// and derives the status. A list reads this for every row, so what is only parsed is
/// borrowed and the ids are moved into the position, not copied.
pub(crate) fn read_position(
    row: &rusqlite::Row<'_>,
    start: usize,
    intake_id: &IntakeId,
    clock: &AgencyClock,
) -> rusqlite::Result<RowPosition> {
    let created_at: String = row.get(start)?;
    let stage_entered_at: String = row.get(start + 1)?;
    let assessment_id: Option<AssessmentId> = row.get(start + 4)?;
    let assessment_status: Option<AssessmentStatus> = row.get(start + 5)?;
    let care_plan_id: Option<CarePlanId> = row.get(start + 6)?;
    let care_plan_status: Option<CarePlanStatus> = row.get(start + 7)?;
    let contract_id: Option<ContractId> = row.get(start + 8)?;
    let contract_status: Option<ContractStatus> = row.get(start + 9)?;
    let archived: bool = row.get(start + 10)?;
    let status: IntakeStatus = row.get(start + 12)?;

    let now = clock.now();
    let facts = PipelineFacts {
        intake_id,
        created_at: parse_timestamp(&created_at).unwrap_or(now),
        stage_entered_at: parse_timestamp(&stage_entered_at).unwrap_or(now),
        next_follow_up_at: text(row, start + 2)?.and_then(parse_timestamp),
        assessment_scheduled_date: text(row, start + 3)?.and_then(parse_date),
        assessment: assessment_id.as_ref().zip(assessment_status),
        care_plan: care_plan_id.as_ref().zip(care_plan_status),
        contract: contract_id.as_ref().zip(contract_status),
    };
    let mut pipeline = derive_status(&facts, clock);
    if archived {
        pipeline = archived_status(intake_id, status, pipeline.days_in_stage);
    }
    let stage = stage_of(&facts);
    Ok(RowPosition {
        position: crate::model::PipelinePosition {
            stage,
            stage_entered_at,
            archived,
            latest_assessment_id: assessment_id,
            latest_assessment_status: assessment_status,
            latest_care_plan_id: care_plan_id,
            latest_care_plan_status: care_plan_status,
            latest_contract_id: contract_id,
            latest_contract_status: contract_status,
        },
        pipeline,
        created_at,
    })
}

/// The first moment at which a client is past `days` whole days in its stage.
pub(crate) fn stage_cut(clock: &AgencyClock, days: i64) -> Timestamp {
    clock.start_of_days_ago(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Migration 13 names the stored form of "never overdue" in SQL; it must be the one
    /// the rule writes.
    #[test]
    fn the_migration_names_the_never_overdue_moment_the_rule_writes() {
        let migration = include_str!("migrations/0013_finished_clients.sql");
        let never = ts(crate::rules::pipeline::NEVER_OVERDUE);
        assert_eq!(never.len(), "2026-11-22T15:00:00.000Z".len());
        assert_eq!(migration.matches(&format!("'{never}'")).count(), 2);
    }
}
