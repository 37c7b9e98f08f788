//! Care plan proposals: create from an assessment, edit, price, send, approve, delete.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::log_event;
use super::paging::{Filters, Keyset, Page, page_limit};
use super::trash::Trashable;
use super::{Store, audit, position, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{
    Actor, AssessmentId, CarePlan, CarePlanId, CarePlanInput, CarePlanQuoteInput, CarePlanService,
    CarePlanStatus, IntakeId, Parents, PricingTemplateId, WeeklySchedule,
};
use crate::rules::clock::{AgencyClock, age_in_years, parse_date, parse_timestamp};
use crate::rules::costs::{CarePlanCosts, CarePlanQuote, care_plan_costs, quote};
use crate::rules::events::PipelineEvent;
use crate::rules::pricing::{DEFAULT_HOURLY_RATE, preselection, priced_proposal, rate_source};
use crate::rules::transitions::{care_plan_can_generate_contract, check_care_plan_transition};
use crate::rules::validation::{UNKNOWN_PRICING_TEMPLATE, validate_care_plan, validate_quote};

#[derive(Debug, Clone, Default)]
pub struct CarePlanQuery {
    pub status: Option<CarePlanStatus>,
    pub search: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

pub type CarePlanPage = Page<CarePlan>;

/// A new care plan form filled from an assessment, with the suggested pricing template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarePlanPrefill {
    pub assessment_id: AssessmentId,
    pub intake_id: Option<IntakeId>,
    pub plan: CarePlanInput,
    pub suggested_pricing_template_id: Option<PricingTemplateId>,
}

const COLUMNS: &str = "cp.id, cp.version, cp.assessment_id, cp.intake_id, cp.status, cp.client_name, \
    cp.family_contact_name, cp.family_contact_email, cp.care_coordinator_name, cp.services, \
    cp.additional_notes, cp.schedule, cp.proposed_start_date, cp.pricing_template_id, \
    cp.hourly_rate, cp.total_weekly_hours, cp.weekly_cost, cp.monthly_cost, \
    cp.marketing_email_content, cp.sent_at, cp.approved_at, cp.created_at, cp.updated_at, \
    cp.deleted_at, i.date_of_birth, \
    (SELECT c.id FROM contracts c WHERE c.care_plan_proposal_id = cp.id AND c.deleted_at IS NULL ORDER BY c.created_at DESC LIMIT 1), \
    (SELECT c.status FROM contracts c WHERE c.care_plan_proposal_id = cp.id AND c.deleted_at IS NULL ORDER BY c.created_at DESC LIMIT 1), \
    (SELECT pt.weekend_premium FROM pricing_templates pt WHERE pt.id = cp.pricing_template_id), \
    COALESCE((SELECT a.updated_at > COALESCE(cp.saved_at, cp.created_at) FROM assessments a WHERE a.id = cp.assessment_id AND a.deleted_at IS NULL), 0)";

fn json_err(index: usize, e: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, Box::new(e))
}

fn from_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<CarePlan> {
    let services: Vec<CarePlanService> =
        serde_json::from_str(&row.get::<_, String>(9)?).map_err(|e| json_err(9, e))?;
    let schedule: String = row.get(11)?;
    let created_at: String = row.get(21)?;
    let date_of_birth: Option<String> = row.get(24)?;
    let schedule: WeeklySchedule = serde_json::from_str(&schedule).map_err(|e| json_err(11, e))?;
    let hourly_rate: f64 = row.get(14)?;
    let status: CarePlanStatus = row.get(4)?;
    let deleted_at: Option<String> = row.get(23)?;
    // The rate breakdown of the stored plan: its rate with its template's weekend premium
    // (none when the template is gone).
    let costs = care_plan_costs(
        &schedule,
        hourly_rate,
        row.get::<_, Option<f64>>(27)?.unwrap_or(0.0),
    );
    Ok(CarePlan {
        id: row.get(0)?,
        version: row.get(1)?,
        assessment_id: row.get(2)?,
        intake_id: row.get(3)?,
        status,
        client_name: row.get(5)?,
        family_contact_name: row.get(6)?,
        family_contact_email: row.get(7)?,
        care_coordinator_name: row.get(8)?,
        service_labels: services
            .iter()
            .map(|service| service.label().to_owned())
            .collect(),
        services,
        additional_notes: row.get(10)?,
        schedule,
        proposed_start_date: row.get(12)?,
        pricing_template_id: row.get(13)?,
        hourly_rate,
        total_weekly_hours: row.get(15)?,
        weekly_cost: row.get(16)?,
        monthly_cost: row.get(17)?,
        weekend_hours: costs.weekend_hours,
        blended_rate: costs.blended_rate,
        assessment_changed: row.get(28)?,
        marketing_email_content: row.get(18)?,
        sent_at: row.get(19)?,
        approved_at: row.get(20)?,
        age: date_of_birth
            .as_deref()
            .and_then(parse_date)
            .and_then(|dob| age_in_years(dob, clock.today())),
        date_of_birth,
        days_in_stage: parse_timestamp(&created_at)
            .map(|t| clock.days_since(t).max(0))
            .unwrap_or(0),
        contract_id: row.get(25)?,
        contract_status: row.get(26)?,
        can_generate_contract: care_plan_can_generate_contract(status, deleted_at.is_some()),
        created_at,
        updated_at: row.get(22)?,
        deleted_at,
    })
}

struct Stored {
    version: i64,
    status: CarePlanStatus,
    intake_id: Option<IntakeId>,
}

fn load_stored(tx: &Connection, id: &CarePlanId) -> Result<Stored> {
    super::query_row(tx,
        "SELECT version, status, intake_id FROM care_plan_proposals WHERE id = ?1 AND deleted_at IS NULL",
        [id],
        |row| {
            Ok(Stored {
                version: row.get(0)?,
                status: row.get(1)?,
                intake_id: row.get(2)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| Error::not_found("care plan", id))
}

/// The base rate and weekend premium of the named template; None when none is named.
/// A named template that does not exist is refused, never priced as if it had no
/// premium.
fn template_pricing(
    tx: &Connection,
    template: Option<&PricingTemplateId>,
) -> Result<Option<(f64, f64)>> {
    let Some(template) = template else {
        return Ok(None);
    };
    super::query_row(
        tx,
        "SELECT base_rate, weekend_premium FROM pricing_templates WHERE id = ?1",
        [template],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()?
    .map(Some)
    .ok_or_else(|| {
        Error::Validation(ValidationErrors::single(
            "pricing_template_id",
            UNKNOWN_PRICING_TEMPLATE,
        ))
    })
}

/// The costs a save stores: the plan's rate (the default when a generated plan has
/// none) with its template's weekend premium.
fn save_costs(tx: &Connection, input: &CarePlanInput) -> Result<(f64, CarePlanCosts)> {
    let rate = input.hourly_rate.unwrap_or(DEFAULT_HOURLY_RATE);
    let premium = template_pricing(tx, input.pricing_template_id.as_ref())?
        .map(|(_, premium)| premium)
        .unwrap_or(0.0);
    Ok((rate, care_plan_costs(&input.schedule, rate, premium)))
}

impl Store {
    /// A new care plan form for an assessment, with the preselected pricing template.
    pub fn care_plan_prefill(&self, assessment_id: &AssessmentId) -> Result<CarePlanPrefill> {
        let assessment = self.get_assessment(assessment_id)?;
        let templates = self.pricing_templates()?;
        let plan = priced_proposal(&assessment, &templates);
        Ok(CarePlanPrefill {
            assessment_id: assessment.id,
            intake_id: assessment.intake_id,
            suggested_pricing_template_id: plan.pricing_template_id.clone(),
            plan,
        })
    }

    /// The cost box before a save: the typed rate, else the template's base rate, else
    /// the default rate, priced by the same rules the save uses.
    pub fn quote_care_plan(&self, input: &CarePlanQuoteInput) -> Result<CarePlanQuote> {
        validate_quote(&input.schedule, input.hourly_rate)?;
        let template = template_pricing(self.conn(), input.pricing_template_id.as_ref())?;
        let rate = input
            .hourly_rate
            .or(template.map(|(base, _)| base))
            .unwrap_or(DEFAULT_HOURLY_RATE);
        let premium = template.map(|(_, premium)| premium).unwrap_or(0.0);
        let templates = self.pricing_templates()?;
        let chosen = input
            .pricing_template_id
            .as_ref()
            .and_then(|id| templates.iter().find(|template| &template.id == id));
        let source = rate_source(rate, chosen, preselection(&input.services, &templates));
        Ok(quote(&input.schedule, rate, premium, source))
    }

    /// Save Care Plan for a new plan: validated, stored as draft with computed costs.
    pub fn create_care_plan(
        &mut self,
        actor: &Actor,
        assessment_id: Option<&AssessmentId>,
        input: CarePlanInput,
    ) -> Result<CarePlan> {
        let id = self.insert_care_plan(actor, assessment_id, input, false)?;
        self.get_care_plan(&id)
    }

    pub(crate) fn insert_care_plan(
        &mut self,
        actor: &Actor,
        assessment_id: Option<&AssessmentId>,
        input: CarePlanInput,
        generated: bool,
    ) -> Result<CarePlanId> {
        let input = trimmed(input);
        if !generated {
            validate_care_plan(&input)?;
        }
        let clock = self.clock()?;
        let id = CarePlanId::new();
        self.write(|tx| {
            let intake_id: Option<IntakeId> = match assessment_id {
                Some(assessment_id) => super::query_row(tx,
                        "SELECT intake_id FROM assessments WHERE id = ?1 AND deleted_at IS NULL",
                        [assessment_id],
                        |row| row.get(0),
                    )
                    .optional()?
                    .ok_or_else(|| Error::not_found("assessment", assessment_id))?,
                None => None,
            };
            let (rate, costs) = save_costs(tx, &input)?;
            let now = ts(clock.now());
            super::exec(tx,
                "INSERT INTO care_plan_proposals (id, assessment_id, intake_id, status, client_name,
                    family_contact_name, family_contact_email, care_coordinator_name, services,
                    additional_notes, schedule, proposed_start_date, pricing_template_id,
                    hourly_rate, total_weekly_hours, weekly_cost, monthly_cost, created_at, updated_at,
                    saved_at)
                 VALUES (?1, ?2, ?3, 'draft', ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?17, ?17)",
                params![
                    id,
                    assessment_id,
                    intake_id,
                    input.client_name,
                    input.family_contact_name,
                    input.family_contact_email,
                    input.care_coordinator_name,
                    serde_json::to_string(&input.services)?,
                    input.additional_notes,
                    serde_json::to_string(&input.schedule)?,
                    parse_date(&input.proposed_start_date).map(|d| d.to_string()),
                    input.pricing_template_id,
                    rate,
                    costs.total_weekly_hours,
                    costs.weekly_cost,
                    costs.monthly_cost,
                    now,
                ],
            )?;
            if let Some(intake_id) = &intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            let parents = Parents {
                intake_id: intake_id.clone(),
                assessment_id: assessment_id.cloned(),
                care_plan_id: Some(id.clone()),
                contract_id: None,
            };
            log_event(tx, actor, clock.now(), &parents, PipelineEvent::CarePlanCreated)?;
            audit(
                tx,
                actor,
                clock.now(),
                if generated { "generate" } else { "create" },
                "care_plan",
                id.as_str(),
                intake_id.as_ref().map(|i| i.as_str()),
                &[],
            )
        })?;
        Ok(id)
    }

    /// Save Care Plan for an existing plan; costs are recomputed.
    pub fn update_care_plan(
        &mut self,
        actor: &Actor,
        id: &CarePlanId,
        version: i64,
        input: CarePlanInput,
    ) -> Result<CarePlan> {
        let input = trimmed(input);
        validate_care_plan(&input)?;
        let clock = self.clock()?;
        let updated = self.write(|tx| {
            let stored = load_stored(tx, id)?;
            if stored.version != version {
                return Ok(false);
            }
            let (rate, costs) = save_costs(tx, &input)?;
            super::exec(
                tx,
                "UPDATE care_plan_proposals SET client_name = ?3, family_contact_name = ?4,
                    family_contact_email = ?5, care_coordinator_name = ?6, services = ?7,
                    additional_notes = ?8, schedule = ?9, proposed_start_date = ?10,
                    pricing_template_id = ?11, hourly_rate = ?12, total_weekly_hours = ?13,
                    weekly_cost = ?14, monthly_cost = ?15, updated_at = ?16, saved_at = ?16,
                    version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![
                    id,
                    version,
                    input.client_name,
                    input.family_contact_name,
                    input.family_contact_email,
                    input.care_coordinator_name,
                    serde_json::to_string(&input.services)?,
                    input.additional_notes,
                    serde_json::to_string(&input.schedule)?,
                    parse_date(&input.proposed_start_date).map(|d| d.to_string()),
                    input.pricing_template_id,
                    rate,
                    costs.total_weekly_hours,
                    costs.weekly_cost,
                    costs.monthly_cost,
                    ts(clock.now()),
                ],
            )?;
            audit(
                tx,
                actor,
                clock.now(),
                "update",
                "care_plan",
                id.as_str(),
                stored.intake_id.as_ref().map(|i| i.as_str()),
                &["client_name", "services", "schedule", "hourly_rate"],
            )?;
            Ok(true)
        })?;
        if updated {
            self.get_care_plan(id)
        } else {
            Err(Error::conflict("care plan", &self.get_care_plan(id)?))
        }
    }

    pub fn get_care_plan(&self, id: &CarePlanId) -> Result<CarePlan> {
        let clock = self.clock()?;
        let sql = format!(
            "SELECT {COLUMNS} FROM care_plan_proposals cp LEFT JOIN intakes i ON i.id = cp.intake_id WHERE cp.id = ?1"
        );
        super::query_row(self.conn(), &sql, [id], |row| from_row(row, &clock))
            .optional()?
            .ok_or_else(|| Error::not_found("care plan", id))
    }

    /// The care plans list, newest first.
    pub fn care_plans_page(&self, query: &CarePlanQuery) -> Result<CarePlanPage> {
        let clock = self.clock()?;
        let mut filters = Filters::new("cp.deleted_at IS NULL");
        filters.equal("cp.status", query.status.map(CarePlanStatus::as_str));
        filters.contains(&["cp.client_name"], query.search.as_deref());
        filters
            .page(
                &format!(
                    "SELECT {COLUMNS} FROM care_plan_proposals cp LEFT JOIN intakes i ON i.id = cp.intake_id"
                ),
                Keyset::descending("cp.created_at", "cp.id"),
                query.cursor.as_deref(),
                page_limit(query.limit),
            )?
            .read(
                self.conn(),
                |row| from_row(row, &clock),
                |c| (&c.created_at, c.id.as_str()),
            )
    }

    /// Care plans a contract can be generated from: sent or approved, newest first.
    pub fn sendable_care_plans(&self) -> Result<Vec<CarePlan>> {
        let clock = self.clock()?;
        let sql = format!(
            "SELECT {COLUMNS} FROM care_plan_proposals cp LEFT JOIN intakes i ON i.id = cp.intake_id
             WHERE cp.deleted_at IS NULL AND cp.status IN ('sent', 'approved')
             ORDER BY cp.created_at DESC LIMIT 200"
        );
        let mut statement = self.conn().prepare_cached(&sql)?;
        let rows = statement.query_map([], |row| from_row(row, &clock))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Keeps the generated (and possibly edited) marketing email with the plan.
    pub fn set_marketing_email(
        &mut self,
        actor: &Actor,
        id: &CarePlanId,
        content: &str,
    ) -> Result<CarePlan> {
        crate::rules::validation::check_field_text("marketing_email_content", content)?;
        let clock = self.clock()?;
        self.write(|tx| {
            let stored = load_stored(tx, id)?;
            super::exec(tx,
                "UPDATE care_plan_proposals SET marketing_email_content = ?2, updated_at = ?3, version = version + 1 WHERE id = ?1",
                params![id, content, ts(clock.now())],
            )?;
            audit(tx, actor, clock.now(), "marketing_email", "care_plan", id.as_str(), stored.intake_id.as_ref().map(|i| i.as_str()), &["marketing_email_content"])
        })?;
        self.get_care_plan(id)
    }

    /// The proposal email went out: draft (or sent, for a re-send) → sent.
    pub fn mark_care_plan_sent(&mut self, actor: &Actor, id: &CarePlanId) -> Result<CarePlan> {
        self.move_care_plan(actor, id, CarePlanStatus::Sent)
    }

    /// The family said yes: sent → approved.
    pub fn approve_care_plan(&mut self, actor: &Actor, id: &CarePlanId) -> Result<CarePlan> {
        self.move_care_plan(actor, id, CarePlanStatus::Approved)
    }

    fn move_care_plan(
        &mut self,
        actor: &Actor,
        id: &CarePlanId,
        to: CarePlanStatus,
    ) -> Result<CarePlan> {
        let clock = self.clock()?;
        self.write(|tx| move_care_plan(tx, actor, &clock, id, to))?;
        self.get_care_plan(id)
    }

    /// Soft-deletes a care plan (admin only).
    pub fn delete_care_plan(&mut self, actor: &Actor, id: &CarePlanId) -> Result<()> {
        self.set_deleted(actor, Trashable::CarePlan, id.as_str(), true)
    }

    /// Restores a soft-deleted care plan (admin only).
    pub fn restore_care_plan(&mut self, actor: &Actor, id: &CarePlanId) -> Result<CarePlan> {
        self.set_deleted(actor, Trashable::CarePlan, id.as_str(), false)?;
        self.get_care_plan(id)
    }
}

fn trimmed(mut input: CarePlanInput) -> CarePlanInput {
    for field in [
        &mut input.client_name,
        &mut input.family_contact_name,
        &mut input.family_contact_email,
        &mut input.care_coordinator_name,
        &mut input.proposed_start_date,
    ] {
        *field = field.trim().to_owned();
    }
    input.services.sort();
    input.services.dedup();
    input
}

/// Moves a care plan to sent or approved inside the caller's transaction: its status and
/// moment, the client's pipeline position, the timeline line and the audit row. Staff's
/// Approve button and the approval of a family's emailed or texted yes both come here.
pub(super) fn move_care_plan(
    tx: &Connection,
    actor: &Actor,
    clock: &AgencyClock,
    id: &CarePlanId,
    to: CarePlanStatus,
) -> Result<()> {
    let stored = load_stored(tx, id)?;
    check_care_plan_transition(stored.status, to)?;
    let now = ts(clock.now());
    let column = if to == CarePlanStatus::Sent {
        "sent_at"
    } else {
        "approved_at"
    };
    super::exec(
        tx,
        &format!(
            "UPDATE care_plan_proposals SET status = ?2, {column} = ?3, updated_at = ?3, version = version + 1 WHERE id = ?1"
        ),
        params![id, to, now],
    )?;
    if let Some(intake_id) = &stored.intake_id {
        position::refresh(tx, intake_id, clock)?;
    }
    let event = if to == CarePlanStatus::Sent {
        PipelineEvent::CarePlanSent
    } else {
        PipelineEvent::CarePlanApproved
    };
    let parents = Parents {
        intake_id: stored.intake_id.clone(),
        care_plan_id: Some(id.clone()),
        ..Parents::default()
    };
    // Every send is an email that went out; approving twice is one approval.
    if to == CarePlanStatus::Sent || stored.status != to {
        log_event(tx, actor, clock.now(), &parents, event)?;
    }
    audit(
        tx,
        actor,
        clock.now(),
        to.as_str(),
        "care_plan",
        id.as_str(),
        stored.intake_id.as_ref().map(|i| i.as_str()),
        &["status", column],
    )
}
