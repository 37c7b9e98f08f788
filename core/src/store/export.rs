//! The export queries: one streaming SELECT per export kind, read row by row into the
//! CSV encoder of [`crate::export`], never collected.

use std::io::{BufWriter, Write};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, params_from_iter};

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

/// The select list of each export, in the order of [`columns`], and the rowid it is
/// ordered by. Rows come in rowid order (the order they were created), which reads the table
/// straight through with no sort, so memory stays flat whatever the row count.
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

/// The whole statement of an export with its filters, and the values it binds. With
/// `sliced`, it reads one slice of rowids, bound after the values: above the first,
/// up to and including the second.
fn export_sql(
    kind: ExportKind,
    options: &ExportOptions,
    clock: &AgencyClock,
    sliced: bool,
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
        )?),
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
    if sliced {
        conditions.push(format!(
            "{order} > ?{} AND {order} <= ?{}",
            values.len() + 1,
            values.len() + 2
        ));
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

/// Rowids per slice when two readers share an export.
const SLICE_ROWIDS: i64 = 4_096;

/// How long the second reader waits for a writer to finish before the export goes on
/// with one reader.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// A connection of an export's own, beside the store's.
fn open_for_export(path: &std::path::Path, access: OpenFlags) -> Result<Connection> {
    let conn = Connection::open_with_flags(path, access | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(super::BUSY_TIMEOUT)?;
    // A clients export filtered by a search term reads the search index.
    super::ngram::register(&conn)?;
    conn.pragma_update(None, "cache_size", -EXPORT_CACHE_KIB)?;
    Ok(conn)
}

/// The table an export reads, whose rowids its slices divide.
fn table(kind: ExportKind) -> &'static str {
    match kind {
        ExportKind::Intakes | ExportKind::Clients => "intakes",
        ExportKind::Assessments => "assessments",
        ExportKind::CarePlans => "care_plan_proposals",
        ExportKind::Contracts => "contracts",
        ExportKind::Communications => "communications",
        ExportKind::Contacts => "client_contacts",
    }
}

/// Encodes every row of `rows` with the export's columns; returns how many there were.
fn encode_rows<W: Write>(
    rows: &mut rusqlite::Rows<'_>,
    columns: &[crate::export::Column],
    encoder: &mut CsvEncoder<W>,
) -> Result<u64> {
    let mut n_rows = 0u64;
    while let Some(row) = rows.next()? {
        for (index, column) in columns.iter().enumerate() {
            let value = row.get_ref(index)?;
            let written = match (column.kind, value) {
                (_, ValueRef::Null) | (_, ValueRef::Blob(_)) => encoder.empty(),
                (CellKind::List, ValueRef::Text(bytes)) => encoder.json_list(&text_of(bytes), same),
                (CellKind::ServiceList, ValueRef::Text(bytes)) => {
                    encoder.json_list(&text_of(bytes), service_label)
                }
                (CellKind::YesNo, ValueRef::Integer(flag)) => {
                    encoder.text(if flag != 0 { "Yes" } else { "No" })
                }
                (CellKind::Money, ValueRef::Real(amount)) => encoder.raw(&money(amount)),
                (CellKind::Money, ValueRef::Integer(amount)) => encoder.raw(&money(amount as f64)),
                (_, ValueRef::Real(value)) => encoder.raw(&number(value)),
                (_, ValueRef::Integer(value)) => encoder.raw(&value.to_string()),
                (_, ValueRef::Text(bytes)) => encoder.text_bytes(bytes),
            };
            written.map_err(write_error)?;
        }
        encoder.end_row().map_err(write_error)?;
        n_rows += 1;
    }
    Ok(n_rows)
}

fn write_error(error: std::io::Error) -> Error {
    Error::io("cannot write the export", error)
}

/// The rows of one slice of rowids, `(after, up_to]`, as encoded CSV.
fn encode_slice(
    statement: &mut rusqlite::Statement<'_>,
    values: &[String],
    slice: (i64, i64),
    columns: &[crate::export::Column],
) -> Result<(Vec<u8>, u64)> {
    let mut encoder = CsvEncoder::new(Vec::with_capacity(1 << 16));
    let mut rows = statement.query(slice_params(values, &slice))?;
    let n_rows = encode_rows(&mut rows, columns, &mut encoder)?;
    Ok((encoder.into_inner(), n_rows))
}

fn slice_params<'a>(
    values: &'a [String],
    (after, up_to): &'a (i64, i64),
) -> rusqlite::ParamsFromIter<impl Iterator<Item = &'a dyn rusqlite::ToSql>> {
    params_from_iter(
        values
            .iter()
            .map(|value| value as &dyn rusqlite::ToSql)
            .chain([after as &dyn rusqlite::ToSql, up_to as &dyn rusqlite::ToSql]),
    )
}

/// Slices of rowids `(after, up_to]` of `size` each, from just before `first` to
/// `last`, computed as they are needed.
#[derive(Debug, Clone, Copy)]
struct Slices {
    before_first: i64,
    last: i64,
    size: i64,
    count: i64,
}

/// Beyond this many slices (rowids far apart, as after SQLite once ran out of them and
/// picks them at random) an export reads on one connection.
const MAX_SLICES: i64 = 1 << 20;

impl Slices {
    /// The slices of `first..=last`, or None when the rowids are too far apart.
    fn of(first: i64, last: i64, size: i64) -> Option<Self> {
        if size <= 0 {
            return None;
        }
        let before_first = first.checked_sub(1)?;
        let span = last.checked_sub(before_first)?;
        let count = span.checked_add(size - 1)? / size;
        (count <= MAX_SLICES).then_some(Self {
            before_first,
            last,
            size,
            count,
        })
    }

    /// Slice `index`, counted from 0.
    fn get(&self, index: i64) -> (i64, i64) {
        // Below `count`, `after` is below `last`, so only the slice's end can pass
        // the largest rowid.
        let after = self.before_first + index * self.size;
        (after, after.saturating_add(self.size).min(self.last))
    }
}

/// The read transaction the store's connection shares with a second reader. Dropping it
/// ends the transaction, however the export ends.
struct SharedSnapshot<'a>(&'a Connection);

impl Drop for SharedSnapshot<'_> {
    fn drop(&mut self) {
        if !self.0.is_autocommit() {
            // A read transaction has nothing to commit; ending it cannot lose data.
            let _ = self.0.execute_batch("COMMIT");
        }
    }
}

/// A second connection that reads the snapshot the store's connection reads, and the
/// slices of the export's rowids in that snapshot.
struct SecondReader<'a> {
    snapshot: SharedSnapshot<'a>,
    conn: Connection,
    slices: Slices,
}

impl Store {
    /// Streams one export as CSV into `out`: the header row, then the rows, read from
    /// the statement and written as they come, never collected. With no records only the
    /// header row is written (the web UI's "nothing is exported when there is no data"
    /// is the UI's own check on the returned row count).
    ///
    /// A whole table (the nightly exports) is read by two connections on two cores,
    /// which take turns at slices of rowids from one snapshot; the slices are written in
    /// order, at most three of them encoded and waiting at a time.
    pub fn export(
        &self,
        kind: ExportKind,
        options: &ExportOptions,
        out: &mut impl Write,
    ) -> Result<ExportSummary> {
        self.export_in_slices(kind, options, out, SLICE_ROWIDS)
    }

    /// [`Store::export`] with slices of `slice_rowids` rowids.
    fn export_in_slices(
        &self,
        kind: ExportKind,
        options: &ExportOptions,
        out: &mut impl Write,
        slice_rowids: i64,
    ) -> Result<ExportSummary> {
        let columns = columns(kind);
        let clock = self.clock()?;
        let (sql, values) = export_sql(kind, options, &clock, false)?;
        let (sliced_sql, _) = export_sql(kind, options, &clock, true)?;
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
        let mut encoder = CsvEncoder::new(BufWriter::with_capacity(1 << 16, out));
        let written = encoder
            .header(columns)
            .map_err(write_error)
            .and_then(|()| match self.second_reader(kind, options, slice_rowids) {
                Some(reader) => {
                    self.write_with_two_readers(reader, &sliced_sql, &values, columns, &mut encoder)
                }
                None => statement
                    .query(params_from_iter(values.iter()))
                    .map_err(Error::from)
                    .and_then(|mut rows| encode_rows(&mut rows, columns, &mut encoder)),
            })
            .and_then(|n_rows| {
                encoder.flush().map_err(write_error)?;
                Ok(n_rows)
            });
        // The size only tunes speed: an export already written does not fail over it.
        let _ = self.conn().pragma_update(None, "cache_size", cache);
        Ok(ExportSummary {
            kind,
            rows: written?,
        })
    }

    /// A second reader for an export worth sharing between two cores: the whole of a
    /// table of at least two slices, from a store not inside a transaction. With it,
    /// this store's connection is in the read transaction they share until the reader
    /// is dropped. None when any of that cannot be had: the export then runs on this
    /// connection alone, which reports whatever is really wrong.
    fn second_reader(
        &self,
        kind: ExportKind,
        options: &ExportOptions,
        slice_rowids: i64,
    ) -> Option<SecondReader<'_>> {
        if !matches!(options.filter, ListFilter::All)
            || !self.conn().is_autocommit()
            || !self.path().is_file()
        {
            return None;
        }
        // While one connection holds the write lock no change can commit, so the two
        // readers, starting their snapshots meanwhile, read the very same data. A writer
        // holding the lock for long only costs the second reader.
        let lock = open_for_export(self.path(), OpenFlags::SQLITE_OPEN_READ_WRITE).ok()?;
        let gate = self.write_gate();
        let _turn = gate.enter();
        lock.busy_timeout(LOCK_WAIT).ok()?;
        lock.execute_batch("BEGIN IMMEDIATE").ok()?;
        self.conn().execute_batch("BEGIN").ok()?;
        let snapshot = SharedSnapshot(self.conn());
        let (first, last): (Option<i64>, Option<i64>) = super::query_row(
            self.conn(),
            &format!("SELECT min(rowid), max(rowid) FROM {}", table(kind)),
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .ok()?;
        let slices = Slices::of(first?, last?, slice_rowids).filter(|s| s.count >= 2)?;
        let conn = open_for_export(self.path(), OpenFlags::SQLITE_OPEN_READ_ONLY).ok()?;
        conn.execute_batch("BEGIN").ok()?;
        // A read transaction takes its snapshot at its first read.
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
            .ok()?;
        // Dropping the lock connection rolls back its empty write transaction.
        drop(lock);
        Some(SecondReader {
            snapshot,
            conn,
            slices,
        })
    }

    /// The rows of an export in slices of rowids: this connection encodes the even
    /// slices straight into `encoder`, the second reader the odd ones on its own thread,
    /// handing each over encoded; they are written in rowid order.
    fn write_with_two_readers<W: Write>(
        &self,
        reader: SecondReader<'_>,
        sql: &str,
        values: &[String],
        columns: &[crate::export::Column],
        encoder: &mut CsvEncoder<W>,
    ) -> Result<u64> {
        // Held to the end: the shared read transaction ends after both readers are done.
        let SecondReader {
            snapshot: _snapshot,
            conn,
            slices,
        } = reader;
        let mut statement = self.conn().prepare_cached(sql)?;
        std::thread::scope(|scope| {
            // Two encoded slices queued and one in hand at most: memory stays flat
            // whatever the row count.
            let (sender, receiver) = std::sync::mpsc::sync_channel(2);
            scope.spawn(move || {
                let mut statement = match conn.prepare(sql) {
                    Ok(statement) => statement,
                    Err(error) => {
                        let _ = sender.send(Err(Error::from(error)));
                        return;
                    }
                };
                for index in (1..slices.count).step_by(2) {
                    let encoded = encode_slice(&mut statement, values, slices.get(index), columns);
                    let failed = encoded.is_err();
                    // A closed channel means the writing side stopped on an error.
                    if sender.send(encoded).is_err() || failed {
                        return;
                    }
                }
            });
            let mut n_rows = 0;
            for index in 0..slices.count {
                if index % 2 == 0 {
                    let slice = slices.get(index);
                    let mut rows = statement.query(slice_params(values, &slice))?;
                    n_rows += encode_rows(&mut rows, columns, encoder)?;
                } else {
                    let (encoded, rows) = receiver.recv().map_err(|_| {
                        Error::Corrupt("the export's second reader stopped".to_owned())
                    })??;
                    encoder.append_rows(&encoded).map_err(write_error)?;
                    n_rows += rows;
                }
            }
            Ok(n_rows)
        })
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

    /// A demo agency of `clients` in a file of its own, with the file's path.
    fn demo_store(clients: usize, seed: u64) -> (tempfile::TempDir, std::path::PathBuf, Store) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db");
        let mut store = Store::open(&path).unwrap();
        crate::demo::build(&mut store, &crate::demo::DemoOptions { clients, seed }).unwrap();
        (dir, path, store)
    }

    /// An export's row count and text.
    fn export_text(
        store: &Store,
        kind: ExportKind,
        options: &ExportOptions,
        slice: i64,
    ) -> (u64, String) {
        let mut out = Vec::new();
        let summary = store
            .export_in_slices(kind, options, &mut out, slice)
            .unwrap();
        (summary.rows, String::from_utf8(out).unwrap())
    }

    #[test]
    fn two_readers_write_what_one_reader_writes_in_the_same_order() {
        let (_dir, _, store) = demo_store(120, 3);
        let with_deleted = ExportOptions {
            include_deleted: true,
            ..ExportOptions::default()
        };
        let since = ExportOptions {
            since: Some(store.now() - jiff::SignedDuration::from_hours(24 * 30)),
            ..ExportOptions::default()
        };
        for kind in ExportKind::ALL {
            assert!(
                store
                    .second_reader(kind, &ExportOptions::default(), 2)
                    .is_some(),
                "{kind}: two readers share it"
            );
            assert!(
                store.conn().is_autocommit(),
                "a dropped reader ends its snapshot"
            );
            for options in [&ExportOptions::default(), &with_deleted, &since] {
                let one = export_text(&store, kind, options, i64::MAX / 4);
                for slice in [1, 2, 7, 50] {
                    assert_eq!(
                        export_text(&store, kind, options, slice),
                        one,
                        "{kind} in slices of {slice}"
                    );
                }
                assert!(one.0 > 2, "{kind} has rows");
            }
        }
        assert!(
            store.conn().is_autocommit(),
            "no read transaction is left open"
        );
    }

    #[test]
    fn an_export_goes_on_with_one_reader_while_a_writer_holds_the_lock() {
        let (_dir, path, store) = demo_store(30, 3);
        let before = export_text(&store, ExportKind::Clients, &ExportOptions::default(), 2);
        let writer = Connection::open(&path).unwrap();
        super::super::ngram::register(&writer).unwrap();
        writer
            .execute_batch("BEGIN IMMEDIATE; UPDATE intakes SET client_full_name = 'Changed'")
            .unwrap();
        assert!(
            store
                .second_reader(ExportKind::Clients, &ExportOptions::default(), 2)
                .is_none()
        );
        assert!(store.conn().is_autocommit());
        assert_eq!(
            export_text(&store, ExportKind::Clients, &ExportOptions::default(), 2),
            before,
            "the writer's change is not committed"
        );
        writer.execute_batch("COMMIT").unwrap();
        let (rows, after) = export_text(&store, ExportKind::Clients, &ExportOptions::default(), 2);
        assert_eq!(after.matches(",Changed,").count() as u64, rows);
    }

    #[test]
    fn both_readers_read_the_snapshot_taken_before_a_later_commit() {
        let (_dir, path, store) = demo_store(40, 5);
        let options = ExportOptions::default();
        let (rows, before) = export_text(&store, ExportKind::Clients, &options, i64::MAX / 4);

        let reader = store
            .second_reader(ExportKind::Clients, &options, 3)
            .expect("two readers");
        // A change committed after both snapshots were taken, while the export runs.
        let writer = Connection::open(&path).unwrap();
        super::super::ngram::register(&writer).unwrap();
        writer
            .execute_batch("UPDATE intakes SET client_full_name = 'Changed'")
            .unwrap();
        let clock = store.clock().unwrap();
        let (sql, values) = export_sql(ExportKind::Clients, &options, &clock, true).unwrap();
        let mut encoder = CsvEncoder::new(Vec::new());
        encoder.header(columns(ExportKind::Clients)).unwrap();
        let written = store
            .write_with_two_readers(
                reader,
                &sql,
                &values,
                columns(ExportKind::Clients),
                &mut encoder,
            )
            .unwrap();
        assert_eq!(written, rows);
        assert_eq!(String::from_utf8(encoder.into_inner()).unwrap(), before);
        assert!(store.conn().is_autocommit(), "the shared snapshot is ended");
        let (_, after) = export_text(&store, ExportKind::Clients, &options, 3);
        assert_eq!(after.matches(",Changed,").count() as u64, rows);
    }

    #[test]
    fn slices_cover_every_rowid_once_and_refuse_what_they_cannot_count() {
        let slices = Slices::of(1, 10, 4).unwrap();
        let all: Vec<_> = (0..slices.count).map(|index| slices.get(index)).collect();
        assert_eq!(all, [(0, 4), (4, 8), (8, 10)]);
        let one = Slices::of(5, 5, 4).unwrap();
        assert_eq!((one.count, one.get(0)), (1, (4, 5)));
        let top = Slices::of(i64::MAX - 5, i64::MAX, 4).unwrap();
        assert_eq!(top.get(top.count - 1), (i64::MAX - 2, i64::MAX));
        // Rowids SQLite picked at random after running out: one reader instead.
        assert!(Slices::of(1, i64::MAX, 4_096).is_none());
        assert!(Slices::of(i64::MIN, 0, 4_096).is_none());
        assert!(Slices::of(1, 10, 0).is_none());
    }
}
