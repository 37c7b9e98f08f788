//! `carepath user`, `backup` and `db`: accounts, the backup round trip and the check.

use crate::common::{carepath, carepath_with_input, ok, sample_agency, stderr};

#[test]
fn user_commands_manage_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let add = carepath_with_input(
        &db,
        &[
            "user",
            "add",
            "Ana@Agency.example",
            "--name",
            "Ana Ruiz",
            "--admin",
            "--password-stdin",
        ],
        "correct horse\n",
    );
    let report = ok(add);
    assert!(
        report.contains("Ana Ruiz <ana@agency.example> as administrator"),
        "{report}"
    );
    ok(carepath_with_input(
        &db,
        &[
            "user",
            "add",
            "ben@agency.example",
            "--name",
            "Ben Ito",
            "--password-stdin",
        ],
        "battery staple\n",
    ));
    let list = ok(carepath(&db, &["user", "list"]));
    assert_eq!(
        list,
        "ana@agency.example\tAna Ruiz\tadmin\tactive\nben@agency.example\tBen Ito\tstaff\tactive\n"
    );

    // A password is never taken from the command line, and without a terminal the
    // prompt refuses rather than hangs.
    let no_tty = carepath(&db, &["user", "set-password", "ben@agency.example"]);
    assert_eq!(no_tty.status.code(), Some(1));
    assert!(stderr(&no_tty).contains("--password-stdin"));
    let short = carepath_with_input(
        &db,
        &[
            "user",
            "set-password",
            "ben@agency.example",
            "--password-stdin",
        ],
        "abc\n",
    );
    assert_eq!(short.status.code(), Some(1));
    assert!(stderr(&short).contains("Password must be at least 6 characters"));
    ok(carepath_with_input(
        &db,
        &[
            "user",
            "set-password",
            "ben@agency.example",
            "--password-stdin",
        ],
        "a new secret\n",
    ));
    let mut store = carepath_core::store::Store::open(&db).unwrap();
    assert!(
        store
            .verify_sign_in("ben@agency.example", "a new secret", "cli-test")
            .unwrap()
            .is_ok()
    );
    drop(store);

    ok(carepath(
        &db,
        &["user", "grant-admin", "ben@agency.example"],
    ));
    ok(carepath(
        &db,
        &["user", "revoke-admin", "ana@agency.example"],
    ));
    let last = carepath(&db, &["user", "revoke-admin", "ben@agency.example"]);
    assert_eq!(last.status.code(), Some(1));
    assert!(stderr(&last).contains("at least one administrator"));
    ok(carepath(&db, &["user", "disable", "ana@agency.example"]));
    let invited = ok(carepath(
        &db,
        &[
            "user",
            "invite",
            "cara@agency.example",
            "--public-url",
            "https://care.example.org/",
        ],
    ));
    assert!(
        invited.contains("https://care.example.org/login#type=invite&token=")
            && invited.contains("&email=cara@agency.example"),
        "{invited}"
    );
    let list = ok(carepath(&db, &["user", "list"]));
    assert!(
        list.contains("ana@agency.example\tAna Ruiz\tstaff\tdisabled"),
        "{list}"
    );
    assert!(
        list.contains("ben@agency.example\tBen Ito\tadmin\tactive"),
        "{list}"
    );

    // Re-enabled, Ana is active again.
    ok(carepath(&db, &["user", "enable", "ana@agency.example"]));
    let list = ok(carepath(&db, &["user", "list"]));
    assert!(
        list.contains("ana@agency.example\tAna Ruiz\tstaff\tactive"),
        "{list}"
    );

    // An administrator who lost their phone gets back in from the terminal.
    let mut store = carepath_core::store::Store::open(&db).unwrap();
    let ben = store.user_by_email("ben@agency.example").unwrap();
    let signed_in = store.session_user_by_id(&ben.id).unwrap();
    let keys = carepath_core::secrets::SecretKeySource::for_database(&db, None);
    let enrolment = store.start_totp_enrolment(&keys, &signed_in).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let code = carepath_core::rules::second_factor::totp_code(&enrolment.secret, now).unwrap();
    let actor = signed_in.actor(carepath_core::model::Channel::Web);
    store
        .confirm_totp(&keys, &actor, &signed_in, &code)
        .unwrap();
    assert!(store.has_second_factor(&ben.id).unwrap());
    drop(store);
    ok(carepath(
        &db,
        &["user", "reset-second-factor", "ben@agency.example"],
    ));
    let store = carepath_core::store::Store::open(&db).unwrap();
    assert!(!store.has_second_factor(&ben.id).unwrap());
    drop(store);

    let missing = carepath(&db, &["user", "disable", "nobody@agency.example"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(stderr(&missing).lines().count(), 1);
    let usage = carepath(&db, &["user", "add", "x@y.z", "--password", "secret"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn backup_restores_the_same_data_and_check_passes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    let backup = dir.path().join("copies").join("agency-backup.db");
    std::fs::create_dir(backup.parent().unwrap()).unwrap();
    let report = ok(carepath(&db, &["backup", backup.to_str().unwrap()]));
    assert!(report.contains("checked"), "{report}");
    let leftovers: Vec<_> = std::fs::read_dir(backup.parent().unwrap())
        .unwrap()
        .collect();
    assert_eq!(leftovers.len(), 1, "only the backup itself");

    // Restore: the copy, used as the database, exports exactly what the original does.
    let restored = dir.path().join("restored.db");
    std::fs::copy(&backup, &restored).unwrap();
    for kind in ["clients", "contracts", "communications"] {
        assert_eq!(
            ok(carepath(&restored, &["export", kind, "-o", "-"])),
            ok(carepath(&db, &["export", kind, "-o", "-"]))
        );
    }
    assert!(ok(carepath(&restored, &["db", "check"])).contains("ok"));
    assert!(ok(carepath(&restored, &["db", "migrate"])).contains("schema version"));

    let itself = carepath(&db, &["backup", db.to_str().unwrap()]);
    assert_eq!(itself.status.code(), Some(1));
    let none = carepath(&dir.path().join("missing.db"), &["db", "check"]);
    assert_eq!(none.status.code(), Some(1));
}

#[test]
fn db_check_fails_on_a_broken_foreign_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA foreign_keys = OFF; UPDATE client_contacts SET intake_id = 'gone';")
        .unwrap();
    drop(conn);
    let output = carepath(&db, &["db", "check"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(crate::common::stdout(&output).contains("foreign key: client_contacts"));
    assert!(stderr(&output).contains("1 problem(s) found"));
}
