//! `carepath doctor`: the setup checklist on the console, failing while a required item
//! is missing and passing once the agency is ready.

use carepath_core::model::{Actor, Channel, EmailSettings, GeneralSettings, SettingsTab};
use carepath_core::store::{NewUser, Store};

use crate::common::{carepath, stderr, stdout};

#[test]
fn doctor_fails_until_every_required_item_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let mut store = Store::open(&db).unwrap();
    let system = Actor::system(Channel::Cli);
    store
        .create_user(
            &system,
            NewUser {
                email: "owner@agency.example".into(),
                full_name: "Olivia Owner".into(),
                password: Some("owner-secret".into()),
                is_admin: true,
            },
        )
        .unwrap();

    let fresh = carepath(&db, &["doctor", "--public-url", "http://127.0.0.1:8080"]);
    assert_eq!(fresh.status.code(), Some(1));
    let report = stdout(&fresh);
    for line in [
        "[FAIL] Sender and reply-to address (required)",
        "[FAIL] Contact phone and address (required)",
        "[FAIL] Email tested (required)",
        "[FAIL] Public address on https (required)",
        "[todo] Agency logo",
        "[ok  ] Texts tested, or turned off",
        "[todo] Backups replicating (not configured)",
    ] {
        assert!(report.contains(line), "{line} in:\n{report}");
    }
    assert!(report.contains("printed on every letter and contract"));
    assert!(
        stderr(&fresh).contains("4 required setup item(s) missing"),
        "{}",
        stderr(&fresh)
    );

    store
        .update_settings(
            &system,
            0,
            SettingsTab::Email(EmailSettings {
                default_from: "office@agency.example".into(),
                reply_to: "replies@agency.example".into(),
                ..EmailSettings::default()
            }),
        )
        .unwrap();
    store
        .update_settings(
            &system,
            0,
            SettingsTab::General(GeneralSettings {
                contact_phone: "(555) 010-2000".into(),
                postal_address: "12 Elm Street".into(),
                ..GeneralSettings::default()
            }),
        )
        .unwrap();
    store
        .record_outbound_test("email", true, "accepted")
        .unwrap();
    drop(store);

    let ready = carepath(
        &db,
        &["doctor", "--public-url", "https://care.agency.example"],
    );
    let report = stdout(&ready);
    assert_eq!(ready.status.code(), Some(0), "{report}{}", stderr(&ready));
    assert!(report.contains("[ok  ] Email tested"));
    assert!(report.contains("[todo] Another staff member invited"));
    assert!(report.ends_with("Carepath is set up.\n"), "{report}");
}
