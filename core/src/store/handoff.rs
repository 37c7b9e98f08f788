//! The hand-off to care: a signed client's start-of-care checklist (created in the
//! signing's transaction, its items copied from Settings), ticking its items, and the
//! hand-off record and export read from the contract's signed terms.

use std::io::Write;

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::communications::log_description;
use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::export::handoff::{HandoffFormat, HandoffWriter};
use crate::model::{
    Actor, AssessmentId, ChecklistItemId, ContractId, ContractTerms, Handoff, IntakeId, Parents,
    StartOfCare, StartOfCareItem, StartOfCareItemInput, WorkflowSettings,
};
use crate::rules::csv_cell::export_file_name;
use crate::rules::handoff::{
    HandoffSources, NO_CHECKLIST_ITEM, NO_SIGNED_CONTRACT, assemble, checklist_entry,
};

/// Gives the client of a contract that has just become signed its start-of-care
/// checklist: the items Settings list at this moment. Runs in the signing's transaction;
/// a contract that already has its checklist keeps it.
pub(super) fn start_checklist(
    tx: &Connection,
    contract_id: &ContractId,
    intake_id: Option<&IntakeId>,
    now: &str,
) -> Result<()> {
    // A contract of no client has no profile to show a checklist on.
    let Some(intake_id) = intake_id else {
        return Ok(());
    };
    let stored: Option<String> = super::query_row(
        tx,
        "SELECT value FROM settings WHERE tab = 'workflow'",
        [],
        |row| row.get(0),
    )
    .optional()?;
    let workflow: WorkflowSettings = match stored {
        Some(value) => serde_json::from_str(&value)?,
        None => WorkflowSettings::default(),
    };
    for (position, label) in workflow.start_of_care_checklist.iter().enumerate() {
        super::exec(
            tx,
            "INSERT OR IGNORE INTO start_of_care_items
                (id, intake_id, contract_id, position, label, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                ChecklistItemId::new(),
                intake_id,
                contract_id,
                position as i64,
                label,
                now
            ],
        )?;
    }
    Ok(())
}

/// The contract a client signed last (not deleted, the client not deleted either).
fn signed_contract(conn: &Connection, intake_id: &IntakeId) -> Result<(ContractId, String)> {
    let client: Option<bool> = super::query_row(
        conn,
        "SELECT deleted_at IS NULL FROM intakes WHERE id = ?1",
        [intake_id],
        |row| row.get(0),
    )
    .optional()?;
    if client != Some(true) {
        return Err(Error::not_found("client", intake_id));
    }
    super::query_row(
        conn,
        "SELECT id, signed_at FROM contracts
         WHERE intake_id = ?1 AND status = 'signed' AND deleted_at IS NULL
         ORDER BY signed_at DESC, id DESC LIMIT 1",
        [intake_id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| Error::not_found(NO_SIGNED_CONTRACT, intake_id))
}

impl Store {
    /// A signed client's start-of-care checklist, for the contract signed last.
    pub fn start_of_care(&self, intake_id: &IntakeId) -> Result<StartOfCare> {
        self.snapshot(|| {
            let (contract_id, signed_at) = signed_contract(self.conn(), intake_id)?;
            let mut statement = self.conn().prepare_cached(
                "SELECT s.id, s.version, s.label, s.done_at, u.full_name
                 FROM start_of_care_items s LEFT JOIN users u ON u.id = s.done_by
                 WHERE s.contract_id = ?1 ORDER BY s.position",
            )?;
            let items = statement
                .query_map([&contract_id], |row| {
                    let done_at: Option<String> = row.get(3)?;
                    Ok(StartOfCareItem {
                        id: row.get(0)?,
                        version: row.get(1)?,
                        label: row.get(2)?,
                        done: done_at.is_some(),
                        done_by: done_at.as_ref().and(row.get(4)?),
                        done_at,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(StartOfCare {
                intake_id: intake_id.clone(),
                contract_id,
                signed_at,
                done_count: items.iter().filter(|item| item.done).count() as u32,
                items,
            })
        })
    }

    /// Ticks or unticks one item of a client's checklist: who and when are kept, and the
    /// client's timeline says so. Asking for the state it is already in changes nothing.
    pub fn set_start_of_care_item(
        &mut self,
        actor: &Actor,
        intake_id: &IntakeId,
        item_id: &ChecklistItemId,
        input: &StartOfCareItemInput,
    ) -> Result<StartOfCare> {
        let clock = self.clock()?;
        let current = self.start_of_care(intake_id)?;
        let Some(item) = current.items.iter().find(|item| &item.id == item_id) else {
            return Err(Error::not_found(NO_CHECKLIST_ITEM, item_id));
        };
        if item.done == input.done {
            return Ok(current);
        }
        if item.version != input.version {
            return Err(Error::conflict("start-of-care checklist", &current));
        }
        let now = clock.now();
        let changed = self.write(|tx| {
            let (done_at, done_by) = if input.done {
                (Some(ts(now)), actor.user_id.as_ref())
            } else {
                (None, None)
            };
            let changed = super::exec(
                tx,
                "UPDATE start_of_care_items SET done_at = ?3, done_by = ?4, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![item_id, input.version, done_at, done_by],
            )?;
            if changed == 0 {
                return Ok(false);
            }
            audit(
                tx,
                actor,
                now,
                "update",
                "start_of_care_item",
                item_id.as_str(),
                Some(intake_id.as_str()),
                &["done_at", "done_by"],
            )?;
            let parents = Parents {
                intake_id: Some(intake_id.clone()),
                contract_id: Some(current.contract_id.clone()),
                ..Parents::default()
            };
            log_description(
                tx,
                actor,
                now,
                &parents,
                &checklist_entry(&item.label, input.done),
            )?;
            Ok(true)
        })?;
        let stored = self.start_of_care(intake_id)?;
        if changed {
            Ok(stored)
        } else {
            Err(Error::conflict("start-of-care checklist", &stored))
        }
    }

    /// The hand-off of a signed client: the contract signed last, with its terms as
    /// signed, and what the office knows of the client.
    pub fn handoff(&self, intake_id: &IntakeId) -> Result<Handoff> {
        self.snapshot(|| {
            let (contract_id, _) = signed_contract(self.conn(), intake_id)?;
            self.handoff_of(intake_id, &contract_id)
        })
    }

    fn handoff_of(&self, intake_id: &IntakeId, contract_id: &ContractId) -> Result<Handoff> {
        let contract = self.get_contract(contract_id)?;
        let (terms, assessment_id): (Option<String>, Option<AssessmentId>) = super::query_row(
            self.conn(),
            "SELECT c.terms, p.assessment_id FROM contracts c
             LEFT JOIN care_plan_proposals p ON p.id = c.care_plan_proposal_id
             WHERE c.id = ?1",
            [contract_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let terms = match terms {
            Some(json) => serde_json::from_str(&json)?,
            // Every contract keeps its terms since schema 21 (which filled in the older
            // ones); this is only a file whose care plan had vanished then.
            None => ContractTerms::default(),
        };
        let intake = self.get_intake(intake_id)?;
        let contacts = self.contacts(intake_id)?;
        let assessment_id = assessment_id.or(intake.position.latest_assessment_id.clone());
        let assessment = match &assessment_id {
            Some(id) => Some(self.get_assessment(id)?).filter(|found| found.deleted_at.is_none()),
            None => None,
        };
        Ok(assemble(&HandoffSources {
            client_id: intake_id,
            contract: &contract,
            terms: &terms,
            intake: &intake.form,
            contacts: &contacts,
            assessment: assessment.as_ref().map(|found| (&found.id, &found.form)),
        }))
    }

    /// One signed client's hand-off as a CSV of one row or a JSON object.
    pub fn write_handoff(
        &self,
        intake_id: &IntakeId,
        format: HandoffFormat,
        out: &mut impl Write,
    ) -> Result<()> {
        let handoff = self.handoff(intake_id)?;
        let written = match format {
            HandoffFormat::Csv => HandoffWriter::start(format, &mut *out).and_then(|mut writer| {
                writer.record(&handoff)?;
                writer.finish().map(|_| ())
            }),
            HandoffFormat::Json => serde_json::to_writer_pretty(&mut *out, &handoff)
                .map_err(std::io::Error::other)
                .and_then(|()| out.flush()),
        };
        written.map_err(|error| Error::io("cannot write the hand-off", error))
    }

    /// Every client signed at or after `since` (all signed clients without it), one
    /// record each for the contract they signed last, oldest signing first, written as
    /// they are read.
    pub fn export_handoff(
        &self,
        since: Option<Timestamp>,
        format: HandoffFormat,
        out: &mut impl Write,
    ) -> Result<u64> {
        self.snapshot(|| {
            let since = since.map(ts).unwrap_or_default();
            // Only ids are held; each record is read and written in turn.
            let mut statement = self.conn().prepare_cached(
                "SELECT c.intake_id, c.id FROM contracts c JOIN intakes i ON i.id = c.intake_id
                 WHERE c.status = 'signed' AND c.deleted_at IS NULL AND i.deleted_at IS NULL
                   AND c.signed_at >= ?1
                   AND NOT EXISTS (
                       SELECT 1 FROM contracts d
                       WHERE d.intake_id = c.intake_id AND d.status = 'signed'
                         AND d.deleted_at IS NULL
                         AND (d.signed_at > c.signed_at OR (d.signed_at = c.signed_at AND d.id > c.id)))
                 ORDER BY c.signed_at, c.id",
            )?;
            let signed = statement
                .query_map([since], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<Result<Vec<(IntakeId, ContractId)>, _>>()?;
            let fail = |error| Error::io("cannot write the hand-off export", error);
            let mut writer =
                HandoffWriter::start(format, std::io::BufWriter::new(&mut *out)).map_err(fail)?;
            for (intake_id, contract_id) in &signed {
                writer
                    .record(&self.handoff_of(intake_id, contract_id)?)
                    .map_err(fail)?;
            }
            writer.finish().map_err(fail)
        })
    }

    /// `handoff_{date}.csv` (or `.json`), dated in the agency's zone.
    pub fn handoff_file_name(&self, format: HandoffFormat) -> Result<String> {
        let name = export_file_name("handoff", self.clock()?.today());
        Ok(match format {
            HandoffFormat::Csv => name,
            HandoffFormat::Json => name.replace(".csv", ".json"),
        })
    }
}
