//! Opening, migrating and checking the database file.

use carepath_core::Error;
use carepath_core::store::{SCHEMA_VERSION, Store};

#[test]
fn a_new_file_gets_the_whole_schema_and_the_pragmas() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    let store = Store::open(&path).unwrap();
    assert!(store.check().unwrap().is_empty());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    for table in [
        "intakes",
        "intake_forms",
        "assessments",
        "care_plan_proposals",
        "contracts",
        "client_contacts",
        "communications",
        "users",
        "user_roles",
        "message_templates",
        "pricing_templates",
        "contract_templates",
        "contract_template_sections",
        "settings",
        "sessions",
        "auth_tokens",
        "audit_log",
        "import_batches",
        "invitations",
        "intakes_search",
        "tasks",
        "queue_snoozes",
        "owner_counts",
    ] {
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 1, "table {table} missing");
    }
}

#[test]
fn reopening_does_not_migrate_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.db");
    drop(Store::open(&path).unwrap());
    drop(Store::open(&path).unwrap());
    assert!(Store::open(&path).unwrap().check().unwrap().is_empty());
}

#[test]
fn a_database_from_a_newer_carepath_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("newer.db");
    drop(Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(conn);
    match Store::open(&path) {
        Err(Error::SchemaTooNew { found, known }) => {
            assert_eq!(found, SCHEMA_VERSION + 1);
            assert_eq!(known, SCHEMA_VERSION);
        }
        Err(other) => panic!("expected SchemaTooNew, got {other}"),
        Ok(_) => panic!("a newer schema was opened"),
    }
}

#[test]
fn foreign_keys_are_enforced_on_every_connection() {
    let test = crate::support::open();
    let conn = rusqlite::Connection::open(test.store.path()).unwrap();
    // A plain connection has them off; the store's must have them on.
    let store = test.second_connection();
    let _ = store;
    let on: i64 = {
        let probe = carepath_core::store::Store::open(test.store.path()).unwrap();
        drop(probe);
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(on, 1);
    let err = conn.execute(
        "INSERT INTO client_contacts (id, intake_id, full_name, created_at, updated_at) VALUES ('c', 'missing', 'x', 't', 't')",
        [],
    );
    assert!(err.is_err(), "a contact for a missing intake was accepted");
}

#[test]
fn backup_makes_a_checked_copy() {
    let mut test = crate::support::open();
    test.store
        .create_intake(
            &test.staff.clone(),
            crate::support::intake_form("Backup Client"),
        )
        .unwrap();
    let target = test.dir.path().join("copy.db");
    test.store.backup_to(&target).unwrap();
    let copy = Store::open(&target).unwrap();
    assert!(copy.check().unwrap().is_empty());
    assert_eq!(copy.search("Backup").unwrap().len(), 1);
}

#[test]
fn a_version_1_database_keeps_every_intake_form_when_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../../src/store/migrations/0001_init.sql"))
            .unwrap();
        conn.execute_batch(
            r#"INSERT INTO intakes (id, client_full_name, form_data, status, created_at,
                   updated_at, stage_entered_at, overdue_at)
               VALUES ('01a2b3c4-0000-7000-8000-000000000001', 'Rose Alvarez',
                   '{"clientFullName":"Rose Alvarez","city":"Evanston","servicesRequired":["Companionship"]}',
                   'pending', '2026-11-20T15:00:00.000Z', '2026-11-20T15:00:00.000Z',
                   '2026-11-20T15:00:00.000Z', '2026-11-26T05:00:00.000Z');
               PRAGMA user_version = 1;"#,
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let id = carepath_core::model::IntakeId::from("01a2b3c4-0000-7000-8000-000000000001");
    let intake = store.get_intake(&id).unwrap();
    assert_eq!(intake.form.city, "Evanston");
    assert_eq!(intake.form.services_required, vec!["Companionship"]);
    assert!(store.check().unwrap().is_empty());
    assert_eq!(store.search("Alvarez").unwrap().len(), 1);
    // Migration 11 built the search index again from 2-character pieces.
    assert_eq!(store.search("lv").unwrap().len(), 1);
    assert!(store.search("Alvarex").unwrap().is_empty());
    // The export's form columns were filled from the stored form.
    let mut csv = Vec::new();
    store
        .export(
            carepath_core::export::ExportKind::Intakes,
            &carepath_core::export::ExportOptions::default(),
            &mut csv,
        )
        .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains(",Evanston,"), "{row}");
}

#[test]
fn a_new_database_starts_with_the_three_default_pricing_templates() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("fresh.db")).unwrap();
    let templates = store.pricing_templates().unwrap();
    let mut seen: Vec<(&str, f64, f64, f64, f64, f64, bool)> = templates
        .iter()
        .map(|t| {
            (
                t.name.as_str(),
                t.base_rate,
                t.premiums.weekend,
                t.premiums.evening,
                t.premiums.overnight,
                t.premiums.holiday_multiplier,
                t.is_default,
            )
        })
        .collect();
    seen.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(
        seen,
        vec![
            ("Complex/Medical Care", 35.0, 2.0, 4.0, 6.0, 1.5, false),
            ("Personal Care Services", 32.0, 2.0, 3.0, 5.0, 1.5, false),
            ("Standard Companion Care", 28.5, 2.0, 0.0, 0.0, 1.5, true),
        ]
    );
    assert!(templates.iter().all(|t| t.is_active));
    let standard = templates.iter().find(|t| t.is_default).unwrap();
    assert_eq!(
        standard.notes.as_deref(),
        Some("companionship and light housekeeping")
    );
}
