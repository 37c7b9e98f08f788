//! The admin panel's trash: soft-deleted intakes, assessments, care plans and contracts,
//! with who deleted them (from the audit log) and when.

use super::Store;
use crate::error::Result;
use crate::model::TrashItem;

/// At most this many records are listed, newest deletions first.
pub const TRASH_LIMIT: i64 = 500;

impl Store {
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
             LIMIT ?1",
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
