//! Assessments: save as draft or completed, pre-fill from an intake, list with stats,
//! soft delete and restore, and generating the care plan.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::intakes::string_list;
use super::log_event;
use super::paging::{Filters, Keyset, Page, like_filter, page_limit};
use super::trash::Trashable;
use super::{Store, audit, position, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, Assessment, AssessmentForm, AssessmentId, AssessmentStatus, CarePlan, CarePlanId,
    IntakeId, IntakeStatus, Parents,
};
use crate::rules::clock::{AgencyClock, age_in_years, parse_date, parse_timestamp};
use crate::rules::events::PipelineEvent;
use crate::rules::transitions::{check_assessment_transition, check_intake_transition};
use crate::rules::validation::{
    prefill_assessment_from_intake, prepare_assessment_draft, validate_assessment_complete,
};

/// What a save names: an existing assessment and the version read, or the intake a new
/// one comes from.
#[derive(Debug, Clone)]
pub struct AssessmentSave {
    pub existing: Option<(AssessmentId, i64)>,
    pub intake_id: Option<IntakeId>,
    pub form: AssessmentForm,
    /// Save Assessment (true) or Save as Draft (false).
    pub complete: bool,
}

/// The four stat cards, each also a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AssessmentFilter {
    Draft,
    Completed,
    CarePlanGenerated,
}

#[derive(Debug, Clone, Default)]
pub struct AssessmentQuery {
    pub filter: Option<AssessmentFilter>,
    pub search: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssessmentStats {
    pub pending: i64,
    pub completed: i64,
    pub care_plans_generated: i64,
    pub total: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssessmentPage {
    #[serde(flatten)]
    pub page: Page<Assessment>,
    pub stats: AssessmentStats,
}

const COLUMNS: &str = "a.id, a.version, a.intake_id, a.status, a.assessment_date, a.client_name, \
    a.coordinator_name, a.recommended_services, a.recommended_hours, a.preferred_days, \
    a.form_data, a.created_at, a.updated_at, a.deleted_at, i.date_of_birth, \
    (SELECT cp.id FROM care_plan_proposals cp WHERE cp.assessment_id = a.id AND cp.deleted_at IS NULL ORDER BY cp.created_at DESC LIMIT 1), \
    (SELECT cp.status FROM care_plan_proposals cp WHERE cp.assessment_id = a.id AND cp.deleted_at IS NULL ORDER BY cp.created_at DESC LIMIT 1)";

fn from_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<Assessment> {
    let form_data: String = row.get(10)?;
    let created_at: String = row.get(11)?;
    let date_of_birth: Option<String> = row.get(14)?;
    let form: AssessmentForm = serde_json::from_str(&form_data).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(10, rusqlite::types::Type::Text, Box::new(e))
    })?;
    let date_of_birth =
        date_of_birth.or_else(|| parse_date(&form.date_of_birth).map(|d| d.to_string()));
    Ok(Assessment {
        id: row.get(0)?,
        version: row.get(1)?,
        intake_id: row.get(2)?,
        status: row.get(3)?,
        assessment_date: row.get(4)?,
        client_name: row.get(5)?,
        coordinator_name: row.get(6)?,
        recommended_services: string_list(&row.get::<_, String>(7)?),
        recommended_hours: row.get(8)?,
        preferred_days: string_list(&row.get::<_, String>(9)?),
        age: date_of_birth
            .as_deref()
            .and_then(parse_date)
            .and_then(|dob| age_in_years(dob, clock.today())),
        date_of_birth,
        days_in_stage: parse_timestamp(&created_at)
            .map(|t| clock.days_since(t).max(0))
            .unwrap_or(0),
        care_plan_id: row.get(15)?,
        care_plan_status: row.get(16)?,
        created_at,
        updated_at: row.get(12)?,
        deleted_at: row.get(13)?,
        form,
    })
}

impl Store {
    /// A new assessment form filled from an intake.
    pub fn assessment_prefill(&self, intake_id: &IntakeId) -> Result<AssessmentForm> {
        let clock = self.clock()?;
        let intake = self.get_intake(intake_id)?;
        Ok(prefill_assessment_from_intake(&intake.form, &clock))
    }

    /// Save Assessment or Save as Draft. Completing an assessment that came from an
    /// intake sets the intake to assessment_completed with the assessment date.
    pub fn save_assessment(&mut self, actor: &Actor, save: AssessmentSave) -> Result<Assessment> {
        let clock = self.clock()?;
        let target = if save.complete {
            AssessmentStatus::Completed
        } else {
            AssessmentStatus::Draft
        };
        let mut form = save.form.trimmed();
        if !save.complete {
            crate::rules::validation::check_text_bounds(&form)?;
            form = prepare_assessment_draft(form);
        }
        let existing = save.existing.clone();
        let outcome = self.write(|tx| {
            // Saving again an assessment that is already completed is not a move.
            let mut completed_now = save.complete;
            let id = match &existing {
                None => {
                    if save.complete {
                        validate_assessment_complete(&form, None, &clock)?;
                    }
                    if let Some(intake_id) = &save.intake_id {
                        ensure_intake(tx, intake_id)?;
                    }
                    let id = AssessmentId::new();
                    insert(tx, &clock, &id, save.intake_id.as_ref(), &form, target)?;
                    audit(
                        tx,
                        actor,
                        clock.now(),
                        if save.complete {
                            "create"
                        } else {
                            "create_draft"
                        },
                        "assessment",
                        id.as_str(),
                        save.intake_id.as_ref().map(|i| i.as_str()),
                        &[],
                    )?;
                    id
                }
                Some((id, version)) => {
                    let stored = load_stored(tx, id)?;
                    check_assessment_transition(stored.status, target)?;
                    completed_now &= stored.status != AssessmentStatus::Completed;
                    if save.complete {
                        validate_assessment_complete(&form, Some(&stored.form), &clock)?;
                    }
                    if stored.version != *version {
                        return Ok(Err(id.clone()));
                    }
                    update(tx, &clock, id, *version, &form, target)?;
                    let changed = super::intakes::changed_fields(&stored.form, &form);
                    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
                    audit(
                        tx,
                        actor,
                        clock.now(),
                        if save.complete {
                            "update"
                        } else {
                            "update_draft"
                        },
                        "assessment",
                        id.as_str(),
                        stored.intake_id.as_ref().map(|i| i.as_str()),
                        &changed,
                    )?;
                    id.clone()
                }
            };
            let intake_id: Option<IntakeId> = super::query_row(
                tx,
                "SELECT intake_id FROM assessments WHERE id = ?1",
                [&id],
                |row| row.get(0),
            )?;
            if let Some(intake_id) = &intake_id {
                if save.complete {
                    complete_intake(tx, actor, &clock, intake_id, &form)?;
                }
                position::refresh(tx, intake_id, &clock)?;
            }
            if completed_now {
                let parents = Parents {
                    intake_id: intake_id.clone(),
                    assessment_id: Some(id.clone()),
                    ..Parents::default()
                };
                log_event(
                    tx,
                    actor,
                    clock.now(),
                    &parents,
                    PipelineEvent::AssessmentCompleted,
                )?;
            }
            Ok(Ok(id))
        })?;
        match outcome {
            Ok(id) => self.get_assessment(&id),
            Err(id) => Err(Error::conflict("assessment", &self.get_assessment(&id)?)),
        }
    }

    pub fn get_assessment(&self, id: &AssessmentId) -> Result<Assessment> {
        let clock = self.clock()?;
        let sql = format!(
            "SELECT {COLUMNS} FROM assessments a LEFT JOIN intakes i ON i.id = a.intake_id WHERE a.id = ?1"
        );
        super::query_row(self.conn(), &sql, [id], |row| from_row(row, &clock))
            .optional()?
            .ok_or_else(|| Error::not_found("assessment", id))
    }

    /// The assessments list, newest first, with the four stats.
    pub fn assessments_page(&self, query: &AssessmentQuery) -> Result<AssessmentPage> {
        let clock = self.clock()?;
        let stats = self.assessment_stats()?;
        let mut filters = Filters::new("a.deleted_at IS NULL");
        let conditions =
            assessment_conditions(query.filter, query.search.as_deref(), &mut filters.values);
        filters.conditions.extend(conditions);
        let page = filters
            .page(
                &format!(
                    "SELECT {COLUMNS} FROM assessments a LEFT JOIN intakes i ON i.id = a.intake_id"
                ),
                Keyset::descending("a.created_at", "a.id"),
                query.cursor.as_deref(),
                page_limit(query.limit),
            )?
            .read(
                self.conn(),
                |row| from_row(row, &clock),
                |a| (&a.created_at, a.id.as_str()),
            )?;
        Ok(AssessmentPage { page, stats })
    }

    fn assessment_stats(&self) -> Result<AssessmentStats> {
        let mut stats = AssessmentStats::default();
        let mut statement = self.conn().prepare_cached(
            "SELECT status, count(*) FROM assessments WHERE deleted_at IS NULL GROUP BY status",
        )?;
        for row in statement.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })? {
            let (status, n) = row?;
            stats.total += n;
            match status.as_str() {
                "draft" => stats.pending += n,
                _ => stats.completed += n,
            }
        }
        stats.care_plans_generated = super::query_row(
            self.conn(),
            "SELECT count(DISTINCT assessment_id) FROM care_plan_proposals
             WHERE deleted_at IS NULL AND assessment_id IS NOT NULL",
            [],
            |row| row.get(0),
        )?;
        Ok(stats)
    }

    /// Soft-deletes an assessment (admin only): it leaves every list and the client's
    /// pipeline until restored.
    pub fn delete_assessment(&mut self, actor: &Actor, id: &AssessmentId) -> Result<()> {
        self.set_deleted(actor, Trashable::Assessment, id.as_str(), true)
    }

    /// Restores a soft-deleted assessment (admin only).
    pub fn restore_assessment(&mut self, actor: &Actor, id: &AssessmentId) -> Result<Assessment> {
        self.set_deleted(actor, Trashable::Assessment, id.as_str(), false)?;
        self.get_assessment(id)
    }

    /// Generates a draft care plan from a completed assessment at the spec's default rate
    /// (25) and no pricing template; the care plan form shows it as stored, and says
    /// where the rate came from.
    pub fn generate_care_plan(&mut self, actor: &Actor, id: &AssessmentId) -> Result<CarePlan> {
        let assessment = self.get_assessment(id)?;
        if assessment.deleted_at.is_some() {
            return Err(Error::not_found("assessment", id));
        }
        if assessment.status != AssessmentStatus::Completed {
            return Err(Error::Rejected(
                "Complete and save the assessment before generating a care plan.".to_owned(),
            ));
        }
        let input = crate::rules::pricing::proposal_from_assessment(&assessment);
        let care_plan_id: CarePlanId = self.insert_care_plan(actor, Some(id), input, true)?;
        self.get_care_plan(&care_plan_id)
    }
}

/// The WHERE conditions of the assessments list's stat-card filter and search, over the
/// alias `a`, with their values appended to `values`. The list pages and the assessments
/// export both filter through here.
pub(crate) fn assessment_conditions(
    filter: Option<AssessmentFilter>,
    search: Option<&str>,
    values: &mut Vec<String>,
) -> Vec<String> {
    let mut conditions = Vec::new();
    match filter {
        None => {}
        Some(AssessmentFilter::Draft) => conditions.push("a.status = 'draft'".to_owned()),
        Some(AssessmentFilter::Completed) => conditions.push("a.status = 'completed'".to_owned()),
        Some(AssessmentFilter::CarePlanGenerated) => conditions.push(
            "EXISTS (SELECT 1 FROM care_plan_proposals cp WHERE cp.assessment_id = a.id AND cp.deleted_at IS NULL)"
                .to_owned(),
        ),
    }
    conditions.extend(like_filter(&["a.client_name"], search, values));
    conditions
}

struct Stored {
    version: i64,
    status: AssessmentStatus,
    intake_id: Option<IntakeId>,
    form: AssessmentForm,
}

fn load_stored(tx: &Connection, id: &AssessmentId) -> Result<Stored> {
    let (version, status, intake_id, form_data) = super::query_row(tx,
            "SELECT version, status, intake_id, form_data FROM assessments WHERE id = ?1 AND deleted_at IS NULL",
            [id],
            |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, AssessmentStatus>(1)?,
                    row.get::<_, Option<IntakeId>>(2)?,
                    row.get::<_, String>(3)?,
                ))
            },
        )
        .optional()?
        .ok_or_else(|| Error::not_found("assessment", id))?;
    Ok(Stored {
        version,
        status,
        intake_id,
        form: serde_json::from_str(&form_data)?,
    })
}

fn ensure_intake(tx: &Connection, intake_id: &IntakeId) -> Result<()> {
    let exists: bool = super::query_row(
        tx,
        "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1 AND deleted_at IS NULL)",
        [intake_id],
        |row| row.get(0),
    )?;
    if exists {
        Ok(())
    } else {
        Err(Error::not_found("intake", intake_id))
    }
}

fn insert(
    tx: &Connection,
    clock: &AgencyClock,
    id: &AssessmentId,
    intake_id: Option<&IntakeId>,
    form: &AssessmentForm,
    status: AssessmentStatus,
) -> Result<()> {
    let now = ts(clock.now());
    let completed_at = (status == AssessmentStatus::Completed).then(|| now.clone());
    super::exec(
        tx,
        "INSERT INTO assessments (id, intake_id, status, assessment_date, client_name,
            coordinator_name, recommended_services, recommended_hours, preferred_days,
            form_data, created_at, updated_at, completed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12)",
        params![
            id,
            intake_id,
            status,
            parse_date(&form.assessment_date).map(|d| d.to_string()),
            form.client_name,
            form.coordinator_name,
            serde_json::to_string(&form.recommended_services)?,
            form.recommended_hours,
            serde_json::to_string(&form.preferred_days)?,
            serde_json::to_string(form)?,
            now,
            completed_at,
        ],
    )?;
    Ok(())
}

fn update(
    tx: &Connection,
    clock: &AgencyClock,
    id: &AssessmentId,
    version: i64,
    form: &AssessmentForm,
    status: AssessmentStatus,
) -> Result<()> {
    let now = ts(clock.now());
    super::exec(
        tx,
        "UPDATE assessments SET status = ?3, assessment_date = ?4, client_name = ?5,
            coordinator_name = ?6, recommended_services = ?7, recommended_hours = ?8,
            preferred_days = ?9, form_data = ?10, updated_at = ?11,
            completed_at = CASE WHEN ?3 = 'completed' THEN coalesce(completed_at, ?11) END,
            version = version + 1
         WHERE id = ?1 AND version = ?2",
        params![
            id,
            version,
            status,
            parse_date(&form.assessment_date).map(|d| d.to_string()),
            form.client_name,
            form.coordinator_name,
            serde_json::to_string(&form.recommended_services)?,
            form.recommended_hours,
            serde_json::to_string(&form.preferred_days)?,
            serde_json::to_string(form)?,
            now,
        ],
    )?;
    Ok(())
}

/// A completed assessment moves its intake to assessment_completed and records the
/// assessment date as the intake's assessment_scheduled_date.
fn complete_intake(
    tx: &Connection,
    actor: &Actor,
    clock: &AgencyClock,
    intake_id: &IntakeId,
    form: &AssessmentForm,
) -> Result<()> {
    let status: IntakeStatus = super::query_row(
        tx,
        "SELECT status FROM intakes WHERE id = ?1",
        [intake_id],
        |row| row.get(0),
    )?;
    let scheduled = parse_date(&form.assessment_date)
        .unwrap_or_else(|| clock.today())
        .to_string();
    let new_status = match check_intake_transition(status, IntakeStatus::AssessmentCompleted) {
        Ok(()) => IntakeStatus::AssessmentCompleted,
        // An archived client keeps its status; its date is still recorded.
        Err(_) => status,
    };
    super::exec(
        tx,
        "UPDATE intakes SET status = ?2, assessment_scheduled_date = ?3, updated_at = ?4,
            version = version + 1
         WHERE id = ?1",
        params![intake_id, new_status, scheduled, ts(clock.now())],
    )?;
    audit(
        tx,
        actor,
        clock.now(),
        "assessment_completed",
        "intake",
        intake_id.as_str(),
        Some(intake_id.as_str()),
        &["status", "assessment_scheduled_date"],
    )
}
