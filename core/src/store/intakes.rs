//! Intakes: create, update, draft, load, the intakes list, awaiting assessment and search.

use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::filled_fields::Template;
use super::owners::{follow_coordinator_name, new_client_owner};
use super::paging::{Filters, Keyset, Page, page_limit};
use super::position::{self, read_position};
use super::trash::Trashable;
use super::{Store, audit, json_list, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, FormJson, Intake, IntakeBrief, IntakeForm, IntakeId, IntakeStatus, IntakeSummary,
    PipelinePosition, UserId,
};
use crate::rules::clock::{AgencyClock, age_in_years, parse_date};
use crate::rules::search::{MIN_SEARCH_CHARS, looks_like_phone, search_term};
use crate::rules::stage::{Urgency, is_archived};
use crate::rules::validation::{follow_up_timestamp, prepare_intake_draft, validate_intake_submit};

/// Search results, recent activity: the spec's limit of 10.
pub const SEARCH_LIMIT: u32 = 10;

/// The position columns [`read_position`] reads, in its order; a literal so the column
/// lists below can be built with `concat!`.
macro_rules! position_columns {
    () => {
        "created_at, stage_entered_at, next_follow_up_date, assessment_scheduled_date, \
         latest_assessment_id, latest_assessment_status, latest_care_plan_id, \
         latest_care_plan_status, latest_contract_id, latest_contract_status, archived, \
         stage, status"
    };
}

/// The columns every intake summary reads; the position columns start at index 13.
pub(crate) const SUMMARY_COLUMNS: &str = concat!(
    "id, version, status, client_full_name, date_of_birth, caller_name, caller_phone, \
     caller_email, services_required, last_contact_date, next_follow_up_date, \
     follow_up_notes, is_draft, ",
    position_columns!()
);

/// Maps a row of [`SUMMARY_COLUMNS`].
pub(crate) fn summary_from_row(
    row: &rusqlite::Row<'_>,
    clock: &AgencyClock,
) -> rusqlite::Result<IntakeSummary> {
    let id: IntakeId = row.get(0)?;
    let date_of_birth: Option<String> = row.get(4)?;
    let services: String = row.get(8)?;
    let position = read_position(row, 13, &id, clock)?;
    Ok(IntakeSummary {
        version: row.get(1)?,
        status: row.get(2)?,
        client_full_name: row.get(3)?,
        age: date_of_birth
            .as_deref()
            .and_then(parse_date)
            .and_then(|dob| age_in_years(dob, clock.today())),
        date_of_birth,
        caller_name: row.get(5)?,
        caller_phone: row.get(6)?,
        caller_email: row.get(7)?,
        services_required: serde_json::from_str(&services).unwrap_or_default(),
        last_contact_date: row.get(9)?,
        next_follow_up_date: row.get(10)?,
        follow_up_notes: row.get(11)?,
        is_draft: row.get(12)?,
        created_at: position.created_at,
        position: position.position,
        pipeline: position.pipeline,
        id,
    })
}

/// The columns of an intake brief; the position columns start at index 6.
pub(crate) const BRIEF_COLUMNS: &str = concat!(
    "id, client_full_name, date_of_birth, last_contact_date, next_follow_up_date, \
     follow_up_notes, ",
    position_columns!()
);

/// The number of [`BRIEF_COLUMNS`]: the columns a list row reads after them start here.
pub(crate) const BRIEF_WIDTH: usize = column_count(BRIEF_COLUMNS);

const fn column_count(columns: &str) -> usize {
    let bytes = columns.as_bytes();
    let (mut at, mut count) = (0, 1);
    while at < bytes.len() {
        if bytes[at] == b',' {
            count += 1;
        }
        at += 1;
    }
    count
}

/// Maps a row of [`BRIEF_COLUMNS`], with the full position for callers that need the
/// latest records' ids.
pub(crate) fn brief_from_row(
    row: &rusqlite::Row<'_>,
    clock: &AgencyClock,
) -> rusqlite::Result<(IntakeBrief, PipelinePosition)> {
    let id: IntakeId = row.get(0)?;
    let age = position::text(row, 2)?
        .and_then(parse_date)
        .and_then(|dob| age_in_years(dob, clock.today()));
    let position = read_position(row, 6, &id, clock)?;
    let brief = IntakeBrief {
        client_full_name: row.get(1)?,
        age,
        created_at: position.created_at,
        last_contact_date: row.get(3)?,
        next_follow_up_date: row.get(4)?,
        follow_up_notes: row.get(5)?,
        stage: position.position.stage,
        archived: position.position.archived,
        pipeline: position.pipeline,
        id,
    };
    Ok((brief, position.position))
}

/// Maps a row of [`BRIEF_COLUMNS`] to the brief alone.
pub(crate) fn brief_only(
    row: &rusqlite::Row<'_>,
    clock: &AgencyClock,
) -> rusqlite::Result<IntakeBrief> {
    brief_from_row(row, clock).map(|(brief, _)| brief)
}

/// The typed columns copied out of an intake form.
struct IntakeColumns {
    client_full_name: String,
    date_of_birth: Option<String>,
    caller_name: String,
    caller_phone: String,
    caller_phone_digits: String,
    caller_email: String,
    services_required: String,
    living_situation: String,
    proposed_schedule: String,
    referral_source: Option<String>,
    assigned_coordinator: Option<String>,
    next_follow_up_date: Option<String>,
    follow_up_notes: Option<String>,
    consultation_date: Option<String>,
    form_data: String,
    /// The intakes export's form fields, in its column order.
    export: [String; 12],
    total_hours_per_week: Option<f64>,
}

fn non_empty(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Digits of a phone number, for matching "555-0100" with "(555) 0100".
pub fn phone_digits(phone: &str) -> String {
    phone.chars().filter(char::is_ascii_digit).collect()
}

fn columns(form: &IntakeForm, clock: &AgencyClock) -> Result<IntakeColumns> {
    // The schedule's filled-in entries only: most leads name no days, and an empty
    // entry says nothing its absence does not.
    let mut schedule = serde_json::Map::new();
    for (key, value) in [
        ("anticipatedStartDate", &form.anticipated_start_date),
        ("friday", &form.schedule_fri),
        ("monday", &form.schedule_mon),
        ("saturday", &form.schedule_sat),
        ("sunday", &form.schedule_sun),
        ("thursday", &form.schedule_thu),
        ("tuesday", &form.schedule_tue),
        ("wednesday", &form.schedule_wed),
    ] {
        if !value.is_empty() {
            schedule.insert(key.to_owned(), value.as_str().into());
        }
    }
    if let Some(hours) = form.total_hours_per_week {
        schedule.insert("totalHoursPerWeek".to_owned(), hours.into());
    }
    Ok(IntakeColumns {
        client_full_name: form.client_full_name.clone(),
        date_of_birth: parse_date(&form.date_of_birth).map(|d| d.to_string()),
        caller_name: form.caller_name.clone(),
        caller_phone: form.caller_phone.clone(),
        caller_phone_digits: phone_digits(&form.caller_phone),
        caller_email: form.caller_email.clone(),
        services_required: serde_json::to_string(&form.services_required)?,
        living_situation: serde_json::to_string(&form.living_situation)?,
        proposed_schedule: serde_json::Value::Object(schedule).to_string(),
        referral_source: non_empty(&form.how_did_you_hear)
            .or_else(|| non_empty(&form.referral_source_type)),
        assigned_coordinator: non_empty(&form.assigned_coordinator),
        next_follow_up_date: follow_up_timestamp(
            &form.next_follow_up_date,
            &form.next_follow_up_time,
            clock,
        )
        .map(ts),
        follow_up_notes: non_empty(&form.follow_up_notes),
        consultation_date: parse_date(&form.consultation_date).map(|d| d.to_string()),
        form_data: stored_form(form)?,
        export: [
            form.date.clone(),
            form.staff_member_taking_call.clone(),
            form.relationship_to_client.clone(),
            form.how_did_you_hear.clone(),
            form.client_address.clone(),
            form.city.clone(),
            form.state.clone(),
            form.zip_code.clone(),
            form.client_phone.clone(),
            form.client_email.clone(),
            form.anticipated_start_date.clone(),
            serde_json::to_string(&form.source_of_payment)?,
        ],
        total_hours_per_week: form.total_hours_per_week,
    })
}

/// The form as `intake_forms` keeps it: its filled-in fields only. Staff fill a handful
/// of the form's sixty-odd fields at first (an imported lead, about seven), so a stored
/// form is a quarter of the whole; reading it back gives the others their defaults,
/// which are exactly the empty values left out (`IntakeForm` is `#[serde(default)]`).
pub(crate) fn stored_form(form: &IntakeForm) -> Result<String> {
    Ok(super::filled_fields::to_string(form)?)
}

impl IntakeColumns {
    /// A statement's values followed by the intakes export's form fields, in the order
    /// the insert and the update name them: total hours, then [`IntakeColumns::export`].
    fn with_export_values<'a>(
        &'a self,
        values: &[&'a dyn rusqlite::ToSql],
    ) -> Vec<&'a dyn rusqlite::ToSql> {
        let mut all = values.to_vec();
        all.push(&self.total_hours_per_week);
        all.extend(
            self.export
                .iter()
                .map(|value| value as &dyn rusqlite::ToSql),
        );
        all
    }
}

/// The form field names whose values differ; the audit log keeps names, never values.
pub(crate) fn changed_fields<T: Serialize>(before: &T, after: &T) -> Vec<String> {
    let before = serde_json::to_value(before).unwrap_or_default();
    let after = serde_json::to_value(after).unwrap_or_default();
    match (before, after) {
        (serde_json::Value::Object(before), serde_json::Value::Object(after)) => after
            .iter()
            .filter(|(key, value)| before.get(*key) != Some(value))
            .map(|(key, _)| key.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// Which intakes the intakes list shows.
#[derive(Debug, Clone, Default)]
pub struct IntakeListQuery {
    pub urgency: Option<Urgency>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

/// The intakes list's three summary cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UrgencySummary {
    pub new: i64,
    pub attention: i64,
    pub urgent: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IntakePage {
    #[serde(flatten)]
    pub page: Page<IntakeSummary>,
    pub summary: UrgencySummary,
}

/// The intakes waiting for an assessment: how many there are, and the oldest of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AwaitingAssessment {
    /// Every intake waiting, however many are listed.
    pub total: i64,
    /// The oldest first, at most [`AWAITING_LISTED`].
    pub items: Vec<IntakeSummary>,
}

/// How many waiting intakes the Assessments screen lists.
pub const AWAITING_LISTED: i64 = 200;

/// The intakes waiting for an assessment (the partial index `intakes_awaiting`, so the
/// count walks the waiting intakes only, never the agency's history).
const AWAITING_WHERE: &str = "deleted_at IS NULL AND assessment_scheduled_date IS NULL
    AND latest_assessment_id IS NULL AND status IN ('intake_created', 'pending')";

struct Stored {
    version: i64,
    status: IntakeStatus,
    is_draft: bool,
    assessment_scheduled_date: Option<String>,
    form: IntakeForm,
}

fn load_stored(tx: &Connection, id: &IntakeId) -> Result<Stored> {
    let row = super::query_row(
        tx,
        "SELECT i.version, i.status, i.is_draft, i.assessment_scheduled_date, f.form_data
             FROM intakes i JOIN intake_forms f ON f.intake_seq = i.seq
             WHERE i.id = ?1 AND i.deleted_at IS NULL",
        [id],
        |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, IntakeStatus>(1)?,
                row.get::<_, bool>(2)?,
                row.get::<_, Option<String>>(3)?,
                row.get::<_, String>(4)?,
            ))
        },
    )
    .optional()?
    .ok_or_else(|| Error::not_found("intake", id))?;
    Ok(Stored {
        version: row.0,
        status: row.1,
        is_draft: row.2,
        assessment_scheduled_date: row.3,
        form: serde_json::from_str(&row.4)?,
    })
}

impl Store {
    /// Submits a new intake: validated, saved with status pending, owned by whoever
    /// creates it unless its coordinator names another member of staff.
    pub fn create_intake(&mut self, actor: &Actor, form: IntakeForm) -> Result<Intake> {
        self.create_intake_for(actor, None, form)
    }

    /// [`Store::create_intake`] for a named owner (an active member of staff).
    pub fn create_intake_for(
        &mut self,
        actor: &Actor,
        owner: Option<&UserId>,
        form: IntakeForm,
    ) -> Result<Intake> {
        let clock = self.clock()?;
        let mut form = form.trimmed();
        form.apply_client_is_caller();
        validate_intake_submit(&form, None, &clock)?;
        let id = IntakeId::new();
        let auto_assign = self.settings()?.workflow.auto_assign_intakes;
        self.write(|tx| {
            if auto_assign
                && form.assigned_coordinator.is_empty()
                && let Some(name) = next_coordinator(tx)?
            {
                form.assigned_coordinator = name;
            }
            let owner = new_client_owner(
                tx,
                owner,
                &form.assigned_coordinator,
                actor.user_id.as_ref(),
            )?;
            insert(tx, actor, &clock, &id, &form, false, None, owner.as_ref())
        })?;
        self.get_intake(&id)
    }

    /// Saves an intake as a draft: no required fields; a new draft without a client name
    /// is "Draft - Unnamed Client". With `existing`, updates that intake (its version
    /// must match) and keeps its status.
    pub fn save_intake_draft(
        &mut self,
        actor: &Actor,
        existing: Option<(&IntakeId, i64)>,
        form: IntakeForm,
    ) -> Result<Intake> {
        crate::rules::validation::check_text_bounds(&form)?;
        let clock = self.clock()?;
        let form = prepare_intake_draft(form);
        match existing {
            None => {
                let id = IntakeId::new();
                self.write(|tx| {
                    let owner = new_client_owner(
                        tx,
                        None,
                        &form.assigned_coordinator,
                        actor.user_id.as_ref(),
                    )?;
                    insert(tx, actor, &clock, &id, &form, true, None, owner.as_ref())
                })?;
                self.get_intake(&id)
            }
            Some((id, version)) => {
                let result = self.write(|tx| update(tx, actor, &clock, id, version, &form, true));
                self.finish_update(id, result)
            }
        }
    }

    /// Updates a saved intake from the full form; its status is kept.
    pub fn update_intake(
        &mut self,
        actor: &Actor,
        id: &IntakeId,
        version: i64,
        form: IntakeForm,
    ) -> Result<Intake> {
        let clock = self.clock()?;
        let mut form = form.trimmed();
        form.apply_client_is_caller();
        let result = self.write(|tx| {
            let stored = load_stored(tx, id)?;
            validate_intake_submit(&form, Some(&stored.form), &clock)?;
            update(tx, actor, &clock, id, version, &form, false)
        });
        self.finish_update(id, result)
    }

    /// Turns a stale-version outcome into a conflict carrying the stored intake.
    fn finish_update(&mut self, id: &IntakeId, result: Result<bool>) -> Result<Intake> {
        match result? {
            true => self.get_intake(id),
            false => Err(Error::conflict("intake", &self.get_intake(id)?)),
        }
    }

    pub fn get_intake(&self, id: &IntakeId) -> Result<Intake> {
        self.intake_with(id, |form_data| Ok(serde_json::from_str(&form_data)?))
    }

    /// The intake as [`Store::get_intake`] reads it, with its form as the JSON text the
    /// parsed form would serialize to: an answer that only passes the form on skips
    /// building it and writing it again.
    pub fn get_intake_answer(&self, id: &IntakeId) -> Result<Intake<FormJson>> {
        self.intake_with(id, |form_data| {
            Ok(FormJson::new(whole_form_json(&form_data)?)?)
        })
    }

    fn intake_with<F>(
        &self,
        id: &IntakeId,
        form: impl FnOnce(String) -> Result<F>,
    ) -> Result<Intake<F>> {
        self.snapshot(|| {
            let clock = self.clock()?;
            let sql = format!(
                "SELECT {SUMMARY_COLUMNS}, form_data, assigned_coordinator, updated_at,
                    assessment_scheduled_date, deleted_at
             FROM intakes JOIN intake_forms ON intake_seq = seq WHERE id = ?1"
            );
            super::query_row(self.conn(), &sql, [id], |row| {
                let summary = summary_from_row(row, &clock)?;
                let form_data: String = row.get(26)?;
                Ok((
                    summary,
                    form_data,
                    row.get::<_, Option<String>>(27)?,
                    row.get::<_, String>(28)?,
                    row.get::<_, Option<String>>(29)?,
                    row.get::<_, Option<String>>(30)?,
                ))
            })
            .optional()?
            .ok_or_else(|| Error::not_found("intake", id))
            .and_then(
                |(summary, form_data, coordinator, updated_at, scheduled, deleted)| {
                    Ok(Intake {
                        id: summary.id,
                        version: summary.version,
                        status: summary.status,
                        client_full_name: summary.client_full_name,
                        date_of_birth: summary.date_of_birth,
                        age: summary.age,
                        caller_name: summary.caller_name,
                        caller_phone: summary.caller_phone,
                        caller_email: summary.caller_email,
                        services_required: summary.services_required,
                        assigned_coordinator: coordinator,
                        created_at: summary.created_at,
                        updated_at,
                        last_contact_date: summary.last_contact_date,
                        next_follow_up_date: summary.next_follow_up_date,
                        follow_up_notes: summary.follow_up_notes,
                        assessment_scheduled_date: scheduled,
                        is_draft: summary.is_draft,
                        deleted_at: deleted,
                        position: summary.position,
                        pipeline: summary.pipeline,
                        form: form(form_data)?,
                    })
                },
            )
        })
    }

    pub fn get_intake_summary(&self, id: &IntakeId) -> Result<IntakeSummary> {
        let clock = self.clock()?;
        let sql = format!("SELECT {SUMMARY_COLUMNS} FROM intakes WHERE id = ?1");
        super::query_row(self.conn(), &sql, [id], |row| summary_from_row(row, &clock))
            .optional()?
            .ok_or_else(|| Error::not_found("intake", id))
    }

    /// The intakes list: clients still at the intake stage, newest first, with the
    /// three urgency counts (days since creation: ≤3 New, 4–5 Attention, >5 Urgent).
    pub fn intakes_page(&self, query: &IntakeListQuery) -> Result<IntakePage> {
        let clock = self.clock()?;
        let cut3 = ts(position::stage_cut(&clock, 3));
        let cut5 = ts(position::stage_cut(&clock, 5));
        let base = "deleted_at IS NULL AND archived = 0 AND stage = 'intake'";
        let summary = super::query_row(
            self.conn(),
            &format!(
                "SELECT
                    count(*) FILTER (WHERE created_at >= ?1),
                    count(*) FILTER (WHERE created_at >= ?2 AND created_at < ?1),
                    count(*) FILTER (WHERE created_at < ?2)
                 FROM intakes WHERE {base}"
            ),
            params![cut3, cut5],
            |row| {
                Ok(UrgencySummary {
                    new: row.get(0)?,
                    attention: row.get(1)?,
                    urgent: row.get(2)?,
                })
            },
        )?;
        let mut filters = Filters::new(base);
        match query.urgency {
            None => {}
            Some(Urgency::New) => {
                let cut3 = filters.bind(cut3);
                filters.push(format!("created_at >= {cut3}"));
            }
            Some(Urgency::Attention) => {
                let (cut5, cut3) = (filters.bind(cut5), filters.bind(cut3));
                filters.push(format!("created_at >= {cut5} AND created_at < {cut3}"));
            }
            Some(Urgency::Urgent) => {
                let cut5 = filters.bind(cut5);
                filters.push(format!("created_at < {cut5}"));
            }
        }
        let page = filters
            .page(
                &format!("SELECT {SUMMARY_COLUMNS} FROM intakes"),
                Keyset::intakes_descending("created_at"),
                query.cursor.as_deref(),
                page_limit(query.limit),
            )?
            .read(
                self.conn(),
                |row| summary_from_row(row, &clock),
                |item| (&item.created_at, item.id.as_str()),
            )?;
        Ok(IntakePage { page, summary })
    }

    /// Intakes waiting for an assessment: status intake_created or pending, no
    /// assessment date, no assessment yet, not deleted; their count and the oldest
    /// [`AWAITING_LISTED`], read in one snapshot so the two agree.
    pub fn intakes_awaiting_assessment(&self) -> Result<AwaitingAssessment> {
        self.snapshot(|| {
            let clock = self.clock()?;
            let total = super::query_row(
                self.conn(),
                &format!("SELECT count(*) FROM intakes WHERE {AWAITING_WHERE}"),
                [],
                |row| row.get(0),
            )?;
            let sql = format!(
                "SELECT {SUMMARY_COLUMNS} FROM intakes WHERE {AWAITING_WHERE}
                 ORDER BY created_at ASC LIMIT +?1"
            );
            let mut statement = self.conn().prepare_cached(&sql)?;
            let items = statement
                .query_map([AWAITING_LISTED], |row| summary_from_row(row, &clock))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(AwaitingAssessment { total, items })
        })
    }

    /// The client search: case-insensitive partial match on client name, caller phone
    /// or caller email, newest first, at most 10. Fewer than 2 characters finds nothing;
    /// more than 100 is refused.
    ///
    /// The search index's rowids count down in creation order (migration 9), so the
    /// matches are read newest first and the walk stops at the tenth, plus any created
    /// in the same millisecond as the tenth (their order is settled by id, as in the
    /// lists).
    pub fn search(&self, term: &str) -> Result<Vec<IntakeSummary>> {
        self.snapshot(|| {
            let Some(term) = search_term(term)? else {
                return Ok(Vec::new());
            };
            let clock = self.clock()?;
            let expression = match_expression(&term, SearchFields::Global);
            let mut keys = self.conn().prepare_cached(
                "SELECT rowid FROM intakes_search WHERE intakes_search MATCH ?1 \
                 ORDER BY rowid",
            )?;
            let mut fetch = self.conn().prepare_cached(&format!(
                "SELECT {SUMMARY_COLUMNS} FROM intakes WHERE search_key = ?1 AND deleted_at IS NULL"
            ))?;
            let limit = SEARCH_LIMIT as usize;
            let mut found: Vec<IntakeSummary> = Vec::with_capacity(limit + 1);
            let mut tenth: Option<i64> = None;
            let mut rows = keys.query([expression])?;
            while let Some(row) = rows.next()? {
                let key: i64 = row.get(0)?;
                let millisecond = key.saturating_neg() >> SEARCH_KEY_SEQ_BITS;
                if tenth.is_some_and(|tenth| millisecond < tenth) {
                    break;
                }
                if let Some(summary) = fetch
                    .query_row([key], |row| summary_from_row(row, &clock))
                    .optional()?
                {
                    found.push(summary);
                    if found.len() == limit {
                        tenth = Some(millisecond);
                    }
                }
            }
            found.sort_by(|a, b| {
                (b.created_at.as_str(), b.id.as_str()).cmp(&(a.created_at.as_str(), a.id.as_str()))
            });
            found.truncate(limit);
            Ok(found)
        })
    }

    /// Archives a client (declined, not interested, …) or puts it back to pending.
    pub fn set_intake_status(
        &mut self,
        actor: &Actor,
        id: &IntakeId,
        version: i64,
        status: IntakeStatus,
    ) -> Result<Intake> {
        let clock = self.clock()?;
        let now = clock.now();
        let changed = self.write(|tx| {
            let stored = load_stored(tx, id)?;
            crate::rules::transitions::check_intake_transition(stored.status, status)?;
            let n = super::exec(
                tx,
                "UPDATE intakes SET status = ?3, updated_at = ?4, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![id, version, status, ts(now)],
            )?;
            if n == 1 {
                position::refresh(tx, id, &clock)?;
                audit(
                    tx,
                    actor,
                    now,
                    "status",
                    "intake",
                    id.as_str(),
                    Some(id.as_str()),
                    &["status"],
                )?;
            }
            Ok(n == 1)
        });
        self.finish_update(id, changed)
    }

    /// Soft-deletes an intake (admin only).
    pub fn delete_intake(&mut self, actor: &Actor, id: &IntakeId) -> Result<()> {
        self.set_deleted(actor, Trashable::Intake, id.as_str(), true)
    }

    /// Restores a soft-deleted intake (admin only).
    pub fn restore_intake(&mut self, actor: &Actor, id: &IntakeId) -> Result<Intake> {
        self.set_deleted(actor, Trashable::Intake, id.as_str(), false)?;
        self.get_intake(id)
    }
}

/// Inserts a new intake row and its pipeline position. Imports pass their batch id.
/// Settings → Workflow's auto-assignment: the active user after the one who was given
/// the latest assigned intake, in name order, wrapping around; the first when none was
/// given one yet. Read in the intake's own transaction, so two intakes saved at once
/// still go to two people.
fn next_coordinator(tx: &Connection) -> Result<Option<String>> {
    let mut statement = tx.prepare_cached(
        "SELECT full_name FROM users WHERE disabled = 0 AND trim(full_name) <> ''
         ORDER BY full_name COLLATE NOCASE, id",
    )?;
    let names = statement
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    if names.is_empty() {
        return Ok(None);
    }
    let last: Option<String> = super::query_row(
        tx,
        "SELECT assigned_coordinator FROM intakes
         WHERE assigned_coordinator IS NOT NULL AND deleted_at IS NULL
           AND assigned_coordinator IN (SELECT full_name FROM users WHERE disabled = 0)
         ORDER BY created_at DESC, list_seq DESC LIMIT 1",
        [],
        |row| row.get(0),
    )
    .optional()?;
    let next = last
        .and_then(|last| names.iter().position(|name| *name == last))
        .map_or(0, |index| (index + 1) % names.len());
    Ok(names.into_iter().nth(next))
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn insert(
    tx: &Connection,
    actor: &Actor,
    clock: &AgencyClock,
    id: &IntakeId,
    form: &IntakeForm,
    is_draft: bool,
    import_batch: Option<&str>,
    owner: Option<&UserId>,
) -> Result<()> {
    let now = ts(clock.now());
    let c = columns(form, clock)?;
    // A new intake has no assessment, care plan or contract yet: it is at the intake
    // stage since now, pending, not archived. Its row is written once, complete.
    let overdue = ts(position::stored_overdue_at(
        c.next_follow_up_date.as_deref(),
        &now,
        None,
        clock,
    ));
    let archived = is_archived(&[IntakeStatus::Pending.as_str()]);
    let mut values = c.with_export_values(params![
        id,
        c.client_full_name,
        c.date_of_birth,
        c.caller_name,
        c.caller_phone,
        c.caller_phone_digits,
        c.caller_email,
        c.services_required,
        c.living_situation,
        c.proposed_schedule,
        c.referral_source,
        IntakeStatus::Pending,
        is_draft,
        c.assigned_coordinator,
        now,
        c.next_follow_up_date,
        c.follow_up_notes,
        c.consultation_date,
        import_batch,
        overdue,
        archived,
    ]);
    values.push(&owner);
    super::exec(
        tx,
        "INSERT INTO intakes (id, client_full_name, date_of_birth, caller_name, caller_phone,
            caller_phone_digits, caller_email, services_required, living_situation,
            proposed_schedule, referral_source, status, is_draft,
            assigned_coordinator, created_at, updated_at, next_follow_up_date, follow_up_notes,
            assessment_scheduled_date, import_batch_id, stage, stage_entered_at, overdue_at,
            archived, total_hours_per_week, intake_date, staff_member_taking_call,
            relationship_to_client, how_did_you_hear, client_address, city, state, zip_code,
            client_phone, client_email, anticipated_start_date, source_of_payment, owner_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15,
                 ?16, ?17, ?18, ?19, 'intake', ?15, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27,
                 ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35)",
        values.as_slice(),
    )?;
    super::exec(
        tx,
        "INSERT INTO intake_forms (intake_seq, form_data) VALUES (?1, ?2)",
        params![tx.last_insert_rowid(), c.form_data],
    )?;
    let action = if is_draft { "create_draft" } else { "create" };
    audit(
        tx,
        actor,
        clock.now(),
        action,
        "intake",
        id.as_str(),
        Some(id.as_str()),
        &[],
    )
}

/// A stored form's JSON as the parsed form serializes: filled out without parsing when
/// it is plainly written, parsed and written again otherwise.
fn whole_form_json(stored: &str) -> Result<String> {
    static TEMPLATE: LazyLock<Option<Template>> = LazyLock::new(Template::of::<IntakeForm>);
    match TEMPLATE.as_ref().and_then(|t| t.filled_out(stored)) {
        Some(whole) => Ok(whole),
        None => Ok(serde_json::to_string(&serde_json::from_str::<IntakeForm>(
            stored,
        )?)?),
    }
}

/// Writes a new form over a stored intake. Returns false when `version` is stale.
fn update(
    tx: &Connection,
    actor: &Actor,
    clock: &AgencyClock,
    id: &IntakeId,
    version: i64,
    form: &IntakeForm,
    as_draft: bool,
) -> Result<bool> {
    let stored = load_stored(tx, id)?;
    if stored.version != version {
        return Ok(false);
    }
    let c = columns(form, clock)?;
    // Submitting a draft makes it a real intake; saving a real intake as draft keeps it real.
    let is_draft = stored.is_draft && as_draft;
    let scheduled = c
        .consultation_date
        .clone()
        .or(stored.assessment_scheduled_date);
    let now = ts(clock.now());
    let n = super::exec(
        tx,
        "UPDATE intakes SET client_full_name = ?3, date_of_birth = ?4, caller_name = ?5,
            caller_phone = ?6, caller_phone_digits = ?7, caller_email = ?8,
            services_required = ?9, living_situation = ?10, proposed_schedule = ?11,
            referral_source = ?12, is_draft = ?13, assigned_coordinator = ?14,
            updated_at = ?15, next_follow_up_date = ?16, follow_up_notes = ?17,
            assessment_scheduled_date = ?18, total_hours_per_week = ?19, intake_date = ?20,
            staff_member_taking_call = ?21, relationship_to_client = ?22,
            how_did_you_hear = ?23, client_address = ?24, city = ?25, state = ?26,
            zip_code = ?27, client_phone = ?28, client_email = ?29,
            anticipated_start_date = ?30, source_of_payment = ?31, version = version + 1
         WHERE id = ?1 AND version = ?2",
        c.with_export_values(params![
            id,
            version,
            c.client_full_name,
            c.date_of_birth,
            c.caller_name,
            c.caller_phone,
            c.caller_phone_digits,
            c.caller_email,
            c.services_required,
            c.living_situation,
            c.proposed_schedule,
            c.referral_source,
            is_draft,
            c.assigned_coordinator,
            now,
            c.next_follow_up_date,
            c.follow_up_notes,
            scheduled,
        ])
        .as_slice(),
    )?;
    if n == 0 {
        return Ok(false);
    }
    super::exec(
        tx,
        "UPDATE intake_forms SET form_data = ?2
         WHERE intake_seq = (SELECT seq FROM intakes WHERE id = ?1)",
        params![id, c.form_data],
    )?;
    position::refresh(tx, id, clock)?;
    follow_coordinator_name(
        tx,
        actor,
        clock.now(),
        id,
        &stored.form.assigned_coordinator,
        &form.assigned_coordinator,
    )?;
    let changed = changed_fields(&stored.form, form);
    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
    let action = if as_draft { "update_draft" } else { "update" };
    audit(
        tx,
        actor,
        clock.now(),
        action,
        "intake",
        id.as_str(),
        Some(id.as_str()),
        &changed,
    )?;
    Ok(true)
}

/// Which columns a search term is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchFields {
    /// The search dialog: client name, caller phone, caller email.
    Global,
    /// The clients list: client name, caller name, caller phone.
    Clients,
}

pub(crate) struct SearchFilter {
    pub sql: String,
    pub params: Vec<String>,
}

/// The full-text expression of a term (already through [`search_term`]): a
/// case-insensitive partial match in the chosen columns, and for a phone-like term also
/// its digits in the stored phone digits ("555-17" finds "(555) 170-2233").
fn match_expression(term: &str, fields: SearchFields) -> String {
    let quoted = format!("\"{}\"", term.replace('"', "\"\""));
    let columns = match fields {
        SearchFields::Global => "{client_full_name caller_phone caller_email}",
        SearchFields::Clients => "{client_full_name caller_name caller_phone}",
    };
    let mut expression = format!("{columns} : {quoted}");
    let digits = phone_digits(term);
    if looks_like_phone(term) && digits.len() >= MIN_SEARCH_CHARS {
        expression.push_str(&format!(" OR caller_phone_digits : \"{digits}\""));
    }
    expression
}

/// Builds the WHERE fragment for a search term through the search index. None when the
/// term is too short to search; an error when it is too long.
/// Placeholders are numbered from `first_param` so the fragment can join other conditions.
pub(crate) fn search_filter(
    term: &str,
    fields: SearchFields,
    first_param: usize,
) -> Result<Option<SearchFilter>> {
    let Some(term) = search_term(term)? else {
        return Ok(None);
    };
    Ok(Some(SearchFilter {
        sql: format!(
            "search_key IN (SELECT rowid FROM intakes_search WHERE intakes_search MATCH ?{first_param})"
        ),
        params: vec![match_expression(&term, fields)],
    }))
}

/// The bits of a search key below the creation millisecond (see migration 9).
const SEARCH_KEY_SEQ_BITS: u32 = 21;

/// Reads a JSON list column of strings (services, living situation).
pub(crate) fn string_list(text: &str) -> Vec<String> {
    json_list(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_stored_form_keeps_only_filled_fields_and_reads_back_whole() {
        let empty = IntakeForm::default();
        assert_eq!(stored_form(&empty).unwrap(), "{}");
        assert_eq!(
            serde_json::from_str::<IntakeForm>(&stored_form(&empty).unwrap()).unwrap(),
            empty
        );

        let filled = IntakeForm {
            caller_name: "Ann \"Nan\" O'Neil, Jr.".to_owned(),
            client_is_caller: true,
            client_full_name: "Ann O'Neil".to_owned(),
            services_required: vec!["Companionship".to_owned(), "Meal Preparation".to_owned()],
            total_hours_per_week: Some(0.0),
            additional_comments: "line one\nline two, with \\ and ünïcode".to_owned(),
            ..IntakeForm::default()
        };
        let stored = stored_form(&filled).unwrap();
        let fields: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&stored).unwrap();
        let mut names: Vec<&str> = fields.keys().map(String::as_str).collect();
        names.sort_unstable();
        // Zero hours is an answer, not an empty field.
        assert_eq!(
            names,
            [
                "additionalComments",
                "callerName",
                "clientFullName",
                "clientIsCaller",
                "servicesRequired",
                "totalHoursPerWeek"
            ]
        );
        assert_eq!(serde_json::from_str::<IntakeForm>(&stored).unwrap(), filled);
        assert!(stored.len() * 4 < serde_json::to_string(&filled).unwrap().len());
    }

    /// The slow way: what an answer sent before it filled out stored forms itself.
    fn parsed_and_written(stored: &str) -> Option<String> {
        serde_json::from_str::<IntakeForm>(stored)
            .ok()
            .map(|form| serde_json::to_string(&form).unwrap())
    }

    /// A form with a random few fields filled in, each with random text: quotes,
    /// backslashes, controls, accents and wide characters among it.
    fn random_form() -> impl Strategy<Value = IntakeForm> {
        let defaults = serde_json::to_value(IntakeForm::default()).unwrap();
        let names: Vec<(String, serde_json::Value)> = defaults
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, default)| (name.clone(), default.clone()))
            .collect();
        let text = "[a-zA-Z0-9 ,.'()@/-]{0,12}|.{0,6}|[\"\\\\\n\u{1}é日🙂]{1,4}";
        let count = names.len();
        (
            proptest::collection::vec(proptest::bool::weighted(0.4), count),
            proptest::collection::vec(text, count),
            proptest::collection::vec(proptest::collection::vec(text, 0..3), count),
            proptest::collection::vec(prop_oneof![Just(0.0), Just(8.0), -1e6..1e6f64], count),
        )
            .prop_map(move |(filled, texts, lists, numbers)| {
                let mut form = serde_json::Map::new();
                for (i, (name, default)) in names.iter().enumerate() {
                    if !filled[i] {
                        continue;
                    }
                    let value = match default {
                        serde_json::Value::String(_) => serde_json::json!(texts[i]),
                        serde_json::Value::Array(_) => serde_json::json!(lists[i]),
                        serde_json::Value::Bool(_) => serde_json::json!(true),
                        _ => serde_json::json!(numbers[i]),
                    };
                    form.insert(name.clone(), value);
                }
                serde_json::from_value(form.into()).unwrap()
            })
    }

    proptest! {
        /// An intake's answer fills out the stored form itself; whatever the form holds,
        /// it sends the bytes parsing and writing it again would, and it fills out every
        /// form with nothing escaped without parsing.
        #[test]
        fn a_filled_out_form_is_the_parsed_form_written_again(form in random_form()) {
            let stored = stored_form(&form).unwrap();
            prop_assert_eq!(Some(whole_form_json(&stored).unwrap()), parsed_and_written(&stored));
            if !stored.contains('\\') {
                let template = Template::of::<IntakeForm>().unwrap();
                prop_assert!(template.filled_out(&stored).is_some(), "{}", stored);
            }
        }
    }

    #[test]
    fn an_answer_form_is_written_as_raw_json_by_serde_json_too() {
        let stored = r#"{"callerName":"Ann"}"#;
        let form = FormJson::new(whole_form_json(stored).unwrap()).unwrap();
        let written = serde_json::to_string(&form).unwrap();
        assert_eq!(written, form.as_str());
        assert_eq!(Some(written), parsed_and_written(stored));
    }

    #[test]
    fn a_stored_form_written_another_way_is_parsed_and_a_broken_one_refused() {
        // Written by hand or by an older version: spaces, another order, a number as
        // text or without its fraction, escapes. Each answers as parsing would.
        for stored in [
            "{}",
            r#"{ "callerName": "Ann" }"#,
            r#"{"clientFullName":"Bo","callerName":"Ann"}"#,
            r#"{"totalHoursPerWeek":"8"}"#,
            r#"{"totalHoursPerWeek":8}"#,
            r#"{"totalHoursPerWeek":1e2}"#,
            r#"{"totalHoursPerWeek":-0}"#,
            r#"{"totalHoursPerWeek":null}"#,
            r#"{"callerName":"A\u0041\"n"}"#,
            r#"{"servicesRequired":["a", "b"]}"#,
            r#"{"servicesRequired":[]}"#,
            r#"{"clientIsCaller":false}"#,
            r#"{"callerName":""}"#,
        ] {
            assert_eq!(
                whole_form_json(stored).ok(),
                parsed_and_written(stored),
                "{stored}"
            );
            assert!(parsed_and_written(stored).is_some(), "{stored}");
        }
        // What parsing refuses is refused, never passed on.
        for stored in [
            r#"{"noSuchField":"x"}"#,
            r#"{"callerName":"A","callerName":"B"}"#,
            r#"{"callerName":1}"#,
            r#"{"clientIsCaller":"yes"}"#,
            r#"{"servicesRequired":"a"}"#,
            r#"{"callerName":"A"} trailing"#,
            r#"{"totalHoursPerWeek":1e999}"#,
            "{\"callerName\":\"a\u{1}b\"}",
            r#"{"callerName":"A""#,
            "",
        ] {
            assert!(parsed_and_written(stored).is_none(), "{stored}");
            assert!(whole_form_json(stored).is_err(), "{stored}");
        }
    }

    /// Every field of the form, filled in, and every empty value a field accepts besides
    /// its default, survive being stored: a field added later that does not is caught.
    #[test]
    fn every_intake_form_field_survives_being_stored() {
        let defaults = serde_json::to_value(IntakeForm::default()).unwrap();
        let defaults = defaults.as_object().unwrap();
        let mut filled = serde_json::Map::new();
        for (name, default) in defaults {
            let value = match default {
                serde_json::Value::String(_) => serde_json::json!("x"),
                serde_json::Value::Array(_) => serde_json::json!(["x"]),
                serde_json::Value::Bool(_) => serde_json::json!(true),
                serde_json::Value::Null => serde_json::json!(2.5),
                other => panic!("{name}: a default of {other} is not one the store leaves out"),
            };
            filled.insert(name.clone(), value);
            for empty in [
                serde_json::json!(""),
                serde_json::json!([]),
                serde_json::json!({}),
                serde_json::json!(false),
                serde_json::json!(null),
            ] {
                let mut one = serde_json::Map::new();
                one.insert(name.clone(), empty.clone());
                if let Ok(form) = serde_json::from_value::<IntakeForm>(one.into()) {
                    let stored = stored_form(&form).unwrap();
                    assert_eq!(
                        serde_json::from_str::<IntakeForm>(&stored).unwrap(),
                        form,
                        "{name} = {empty}"
                    );
                }
            }
        }
        let form: IntakeForm = serde_json::from_value(filled.into()).unwrap();
        let stored = stored_form(&form).unwrap();
        assert_eq!(serde_json::from_str::<IntakeForm>(&stored).unwrap(), form);
        assert_eq!(
            stored,
            serde_json::to_string(&form).unwrap(),
            "nothing filled is left out"
        );
    }
}
