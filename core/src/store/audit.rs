//! The audit log read back: the change feed live updates tail.

use serde::Serialize;

use super::Store;
use crate::error::Result;

/// One change: who, through which face, what, to which record. Never client data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    pub seq: i64,
    pub at: String,
    pub user_id: Option<String>,
    pub channel: String,
    pub action: String,
    pub entity: String,
    pub entity_id: String,
    pub intake_id: Option<String>,
    pub changed_fields: Vec<String>,
}

impl Store {
    /// The newest audit sequence number (0 for an empty log).
    pub fn latest_audit_seq(&self) -> Result<i64> {
        Ok(super::query_row(
            self.conn(),
            "SELECT coalesce(max(seq), 0) FROM audit_log",
            [],
            |row| row.get(0),
        )?)
    }

    /// Changes after `seq`, oldest first, at most `limit`.
    pub fn audit_since(&self, seq: i64, limit: u32) -> Result<Vec<AuditEntry>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT seq, at, user_id, channel, action, entity, entity_id, intake_id, changed_fields
             FROM audit_log WHERE seq > ?1 ORDER BY seq LIMIT +?2",
        )?;
        let rows = statement.query_map(rusqlite::params![seq, limit], |row| {
            let fields: String = row.get(8)?;
            Ok(AuditEntry {
                seq: row.get(0)?,
                at: row.get(1)?,
                user_id: row.get(2)?,
                channel: row.get(3)?,
                action: row.get(4)?,
                entity: row.get(5)?,
                entity_id: row.get(6)?,
                intake_id: row.get(7)?,
                changed_fields: serde_json::from_str(&fields).unwrap_or_default(),
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}
