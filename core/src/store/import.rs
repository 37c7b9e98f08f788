//! The lead import loader and its undo: import batches, the duplicate lookup against
//! existing clients, and all rows written in one transaction.

use std::collections::HashMap;

use foldhash::fast::RandomState;

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::intakes::insert;
use super::owners::new_client_owner;
use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::import::{
    LeadFile, LeadImportOptions, OnDuplicate, RowIssue, RowNote, duplicate_keys, file_sha256,
};
use crate::model::{Actor, IntakeForm, IntakeId};

/// A recorded import: one file loaded once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportBatch {
    pub id: String,
    pub file_name: String,
    pub file_sha256: String,
    pub created_at: String,
    pub rows_created: i64,
    pub rows_updated: i64,
    pub rows_skipped: i64,
    pub undone_at: Option<String>,
}

/// What an import did, or with `dry_run` would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub file_name: String,
    pub file_sha256: String,
    pub dry_run: bool,
    /// The batch written (None for a dry run or when nothing was written).
    pub batch_id: Option<String>,
    /// The earlier batch of this very file, when it was already imported: nothing is
    /// written again.
    pub already_imported: Option<ImportBatch>,
    /// Each column of the file and the intake field it was read as.
    pub columns: Vec<(String, Option<String>)>,
    /// Rows read, not counting the header and empty rows.
    pub rows: usize,
    pub created: usize,
    pub updated: Vec<RowNote>,
    pub skipped: Vec<RowNote>,
    pub invalid: Vec<RowIssue>,
    /// Rows with problems, each counted once.
    pub invalid_rows: usize,
    /// False when invalid rows stopped the import (all or nothing without
    /// `skip_invalid`).
    pub committed: bool,
}

/// What undoing a batch removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UndoReport {
    pub batch_id: String,
    pub file_name: String,
    pub removed: usize,
}

const BATCH_COLUMNS: &str = "id, file_name, file_sha256, created_at, rows_created, rows_updated, \
    rows_skipped, undone_at";

fn batch_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<ImportBatch> {
    Ok(ImportBatch {
        id: row.get(0)?,
        file_name: row.get(1)?,
        file_sha256: row.get(2)?,
        created_at: row.get(3)?,
        rows_created: row.get(4)?,
        rows_updated: row.get(5)?,
        rows_skipped: row.get(6)?,
        undone_at: row.get(7)?,
    })
}

/// An existing client a lead may duplicate.
struct Existing {
    id: IntakeId,
    name: String,
}

/// The imported row's non-empty fields over the stored form; who took the call and
/// when stay as first recorded.
fn merge_forms(stored: &IntakeForm, imported: &IntakeForm) -> Result<IntakeForm> {
    let mut merged = serde_json::to_value(stored)?;
    let imported = serde_json::to_value(imported)?;
    if let (Some(merged), Some(imported)) = (merged.as_object_mut(), imported.as_object()) {
        for (key, value) in imported {
            if matches!(
                key.as_str(),
                "staffMemberTakingCall" | "date" | "clientIsCaller"
            ) {
                continue;
            }
            let filled = match value {
                serde_json::Value::String(s) => !s.is_empty(),
                serde_json::Value::Array(items) => !items.is_empty(),
                serde_json::Value::Null => false,
                _ => true,
            };
            if filled {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(serde_json::from_value(merged)?)
}

impl Store {
    /// Imports a lead file: every row read, mapped, validated with the intake form's
    /// rules and checked for duplicates (within the file and against clients), then all
    /// loaded in one transaction with the batch they came in. A file already imported
    /// writes nothing again. `progress` hears (rows done, rows to do) while loading.
    pub fn import_leads(
        &mut self,
        actor: &Actor,
        bytes: &[u8],
        options: &LeadImportOptions,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<ImportReport> {
        let clock = self.clock()?;
        let sha = file_sha256(bytes);
        let file = LeadFile::open(bytes, options, &clock)?;
        let mut report = ImportReport {
            file_name: options.file_name.clone(),
            file_sha256: sha.clone(),
            dry_run: options.dry_run,
            batch_id: None,
            already_imported: self.import_batch_by_sha(&sha)?,
            columns: file
                .mapping
                .headers
                .iter()
                .zip(&file.mapping.fields)
                .map(|(h, f)| (h.clone(), f.map(|f| f.form_name().to_owned())))
                .collect(),
            rows: 0,
            created: 0,
            updated: Vec::new(),
            skipped: Vec::new(),
            invalid: Vec::new(),
            invalid_rows: 0,
            committed: false,
        };
        if report.already_imported.is_some() {
            file.each_row(|_, _| {
                report.rows += 1;
                Ok(())
            })?;
            return Ok(report);
        }

        // First pass: decide every row before writing anything, keeping only each
        // row's verdict, so a dry run and a refused file report every row while a large
        // file's forms are never all held at once.
        let existing = self.existing_client_keys()?;
        // The rows to write, in file order, with the client a row updates.
        let mut plan: Vec<(usize, Option<IntakeId>)> = Vec::new();
        file.each_lead(&clock, |mut lead| {
            report.rows += 1;
            if !lead.issues.is_empty() {
                report.invalid_rows += 1;
                report.invalid.append(&mut lead.issues);
                return Ok(());
            }
            if let Some(first) = lead.duplicate_of_row {
                report.skipped.push(RowNote {
                    row: lead.row,
                    client_name: lead.form.client_full_name,
                    message: format!("Duplicate of row {first} in this file"),
                });
                return Ok(());
            }
            let matched = duplicate_keys(&lead.form)
                .iter()
                .find_map(|key| existing.get(key));
            match (matched, options.on_duplicate) {
                (Some(client), OnDuplicate::Skip) => report.skipped.push(RowNote {
                    row: lead.row,
                    client_name: lead.form.client_full_name,
                    message: format!("Already a client: {}", client.name),
                }),
                (Some(client), OnDuplicate::Update) => {
                    report.updated.push(RowNote {
                        row: lead.row,
                        client_name: lead.form.client_full_name,
                        message: format!("Updates the client {}", client.name),
                    });
                    plan.push((lead.row, Some(client.id.clone())));
                }
                (_, _) => plan.push((lead.row, None)),
            }
            Ok(())
        })?;
        drop(existing);
        report.created = plan.iter().filter(|(_, update)| update.is_none()).count();
        if options.dry_run || (report.invalid_rows > 0 && !options.skip_invalid) {
            return Ok(report);
        }

        let batch_id = IntakeId::new().as_str().to_owned();
        let total = plan.len();
        let skipped = report.skipped.len() + report.invalid_rows;
        let updated = report.updated.len();
        let created = report.created;
        self.bulk_load(total, |store| {
            let now = ts(clock.now());
            store.write(|tx| {
                super::exec(tx,
                    "INSERT INTO import_batches (id, file_name, file_sha256, created_at, created_by,
                        rows_created, rows_updated, rows_skipped)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        batch_id,
                        options.file_name,
                        sha,
                        now,
                        actor.user_id,
                        created as i64,
                        updated as i64,
                        skipped as i64
                    ],
                )?;
                audit(
                    tx,
                    actor,
                    clock.now(),
                    "import",
                    "import_batch",
                    &batch_id,
                    None,
                    &[],
                )
            })?;
            // Second pass: each planned row is read and mapped again and written.
            let mut planned = plan.into_iter().peekable();
            let mut done = 0;
            file.each_row(|row, cells| {
                let Some(update) = planned.next_if(|(next, _)| *next == row).map(|(_, u)| u) else {
                    return Ok(());
                };
                let form = file.form(cells);
                let result = match update {
                    None => {
                        let id = IntakeId::new();
                        store.write(|tx| {
                            // An import's leads go to the coordinator their row names,
                            // else to the import's owner option, else to nobody.
                            let owner = new_client_owner(
                                tx,
                                None,
                                &form.assigned_coordinator,
                                options.owner.as_ref(),
                            )?;
                            insert(
                                tx,
                                actor,
                                &clock,
                                &id,
                                &form,
                                false,
                                Some(&batch_id),
                                owner.as_ref(),
                            )
                        })
                    }
                    Some(id) => {
                        let stored = store.get_intake(&id)?;
                        let merged = merge_forms(&stored.form, &form)?;
                        store
                            .update_intake(actor, &id, stored.version, merged)
                            .map(|_| ())
                    }
                };
                result.map_err(|error| match error {
                    Error::Validation(errors) => {
                        Error::Rejected(format!("row {row}: {}", errors.message))
                    }
                    other => other,
                })?;
                if done % 256 == 0 || done + 1 == total {
                    progress(done + 1, total);
                }
                done += 1;
                Ok(())
            })?;
            Ok(())
        })?;
        report.batch_id = Some(batch_id);
        report.committed = true;
        Ok(report)
    }

    /// Every import, newest first.
    pub fn import_batches(&self) -> Result<Vec<ImportBatch>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {BATCH_COLUMNS} FROM import_batches ORDER BY created_at DESC, id DESC"
        ))?;
        let rows = statement.query_map([], batch_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn import_batch_by_sha(&self, sha: &str) -> Result<Option<ImportBatch>> {
        Ok(super::query_row(
            self.conn(),
            &format!(
                "SELECT {BATCH_COLUMNS} FROM import_batches
                     WHERE file_sha256 = ?1 AND undone_at IS NULL ORDER BY created_at LIMIT 1"
            ),
            [sha],
            batch_from_row,
        )
        .optional()?)
    }

    /// The duplicate keys of every client that is not deleted.
    fn existing_client_keys(&self) -> Result<HashMap<String, Existing, RandomState>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id, client_full_name, caller_phone, caller_email, date_of_birth
             FROM intakes WHERE deleted_at IS NULL ORDER BY seq",
        )?;
        let mut rows = statement.query([])?;
        let mut keys = HashMap::default();
        while let Some(row) = rows.next()? {
            let id: IntakeId = row.get(0)?;
            let form = IntakeForm {
                client_full_name: row.get(1)?,
                caller_phone: row.get(2)?,
                caller_email: row.get(3)?,
                date_of_birth: row.get::<_, Option<String>>(4)?.unwrap_or_default(),
                ..IntakeForm::default()
            };
            for key in duplicate_keys(&form) {
                keys.entry(key).or_insert_with(|| Existing {
                    id: id.clone(),
                    name: form.client_full_name.clone(),
                });
            }
        }
        Ok(keys)
    }

    /// Removes the clients an import created. Refused when any of them has moved on
    /// (an assessment, care plan, contract, contact or communication), since undoing
    /// would throw that work away; rows the import updated keep their update.
    pub fn undo_import(&mut self, actor: &Actor, batch_id: &str) -> Result<UndoReport> {
        let batch_id = batch_id.trim();
        let now = self.now();
        self.write(|tx| {
            let batch = super::query_row(
                tx,
                &format!("SELECT {BATCH_COLUMNS} FROM import_batches WHERE id = ?1"),
                [batch_id],
                batch_from_row,
            )
            .optional()?
            .ok_or_else(|| Error::not_found("import batch", batch_id))?;
            if let Some(at) = &batch.undone_at {
                return Err(Error::Rejected(format!(
                    "Import batch {batch_id} was already undone at {at}."
                )));
            }
            let mut statement = tx.prepare_cached(
                "SELECT i.client_full_name FROM intakes i WHERE i.import_batch_id = ?1 AND (
                    EXISTS (SELECT 1 FROM assessments a WHERE a.intake_id = i.id)
                    OR EXISTS (SELECT 1 FROM care_plan_proposals c WHERE c.intake_id = i.id)
                    OR EXISTS (SELECT 1 FROM contracts t WHERE t.intake_id = i.id)
                    OR EXISTS (SELECT 1 FROM client_contacts k WHERE k.intake_id = i.id)
                    OR EXISTS (SELECT 1 FROM communications m WHERE m.intake_id = i.id))
                 ORDER BY i.seq",
            )?;
            let moved_on = statement
                .query_map([batch_id], |row| row.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            if !moved_on.is_empty() {
                let shown: Vec<&str> = moved_on.iter().take(5).map(String::as_str).collect();
                return Err(Error::Rejected(format!(
                    "Import batch {batch_id} cannot be undone: {} of its clients already have \
                     assessments, care plans, contracts, contacts or communications ({}{}). \
                     Delete those clients one by one instead.",
                    moved_on.len(),
                    shown.join(", "),
                    if moved_on.len() > shown.len() {
                        ", …"
                    } else {
                        ""
                    }
                )));
            }
            let ids = tx
                .prepare_cached("SELECT id FROM intakes WHERE import_batch_id = ?1")?
                .query_map([batch_id], |row| row.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            let removed = super::exec(
                tx,
                "DELETE FROM intakes WHERE import_batch_id = ?1",
                [batch_id],
            )?;
            super::exec(
                tx,
                "UPDATE import_batches SET undone_at = ?2 WHERE id = ?1",
                params![batch_id, ts(now)],
            )?;
            for id in &ids {
                audit(tx, actor, now, "hard_delete", "intake", id, Some(id), &[])?;
            }
            audit(tx, actor, now, "undo", "import_batch", batch_id, None, &[])?;
            Ok(UndoReport {
                batch_id: batch_id.to_owned(),
                file_name: batch.file_name,
                removed,
            })
        })
    }
}
