//! Soft delete and restore of intakes, assessments, care plans and contracts, and the
//! admin panel's trash that lists them with who deleted them (from the audit log) and when.

use rusqlite::params;

use super::{Store, audit, position, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, IntakeId, TrashItem};

/// At most this many records are listed, newest deletions first.
pub const TRASH_LIMIT: i64 = 500;

/// A kind of record that deleting only hides: it leaves every list, count and the
/// client's pipeline until an administrator restores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trashable {
    Intake,
    Assessment,
    CarePlan,
    Contract,
}

impl Trashable {
    fn table(self) -> &'static str {
        match self {
            Trashable::Intake => "intakes",
            Trashable::Assessment => "assessments",
            Trashable::CarePlan => "care_plan_proposals",
            Trashable::Contract => "contracts",
        }
    }

    /// The audit log's entity, which is also the trash's kind.
    fn entity(self) -> &'static str {
        match self {
            Trashable::Intake => "intake",
            Trashable::Assessment => "assessment",
            Trashable::CarePlan => "care_plan",
            Trashable::Contract => "contract",
        }
    }

    /// What a not-found error names when there is nothing to delete or restore.
    fn missing(self, deleting: bool) -> &'static str {
        match self {
            Trashable::Intake if deleting => "intake",
            Trashable::Intake => "deleted intake",
            Trashable::Assessment => "assessment",
            Trashable::CarePlan => "care plan",
            Trashable::Contract => "contract",
        }
    }
}

impl Store {
    /// Soft-deletes (`deleting`) or restores one record (admin only) with its audit row.
    /// A record of a client moves the client's pipeline position, which it leaves or
    /// rejoins; an intake is the client itself and keeps its position.
    pub(crate) fn set_deleted(
        &mut self,
        actor: &Actor,
        kind: Trashable,
        id: &str,
        deleting: bool,
    ) -> Result<()> {
        require_admin(actor)?;
        let clock = self.clock()?;
        let table = kind.table();
        let (deleted_at, found, action) = if deleting {
            ("?2", "deleted_at IS NULL", "delete")
        } else {
            ("NULL", "deleted_at IS NOT NULL", "restore")
        };
        let sql = format!(
            "UPDATE {table} SET deleted_at = {deleted_at}, updated_at = ?2, version = version + 1
             WHERE id = ?1 AND {found}"
        );
        self.write(|tx| {
            if super::exec(tx, &sql, params![id, ts(clock.now())])? == 0 {
                return Err(Error::not_found(kind.missing(deleting), id));
            }
            let client: Option<IntakeId> = if kind == Trashable::Intake {
                None
            } else {
                super::query_row(
                    tx,
                    &format!("SELECT intake_id FROM {table} WHERE id = ?1"),
                    [id],
                    |row| row.get(0),
                )?
            };
            if let Some(intake_id) = &client {
                position::refresh(tx, intake_id, &clock)?;
            }
            // A deleted document's open family links end with it: restoring the document
            // does not bring them back (staff send a new one).
            let link_column = match kind {
                Trashable::CarePlan => Some("care_plan_id"),
                Trashable::Contract => Some("contract_id"),
                Trashable::Intake | Trashable::Assessment => None,
            };
            if let (true, Some(column)) = (deleting, link_column) {
                super::exec(
                    tx,
                    &format!(
                        "UPDATE signing_links SET revoked_at = ?2, version = version + 1
                          WHERE {column} = ?1 AND used_at IS NULL AND revoked_at IS NULL"
                    ),
                    params![id, ts(clock.now())],
                )?;
            }
            let intake_id = match kind {
                Trashable::Intake => Some(id),
                _ => client.as_ref().map(IntakeId::as_str),
            };
            audit(
                tx,
                actor,
                clock.now(),
                action,
                kind.entity(),
                id,
                intake_id,
                &["deleted_at"],
            )
        })
    }

    /// Soft-deleted records, most recently deleted first.
    pub fn trash(&self) -> Result<Vec<TrashItem>> {
        let mut statement = self.conn().prepare_cached(
            "WITH deleted(kind, id, client_name, deleted_at) AS (
                SELECT 'intake', id, client_full_name, deleted_at FROM intakes WHERE deleted_at IS NOT NULL
                UNION ALL
                SELECT 'assessment', id, client_name, deleted_at FROM assessments WHERE deleted_at IS NOT NULL
                UNION ALL
                SELECT 'care_plan', id, client_name, deleted_at FROM care_plan_proposals WHERE deleted_at IS NOT NULL
                UNION ALL
                SELECT 'contract', id, client_name, deleted_at FROM contracts WHERE deleted_at IS NOT NULL
             )
             SELECT d.kind, d.id, d.client_name, d.deleted_at,
                    (SELECT coalesce(nullif(u.full_name, ''), u.email)
                       FROM audit_log a JOIN users u ON u.id = a.user_id
                      WHERE a.entity = d.kind AND a.entity_id = d.id AND a.action = 'delete'
                      ORDER BY a.seq DESC LIMIT 1)
             FROM deleted d
             ORDER BY d.deleted_at DESC, d.id DESC
             LIMIT +?1",
        )?;
        let rows = statement.query_map([TRASH_LIMIT], |row| {
            Ok(TrashItem {
                kind: row.get(0)?,
                id: row.get(1)?,
                client_name: row.get(2)?,
                deleted_at: row.get(3)?,
                deleted_by: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}
