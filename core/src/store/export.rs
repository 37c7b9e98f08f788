//! The export queries: one streaming SELECT per export kind, read row by row into the
//! CSV encoder of [`crate::export`], never collected.

use std::io::{BufWriter, Write};

use rusqlite::params_from_iter;
use rusqlite::types::ValueRef;

use super::assessments::assessment_conditions;
use super::clients::client_conditions;
use super::{Store, ts};
use crate::error::{Error, Result};
use crate::export::{
    CellKind, CsvEncoder, ExportKind, ExportOptions, ExportSummary, ListFilter, columns, money,
    number, same, service_label,
};
use crate::rules::clock::AgencyClock;
use crate::rules::csv_cell::export_file_name;

/// The select list and table of each export, in the order of [`columns`]. Rows come in
/// rowid order (the order they were created), which reads the table straight through
/// with no sort, so memory stays flat whatever the row count.
fn select(kind: ExportKind) -> (&'static str, &'static str) {
    match kind {
        ExportKind::Intakes => (
            "SELECT x.id, x.created_at, x.intake_date, x.staff_member_taking_call,
                x.client_full_name, x.date_of_birth, x.caller_name, x.relationship_to_client,
                x.caller_phone, x.caller_email, x.how_did_you_hear, x.client_address, x.city,
                x.state, x.zip_code, x.client_phone, x.client_email, x.living_situation,
                x.services_required, x.total_hours_per_week, x.anticipated_start_date,
                x.source_of_payment, x.status, x.is_draft, x.assigned_coordinator,
                x.last_contact_date, x.next_follow_up_date, x.follow_up_notes,
                x.assessment_scheduled_date, x.import_batch_id, x.deleted_at
             FROM intakes x",
            "x.seq",
        ),
        ExportKind::Clients => (
            "SELECT x.id, x.client_full_name, x.date_of_birth, x.caller_name, x.caller_phone,
                x.caller_email, x.services_required,
                CASE x.stage WHEN 'intake' THEN 'Intake' WHEN 'assessment' THEN 'Assessment'
                    WHEN 'care_plan' THEN 'Care Plan' WHEN 'contract' THEN 'Contract'
                    ELSE x.stage END,
                x.archived, x.stage_entered_at, x.status, x.latest_assessment_status,
                x.latest_care_plan_status, x.latest_contract_status, x.last_contact_date,
                x.next_follow_up_date, x.created_at, x.deleted_at
             FROM intakes x",
            "x.seq",
        ),
        ExportKind::Assessments => (
            "SELECT x.id, x.intake_id, x.client_name, x.assessment_date, x.coordinator_name,
                x.status, x.recommended_services, x.recommended_hours, x.preferred_days,
                x.created_at, x.completed_at, x.deleted_at
             FROM assessments x",
            "x.rowid",
        ),
        ExportKind::CarePlans => (
            "SELECT x.id, x.assessment_id, x.intake_id, x.client_name, x.family_contact_name,
                x.family_contact_email, x.care_coordinator_name, x.services, x.status,
                x.hourly_rate, x.total_weekly_hours, x.weekly_cost, x.monthly_cost,
                x.proposed_start_date, x.sent_at, x.approved_at, x.created_at, x.deleted_at
             FROM care_plan_proposals x",
            "x.rowid",
        ),
        ExportKind::Contracts => (
            "SELECT x.client_name, x.status, x.created_at, x.sent_at, x.signed_at, x.id,
                x.care_plan_proposal_id, x.intake_id, x.family_contact_email,
                json_extract(x.pricing_details, '$.hourly_rate'),
                json_extract(x.pricing_details, '$.weekly_cost'),
                json_extract(x.pricing_details, '$.monthly_cost'), x.deleted_at
             FROM contracts x",
            "x.rowid",
        ),
        ExportKind::Communications => (
            "SELECT x.id, x.intake_id, i.client_full_name, x.communication_type, x.direction,
                x.visibility, x.status, x.subject, x.content, x.recipient_email,
                x.recipient_phone, u.full_name, x.sent_at, x.created_at, x.failure_reason
             FROM communications x
             LEFT JOIN intakes i ON i.id = x.intake_id
             LEFT JOIN users u ON u.id = x.sender_user_id",
            "x.rowid",
        ),
        ExportKind::Contacts => (
            "SELECT x.id, x.intake_id, i.client_full_name,
                CASE x.contact_type WHEN 'primary' THEN 'Primary Contact'
                    WHEN 'family' THEN 'Family Member' WHEN 'emergency' THEN 'Emergency Contact'
                    WHEN 'other' THEN 'Other' ELSE x.contact_type END,
                x.full_name, x.relationship, x.phone, x.email, x.address, x.notes,
                x.is_primary, x.created_at
             FROM client_contacts x
             LEFT JOIN intakes i ON i.id = x.intake_id",
            "x.rowid",
        ),
    }
}

/// The whole statement of an export with its filters, and the values it binds.
fn export_sql(
    kind: ExportKind,
    options: &ExportOptions,
    clock: &AgencyClock,
) -> Result<(String, Vec<String>)> {
    if !options.filter.fits(kind) {
        return Err(Error::Rejected(format!(
            "The {kind} export cannot take another list's filters."
        )));
    }
    let (select, order) = select(kind);
    let mut conditions = Vec::new();
    let mut values = Vec::new();
    if kind.has_soft_delete() && !options.include_deleted {
        conditions.push("x.deleted_at IS NULL".to_owned());
    }
    if let Some(since) = options.since {
        values.push(ts(since));
        conditions.push(format!("x.updated_at >= ?{}", values.len()));
    }
    match &options.filter {
        ListFilter::All => {}
        // The clients export reads `intakes x` alone, so the list's bare column names
        // are the export's own.
        ListFilter::Clients {
            stage,
            urgency,
            search,
        } => conditions.extend(client_conditions(
            *stage,
            *urgency,
            search.as_deref(),
            clock,
            &mut values,
        )),
        ListFilter::Assessments { status, search } => {
            let filters = assessment_conditions(*status, search.as_deref(), &mut values);
            if !filters.is_empty() {
                conditions.push(format!(
                    "x.id IN (SELECT a.id FROM assessments a WHERE {})",
                    filters.join(" AND ")
                ));
            }
        }
    }
    let mut sql = select.to_owned();
    if !conditions.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conditions.join(" AND "));
    }
    sql.push_str(" ORDER BY ");
    sql.push_str(order);
    Ok((sql, values))
}

fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    // Stored text is UTF-8; the strict check is the fast path, the lossy one the fallback.
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Page cache while an export runs (KiB): it reads each page once, so a large cache
/// would only cost the memory and the time to fill it.
const EXPORT_CACHE_KIB: i64 = 2_048;

impl Store {
    /// Streams one export as CSV into `out`: the header row, then one row per record,
    /// each read from the statement and written before the next is read. With no
    /// records only the header row is written (the web UI's "nothing is exported when
    /// there is no data" is the UI's own check on the returned row count).
    pub fn export(
        &self,
        kind: ExportKind,
        options: &ExportOptions,
        out: &mut impl Write,
    ) -> Result<ExportSummary> {
        let columns = columns(kind);
        let (sql, values) = export_sql(kind, options, &self.clock()?)?;
        let mut statement = self.conn().prepare_cached(&sql)?;
        if statement.column_count() != columns.len() {
            return Err(Error::Corrupt(format!(
                "the {kind} export selects {} columns for {} headers",
                statement.column_count(),
                columns.len()
            )));
        }
        let cache: i64 = self
            .conn()
            .pragma_query_value(None, "cache_size", |row| row.get(0))?;
        self.conn()
            .pragma_update(None, "cache_size", -EXPORT_CACHE_KIB)?;
        let written = self.write_export(&mut statement, &values, columns, out);
        // The size only tunes speed: an export already written does not fail over it.
        let _ = self.conn().pragma_update(None, "cache_size", cache);
        Ok(ExportSummary {
            kind,
            rows: written?,
        })
    }

    /// The rows of an export's statement, encoded; returns how many were written.
    fn write_export(
        &self,
        statement: &mut rusqlite::CachedStatement<'_>,
        values: &[String],
        columns: &[crate::export::Column],
        out: &mut impl Write,
    ) -> Result<u64> {
        let write_error = |error: std::io::Error| Error::io("cannot write the export", error);
        let mut encoder = CsvEncoder::new(BufWriter::with_capacity(1 << 16, out));
        encoder.header(columns).map_err(write_error)?;
        let mut rows = statement.query(params_from_iter(values.iter()))?;
        let mut n_rows = 0u64;
        while let Some(row) = rows.next()? {
            for (index, column) in columns.iter().enumerate() {
                let value = row.get_ref(index)?;
                let written = match (column.kind, value) {
                    (_, ValueRef::Null) | (_, ValueRef::Blob(_)) => encoder.empty(),
                    (CellKind::List, ValueRef::Text(bytes)) => {
                        encoder.json_list(&text_of(bytes), same)
                    }
                    (CellKind::ServiceList, ValueRef::Text(bytes)) => {
                        encoder.json_list(&text_of(bytes), service_label)
                    }
                    (CellKind::YesNo, ValueRef::Integer(flag)) => {
                        encoder.text(if flag != 0 { "Yes" } else { "No" })
                    }
                    (CellKind::Money, ValueRef::Real(amount)) => encoder.raw(&money(amount)),
                    (CellKind::Money, ValueRef::Integer(amount)) => {
                        encoder.raw(&money(amount as f64))
                    }
                    (_, ValueRef::Real(value)) => encoder.raw(&number(value)),
                    (_, ValueRef::Integer(value)) => encoder.raw(&value.to_string()),
                    (_, ValueRef::Text(bytes)) => encoder.text_bytes(bytes),
                };
                written.map_err(write_error)?;
            }
            encoder.end_row().map_err(write_error)?;
            n_rows += 1;
        }
        encoder.flush().map_err(write_error)?;
        Ok(n_rows)
    }

    /// The default file name of an export made today: `{name}_{date}.csv`, the date in
    /// the agency's zone.
    pub fn export_file_name(&self, kind: ExportKind) -> Result<String> {
        Ok(export_file_name(kind.name(), self.clock()?.today()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_export_selects_its_documented_columns() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("x.db")).unwrap();
        for kind in ExportKind::ALL {
            for options in [
                ExportOptions::default(),
                ExportOptions {
                    since: Some(jiff::Timestamp::UNIX_EPOCH),
                    include_deleted: true,
                    filter: ListFilter::All,
                },
            ] {
                let mut out = Vec::new();
                let summary = store.export(kind, &options, &mut out).unwrap();
                assert_eq!(summary.rows, 0);
                let header = String::from_utf8(out).unwrap();
                let expected: Vec<&str> = columns(kind).iter().map(|c| c.header).collect();
                assert_eq!(header, format!("{}\n", expected.join(",")), "{kind}");
            }
        }
    }
}
