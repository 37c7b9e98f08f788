//! Contracts: preview from a care plan, save as draft, send, mark signed, delete.

use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use serde::Serialize;

use super::log_event;
use super::paging::Filters;
use super::trash::Trashable;
use super::{Store, audit, position, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, CarePlanId, Contract, ContractId, ContractPreview, ContractStatus, IntakeId, Parents,
    PricingDetails,
};
use crate::rules::clock::{AgencyClock, parse_timestamp};
use crate::rules::contract_text::{ContractFacts, render_contract};
use crate::rules::events::PipelineEvent;
use crate::rules::transitions::{
    check_contract_transition, contract_editable, contract_is_editable,
};
use crate::rules::validation::{CONTRACT_NEEDS_PREVIEW, CONTRACT_NEEDS_SENT_CARE_PLAN};

/// The contracts list shows the 20 newest.
pub const CONTRACTS_LIST_LIMIT: u32 = 20;

#[derive(Debug, Clone, Default)]
pub struct ContractQuery {
    pub status: Option<ContractStatus>,
    pub search: Option<String>,
    /// Export and other full reads; the screen uses the default of 20.
    pub limit: Option<u32>,
}

/// The three stat cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractStats {
    pub awaiting_signatures: i64,
    pub sent_this_week: i64,
    pub signed_this_month: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContractList {
    pub items: Vec<Contract>,
    pub stats: ContractStats,
}

const COLUMNS: &str = "id, version, care_plan_proposal_id, intake_id, client_name, \
    family_contact_email, status, contract_content, pricing_details, created_at, updated_at, \
    sent_at, signed_at, deleted_at";

fn from_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<Contract> {
    let pricing: String = row.get(8)?;
    let created_at: String = row.get(9)?;
    let sent_at: Option<String> = row.get(11)?;
    let signed_at: Option<String> = row.get(12)?;
    let status: ContractStatus = row.get(6)?;
    let deleted_at: Option<String> = row.get(13)?;
    // Days in the contract's current state: since signing, sending or creation.
    let stage_start = signed_at
        .clone()
        .or(sent_at.clone())
        .unwrap_or(created_at.clone());
    Ok(Contract {
        id: row.get(0)?,
        version: row.get(1)?,
        care_plan_proposal_id: row.get(2)?,
        intake_id: row.get(3)?,
        client_name: row.get(4)?,
        family_contact_email: row.get(5)?,
        status,
        editable: contract_is_editable(status, deleted_at.is_some()),
        contract_content: row.get(7)?,
        pricing_details: serde_json::from_str(&pricing).unwrap_or_default(),
        days_in_stage: parse_timestamp(&stage_start)
            .map(|t| clock.days_since(t).max(0))
            .unwrap_or(0),
        created_at,
        updated_at: row.get(10)?,
        sent_at,
        signed_at,
        deleted_at,
    })
}

struct Stored {
    version: i64,
    status: ContractStatus,
    intake_id: Option<IntakeId>,
}

fn load_stored(tx: &Connection, id: &ContractId) -> Result<Stored> {
    super::query_row(
        tx,
        "SELECT version, status, intake_id FROM contracts WHERE id = ?1 AND deleted_at IS NULL",
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
    .ok_or_else(|| Error::not_found("contract", id))
}

impl Store {
    /// The contract text for a care plan: the current contract template with every
    /// placeholder filled.
    pub fn contract_preview(&self, care_plan_id: &CarePlanId) -> Result<ContractPreview> {
        let clock = self.clock()?;
        let plan = self.get_care_plan(care_plan_id)?;
        if plan.deleted_at.is_some() {
            return Err(Error::not_found("care plan", care_plan_id));
        }
        let template = self.current_contract_template()?;
        let facts = ContractFacts {
            agency_name: self.settings()?.general.company_name,
            client_name: plan.client_name.clone(),
            hourly_rate: plan.hourly_rate,
            weekly_cost: plan.weekly_cost,
            monthly_cost: plan.monthly_cost,
            services: plan.services.clone(),
            schedule: plan.schedule.clone(),
            date: clock.today(),
        };
        Ok(ContractPreview {
            content: render_contract(&template.sections, &facts),
            care_plan_version: plan.version,
        })
    }

    /// Save as Draft in new mode: a contract from a sent or approved care plan. The
    /// contract takes the plan's figures, so `care_plan_version` names the version the
    /// user previewed; a plan changed since is a conflict carrying the stored plan.
    pub fn create_contract(
        &mut self,
        actor: &Actor,
        care_plan_id: &CarePlanId,
        care_plan_version: Option<i64>,
        content: &str,
    ) -> Result<Contract> {
        if content.trim().is_empty() {
            return Err(Error::Rejected(CONTRACT_NEEDS_PREVIEW.to_owned()));
        }
        crate::rules::validation::check_field_text("contract_content", content)?;
        let plan = self
            .get_care_plan(care_plan_id)
            .map_err(|_| Error::Rejected(CONTRACT_NEEDS_PREVIEW.to_owned()))?;
        if plan.deleted_at.is_some() {
            return Err(Error::Rejected(CONTRACT_NEEDS_PREVIEW.to_owned()));
        }
        if !plan.can_generate_contract {
            return Err(Error::Rejected(CONTRACT_NEEDS_SENT_CARE_PLAN.to_owned()));
        }
        if care_plan_version.is_some_and(|seen| seen != plan.version) {
            return Err(Error::conflict("care plan", &plan));
        }
        let clock = self.clock()?;
        let id = ContractId::new();
        let pricing = PricingDetails {
            hourly_rate: plan.hourly_rate,
            weekly_cost: plan.weekly_cost,
            monthly_cost: plan.monthly_cost,
        };
        self.write(|tx| {
            let now = ts(clock.now());
            super::exec(tx,
                "INSERT INTO contracts (id, care_plan_proposal_id, intake_id, client_name,
                    family_contact_email, status, contract_content, pricing_details, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'draft', ?6, ?7, ?8, ?8)",
                params![
                    id,
                    care_plan_id,
                    plan.intake_id,
                    plan.client_name,
                    plan.family_contact_email,
                    content,
                    serde_json::to_string(&pricing)?,
                    now,
                ],
            )?;
            if let Some(intake_id) = &plan.intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            let parents = Parents {
                intake_id: plan.intake_id.clone(),
                care_plan_id: Some(care_plan_id.clone()),
                contract_id: Some(id.clone()),
                ..Parents::default()
            };
            log_event(tx, actor, clock.now(), &parents, PipelineEvent::ContractCreated)?;
            audit(tx, actor, clock.now(), "create", "contract", id.as_str(), plan.intake_id.as_ref().map(|i| i.as_str()), &[])
        })?;
        self.get_contract(&id)
    }

    /// Save Changes on a draft contract.
    pub fn update_contract(
        &mut self,
        actor: &Actor,
        id: &ContractId,
        version: i64,
        content: &str,
    ) -> Result<Contract> {
        if content.trim().is_empty() {
            return Err(Error::Rejected(CONTRACT_NEEDS_PREVIEW.to_owned()));
        }
        crate::rules::validation::check_field_text("contract_content", content)?;
        let clock = self.clock()?;
        let updated = self.write(|tx| {
            let stored = load_stored(tx, id)?;
            contract_editable(stored.status)?;
            if stored.version != version {
                return Ok(false);
            }
            super::exec(
                tx,
                "UPDATE contracts SET contract_content = ?3, updated_at = ?4, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![id, version, content, ts(clock.now())],
            )?;
            audit(
                tx,
                actor,
                clock.now(),
                "update",
                "contract",
                id.as_str(),
                stored.intake_id.as_ref().map(|i| i.as_str()),
                &["contract_content"],
            )?;
            Ok(true)
        })?;
        if updated {
            self.get_contract(id)
        } else {
            Err(Error::conflict("contract", &self.get_contract(id)?))
        }
    }

    /// The contract went out for signature: draft → sent.
    pub fn mark_contract_sent(&mut self, actor: &Actor, id: &ContractId) -> Result<Contract> {
        self.move_contract(actor, id, ContractStatus::Sent)
    }

    /// Mark as Signed: sent → signed. The client becomes an active patient.
    pub fn sign_contract(&mut self, actor: &Actor, id: &ContractId) -> Result<Contract> {
        self.move_contract(actor, id, ContractStatus::Signed)
    }

    fn move_contract(
        &mut self,
        actor: &Actor,
        id: &ContractId,
        to: ContractStatus,
    ) -> Result<Contract> {
        let clock = self.clock()?;
        self.write(|tx| {
            let stored = load_stored(tx, id)?;
            check_contract_transition(stored.status, to)?;
            let column = if to == ContractStatus::Sent { "sent_at" } else { "signed_at" };
            super::exec(tx,
                &format!("UPDATE contracts SET status = ?2, {column} = ?3, updated_at = ?3, version = version + 1 WHERE id = ?1"),
                params![id, to, ts(clock.now())],
            )?;
            if let Some(intake_id) = &stored.intake_id {
                position::refresh(tx, intake_id, &clock)?;
            }
            let event = if to == ContractStatus::Sent {
                PipelineEvent::ContractSent
            } else {
                PipelineEvent::ContractSigned
            };
            let parents = Parents {
                intake_id: stored.intake_id.clone(),
                contract_id: Some(id.clone()),
                ..Parents::default()
            };
            log_event(tx, actor, clock.now(), &parents, event)?;
            audit(tx, actor, clock.now(), to.as_str(), "contract", id.as_str(), stored.intake_id.as_ref().map(|i| i.as_str()), &["status", column])
        })?;
        self.get_contract(id)
    }

    pub fn get_contract(&self, id: &ContractId) -> Result<Contract> {
        let clock = self.clock()?;
        let sql = format!("SELECT {COLUMNS} FROM contracts WHERE id = ?1");
        super::query_row(self.conn(), &sql, [id], |row| from_row(row, &clock))
            .optional()?
            .ok_or_else(|| Error::not_found("contract", id))
    }

    /// The contracts list (newest 20, searchable by client name) and the three stats.
    pub fn contracts_list(&self, query: &ContractQuery) -> Result<ContractList> {
        let clock = self.clock()?;
        let mut filters = Filters::new("deleted_at IS NULL");
        filters.equal("status", query.status.map(ContractStatus::as_str));
        filters.contains(&["client_name"], query.search.as_deref());
        let limit = query.limit.unwrap_or(CONTRACTS_LIST_LIMIT).max(1);
        let sql = format!(
            "SELECT {COLUMNS} FROM contracts WHERE {} ORDER BY created_at DESC, id DESC LIMIT {limit}",
            filters.conditions.join(" AND ")
        );
        let mut statement = self.conn().prepare_cached(&sql)?;
        let items = statement
            .query_map(params_from_iter(filters.values.iter()), |row| {
                from_row(row, &clock)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let week_ago = ts(clock
            .now()
            .checked_sub(jiff::SignedDuration::from_hours(24 * 7))
            .unwrap_or(clock.now()));
        let month_start = ts(clock.start_of_month());
        let stats = super::query_row(self.conn(),
            "SELECT
                (SELECT count(*) FROM contracts WHERE deleted_at IS NULL AND status = 'sent'),
                (SELECT count(*) FROM contracts WHERE deleted_at IS NULL AND sent_at >= ?1),
                (SELECT count(*) FROM contracts WHERE deleted_at IS NULL AND status = 'signed' AND signed_at >= ?2)",
            params![week_ago, month_start],
            |row| {
                Ok(ContractStats {
                    awaiting_signatures: row.get(0)?,
                    sent_this_week: row.get(1)?,
                    signed_this_month: row.get(2)?,
                })
            },
        )?;
        Ok(ContractList { items, stats })
    }

    /// Soft-deletes a contract (admin only).
    pub fn delete_contract(&mut self, actor: &Actor, id: &ContractId) -> Result<()> {
        self.set_deleted(actor, Trashable::Contract, id.as_str(), true)
    }

    /// Restores a soft-deleted contract (admin only).
    pub fn restore_contract(&mut self, actor: &Actor, id: &ContractId) -> Result<Contract> {
        self.set_deleted(actor, Trashable::Contract, id.as_str(), false)?;
        self.get_contract(id)
    }
}
