//! Numbered SQL migrations embedded in the binary, counted in `PRAGMA user_version` and
//! applied in one transaction when the database is opened.

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result};

const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_init.sql"),
    include_str!("migrations/0002_intake_forms.sql"),
    include_str!("migrations/0003_account_links.sql"),
    include_str!("migrations/0004_pipeline_moves.sql"),
    include_str!("migrations/0006_signing.sql"),
    include_str!("migrations/0005_office.sql"),
    include_str!("migrations/0007_read_tallies.sql"),
    include_str!("migrations/0008_replies.sql"),
    include_str!("migrations/0009_search_newest_first.sql"),
    include_str!("migrations/0010_timeline_order.sql"),
    include_str!("migrations/0011_slimmer_intake_indexes.sql"),
    include_str!("migrations/0012_agency_logo.sql"),
    include_str!("migrations/0013_finished_clients.sql"),
    include_str!("migrations/0014_assessment_visits.sql"),
    include_str!("migrations/0015_visit_reminders.sql"),
    include_str!("migrations/0016_first_run.sql"),
    include_str!("migrations/0017_second_factor.sql"),
    include_str!("migrations/0018_passkeys.sql"),
    include_str!("migrations/0019_owner_tasks.sql"),
    include_str!("migrations/0020_inbound_email.sql"),
    include_str!("migrations/0021_handoff.sql"),
    include_str!("migrations/0022_milestones.sql"),
    include_str!("migrations/0023_analytics_cohort.sql"),
    include_str!("migrations/0024_analytics_seconds.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub(super) fn migrate(conn: &mut Connection) -> Result<()> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another process may have migrated while we waited for the write lock.
    let found: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
    }
    tx.commit()?;
    Ok(())
}
