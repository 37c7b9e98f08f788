//! The bulk load: many operations as one transaction for loads of tens of thousands of
//! records, which builds the list and search indexes and the counts once at the end
//! when the load is large next to what is stored.

use rusqlite::Connection;

use super::{Store, query_row};
use crate::error::{Error, Result};

/// What [`Store::bulk_load`] builds once at the end instead of row by row: the search
/// index's triggers, the clients-per-stage counts' triggers, the indexes that only order
/// and filter list pages, and the lookups no operation of a load makes (a search's key,
/// an import's batch, a reply's phone). Indexes that operations look records up by (ids,
/// parents) stay, so every operation inside a bulk load is as fast as on its own.
const DEFERRED_SCHEMA: &[&str] = &[
    "intake_counts_insert",
    "intake_counts_delete",
    "intake_counts_update",
    "intakes_search_insert",
    "intakes_search_delete",
    "intakes_search_update",
    "record_counts_assessment_insert",
    "record_counts_assessment_delete",
    "record_counts_assessment_update",
    "record_counts_care_plan_insert",
    "record_counts_care_plan_delete",
    "record_counts_care_plan_update",
    "record_counts_contract_insert",
    "record_counts_contract_delete",
    "record_counts_contract_update",
    "record_counts_intake_archived",
    "moment_tallies_insert",
    "moment_tallies_delete",
    "moment_tallies_update",
    "follow_up_hours_insert",
    "follow_up_hours_delete",
    "follow_up_hours_update",
    "intakes_recent",
    "intakes_stage",
    "intakes_stage_overdue",
    "intakes_stage_entered",
    "intakes_entered",
    "intakes_stage_alert",
    "intakes_stage_name",
    "intakes_name",
    "intakes_overdue",
    "intakes_follow_up",
    "intakes_awaiting",
    "intakes_search_key",
    "intakes_import_batch",
    "intakes_phone_digits",
    "assessments_recent",
    "assessments_status",
    "care_plans_recent",
    "care_plans_status",
    "contracts_recent",
    "contracts_status",
    "contracts_sent",
    "contracts_signed",
    "communications_recent",
    "communications_type",
    "communications_status",
    "owner_counts_insert",
    "owner_counts_delete",
    "owner_counts_update",
    "intakes_owner",
    "intakes_owner_follow_up",
    "intakes_owner_stage_alert",
    "intakes_owner_unread",
    "intakes_owner_proposal",
    "intakes_owner_contract",
    "intakes_owner_overdue",
    "intakes_cohort",
];

/// Counts the tallies of migration 7 again from the tables, after a bulk load that
/// wrote without their triggers. The overdue tally starts over settled at nothing; the
/// next count settles it.
const RECOUNT_TALLIES: &str = "
    DELETE FROM record_counts;
    INSERT INTO record_counts (entity, status, n)
        SELECT 'assessment', r.status, count(*) FROM assessments r
        WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
        GROUP BY r.status;
    INSERT INTO record_counts (entity, status, n)
        SELECT 'care_plan', r.status, count(*) FROM care_plan_proposals r
        WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
        GROUP BY r.status;
    INSERT INTO record_counts (entity, status, n)
        SELECT 'contract', r.status, count(*) FROM contracts r
        WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
        GROUP BY r.status;
    UPDATE moment_tallies SET through = '', n = 0;
    DELETE FROM owner_counts;
    INSERT INTO owner_counts (owner_id, archived, stage, n)
        SELECT coalesce(owner_id, ''), archived, stage, count(*) FROM intakes
        WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
    DELETE FROM follow_up_hours;
    INSERT INTO follow_up_hours (hour, n)
        SELECT substr(next_follow_up_date, 1, 13), count(*) FROM intakes
        WHERE deleted_at IS NULL AND archived = 0 AND next_follow_up_date IS NOT NULL GROUP BY 1;";

/// The search index's buffer of new entries while it is built at the end of a bulk load
/// (bytes). The index writes a segment each time the buffer fills and merges segments
/// as they pile up; SQLite's default of 1 MiB makes a 100,000-client load write and
/// merge dozens of them, which took longer than all the rows' inserts.
const REBUILD_HASH_BYTES: i64 = 16 * 1024 * 1024;
/// Builds the search index from the intakes in the order of its keys. FTS5's own
/// 'rebuild' reads them in table order, which is the reverse of the keys' (they count
/// down, migration 9), and the index writes out a segment whenever a key is not above
/// the one before: that made a 100,000-lead import twice as slow.
const REBUILD_SEARCH: &str =
    "INSERT INTO intakes_search(intakes_search) VALUES ('delete-all');
     INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
         SELECT search_key, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email
         FROM intakes ORDER BY search_key;";
/// SQLite's own size of that buffer, for the small writes of every day.
const DEFAULT_HASH_BYTES: i64 = 1024 * 1024;

/// Page cache while a bulk load runs (KiB, as `cache_size` takes it): its whole
/// transaction stays in memory instead of spilling to the log page by page.
const BULK_CACHE_KIB: i64 = 65_536;
/// Page cache while the search index is built at the end of a bulk load. Reading the
/// intakes in key order fills a large cache with their pages beside the index's new
/// ones: at 64 MiB a 100,000-lead import peaked at 158 MB, at 16 MiB at 133 MB, in the
/// same time.
const SEARCH_BUILD_CACHE_KIB: i64 = 16_384;

impl Store {
    /// Runs many operations as one transaction, like [`Store::batch`], for loads of tens of
    /// thousands of records (demo data, a spreadsheet import). Every operation validates,
    /// audits and moves the pipeline exactly as on its own. `records` is about how many
    /// clients the load adds: when that is large next to the clients already stored (see
    /// [`defers_indexes`]), the list indexes, the search index and the clients-per-stage
    /// counts are built once at the end from the finished tables instead of row by row. The index changes are part of
    /// the transaction, so a failed load leaves the database, schema included, as it was.
    pub fn bulk_load<T>(
        &mut self,
        records: usize,
        f: impl FnOnce(&mut Store) -> Result<T>,
    ) -> Result<T> {
        if !self.conn.is_autocommit() {
            return self.batch(f);
        }
        let cache: i64 = self
            .conn
            .pragma_query_value(None, "cache_size", |row| row.get(0))?;
        let gate = self.gate.clone();
        let _turn = gate.enter();
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let result = (|| {
            let existing: i64 = query_row(
                &self.conn,
                "SELECT coalesce(sum(n), 0) FROM intake_counts",
                [],
                |row| row.get(0),
            )?;
            let deferred = if defers_indexes(records, existing) {
                defer_schema(&self.conn)?
            } else {
                Vec::new()
            };
            self.conn
                .pragma_update(None, "cache_size", -BULK_CACHE_KIB)?;
            self.bulk = true;
            self.bulk_failed = false;
            let value = f(self);
            self.bulk = false;
            let value = value?;
            if self.bulk_failed {
                return Err(Error::Rejected(
                    "An operation of the load failed, so nothing was loaded.".to_owned(),
                ));
            }
            if !deferred.is_empty() {
                for sql in &deferred {
                    self.conn.execute_batch(sql)?;
                }
                self.conn
                    .pragma_update(None, "cache_size", -SEARCH_BUILD_CACHE_KIB)?;
                self.conn.execute_batch(&format!(
                    "INSERT INTO intakes_search(intakes_search, rank) VALUES ('hashsize', {REBUILD_HASH_BYTES});
                     {REBUILD_SEARCH}
                     INSERT INTO intakes_search(intakes_search, rank) VALUES ('hashsize', {DEFAULT_HASH_BYTES});
                     DELETE FROM intake_counts;
                     INSERT INTO intake_counts (archived, stage, n)
                         SELECT archived, stage, count(*) FROM intakes
                         WHERE deleted_at IS NULL GROUP BY archived, stage;",
                ))?;
                self.conn.execute_batch(RECOUNT_TALLIES)?;
            }
            self.conn.execute_batch("COMMIT")?;
            Ok(value)
        })();
        self.bulk = false;
        if result.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        // After the commit: a smaller cache set before it would first spill the load's
        // pages. The size only tunes speed, so failing to set it back loses nothing.
        let _ = self.conn.pragma_update(None, "cache_size", cache);
        result
    }
}

/// Whether a bulk load of `records` clients into a store of `existing` ones builds the
/// list and search indexes at the end. Building them costs about as much as the whole
/// tables; keeping them up to date costs about as much per row as the rows added. So a
/// load defers them when it adds at least a quarter as many clients as are stored, and
/// enough of them that the difference shows.
pub(crate) fn defers_indexes(records: usize, existing: i64) -> bool {
    const WORTH_DEFERRING: usize = 1_000;
    let existing = usize::try_from(existing).unwrap_or(usize::MAX);
    records >= WORTH_DEFERRING && records.saturating_mul(4) >= existing
}

/// Drops the [`DEFERRED_SCHEMA`] objects in the caller's transaction and returns the
/// statements that create them again.
fn defer_schema(conn: &Connection) -> Result<Vec<String>> {
    let mut deferred = Vec::with_capacity(DEFERRED_SCHEMA.len());
    for name in DEFERRED_SCHEMA {
        let (kind, sql): (String, String) = query_row(
            conn,
            "SELECT type, sql FROM sqlite_schema WHERE name = ?1",
            [name],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let drop = match kind.as_str() {
            "trigger" => "TRIGGER",
            _ => "INDEX",
        };
        conn.execute_batch(&format!("DROP {drop} {name}"))?;
        deferred.push(sql);
    }
    Ok(deferred)
}

#[cfg(test)]
mod tests {
    use super::defers_indexes;

    #[test]
    fn only_a_large_load_next_to_the_stored_clients_defers_the_indexes() {
        // (clients added, clients stored, deferred)
        let cases = [
            (999, 0, false),
            (1_000, 0, true),
            (100_000, 0, true),
            (1_000, 4_000, true),
            (1_000, 4_001, false),
            (3, 100_000, false),
            (25_000, 100_000, true),
            (24_999, 100_000, false),
        ];
        for (records, existing, deferred) in cases {
            assert_eq!(
                defers_indexes(records, existing),
                deferred,
                "{records} into {existing}"
            );
        }
    }
}
