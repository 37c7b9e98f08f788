//! The SQLite store: one file, opened by every face through [`Store`]. SQL lives in this
//! folder only, one module per table group; every write is one `BEGIN IMMEDIATE`
//! transaction that also writes its audit row.

mod analytics;
mod archive;
mod assessments;
mod audit;
mod bulk;
mod care_plans;
mod clients;
mod communications;
mod contacts;
mod contracts;
mod credentials;
mod dashboard;
mod document_email;
mod drafting;
mod export;
mod filled_fields;
mod gate;
mod handoff;
mod import;
mod inbound;
mod intakes;
mod logo;
mod migrations;
mod ngram;
mod notifications;
mod owners;
mod paging;
mod passkeys;
mod position;
mod queue;
mod reminders;
mod second_factor;
mod sessions;
mod settings;
mod setup;
mod signing;
mod tallies;
mod templates;
mod trash;
mod users;
mod visits;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};

pub use analytics::{
    Analytics, AnalyticsRange, DurationStat, FunnelStage, ReasonCount, SourceStat, SpeedToLead,
    WaitingClient, WeekCount,
};
pub use assessments::{
    AssessmentFilter, AssessmentPage, AssessmentQuery, AssessmentSave, AssessmentStats,
};
pub use audit::AuditEntry;
pub use care_plans::{CarePlanPage, CarePlanPrefill, CarePlanQuery};
pub use clients::{
    ClientCounts, ClientPage, ClientProfile, ClientQuery, ClientRow, ClientSort, OwnerFilter,
    StageFilter,
};
pub use communications::LATEST_COMMUNICATIONS;
pub(crate) use communications::log_event;
pub use communications::{CommunicationFilter, HubQuery};
pub use contracts::{CONTRACTS_LIST_LIMIT, ContractList, ContractQuery, ContractStats};
pub use credentials::{new_token, token_hash};
pub use dashboard::{Dashboard, DashboardCounts, FOLLOW_UPS_PAGE};
pub use document_email::{
    DocumentEmailRequest, EmailedDocument, PreparedDocumentEmail, SentDocument,
};
pub use drafting::EmailDraft;
pub use gate::WriteGate;
pub use import::{ImportBatch, ImportReport, UndoReport};
pub use inbound::{ImapLogin, KeptReply, MailboxPosition};
pub use intakes::{
    AWAITING_LISTED, AwaitingAssessment, IntakeListQuery, IntakePage, SEARCH_LIMIT, UrgencySummary,
    phone_digits,
};
pub use logo::{LOGO_ADMIN_ONLY, LogoFile};
pub use migrations::SCHEMA_VERSION;
pub use notifications::{StaffNotice, StaffText};
pub use paging::Page;
pub use passkeys::{PasskeyAdded, PasskeyChallenge, PasskeySummary};
pub use reminders::{ClaimedReminder, ReminderKind, ReminderMessage, ReminderRecord};
/// Stops a connection's running statement from another thread.
pub use rusqlite::InterruptHandle;
pub use second_factor::{RecoveryCodes, SecondFactorFailure, SecondFactorStatus, TotpEnrolment};
pub use sessions::{
    ActiveSession, AuthTokenPurpose, FREE_FAILURES, INVALID_CREDENTIALS, SessionOrigin,
    SessionUser, SignInFailure,
};
pub use setup::{Deployment, SmsLogin, SmtpLogin};
pub use signing::{NewSigningLink, SignedContract};
pub use users::{CURRENT_PASSWORD_WRONG, INVITATION_NEEDED, NewUser};
pub use visits::{INVITATION_OUT_OF_DATE, VisitQuery};

use crate::error::{Error, Result};
use crate::model::Actor;
use crate::rules::clock::{AgencyClock, format_timestamp};

/// The WAL size, in pages, at which a connection checkpoints after its commit while
/// Litestream replicates the database (about 40 MB at 4 KiB pages). Litestream
/// checkpoints itself at 1,000 pages, between two syncs, so it sees every frame before
/// the WAL restarts; SQLite's default of 1,000 would race it for the same moment. Higher
/// rather than off, so the WAL still stays bounded while Litestream is down.
pub const REPLICATED_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// How long a writer waits for another process's transaction before giving up.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// One connection to the Carepath database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// Tests and demo data pin "now"; everything else uses the real clock.
    fixed_now: Option<Timestamp>,
    /// Inside [`Store::bulk_load`]: operations run without their own savepoints.
    bulk: bool,
    /// An operation inside the bulk load failed after it may have written part of itself;
    /// the load is rolled back whatever its caller makes of the error.
    bulk_failed: bool,
    /// Tallies a count inside a read snapshot found worth settling; a read transaction
    /// cannot write, so they are settled when it ends.
    unsettled: RefCell<Vec<(tallies::Moment, String)>>,
    /// Where this connection waits for its turn to write (see [`WriteGate`]).
    gate: WriteGate,
}

impl Store {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    /// A database written by a newer Carepath is refused.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            private_dir(parent)
                .map_err(|e| Error::io(format!("cannot create {}", parent.display()), e))?;
        }
        private_file(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI,
        )?;
        configure(&conn)?;
        let mut store = Self {
            conn,
            path,
            fixed_now: None,
            bulk: false,
            bulk_failed: false,
            unsettled: RefCell::default(),
            gate: WriteGate::default(),
        };
        migrations::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// Opens an existing database without migrating it (for `db check`); still refuses a
    /// newer schema.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        if !path.exists() {
            return Err(Error::io(
                format!("no database at {}", path.display()),
                std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        }
        Self::open(path)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// This connection's write gate, to hand to the other connections of the process.
    pub fn write_gate(&self) -> WriteGate {
        self.gate.clone()
    }

    /// Makes this connection take turns at writing with every connection holding `gate`.
    pub fn share_write_gate(&mut self, gate: WriteGate) {
        self.gate = gate;
    }

    /// Pins "now" for every operation until cleared (tests, demo data with history).
    pub fn set_now(&mut self, now: Option<Timestamp>) {
        self.fixed_now = now;
    }

    pub fn now(&self) -> Timestamp {
        self.fixed_now.unwrap_or_else(Timestamp::now)
    }

    /// The agency's clock: now, in the time zone of the settings.
    pub fn clock(&self) -> Result<AgencyClock> {
        let zone: Option<String> = query_row(
            &self.conn,
            "SELECT json_extract(value, '$.time_zone') FROM settings WHERE tab = 'general'",
            [],
            |row| row.get(0),
        )
        .optional()?
        .flatten();
        Ok(AgencyClock::new(
            self.now(),
            AgencyClock::zone_named(zone.as_deref().unwrap_or("")),
        ))
    }

    /// Runs the reads of `f` in one read transaction: they all see the same moment of
    /// the database (a count agrees with the rows beside it), and the file's read locks
    /// are taken once instead of once per statement (a dashboard made 36 lock calls,
    /// now 4). Inside another transaction it simply runs. Only for reads: a write in it
    /// could find its snapshot stale and fail busy; a tally a count wants settled is
    /// settled when it ends.
    pub(crate) fn snapshot<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        if !self.conn.is_autocommit() {
            return f();
        }
        self.conn.prepare_cached("BEGIN")?.execute([])?;
        let result = f();
        // Nothing was written, so ending it cannot lose anything; it is ended whatever
        // `f` answered so the connection goes back to its pool clean.
        let ended = self
            .conn
            .prepare_cached("COMMIT")
            .and_then(|mut end| end.execute([]));
        if ended.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        let value = result?;
        ended?;
        self.settle_unsettled();
        Ok(value)
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction: all of it is written, or none.
    /// Inside a [`Store::batch`] it runs in a savepoint of the batch's transaction.
    pub(crate) fn write<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        // A bulk load is all or nothing as a whole, so its operations need no savepoints
        // of their own (each would also make the search index flush to disk).
        if self.bulk {
            let result = f(&self.conn);
            self.bulk_failed |= result.is_err();
            return result;
        }
        if !self.conn.is_autocommit() {
            let savepoint = self.conn.savepoint()?;
            let value = f(&savepoint)?;
            savepoint.commit()?;
            return Ok(value);
        }
        let gate = self.gate.clone();
        let _turn = gate.enter();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs many operations as one transaction: an import that must be all or nothing,
    /// or demo data that would otherwise wait for a disk flush per record. Each operation
    /// inside still validates and audits exactly as on its own.
    pub fn batch<T>(&mut self, f: impl FnOnce(&mut Store) -> Result<T>) -> Result<T> {
        if !self.conn.is_autocommit() {
            return f(self);
        }
        let gate = self.gate.clone();
        let _turn = gate.enter();
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let result = f(self).and_then(|value| {
            self.conn.execute_batch("COMMIT")?;
            Ok(value)
        });
        // A failed commit may leave the transaction open; the turn ends with it.
        if result.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        result
    }

    /// Runs `f` inside the open transaction of a [`Store::batch`], in a savepoint of its
    /// own: when it fails, what it wrote is undone and the transaction goes on without
    /// it. For independent operations sharing one commit (a server's queued writes),
    /// where one refused must not take its neighbours with it. Outside a transaction it
    /// refuses to run.
    pub fn apart<T, E: From<Error>>(
        &mut self,
        f: impl FnOnce(&mut Store) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        if self.conn.is_autocommit() {
            return Err(Error::Rejected("no transaction is open to run this in".to_owned()).into());
        }
        exec(&self.conn, "SAVEPOINT apart", [])?;
        let result = f(self);
        // An error SQLite answers by rolling the whole transaction back (an interrupt
        // may) leaves no savepoint to end.
        if self.conn.is_autocommit() {
            return result;
        }
        match result {
            Ok(value) => {
                if let Err(error) = exec(&self.conn, "RELEASE apart", []) {
                    if !self.conn.is_autocommit() {
                        let _ = self.conn.execute_batch("ROLLBACK TO apart; RELEASE apart");
                    }
                    return Err(error.into());
                }
                Ok(value)
            }
            Err(error) => {
                self.conn
                    .execute_batch("ROLLBACK TO apart; RELEASE apart")
                    .map_err(Error::from)?;
                Err(error)
            }
        }
    }

    /// Whether a transaction is open on this connection.
    pub fn in_transaction(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// `PRAGMA data_version`: changes whenever another connection commits, so a process
    /// can notice outside writes without holding a read transaction open.
    pub fn data_version(&self) -> Result<i64> {
        // Asked on every signed-in request: the statement is prepared once.
        Ok(self
            .conn
            .prepare_cached("PRAGMA data_version")?
            .query_row([], |row| row.get(0))?)
    }

    /// Whether the database answers and its schema is the one this build writes: what a
    /// health check in front of the server asks. It reads nothing but the schema version.
    pub fn schema_is_current(&self) -> Result<bool> {
        let found: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))?;
        Ok(found == SCHEMA_VERSION)
    }

    /// Gives back the memory this connection holds for pages it has cached; they are
    /// read again when next needed. For a server gone idle.
    pub fn release_memory(&self) -> Result<()> {
        self.conn.execute_batch("PRAGMA shrink_memory")?;
        Ok(())
    }

    /// `EXPLAIN QUERY PLAN` lines for one of the store's own queries; used by tests and
    /// the benchmark to show which index a list reads.
    pub fn explain(&self, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Result<Vec<String>> {
        let mut statement = self
            .conn
            .prepare_cached(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let rows = statement.query_map(params, |row| row.get::<_, String>(3))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Integrity and foreign key check: the problems found, empty when healthy.
    pub fn check(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let mut statement = self.conn.prepare_cached("PRAGMA integrity_check")?;
        for line in statement.query_map([], |row| row.get::<_, String>(0))? {
            let line = line?;
            if line != "ok" {
                problems.push(line);
            }
        }
        let mut statement = self.conn.prepare_cached("PRAGMA foreign_key_check")?;
        let rows = statement.query_map([], |row| {
            Ok(format!(
                "foreign key: {} row {} points at a missing {}",
                row.get::<_, String>(0)?,
                row.get::<_, Option<i64>>(1)?.unwrap_or_default(),
                row.get::<_, String>(2)?
            ))
        })?;
        for row in rows {
            problems.push(row?);
        }
        Ok(problems)
    }

    /// A consistent online copy of the database, written to a temporary file beside
    /// `target`, checked, then renamed into place.
    pub fn backup_to(&self, target: &Path) -> Result<()> {
        let file_name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "backup".to_owned());
        let partial = target.with_file_name(format!(".{file_name}.partial"));
        let _ = std::fs::remove_file(&partial);
        let written = self.write_checked_copy(&partial);
        let result = written.and_then(|()| {
            restrict_to_owner(&partial)
                .and_then(|()| std::fs::rename(&partial, target))
                .map_err(|e| Error::io(format!("cannot write {}", target.display()), e))
        });
        // Finished or failed, never half a file left behind.
        if result.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        result
    }

    /// Writes a copy of the database as of one moment into `path`, checks it and flushes
    /// it to disk. `VACUUM INTO` reads one snapshot in one read transaction, so writers
    /// going on meanwhile neither restart it (as they restart an online backup, which
    /// under steady writes never finishes) nor wait for it.
    fn write_checked_copy(&self, path: &Path) -> Result<()> {
        self.conn
            .execute("VACUUM INTO ?1", [path.to_string_lossy()])?;
        let copy = Connection::open(path)?;
        // The check reads the search index, which needs its tokenizer.
        ngram::register(&copy)?;
        let verdict: String = copy.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
        drop(copy);
        if verdict != "ok" {
            return Err(Error::Corrupt(format!(
                "backup failed its check: {verdict}"
            )));
        }
        std::fs::File::open(path)
            .and_then(|file| file.sync_all())
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
    }

    /// Sets the WAL size (pages) at which this connection's commits checkpoint; see
    /// [`REPLICATED_AUTOCHECKPOINT_PAGES`]. Carepath itself never asks for a TRUNCATE or
    /// RESTART checkpoint, which would block writers and restart the WAL under Litestream.
    pub fn set_autocheckpoint(&self, pages: u32) -> Result<()> {
        self.conn.pragma_update(None, "wal_autocheckpoint", pages)?;
        Ok(())
    }

    /// Copies the WAL's committed pages into the database file, as far as no reader
    /// still needs them, without waiting for anyone (a PASSIVE checkpoint). Answers the
    /// WAL's frames and how many of them the file now holds.
    pub fn checkpoint(&self) -> Result<(i64, i64)> {
        Ok(self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                Ok((row.get(1)?, row.get(2)?))
            })?)
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// A handle that stops whatever this connection is running (the statement fails as
    /// interrupted; a write rolls back whole). For a caller that gave up waiting.
    pub fn interrupt_handle(&self) -> InterruptHandle {
        self.conn.get_interrupt_handle()
    }
}

/// Makes a connection opened outside [`Store`] (a maintenance script, a test) able to
/// write intakes and search: the search index's tokenizer lives in Carepath, and SQLite
/// asks each connection for it.
pub fn register_search_tokenizer(conn: &Connection) -> Result<()> {
    ngram::register(conn)
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    ngram::register(conn)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Case-insensitive LIKE is what lets `name LIKE 'ab%'` use the NOCASE indexes.
    conn.pragma_update(None, "case_sensitive_like", "OFF")?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    // 8 MiB of page cache per connection: every page and count reads a few dozen pages
    // along an index, and the operating system caches the file for all connections, so
    // a larger private cache mostly holds copies (a server keeps several connections).
    conn.pragma_update(None, "cache_size", -8_192)?;
    conn.set_prepared_statement_cache_capacity(512);
    Ok(())
}

/// The stored form of a moment.
pub(crate) fn ts(moment: Timestamp) -> String {
    format_timestamp(moment)
}

/// Writes the audit row of a change, in the caller's transaction.
#[allow(
    clippy::too_many_arguments,
    reason = "one flat call per change keeps every write site readable"
)]
pub(crate) fn audit(
    tx: &Connection,
    actor: &Actor,
    now: Timestamp,
    action: &str,
    entity: &str,
    entity_id: &str,
    intake_id: Option<&str>,
    changed_fields: &[&str],
) -> Result<()> {
    exec(
        tx,
        "INSERT INTO audit_log (at, user_id, channel, action, entity, entity_id, intake_id, changed_fields)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        rusqlite::params![
            ts(now),
            actor.user_id.as_ref().map(|id| id.as_str()),
            actor.channel.as_str(),
            action,
            entity,
            entity_id,
            intake_id,
            serde_json::to_string(changed_fields)?,
        ],
    )?;
    Ok(())
}

/// Refuses admin-only operations for staff; the server checks too, but the rule lives here.
pub(crate) fn require_admin(actor: &Actor) -> Result<()> {
    if actor.is_admin {
        Ok(())
    } else {
        Err(Error::Forbidden("Only an administrator can do that."))
    }
}

/// Reads a JSON list column.
pub(crate) fn json_list<T: serde::de::DeserializeOwned>(text: &str) -> Result<Vec<T>> {
    Ok(serde_json::from_str(text)?)
}

/// `execute` through the statement cache: the store runs the same few statements over and
/// over, and parsing them again each time costs more than running them.
pub(crate) fn exec<P: rusqlite::Params>(conn: &Connection, sql: &str, params: P) -> Result<usize> {
    Ok(conn.prepare_cached(sql)?.execute(params)?)
}

/// Creates the folders of a database that are missing, readable by their owner alone
/// (0700): the database holds every client's details.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates a missing database file readable and writable by its owner alone (0600),
/// before SQLite opens it: SQLite gives its WAL and shared-memory files the database
/// file's permissions. An existing file is left as its owner set it.
fn private_file(path: &Path) -> std::io::Result<()> {
    // A URI or a special name (":memory:") is SQLite's to interpret.
    let name = path.to_string_lossy();
    if name.starts_with("file:") || name == ":memory:" || name.is_empty() {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

/// Makes a written file (a backup) readable and writable by its owner alone.
fn restrict_to_owner(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// `query_row` through the statement cache.
pub(crate) fn query_row<T, P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    params: P,
    f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    conn.prepare_cached(sql)?.query_row(params, f)
}

#[cfg(test)]
mod tests {
    use super::Store;

    /// A new database, its folder and its WAL are its owner's alone.
    #[cfg(unix)]
    #[test]
    fn a_new_database_and_its_folder_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("agency");
        let path = folder.join("carepath.db");
        let mut store = Store::open(&path).unwrap();
        store
            .write(|tx| {
                crate::store::exec(tx, "CREATE TABLE t (x)", [])?;
                Ok(())
            })
            .unwrap();
        let mode =
            |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&folder.join("carepath.db-wal")), 0o600);
        let backup = folder.join("copy.db");
        store.backup_to(&backup).unwrap();
        assert_eq!(mode(&backup), 0o600);
    }

    #[test]
    fn the_schema_is_current_only_at_the_version_this_build_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("health.db")).unwrap();
        assert!(store.schema_is_current().unwrap());
        // What a newer build that migrated the file under a running server leaves.
        store
            .conn
            .execute_batch("PRAGMA user_version = 999")
            .unwrap();
        assert!(!store.schema_is_current().unwrap());
    }

    /// A pooled connection goes back clean: a snapshot ends its transaction whatever
    /// its reads answered, and one inside another leaves the outer one to end it.
    #[test]
    fn a_snapshot_ends_its_read_transaction_whatever_its_reads_answer() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("snapshot.db")).unwrap();
        let failed: crate::Result<()> = store.snapshot(|| {
            store.settings()?;
            Err(crate::Error::not_found("intake", "missing"))
        });
        assert!(matches!(failed, Err(crate::Error::NotFound { .. })));
        assert!(store.conn.is_autocommit());

        let inner_open = store
            .snapshot(|| store.snapshot(|| Ok(!store.conn.is_autocommit())))
            .unwrap();
        assert!(inner_open);
        assert!(store.conn.is_autocommit());
    }
}
